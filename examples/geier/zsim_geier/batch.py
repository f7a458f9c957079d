"""The fast Hol's der Geier engine from Python: the rules as an array, the kernels called.

:func:`play_into` plays games ``first .. first + n - 1`` of a seed through
the numba engine (``engine_nb.py``, ``batch_nb.py``) into int64 tables whose
columns are ``constants.SEAT_COLUMNS`` and ``constants.GAME_COLUMNS``;
:func:`reference_rows` turns a reference :class:`~.reference.Result` into
rows of the same columns, so the two engines compare cell by cell.
"""
from __future__ import annotations

import numpy as np

from zsim_geier import constants as K
from zsim_geier.rules import Rules

#: games per parallel task inside a chunk
BLOCK = 256


def rules_array(rules: Rules) -> np.ndarray:
    """The int64 array the kernels read (slots ``constants.R_*``)."""
    a = np.zeros(K.N_RULES, dtype=np.int64)
    a[K.R_VULTURES] = rules.vultures
    a[K.R_TOP_PRIZE] = rules.top_prize
    a[K.R_CARRY_OVER] = int(rules.carry_over)
    a[K.R_N_PRIZES] = rules.n_prizes
    return a


def play_into(rules: Rules, seed: int, first: int, n: int, ids: np.ndarray, params: np.ndarray,
              seat_out: np.ndarray, game_out: np.ndarray, block: int = BLOCK, roster=None) -> None:
    """Play games ``first .. first + n - 1`` of ``seed`` into rows ``0 .. n-1`` of
    ``seat_out`` and ``game_out`` (the harness's call; nothing checked), with the
    kernels of ``roster`` (default: compiled for the strategies of ``ids``)."""
    from zsim.blocks import play_in_blocks
    from zsim.roster import roster_of
    from zsim_geier.batch_nb import play_blocks_nb
    from zsim_geier.engine_nb import new_workspace

    roster = roster_of("geier", ids, roster)
    play_in_blocks(play_blocks_nb, n, block, np.uint64(seed), first, rules_array(rules), roster, ids, params,
                   seat_out, game_out, workspace=lambda: new_workspace(len(ids)))


def reference_rows(result) -> tuple[np.ndarray, np.ndarray]:
    """A reference :class:`~.reference.Result` as (seat rows [P, N_SEAT_STATS],
    game row [N_GAME_STATS]) with the fast engine's columns."""
    seat = np.zeros((result.players, K.N_SEAT_STATS), np.int64)
    for s in range(result.players):
        seat[s] = (result.scores[s], result.places[s], result.prizes[s], result.mice[s],
                   result.vultures[s], result.tables[s], result.cancelled[s])
    game = np.zeros(K.N_GAME_STATS, np.int64)
    game[:K.G_ILLEGAL] = (result.carries, result.tied_rounds, result.discarded, result.discarded_points,
                          result.biggest_table)
    return seat, game
