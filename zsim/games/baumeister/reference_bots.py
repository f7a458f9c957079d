"""What a seat decides in Wettstreit der Baumeister, and the two reference strategies.

Every decision is one *kind* with its options, in a fixed order. A decision
is asked only when there is a choice: one option alone is taken without
asking (and without a draw from the strategy's stream).

============  =================================  ===================================
kind          who, when                          options
============  =================================  ===================================
``take``      the roller of ``S``, the reserve   the seats holding a saboteur, by seat
              empty and several rivals holding
``stack``     the auctioneer                     ``"open"``, ``"hidden"`` (non-empty ones)
``open``      the auctioneer's opening bid       ``(low, high)``: an amount low..high
``bid``       a bidder on turn who may raise     ``(low, high)``: 0 (pass) or low..high
``action``    step 3 (and each final-round       of ``"build"``, ``"building"``,
              turn: build or nothing)            ``"hand"``, ``"nothing"``, in that order
``place``     each card of a build               ``(card, pos)`` pairs by card then
                                                 position, then ``"stop"`` when allowed
``target``    the attacker, several targets      seats, ascending
``card``      the attacker, several cards        positions in the target's row, ascending
``keep``      the owner of a card rolled 3..5    ``"keep"``, ``"lose"``
``offer``     the defender (``saboteur=any``)    ``(0, purse)``: 0 (no offer) or 1..purse
``accept``    the attacker, an offer made        ``"accept"``, ``"refuse"``
``under``     who chooses on equal stack sizes   ``"open"``, ``"hidden"``
============  =================================  ===================================

``place`` offers only placements after which the build can still reach its
minimum (a first build must place ``first_build_min`` cards); ``"stop"`` is
offered once that minimum is placed.

Reference strategies (the reference engine plays them itself):

* ``random`` draws from its own stream, 1 + seat, one ``below`` per decision:
  a discrete decision is uniform over its options; an opening bid is uniform
  over ``low .. max(low, min(high, purse))``; a bid is uniform over pass and
  ``low .. min(high, purse)`` (only pass when ``low`` exceeds the purse); an
  offer is uniform over ``0 .. purse``;
* ``first`` draws nothing: the first option of a discrete decision (so it
  builds whenever it can, places as many cards as it may, keeps and accepts),
  opens at ``low``, raises to ``low`` while ``low`` is at most half its
  purse, else passes, and never offers.
"""
from __future__ import annotations

from dataclasses import dataclass

from zsim.rng import PyStream

TAKE, STACK, OPEN, BID, ACTION, PLACE, TARGET, CARD, KEEP, OFFER, ACCEPT, UNDER = (
    "take", "stack", "open", "bid", "action", "place", "target", "card", "keep", "offer", "accept", "under")
DECISION_KINDS = (TAKE, STACK, OPEN, BID, ACTION, PLACE, TARGET, CARD, KEEP, OFFER, ACCEPT, UNDER)
#: the kinds whose options are an amount range (low, high)
AMOUNTS = (OPEN, BID, OFFER)
ACTIONS = ("build", "building", "hand", "nothing")
STOP = "stop"
STRATEGY_NAMES = ("random", "first")


@dataclass(frozen=True)
class SeatView:
    """What the reference strategies look at: the decision and the seat's purse."""

    seat: int
    kind: str
    options: tuple
    purse: int


class RandomStrategy:
    name = "random"
    fair = True

    def __init__(self, stream: PyStream):
        self.stream = stream

    def decide(self, view: SeatView):
        o, below = view.options, self.stream.below
        if view.kind == OPEN:
            low, high = o
            top = max(low, min(high, view.purse))
            return low + below(top - low + 1)
        if view.kind == BID:
            low, high = o
            n = max(0, min(high, view.purse) - low + 1)
            k = below(n + 1)
            return 0 if k == 0 else low + k - 1
        if view.kind == OFFER:
            return below(o[1] + 1)
        return o[below(len(o))]


class FirstStrategy:
    name = "first"
    fair = True

    def __init__(self, stream: PyStream | None = None):
        pass

    def decide(self, view: SeatView):
        o = view.options
        if view.kind == OPEN:
            return o[0]
        if view.kind == BID:
            return o[0] if o[0] <= view.purse // 2 else 0
        if view.kind == OFFER:
            return 0
        return o[0]


def make_strategy(name: str, key: int, seat: int):
    """The reference strategy ``name`` for ``seat`` of game ``key`` (stream 1 + seat)."""
    stream = PyStream(key, 1 + seat)
    if name == "random":
        return RandomStrategy(stream)
    if name == "first":
        return FirstStrategy(stream)
    raise ValueError(f"unknown strategy {name!r} (known: {', '.join(STRATEGY_NAMES)})")


class StrategyDecider:
    """The decider of fresh games: asks each seat's strategy."""

    def __init__(self, strategies: list):
        self.strategies = list(strategies)

    def decide(self, game, seat: int, kind: str, options: tuple):
        return self.strategies[seat].decide(SeatView(seat, kind, tuple(options), game.money[seat]))
