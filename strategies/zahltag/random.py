"""``random``: every decision uniform over the legal ones (a noise floor)."""
from __future__ import annotations

from zsim.jit import hot_inline

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_covers_nb, is_legal_adjust_nb
from zsim.rng import below_nb

NAME = "random"
DESCRIPTION = "uniform over the legal moves: any adjustment, any bid or pass"
PARAMS = ()


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    in_setup = pub[K.PUB_ROUND] > 0
    n_legal = 0
    for act in range(K.N_ACTIONS):
        if is_legal_adjust_nb(seat, act, hand, left, right, stacks, rules, in_setup):
            n_legal += 1
    pick = below_nb(rng, 1 + seat, n_legal)
    for act in range(K.N_ACTIONS):
        if is_legal_adjust_nb(seat, act, hand, left, right, stacks, rules, in_setup):
            if pick == 0:
                return act
            pick -= 1
    return K.ACT_NONE


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if hand_covers_nb(seat, need, hand):
        return below_nb(rng, 1 + seat, rules[K.R_MAX_BID] + 1)
    below_nb(rng, 1 + seat, 1)
    return K.PASS
