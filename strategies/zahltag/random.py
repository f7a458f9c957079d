"""``random``: every decision uniform over the legal ones (a noise floor)."""
from __future__ import annotations

from zsim.jit import bit_count_nb, hot_inline, lowest_bit_nb

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_covers_nb, legal_adjusts_nb
from zsim.rng import below_nb

NAME = "random"
DESCRIPTION = "uniform over the legal moves: any adjustment, any bid or pass"
PARAMS = ()


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    legal = legal_adjusts_nb(seat, hand, left, right, stacks, rules, pub[K.PUB_ROUND] > 0)
    pick = below_nb(rng, 1 + seat, bit_count_nb(legal))
    for _ in range(pick):                # the pick-th legal code, counting from ACT_NONE
        legal &= legal - 1
    return lowest_bit_nb(legal)


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if hand_covers_nb(seat, need, hand):
        return below_nb(rng, 1 + seat, rules[K.R_MAX_BID] + 1)
    below_nb(rng, 1 + seat, 1)
    return K.PASS
