"""Playing an analysis: its points (one matchup each), chunk by chunk, folded
into the sums of :mod:`analyses.stats` as they come.

Every point of an analysis is played with the same seed from game 0, so the
points meet the same deals (common random numbers): differences between
points are then sharper than the intervals of each point suggest.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np
import polars as pl

from analyses import stats
from zsim.errors import ZsimError
from zsim.harness.chunks import DEFAULT_CHUNK, Matchup, rows_frame
from zsim.harness.runs import simulate


@dataclass(frozen=True)
class Point:
    """One matchup to play, and the key columns its rows are filed under."""
    key: dict[str, object]
    matchup: Matchup
    games: int
    tested_seat: int | None = None   # rows get ``tested`` = (seat == tested_seat)


@dataclass
class Collected:
    """The merged sums of every point, ready for :func:`stats.estimates`."""
    seat: pl.DataFrame | None = None       # by keys + seat_by
    game: pl.DataFrame | None = None       # by keys
    money_hist: pl.DataFrame | None = None  # keys, money, count


@dataclass
class Collector:
    keys: list[str]
    seat_by: list[str]                      # e.g. ["tested"], ["seat"], ["strategy"]
    seat_metrics: list = field(default_factory=list)
    game_metrics: list = field(default_factory=list)
    money_hist: bool = False
    #: rows -> one row per game (the game's own figures): Zahltag's by default
    frame: Callable[[pl.DataFrame, list[str], int], pl.DataFrame] = stats.game_frame
    out: Collected = field(default_factory=Collected)

    def add(self, rows: pl.DataFrame, players: int) -> None:
        """Fold one chunk of ``players``-seat games in (game metrics need every
        point of a collector to seat the same number of players)."""
        seat_cols = stats.metric_columns(self.seat_metrics)
        rows = stats.with_win_units(rows, players)
        s = stats.sums(rows, [*self.keys, *self.seat_by], seat_cols,
                       stats.ratio_products(self.seat_metrics))
        self.out.seat = stats.merge(self.out.seat, s, [*self.keys, *self.seat_by])
        if self.game_metrics:
            g = self.frame(rows, self.keys, players)
            cols = stats.metric_columns(self.game_metrics) + stats.seat_win_columns(players)
            gs = stats.sums(g, self.keys, cols, stats.ratio_products(self.game_metrics))
            self.out.game = stats.merge(self.out.game, gs, self.keys)
        if self.money_hist:
            h = rows.group_by([*self.keys, "money"]).agg(pl.len().cast(pl.Int64).alias("count"))
            self.out.money_hist = stats.merge(self.out.money_hist, h, [*self.keys, "money"])


def play_points(points: list[Point], seed: int, collectors: list[Collector],
                advance: Callable[[int], None] | None = None,
                chunk: int = DEFAULT_CHUNK) -> None:
    """Play every point and feed each chunk's rows to every collector.
    ``advance(n)`` is told of every chunk of ``n`` games played. One kernel,
    compiled for every strategy of the points, plays them all."""
    every: dict[str, tuple[str, ...]] = {}
    for point in points:
        every[point.matchup.game] = every.get(point.matchup.game, ()) + point.matchup.strategies
    for point in points:
        m = point.matchup
        point = replace(point, matchup=replace(m, compile_for=tuple(sorted(set(every[m.game])))))
        def on_chunk(seat_out: np.ndarray, game_out: np.ndarray, first: int, point=point) -> None:
            rows = rows_frame(point.matchup, seat_out, game_out, first)
            extra = [pl.lit(v).alias(k) for k, v in point.key.items()]
            if point.tested_seat is not None:
                extra.append((pl.col("seat") == point.tested_seat).alias("tested"))
            if "job_income" in rows.columns:          # Zahltag's rows
                extra.append((pl.col("job_income") - pl.col("payday_paid")).alias("net_income"))
            rows = rows.with_columns(extra).with_columns(pl.col("strategy").cast(pl.String))
            for c in collectors:
                c.add(rows, point.matchup.players)
            if advance is not None:
                advance(seat_out.shape[0])
        simulate(point.matchup, point.games, seed, chunk=chunk, on_chunk=on_chunk)


def split_games(games: int, parts: int) -> int:
    """Games per part when ``games`` are spread over ``parts`` (at least 1)."""
    if games < parts:
        raise ZsimError(f"--games must be at least {parts} here (one per seat or point), got {games}")
    return games // parts
