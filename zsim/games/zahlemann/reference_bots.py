"""What a seat sees, what it decides, and the built-in strategies.

A strategy decides three things only (docs/rules.md, "Decisions and
knowledge"); each is one *decision* with its options, always in canonical
card order:

=========  ==============================================  ===============
kind       when                                            options
=========  ==============================================  ===============
``play``   the turn's player holds a matching card         the matching
           (they must play one)                            cards
``drawn``  the ``no_match`` draw gave a matching card      ``(card, KEEP)``
``bonus``  ``one_plays_again``: a 1 was just played and    the hand cards
           the hand holds a card matching it (penalty      matching the 1,
           cards drawn this turn excluded)                 then ``STOP``
=========  ==============================================  ===============

A decision is asked exactly when at least one card may be played; nothing is
asked (and nothing drawn from a strategy's stream) otherwise.

A strategy gets a :class:`SeatView`: only what its seat may know (a strategy
that looks at nothing but the options says so with a ``choose(options)``
method, and the decider then builds no view). A strategy
whose ``fair`` is False (a labelled baseline, never a fair result) also gets
an :class:`OracleView` with every hidden card.

Built-in strategies: ``random`` (uniform over the options: exactly one
``below(len(options))`` from its own stream, 1 + seat, per decision) and
``first`` (always the first option: the lowest playable card; it plays every
drawn match and every bonus; it never draws randomness). Both take the
``forget`` parameter (0..1, default 0): the chance of forgetting to announce.
"""
from __future__ import annotations

from dataclasses import dataclass

from zsim.rng import PyStream

PLAY, DRAWN, BONUS = "play", "drawn", "bonus"
DECISION_KINDS = (PLAY, DRAWN, BONUS)
KEEP, STOP = "keep", "stop"
STRATEGY_NAMES = ("random", "first")


@dataclass(frozen=True)
class SeatView:
    """What one seat knows when it decides (all cards are ints, see :mod:`.cards`)."""

    seat: int
    players: int
    kind: str                    # "play", "drawn" or "bonus"
    options: tuple               # cards, then KEEP / STOP where allowed
    hand: tuple                  # own hand, canonical order
    top: int                     # the top discard
    discards: tuple              # the whole discard pile, top first
    draw_pile_size: int
    hand_sizes: tuple            # per seat
    money: tuple                 # per seat: holdings [50,20,10,5,2,1] (or ints under money=total)
    round: int                   # 1-based, void rounds counted
    turn: int                    # 1-based within the round
    starter: int                 # who started this round
    passed_on: tuple             # the hands this seat passed on this round, in order (two_passes_hands)
    rules: object                # the Rules


@dataclass(frozen=True)
class OracleView:
    """HIDDEN INFORMATION: every hand and the draw pile's order. Only for
    strategies marked ``fair = False`` (a labelled baseline)."""

    hands: tuple                 # per seat, canonical order
    draw_pile: tuple             # top first


class RandomStrategy:
    """Uniform over the options: one ``below(len(options))`` per decision."""

    name = "random"
    fair = True

    def __init__(self, stream: PyStream, forget: float = 0.0):
        self.stream, self.forget = stream, forget

    def decide(self, view: SeatView):
        return self.choose(view.options)

    def choose(self, options: tuple):
        """The decision from the options alone (all this strategy looks at)."""
        return options[self.stream.below(len(options))]


class FirstStrategy:
    """Always the first option: the lowest playable card, plays every drawn
    match and every bonus. Deterministic."""

    name = "first"
    fair = True

    def __init__(self, stream: PyStream | None = None, forget: float = 0.0):
        self.forget = forget

    def decide(self, view: SeatView):
        return self.choose(view.options)

    def choose(self, options: tuple):
        return options[0]


def make_strategy(name: str, key: int, seat: int, forget: float = 0.0):
    """The built-in strategy ``name`` for ``seat`` of game ``key`` (stream 1 + seat)."""
    if not isinstance(forget, (int, float)) or isinstance(forget, bool) or not 0.0 <= forget <= 1.0:
        raise ValueError(f"forget must be a number in 0..1, not {forget!r}")
    stream = PyStream(key, 1 + seat)
    if name == "random":
        return RandomStrategy(stream, forget)
    if name == "first":
        return FirstStrategy(stream, forget)
    raise ValueError(f"unknown strategy {name!r} (known: {', '.join(STRATEGY_NAMES)})")


class StrategyDecider:
    """The decider of fresh games: asks the seat's strategy, showing it that
    seat's view (and the oracle view only to a strategy with ``fair = False``)."""

    def __init__(self, strategies: list):
        self.strategies = list(strategies)

    def decide(self, game, seat: int, kind: str, options: tuple):
        strategy = self.strategies[seat]
        choose = getattr(strategy, "choose", None)
        if choose is not None:          # it reads only the options: no view to build
            return choose(tuple(options))
        view = game.seat_view(seat, kind, options)
        if getattr(strategy, "fair", True):
            return strategy.decide(view)
        return strategy.decide(view, oracle=game.oracle_view())
