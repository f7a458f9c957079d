"""The reference engine: Zahlemann & Söhne played card by card, in rulebook order.

Written for reading, not speed; the rules are docs/rules.md (Zahlemann part,
following the shared RULES.md) and the game record is TRACE.md. Everything a
game cannot derive comes from two pluggable objects, so one :class:`Game`
plays fresh games and replays records:

* a *chance* object shuffles (each round's deck, each reshuffle of the
  discards) and draws the two announcement outcomes
  (:class:`SeededChance` from the seeded streams; the replayer of
  :mod:`.replay` from a record), and
* a *decider* makes the seats' decisions
  (:class:`~.strategies.StrategyDecider` asks strategies; the replayer reads
  a record and checks each decision is legal).

Randomness layout (a fast engine must reproduce it draw for draw)
------------------------------------------------------------------
``key = zsim.rng.game_key(seed, game_index)``; every stream is
``zsim.rng.PyStream(key, stream)``.

* **Stream 0, the deck**: every shuffle, in the order they happen.
  - A round's deck: the 36 cards in canonical order (card ints 0..35: ``1R``
    ... ``50V``) shuffled by :func:`fisher_yates`; position 0 is the top.
    Cards ``0 .. P*hand_size-1`` are dealt, card ``k`` to seat
    ``(start + k) mod P``; the next card is turned up; the rest, in order,
    is the draw pile (top first).
  - A reshuffle: the discards under the top, listed from the bottom of the
    pile (played earliest) upwards, shuffled by :func:`fisher_yates`;
    position 0 is the new draw pile's top.
  :func:`fisher_yates` goes from the bottom: for ``i = n-1 .. 1`` swap
  positions ``i`` and ``below(i + 1)`` (``n - 1`` draws for ``n`` cards).
* **Stream 1 + seat**: that seat's strategy (``random``: one
  ``below(len(options))`` per decision; ``first``: none).
* **Stream 5, the announcements** (one stream for the whole game): after
  every play leaving exactly one card, the forget draw, then, if forgotten,
  the notice draw. Each is exactly one ``draw()``, even when its outcome is
  forced (probability 0 or 1): ``u = (draw() >> 11) * 2**-53`` and the event
  (forgetting with the seat's ``forget``, noticing with ``notice``) happens
  iff ``u < p``.

Nothing else is random: dealing, draws, payments and ties are fixed by the
rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from zsim.errors import ZsimError
from zsim.games.zahlemann import cards as C
from zsim.games.zahlemann import payment as pay
from zsim.games.zahlemann.rules import Rules
from zsim.games.zahlemann.reference_bots import (
    BONUS, DRAWN, KEEP, PLAY, STOP, OracleView, SeatView, StrategyDecider, make_strategy)
from zsim.record_referee import Recording
from zsim.rng import PyStream, fisher_yates, game_key

NAME = "zahlemann"
DECK_STREAM = 0
ANNOUNCE_STREAM = 5
TWO_53 = 2.0 ** -53

#: per-seat columns of :class:`Result` (what a simulator tabulates)
SEAT_COLUMNS = ("coins", "total", "place", "win_share", "rounds_won", "paid", "received", "bankrupt",
                "cards_played", "cards_drawn", "penalty_draws", "forgotten", "noticed", "shortfall")
#: per-game columns of :class:`Result`
GAME_COLUMNS = ("rounds", "void_rounds", "turns", "reshuffles", "end_reason", "change_shortfall",
                "bonus_plays", "skips", "hand_passes")


class RuleError(ZsimError):
    """A decider or chance object asked for something the rules do not allow."""


def unit_draw(stream: PyStream) -> float:
    """A uniform number in [0, 1) from one draw: the top 53 bits."""
    return (stream.draw() >> 11) * TWO_53


class SeededChance:
    """Chance for fresh games: stream 0 shuffles, stream 5 announces (see the module docstring)."""

    def __init__(self, key: int):
        self.deck = PyStream(key, DECK_STREAM)
        self.announcements = PyStream(key, ANNOUNCE_STREAM)

    def round_deck(self, game) -> list:
        return fisher_yates(list(C.CARDS), self.deck)

    def reshuffle(self, game, cards: list) -> list:
        return fisher_yates(cards, self.deck)

    def forgot(self, game, seat: int, p: float) -> bool:
        return unit_draw(self.announcements) < p

    def noticed(self, game, seat: int, p: float) -> bool:
        return unit_draw(self.announcements) < p


# ------------------------------------------------------------------ the result
@dataclass
class Result:
    """One game's outcome: per-seat lists (index = seat) and per-game numbers."""

    players: int
    coins: list            # final money per seat: holding [50,20,10,5,2,1], or an int (money=total)
    totals: list           # value of each seat's money
    places: list           # 1 = best; ties share and skip
    win_share: list        # 1/k for each of k players sharing first place, else 0
    rounds_won: list
    paid: list             # sum of the seat's payments (value handed over minus change)
    received: list         # sum of the payments the seat received as a winner
    bankrupt: list         # bool per seat
    cards_played: list
    cards_drawn: list      # every draw that gave a card (no_match, penalty, fifty)
    penalty_draws: list    # of them, penalty cards
    forgotten: list        # announcements forgotten
    noticed: list          # of them, noticed
    shortfall: list        # what the seat lost as a payer because no change was made
    rounds: int            # rounds played, void ones included
    void_rounds: int
    turns: int             # all turns of the game, skipped ones included
    reshuffles: int
    end_reason: str        # "bankrupt" or "round_cap"
    change_shortfall: int  # sum of ``shortfall``
    bonus_plays: int
    skips: int
    hand_passes: int
    bank: list | None      # change=bank with coins: the bank's net stock change per denomination
    events: list = field(default_factory=list)
    decisions: int = 0     # times a seat's strategy was asked (zsim bench's decisions/s)

    def seat_rows(self) -> list[dict]:
        """One dict per seat, keyed by :data:`SEAT_COLUMNS`."""
        attr = {"total": "totals", "place": "places"}
        return [{col: getattr(self, attr.get(col, col))[s] for col in SEAT_COLUMNS}
                for s in range(self.players)]

    def game_row(self) -> dict:
        """The game's numbers, keyed by :data:`GAME_COLUMNS`."""
        return {col: getattr(self, col) for col in GAME_COLUMNS}


