"""What ``zsim bench --strategy SEARCH`` times (numba): searches and playouts
from stored positions of real games, each kernel a loop over a slice of
them that releases the interpreter lock, so that threads can share them.

The loops themselves are ``hot`` kernels, compiled without numba's
reference counting as every kernel that steps a forward model must be: a
position's arrays are views made afresh at each step, and counting their
references (an atomic add and subtract each) made a playout eight times
slower in a kernel compiled with it."""
from __future__ import annotations

import numpy as np

from zsim.harness.forward import fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb
from zsim.harness.search_nb import search_nb
from zsim.jit import cold_nogil, hot


@hot
def _playouts(roster, positions, first, last, rounds, rollout_ids, rollout_params, consts, ws, det, rng):
    n = 0
    for i in range(first, last):
        pos = positions[i]
        for _ in range(rounds):
            fm_determinize_nb(roster, pos, fm_decider_nb(roster, pos), rng, det, consts, ws)
            while fm_decider_nb(roster, det) >= 0:
                fm_apply_nb(roster, det, fm_bot_nb(roster, rollout_ids, rollout_params, det, consts), consts, ws)
                n += 1
    return n


@cold_nogil
def playouts_nb(roster, positions, first, last, rounds, rollout_ids, rollout_params, consts, ws, det, seed):
    """Every position of ``first..last``, ``rounds`` times in a row, as a
    search visits it: determinised from the deciding seat's view, then played
    out by the rollout bots, as one iteration of the search plays out.
    Returns the decisions played."""
    rng = np.zeros(1, np.uint64)
    rng[0] = seed
    return _playouts(roster, positions, first, last, rounds, rollout_ids, rollout_params, consts, ws, det, rng)


@hot
def _searches(roster, positions, first, last, mode, iterations, worlds, c, horizon, widen, rollout_ids, rollout_params,
              consts, ws, tree, stats, seed):
    total = 0
    for i in range(first, last):
        option, _ = search_nb(roster, positions[i], np.uint64(seed + i), mode, iterations, worlds, c, horizon, widen,
                              rollout_ids, rollout_params, consts, ws, tree, stats)
        total += option
    return total


@cold_nogil
def searches_nb(roster, positions, first, last, mode, iterations, worlds, c, horizon, widen, rollout_ids,
                rollout_params, consts, ws, tree, stats, seed):
    """One search of ``iterations`` from every position of ``first..last``;
    returns the sum of the chosen options (so nothing is optimised away)."""
    return _searches(roster, positions, first, last, mode, iterations, worlds, c, horizon, widen, rollout_ids,
                     rollout_params, consts, ws, tree, stats, seed)
