"""The fast Baumeister engine's spots: where a card may go, without walking a row's built span.

``rows_nb.spots_nb`` asks the building rules only at a row's open ends and
its gaps and unites what it finds; ``rows_nb.reach_nb`` asks for the union alone. Both must give what
asking ``fits_at_nb`` at every position from one past the left end to one
past the right end gives: the same positions, ascending, with the same
masks. The cities here are built and broken with the engine's own
``place_nb`` and ``remove_nb``, so they carry closed ends and gaps as games do.

A first build's search for two or three cards keeps its answers
(``rows_nb.first_search_nb``); every answer, read back or searched, must be
the search's own.

A hand is a list kept ascending (``rows_nb.hand_add_nb``, ``hand_drop_nb``,
written without a branch on the cards): after any run of cards won and
cards built or lost, it must hold exactly the cards a sorted list holds, with
zeros past them, and the engine's count of each type in hand (``holds``) must
be those cards' count.
"""
from __future__ import annotations

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.cards import default_deck
from zsim.games.baumeister.rows_nb import (first_search_nb, fits_at_nb, hand_add_nb, hand_drop_nb, hand_in_nb,
                                           place_nb, reach_nb, remove_nb, search_nb, spots_nb)

CITIES = 400


def _walk(rows, city, deck, final):
    """(position, mask) where fits_at_nb says some type may go, over the whole span and its ends."""
    if city[0, K.C_COUNT] == 0:
        span = range(K.OFF, K.OFF + 1)
    else:
        span = range(city[0, K.C_LEFT] - 1, city[0, K.C_RIGHT] + 2)
    found = [(p, fits_at_nb(0, p, final, rows, city, deck)) for p in span]
    return [(p, m) for p, m in found if m != 0]


def _city(rng, deck, n_cards):
    """One seat's row: cards laid at open ends, then some taken out again."""
    loc = np.zeros(n_cards + 1, np.int64)
    rows = np.zeros((1, K.W), np.int64)
    city = np.zeros((1, K.N_CITY), np.int64)
    for c in rng.permutation(np.arange(1, n_cards + 1))[:rng.integers(0, 12)]:
        if city[0, K.C_COUNT] == 0:
            p = K.OFF
        else:
            ends = [e for e, closed in ((city[0, K.C_LEFT] - 1, K.C_CLOSED_L), (city[0, K.C_RIGHT] + 1, K.C_CLOSED_R))
                    if city[0, closed] == 0]
            if not ends:
                break
            p = ends[rng.integers(len(ends))]
        place_nb(0, int(c), int(p), loc, rows, city, deck)
    built = [p for p in range(K.W) if rows[0, p] != 0]
    for p in rng.permutation(built)[:rng.integers(0, 4)]:
        remove_nb(0, int(p), rows, city, deck)
    return rows, city


def test_spots_are_the_positions_the_rules_open():
    deck = default_deck().arrays()
    n_cards = deck.shape[0] - 1
    rng = np.random.default_rng(20261203)
    out = np.zeros(K.W, np.int64)
    gaps = closed = empty = 0
    for _ in range(CITIES):
        rows, city = _city(rng, deck, n_cards)
        count, left, right = city[0, K.C_COUNT], city[0, K.C_LEFT], city[0, K.C_RIGHT]
        gaps += count > 0 and count < right - left + 1
        closed += city[0, K.C_CLOSED_L] != 0 or city[0, K.C_CLOSED_R] != 0
        empty += count == 0
        for final in (0, 1):
            want = _walk(rows, city, deck, final)
            n, got_union = spots_nb(0, final, rows, city, deck, out)
            got = [(int(v) >> K.SPOT_SHIFT, int(v) & K.SPOT_MASK) for v in out[:n]]
            assert got == want, (rows[0, rows[0] != 0], city[0], final)
            union = 0
            for _, m in want:
                union |= m
            assert got_union == union
            assert reach_nb(0, final, rows, city, deck) == union
    # the cities exercised every shortcut: rows with gaps, closed ends and no card at all
    assert gaps > 20 and closed > 20 and empty > 5



