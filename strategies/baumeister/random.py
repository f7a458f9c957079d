"""``random``: every decision uniform, bids within the purse (a noise floor)."""
from __future__ import annotations

from zsim.games.baumeister import constants as K
from zsim.jit import hot_inline
from zsim.rng import below_nb

NAME = "random"
DESCRIPTION = "uniform over the legal moves; opens and raises uniformly up to its purse, offers uniformly"
PARAMS = ()
FAIR = True
INLINE = True     # a decision of a few instructions: copied into every site that asks one


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """One ``below`` from the seat's stream per decision (as the reference engine's ``random``)."""
    purse = st[seat, K.ST_MONEY]
    if kind == K.D_OPEN:
        low, high = opts[0], opts[1]
        top = max(low, min(high, purse))
        return low + below_nb(rng, 1 + seat, top - low + 1)
    if kind == K.D_BID:
        low = opts[0]
        m = max(0, min(opts[1], purse) - low + 1)
        k = below_nb(rng, 1 + seat, m + 1)
        return 0 if k == 0 else low + k - 1
    if kind == K.D_OFFER:
        return below_nb(rng, 1 + seat, opts[1] + 1)
    return below_nb(rng, 1 + seat, n)
