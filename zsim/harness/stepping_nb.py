"""Games played through a forward model, one decision at a time (numba).

The batch engines play a game in one loop; here the same game is played by
asking the forward model (``zsim/harness/forward.py``) for the pending
decision, the seat's bot for its answer, and the model to apply it. With
bots alone the games are the batch engine's, row for row (the tests hold
them equal); a seat that searches (``zsim/harness/search_nb.py``) answers
in the same loop. Written once: every function here is
compiled for the game of the roster it is handed.
"""
from __future__ import annotations

import numpy as np

from zsim.harness.forward import (fm_answer_nb, fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_kind_nb, fm_new_nb,
                                  fm_rows_nb, fm_sealed_nb)
from zsim.harness.search_nb import search_nb
from zsim.jit import claim_nb, cold, cold_nogil, hot, hot_flat
from zsim.rng import SEARCH_STREAM, draw_nb, game_key_nb, stream_start_nb


@hot
def play_stepped_nb(key, n_players, roster, bot_ids, bot_params, modes, search_params, rollout_ids,
                     rollout_params, consts, ws, pos, tree, stats, seeds, seat_out, game_out, log):
    """One game with the 64-bit ``key``, played a decision at a time: the
    seats with ``modes[seat] >= 0`` search
    (``search_nb``'s modes; ``search_params[seat]``: iterations, worlds, c, horizon, widen;
    ``rollout_ids[seat]``/``rollout_params[seat]``: the table of bots its
    searches play out with) and the others ask their bots (``bot_ids``).
    Each searching seat draws its searches' seeds from a stream of its own
    (``zsim.rng.SEARCH_STREAM + seat``), never from the game's. ``log``:
    None, or (decisions [N, 6]: seat, kind, sealed round, option, the root's
    options searched or 0, the bot answer that chooses the option; the
    searched root's rows [N, options, 3]; the count [1], which runs past N
    when the log is too short)."""
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    for s in range(n_players):
        seeds[s] = stream_start_nb(key, SEARCH_STREAM + s)
    while True:
        seat = fm_decider_nb(roster, pos)
        if seat < 0:
            break
        searched = 0
        if modes[seat] >= 0:
            option, searched = search_nb(roster, pos, draw_nb(seeds, seat), modes[seat],
                                         np.int64(search_params[seat, 0]), np.int64(search_params[seat, 1]),
                                         search_params[seat, 2], np.int64(search_params[seat, 3]),
                                         np.int64(search_params[seat, 4]), rollout_ids[seat], rollout_params[seat],
                                         consts, ws, tree, stats)
        else:
            option = fm_bot_nb(roster, bot_ids, bot_params, pos, consts)
        if log is not None:
            _note(log, seat, fm_kind_nb(roster, pos), fm_sealed_nb(roster, pos), option, searched, stats,
                  fm_answer_nb(roster, pos, option))
        fm_apply_nb(roster, pos, option, consts, ws)
    fm_rows_nb(roster, pos, seat_out, game_out)


@hot_flat
def _note(log, seat, kind, sealed, option, searched, stats, answer):
    decisions, rows, count = log
    k = count[0]
    count[0] += 1
    if k >= decisions.shape[0]:
        return
    decisions[k, 0] = seat
    decisions[k, 1] = kind
    decisions[k, 2] = sealed
    decisions[k, 3] = option
    decisions[k, 4] = searched
    decisions[k, 5] = answer
    for i in range(searched):
        for j in range(3):
            rows[k, i, j] = stats[i, j]


@cold_nogil
def play_stepped_blocks_nb(run_seed, first_game, roster, bot_ids, bot_params, modes, search_params, rollout_ids,
                            rollout_params, consts, seat_out, game_out, ws, n_games, block, next_block):
    """The batch of ``zsim.blocks.play_in_blocks`` over stepped games; ``ws``:
    (the forward model's workspace, a position, a search tree
    (``search_nb.new_tree``), the root's statistics, the seats' search streams)."""
    seed = np.uint64(run_seed)
    n_players = bot_ids.shape[0]
    model_ws, pos, tree, stats, seeds = ws
    while True:
        start = claim_nb(next_block) * block
        if start >= n_games:
            break
        for g in range(start, min(n_games, start + block)):
            key = game_key_nb(seed, np.uint64(first_game + g))
            play_stepped_nb(key, n_players, roster, bot_ids, bot_params, modes, search_params, rollout_ids,
                             rollout_params, consts, model_ws, pos, tree, stats, seeds, seat_out[g], game_out[g], None)


@hot
def collect_positions_nb(run_seed, first_game, n_players, roster, strat_ids, strat_params, consts, ws, pos, every,
                         out):
    """Positions of real games for the search's benchmark: games ``first_game ..``
    played by the bots, every ``every``-th pending decision copied into the
    next row of ``out`` until it is full; returns the games played."""
    seed = np.uint64(run_seed)
    row = 0
    k = 0
    g = 0
    while row < out.shape[0]:
        fm_new_nb(roster, game_key_nb(seed, np.uint64(first_game + g)), n_players, consts, ws, pos)
        g += 1
        while row < out.shape[0] and fm_decider_nb(roster, pos) >= 0:
            k += 1
            if k % every == 0:
                for i in range(pos.shape[0]):
                    out[row, i] = pos[i]
                row += 1
            fm_apply_nb(roster, pos, fm_bot_nb(roster, strat_ids, strat_params, pos, consts), consts, ws)
    return g


@cold
def record_searched_nb(run_seed, game, roster, bot_ids, bot_params, modes, search_params, rollout_ids, rollout_params,
                       consts, ws, pos, tree, stats, seeds, seat_out, game_out, log):
    """Game ``game`` of a run with searching seats, every decision noted in ``log``."""
    key = game_key_nb(np.uint64(run_seed), np.uint64(game))
    play_stepped_nb(key, bot_ids.shape[0], roster, bot_ids, bot_params, modes, search_params, rollout_ids,
                     rollout_params, consts, ws, pos, tree, stats, seeds, seat_out, game_out, log)
