"""Helpers the Zahlemann strategies share (not a strategy: the underscore hides it).

Every helper is a numba kernel over the contract's arrays (see
``strategies/zahlemann/__init__.py``) and none allocates. The one-liners are
``hot_inline``; the ones with loops are ``hot`` (compiled once and called),
since every strategy is inlined into the game loop and inlining each helper
into each of them doubled the engine's compile time. The fair ones
read only the deciding seat's own hand, its ``passed`` hand, hand *sizes*
and the public pile (the oracle reads the other hands itself).

Words used below:

- the *unknown* cards: those the seat cannot place: neither in its hand nor
  in the discard pile (the other hands and the draw pile together);
- a hand's *cover*: the cards it could answer if they were the top (every
  card sharing a value or a colour with some card of the hand);
- the *block chance* of a card: the chance that the next player cannot
  match it when it is the top, the next player's hand taken as drawn at
  random from the unknown cards (less those the seat knows it holds).
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann import constants as K
from zsim.jit import bit_count_nb, highest_bit_nb, hot, hot_inline, lowest_bit_nb, seat_after_nb

ONE = np.int64(1)

#: DRAW_RATIO[m, bad]: the chance that a card drawn from m unknown cards, ``bad``
#: of them ones to avoid, is not one of them: (m - bad) / m, the same float the
#: division gives
DRAW_RATIO = np.array([[(m - bad) / m if m > 0 else 0.0 for bad in range(K.N_CARDS + 1)]
                       for m in range(K.N_CARDS + 1)], np.float64)


#: the most cards one card matches (its value's six and its colour's six, one
#: of them itself): the block chance's ``bad`` cards are never more
MAX_MATCHES = max(bin(m).count("1") for m in K.MATCHING)


def _no_match_table():
    """NO_MATCH[bad, pool, d]: the chance that d cards drawn from ``pool``
    unknown cards, ``bad`` of them ones to avoid, miss them all: the product
    ``DRAW_RATIO[pool, bad] * DRAW_RATIO[pool - 1, bad] * ...``, one factor
    a draw, in that order, until the pool runs out or the product reaches 0.
    Each entry is the float that loop gives (a test walks every entry)."""
    n = K.N_CARDS + 1
    bad, pool = np.meshgrid(np.arange(MAX_MATCHES + 1), np.arange(n), indexing="ij")
    table = np.ones((MAX_MATCHES + 1, n, n), np.float64)
    p = np.ones(bad.shape, np.float64)
    stopped = np.zeros(bad.shape, bool)
    for i in range(n - 1):                             # the (i + 1)-th draw
        left = pool - i
        stopped |= left <= 0
        p = np.where(stopped, p, p * DRAW_RATIO[np.maximum(left, 0), bad])
        p = np.where(p <= 0.0, 0.0, p)
        stopped |= p == 0.0
        table[:, :, i + 1] = p
    return table


#: the hypergeometric products of ``no_match_chance_nb`` for a card's matches
#: (12 x 37 x 37 floats, 131 KB): one load instead of a product over the hand
NO_MATCH = _no_match_table()


#: the number of cards in a bitmask
popcount_nb = bit_count_nb
#: the card int of a one-bit mask
card_of_nb = lowest_bit_nb


@hot_inline
def value_nb(card):
    """The card's face value: 1, 2, 5, 10, 20 or 50."""
    return K.VALUES[card // K.N_COLOURS]


@hot_inline
def matching_nb(card):
    """The cards that may go on ``card``: its value or its colour."""
    return K.MATCHING[card]


@hot
def hand_value_nb(hand):
    """What a player holding ``hand`` pays when someone goes out."""
    total = 0
    for v in range(K.N_VALUES):
        total += popcount_nb(hand & K.VALUE_MASK[v]) * K.VALUES[v]
    return total


@hot
def cover_nb(hand):
    """Every card ``hand`` could answer as the top (value or colour shared)."""
    out = np.int64(0)
    for i in range(K.N_VALUES):          # N_VALUES == N_COLOURS
        if hand & K.VALUE_MASK[i] != 0:
            out |= K.VALUE_MASK[i]
        if hand & K.COLOUR_MASK[i] != 0:
            out |= K.COLOUR_MASK[i]
    return out


@hot_inline
def unknown_nb(seat, hands, discards, pub):
    """The cards the seat cannot place: the other hands and the draw pile
    (neither its hand nor the discard pile, which the engine keeps as a mask)."""
    return K.ALL_CARDS & ~(hands[seat] | pub[K.PUB_DISCARDED])


@hot_inline
def next_seat_nb(seat, card, pub, rules):
    """The seat that will have to answer ``card`` (a 50 under ``fifty_skips``
    skips the next player)."""
    n = pub[K.PUB_PLAYERS]
    nxt = seat_after_nb(seat, n)
    if card // K.N_COLOURS == K.V50 and rules[K.R_FIFTY_SKIPS] != 0:
        nxt = seat_after_nb(nxt, n)
    return nxt


@hot_inline
def passes_nb(card, rules):
    """Whether playing ``card`` passes every hand on (a 2 under ``two_passes_hands``)."""
    return card // K.N_COLOURS == K.V2 and rules[K.R_TWO_PASSES_HANDS] != 0


@hot_inline
def known_next_nb(seat, nxt, passed, unknown):
    """Cards the seat knows ``nxt`` holds: what it passed on to its left
    neighbour this round and has not seen again (fair: its own ``passed``)."""
    if nxt != seat_after_nb(seat, passed.shape[0]):
        return np.int64(0)
    return passed[seat] & unknown


@hot
def no_match_chance_nb(match, size, known, unknown):
    """The chance that a hand of ``size`` cards, ``known`` of them known and
    the rest drawn at random from ``unknown`` less ``known``, holds none of
    ``match`` (hypergeometric): read from ``NO_MATCH`` when ``match`` is no
    more than a card's matches, else multiplied out draw by draw."""
    if known & match != 0:
        return 0.0
    pool = popcount_nb(unknown & ~known)
    bad = popcount_nb(match & unknown & ~known)
    draws = min(max(size - popcount_nb(known), 0), pool)
    if bad <= MAX_MATCHES:
        return NO_MATCH[bad, pool, draws]
    p = 1.0                                  # more cards to avoid than a card's matches
    for i in range(draws):
        p *= DRAW_RATIO[pool - i, bad]       # (pool - bad - i) / (pool - i), read instead of divided
        if p <= 0.0:
            return 0.0
    return p


@hot
def block_chance_nb(seat, card, hand_after, hands, passed, unknown, pub, rules):
    """The chance that the player answering ``card`` cannot match it. After a
    passing 2 they hold ``hand_after`` (the seat's own hand, passed on), so
    the answer is certain."""
    match = matching_nb(card)
    if passes_nb(card, rules):
        return 1.0 if hand_after & match == 0 else 0.0
    nxt = next_seat_nb(seat, card, pub, rules)
    return no_match_chance_nb(match, popcount_nb(hands[nxt]),
                              known_next_nb(seat, nxt, passed, unknown), unknown)


@hot_inline
def highest_nb(options):
    """The highest-valued card of ``options`` (of several, the first in card
    order): the value of the highest card int, then that value's lowest card."""
    if options == 0:
        return -1
    v = highest_bit_nb(options) // K.N_COLOURS
    return lowest_bit_nb(options & (np.int64(0x3F) << (K.N_COLOURS * v)))


@hot
def best_shed_nb(options, hand, unknown, w_value, w_cover):
    """The option with the best ``w_value * value + w_cover * live cover of
    the hand left`` (the cover counted over the unknown cards, the tops the
    seat may face); ties go to the first in card order."""
    best = -1
    best_score = -1e300
    x = options
    while x != 0:
        bit = x & -x
        x ^= bit
        card = card_of_nb(bit)
        score = w_value * value_nb(card) + w_cover * popcount_nb(cover_nb(hand & ~bit) & unknown)
        if score > best_score:
            best, best_score = card, score
    return best
