"""The cards of Hol's der Geier, as the reference engine and the records name them.

A prize card is its value: the vulture cards ``-vultures .. -1`` and the
mouse cards ``1 .. top_prize``. Their canonical order is ascending by value,
so that the *index* of a prize in that order (what the fast engine's
bitmasks use, see :mod:`.constants`) is ``value + vultures`` for a vulture
and ``value + vultures - 1`` for a mouse. A bid card is its value
``1 .. vultures + top_prize``; every player holds one of each at the start.
"""
from __future__ import annotations


def prize_values(rules) -> list[int]:
    """The prize deck in canonical order (ascending by value)."""
    return list(range(-rules.vultures, 0)) + list(range(1, rules.top_prize + 1))


def bid_cards(rules) -> list[int]:
    """A full hand of bid cards, ascending."""
    return list(range(1, rules.n_prizes + 1))


def prize_index(value: int, rules) -> int:
    """The index of the prize ``value`` in the canonical order."""
    return value + rules.vultures - (1 if value > 0 else 0)


def mask_of(indices) -> int:
    """The bitmask of a set of small non-negative ints."""
    m = 0
    for i in indices:
        m |= 1 << i
    return m
