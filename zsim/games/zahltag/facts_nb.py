"""Public facts for strategies: what a seat can know, computed from its view.

Everything here reads only the deciding seat's own hand and public state, so
a fair strategy may use any of it. Tested in ``tests/test_facts.py``.

- ``known_nb``: the fewest cards of a type a seat must hold (its public moves)
- ``opponent_max_nb``: the most cards of a type an opponent can hold
- ``could_cover_nb`` / ``rivals_who_could_cover_nb``: who might bid on a job
- ``payday_chance_nb``: the chance that the next reveal is a payday
"""
from __future__ import annotations

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_size_nb, opponents_hand_nb
from zsim.jit import hot_flat, hot_inline


@hot_flat
def known_nb(pub, seat, t):
    return pub[K.PUB_KNOWN + 4 * seat + t]


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
    n = 0
    for o in range(hand.shape[0]):
        if o != seat and alive[o] != 0 and could_cover_nb(seat, o, need, hand, left, right, stacks,
                                                          alive, pub, rules):
            n += 1
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
