"""zsim.blocks: a chunk's blocks of games shared out between threads, each block played once."""
from __future__ import annotations

import threading
import time

import numba
import numpy as np
import pytest

from conftest import uncached
from zsim.blocks import play_in_blocks
from zsim.jit import claim_nb, cold_nogil


@uncached(cold_nogil)
def _claim_many(counter, got):
    for i in range(got.shape[0]):
        got[i] = claim_nb(counter)


def _number_games(out, n_games, block, next_block):
    """A batch as the games' are: ``out[g]`` gets ``g + 1`` added for each game it plays."""
    while True:
        start = claim_nb(next_block) * block
        if start >= n_games:
            break
        for g in range(start, min(n_games, start + block)):
            out[g] += g + 1


_fill_blocks = uncached(cold_nogil)(_number_games)


def test_claim_hands_out_every_number_once_to_threads_at_once():
    """Two threads claiming from one counter as fast as they can: an add that
    was not atomic would hand some numbers out twice and skip others."""
    counter = np.zeros(1, np.int64)
    _claim_many(counter, np.zeros(3, np.int64))
    assert counter[0] == 3
    counter[0] = 0
    n = 400_000
    got = [np.full(n, -1, np.int64), np.full(n, -1, np.int64)]
    t = threading.Thread(target=_claim_many, args=(counter, got[1]))
    t.start()
    _claim_many(counter, got[0])
    t.join()
    assert counter[0] == 2 * n
    assert all(np.all(np.diff(g) > 0) for g in got)                  # each thread's own in order
    assert np.array_equal(np.sort(np.concatenate(got)), np.arange(2 * n))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("n_games, block", [(1, 64), (64, 64), (1000, 64), (1000, 7), (65, 64)])
def test_a_kernel_plays_every_game_once_whatever_the_threads(monkeypatch, threads, n_games, block):
    monkeypatch.setattr(numba, "get_num_threads", lambda: threads)
    out = np.zeros(n_games + 3, np.int64)
    play_in_blocks(_fill_blocks, n_games, block, out)
    assert out[:n_games].tolist() == list(range(1, n_games + 1))     # each game once
    assert out[n_games:].tolist() == [0, 0, 0]


def test_every_thread_gets_the_same_fresh_counter(monkeypatch):
    calls, lock = [], threading.Lock()
    gate = threading.Barrier(2, timeout=10)       # both threads must be running at once

    def batch(tag, n_games, block, next_block):
        assert (tag, n_games, block) == ("x", 1000, 64)
        gate.wait()
        with lock:
            calls.append((next_block, next_block.tolist(), threading.get_ident()))

    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    play_in_blocks(batch, 1000, 64, "x")
    assert len(calls) == 2
    assert calls[0][0] is calls[1][0]                               # one counter for both
    assert [c[1] for c in calls] == [[0], [0]]
    assert calls[0][0].dtype == np.int64
    assert len({ident for *_, ident in calls}) == 2
    assert threading.get_ident() in {ident for *_, ident in calls}   # one of them the caller


def test_a_slow_thread_leaves_its_blocks_to_the_other(monkeypatch):
    """The caller's thread is made slow; the other thread takes the blocks it
    does not get to, and every block is played once."""
    played, lock = [], threading.Lock()
    caller = threading.get_ident()

    def batch(n_games, block, next_block):
        while True:
            with lock:
                b = int(next_block[0])
                next_block[0] += 1
            if b * block >= n_games:
                return
            if threading.get_ident() == caller:
                time.sleep(0.1)
            with lock:
                played.append((b, threading.get_ident()))

    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    play_in_blocks(batch, 20 * 64, 64)
    assert sorted(b for b, _ in played) == list(range(20))
    by_caller = sum(1 for _, who in played if who == caller)
    assert by_caller < 10


def test_no_more_threads_than_blocks(monkeypatch):
    seen = []
    monkeypatch.setattr(numba, "get_num_threads", lambda: 4)
    play_in_blocks(lambda n, block, next_block: seen.append(threading.get_ident()), 100, 64)
    assert len(seen) == 2


def test_play_in_blocks_passes_a_kernels_error_on(monkeypatch):
    caller = threading.get_ident()

    def batch(n_games, block, next_block):
        if threading.get_ident() != caller:
            raise ValueError("the second thread failed")

    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    with pytest.raises(ValueError, match="the second thread failed"):
        play_in_blocks(batch, 256, 64)


def test_one_thread_plays_every_block_on_the_caller(monkeypatch):
    seen = []
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    play_in_blocks(lambda n, block, next_block: seen.append((n, block, next_block.tolist(),
                                                             threading.get_ident())), 65, 64)
    assert seen == [(65, 64, [0], threading.get_ident())]


def test_compile_first_runs_only_while_the_batch_kernel_is_not_compiled(monkeypatch):
    """Zahlemann and Baumeister compile their game kernel alone before the batch's compile;
    once the batch is there (compiled, or in the disk cache) that step is skipped."""
    batch = uncached(cold_nogil)(_number_games)        # a kernel of its own, not compiled yet
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    asked = []
    for _ in range(2):
        out = np.zeros(100, np.int64)
        play_in_blocks(batch, 100, 32, out, compile_first=lambda: asked.append(len(batch.signatures)))
        assert out.tolist() == list(range(1, 101))
    assert asked == [0]                             # before the first compile only


def test_each_thread_gets_a_workspace_of_its_own(monkeypatch):
    """A game's scratch arrays are made outside its kernel (``workspace``) and each
    thread plays into its own: two threads sharing one would overwrite each other's games."""
    made = []

    def workspace():
        made.append((np.zeros(3, np.int64),))
        return made[-1]

    seen = []
    lock = threading.Lock()

    def batch(out, ws, n_games, block, next_block):
        with lock:
            seen.append((threading.get_ident(), id(ws)))

    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    play_in_blocks(batch, 256, 64, "out", workspace=workspace)
    assert len(made) == 2
    assert len({who for who, _ in seen}) == 2              # two threads,
    assert sorted(ws for _, ws in seen) == sorted(id(w) for w in made)   # each with one of the two


def test_a_workspace_is_typed_into_the_cache_lookup(monkeypatch):
    """``compile_first`` asks whether the batch kernel is compiled for the arguments it
    will get, the workspace among them: a kernel compiled for them is found."""
    batch = uncached(cold_nogil)(_fill_with_workspace)
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    asked = []
    for _ in range(2):
        out = np.zeros(100, np.int64)
        play_in_blocks(batch, 100, 32, out, compile_first=lambda: asked.append(len(batch.signatures)),
                       workspace=lambda: (np.zeros(32, np.int64),))
        assert out.tolist() == list(range(1, 101))
    assert asked == [0]


def _fill_with_workspace(out, ws, n_games, block, next_block):
    scratch = ws[0]
    while True:
        start = claim_nb(next_block) * block
        if start >= n_games:
            break
        stop = min(n_games, start + block)
        for g in range(start, stop):
            scratch[g - start] = g + 1
        for g in range(start, stop):
            out[g] = scratch[g - start]
