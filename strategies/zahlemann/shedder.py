"""``shedder``: get rid of the highest values first.

When someone goes out, what you still hold is what you pay, so the card to
play is the dearest one. ``flex`` trades value for keeping the hand able to
answer many tops: each unknown card the hand left could still answer is
worth ``flex`` value points (0: purely the highest card).
"""
from __future__ import annotations

from strategies.zahlemann._card_odds import best_shed_nb, highest_nb, unknown_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "shedder"
DESCRIPTION = "plays its highest-valued matching card; plays every drawn match and every bonus"
PARAMS = (
    Param("flex", 0.0, 0.0, 10.0,
          "value points per unknown card the hand left can still answer (0: highest card only)"),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng):
    """The best of ``value + flex * live cover``; never keeps, never stops.

    At ``flex`` 0 (the default) the cover weighs nothing, so it is not
    reckoned: the dearest option, the first in card order among equals, is
    the card ``best_shed_nb`` would choose."""
    if params[1] == 0.0:
        return highest_nb(options)
    return best_shed_nb(options, hands[seat], unknown_nb(seat, hands, discards, pub), 1.0, params[1])
