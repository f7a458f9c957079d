"""Move legality and seat views shared by the engine and the strategies (numba)."""
from __future__ import annotations

import numpy as np

from zsim.jit import hot_flat, hot_inline
from zsim.games.zahltag.lanes_nb import lanes_nb

from zsim.games.zahltag import constants as K

# A seat's hand, left and right areas, the stacks and a job's needs are int16
# counts, four to a row of eight bytes, so that one int64 load (``lanes_nb``)
# holds all four types, type t in bits 16t .. 16t+15. Every count stays far
# below 0x8000, so lanes neither carry nor borrow into each other in the sums
# and differences below.
LANE_ONES = 0x0001000100010001      # one in every lane
LANE_TOPS = -0x7FFF7FFF7FFF8000     # 0x8000 in every lane (as a signed int64)
LANE_LOWS = 0x7FFF7FFF7FFF7FFF      # 0x7FFF in every lane
SELF_EXCHANGES = 0x8421             # bits 4t + t: an exchange of a type for itself


def lanes_of(counts) -> int:
    """Four counts by type as the lanes of one int64 (for Python callers:
    tests, and anyone setting up a state by hand)."""
    return sum(int(c) << (16 * t) for t, c in enumerate(counts))


def counts_of(lanes) -> list[int]:
    """The four counts of an int64 of lanes (the inverse of ``lanes_of``)."""
    return [(int(lanes) >> (16 * t)) & 0xFFFF for t in range(K.N_TYPES)]


@hot_inline
def lane_unit_nb(t):
    """One card of type ``t`` as lanes."""
    return np.int64(1) << (16 * t)


@hot_inline
def lane_nb(v, t):
    """The count in lane ``t`` of ``v``."""
    return (v >> (16 * t)) & 0xFFFF


@hot_inline
def lanes_sum_nb(v):
    """The sum of the four lanes of ``v`` (each and the sum below 0x10000)."""
    return ((v * LANE_ONES) >> 48) & 0xFFFF


@hot_inline
def lanes_cover_nb(have, need):
    """Whether every lane of ``have`` is at least that of ``need`` (both below
    0x8000): the top bit of each lane survives the subtraction exactly when
    no lane borrows."""
    return (((have | LANE_TOPS) - need) & LANE_TOPS) == LANE_TOPS


@hot_flat
def owned_nb(seat, hand, left, right):
    return lanes_sum_nb(lanes_nb(hand, seat) + lanes_nb(left, seat) + lanes_nb(right, seat))


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


@hot_inline
def lanes_nonzero_nb(v):
    """Bit t set when lane t of ``v`` is not 0 (every lane below 0x8000)."""
    w = (((v + LANE_LOWS) & LANE_TOPS) >> 15) & LANE_ONES       # 1 at bit 16t for each lane above 0
    return (w | (w >> 15) | (w >> 30) | (w >> 45)) & 0xF


@hot_flat
def legal_adjusts_nb(seat, hand, left, right, stacks, rules, in_setup):
    """Every adjustment code :func:`is_legal_adjust_nb` allows ``seat`` now, as
    a mask (bit ``act`` set when legal), reckoned without a branch: a
    strategy that weighs every adjustment asks this once instead of asking
    25 questions whose answers the CPU cannot predict. The types held and
    the stacks open are four bits each; the exchanges are their product
    (bit 4g + t: g held and t open), less the exchange of a type for
    itself."""
    capped = np.int64(in_setup) | np.int64(rules[K.R_OVER_CAP_PENALIZE] == 0)
    room = np.int64(owned_nb(seat, hand, left, right) + 1 <= rules[K.R_CARD_CAP]) | (1 - capped)
    held = lanes_nonzero_nb(lanes_nb(hand, seat))
    open_ = lanes_nonzero_nb(lanes_nb(stacks, 0))
    spread = (held & 1) | ((held & 2) << 3) | ((held & 4) << 6) | ((held & 8) << 9)   # bit t -> bit 4t
    mask = np.int64(1) << K.ACT_NONE
    mask |= (open_ * room) << K.ACT_TAKE
    mask |= held << K.ACT_DISCARD
    mask |= ((spread * open_) & ~SELF_EXCHANGES) << K.ACT_EXCHANGE
    return mask


@hot_inline
def lanes_less_floored_nb(have, less):
    """Every lane of ``have`` less that of ``less``, or 0 where that would be
    negative (both below 0x8000): a lane whose top bit the subtraction
    clears has borrowed, and its mask is 0."""
    d = (have | LANE_TOPS) - less
    kept = ((d & LANE_TOPS) >> 15) & LANE_ONES       # 1 in each lane that did not borrow
    return d & (kept * 0x7FFF)


@hot_flat
def give_up_known_nb(pub, seat, cards):
    """``seat`` gave up the hand cards ``cards`` (lanes: a discard, an
    exchange, a job): the public lower bound on what it holds of each type
    drops, never below 0."""
    k = K.PUB_KNOWN + seat
    pub[k] = lanes_less_floored_nb(pub[k], cards)


@hot_flat
def hand_covers_nb(seat, need, hand):
    """Whether ``seat``'s hand holds a job's whole requirement (all four types
    compared at once, then one branch: the answer is a coin flip to the CPU)."""
    return lanes_cover_nb(lanes_nb(hand, seat), lanes_nb(need, 0))


@hot_flat
def hand_size_nb(seat, hand):
    return lanes_sum_nb(lanes_nb(hand, seat))


@hot_inline
def opponents_lanes_nb(seat, hand, pub):
    """The opponents' combined hand cards of every type as lanes: every hand
    (``pub``'s running count) less the seat's own."""
    return pub[K.PUB_HANDS] - lanes_nb(hand, seat)


@hot_flat
def opponents_hand_nb(seat, t, hand, stacks, pub, rules):
    """The opponents' combined hand cards of type ``t``: every hand
    (``pub``'s running count: the supply less the stacks and the tables, so
    public knowledge) less the seat's own. ``stacks`` and ``rules`` are no
    longer read; they stay so that strategies calling it need no change."""
    return lane_nb(opponents_lanes_nb(seat, hand, pub), t)
