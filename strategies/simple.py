"""``simple``: the benchmark field (docs/rules.md defines it exactly).

Keeps about 8 cards, buys the type the rest of the deck needs most, sheds its
least needed type late in a payday cycle when it holds clearly more than the
others, and bids high only when no opponent can cover the job.
"""
from __future__ import annotations

from zsim.jit import hot_inline

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_covers_nb, hand_size_nb, opponents_hand_nb, owned_nb

NAME = "simple"
DESCRIPTION = "hold 8 cards of the most demanded types; bid max when unopposed, else 3"
PARAMS = ()

TARGET_HAND = 8
SHED_MARGIN = 2
SHED_AFTER_JOBS = 6
LOW_BID = 3


@hot_inline
def _most_demanded_stack_nb(demand, stacks):
    best = -1
    for t in range(K.N_TYPES):
        if stacks[t] > 0 and (best < 0 or demand[t] > demand[best]):
            best = t
    return best


@hot_inline
def _least_demanded_held_nb(seat, demand, hand):
    best = -1
    for t in range(K.N_TYPES):
        if hand[seat, t] > 0 and (best < 0 or demand[t] < demand[best]):
            best = t
    return best


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    size = hand_size_nb(seat, hand)
    if pub[K.PUB_ROUND] == 0 and pub[K.PUB_JOBS_SINCE] >= SHED_AFTER_JOBS:
        smallest = 1 << 40
        for s in range(hand.shape[0]):
            if s != seat and alive[s] != 0:
                n = hand_size_nb(s, hand)
                if n < smallest:
                    smallest = n
        if size > smallest + SHED_MARGIN:
            return K.ACT_DISCARD + _least_demanded_held_nb(seat, demand, hand)
    if size < TARGET_HAND and owned_nb(seat, hand, left, right) + 1 <= rules[K.R_CARD_CAP]:
        t = _most_demanded_stack_nb(demand, stacks)
        if t >= 0:
            return K.ACT_TAKE + t
    return K.ACT_NONE


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    for t in range(K.N_TYPES):
        if need[t] > 0 and opponents_hand_nb(seat, t, hand, left, right, stacks, rules) < need[t]:
            return rules[K.R_MAX_BID]
    return min(LOW_BID, rules[K.R_MAX_BID])
