"""``oracle`` (NOT FAIR, a labelled upper bound): ``value`` that sees the hidden card.

It bids on a hidden card it did not auction at that card's true worth
instead of the mean of the cards it does not know. Same parameters as
``value``, so the distance between the two is what a peek at the hidden
stack is worth. Never mixed into fair results.
"""
from __future__ import annotations

from strategies.baumeister import value
from strategies.baumeister._common import heuristic_nb
from zsim.jit import hot_inline

NAME = "oracle"
DESCRIPTION = "value reading every hidden card on auction: what a peek is worth (not fair)"
PARAMS = value.PARAMS
FAIR = False


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    return heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules,
                        params[0], 0, 1.0, 0, params[1], 0.0, params[2], 0.0, 0.0, 0.0, 1.0, 0.0, 1)
