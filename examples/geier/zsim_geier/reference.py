"""The reference engine: Hol's der Geier played round by round, in rulebook order.

Written for reading, not speed, from the rulings in the package's README;
the game record is ``TRACE.md`` beside the package. Everything a game cannot
derive comes from two pluggable objects, so one :class:`Game` plays fresh
games and replays records:

* a *chance* object orders the prize deck (:class:`SeededChance` from the
  seeded streams; the replayer of :mod:`.replay` from a record), and
* a *decider* gives each seat's sealed bid (:class:`~.reference_bots.BotDecider`
  asks the reference bots, :class:`~.reference_kernels.KernelDecider` the
  compiled strategies, the replayer reads the record).

Randomness layout (a fast engine must reproduce it draw for draw)
------------------------------------------------------------------
``key = zsim.rng.game_key(seed, game_index)``; every stream is
``zsim.rng.PyStream(key, stream)``.

* **Stream 0, the prize deck**: one shuffle before the first round, the
  prizes in canonical order (ascending by value) shuffled by
  :func:`zsim.rng.fisher_yates`; position 0 is turned up first.
* **Stream 1 + seat**: that seat's strategy (``random``: one
  ``below(len(hand))`` per bid; ``matcher`` and ``greedy``: none).

Nothing else is random: the bids decide every round.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from zsim.errors import ZsimError
from zsim.record_referee import Recording
from zsim.rng import PyStream, fisher_yates, game_key
from zsim_geier import cards as C
from zsim_geier.reference_bots import BotDecider, SeatView, make_bot
from zsim_geier.rules import Rules

NAME = "geier"
DECK_STREAM = 0


class RuleError(ZsimError):
    """A decider or chance object asked for something the rules do not allow."""


class SeededChance:
    """Chance for fresh games: stream 0 orders the prize deck."""

    def __init__(self, key: int):
        self.deck = PyStream(key, DECK_STREAM)

    def prize_deck(self, game) -> list:
        return fisher_yates(C.prize_values(game.rules), self.deck)


@dataclass
class Result:
    """One game's outcome: per-seat lists (index = seat) and per-game numbers."""

    players: int
    scores: list
    places: list           # 1 = best; ties share and skip
    prizes: list           # prize cards taken
    mice: list             # points of the positive prizes taken
    vultures: list         # points of the vulture cards taken (0 or less)
    tables: list           # times the seat took the table
    cancelled: list        # bids cancelled by a tie
    carries: int
    tied_rounds: int
    discarded: int
    discarded_points: int
    biggest_table: int
    events: list = field(default_factory=list)
    decisions: int = 0     # times a seat's strategy was asked


def places_of(scores: list) -> list:
    """Most points first; tied players share a place and the next is skipped."""
    return [1 + sum(other > mine for other in scores) for mine in scores]


