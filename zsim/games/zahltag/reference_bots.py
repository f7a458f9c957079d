"""The built-in strategies of the reference engine, written from docs/rules.md.

A strategy sees one seat's view of the table (:class:`SeatView`) and answers
three questions: which setup adjustment, which turn adjustment, which bid.
Adjustments are the int codes of ``constants`` (nothing = 0, take type t =
1 + t, discard type t = 5 + t, exchange give g take t = 9 + 4g + t).

These classes share no code with the numba kernels; the tests hold the two
engines equal game by game.
"""
from __future__ import annotations

from typing import NamedTuple

from zsim.games.zahltag import constants as K
from zsim.rng import PyStream

STRATEGY_NAMES = ("random", "simple")


class SeatView(NamedTuple):
    """What one seat knows when it decides (docs/rules.md, "What a strategy sees").
    A named tuple: read-only, and made about a hundred times a game."""

    seat: int
    hand: tuple[int, ...]              # own hand by type F, W, C, E
    owned: int                         # own hand + left + right
    stacks: tuple[int, ...]            # the four face-up supply stacks
    other_hand_sizes: tuple[int, ...]  # hand size of every other player still in
    opponents_hands: tuple[int, ...]   # combined hands of the others, by type
    unrevealed_jobs: tuple[tuple[int, ...], ...]  # needs of the jobs still in the deck
    jobs_since_payday: int
    legal_adjustments: tuple[int, ...]  # legal adjustment codes, ascending (none when bidding)
    card_cap: int
    max_bid: int
    #: what the jobs still in the deck need in all, by type (the game keeps
    #: the totals as jobs are revealed; a view made without them sums them)
    demands: tuple[int, ...] | None = None

    def covers(self, need) -> bool:
        return all(self.hand[t] >= need[t] for t in range(K.N_TYPES))

    def demand(self, t: int) -> int:
        """How many workers of type ``t`` the jobs still in the deck need in all."""
        if self.demands is None:
            return sum(job[t] for job in self.unrevealed_jobs)
        return self.demands[t]


class RandomStrategy:
    """Uniform among the legal choices; exactly one draw per decision."""

    name = "random"

    def __init__(self, stream: PyStream):
        self.stream = stream

    def setup(self, view: SeatView) -> int:
        return self.adjust(view)

    def adjust(self, view: SeatView) -> int:
        choices = view.legal_adjustments
        return choices[self.stream.below(len(choices))]

    def bid(self, view: SeatView, need) -> int:
        if view.covers(need):
            return self.stream.below(view.max_bid + 1)
        self.stream.below(1)
        return K.PASS


class SimpleStrategy:
    """The benchmark field: keep about 8 cards of the demanded types, bid low."""

    name = "simple"
    HAND_TARGET = 8      # takes while the hand holds fewer than this
    HAND_LEAD = 2        # discards when the hand exceeds the smallest other hand by more
    LATE_JOBS = 6        # ... and at least this many jobs were revealed since the payday
    CHEAP_BID = 3

    def __init__(self, stream: PyStream):
        self.stream = stream  # never drawn from

    @staticmethod
    def most_demanded(view: SeatView, types) -> int | None:
        best = None
        for t in types:  # ascending, so ties stay with the earlier type
            if best is None or view.demand(t) > view.demand(best):
                best = t
        return best

    @staticmethod
    def least_demanded(view: SeatView, types) -> int | None:
        best = None
        for t in types:
            if best is None or view.demand(t) < view.demand(best):
                best = t
        return best

    def take_if_short(self, view: SeatView) -> int:
        if sum(view.hand) < self.HAND_TARGET and view.owned + 1 <= view.card_cap:
            t = self.most_demanded(view, [t for t in range(K.N_TYPES) if view.stacks[t] > 0])
            if t is not None:
                return K.ACT_TAKE + t
        return K.ACT_NONE

    def setup(self, view: SeatView) -> int:
        return self.take_if_short(view)

    def adjust(self, view: SeatView) -> int:
        if (sum(view.hand) > min(view.other_hand_sizes) + self.HAND_LEAD
                and view.jobs_since_payday >= self.LATE_JOBS):
            t = self.least_demanded(view, [t for t in range(K.N_TYPES) if view.hand[t] > 0])
            return K.ACT_DISCARD + t
        return self.take_if_short(view)

    def bid(self, view: SeatView, need) -> int:
        if not view.covers(need):
            return K.PASS
        others_can = all(view.opponents_hands[t] >= need[t] for t in range(K.N_TYPES))
        return min(self.CHEAP_BID, view.max_bid) if others_can else view.max_bid


def make_strategy(name: str, key: int, seat: int):
    """The strategy ``name`` for ``seat``, drawing from stream 1 + seat of game ``key``."""
    stream = PyStream(key, 1 + seat)
    if name == "random":
        return RandomStrategy(stream)
    if name == "simple":
        return SimpleStrategy(stream)
    raise ValueError(f"unknown strategy {name!r} (known: {', '.join(STRATEGY_NAMES)})")


class StrategyDecider:
    """The reference engine's decider for fresh games: asks each seat's strategy,
    showing it only that seat's view (``game.view``)."""

    def __init__(self, strategies: list):
        self.strategies = strategies

    def setup_action(self, game, seat: int, round_no: int) -> int:
        return self.strategies[seat].setup(game.view(seat, setup=True))

    def adjust_action(self, game, seat: int) -> int:
        return self.strategies[seat].adjust(game.view(seat, setup=False))

    def bids(self, game, job: int) -> list:
        need, on_tables = game.job_needs[job], game.on_tables()     # every seat bids on the same tables
        return [self.strategies[p.seat].bid(game.view(p.seat, setup=False, bidding=True, on_tables=on_tables), need)
                if p.in_game else None for p in game.players]
