"""``random``: a bid card of the hand, uniform (a noise floor)."""
from __future__ import annotations

from zsim.jit import bit_count_nb, hot_inline
from zsim.rng import below_nb
from zsim_geier.hand_nb import nth_card_nb

NAME = "random"
DESCRIPTION = "bids a card of its hand at random, every card alike"
PARAMS = ()
FAIR = True


@hot_inline
def bid_nb(seat, params, hands, won, deck, pub, rules, rng):
    """One ``below(size of the hand)`` from the seat's stream: that card, counted from the lowest."""
    hand = hands[seat]
    return nth_card_nb(hand, below_nb(rng, 1 + seat, bit_count_nb(hand)))
