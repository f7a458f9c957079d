"""The reference engine: Zahltag played one card at a time, in rulebook order.

It is written for reading, not for speed, and shares no rule code with the
numba kernels (engine_nb.py); the tests hold the two equal game by game.  The
rules are docs/rules.md (which follows RULES.md); the game record is TRACE.md.

Everything a game cannot derive comes from two pluggable objects:

* a *chance* object deals the workers and orders the deck
  (:class:`DeckStream` draws them from the seeded stream 0;
  :class:`RecordInputs` reads them from a game record), and
* a *decider* picks every setup adjustment, turn adjustment and bid
  (:class:`StrategyDecider` asks the seats' strategies; :class:`RecordInputs`
  reads the record's decisions and checks that each is legal).

The same :class:`Game` therefore plays fresh games and replays records.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.deck import Deck
from zsim.games.zahltag.notation import action_json, card_code, decode
from zsim.games.zahltag.reference_bots import SeatView, StrategyDecider, make_strategy
from zsim.games.zahltag.rules import Rules
from zsim.rng import DECK_STREAM, PyStream, fisher_yates, game_key

TYPES = range(K.N_TYPES)
LETTERS = K.TYPE_LETTERS


# ------------------------------------------------------------------ the table
@dataclass
class Player:
    seat: int
    hand: list
    money: int
    left: list = field(default_factory=lambda: [0, 0, 0, 0])
    right: list = field(default_factory=lambda: [0, 0, 0, 0])
    in_game: bool = True
    elimination: int = 0        # number of the elimination event that took the player out
    jobs_won: int = 0
    job_income: int = 0
    payday_paid: int = 0
    penalty_paid: int = 0
    penalty_received: int = 0
    bids: int = 0
    idle_at_payday: int = 0
    bid_sum: int = 0
    bid_hist: list = field(default_factory=lambda: [0] * K.BID_BINS)

    def table(self) -> int:
        return sum(self.left) + sum(self.right)

    def owned(self) -> int:
        return sum(self.hand) + self.table()

    def covers(self, need) -> bool:
        return all(self.hand[t] >= need[t] for t in TYPES)

    def pay(self, amount: int) -> tuple[int, bool]:
        """Pay ``amount`` if possible, else everything; returns (paid, could pay in full)."""
        paid = min(amount, self.money)
        self.money -= paid
        return paid, paid == amount


@dataclass
class RefResult:
    seat_stats: np.ndarray   # int64 [players, N_SEAT_STATS]
    game_stats: np.ndarray   # int64 [N_GAME_STATS]
    events: list
    decisions: int = 0       # times a seat's strategy was asked (setup, adjustments, bids)


#: (type given back, type taken) of every adjustment code
_DECODED = tuple(decode(c) for c in range(K.N_ACTIONS))


class Game:
    """One game of Zahltag; ``play()`` runs it to the end."""

    def __init__(self, players: int, rules: Rules, deck: Deck, chance, decider, *, seed: int = 0,
                 game_index: int = 0, strategies=(), money=None, record: bool = False):
        self.rules, self.chance, self.decider, self.record = rules, chance, decider, record
        self.n = players
        self.decisions = 0               # times a seat's strategy is asked (zsim bench's decisions/s)
        self.job_needs = [[int(v) for v in row] for row in deck.needs]
        self.jobs_json = deck.job_dict()
        self.seed, self.game_index, self.strategies = seed, game_index, list(strategies)
        start_money = [rules.start_money] * players if money is None else list(money)
        self.players = [Player(s, [0, 0, 0, 0], start_money[s]) for s in range(players)]
        self.stacks = [0, 0, 0, 0]
        self.draw_pile: list[int] = []   # the face-down deck, position 0 on top
        self.revealed_jobs: list[int] = []
        # the jobs still in the deck and their needs, in job order, kept as jobs are revealed
        self.unrevealed_ids = tuple(range(len(self.job_needs)))
        self.unrevealed_needs = tuple(tuple(need) for need in self.job_needs)
        self.unrevealed_demands = tuple(sum(need[t] for need in self.job_needs) for t in TYPES)
        self.jobs_since_payday = self.paydays = self.turn = self.elimination_events = 0
        self.last_was_payday = False     # the last card resolved was an executed payday
        self.over = False
        self.game_stats = [0] * K.N_GAME_STATS
        self.leader: int | None = None   # the last sole money leader (lead changes)
        self.events: list[dict] = []

    # -------------------------------------------------------------- small helpers
    def emit(self, e: str, **fields) -> None:
        if self.record:
            self.events.append({"e": e, **fields})

    def active(self) -> list[Player]:
        return [p for p in self.players if p.in_game]

    def cap_forbids_take(self, player: Player, setup: bool) -> bool:
        penalize = self.rules.over_cap == "penalize" and not setup
        return not penalize and player.owned() + 1 > self.rules.card_cap

    def why_illegal(self, player: Player, code: int, setup: bool) -> str | None:
        """None for a legal adjustment, else the reason it is not."""
        if type(code) is not int or not 0 <= code < K.N_ACTIONS:
            return f"{code!r} is no adjustment"
        give, take = decode(code)
        if give is not None and give == take:
            return "an exchange must take a different type"
        if give is not None and player.hand[give] == 0:
            return f"seat {player.seat} holds no {LETTERS[give]} in hand"
        if take is not None and self.stacks[take] == 0:
            return f"the {LETTERS[take]} stack is empty"
        if take is not None and give is None and self.cap_forbids_take(player, setup):
            return f"the take would make seat {player.seat} own more than {self.rules.card_cap} cards"
        return None

    def legal_adjustments(self, player: Player, setup: bool) -> tuple[int, ...]:
        """The codes ``why_illegal`` passes, ascending: its four checks, each
        asked once per code, with the cap asked once for all the takes."""
        hand, stacks = player.hand, self.stacks
        take_ok = not self.cap_forbids_take(player, setup)
        return tuple(c for c, (give, take) in enumerate(_DECODED)
                     if (give is None or (give != take and hand[give] > 0))
                     and (take is None or (stacks[take] > 0 and (give is not None or take_ok))))

    def bid_is_legal(self, player: Player, job: int, bid) -> bool:
        if not player.in_game:
            return bid is None
        if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= self.rules.max_bid:
            return False
        return bid == K.PASS or player.covers(self.job_needs[job])

    def on_tables(self) -> list[int]:
        """The cards of each type on all the players' tables (left and right)."""
        return [sum(column) for column in zip(*[p.left for p in self.players], *[p.right for p in self.players])]

    def view(self, seat: int, setup: bool, bidding: bool = False, on_tables: list[int] | None = None) -> SeatView:
        """What ``seat`` knows (docs/rules.md, "What a strategy sees"). A seat
        that is bidding has no adjustment to make: its view lists none. The
        views of one moment may share ``on_tables`` (the bids of a job)."""
        me, supply, stacks = self.players[seat], self.rules.supply, self.stacks
        if on_tables is None:
            on_tables = self.on_tables()
        opponents = tuple(supply[t] - stacks[t] - me.hand[t] - on_tables[t] for t in TYPES)
        return SeatView(
            seat=seat, hand=tuple(me.hand), owned=me.owned(), stacks=tuple(stacks),
            other_hand_sizes=tuple(sum(p.hand) for p in self.players if p.in_game and p.seat != seat),
            opponents_hands=opponents,
            unrevealed_jobs=self.unrevealed_needs, demands=self.unrevealed_demands,
            jobs_since_payday=self.jobs_since_payday,
            legal_adjustments=() if bidding else self.legal_adjustments(me, setup),
            card_cap=self.rules.card_cap, max_bid=self.rules.max_bid)

    def adjust(self, player: Player, code: int, setup: bool) -> None:
        """Carry out an adjustment (setup step 3 or turn step 2)."""
        reason = self.why_illegal(player, code, setup)
        if reason is not None:
            raise ValueError(f"illegal adjustment {action_json(code)} by seat {player.seat}: {reason}")
        give, take = decode(code)
        if give is not None:      # a hand card goes back to its stack first
            player.hand[give] -= 1
            self.stacks[give] += 1
        if take is not None:
            self.stacks[take] -= 1
            player.hand[take] += 1

    # -------------------------------------------------------------- the game
    def play(self) -> RefResult:
        self.set_up()
        seat = 0
        self.track_lead()
        while True:
            self.play_turn(self.players[seat])
            self.track_lead()
            if self.over:
                return self.result()
            seat = self.next_seat(seat)

    def track_lead(self) -> None:
        """After every turn: has a different player alone taken the most money?"""
        active = self.active()
        top = max((p.money for p in active), default=None)
        leaders = [p.seat for p in active if p.money == top]
        if len(leaders) == 1 and leaders[0] != self.leader:
            if self.leader is not None:
                self.game_stats[K.G_LEAD_CHANGES] += 1
            self.leader = leaders[0]

    def next_seat(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            if self.players[(seat + k) % self.n].in_game:
                return (seat + k) % self.n
        raise RuntimeError("no player left")  # unreachable: the game ends first

    def set_up(self) -> None:
        # 1-2. deal the workers, the rest form the stacks
        hands, stacks = self.chance.deal(self.n, self.rules)
        for player, hand in zip(self.players, hands):
            player.hand = list(hand)
        self.stacks = list(stacks)
        # 4. (drawn here, see docs/rules.md) shuffle the jobs and paydays into one deck
        cards = list(range(len(self.job_needs))) + [K.PAYDAY] * self.rules.payday_cards
        self.draw_pile = self.chance.setup_deck(cards)
        self.emit("start", name="zahltag", players=self.n, seed=self.seed, game=self.game_index,
                  rules=self.rules.as_dict(), jobs=self.jobs_json,
                  hands=[list(h) for h in hands], stacks=list(stacks),
                  money=[p.money for p in self.players],
                  deck=[card_code(c) for c in self.draw_pile], strategies=self.strategies)
        # 3. rounds of setup adjustments, seat 0 first
        for round_no in range(1, self.rules.setup_rounds + 1):
            for player in self.players:
                code = self.decider.setup_action(self, player.seat, round_no)
                self.decisions += 1
                self.adjust(player, code, setup=True)
                self.emit("setup", seat=player.seat, round=round_no, action=action_json(code))

    def play_turn(self, player: Player) -> None:
        self.turn += 1
        self.game_stats[K.G_TURNS] = self.turn
        self.emit("turn", seat=player.seat, turn=self.turn)
        self.finish_jobs(player)
        self.adjust_workers(player)
        if not self.over:
            self.reveal()

    def finish_jobs(self, player: Player) -> None:
        """Step 1: right area back to hand, then left area to the right area."""
        to_hand, to_right = player.right, player.left
        if sum(to_hand) + sum(to_right) == 0:
            return
        player.hand = [player.hand[t] + to_hand[t] for t in TYPES]
        player.right, player.left = list(to_right), [0, 0, 0, 0]
        self.emit("finish", seat=player.seat, to_hand=list(to_hand), to_right=list(to_right))

    def adjust_workers(self, player: Player) -> None:
        """Step 2: one adjustment, then (variant) the penalty for owning over the cap."""
        code = self.decider.adjust_action(self, player.seat)
        self.decisions += 1
        self.adjust(player, code, setup=False)
        self.emit("adjust", seat=player.seat, action=action_json(code))
        excess = player.owned() - self.rules.card_cap
        if self.rules.over_cap == "penalize" and excess > 0:
            self.pay_penalty(player, excess)

    def pay_penalty(self, payer: Player, excess: int) -> None:
        """``excess`` to each other player still in, seat order from the next seat."""
        paid = [0] * self.n
        receivers = [self.players[(payer.seat + k) % self.n] for k in range(1, self.n)]
        receivers = [p for p in receivers if p.in_game]
        amount, in_full = payer.pay(excess * len(receivers))
        paid[payer.seat] = -amount
        payer.penalty_paid += amount
        for receiver in receivers:
            share = min(excess, amount)
            amount -= share
            receiver.money += share
            receiver.penalty_received += share
            paid[receiver.seat] = share
        self.emit("penalty", seat=payer.seat, excess=excess, paid=paid)
        if not in_full:
            self.eliminate([payer], K.ELIM_PENALTY)
            self.end_if_one_left()

    def reveal(self) -> None:
        """Step 3 (forced payday, no two paydays in a row), then step 4."""
        if self.jobs_since_payday >= self.rules.forced_threshold(self.n):
            self.draw_pile.remove(K.PAYDAY)          # the topmost payday leaves the deck
            self.emit("reveal", card="P", forced=True)
            self.payday()
            if not self.over:
                self.reshuffle("forced_payday")
            return
        while True:
            card = self.draw_pile.pop(0)
            self.emit("reveal", card=card_code(card), forced=False)
            jobs_left = any(c != K.PAYDAY for c in self.draw_pile)
            if card == K.PAYDAY and self.last_was_payday and jobs_left:
                self.draw_pile.insert(0, card)       # back on top, and reshuffle all
                self.reshuffle("payday_in_a_row")
                continue
            break
        if card == K.PAYDAY:
            self.payday()
        else:
            self.job(card)

    def reshuffle(self, reason: str) -> None:
        self.draw_pile = self.chance.reshuffle(self.draw_pile, reason)
        self.game_stats[K.G_RESHUFFLES] += 1
        self.emit("shuffle", reason=reason, deck=[card_code(c) for c in self.draw_pile])

    def job(self, job: int) -> None:
        """Step 4a: everybody still in bids at once; the lowest bid does the job."""
        need = self.job_needs[job]
        self.revealed_jobs.append(job)
        k = self.unrevealed_ids.index(job)               # a revealed job never returns to the deck
        self.unrevealed_ids = self.unrevealed_ids[:k] + self.unrevealed_ids[k + 1:]
        self.unrevealed_needs = self.unrevealed_needs[:k] + self.unrevealed_needs[k + 1:]
        self.unrevealed_demands = tuple(d - n for d, n in zip(self.unrevealed_demands, need))
        self.game_stats[K.G_JOBS_REVEALED] += 1
        self.jobs_since_payday += 1
        self.last_was_payday = False
        bids = list(self.decider.bids(self, job))
        self.decisions += len(self.active())     # every seat still in is asked for its bid
        for player in self.players:
            if len(bids) != self.n or not self.bid_is_legal(player, job, bids[player.seat]):
                raise ValueError(f"illegal bids {bids} for {card_code(job)}")
        self.emit("bids", job=card_code(job), bids=bids)
        bidders = [p for p in self.active() if bids[p.seat] != K.PASS]
        for p in bidders:
            p.bids += 1
            p.bid_sum += bids[p.seat]
            p.bid_hist[min(bids[p.seat], K.BID_BINS) - 1] += 1
        if not bidders:
            self.game_stats[K.G_JOBS_NO_BID] += 1
            self.emit("award", job=card_code(job), winners=[], amount=0, left=[])
            return
        if len(bidders) == 1:
            self.game_stats[K.G_JOBS_ONE_BID] += 1
        low = min(bids[p.seat] for p in bidders)
        winners = [p for p in bidders if bids[p.seat] == low]
        for w in winners:                            # the cards move before the money
            w.hand = [w.hand[t] - need[t] for t in TYPES]
            w.left = [w.left[t] + need[t] for t in TYPES]
            w.jobs_won += 1
        amount = low if len(winners) == 1 else low - self.rules.tie_discount
        if len(winners) > 1:
            self.game_stats[K.G_JOBS_TIED] += 1
        self.emit("award", job=card_code(job), winners=[w.seat for w in winners], amount=amount,
                  left=[list(need) for _ in winners])
        broke = []
        for w in winners:
            if amount >= 0:
                w.money += amount
                w.job_income += amount
            else:                                    # a tie below the discount costs money
                paid, in_full = w.pay(-amount)
                w.job_income -= paid
                if not in_full:
                    broke.append(w)
        if broke:
            self.eliminate(broke, K.ELIM_TIE_BID)
            self.end_if_one_left()

    def payday(self) -> None:
        """Step 4b: pay per counted card above the fewest."""
        self.paydays += 1
        self.game_stats[K.G_PAYDAYS] = self.paydays
        self.jobs_since_payday = 0
        self.last_was_payday = True
        counted = self.active()
        counts: list = [None] * self.n
        for p in counted:
            counts[p.seat] = p.owned() if self.rules.payday_counts_table else sum(p.hand)
        fewest = min(counts[p.seat] for p in counted)
        paid: list = [None] * self.n
        broke = []
        for p in counted:
            p.idle_at_payday += counts[p.seat]
            paid[p.seat], in_full = p.pay(self.rules.payday_cost * (counts[p.seat] - fewest))
            p.payday_paid += paid[p.seat]
            if not in_full:
                broke.append(p)
        self.emit("payday", number=self.paydays, counts=counts, paid=paid)
        if broke:
            self.eliminate(broke, K.ELIM_PAYDAY)
        if self.paydays == self.rules.paydays_to_end:
            self.end(K.END_FIFTH_PAYDAY)
        else:
            self.end_if_one_left()

    # -------------------------------------------------------------- elimination and end
    def eliminate(self, players: list[Player], reason: int) -> None:
        """One payment event takes ``players`` out; their workers go back to the stacks."""
        self.elimination_events += 1
        for p in players:
            p.in_game, p.elimination, p.money = False, self.elimination_events, 0
            for t in TYPES:
                self.stacks[t] += p.hand[t] + p.left[t] + p.right[t]
            p.hand, p.left, p.right = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]
            self.game_stats[K.G_ELIMINATIONS] += 1
            self.emit("eliminated", seat=p.seat, reason=K.ELIM_REASONS[reason])

    def end_if_one_left(self) -> None:
        if len(self.active()) <= 1:
            self.end(K.END_LAST_PLAYER)

    def places(self) -> list[int]:
        """Survivors by money, fewer cards, fewer table cards; then later eliminations first."""
        def rank_key(p: Player):
            if p.in_game:
                return (0, -p.money, p.owned(), p.table())
            return (1, -p.elimination)
        keys = [rank_key(p) for p in self.players]
        return [1 + sum(other < mine for other in keys) for mine in keys]

    def end(self, reason: int) -> None:
        self.over = True
        self.game_stats[K.G_END_REASON] = reason
        self.emit("end", money=[p.money for p in self.players], places=self.places(),
                  reason=K.END_REASONS[reason])

    def result(self) -> RefResult:
        seat_stats = np.zeros((self.n, K.N_SEAT_STATS), dtype=np.int64)
        for p, place in zip(self.players, self.places()):
            row = seat_stats[p.seat]
            row[K.S_MONEY], row[K.S_PLACE], row[K.S_JOBS_WON] = p.money, place, p.jobs_won
            row[K.S_JOB_INCOME], row[K.S_PAYDAY_PAID] = p.job_income, p.payday_paid
            row[K.S_PENALTY_PAID], row[K.S_PENALTY_RECEIVED] = p.penalty_paid, p.penalty_received
            row[K.S_ELIMINATED], row[K.S_BIDS] = p.elimination, p.bids
            row[K.S_IDLE_AT_PAYDAY] = p.idle_at_payday
            row[K.S_FINAL_CARDS], row[K.S_FINAL_TABLE] = p.owned(), p.table()
            row[K.S_BID_SUM] = p.bid_sum
            row[K.S_BID_HIST:K.S_BID_HIST + K.BID_BINS] = p.bid_hist
        return RefResult(seat_stats, np.asarray(self.game_stats, dtype=np.int64), self.events, self.decisions)


