"""Many Baumeister games at once: blocks of games, each thread taking the next block until none is left,
one workspace per thread (``zsim.blocks``).

Game ``first_game + g`` always gets the key ``game_key(run_seed, first_game + g)``
and writes only row ``g`` of the outputs, so results never depend on the
number of threads, which thread plays which block, the block size or how a run
is cut into chunks.
"""
from __future__ import annotations

import numpy as np

from zsim.games.baumeister.engine_nb import play_games_nb
from zsim.jit import claim_nb, cold_nogil


@cold_nogil
def play_blocks_nb(run_seed, first_game, deck, rules, roster, strat_ids, strat_params, seat_out, game_out,
                   cards_out, ws, n_games, block, next_block):
    """The games ``first_game ..`` (``n_games`` in all) into ``seat_out[g]`` and ``game_out[g]``, a block
    of ``block`` games at a time, each block the next one ``next_block`` hands out (``zsim.blocks``);
    with the per-card log when
    ``cards_out`` has a row per game (``cards_out[g, c]`` [N + 1, N_CARD_LOG]: card c's last sale (price,
    turn, buyer, stack; -1 for buyer and stack if never sold), how often it was sold, where it ended
    (``CE_*``) and whose (-1 in a stack)); an empty ``cards_out`` skips it. One kernel for both, so
    that a run and an analysis of the per-card log share one compile. ``ws``: this thread's workspace
    (``engine_nb.new_workspace``, with ``sold`` rows when the log is kept); every game sets up all of it
    but ``memo``, the first builds' answers, which hold for the run."""
    seed = np.uint64(run_seed)
    while True:
        start = claim_nb(next_block) * block
        if start >= n_games:
            break
        play_games_nb(seed, first_game, start, min(n_games, start + block), deck, rules, roster, strat_ids,
                      strat_params, ws, seat_out, game_out, cards_out)
