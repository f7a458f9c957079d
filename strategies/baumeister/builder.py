"""``builder``: builds early, gates first, for income.

It counts a gate's coins at ``gate`` points per coin for every turn left to
it (``value`` counts 0.5) and ``early`` points more per coin while four or
more of its turns are left (income sooner is income longer); when it
places, it puts gates first. Elsewhere it plays as ``value``.
"""
from __future__ import annotations

from strategies.baumeister._heuristic import heuristic_nb, weights_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "builder"
DESCRIPTION = "values gate income highly, most of all early; places gates first"
PARAMS = (
    Param('gate', 0.8, 0.0, 5.0, 'points per coin of gate income per turn it has left'),
    Param('early', 3.0, 0.0, 20.0, 'extra points per coin of a gate while 4+ of its turns are left'),
    Param('rate', 1.2, 0.1, 10.0, 'Thaler it pays per point of worth'),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    return heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules,
                        weights_nb(rate=params[2], gate_income=params[0], early_income=params[1]))