# ------------------------------------------------------------------ fresh games
class DeckStream:
    """Chance from stream 0 of the game key, in the order docs/rules.md fixes."""

    def __init__(self, key: int):
        self.stream = PyStream(key, DECK_STREAM)

    def deal(self, players: int, rules: Rules):
        pile = [t for t in TYPES for _ in range(rules.supply[t])]
        pile = fisher_yates(pile, self.stream)
        size = rules.hand_size
        hands = [[pile[s * size:(s + 1) * size].count(t) for t in TYPES] for s in range(players)]
        stacks = [pile[players * size:].count(t) for t in TYPES]
        return hands, stacks

    def setup_deck(self, cards: list) -> list:
        return fisher_yates(cards, self.stream)

    def reshuffle(self, cards: list, reason: str) -> list:
        return fisher_yates(cards, self.stream)


def play_reference(players: int, rules: Rules, deck: Deck, strategies: list[str], run_seed: int,
                   game_index: int, record: bool = False) -> RefResult:
    """Play game ``game_index`` of run ``run_seed`` with the named strategies per seat."""
    if not K.MIN_PLAYERS <= players <= K.MAX_PLAYERS:
        raise ValueError(f"Zahltag takes {K.MIN_PLAYERS}..{K.MAX_PLAYERS} players, not {players}")
    if len(strategies) != players:
        raise ValueError(f"{players} players need {players} strategies, got {len(strategies)}")
    rules.validate(players)
    key = game_key(run_seed, game_index)
    seats = [make_strategy(name, key, seat) for seat, name in enumerate(strategies)]
    game = Game(players, rules, deck, DeckStream(key), StrategyDecider(seats), seed=run_seed,
                game_index=game_index, strategies=list(strategies), record=record)
    return game.play()
