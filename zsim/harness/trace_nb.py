"""Win-probability traces (numba): a game replayed decision by decision
through its forward model, and at every position each seat's chance of
winning estimated by playing the game on to its end many times.

Written once for every game with a forward model (``zsim/harness/forward.py``).
A continuation starts from the position as one observer may know it: the
true position with only what no seat has seen drawn afresh (``redraw_nb``,
observer -1), or a seat's own view, its hidden cards dealt afresh
(``determinize_nb``, observer = the seat). The continuation policy is a
table of bots, one per seat. Each (game, position, observer) draws from a
stream of its own, so a trace is the same on any number of threads.
"""
from __future__ import annotations

import numpy as np

from zsim.harness.forward import (fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb, fm_new_nb,
                                  fm_redraw_nb, fm_reward_nb)
from zsim.jit import claim_nb, cold_nogil, hot
from zsim.rng import game_key_nb, stream_start_nb

#: the streams of a trace's continuations: far past the game's own and the searches'
TRACE_STREAM = 1 << 24
#: observers per position a stream number leaves room for (the true position and up to 7 seats)
OBSERVER_SLOTS = 8


@hot
def estimate_nb(roster, ids, params, pos, observer, n, rng, consts, ws, work, reward, total, squares):
    """``n`` continuations of ``pos`` as ``observer`` knows it (-1: the true
    position), played to the end by the bots ``ids``/``params``; adds each
    seat's share of first place to ``total`` and its square to ``squares``."""
    for _ in range(n):
        if observer < 0:
            fm_redraw_nb(roster, pos, rng, work, consts, ws)
        else:
            fm_determinize_nb(roster, pos, observer, rng, work, consts, ws)
        while fm_decider_nb(roster, work) >= 0:
            fm_apply_nb(roster, work, fm_bot_nb(roster, ids, params, work, consts), consts, ws)
        fm_reward_nb(roster, work, reward)
        for s in range(reward.shape[0]):
            total[s] += reward[s]
            squares[s] += reward[s] * reward[s]


@hot
def trace_game_nb(key, n_players, roster, ids, params, script, length, observers, n, consts, ws, pos, work, rng,
                  reward, total, squares):
    """The game ``key`` replayed by its ``script`` (the option of each of its
    ``length`` decisions), and at each position ``d`` (before decision ``d``,
    and the end at ``length``) ``n`` continuations per observer:
    ``total[d, o, s]``/``squares[d, o, s]`` sum seat ``s``'s share of first
    place (and its square) over them. At the end every observer's estimate
    is the game's result, once (``n`` times over would say nothing more).
    Returns the decisions replayed: less than ``length`` when the game ended
    early (a script that does not fit the game)."""
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    d = 0
    while True:
        over = fm_decider_nb(roster, pos) < 0
        for o in range(observers.shape[0]):
            if over:
                fm_reward_nb(roster, pos, reward)
                for s in range(n_players):
                    total[d, o, s] = reward[s]
                    squares[d, o, s] = reward[s] * reward[s]
            else:
                rng[0] = stream_start_nb(key, TRACE_STREAM + d * OBSERVER_SLOTS + o)
                estimate_nb(roster, ids, params, pos, observers[o], n, rng, consts, ws, work, reward, total[d, o],
                            squares[d, o])
        if over or d >= length:
            return d
        fm_apply_nb(roster, pos, script[d], consts, ws)
        d += 1


@cold_nogil
def trace_blocks_nb(run_seed, games, roster, ids, params, scripts, lengths, observers, n, consts, total, squares, ws,
                    n_games, block, next_block):
    """``trace_game_nb`` for game ``games[g]`` of the run ``run_seed``, for
    each ``g`` in the blocks this thread claims (``zsim.blocks``); ``ws``:
    (the model's workspace, two positions, a one-stream state, a reward row)."""
    seed = np.uint64(run_seed)
    n_players = ids.shape[0]
    model_ws, pos, work, rng, reward = ws
    while True:
        start = claim_nb(next_block) * block
        if start >= n_games:
            break
        for g in range(start, min(n_games, start + block)):
            key = game_key_nb(seed, np.uint64(games[g]))
            trace_game_nb(key, n_players, roster, ids, params, scripts[g], lengths[g], observers, n, consts,
                          model_ws, pos, work, rng, reward, total[g], squares[g])
