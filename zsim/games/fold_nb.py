"""The one fold of every game: a chunk's per-seat rows into integer running sums.

The sums are integers (win shares in units of 1/``WIN_UNITS``), so a run's
figures are exact and independent of how it is cut into chunks, of the
order chunks finish and of the thread count. Column layout of ``agg``
(int64 [P, 6 + len(cols)]): games, win units, win units squared, score,
score squared, place, then one sum per summary column: the column's values
(kind 0) or the games where it is not 0 (kind 1).
"""
from __future__ import annotations

from zsim.jit import hot_called

A_GAMES = 0
A_WIN_UNITS = 1      # sum of WIN_UNITS / (seats sharing first place)
A_WIN_UNITS_SQ = 2   # for the win share's variance
A_SCORE = 3
A_SCORE_SQ = 4
A_PLACE = 5
A_FIRST_COLUMN = 6
KIND_MEAN = 0
KIND_SHARE = 1


@hot_called
def fold_nb(seat_out, n_games, place_col, score_col, cols, kinds, win_units, agg):
    """Add the first ``n_games`` rows of ``seat_out`` [n, P, S] to ``agg``."""
    n_players = seat_out.shape[1]
    for g in range(n_games):
        n_first = 0
        for s in range(n_players):
            if seat_out[g, s, place_col] == 1:
                n_first += 1
        for s in range(n_players):
            row = seat_out[g, s]
            agg[s, A_GAMES] += 1
            if row[place_col] == 1:
                w = win_units // n_first
                agg[s, A_WIN_UNITS] += w
                agg[s, A_WIN_UNITS_SQ] += w * w
            agg[s, A_SCORE] += row[score_col]
            agg[s, A_SCORE_SQ] += row[score_col] * row[score_col]
            agg[s, A_PLACE] += row[place_col]
            for k in range(cols.shape[0]):
                v = row[cols[k]]
                if kinds[k] == KIND_SHARE:
                    if v != 0:
                        agg[s, A_FIRST_COLUMN + k] += 1
                else:
                    agg[s, A_FIRST_COLUMN + k] += v
