"""Games played through a forward model, one decision at a time (numba).

The batch engines play a game in one loop; here the same game is played by
asking the forward model (``zsim/harness/forward.py``) for the pending
decision, the seat's bot for its answer, and the model to apply it. With
bots alone the games are the batch engine's, row for row (the tests hold
them equal); it is the path a seat that searches takes
(``zsim/harness/search_nb.py``). Written once: every function here is
compiled for the game of the roster it is handed.
"""
from __future__ import annotations

import numpy as np

from zsim.harness.forward import fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_new_nb, fm_rows_nb
from zsim.jit import claim_nb, cold_nogil, hot
from zsim.rng import game_key_nb


@hot
def play_stepped_nb(key, n_players, roster, strat_ids, strat_params, consts, ws, pos, seat_out, game_out):
    """One game with the 64-bit ``key``, every decision its seat's bot's."""
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    while fm_decider_nb(roster, pos) >= 0:
        fm_apply_nb(roster, pos, fm_bot_nb(roster, strat_ids, strat_params, pos, consts), consts, ws)
    fm_rows_nb(roster, pos, seat_out, game_out)


@cold_nogil
def play_stepped_blocks_nb(run_seed, first_game, roster, strat_ids, strat_params, consts, seat_out, game_out,
                           ws, n_games, block, next_block):
    """The batch of ``zsim.blocks.play_in_blocks`` over stepped games; ``ws``:
    (the forward model's workspace, a position)."""
    seed = np.uint64(run_seed)
    n_players = strat_ids.shape[0]
    model_ws, pos = ws
    while True:
        start = claim_nb(next_block) * block
        if start >= n_games:
            break
        for g in range(start, min(n_games, start + block)):
            key = game_key_nb(seed, np.uint64(first_game + g))
            play_stepped_nb(key, n_players, roster, strat_ids, strat_params, consts, model_ws, pos, seat_out[g],
                            game_out[g])
