"""The counter-based generator: numba and plain Python agree draw for draw."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from zsim.rng import (PyStream, below_nb, draw_nb, fisher_yates, game_key, game_key_nb, seed_streams_nb,
                      swap_partners_nb)


@njit
def _draws(key, n_streams, n):
    states = np.zeros(n_streams, np.uint64)
    seed_streams_nb(key, states)
    out = np.zeros((n_streams, n), np.uint64)
    small = np.zeros((n_streams, n), np.int64)
    for s in range(n_streams):
        for i in range(n):
            out[s, i] = draw_nb(states, s)
    seed_streams_nb(key, states)
    for s in range(n_streams):
        for i in range(n):
            small[s, i] = below_nb(states, s, i + 1)
    return out, small


@pytest.mark.parametrize("run_seed,game", [(0, 0), (7, 3), (2**64 - 1, 10**9), (123456789, 42)])
def test_numba_and_python_generators_agree(run_seed, game):
    key = game_key(run_seed, game)
    assert int(game_key_nb(np.uint64(run_seed), np.uint64(game))) == key
    draws, small = _draws(np.uint64(key), 5, 60)
    for stream in range(5):
        py = PyStream(key, stream)
        assert [int(v) for v in draws[stream]] == [py.draw() for _ in range(60)]
        py = PyStream(key, stream)
        assert [int(v) for v in small[stream]] == [py.below(i + 1) for i in range(60)]


def test_below_is_in_range_and_roughly_uniform():
    py = PyStream(game_key(1, 1), 0)
    counts = np.bincount([py.below(6) for _ in range(60_000)], minlength=6)
    assert counts.min() > 9_500 and counts.max() < 10_500


def test_games_and_streams_are_distinct():
    keys = {game_key(5, g) for g in range(10_000)}
    assert len(keys) == 10_000
    firsts = {PyStream(game_key(5, 0), s).draw() for s in range(5)}
    assert len(firsts) == 5


@njit
def _partners(key, n, stream):
    states = np.zeros(3, np.uint64)
    seed_streams_nb(key, states)
    partners = np.full(max(n, 1) + 4, 99, np.uint32)
    swap_partners_nb(states, stream, n, partners)
    after = np.zeros(3, np.uint64)
    after[:] = states
    return partners, after


@pytest.mark.parametrize("n", [0, 1, 2, 3, 8, 9, 17, 36, 38, 52, 240])
def test_a_shuffles_draws_taken_at_once_are_the_draws_one_by_one(n):
    """swap_partners_nb gives every position of a Fisher-Yates from the bottom
    the partner n - 1 calls of below would, writes nothing past them, and leaves
    its stream (and no other) where those calls would."""
    key = game_key(11, n)
    partners, after = _partners(np.uint64(key), n, 1)
    py = PyStream(key, 1)
    expected = [py.below(i + 1) for i in range(n - 1, 0, -1)]
    assert [int(v) for v in partners[:len(expected)]] == expected
    assert (partners[len(expected):] == 99).all()
    assert int(after[1]) == py.state
    assert int(after[0]) == PyStream(key, 0).state and int(after[2]) == PyStream(key, 2).state
    # swapping by those partners is the reference engines' shuffle
    cards = list(range(n))
    for k, j in enumerate(expected):
        i = n - 1 - k
        cards[i], cards[j] = cards[j], cards[i]
    assert cards == fisher_yates(range(n), PyStream(key, 1))
