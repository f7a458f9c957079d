"""Building blocks several built-in strategies share (not a strategy itself)."""
from __future__ import annotations

import numpy as np

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_size_nb, lanes_cover_nb, opponents_lanes_nb, owned_nb
from zsim.jit import hot_inline
from zsim.games.zahltag.lanes_nb import lanes_nb


# These run at every decision, on card counts that are coin flips to the CPU,
# so they are written as arithmetic on 0/1 flags rather than as branches
# (docs/performance.md: a mispredicted branch costs more than the few
# instructions that replace it).

@hot_inline
def most_demanded_stack_nb(demand, stacks):
    """The type the rest of the deck needs most among non-empty stacks
    (ties to the earlier of F, W, C, E); -1 when every stack is empty."""
    best = -1
    top = -1                      # every demand is at least 0
    for t in range(K.N_TYPES):
        c = np.int64(stacks[t] > 0) & np.int64(demand[t] > top)
        best += c * (t - best)
        top += c * (demand[t] - top)
    return best


@hot_inline
def least_demanded_held_nb(seat, demand, hand):
    """The type in hand the rest of the deck needs least (ties to the earlier);
    -1 for an empty hand."""
    best = -1
    low = 1 << 62
    for t in range(K.N_TYPES):
        c = np.int64(hand[seat, t] > 0) & np.int64(demand[t] < low)
        best += c * (t - best)
        low += c * (demand[t] - low)
    return best


@hot_inline
def grow_towards_nb(seat, target, hand, left, right, stacks, demand, rules):
    """Take the most demanded type while the hand is below ``target`` and the
    cap allows; otherwise nothing."""
    t = most_demanded_stack_nb(demand, stacks)
    take = (np.int64(hand_size_nb(seat, hand) < target)
            & np.int64(owned_nb(seat, hand, left, right) + 1 <= rules[K.R_CARD_CAP]) & np.int64(t >= 0))
    return take * (K.ACT_TAKE + t)          # K.ACT_NONE is 0


@hot_inline
def smallest_other_hand_nb(seat, hand, alive):
    smallest = 1 << 40
    for s in range(hand.shape[0]):
        other = np.int64(s != seat) & np.int64(alive[s] != 0)
        d = hand_size_nb(s, hand) - smallest
        smallest += other * np.int64(d < 0) * d
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
def unopposed_or_nb(seat, need, low, hand, stacks, pub, rules):
    """The maximum when the opponents' combined hands cannot cover the job,
    else ``low`` (capped at the highest bid)."""
    covered = lanes_cover_nb(opponents_lanes_nb(seat, hand, pub), lanes_nb(need, 0))
    top = rules[K.R_MAX_BID]
    return top if not covered or low > top else low
