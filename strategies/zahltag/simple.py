"""``simple``: the benchmark field (docs/rules.md defines it exactly).

Keeps about 8 cards, buys the type the rest of the deck needs most, sheds its
least needed type late in a payday cycle when it holds clearly more than the
others, and bids high only when no opponent can cover the job.
"""
from __future__ import annotations

import numpy as np

from strategies.zahltag._building_blocks import (grow_towards_nb, least_demanded_held_nb, smallest_other_hand_nb,
                                unopposed_or_nb)
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_covers_nb, hand_size_nb
from zsim.jit import hot_inline

NAME = "simple"
DESCRIPTION = "hold 8 cards of the most demanded types; bid max when unopposed, else 3"
PARAMS = ()

TARGET_HAND = 8
SHED_MARGIN = 2
SHED_AFTER_JOBS = 6
LOW_BID = 3


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    grow = grow_towards_nb(seat, TARGET_HAND, hand, left, right, stacks, demand, rules)
    if pub[K.PUB_ROUND] == 0 and pub[K.PUB_JOBS_SINCE] >= SHED_AFTER_JOBS:
        # shed or grow, chosen without a branch (see _building_blocks)
        shed = np.int64(hand_size_nb(seat, hand) > smallest_other_hand_nb(seat, hand, alive) + SHED_MARGIN)
        return shed * (K.ACT_DISCARD + least_demanded_held_nb(seat, demand, hand)) + (1 - shed) * grow
    return grow


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    return unopposed_or_nb(seat, need, LOW_BID, hand, stacks, pub, rules)