def test_a_first_builds_kept_answers_are_the_searchs():
    """Hands of every size against an empty row, a row of one card on trial (out of the hand by its
    ``loc``, still in the hand list, as a build tries it) and rows the answers are not kept for (two
    cards, or a seat that has built before): ``first_search_nb`` answers as ``search_nb`` does, the
    first time and when it reads the answer back; and it does read them back, where they are kept."""
    deck = default_deck().arrays()
    n_cards = deck.shape[0] - 1
    rng = np.random.default_rng(20261205)
    memo = np.zeros(K.MEMO_SIZE, np.int8)
    saved = np.zeros((K.MAX_BUILD + 2, K.N_CITY), np.int64)
    fit = np.zeros((K.MAX_BUILD + 2, K.W), np.int64)
    asked = {True: 0, False: 0}
    kinds = set()
    questions = []
    for _ in range(3000):
        loc = np.zeros(n_cards + 1, np.int64)
        rows = np.zeros((1, K.W), np.int64)
        city = np.zeros((1, K.N_CITY), np.int64)
        st = np.zeros((1, K.N_ST), np.int64)
        hand = np.sort(rng.choice(np.arange(1, n_cards + 1), rng.integers(2, 9), replace=False))
        st[0, K.ST_HAND] = len(hand)
        st[0, K.ST_CARDS:K.ST_CARDS + len(hand)] = hand
        loc[hand] = K.L_HAND
        holds = np.array([sum(hand_in_nb(deck[c, K.D_TYPE]) for c in hand)], np.int64)   # as the engine counts
        for c in hand[rng.permutation(len(hand))[:rng.integers(0, 3)]]:
            p = K.OFF if city[0, K.C_COUNT] == 0 else city[0, K.C_RIGHT] + 1
            place_nb(0, int(c), int(p), loc, rows, city, deck)
        st[0, K.ST_BUILT_ONCE] = rng.random() < 0.1
        for need in (2, 3):
            for final in (0, 1):
                want = search_nb(0, need, final, loc, rows, city, st, deck, saved, fit)
                for _ in range(2):
                    assert first_search_nb(0, need, final, loc, rows, city, st, deck, saved, fit, memo, holds) == want, \
                        (hand, rows[0, rows[0] != 0], st[0, K.ST_BUILT_ONCE], need, final)
                asked[bool(want)] += 1
                kept = city[0, K.C_COUNT] <= 1 and st[0, K.ST_BUILT_ONCE] == 0
                kinds.add((int(city[0, K.C_COUNT]), int(st[0, K.ST_BUILT_ONCE]), need, final))
                if len(questions) < 400:
                    questions.append(((loc, rows, city, st, holds), need, final, want, kept))
    # both answers and every kind of row were asked
    assert min(asked.values()) > 500
    assert len(kinds) == 24
    assert set(np.unique(memo)) == {0, 1, 2}
    # with every kept answer turned round, the kept questions answer the other way and the rest as before
    memo[memo != 0] = 3 - memo[memo != 0]
    turned = 0
    for (loc, rows, city, st, holds), need, final, want, kept in questions:
        got = first_search_nb(0, need, final, loc, rows, city, st, deck, saved, fit, memo, holds)
        assert got == (not want if kept else want)
        turned += kept
    assert 100 < turned < len(questions) - 50


def test_a_hand_stays_the_sorted_list_of_its_cards():
    rng = np.random.default_rng(13)
    st = np.zeros((2, K.N_ST), np.int64)
    holds = np.zeros(2, np.int64)
    deck = np.zeros((K.MAX_CARDS + 1, K.N_DECK), np.int64)
    deck[1:, K.D_TYPE] = rng.integers(K.N_TYPES, size=K.MAX_CARDS)
    for _ in range(60):
        seat = int(rng.integers(2))
        other, other_holds = st[1 - seat].copy(), holds[1 - seat]
        held = sorted(int(c) for c in st[seat, K.ST_CARDS:K.ST_CARDS + st[seat, K.ST_HAND]])
        free = [c for c in range(1, K.MAX_CARDS + 1) if c not in held]
        for _ in range(int(rng.integers(1, 40))):
            if held and (len(held) == K.MAX_CARDS or rng.random() < 0.45):
                c = held.pop(int(rng.integers(len(held))))    # any card of the hand: first, middle, last
                hand_drop_nb(seat, c, st, holds, deck)
                free.append(c)
            else:
                c = free.pop(int(rng.integers(len(free))))
                hand_add_nb(seat, c, st, holds, deck)
                held.append(c)
                held.sort()
            n = int(st[seat, K.ST_HAND])
            assert n == len(held)
            assert st[seat, K.ST_CARDS:K.ST_CARDS + n].tolist() == held
            assert not st[seat, K.ST_CARDS + n:].any()
            assert holds[seat] == sum(hand_in_nb(deck[c, K.D_TYPE]) for c in held)
        assert (st[1 - seat] == other).all() and holds[1 - seat] == other_holds   # the other seat's is untouched
