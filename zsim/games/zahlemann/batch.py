"""The fast Zahlemann engine from Python: validate, allocate, call the kernels.

:func:`play_into` plays games ``first .. first + n - 1`` of a seed through
the numba engine (``engine_nb.py``, ``batch_nb.py``) into int64 tables whose
columns are ``constants.SEAT_COLUMNS`` and ``constants.GAME_COLUMNS``;
:func:`reference_rows` turns a reference :class:`~.reference.Result` into
rows of the same columns, so the two engines compare cell by cell.
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.rules import Rules

#: games per parallel task inside a chunk
BLOCK = 64


def rules_array(rules: Rules) -> np.ndarray:
    """The int64 array the kernels read (slots ``constants.R_*``); ``notice``
    travels beside it as a float."""
    a = np.zeros(K.N_RULES, dtype=np.int64)
    a[K.R_HAND_SIZE] = rules.hand_size
    a[K.R_MONEY] = K.MONEY_MODES.index(rules.money)
    a[K.R_CHANGE] = K.CHANGE_MODES.index(rules.change)
    a[K.R_MAX_ROUNDS] = rules.max_rounds
    a[K.R_MAX_TURNS] = rules.max_turns
    a[K.R_ONE_PLAYS_AGAIN] = int(rules.one_plays_again)
    a[K.R_FIFTY_SKIPS] = int(rules.fifty_skips)
    a[K.R_TWO_PASSES_HANDS] = int(rules.two_passes_hands)
    a[K.R_COINS:K.R_COINS + K.N_DENOMINATIONS] = rules.coins
    return a


def play_into(rules: Rules, seed: int, first: int, n: int, ids: np.ndarray, params: np.ndarray,
              seat_out: np.ndarray, game_out: np.ndarray, block: int = BLOCK, roster=None) -> None:
    """Play games ``first .. first + n - 1`` of ``seed`` into rows ``0 .. n-1``
    of ``seat_out`` and ``game_out`` (the harness's call; nothing checked), with
    the kernels of ``roster`` (default: compiled for the strategies of ``ids``)."""
    from zsim.blocks import play_in_blocks
    from zsim.games.zahlemann.batch_nb import play_blocks_nb
    from zsim.games.zahlemann.engine_nb import new_workspace
    from zsim.roster import roster_of

    roster = roster_of("zahlemann", ids, roster)
    rules_a, notice = rules_array(rules), float(rules.notice)
    play_in_blocks(play_blocks_nb, n, block, np.uint64(seed), first, rules_a, notice, roster, ids, params,
                   seat_out, game_out,
                   compile_first=lambda: _compile_the_game_first(rules_a, notice, roster, ids, params),
                   workspace=lambda: new_workspace(len(ids)))


def _compile_the_game_first(rules_a, notice, roster, ids, params) -> None:
    """Compile (or load) ``play_game_nb`` on its own, before
    the batch kernel first compiles. Compiled inside the (then parallel) batch
    kernel's compile, the same kernel took about twice as long (cold starts of
    45-58 s against 23-28 s on the 2-core machine, most of the difference
    system time)."""
    from zsim.games.zahlemann.engine_nb import new_workspace, play_game_nb
    from zsim.jit import compile_ahead

    players = len(ids)
    compile_ahead(play_game_nb, np.uint64(0), rules_a, notice, roster, ids, params, new_workspace(players),
                  np.zeros((players, K.N_SEAT_STATS), np.int64), np.zeros(K.N_GAME_STATS, np.int64))


def reference_rows(result) -> tuple[np.ndarray, np.ndarray]:
    """A reference :class:`~.reference.Result` as (seat rows [P, N_SEAT_STATS],
    game row [N_GAME_STATS]) with the fast engine's columns."""
    seat = np.zeros((result.players, K.N_SEAT_STATS), np.int64)
    for s in range(result.players):
        seat[s, :K.S_COINS] = (
            result.totals[s], result.places[s], result.rounds_won[s], result.paid[s],
            result.received[s], int(result.bankrupt[s]), result.cards_played[s],
            result.cards_drawn[s], result.penalty_draws[s], result.forgotten[s],
            result.noticed[s], result.shortfall[s])
        if not isinstance(result.coins[s], int):
            seat[s, K.S_COINS:K.S_COINS + K.N_DENOMINATIONS] = result.coins[s]
    game = np.zeros(K.N_GAME_STATS, np.int64)
    game[:K.G_BANK] = (result.rounds, result.void_rounds, result.turns, result.reshuffles,
                       K.END_REASONS.index(result.end_reason), result.change_shortfall,
                       result.bonus_plays, result.skips, result.hand_passes)
    if result.bank is not None:
        game[K.G_BANK:K.G_BANK + K.N_DENOMINATIONS] = result.bank
    return seat, game
