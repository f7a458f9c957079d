"""``passive``: never bids, never adjusts. The floor any strategy must beat."""
from __future__ import annotations

from zsim.games.zahltag import constants as K
from zsim.jit import hot_inline

NAME = "passive"
DESCRIPTION = "never bids and never adjusts its workers (a floor)"
PARAMS = ()


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    return K.ACT_NONE


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    return K.PASS