def money_json(money):
    """A player's money as records write it: a holding as a list, or an int."""
    return money if isinstance(money, int) else list(money)


def places_of(totals: list) -> list:
    """Most money first; tied players share a place and the next is skipped."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


# ------------------------------------------------------------------ the game
class Game(Recording):
    """One game; ``play()`` runs it to the end and returns its :class:`Result`.

    ``referee`` (replays) is told of every event as it is written, before it
    is kept, so a record can be compared line by line.
    """

    def __init__(self, players: int, rules: Rules, chance, decider, *, forget=None, seed=0,
                 game_index=0, strategies=(), record: bool = False, referee=None):
        rules.validate(players)
        self.n, self.rules, self.chance, self.decider = players, rules, chance, decider
        self.decisions = 0                     # times a seat's strategy is asked
        self.forget = [0.0] * players if forget is None else [float(f) for f in forget]
        if len(self.forget) != players:
            raise ValueError(f"{players} players need {players} forget values, got {len(self.forget)}")
        self.seed, self.game_index, self.strategies = seed, game_index, list(strategies)
        self.record, self.referee = record or referee is not None, referee
        self.events: list[dict] = []
        self.total_money = rules.money == "total"
        start = rules.start_value if self.total_money else tuple(rules.coins)
        self.money: list = [start] * players
        self.bank = pay.EMPTY                  # the bank's net stock change (change=bank)
        # the table
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = []         # top first
        self.discards: list[int] = []          # bottom first: the top card is discards[-1]
        self.round_no = self.turn_no = 0
        self.starter = 0                       # seat 0, "the youngest", starts round 1
        self.deadlock = 0
        self.skip_pending = False              # fifty_skips: the next turn is skipped
        self.penalty_cards: set[int] = set()   # penalty cards drawn in the current turn
        self.passed_on: list[list[tuple]] = [[] for _ in range(players)]
        # statistics
        zeros = [0] * players
        self.st = {k: list(zeros) for k in ("rounds_won", "paid", "received", "cards_played",
                                            "cards_drawn", "penalty_draws", "forgotten", "noticed",
                                            "shortfall")}
        self.bankrupt = [False] * players
        self.void_rounds = self.turns = self.reshuffles = 0
        self.bonus_plays = self.skips = self.hand_passes = 0

    # -------------------------------------------------------------- small helpers
    @property
    def top(self) -> int:
        return self.discards[-1]

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.n

    def ask(self, seat: int, kind: str, options: tuple):
        self.decisions += 1
        choice = self.decider.decide(self, seat, kind, options)
        if choice not in options:
            shown = ", ".join(o if isinstance(o, str) else C.code(o) for o in options)
            raise RuleError(f"seat {seat} chose {choice!r} for a {kind} decision; the options are {shown}")
        return choice

    def seat_view(self, seat: int, kind: str, options: tuple) -> SeatView:
        """What ``seat`` may know: own hand, the discards, sizes, money, the clock."""
        return SeatView(
            seat=seat, players=self.n, kind=kind, options=tuple(options),
            hand=tuple(sorted(self.hands[seat])), top=self.top, discards=tuple(reversed(self.discards)),
            draw_pile_size=len(self.draw_pile), hand_sizes=tuple(len(h) for h in self.hands),
            money=tuple(self.money), round=self.round_no, turn=self.turn_no, starter=self.starter,
            passed_on=tuple(self.passed_on[seat]), rules=self.rules)

    def oracle_view(self) -> OracleView:
        """HIDDEN INFORMATION, for baselines marked unfair only."""
        return OracleView(hands=tuple(tuple(sorted(h)) for h in self.hands),
                          draw_pile=tuple(self.draw_pile))

    # -------------------------------------------------------------- the game
    def play(self) -> Result:
        self.emit("start", name=NAME, players=self.n, seed=self.seed, game=self.game_index,
                  rules=self.rules.as_dict(), strategies=list(self.strategies),
                  forget=list(self.forget), coins=[money_json(m) for m in self.money])
        reason = "round_cap"
        while self.round_no < self.rules.max_rounds:
            winner = self.play_round()
            if winner is None:                 # void: nobody pays, the same player starts
                continue
            went_bankrupt, starter = self.settle_round(winner)
            if went_bankrupt:                  # checked before the round cap: bankrupt wins
                reason = "bankrupt"
                break
            self.starter = starter
        return self.finish(reason)

    def play_round(self) -> int | None:
        """Set up afresh and play turns until a winner (returned) or a void round (None)."""
        self.round_no += 1
        deck = list(self.chance.round_deck(self))
        if sorted(deck) != list(C.CARDS):
            raise RuleError(f"round {self.round_no}: the deck must hold each of the 36 cards once")
        dealt = self.n * self.rules.hand_size
        self.hands = [[] for _ in range(self.n)]
        for k in range(dealt):                 # one at a time, from the starter, clockwise
            self.hands[(self.starter + k) % self.n].append(deck[k])
        self.discards = [deck[dealt]]
        self.draw_pile = deck[dealt + 1:]
        self.turn_no = self.deadlock = 0
        self.skip_pending = False
        self.passed_on = [[] for _ in range(self.n)]
        self.emit("round", round=self.round_no, start=self.starter, deck=C.codes(deck),
                  hands=[C.hand_codes(h) for h in self.hands], discard=C.code(self.top))
        seat = self.starter
        while True:
            if self.take_turn(seat):
                return seat
            if self.deadlock >= self.n:
                return self.void("deadlock")
            if self.turn_no >= self.rules.max_turns:
                return self.void("turn_cap")
            seat = self.left_of(seat)

    def void(self, why: str) -> None:
        self.void_rounds += 1
        self.emit("void_round", round=self.round_no, why=why)

    # -------------------------------------------------------------- a turn
    def take_turn(self, seat: int) -> bool:
        """One turn of ``seat``; True when they emptied their hand."""
        self.turn_no += 1
        self.turns += 1
        self.emit("turn", seat=seat, n=self.turn_no)
        self.penalty_cards = set()
        if self.skip_pending:                  # fifty_skips: the whole turn is one draw
            self.skip_pending = False
            self.skips += 1
            self.emit("skip", seat=seat)
            self.draw(seat, "fifty")
            return False
        top = self.discards[-1]
        options = tuple(sorted([c for c in self.hands[seat] if C.matches(c, top)]))
        if options:                            # 1. must play a matching card
            return self.resolve_play(seat, self.ask(seat, PLAY, options), "hand")
        card = self.draw(seat, "no_match")     # 2. else one draw
        if card is None:                       # no card played, none drawn: the deadlock count
            self.emit("pass_turn", seat=seat, why="no_card")
            self.deadlock += 1
            return False
        if not C.matches(card, self.top):
            self.emit("pass_turn", seat=seat, why="no_match")
            return False
        if self.ask(seat, DRAWN, (card, KEEP)) == KEEP:
            self.emit("pass_turn", seat=seat, why="kept")
            return False
        return self.resolve_play(seat, card, "drawn")

    def resolve_play(self, seat: int, card: int, source: str) -> bool:
        """Resolving a play, in the ruling's order; True when the hand is empty."""
        hand = self.hands[seat]
        hand.remove(card)
        self.discards.append(card)
        self.deadlock = 0
        self.st["cards_played"][seat] += 1
        if source == "bonus":
            self.bonus_plays += 1
        self.emit("play", seat=seat, card=C.code(card), **{"from": source})
        if not hand:                           # 1. out: the round is won, no effect
            return True
        penalty = len(hand) == 1 and self.announcement(seat)   # 2. announcement check
        value = C.value_of(card)
        passes = value == 2 and self.rules.two_passes_hands
        if penalty and not passes:
            self.draw(seat, "penalty")
        # 3. the card's variant effect
        if value == 1 and self.rules.one_plays_again:
            bonus = tuple(sorted(c for c in self.hands[seat]
                                 if C.matches(c, card) and c not in self.penalty_cards))
            if bonus:
                choice = self.ask(seat, BONUS, bonus + (STOP,))
                if choice != STOP:
                    return self.resolve_play(seat, choice, "bonus")
        elif passes:
            self.pass_hands()
            if penalty:                        # drawn once the hands have moved
                self.draw(seat, "penalty")
        elif value == 50 and self.rules.fifty_skips:
            self.skip_pending = True
        return False                           # 4. the turn ends

    def announcement(self, seat: int) -> bool:
        """Announcing "Zahlemann": True when a forgotten call was noticed."""
        if not self.chance.forgot(self, seat, self.forget[seat]):
            self.emit("announce", seat=seat)
            return False
        self.st["forgotten"][seat] += 1
        self.emit("forgot", seat=seat)
        noticed = bool(self.chance.noticed(self, seat, self.rules.notice))
        if noticed:
            self.st["noticed"][seat] += 1
        self.emit("noticed", seat=seat, noticed=noticed)
        return noticed

    def draw(self, seat: int, why: str) -> int | None:
        """Draw the top card (reshuffling the discards first if the pile is empty)."""
        if not self.draw_pile and len(self.discards) > 1:
            pile = list(self.chance.reshuffle(self, self.discards[:-1]))
            if sorted(pile) != sorted(self.discards[:-1]):
                raise RuleError("a reshuffle must order exactly the discards under the top")
            self.discards = [self.top]
            self.draw_pile = pile
            self.reshuffles += 1
            self.emit("reshuffle", pile=C.codes(pile))
        if not self.draw_pile:
            self.emit("draw", seat=seat, card=None, why=why)
            return None
        card = self.draw_pile.pop(0)
        self.hands[seat].append(card)
        self.deadlock = 0
        self.st["cards_drawn"][seat] += 1
        if why == "penalty":
            self.penalty_cards.add(card)
            self.st["penalty_draws"][seat] += 1
        self.emit("draw", seat=seat, card=C.code(card), why=why)
        return card

    def pass_hands(self) -> None:
        """two_passes_hands: seat s's hand goes to seat s + 1, all at once."""
        for s, hand in enumerate(self.hands):
            self.passed_on[s].append(tuple(sorted(hand)))
        self.hands = [self.hands[(s - 1) % self.n] for s in range(self.n)]
        self.hand_passes += 1
        self.emit("pass_hands", hands=[C.hand_codes(h) for h in self.hands])

    # -------------------------------------------------------------- round end
    def settle_round(self, winner: int) -> tuple[list, int]:
        """Payments clockwise from the winner's left; (bankrupt seats, next starter)."""
        owed = [0 if s == winner else C.hand_value(h) for s, h in enumerate(self.hands)]
        payments: list = [None] * self.n
        paid = [0] * self.n
        broke = []
        for k in range(1, self.n):
            s = (winner + k) % self.n
            if self.total_money:
                done = pay.settle_total(self.money[s], self.money[winner], owed[s])
            else:
                done = pay.settle(self.money[s], self.money[winner], owed[s], self.rules.change)
                self.bank = tuple(b + d for b, d in zip(self.bank, done.bank))
            self.money[s], self.money[winner] = done.payer_after, done.winner_after
            payments[s], paid[s] = done.as_json(), done.paid
            self.st["paid"][s] += done.paid
            self.st["received"][winner] += done.paid
            self.st["shortfall"][s] += done.shortfall
            if done.bankrupt:
                self.bankrupt[s] = True
                broke.append(s)
        self.st["rounds_won"][winner] += 1
        self.emit("round_end", round=self.round_no, winner=winner, owed=owed, payments=payments,
                  coins=[money_json(m) for m in self.money])
        for s in broke:
            self.emit("bankrupt", seat=s)
        return broke, pay.next_starter(winner, self.n, paid)

    def totals(self) -> list:
        return [m if self.total_money else pay.value(m) for m in self.money]

    def finish(self, reason: str) -> Result:
        totals = self.totals()
        places = places_of(totals)
        firsts = places.count(1)
        self.emit("end", coins=[money_json(m) for m in self.money], totals=totals, places=places,
                  reason=reason, rounds=self.round_no)
        return Result(
            players=self.n, coins=[money_json(m) for m in self.money], totals=totals, places=places,
            win_share=[1.0 / firsts if p == 1 else 0.0 for p in places],
            bankrupt=list(self.bankrupt), **{k: list(v) for k, v in self.st.items()},
            rounds=self.round_no, void_rounds=self.void_rounds, turns=self.turns,
            reshuffles=self.reshuffles, end_reason=reason, change_shortfall=sum(self.st["shortfall"]),
            bonus_plays=self.bonus_plays, skips=self.skips, hand_passes=self.hand_passes,
            bank=list(self.bank) if self.rules.change == "bank" and not self.total_money else None,
            events=self.events, decisions=self.decisions)


# ------------------------------------------------------------------ fresh games
def play_game(players: int, rules: Rules | None = None, strategies=None, seed: int = 0,
              game_index: int = 0, forget=None, record: bool = False) -> Result:
    """Play game ``game_index`` of seed ``seed`` with the named built-in strategies."""
    rules = rules or Rules()
    rules.validate(players)
    strategies = list(strategies or ["random"] * players)
    if len(strategies) != players:
        raise ValueError(f"{players} players need {players} strategies, got {len(strategies)}")
    forget = [0.0] * players if forget is None else [float(f) for f in forget]
    key = game_key(seed, game_index)
    seats = [make_strategy(name, key, s, forget[s]) for s, name in enumerate(strategies)]
    game = Game(players, rules, SeededChance(key), StrategyDecider(seats), forget=forget, seed=seed,
                game_index=game_index, strategies=strategies, record=record)
    return game.play()
