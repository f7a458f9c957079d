"""What every forward model's end gives (numba): each seat's share of first
place, the search's reward, and the batch engine's rows, copied out of the
position (``zsim/harness/forward.py``: ``reward_nb``, ``rows_nb``)."""
from __future__ import annotations

import numpy as np

from zsim.jit import hot_flat


@hot_flat
def first_place_shares_nb(seat_out, place_col, out):
    """``out[s]``: 1/k when seat ``s`` is one of the k seats in first place, else 0."""
    first = 0
    for s in range(seat_out.shape[0]):
        first += np.int64(seat_out[s, place_col] == 1)
    for s in range(seat_out.shape[0]):
        out[s] = (seat_out[s, place_col] == 1) / first


@hot_flat
def copy_rows_nb(seat_rows, game_row, seat_out, game_out):
    """The position's rows into the batch engine's row of one game."""
    for s in range(seat_rows.shape[0]):
        for c in range(seat_rows.shape[1]):
            seat_out[s, c] = seat_rows[s, c]
    for c in range(game_row.shape[0]):
        game_out[c] = game_row[c]
