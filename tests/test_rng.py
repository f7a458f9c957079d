"""The counter-based generator: numba and plain Python agree draw for draw."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from zsim.rng import PyStream, below_nb, draw_nb, game_key, game_key_nb, seed_streams_nb


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
