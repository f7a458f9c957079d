"""``first``: the first option every time, modest bids (deterministic)."""
from __future__ import annotations

from zsim.games.baumeister import constants as K
from zsim.jit import hot_inline

NAME = "first"
DESCRIPTION = "the first option of every choice (builds when it can); opens at 1, raises by 1 while that " \
              "is at most half its purse; never offers"
PARAMS = ()
FAIR = True
INLINE = True     # a decision of a few instructions: copied into every site that asks one


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """Draws nothing."""
    if kind == K.D_OPEN:
        return opts[0]
    if kind == K.D_BID:
        return opts[0] if opts[0] <= st[seat, K.ST_MONEY] // 2 else 0
    if kind == K.D_OFFER:
        return 0
    return 0
