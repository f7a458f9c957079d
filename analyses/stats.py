"""Exact running sums, and the means, rates and 95% intervals drawn from them.

Every analysis reduces each chunk of per-game rows (the ``zsim simulate
--out`` table, see :func:`zsim.runner.rows_frame`) to integer sums: a count,
the sum and the sum of squares of each column, and the sums of the products
that ratios need. Integer sums add up to the same totals whatever the chunk
size or thread count, so a run's tables are bit-identical however it was cut,
and memory stays flat in the number of games.

Intervals are normal approximations: a mean's half-width is 1.96 standard
errors; a ratio of two sums (say, jobs with one bidder per job revealed) uses
the delta method with the game as the unit, so games with many jobs weigh in
as they should.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import polars as pl

Z95 = 1.96
#: a win shared by k seats is worth WIN_UNITS // k units, exact for k = 1..4
WIN_UNITS = 12


def _by_game(rows: pl.DataFrame, col: str, players: int) -> np.ndarray:
    """Column ``col`` as a [games, players] array. Rows come as
    :func:`zsim.runner.rows_frame` makes them: each game's seats 0..P-1 in turn."""
    return rows[col].to_numpy().reshape(-1, players)


def _check_layout(rows: pl.DataFrame, players: int) -> None:
    seats = rows["seat"].to_numpy()
    if seats.size % players or (seats.reshape(-1, players) != np.arange(players)).any():
        raise ValueError(f"rows must hold every game's {players} seats in order")


