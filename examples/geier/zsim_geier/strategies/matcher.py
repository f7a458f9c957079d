"""``matcher``: bid the card of the hand ranked like the stake among the prizes to come.

At every round the hand holds one card more than there are prizes still to
come, so the stake (the value of the table) and those prizes can be ranked
side by side with the hand: the stake's rank by size (``2 * |value|``, a
mouse a little above a vulture of the same size; a carried table counts
with its whole value) picks the card of the same rank, counted from the
lowest. ``bias`` moves the pick that many cards up (or down), rounded half
up; then one draw ``u`` of its own stream (``(draw >> 11) * 2**-53``, one a
bid) moves it one card down when ``u < jitter / 2`` and one card up when
``jitter / 2 <= u < jitter``, so that two matchers do not tie every round;
the pick is kept inside the hand. It reads the stake and the set of prizes
still to come, never their order.
"""
from __future__ import annotations

import numpy as np

from zsim.jit import bit_count_nb, hot_inline, lowest_bit_nb
from zsim.rng import draw_nb
from zsim.strategy import Param
from zsim_geier import constants as K
from zsim_geier.hand_nb import TWO_53, nth_card_nb, prize_value_nb, round_half_up_nb, size_key_nb

NAME = "matcher"
DESCRIPTION = "bids the card ranked like the stake among the prizes still to come"
PARAMS = (Param("bias", 0.0, -3.0, 3.0, "cards above (+) or below (-) the matching rank"),
          Param("jitter", 0.3, 0.0, 1.0, "the chance of bidding one card off the pick (down or up alike)"))
FAIR = True


@hot_inline
def bid_nb(seat, params, hands, won, deck, pub, rules, rng):
    """The hand's card of the stake's rank, shifted by ``bias`` and by the jitter draw."""
    hand = hands[seat]
    stake = size_key_nb(pub[K.PUB_POT])
    rank = 0
    x = pub[K.PUB_LEFT]
    while x != 0:
        i = lowest_bit_nb(x)
        x &= x - 1
        if size_key_nb(prize_value_nb(i, rules)) < stake:
            rank += 1
    k = rank + round_half_up_nb(params[0])
    u = np.float64(draw_nb(rng, 1 + seat) >> np.uint64(11)) * TWO_53
    if u < params[1] * 0.5:
        k -= 1
    elif u < params[1]:
        k += 1
    k = min(max(k, 0), bit_count_nb(hand) - 1)
    return nth_card_nb(hand, k)
