"""Many Hol's der Geier games at once: blocks of games, each thread taking the next block
until none is left, one workspace per thread (``zsim.blocks``).

Game ``first_game + g`` always gets the key ``game_key(run_seed, first_game + g)``
and writes only row ``g`` of the outputs, so results never depend on the
number of threads, which thread plays which block, the block size or how a
run is cut into chunks.
"""
from __future__ import annotations

import numpy as np

from zsim.jit import claim_nb, cold_nogil
from zsim.rng import game_key_nb
from zsim_geier.engine_nb import play_game_nb


@cold_nogil
def play_blocks_nb(run_seed, first_game, rules, roster, strat_ids, strat_params, seat_out, game_out,
                   ws, n_games, block, next_block):
    """The games ``first_game ..`` (``n_games`` in all), a block of ``block`` games at a
    time, each block the next one ``next_block`` hands out; ``ws``: this thread's
    workspace (``engine_nb.new_workspace``), which every game sets up whole."""
    seed = np.uint64(run_seed)
    while True:
        start = claim_nb(next_block) * block
        if start >= n_games:
            break
        for g in range(start, min(n_games, start + block)):
            key = game_key_nb(seed, np.uint64(first_game + g))
            play_game_nb(key, rules, roster, strat_ids, strat_params, ws, seat_out[g], game_out[g])
