"""The forward model's functions, callable from Python one at a time: what a
table with a person at it (``zsim/harness/table.py``) asks between two of
the person's decisions. Each is compiled for the game of the roster it is
handed, and cached like every kernel."""
from __future__ import annotations

import numpy as np

from zsim.harness.forward import (fm_answer_nb, fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb, fm_kind_nb,
                                  fm_new_nb, fm_options_nb, fm_rows_nb, fm_sealed_nb, fm_view_nb)
from zsim.harness.search_nb import search_nb
from zsim.jit import cold


@cold
def start_nb(roster, key, n_players, consts, ws, pos):
    """The game ``key`` dealt and advanced to its first decision; returns its decider (-1: over)."""
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    return fm_decider_nb(roster, pos)


@cold
def pending_nb(roster, pos, consts, opts, out):
    """The pending decision: ``out`` = (decider, kind, sealed round, options); the options in ``opts``."""
    seat = fm_decider_nb(roster, pos)
    out[0] = seat
    if seat < 0:
        out[1] = -1
        out[2] = 0
        out[3] = 0
        return
    out[1] = fm_kind_nb(roster, pos)
    out[2] = fm_sealed_nb(roster, pos)
    out[3] = fm_options_nb(roster, pos, consts, opts)


@cold
def play_nb(roster, pos, option, consts, ws):
    """Play ``option`` for the pending decision; returns the bot answer that chooses it."""
    answer = fm_answer_nb(roster, pos, option)
    fm_apply_nb(roster, pos, option, consts, ws)
    return answer


@cold
def bot_nb(roster, ids, params, pos, consts):
    """What the pending seat's bot answers."""
    return fm_bot_nb(roster, ids, params, pos, consts)


@cold
def view_nb(roster, pos, seat, out):
    return fm_view_nb(roster, pos, seat, out)


@cold
def view_after_nb(roster, pos, option, seat, consts, ws, work, out):
    """What ``seat`` would know after ``option`` were played at ``pos`` (``pos`` untouched)."""
    for i in range(pos.shape[0]):
        work[i] = pos[i]
    fm_apply_nb(roster, work, option, consts, ws)
    return fm_view_nb(roster, work, seat, out)


@cold
def determinize_nb(roster, pos, seat, rng, out, consts, ws):
    """A position ``seat`` cannot tell from ``pos``, drawn from ``rng``."""
    fm_determinize_nb(roster, pos, seat, rng, out, consts, ws)


@cold
def rows_nb(roster, pos, seat_out, game_out):
    fm_rows_nb(roster, pos, seat_out, game_out)


@cold
def search_root_nb(roster, root, seed, mode, iterations, worlds, c, horizon, widen, rollout_ids, rollout_params,
                   consts, ws, tree, stats):
    """The search's answer for the pending seat, from what that seat knows;
    ``stats[:k]``: each option's (option, visits, mean share of first place)."""
    option, k = search_nb(roster, root, seed, mode, iterations, worlds, c, horizon, widen, rollout_ids,
                          rollout_params, consts, ws, tree, stats)
    return np.int64(option), np.int64(k)
