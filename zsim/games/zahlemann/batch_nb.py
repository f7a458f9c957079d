"""Many Zahlemann games at once: blocks of games, one workspace per block, a share of the blocks
per thread (``zsim.blocks``).

Game ``first_game + g`` always gets the key ``game_key(run_seed, first_game + g)``
and writes only row ``g`` of the outputs, so results never depend on the
number of threads, the block size or how a run is cut into chunks. (The
harness folds the rows into running sums with ``zsim/games/fold_nb.py``.)
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann.engine_nb import new_workspace_nb, play_game_nb
from zsim.jit import cold_nogil
from zsim.rng import game_key_nb


@cold_nogil
def play_blocks_nb(run_seed, first_game, rules, notice, roster, strat_ids, strat_params, seat_out, game_out,
                   n_games, block, b0, b1):
    """Blocks ``b0 .. b1 - 1`` of the games ``first_game ..`` (``n_games`` in all)."""
    n_players = strat_ids.shape[0]
    seed = np.uint64(run_seed)
    for b in range(b0, b1):
        ws = new_workspace_nb(n_players)
        stop = min(n_games, (b + 1) * block)
        for g in range(b * block, stop):
            key = game_key_nb(seed, np.uint64(first_game + g))
            play_game_nb(key, rules, notice, roster, strat_ids, strat_params, ws, seat_out[g], game_out[g])
