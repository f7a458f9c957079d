"""``budget``: a value bidder that times its money for the end.

Money counts nothing at the end, so ``budget`` sets its rate from what it
expects to have: its purse plus the die's mean and its gates' coins for
each turn likely left to it, spread over the points it expects still to buy
(a card per round of turns at the deck's mean value), times ``spend``. Early
it bids carefully; with money left near the end it bids it all. It keeps
``reserve`` Thaler back (for paying to keep an attacked card) and never bids
above its purse. Leading the built values by ``hurry`` points or more, it
auctions from the smaller stack, to bring the end sooner. Otherwise it
plays as ``value``.
"""
from __future__ import annotations

from strategies.baumeister._heuristic import heuristic_nb, weights_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "budget"
DESCRIPTION = "value bidding at a rate set by the money it expects to have left; hurries the end when ahead"
PARAMS = (
    Param('spend', 1.0, 0.1, 3.0, 'share of its expected money it plans to spend on cards'),
    Param('reserve', 0.0, 0.0, 30.0, 'Thaler it never bids away'),
    Param('hurry', 6.0, 0.0, 100.0, 'built-value lead at which it auctions from the smaller stack (0: never)'),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    return heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules,
                        weights_nb(adaptive_rate=1, spend=params[0], reserve=int(params[1]), hurry_lead=params[2]))
