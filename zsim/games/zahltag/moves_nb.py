"""Move legality and seat views shared by the engine and the strategies (numba)."""
from __future__ import annotations

import numpy as np

from zsim.jit import hot_flat, hot_inline

from zsim.games.zahltag import constants as K


@hot_flat
def owned_nb(seat, hand, left, right):
    n = 0
    for t in range(K.N_TYPES):
        n += hand[seat, t] + left[seat, t] + right[seat, t]
    return n


@hot_flat
def is_legal_adjust_nb(seat, act, hand, left, right, stacks, rules, in_setup):
    """Whether adjustment code ``act`` is legal for ``seat`` right now."""
    if act == K.ACT_NONE:
        return True
    if act < K.ACT_DISCARD:  # take
        t = act - K.ACT_TAKE
        if stacks[t] <= 0:
            return False
        if in_setup or rules[K.R_OVER_CAP_PENALIZE] == 0:
            return owned_nb(seat, hand, left, right) + 1 <= rules[K.R_CARD_CAP]
        return True
    if act < K.ACT_EXCHANGE:  # discard
        return hand[seat, act - K.ACT_DISCARD] > 0
    if act >= K.N_ACTIONS:
        return False
    g = (act - K.ACT_EXCHANGE) // 4
    t = (act - K.ACT_EXCHANGE) % 4
    return g != t and hand[seat, g] > 0 and stacks[t] > 0


@hot_flat
def legal_adjusts_nb(seat, hand, left, right, stacks, rules, in_setup):
    """Every adjustment code :func:`is_legal_adjust_nb` allows ``seat`` now, as
    a mask (bit ``act`` set when legal), reckoned as arithmetic on 0/1 flags:
    a strategy that weighs every adjustment asks this once instead of asking
    25 questions whose answers the CPU cannot predict."""
    capped = np.int64(in_setup) | np.int64(rules[K.R_OVER_CAP_PENALIZE] == 0)
    room = np.int64(owned_nb(seat, hand, left, right) + 1 <= rules[K.R_CARD_CAP]) | (1 - capped)
    mask = np.int64(1) << K.ACT_NONE
    for t in range(K.N_TYPES):
        open_t = np.int64(stacks[t] > 0)
        held = np.int64(hand[seat, t] > 0)
        mask |= (open_t & room) << (K.ACT_TAKE + t)
        mask |= held << (K.ACT_DISCARD + t)
        for u in range(K.N_TYPES):
            mask |= (held & np.int64(stacks[u] > 0) & np.int64(t != u)) << (K.ACT_EXCHANGE + 4 * t + u)
    return mask


@hot_flat
def give_up_known_nb(pub, seat, t, n):
    """``seat`` gave up ``n`` hand cards of type ``t`` (a discard, an exchange,
    a job): the public lower bound on what it holds drops, never below 0."""
    k = K.PUB_KNOWN + 4 * seat + t
    pub[k] = max(pub[k] - n, 0)


@hot_flat
def hand_covers_nb(seat, need, hand):
    """Whether ``seat``'s hand holds a job's whole requirement (every type
    compared, then one branch: the answer is a coin flip to the CPU)."""
    short = 0
    for t in range(K.N_TYPES):
        short |= np.int64(hand[seat, t] < need[t])
    return short == 0


@hot_flat
def hand_size_nb(seat, hand):
    n = 0
    for t in range(K.N_TYPES):
        n += hand[seat, t]
    return n


@hot_flat
def opponents_hand_nb(seat, t, hand, stacks, pub, rules):
    """The opponents' combined hand cards of type ``t``: supply minus the stack,
    every table area (``pub``'s running count) and the seat's own hand
    (public knowledge)."""
    return rules[K.R_SUPPLY + t] - stacks[t] - pub[K.PUB_TABLE + t] - hand[seat, t]
