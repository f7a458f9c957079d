"""``oracle`` (NOT FAIR, a labelled upper bound): ``value`` that sees the hidden card.

It bids on a hidden card it did not auction at that card's true worth
instead of the mean of the cards it does not know. Same parameters as
``value``, so the distance between the two is what a peek at the hidden
stack is worth. Never mixed into fair results.
"""
from __future__ import annotations

from strategies.baumeister import value
from strategies.baumeister._heuristic import heuristic_nb, weights_nb
from zsim.jit import hot_inline

NAME = "oracle"
DESCRIPTION = "value reading every hidden card on auction: what a peek is worth (not fair)"
PARAMS = value.PARAMS
FAIR = False


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    return heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules,
                        weights_nb(rate=params[0], gate_income=params[1], open_share=params[2], reads_hidden=1))
