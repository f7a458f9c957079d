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
from zsim.games.zahltag.moves_nb import hand_size_nb, opponents_hand_nb
from zsim.jit import hot_flat, hot_inline


@hot_flat
def known_nb(pub, seat, t):
    return (pub[K.PUB_KNOWN + seat] >> (16 * t)) & 0xFFFF


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


@hot_inline
def _fits_nb(need, by_size, pool):
    """1 when a need of ``need`` cards is within both bounds (or there is no need)."""
    return np.int64(need <= 0) | (np.int64(by_size >= need) & np.int64(pool >= need))


@hot_flat
def rivals_who_could_cover_nb(seat, need, hand, left, right, stacks, alive, pub, rules):
    """The number of opponents still in that :func:`could_cover_nb` says could cover ``need``.

    The same count, reckoned as arithmetic on 0/1 flags: whether a rival can
    cover a job is a coin flip to the CPU, and the early returns of asking
    each rival in turn cost more in mispredicted branches than the sums
    (docs/performance.md). A rival's bounds per type follow from sums shared by
    all of them: its hand size less everything it must hold, plus what it must
    hold of the type; and the pool less what the other living opponents must
    hold, that is the pool less all of them plus its own. With two players
    the one rival is asked outright: its early returns are few and the CPU
    learns them, and the sums cost more (0.90x side by side)."""
    if hand.shape[0] == 2:                         # one rival: asked outright, which is quicker
        o = 1 - seat
        return np.int64(alive[o] != 0 and could_cover_nb(seat, o, need, hand, left, right, stacks, alive, pub,
                                                         rules))
    total = need[0] + need[1] + need[2] + need[3]
    p0 = opponents_hand_nb(seat, 0, hand, stacks, pub, rules)
    p1 = opponents_hand_nb(seat, 1, hand, stacks, pub, rules)
    p2 = opponents_hand_nb(seat, 2, hand, stacks, pub, rules)
    p3 = opponents_hand_nb(seat, 3, hand, stacks, pub, rules)
    for q in range(hand.shape[0]):                 # less what every living opponent must hold
        other = np.int64(q != seat) * np.int64(alive[q] != 0)
        p0 -= other * known_nb(pub, q, 0)
        p1 -= other * known_nb(pub, q, 1)
        p2 -= other * known_nb(pub, q, 2)
        p3 -= other * known_nb(pub, q, 3)
    n = 0
    for o in range(hand.shape[0]):
        size = hand_size_nb(o, hand)
        k0, k1, k2, k3 = known_nb(pub, o, 0), known_nb(pub, o, 1), known_nb(pub, o, 2), known_nb(pub, o, 3)
        free = size - (k0 + k1 + k2 + k3)
        n += (np.int64(o != seat) & np.int64(alive[o] != 0) & np.int64(size >= total)
              & _fits_nb(need[0], free + k0, p0 + k0) & _fits_nb(need[1], free + k1, p1 + k1)
              & _fits_nb(need[2], free + k2, p2 + k2) & _fits_nb(need[3], free + k3, p3 + k3))
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
