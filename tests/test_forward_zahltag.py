"""Zahltag's determinisation against the posterior worked out in plain Python.

What a seat cannot see at Zahltag is how its opponents' dealt cards split
between them (their public moves since are all seen) and the order of the
rest of the deck. ``forward_nb.determinize_nb`` draws the split from
``zsim.games.deal_posterior_nb``; here the same posterior is enumerated
deal by deal (every count matrix that meets the bounds the moves proved,
weighted by the number of ways the shuffle makes it) and the draws are held
to it by a chi-square test, together with the deck's order. Hypothesis
tests that a determinisation keeps everything public and the seat's own hand.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import chisquare

from zsim.games.zahltag import forward_nb as Z
from zsim.harness.chunks import Matchup
from zsim.harness.stepping_nb import collect_positions_nb
from zsim.roster import roster_of
from zsim.strategy_registry import strategy_arrays

SEED = 20261207


def _positions(players: int, table: tuple[str, ...], every: int = 5, n: int = 60):
    m = Matchup(players, table)
    ids, params = strategy_arrays("zahltag", list(table))
    consts, ws = Z.consts(m), Z.workspace(m)
    out = np.zeros((n, Z.size(m)), np.int64)
    collect_positions_nb(SEED, 0, players, roster_of("zahltag", ids), ids, params, consts, ws,
                         np.zeros(Z.size(m), np.int64), every, out)
    return m, consts, ws, out


def _parts(pos):
    p = int(pos[Z.O_CTRL + Z.C_PLAYERS])
    hand = pos[Z.O_HAND:Z.O_HAND + p].view(np.int16).reshape(p, 4).astype(np.int64)
    delta = pos[Z.O_DELTA:Z.O_DELTA + 4 * p].reshape(p, 4)
    low = pos[Z.O_DEALT:Z.O_DEALT + 4 * p].reshape(p, 4)
    alive = pos[Z.O_ALIVE:Z.O_ALIVE + p]
    return p, hand, delta, low, alive


def _compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def posterior(pool, low, hand_size):
    """Every count matrix (opponent by type) of the dealt cards with its
    probability: the ways to deal the physical cards into it, over all
    matrices that meet the bounds."""
    k = len(low)
    found = {}
    for first in itertools.product(*[list(_compositions(hand_size, 4)) for _ in range(k - 1)]):
        rows = list(first)
        last = tuple(int(pool[t] - sum(r[t] for r in rows)) for t in range(4))
        if min(last) < 0 or sum(last) != hand_size:
            continue
        rows.append(last)
        if any(rows[o][t] < low[o][t] for o in range(k) for t in range(4)):
            continue
        w = 1.0
        for t in range(4):
            w *= math.factorial(int(pool[t])) / math.prod(math.factorial(r[t]) for r in rows)
        found[tuple(rows)] = w
    total = sum(found.values())
    return {key: w / total for key, w in found.items()}


def _interesting(players: int):
    """A position of ``players`` with several opponents, bounds proved, and a
    posterior of many deals."""
    m, consts, ws, positions = _positions(players, ("simple", "counter", "undercut", "monopolist")[:players])
    hand_size = m.rules.hand_size
    for pos in positions[::-1]:
        seat = Z.decider_nb(pos)
        p, hand, delta, low, alive = _parts(pos)
        opps = [o for o in range(p) if o != seat and alive[o]]
        if len(opps) < players - 1 or low[opps].sum() == 0:
            continue
        pool = (hand[opps] - delta[opps]).sum(axis=0)
        post = posterior(pool, low[opps].tolist(), hand_size)
        if len(post) >= 12:
            return m, consts, ws, pos, seat, opps, post
    raise AssertionError("no position with a wide posterior among the collected ones")


@pytest.mark.parametrize("players", [3, 4])
def test_the_opponents_dealt_cards_are_drawn_from_their_posterior(players):
    m, consts, ws, pos, seat, opps, post = _interesting(players)
    rng = np.array([11], np.uint64)
    out = np.zeros_like(pos)
    draws = 20_000
    counts = {key: 0 for key in post}
    for _ in range(draws):
        Z.determinize_nb(pos, seat, rng, out, consts, ws)
        _, hand, delta, _, _ = _parts(out)
        key = tuple(tuple(int(v) for v in hand[o] - delta[o]) for o in opps)
        assert key in counts, f"a deal outside the information set: {key}"
        counts[key] += 1
    keys = sorted(post, key=post.get)
    expected = np.array([post[k] * draws for k in keys])
    seen = np.array([counts[k] for k in keys], float)
    # pool the rare deals into one bin, so each bin expects at least 5 draws
    rare = np.cumsum(expected) < 5
    cut = int(rare.sum()) + 1 if rare.any() else 0
    if cut:
        expected = np.concatenate([[expected[:cut].sum()], expected[cut:]])
        seen = np.concatenate([[seen[:cut].sum()], seen[cut:]])
    assert chisquare(seen, expected).pvalue > 1e-3, (len(post), seen[-5:], expected[-5:])


def test_the_rest_of_the_deck_comes_in_a_uniform_order():
    m, consts, ws, positions = _positions(4, ("simple",) * 4)
    pos = positions[20]
    seat = Z.decider_nb(pos)
    top, n_cards = int(pos[Z.O_CTRL + Z.C_TOP]), int(pos[Z.O_CTRL + Z.C_N_CARDS])
    rest = sorted(pos[Z.O_DECK + top:Z.O_DECK + n_cards].tolist())
    rng = np.array([3], np.uint64)
    out = np.zeros_like(pos)
    draws = 12_000
    first = {c: 0 for c in set(rest)}
    for _ in range(draws):
        Z.determinize_nb(pos, seat, rng, out, consts, ws)
        deck = out[Z.O_DECK + top:Z.O_DECK + n_cards]
        assert sorted(deck.tolist()) == rest
        first[int(deck[0])] += 1
    cards = sorted(first)
    expected = np.array([rest.count(c) / len(rest) * draws for c in cards])
    assert chisquare([first[c] for c in cards], expected).pvalue > 1e-3


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), row=st.integers(0, 59), seat=st.integers(0, 3), salt=st.integers(0, 2**32))
def test_a_determinisation_keeps_what_is_public_and_the_seats_own_hand(players, row, seat, salt):
    m, consts, ws, positions = _cached(players)
    pos = positions[row]
    seat %= players
    out = np.zeros_like(pos)
    Z.determinize_nb(pos, seat, np.array([salt], np.uint64), out, consts, ws)
    a, b = np.zeros(4 * len(pos), np.int64), np.zeros(4 * len(pos), np.int64)
    assert np.array_equal(a[:Z.view_nb(pos, seat, a)], b[:Z.view_nb(out, seat, b)])
    p, hand, delta, _, alive = _parts(pos)
    _, hand2, _, _, alive2 = _parts(out)
    assert np.array_equal(hand[seat], hand2[seat]) and np.array_equal(alive, alive2)
    assert np.array_equal(hand.sum(axis=0), hand2.sum(axis=0))           # the hands' total by type is public
    assert np.array_equal(hand.sum(axis=1), hand2.sum(axis=1))           # and every hand's size
    assert (hand2 >= 0).all()
    public = slice(Z.O_LEFT, Z.O_RNG)                                     # tables, stacks, money, pub
    assert np.array_equal(pos[public], out[public])


_CACHE: dict = {}


def _cached(players):
    if players not in _CACHE:
        _CACHE[players] = _positions(players, ("random", "simple", "counter", "undercut")[:players], every=3)
    return _CACHE[players]
