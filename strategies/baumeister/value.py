"""``value``: bids up to what a card is worth to its own city now, at a fixed rate.

The worth (``_heuristic``): the card's value, a gate's coins over the turns
likely left to the seat (times ``gate``), a share of the bonuses it serves,
less when it fits nowhere near the end, its penalty alone when it can never
be built. It raises by the least step while the price stays within
``rate`` Thaler per point of that worth and within its purse; it opens at
``open`` of that limit. A hidden card it did not auction it values at the
mean worth of the cards it does not know (of the announced type once
announced). It builds whenever it can, placing the card it likes most
(value, income, a filled gap, a town hall kept central, churches balanced
about it, matching corner towers); it attacks only when it cannot build,
and always keeps an attacked card its purse can pay for when the card is
worth its price.
"""
from __future__ import annotations

from strategies.baumeister._heuristic import heuristic_nb, weights_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "value"
DESCRIPTION = "bids up to its city's worth of the card at a fixed Thaler-per-point rate; builds first"
PARAMS = (
    Param('rate', 1.2, 0.1, 10.0, 'Thaler it pays per point of worth'),
    Param('gate', 0.5, 0.0, 5.0, 'points per coin of gate income per turn it has left'),
    Param('open', 0.6, 0.0, 1.0, 'its opening bid as a share of its limit'),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    return heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules,
                        weights_nb(rate=params[0], gate_income=params[1], open_share=params[2]))
