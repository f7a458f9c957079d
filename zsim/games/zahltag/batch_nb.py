"""Many games at once: blocks of games, each thread taking the next block until none is left,
one workspace per thread (``zsim.blocks``).

Game ``first_game + g`` always gets the key ``game_key(run_seed, first_game + g)``
and writes only row ``g`` of the outputs, so results never depend on the
number of threads, which thread plays which block, the block size or how a run
is cut into chunks.
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.engine_nb import play_game_nb
from zsim.jit import claim_nb, cold, cold_nogil, hot
from zsim.rng import game_key_nb

#: win shares are summed as multiples of 1/12 so that shared wins (split 2, 3
#: or 4 ways) add up exactly, whatever the order
WIN_UNITS = 12


@cold_nogil
def play_blocks_nb(run_seed, first_game, rules, needs, roster, strat_ids, strat_params, seat_out, game_out,
                   ws, n_games, block, next_block):
    """The games ``first_game ..`` (``n_games`` in all), a block of ``block`` games at a
    time, each block the next one ``next_block`` hands out (``zsim.blocks``); ``ws``: this
    thread's workspace (``engine_nb.new_workspace``), which every game sets up but the deck's demand."""
    seed = np.uint64(run_seed)
    while True:
        start = claim_nb(next_block) * block
        if start >= n_games:
            break
        for g in range(start, min(n_games, start + block)):
            key = game_key_nb(seed, np.uint64(first_game + g))
            # no log: the game compiled without its logging (engine_nb's docstring)
            play_game_nb(key, rules, needs, roster, strat_ids, strat_params, ws, seat_out[g], game_out[g],
                         None)


@cold
def record_game_nb(run_seed, game, rules, needs, roster, strat_ids, strat_params, ws, log):
    """Play one game with its event log (``ws``: a workspace, ``engine_nb.new_workspace``);
    returns (seat_out, game_out)."""
    n_players = strat_ids.shape[0]
    seat_out = np.zeros((n_players, K.N_SEAT_STATS), np.int64)
    game_out = np.zeros(K.N_GAME_STATS, np.int64)
    log[0] = 1
    key = game_key_nb(np.uint64(run_seed), np.uint64(game))
    play_game_nb(key, rules, needs, roster, strat_ids, strat_params, ws, seat_out, game_out, log)
    return seat_out, game_out


# Per-seat running sums (int64 [P, N_AGG]).
A_GAMES = 0
A_WIN_UNITS = 1      # sum of WIN_UNITS / (seats sharing first place)
A_MONEY = 2
A_MONEY_SQ = 3
A_PLACE = 4
A_JOBS_WON = 5
A_JOB_INCOME = 6
A_PAYDAY_PAID = 7
A_ELIMINATED = 8
A_WIN_UNITS_SQ = 9   # for the win share's variance
N_AGG = 10


@hot
def accumulate_nb(seat_out, n_games, agg):
    """Add the first ``n_games`` rows of ``seat_out`` to the running sums ``agg``."""
    n_players = seat_out.shape[1]
    for g in range(n_games):
        n_first = 0
        for s in range(n_players):
            if seat_out[g, s, K.S_PLACE] == 1:
                n_first += 1
        for s in range(n_players):
            row = seat_out[g, s]
            agg[s, A_GAMES] += 1
            if row[K.S_PLACE] == 1:
                w = WIN_UNITS // n_first
                agg[s, A_WIN_UNITS] += w
                agg[s, A_WIN_UNITS_SQ] += w * w
            agg[s, A_MONEY] += row[K.S_MONEY]
            agg[s, A_MONEY_SQ] += row[K.S_MONEY] * row[K.S_MONEY]
            agg[s, A_PLACE] += row[K.S_PLACE]
            agg[s, A_JOBS_WON] += row[K.S_JOBS_WON]
            agg[s, A_JOB_INCOME] += row[K.S_JOB_INCOME]
            agg[s, A_PAYDAY_PAID] += row[K.S_PAYDAY_PAID]
            if row[K.S_ELIMINATED] != 0:
                agg[s, A_ELIMINATED] += 1
