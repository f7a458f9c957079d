"""Chunks of games played one decision at a time through a game's forward
model (``zsim/harness/forward.py``, ``zsim/harness/stepping_nb.py``)."""
from __future__ import annotations

import numpy as np

from zsim.blocks import play_in_blocks
from zsim.harness.forward import forward_model
from zsim.harness.stepping_nb import play_stepped_blocks_nb
from zsim.roster import roster_of
from zsim.strategy_registry import strategy_arrays


def play_stepped_chunk(matchup, seed: int, first: int, n: int, roster=None):
    """Games ``first .. first + n - 1`` of ``matchup`` (bots only) played one
    decision at a time through the game's forward model; returns the
    (seat_out, game_out) rows, which equal the batch engine's."""
    model = forward_model(matchup.game)
    g = matchup.spec
    ids, params = strategy_arrays(matchup.game, list(matchup.strategies))
    seat_out = np.zeros((n, matchup.players, g.n_seat_stats), np.int64)
    game_out = np.zeros((n, g.n_game_stats), np.int64)
    play_in_blocks(play_stepped_blocks_nb, n, 64, np.uint64(seed), first,
                   roster_of(matchup.game, ids, roster).for_seats(len(ids)), ids,
                   params, model.consts(matchup), seat_out, game_out,
                   workspace=lambda: (model.workspace(matchup), np.zeros(model.size(matchup), np.int64)))
    return seat_out, game_out
