"""``saboteur``: attacks when the damage beats building now.

With a saboteur in hand it reckons an attack's expected damage: on a
building, the target the rules allow with the most to lose, the chance the
card is lost (or paid for) times its value, and a little for the target's
city as a whole; on a hand, most of a mean card. It attacks instead of
building when ``aggression`` times that damage beats the cost of waiting a
turn (a point, more when its own hand is open to attack), never in its last
turns. It takes saboteurs from, and targets, the leader. Otherwise it plays
as ``value``.
"""
from __future__ import annotations

from strategies.baumeister._heuristic import heuristic_nb, weights_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "saboteur"
DESCRIPTION = "attacks the leader instead of building when the expected damage beats a turn's delay"
PARAMS = (
    Param('aggression', 1.0, 0.0, 10.0, "weight of an attack's expected damage against a delay's cost"),
    Param('rate', 1.2, 0.1, 10.0, 'Thaler it pays per point of worth'),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    return heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules,
                        weights_nb(rate=params[1], aggression=params[0]))
