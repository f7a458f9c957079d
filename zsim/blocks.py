"""Many games on several threads: a chunk's blocks of games split between threads.

A game kernel's batch (``play_blocks_nb`` in each game's ``batch_nb.py``,
whose last arguments are ``n_games, block, b0, b1``) plays the blocks
``b0 .. b1 - 1`` of a chunk on the thread that calls it,
without the interpreter lock (``nogil``). :func:`play_in_blocks` hands each of
``numba.get_num_threads()`` threads one contiguous share of the blocks, as
numba's static ``prange`` schedule would, and waits for all of them.

Why not ``prange``: numba builds a ``prange`` kernel as four modules (the
kernel, the parfor's gufunc and two wrappers), and links the whole game into
each of them and optimizes and emits it again: a cold start compiled each
game's machine code five times. A plain kernel links it once. Every game still
writes only its own row, with its own key, so results do not depend on the
threads or the split (tests/test_determinism.py).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numba

from zsim._cache import load_cached


def shares(n_blocks: int, threads: int) -> list[tuple[int, int]]:
    """``threads`` contiguous ranges ``(b0, b1)`` covering blocks ``0 .. n_blocks - 1``
    (fewer when there are fewer blocks), as even as whole blocks allow."""
    threads = max(1, min(threads, n_blocks))
    return [(k * n_blocks // threads, (k + 1) * n_blocks // threads) for k in range(threads)]


def play_in_blocks(batch: Callable, n_games: int, block: int, *args,
                   compile_first: Callable[[], None] | None = None) -> None:
    """``batch(*args, n_games, block, b0, b1)`` over the blocks of ``n_games`` games
    (``block`` games each, the last one short), one share per numba thread of the
    calling thread's setting; the first share runs on the calling thread.

    ``compile_first`` runs before the batch kernel compiles, and not when its
    machine code is in this process or the disk cache already: Zahlemann and
    Baumeister compile their game kernel on its own there, faster than inside
    the batch's compile, and a warm start need not read that kernel back."""
    n_blocks = (n_games + block - 1) // block
    if compile_first is not None and not load_cached(batch, *args, n_games, block, 0, 1):
        compile_first()
    parts = shares(n_blocks, numba.get_num_threads())
    if len(parts) <= 1:
        batch(*args, n_games, block, 0, n_blocks)
        return
    with ThreadPoolExecutor(len(parts) - 1) as pool:
        pending = [pool.submit(batch, *args, n_games, block, b0, b1) for b0, b1 in parts[1:]]
        batch(*args, n_games, block, *parts[0])
        for p in pending:
            p.result()