def with_win_units(rows: pl.DataFrame, players: int) -> pl.DataFrame:
    """Add ``win_units``: WIN_UNITS shared among the seats in first place."""
    _check_layout(rows, players)
    first = _by_game(rows, "place", players) == 1
    units = np.where(first, WIN_UNITS // np.maximum(first.sum(axis=1, keepdims=True), 1), 0)
    return rows.with_columns(pl.Series("win_units", units.ravel().astype(np.int64)))


def game_frame(rows: pl.DataFrame, keys: list[str], players: int) -> pl.DataFrame:
    """One row per game: the game's own figures, sums over its seats, the
    winner's margin and each seat's win units ``w0..``."""
    if "win_units" not in rows.columns:
        rows = with_win_units(rows, players)
    firsts = rows.gather_every(players)
    g = firsts.select(*keys, "game", "turns", "paydays", "jobs_revealed", "jobs_no_bid", "jobs_one_bid",
                      "jobs_tied", "eliminations", "lead_changes")
    cols = {f"all_{c}": _by_game(rows, c, players).astype(np.int64).sum(axis=1)
            for c in ("job_income", "payday_paid", "bids", "bid_sum", "money")}
    money = np.sort(_by_game(rows, "money", players), axis=1)
    cols["margin"] = (money[:, -1] - money[:, -2]).astype(np.int64)
    wins = _by_game(rows, "win_units", players)
    for s in range(players):
        cols[f"w{s}"] = wins[:, s]
    for i, j in combinations(range(players), 2):
        cols[f"d{i}{j}"] = wins[:, i] - wins[:, j]
    g = g.with_columns([pl.Series(k, v) for k, v in cols.items()])
    return g.with_columns(
        (pl.col("jobs_revealed") - pl.col("jobs_no_bid")).alias("jobs_awarded"),
        (pl.col("eliminations") > 0).cast(pl.Int64).alias("any_eliminated"),
    )


def sums(frame: pl.DataFrame, by: list[str], cols: list[str],
         products: list[tuple[str, str]] = ()) -> pl.DataFrame:
    """Count, sum and sum of squares of ``cols`` (and sums of the ``products``)
    per group of ``by``; add two of these with :func:`merge`."""
    aggs = [pl.len().cast(pl.Int64).alias("n")]
    for c in cols:
        x = pl.col(c).cast(pl.Int64)
        aggs += [x.sum().alias(f"{c}:s"), (x * x).sum().alias(f"{c}:q")]
    for a, b in products:
        aggs.append((pl.col(a).cast(pl.Int64) * pl.col(b).cast(pl.Int64)).sum().alias(f"{a}*{b}"))
    return frame.group_by(by).agg(aggs).sort(by)


def merge(a: pl.DataFrame | None, b: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """The sums of two runs (``a`` may be None: nothing yet)."""
    if a is None:
        return b
    return pl.concat([a, b]).group_by(by).sum().sort(by)


def _mean_ci(s: float, q: float, n: float) -> tuple[float, float]:
    if n <= 0:
        return math.nan, math.nan
    mean = s / n
    if n < 2:
        return mean, math.nan
    var = max(q - s * s / n, 0.0) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def _ratio_ci(sx: float, sy: float, qx: float, qy: float, sxy: float, n: float) -> tuple[float, float]:
    if n <= 0 or sy == 0:
        return math.nan, math.nan
    r = sx / sy
    if n < 2:
        return r, math.nan
    resid = max(qx - 2 * r * sxy + r * r * qy, 0.0) / (n - 1)
    ybar = sy / n
    return r, Z95 * math.sqrt(resid / n) / abs(ybar)


@dataclass(frozen=True)
class Mean:
    """The mean of column ``col`` per row of the summed frame, times ``scale``."""
    name: str
    col: str
    scale: float = 1.0


@dataclass(frozen=True)
class Ratio:
    """sum(num) / sum(den) over the summed rows (needs the product num*den)."""
    name: str
    num: str
    den: str
    scale: float = 1.0


def estimates(summed: pl.DataFrame, by: list[str], metrics: list[Mean | Ratio]) -> pl.DataFrame:
    """One row per group: each metric and its 95% half-width ``<name>_ci95``."""
    out: dict[str, list] = {k: summed[k].to_list() for k in by}
    out["games"] = summed["n"].to_list()
    for m in metrics:
        vals, cis = [], []
        for row in summed.iter_rows(named=True):
            n = float(row["n"])
            if isinstance(m, Mean):
                v, ci = _mean_ci(float(row[f"{m.col}:s"]), float(row[f"{m.col}:q"]), n)
            else:
                v, ci = _ratio_ci(float(row[f"{m.num}:s"]), float(row[f"{m.den}:s"]),
                                  float(row[f"{m.num}:q"]), float(row[f"{m.den}:q"]),
                                  float(row[f"{m.num}*{m.den}"]), n)
            vals.append(v * m.scale)
            cis.append(ci * abs(m.scale))
        out[m.name] = vals
        out[f"{m.name}_ci95"] = cis
    return pl.DataFrame(out, nan_to_null=True)


def ratio_products(metrics: list[Mean | Ratio]) -> list[tuple[str, str]]:
    return [(m.num, m.den) for m in metrics if isinstance(m, Ratio)]


def metric_columns(metrics: list[Mean | Ratio]) -> list[str]:
    cols: list[str] = []
    for m in metrics:
        for c in ((m.col,) if isinstance(m, Mean) else (m.num, m.den)):
            if c not in cols:
                cols.append(c)
    return cols


def seat_advantage(summed: pl.DataFrame, by: list[str], players: int) -> pl.DataFrame:
    """1 - the largest gap between two seats' win shares, per group, with the
    interval of the gap between the two seats that set it."""
    rows = []
    for row in summed.iter_rows(named=True):
        n = float(row["n"])
        shares = [row[f"w{s}:s"] / (WIN_UNITS * n) for s in range(players)]
        i, j = max(combinations(range(players), 2), key=lambda p: abs(shares[p[0]] - shares[p[1]]))
        _, ci = _mean_ci(float(row[f"d{i}{j}:s"]), float(row[f"d{i}{j}:q"]), n)
        rows.append({**{k: row[k] for k in by},
                     "seat_advantage": 1.0 - abs(shares[i] - shares[j]),
                     "seat_advantage_ci95": ci / WIN_UNITS,
                     "best_seat": i if shares[i] > shares[j] else j,
                     "worst_seat": j if shares[i] > shares[j] else i})
    return pl.DataFrame(rows, nan_to_null=True)


def seat_win_columns(players: int) -> list[str]:
    return [f"w{s}" for s in range(players)] + [f"d{i}{j}" for i, j in combinations(range(players), 2)]
