"""What a seat sees when it bids, and the reference engine's own bots.

A strategy decides one thing: which bid card of its hand to play this
round, sealed. It gets a :class:`SeatView`: its own hand and what every
player saw happen (the prize turned up, the table, the prizes still to
come as a set, every bid shown so far, every prize taken). Two things are
hidden from it: the other players' bids of this round (they are chosen at
the same time) and the order of the prize deck.

These are plain-Python twins of the package's strategies
(``zsim_geier/strategies/``), written from the same descriptions, so that
the reference engine plays every built-in strategy with code of its own:

* ``random``: one ``below(len(hand))`` from its own stream (1 + seat) per
  bid, the card at that place of the hand in ascending order;
* ``matcher``: ranks the stake (the table's value) among the prizes still
  to come, by size (``2 * |value|``, a mouse above a vulture of the same
  size), and bids its own card of the same rank, shifted by ``bias``
  (rounded half up), then one card down or up by one draw of its own
  stream (``u < jitter / 2``: down, ``u < jitter``: up), kept inside the hand;
* ``greedy``: its highest card when the stake's size ``|pot|`` reaches
  ``threshold``, else its lowest.

``greedy`` draws no randomness.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from zsim.rng import PyStream

BOT_NAMES = ("random", "matcher", "greedy")
TWO_53 = 2.0 ** -53


@dataclass(frozen=True)
class SeatView:
    """What one seat knows when it bids."""

    seat: int
    players: int
    round: int                  # 1-based
    hand: tuple                 # its bid cards, ascending
    prize: int                  # the card turned up this round
    table: tuple                # every card on the table, in the order turned up
    pot: int                    # their values summed
    left: tuple                 # the prizes still to come, ascending (their order is hidden)
    shown: tuple                # per seat, the bids it played, round by round
    taken: tuple                # per seat, the prizes it took, ascending
    rules: object


def size_key(value: int) -> int:
    """How big a stake is for ``matcher``: twice its size, plus one for a mouse."""
    return 2 * abs(value) + (1 if value > 0 else 0)


class RandomBot:
    name = "random"

    def __init__(self, stream: PyStream, params=()):
        self.stream = stream

    def bid(self, view: SeatView) -> int:
        return view.hand[self.stream.below(len(view.hand))]


class MatcherBot:
    name = "matcher"

    def __init__(self, stream: PyStream, params=(0.0, 0.3)):
        self.stream = stream
        self.shift = math.floor(float(params[0]) + 0.5)
        self.jitter = float(params[1])

    def bid(self, view: SeatView) -> int:
        stake = size_key(view.pot)
        k = sum(1 for v in view.left if size_key(v) < stake) + self.shift
        u = (self.stream.draw() >> 11) * TWO_53
        if u < self.jitter * 0.5:
            k -= 1
        elif u < self.jitter:
            k += 1
        return view.hand[min(max(k, 0), len(view.hand) - 1)]


class GreedyBot:
    name = "greedy"

    def __init__(self, stream: PyStream, params=(7.0,)):
        self.threshold = float(params[0])

    def bid(self, view: SeatView) -> int:
        return view.hand[-1] if abs(view.pot) >= self.threshold else view.hand[0]


_BOTS = {b.name: b for b in (RandomBot, MatcherBot, GreedyBot)}


def make_bot(name: str, key: int, seat: int, params=None):
    """The bot ``name`` for ``seat`` of game ``key`` (its stream: 1 + seat), with its
    parameter values in the order of its strategy module's ``PARAMS``."""
    kind = _BOTS.get(name)
    if kind is None:
        raise ValueError(f"unknown reference bot {name!r} (known: {', '.join(BOT_NAMES)})")
    stream = PyStream(key, 1 + seat)
    return kind(stream) if params is None else kind(stream, tuple(params))


class BotDecider:
    """The decider of fresh games: each seat's bot bids from its seat's view."""

    def __init__(self, bots: list):
        self.bots = list(bots)

    def bid(self, game, seat: int) -> int:
        return self.bots[seat].bid(game.seat_view(seat))
