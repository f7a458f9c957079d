"""Small kernels over hands and prizes that the fast engine and the strategies share.

A hand is a bitmask of bid cards (bit b = card b), a set of prizes a bitmask
of prize indices (see :mod:`.constants`). None of these allocates.
"""
from __future__ import annotations

import numpy as np

from zsim.jit import hot_inline, lowest_bit_nb
from zsim_geier import constants as K

#: a 53-bit draw times this is a float in [0, 1)
TWO_53 = 2.0 ** -53


@hot_inline
def prize_value_nb(i, rules):
    """The value of prize index ``i``: the vultures below zero, then the mice from 1."""
    v = rules[K.R_VULTURES]
    return i - v if i < v else i - v + 1


@hot_inline
def nth_card_nb(hand, k):
    """The ``k``-th lowest card of ``hand`` (0 = the lowest; ``k`` below its size)."""
    x = hand
    for _ in range(k):
        x &= x - 1
    return lowest_bit_nb(x)


@hot_inline
def size_key_nb(value):
    """How big a stake is: twice its size, plus one for a mouse (above a vulture of the same size)."""
    return 2 * abs(value) + (1 if value > 0 else 0)


@hot_inline
def round_half_up_nb(x):
    """A float parameter as a whole number, halves rounded up."""
    return np.int64(np.floor(x + 0.5))
