"""Same seed, config and strategies: the same bits, whatever threads or chunks."""
from __future__ import annotations

import numba
import numpy as np
import pytest

from zsim.harness.chunks import Matchup, play_chunk
from zsim.harness.runs import simulate

M = Matchup(4, ("simple", "random", "simple", "random"))


@pytest.fixture
def restore_threads():
    yield
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def test_thread_count_does_not_change_any_game(restore_threads):
    results = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        results.append(play_chunk(M, 3, 0, 5_000))
    for seats, games in results[1:]:
        np.testing.assert_array_equal(seats, results[0][0])
        np.testing.assert_array_equal(games, results[0][1])


def test_chunking_does_not_change_the_summary_or_the_rows():
    rows = {}

    def keep(chunk_id):
        def on_chunk(seats, games, first):
            rows.setdefault(chunk_id, []).append((first, seats.copy(), games.copy()))
        return on_chunk

    summaries = [simulate(M, 6_000, 17, chunk=c, on_chunk=keep(c)) for c in (6_000, 1_000, 777)]
    for s in summaries[1:]:
        np.testing.assert_array_equal(s.agg, summaries[0].agg)
        assert s.table().equals(summaries[0].table())
    whole = {c: np.concatenate([r[1] for r in rows[c]]) for c in rows}
    np.testing.assert_array_equal(whole[777], whole[6_000])
    assert [r[0] for r in rows[1_000]] == list(range(0, 6_000, 1_000))


def test_different_seeds_give_different_games():
    a, _ = play_chunk(M, 1, 0, 500)
    b, _ = play_chunk(M, 2, 0, 500)
    assert (a != b).any(axis=(1, 2)).mean() > 0.9


@pytest.mark.parametrize("game,strategies", [("zahltag", ("simple", "random", "simple", "random")),
                                             ("zahlemann", ("first", "random", "first")),
                                             ("baumeister", ("first", "random"))])
def test_reused_chunk_outputs_hold_no_trace_of_the_last_chunk(game, strategies):
    """A run's chunks are played into one thread's reused arrays: every game
    overwrites its rows whole, so garbage left in them changes nothing."""
    from zsim.harness.backends import play_task
    from zsim.harness.chunks import chunk_outputs

    m = Matchup(len(strategies), strategies, game=game)
    fresh = play_task(m, 5, 0, 100, 300, rows=True, arrays=True)
    seats, games = chunk_outputs(m, 400)
    seats.fill(-7)
    games.fill(99)
    reused = play_task(m, 5, 0, 100, 300, rows=True)
    assert reused.arrays is None
    np.testing.assert_array_equal(reused.agg, fresh.agg)
    assert reused.rows.equals(fresh.rows)
    again, _ = chunk_outputs(m, 300)
    assert again is seats                      # the same arrays were played into
    np.testing.assert_array_equal(seats[:300], fresh.arrays[0])