class Game(Recording):
    """One game; ``play()`` runs it to the end and returns its :class:`Result`.

    ``referee`` (replays) is told of every event as it is written, before it
    is kept, so that a record is compared line by line."""

    def __init__(self, players: int, rules: Rules, chance, decider, *, seed=0, game_index=0,
                 strategies=(), record: bool = False, referee=None):
        rules.validate(players)
        self.n, self.rules, self.chance, self.decider = players, rules, chance, decider
        self.seed, self.game_index, self.strategies = seed, game_index, list(strategies)
        self.record, self.referee = record or referee is not None, referee
        self.events: list[dict] = []
        self.decisions = 0
        self.hands = [C.bid_cards(rules) for _ in range(players)]
        self.shown: list[list[int]] = [[] for _ in range(players)]
        self.taken: list[list[int]] = [[] for _ in range(players)]
        self.deck: list[int] = []
        self.round_no = 0
        self.table: list[int] = []
        self.st = {k: [0] * players for k in ("tables", "cancelled")}
        self.carries = self.tied_rounds = self.discarded = self.discarded_points = self.biggest = 0

    # -------------------------------------------------------------- views
    @property
    def left(self) -> list:
        """The prizes still to come (their order is hidden from the seats)."""
        return self.deck[self.round_no:]

    def seat_view(self, seat: int) -> SeatView:
        return SeatView(seat=seat, players=self.n, round=self.round_no, hand=tuple(sorted(self.hands[seat])),
                        prize=self.table[-1], table=tuple(self.table), pot=sum(self.table),
                        left=tuple(sorted(self.left)), shown=tuple(tuple(s) for s in self.shown),
                        taken=tuple(tuple(sorted(t)) for t in self.taken), rules=self.rules)

    def ask(self, seat: int) -> int:
        self.decisions += 1
        bid = self.decider.bid(self, seat)
        if type(bid) is not int or bid not in self.hands[seat]:
            raise RuleError(f"seat {seat} bid {bid!r} in round {self.round_no}; its hand is "
                            f"{sorted(self.hands[seat])}")
        return bid

    # -------------------------------------------------------------- the game
    def play(self) -> Result:
        self.emit("start", name=NAME, players=self.n, seed=self.seed, game=self.game_index,
                  rules=self.rules.as_dict(), strategies=list(self.strategies))
        deck = list(self.chance.prize_deck(self))
        if sorted(deck) != C.prize_values(self.rules):
            raise RuleError(f"the prize deck must hold each of {C.prize_values(self.rules)} once")
        self.deck = deck
        self.emit("deck", prizes=list(deck))
        for card in deck:
            self.play_round(card)
        if self.table:                       # a pot still on the table after the last round
            self.discard("end")
        return self.finish()

    def play_round(self, card: int) -> None:
        """Turn ``card`` up, take every seat's sealed bid, and settle the table."""
        self.round_no += 1
        self.table.append(card)
        self.emit("turn", round=self.round_no, prize=card, table=list(self.table), pot=sum(self.table))
        bids = [self.ask(seat) for seat in range(self.n)]      # sealed: none sees another's
        for seat, bid in enumerate(bids):
            self.hands[seat].remove(bid)
            self.shown[seat].append(bid)
        count = Counter(bids)
        cancelled = sorted(b for b, k in count.items() if k > 1)
        self.emit("bids", bids=bids, cancelled=cancelled)
        if cancelled:
            self.tied_rounds += 1
            for seat, bid in enumerate(bids):
                if count[bid] > 1:
                    self.st["cancelled"][seat] += 1
        unique = [b for b in bids if count[b] == 1]
        if unique:                           # the card just turned decides: mice high, vultures low
            best = max(unique) if card > 0 else min(unique)
            self.take(bids.index(best), best)
        elif self.rules.carry_over:
            self.carries += 1
            self.emit("carry", cards=list(self.table), pot=sum(self.table))
        else:
            self.discard("tie")

    def take(self, seat: int, bid: int) -> None:
        cards = list(self.table)
        self.taken[seat] += cards
        self.st["tables"][seat] += 1
        self.biggest = max(self.biggest, len(cards))
        self.table = []
        self.emit("take", seat=seat, bid=bid, cards=cards, points=sum(cards))

    def discard(self, why: str) -> None:
        cards = list(self.table)
        self.discarded += len(cards)
        self.discarded_points += sum(cards)
        self.table = []
        self.emit("discard", cards=cards, points=sum(cards), why=why)

    def finish(self) -> Result:
        scores = [sum(t) for t in self.taken]
        places = places_of(scores)
        self.emit("end", scores=scores, places=places, taken=[sorted(t) for t in self.taken])
        return Result(
            players=self.n, scores=scores, places=places, prizes=[len(t) for t in self.taken],
            mice=[sum(v for v in t if v > 0) for t in self.taken],
            vultures=[sum(v for v in t if v < 0) for t in self.taken],
            tables=list(self.st["tables"]), cancelled=list(self.st["cancelled"]),
            carries=self.carries, tied_rounds=self.tied_rounds, discarded=self.discarded,
            discarded_points=self.discarded_points, biggest_table=self.biggest,
            events=self.events, decisions=self.decisions)


def play_game(players: int, rules: Rules | None = None, strategies=None, seed: int = 0, game_index: int = 0,
              params=None, record: bool = False) -> Result:
    """Game ``game_index`` of ``seed`` played by the reference bots ``strategies`` (names,
    one per seat), ``params`` each seat's parameter values (None: the defaults)."""
    rules = rules or Rules()
    rules.validate(players)
    strategies = list(strategies or ["random"] * players)
    if len(strategies) != players:
        raise ValueError(f"{players} players need {players} strategies, got {len(strategies)}")
    params = [None] * players if params is None else list(params)
    key = game_key(seed, game_index)
    bots = [make_bot(name, key, s, params[s]) for s, name in enumerate(strategies)]
    game = Game(players, rules, SeededChance(key), BotDecider(bots), seed=seed, game_index=game_index,
                strategies=strategies, record=record)
    return game.play()
