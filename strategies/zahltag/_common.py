"""Building blocks several built-in strategies share (not a strategy itself)."""
from __future__ import annotations

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_size_nb, opponents_hand_nb, owned_nb
from zsim.jit import hot_inline


@hot_inline
def most_demanded_stack_nb(demand, stacks):
    """The type the rest of the deck needs most among non-empty stacks
    (ties to the earlier of F, W, C, E); -1 when every stack is empty."""
    best = -1
    for t in range(K.N_TYPES):
        if stacks[t] > 0 and (best < 0 or demand[t] > demand[best]):
            best = t
    return best


@hot_inline
def least_demanded_held_nb(seat, demand, hand):
    """The type in hand the rest of the deck needs least (ties to the earlier)."""
    best = -1
    for t in range(K.N_TYPES):
        if hand[seat, t] > 0 and (best < 0 or demand[t] < demand[best]):
            best = t
    return best


@hot_inline
def grow_towards_nb(seat, target, hand, left, right, stacks, demand, rules):
    """Take the most demanded type while the hand is below ``target`` and the
    cap allows; otherwise nothing."""
    if hand_size_nb(seat, hand) < target and owned_nb(seat, hand, left, right) + 1 <= rules[K.R_CARD_CAP]:
        t = most_demanded_stack_nb(demand, stacks)
        if t >= 0:
            return K.ACT_TAKE + t
    return K.ACT_NONE


@hot_inline
def smallest_other_hand_nb(seat, hand, alive):
    smallest = 1 << 40
    for s in range(hand.shape[0]):
        if s != seat and alive[s] != 0:
            n = hand_size_nb(s, hand)
            if n < smallest:
                smallest = n
    return smallest


@hot_inline
def bid_by_rivals_nb(rivals, duel, crowd, rules):
    """The maximum with no rival, ``duel`` against one, ``crowd`` against more
    (capped at the highest bid)."""
    top = rules[K.R_MAX_BID]
    if rivals == 0:
        return top
    bid = int(duel) if rivals == 1 else int(crowd)
    return bid if bid < top else top


@hot_inline
def unopposed_or_nb(seat, need, low, hand, left, right, stacks, rules):
    """The maximum when the opponents' combined hands cannot cover the job,
    else ``low`` (capped at the highest bid)."""
    for t in range(K.N_TYPES):
        if need[t] > 0 and opponents_hand_nb(seat, t, hand, left, right, stacks, rules) < need[t]:
            return rules[K.R_MAX_BID]
    return low if low < rules[K.R_MAX_BID] else rules[K.R_MAX_BID]
