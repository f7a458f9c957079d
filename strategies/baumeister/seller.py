"""``seller``: auctions what the rivals want, to collect half the price.

When it picks the stack it weighs, by ``sell``, the highest worth of the
open card to a rival (from the rival's city and the cards it is known to
hold) and of an unknown card against its own wish for them. It opens low,
at ``open`` of its own limit, so that rivals bid; outbid on its own card, it
pushes the price on towards ``sell`` of what the keenest rival would pay at
its rate (for a hidden card, what the rivals can see: its announced type),
within its purse. Elsewhere it plays as ``value``.
"""
from __future__ import annotations

from strategies.baumeister._heuristic import heuristic_nb, weights_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "seller"
DESCRIPTION = "auctions the card rivals want most, opens low and pushes the price, to collect half of it"
PARAMS = (
    Param('sell', 0.9, 0.0, 1.0, "weight of the rivals' wish when it picks; share of their limit it pushes to"),
    Param('open', 0.3, 0.0, 1.0, 'its opening bid as a share of its own limit'),
    Param('rate', 1.2, 0.1, 10.0, 'Thaler it pays per point of worth'),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    return heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules,
                        weights_nb(rate=params[2], open_share=params[1], sell=params[0]))
