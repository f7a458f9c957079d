"""``defender``: pays to keep a card when the price is below its worth.

Attacked, it weighs the card (its value, plus a little for a city of more
than two cards) times ``keep`` at its rate against the price (the card's
value in Thaler), and keeps it when the card is worth more, or when money
is worth nothing any more. Under ``saboteur=any`` it offers ``offer`` of its
expected loss in Thaler. It bids as ``budget`` (rate from the money it
expects) with ``reserve`` Thaler held back for defence.
"""
from __future__ import annotations

from strategies.baumeister._heuristic import heuristic_nb, weights_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "defender"
DESCRIPTION = "keeps an attacked card when its worth beats the price; offers under the variant; holds a reserve"
PARAMS = (
    Param('keep', 2.0, 0.0, 5.0, "weight of an attacked card's worth against its price"),
    Param('offer', 0.8, 0.0, 2.0, 'share of its expected loss it offers (saboteur=any)'),
    Param('reserve', 3.0, 0.0, 30.0, 'Thaler it never bids away'),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    return heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules,
                        weights_nb(adaptive_rate=1, reserve=int(params[2]), keep=params[0], offer_share=params[1]))
