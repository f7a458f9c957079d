"""Public facts for strategies: what a seat can know, computed from its view.

Everything here reads only the deciding seat's own hand and public state, so
a fair strategy may use any of it. Tested in ``tests/test_facts.py``.

- ``known_nb``: the fewest cards of a type a seat must hold (its public moves)
- ``opponent_max_nb``: the most cards of a type an opponent can hold
- ``could_cover_nb`` / ``rivals_who_could_cover_nb``: who might bid on a job
- ``payday_chance_nb``: the chance that the next reveal is a payday
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import (LANE_ONES, hand_size_nb, lane_nb, lanes_cover_nb, lanes_sum_nb,
                                         opponents_hand_nb, opponents_lanes_nb)
from zsim.jit import hot_flat
from zsim.games.zahltag.lanes_nb import lanes_nb


@hot_flat
def known_nb(pub, seat, t):
    return lane_nb(pub[K.PUB_KNOWN + seat], t)


@hot_flat
def opponent_max_nb(seat, o, t, hand, left, right, stacks, alive, pub, rules):
    """The most type-``t`` cards opponent ``o`` can hold, as ``seat`` sees it:
    its hand size less what it must hold of other types, and the opponents'
    combined type-``t`` cards less what the other opponents must hold."""
    by_size = hand_size_nb(o, hand)
    for u in range(K.N_TYPES):
        if u != t:
            by_size -= known_nb(pub, o, u)
    pool = opponents_hand_nb(seat, t, hand, stacks, pub, rules)
    for q in range(hand.shape[0]):
        if q != seat and q != o and alive[q] != 0:
            pool -= known_nb(pub, q, t)
    return by_size if by_size < pool else pool


@hot_flat
def could_cover_nb(seat, o, need, hand, left, right, stacks, alive, pub, rules):
    """Whether opponent ``o`` may hold the job's whole requirement (exact in a
    two-player game, where the opponent's hand is known)."""
    total = 0
    for t in range(K.N_TYPES):
        total += need[t]
        if need[t] > 0 and opponent_max_nb(seat, o, t, hand, left, right, stacks, alive, pub,
                                           rules) < need[t]:
            return False
    return hand_size_nb(o, hand) >= total


@hot_flat
def rivals_who_could_cover_nb(seat, need, hand, left, right, stacks, alive, pub, rules):
    """The number of opponents still in that :func:`could_cover_nb` says could cover ``need``.

    The same count, reckoned as arithmetic on 0/1 flags: whether a rival can
    cover a job is a coin flip to the CPU, and the early returns of asking
    each rival in turn cost more in mispredicted branches than the sums
    (docs/performance.md). A rival's bounds per type follow from sums shared by
    all of them: its hand size less everything it must hold, plus what it must
    hold of the type; and the pool less what the other living opponents must
    hold, that is the pool less all of them plus its own. All four types
    are reckoned at once as lanes (``moves_nb``), which is quicker even
    with two players, where the one rival used to be asked outright
    (``counter``'s field 1.11x side by side)."""
    want = lanes_nb(need, 0)
    total = lanes_sum_nb(want)
    pool = opponents_lanes_nb(seat, hand, pub)     # every type at once, as lanes
    for q in range(hand.shape[0]):                 # less what every living opponent must hold
        pool -= np.int64(q != seat) * np.int64(alive[q] != 0) * pub[K.PUB_KNOWN + q]
    n = 0
    for o in range(hand.shape[0]):
        size = hand_size_nb(o, hand)
        known = pub[K.PUB_KNOWN + o]
        free = size - lanes_sum_nb(known)
        # per type: the most its size allows (free + known) and the most the
        # pool allows (pool + its own known); a need of 0 is always covered
        n += (np.int64(o != seat) & np.int64(alive[o] != 0) & np.int64(size >= total)
              & np.int64(lanes_cover_nb(free * LANE_ONES + known, want))
              & np.int64(lanes_cover_nb(pool + known, want)))
    return n


@hot_flat
def payday_chance_nb(pub):
    """The chance that the next card revealed is a payday that is executed."""
    if pub[K.PUB_JOBS_SINCE] >= pub[K.PUB_FORCED_AT]:
        return 1.0
    jobs = pub[K.PUB_JOBS_LEFT]
    paydays = pub[K.PUB_PAYDAYS_LEFT]
    if jobs == 0:
        return 1.0 if paydays > 0 else 0.0
    if pub[K.PUB_LAST_PAYDAY] != 0:
        return 0.0  # a payday now would be put back and the deck reshuffled
    return paydays / (jobs + paydays)
