"""``greedy``: its highest card when the stake is big, its lowest otherwise.

A stake is big when the size of the table's value, ``|pot|``, reaches
``threshold``: a big mouse is worth the highest bid, and so is dodging a
big vulture. It draws nothing.
"""
from __future__ import annotations

from zsim.jit import highest_bit_nb, hot_inline, lowest_bit_nb
from zsim.strategy import Param
from zsim_geier import constants as K

NAME = "greedy"
DESCRIPTION = "bids its highest card on a big stake (|pot| >= threshold), its lowest otherwise"
PARAMS = (Param("threshold", 7.0, 0.0, 15.0, "the size of stake that gets the highest card"),)
FAIR = True


@hot_inline
def bid_nb(seat, params, hands, won, deck, pub, rules, rng):
    """The highest card of the hand on a big stake, else the lowest."""
    hand = hands[seat]
    if abs(pub[K.PUB_POT]) >= params[0]:
        return highest_bit_nb(hand)
    return lowest_bit_nb(hand)
