"""What zsim measures of any game's games, from the game contract alone
(:class:`zsim.games.base.Game`): the measures ``zsim sweep`` puts in its
table per point and ``zsim compare`` per rule set.

Per game: the win units of each seat (a win shared by k seats is worth
``WIN_UNITS // k``) and their differences (for the seat test), the game's
length (its ``turns`` column, where it has one), how it ended (a 0/1
column per end reason), whether some seat was knocked out (the game's
``knockout`` column), its lead changes where the game counts them, the
winner's margin on the game's score and, for each of the game's summary
columns, the sum over the seats (``all_<source>``).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import polars as pl

from analyses import stats
from analyses.stats import Mean, Share


def game_frame(g):
    """The per-game frame for ``g``'s rows: length, end reasons, knockouts,
    lead changes, the winner's margin and each seat's win units."""
    game_cols = {c.name for c in g.game_columns}
    ends = g.categories.get("end_reason", ())

    def frame(rows: pl.DataFrame, keys: list[str], players: int) -> pl.DataFrame:
        if "win_units" not in rows.columns:
            rows = stats.with_win_units(rows, players)
        firsts = rows.gather_every(players)
        cols: dict[str, np.ndarray] = {}
        if "turns" in game_cols:
            cols["turns"] = firsts["turns"].to_numpy().astype(np.int64)
        if "lead_changes" in game_cols:
            cols["lead_changes"] = firsts["lead_changes"].to_numpy().astype(np.int64)
        if ends:
            reason = firsts["end_reason"].cast(pl.String).to_numpy()
            for name in ends:
                cols[f"end_{name}"] = (reason == name).astype(np.int64)
        if g.knockout:
            out = stats._by_game(rows, g.knockout, players)
            cols["knockout"] = (out > 0).any(axis=1).astype(np.int64)
        for c in g.summary_columns:
            cols[f"all_{c.source}"] = stats._by_game(rows, c.source, players).astype(np.int64).sum(axis=1)
        score = np.sort(stats._by_game(rows, g.score, players), axis=1)
        cols["margin"] = (score[:, -1] - score[:, -2]).astype(np.int64)
        wins = stats._by_game(rows, "win_units", players)
        for s in range(players):
            cols[f"w{s}"] = wins[:, s]
        for i, j in combinations(range(players), 2):
            cols[f"d{i}{j}"] = wins[:, i] - wins[:, j]
        return firsts.select(*keys, "game").with_columns([pl.Series(k, v) for k, v in cols.items()])
    return frame


def game_metrics(g) -> list:
    """The per-game measures of ``g`` a sweep estimates (from :func:`game_frame`'s columns)."""
    game_cols = {c.name for c in g.game_columns}
    out: list = []
    if "turns" in game_cols:
        out.append(Mean("game_length", "turns"))
    out.append(Mean("winner_margin", "margin"))
    if g.knockout:
        out.append(Share("knockout_rate", "knockout"))
    if "lead_changes" in game_cols:
        out.append(Mean("lead_changes", "lead_changes"))
    out += [Share(f"end_{name}", f"end_{name}") for name in g.categories.get("end_reason", ())]
    return out


def seat_metrics(g) -> list:
    """The per-seat measures: the win share, then the game's own summary columns."""
    out: list = [Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS)]
    for c in g.summary_columns:
        out.append(Share(c.name, c.source) if c.kind == "share" else Mean(c.name, c.source))
    return out
