"""The fast Baumeister engine from Python: the rules array, the call into the
kernels, and the reference engine's result in the same columns."""
from __future__ import annotations

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.rules import Rules

#: games per parallel task inside a chunk
BLOCK = 32
#: the per-card log left out (play_blocks_nb keeps it only given a row per game)
NO_LOG = np.zeros((0, 1, K.N_CARD_LOG), np.int64)


def rules_array(rules: Rules) -> np.ndarray:
    """The int64 array the kernels read (slots ``constants.R_*``)."""
    a = np.zeros(K.N_RULES, dtype=np.int64)
    a[K.R_START_MONEY] = rules.start_money
    a[K.R_MAX_BID] = rules.max_bid
    a[K.R_FORBID] = int(rules.overbid == "forbid")
    a[K.R_SABOTEURS] = rules.saboteurs
    a[K.R_FIRST_MIN] = rules.first_build_min
    a[K.R_MAX_BUILD] = rules.max_cards_per_build
    a[K.R_ANY] = int(rules.saboteur == "any")
    a[K.R_HAND_MIN] = rules.hand_sabotage_min
    a[K.R_BONUS_MIDDLE] = rules.bonus_middle
    a[K.R_BONUS_CHURCHES] = rules.bonus_churches
    a[K.R_BONUS_CORNERS] = rules.bonus_corners
    a[K.R_MAX_TURNS] = rules.max_turns
    return a


def play_into(rules: Rules, deck, seed: int, first: int, n: int, ids: np.ndarray, params: np.ndarray,
              seat_out: np.ndarray, game_out: np.ndarray, block: int = BLOCK, cards_out: np.ndarray = NO_LOG,
              roster=None) -> None:
    """Play games ``first .. first + n - 1`` of ``seed`` into rows ``0 .. n-1`` (and the per-card
    log into ``cards_out`` when it has a row per game), with the kernels of ``roster`` (default:
    compiled for the strategies of ``ids``)."""
    from zsim.blocks import play_in_blocks
    from zsim.games.baumeister.batch_nb import play_blocks_nb
    from zsim.games.baumeister.engine_nb import new_workspace
    from zsim.roster import roster_of, roster_parts

    roster = roster_of("baumeister", ids, roster)
    if None in roster_parts(roster):
        # compiled for the table's size as well as its strategies (Roster.for_seats): not a
        # roster of both kinds, whose mixed field played 0.94x as fast for its table size
        # (docs/performance.md, sixteenth round)
        roster = roster.for_seats(len(ids))
    rules_a, deck_a = rules_array(rules), deck.arrays()
    play_in_blocks(play_blocks_nb, n, block, np.uint64(seed), first, deck_a, rules_a, roster, ids, params,
                   seat_out, game_out, cards_out,
                   compile_first=lambda: _compile_the_game_first(deck_a, deck.n, rules_a, roster, ids, params),
                   workspace=lambda: new_workspace(len(ids), deck.n, cards_out.shape[0] > 0))


def _compile_the_game_first(deck_a, n_cards, rules_a, roster, ids, params) -> None:
    """Compile (or load) ``play_games_nb`` on its own, before the
    batch kernel compiles: faster than inside the batch's compile."""
    from zsim.games.baumeister.engine_nb import new_workspace, play_games_nb
    from zsim.jit import compile_ahead

    players = len(ids)
    compile_ahead(play_games_nb, np.uint64(0), 0, 0, 0, deck_a, rules_a, roster, ids, params,
                  new_workspace(players, n_cards, False), np.zeros((0, players, K.N_SEAT_STATS), np.int64),
                  np.zeros((0, K.N_GAME_STATS), np.int64), NO_LOG)


def play_cards(rules: Rules, deck, seed: int, first: int, n: int, ids: np.ndarray, params: np.ndarray,
               block: int = BLOCK, roster=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games ``first .. first + n - 1`` of ``seed`` with the per-card log: (seat rows [n, P, N_SEAT_STATS],
    game rows [n, N_GAME_STATS], cards [n, N + 1, N_CARD_LOG], columns ``constants.CARD_COLUMNS``).
    The seat and game rows are those :func:`play_into` gives for the same games."""
    seat_out = np.zeros((n, len(ids), K.N_SEAT_STATS), np.int64)
    game_out = np.zeros((n, K.N_GAME_STATS), np.int64)
    cards_out = np.zeros((n, deck.n + 1, K.N_CARD_LOG), np.int64)
    play_into(rules, deck, seed, first, n, ids, params, seat_out, game_out, block, cards_out, roster)
    return seat_out, game_out, cards_out


def reference_rows(result) -> tuple[np.ndarray, np.ndarray]:
    """A reference :class:`~.reference.Result` as (seat rows, game row) in the fast engine's columns."""
    seat = np.zeros((result.players, K.N_SEAT_STATS), np.int64)
    for s in range(result.players):
        for i, col in enumerate(K.SEAT_COLUMNS):
            seat[s, i] = int(result.seat[col][s])
    game = np.zeros(K.N_GAME_STATS, np.int64)
    for i, col in enumerate(K.GAME_COLUMNS[:-1]):
        v = result.game[col]
        game[i] = K.END_REASONS.index(v) if col == "end_reason" else int(v)
    return seat, game
