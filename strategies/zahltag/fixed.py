"""``fixed``: bids the same amount on every job its hand covers; never adjusts."""
from __future__ import annotations

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_covers_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "fixed"
DESCRIPTION = "bids k on every job its hand covers, never adjusts"
PARAMS = (Param("k", 3.0, 1.0, 99.0, "the bid (capped at max_bid)"),)


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    return K.ACT_NONE


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    return min(int(params[0]), rules[K.R_MAX_BID])
