"""Many games on several threads: a chunk's blocks of games shared out between threads.

A game kernel's batch (``play_blocks_nb`` in each game's ``batch_nb.py``,
whose last arguments are ``n_games, block, next_block``) plays blocks of a
chunk on the thread that calls it, without the interpreter lock (``nogil``),
taking each next block from the counter ``next_block`` (``zsim.jit.claim_nb``)
until none is left. :func:`play_in_blocks` starts the batch on
``numba.get_num_threads()`` threads with one counter and waits for all of
them. A thread that another process slows down plays fewer blocks and the
others play more, so a chunk ends when the work does, not when its slowest
thread's fixed share does (a share of half the blocks each, as numba's
static ``prange`` schedule would give, made two threads 1.4x to 1.7x one
in bench rounds where one core was busy elsewhere; docs/performance.md).

Why not ``prange``: numba builds a ``prange`` kernel as four modules (the
kernel, the parfor's gufunc and two wrappers), and links the whole game into
each of them and optimizes and emits it again: a cold start compiled each
game's machine code five times. A plain kernel links it once. Every game still
writes only its own row, with its own key, so results do not depend on the
threads or on which thread plays which block (tests/test_determinism.py).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numba
import numpy as np

from zsim._cache import load_cached


def play_in_blocks(batch: Callable, n_games: int, block: int, *args,
                   compile_first: Callable[[], None] | None = None,
                   workspace: Callable[[], tuple] | None = None) -> None:
    """``batch(*args, n_games, block, next_block)`` on as many threads as the calling
    thread's numba setting allows (at most one per block of ``block`` games, the last
    one short), one of them the calling thread, all sharing the counter ``next_block``
    from which they take their blocks.

    ``workspace``: each thread's scratch arrays, made here, one call for each
    thread, and passed after ``args`` (``batch(*args, workspace(), n_games, ...)``).
    A batch kernel that made them itself compiled numpy's allocation for each
    array's type: about a second of a cold start (docs/performance.md,
    seventeenth round).

    ``compile_first`` runs before the batch kernel compiles, and not when its
    machine code is in this process or the disk cache already: Zahlemann and
    Baumeister compile their game kernel on its own there, faster than inside
    the batch's compile, and a warm start need not read that kernel back."""
    n_blocks = (n_games + block - 1) // block
    next_block = np.zeros(1, np.int64)
    threads = max(1, min(numba.get_num_threads(), n_blocks))
    own = [args + (workspace(),) if workspace is not None else args for _ in range(threads)]
    if compile_first is not None and not load_cached(batch, *own[0], n_games, block, next_block):
        compile_first()
    if threads == 1:
        batch(*own[0], n_games, block, next_block)
        return
    with ThreadPoolExecutor(threads - 1) as pool:
        pending = [pool.submit(batch, *a, n_games, block, next_block) for a in own[1:]]
        batch(*own[0], n_games, block, next_block)
        for p in pending:
            p.result()
