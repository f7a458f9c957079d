"""zsim.blocks: a chunk's blocks of games split between threads, each block played once."""
from __future__ import annotations

import threading

import numba
import pytest

from zsim.blocks import play_in_blocks, shares


@pytest.mark.parametrize("n_blocks", [1, 2, 3, 7, 64, 1025])
@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_shares_cover_every_block_once_in_order(n_blocks, threads):
    parts = shares(n_blocks, threads)
    assert len(parts) == min(threads, n_blocks)
    assert parts[0][0] == 0 and parts[-1][1] == n_blocks
    assert all(a[1] == b[0] for a, b in zip(parts, parts[1:]))          # contiguous
    sizes = [b1 - b0 for b0, b1 in parts]
    assert min(sizes) >= 1 and max(sizes) - min(sizes) <= 1           # as even as whole blocks allow


def test_play_in_blocks_gives_each_thread_a_share(monkeypatch):
    calls, lock = [], threading.Lock()
    gate = threading.Barrier(2, timeout=10)       # both shares must be running at once

    def batch(tag, n_games, block, b0, b1):
        assert (n_games, block) == (1000, 64)
        gate.wait()
        with lock:
            calls.append((tag, b0, b1, threading.get_ident()))

    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    play_in_blocks(batch, 1000, 64, "x")          # 16 blocks, the last one short
    assert sorted((b0, b1) for _, b0, b1, _ in calls) == [(0, 8), (8, 16)]
    assert {tag for tag, *_ in calls} == {"x"}
    assert len({ident for *_, ident in calls}) == 2
    assert threading.get_ident() in {ident for *_, ident in calls}   # the first share on the caller


def test_play_in_blocks_passes_a_kernels_error_on(monkeypatch):
    def batch(n_games, block, b0, b1):
        if b0 > 0:
            raise ValueError("share two failed")

    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    with pytest.raises(ValueError, match="share two failed"):
        play_in_blocks(batch, 256, 64)


def test_one_thread_plays_every_block_on_the_caller(monkeypatch):
    seen = []
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    play_in_blocks(lambda n, block, b0, b1: seen.append((b0, b1, threading.get_ident())), 65, 64)
    assert seen == [(0, 2, threading.get_ident())]


def test_compile_first_runs_only_while_the_batch_kernel_is_not_compiled(monkeypatch):
    """Zahlemann and Baumeister compile their game kernel alone before the batch's compile;
    once the batch is there (compiled, or in the disk cache) that step is skipped."""
    import numpy as np
    from numba.core.caching import NullCache

    from zsim.jit import cold_nogil

    def fill(out, n_games, block, b0, b1):
        for b in range(b0, b1):
            for g in range(b * block, min(n_games, (b + 1) * block)):
                out[g] = g

    batch = cold_nogil(fill)
    batch._cache = NullCache()                       # no disk cache: compiled here, in this test
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    asked = []
    for _ in range(2):
        out = np.zeros(100, np.int64)
        play_in_blocks(batch, 100, 32, out, compile_first=lambda: asked.append(len(batch.signatures)))
        assert out.tolist() == list(range(100))
    assert asked == [0]                             # before the first compile only
