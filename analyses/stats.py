"""Exact running sums, and the means, rates and 95% intervals drawn from them.

Every analysis reduces each chunk of per-game rows (the ``zsim simulate
--out`` table, see :func:`zsim.harness.chunks.rows_frame`) to integer sums: a count,
the sum and the sum of squares of each column, and the sums of the products
that ratios need. Integer sums add up to the same totals whatever the chunk
size or thread count, so a run's tables are bit-identical however it was cut,
and memory stays flat in the number of games.

Intervals: a mean's half-width is 1.96 standard errors; a ratio of two sums
(say, jobs with one bidder per job revealed) uses the delta method with the
game as the unit, so games with many jobs weigh in as they should. A rate of
rare events (games with an elimination) gets the modified Wilson interval
(Brown, Cai and DasGupta) on its count instead, printed as ``[lo, hi]``: a normal interval around a count of 0
or 1 is "0 ± 0" and misses the truth most of the time. Seat balance is a
chi-square test of equal win shares and a bias-corrected spread (see
:func:`seat_balance`); docs/analyses.md gives every formula.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import polars as pl
from scipy.special import betaincinv

Z95 = 1.96
#: a win shared by k seats is worth WIN_UNITS // k units, exact for k = 1..4
WIN_UNITS = 12


def _by_game(rows: pl.DataFrame, col: str, players: int) -> np.ndarray:
    """Column ``col`` as a [games, players] array. Rows come as
    :func:`zsim.harness.chunks.rows_frame` makes them: each game's seats 0..P-1 in turn."""
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
class Share:
    """The share of rows in which the 0/1 column ``col`` is 1, with the modified
    Wilson interval on the count (:func:`share_interval`): columns ``<name>``,
    ``<name>_lo``, ``<name>_hi``."""
    name: str
    col: str


@dataclass(frozen=True)
class Ratio:
    """sum(num) / sum(den) over the summed rows (needs the product num*den)."""
    name: str
    num: str
    den: str
    scale: float = 1.0


def share_interval(count: float, n: float) -> tuple[float, float]:
    """The 95% interval zsim prints for a share ``count / n``: the modified
    Wilson interval of Brown, Cai and DasGupta (2001). Wilson's, except that
    with 1 to 5 events the lower end is the exact (Clopper-Pearson) one,
    Beta⁻¹(0.025; x, n − x + 1), and with 1 to 5 non-events the upper end
    likewise. Plain Wilson puts the lower end of a single event at 0.176/n
    against the exact 0.025/n, and covers a rate expected about once a run
    only 84% of the time; this one never less than about 93%
    (tests/test_analysis_stats.py computes it exactly)."""
    lo, hi = wilson(count, n)
    if n <= 0:
        return lo, hi
    if 1 <= count <= 5:
        lo = float(betaincinv(count, n - count + 1, 0.025))
    if 1 <= n - count <= 5:
        hi = float(betaincinv(count + 1, n - count, 0.975))
    return lo, hi


def wilson(count: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``count / n``: never outside
    [0, 1], and for a count of 0 the upper end is z²/(n + z²), about 3.84/n."""
    if n <= 0:
        return math.nan, math.nan
    p = count / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n))
    lo, hi = centre - half, centre + half
    return (0.0 if count <= 0 else max(lo, 0.0)), (1.0 if count >= n else min(hi, 1.0))


def estimates(summed: pl.DataFrame, by: list[str], metrics: list[Mean | Ratio | Share]) -> pl.DataFrame:
    """One row per group: each metric and its 95% interval: the half-width
    ``<name>_ci95`` of a Mean or Ratio, the ends ``<name>_lo``, ``<name>_hi``
    of a Share."""
    out: dict[str, list] = {k: summed[k].to_list() for k in by}
    out["games"] = summed["n"].to_list()
    for m in metrics:
        if isinstance(m, Share):
            vals, los, his = [], [], []
            for row in summed.iter_rows(named=True):
                n, x = float(row["n"]), float(row[f"{m.col}:s"])
                lo, hi = share_interval(x, n)
                vals.append(x / n if n > 0 else math.nan)
                los.append(lo)
                his.append(hi)
            out[m.name], out[f"{m.name}_lo"], out[f"{m.name}_hi"] = vals, los, his
            continue
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


def ratio_products(metrics: list[Mean | Ratio | Share]) -> list[tuple[str, str]]:
    return [(m.num, m.den) for m in metrics if isinstance(m, Ratio)]


def metric_columns(metrics: list[Mean | Ratio | Share]) -> list[str]:
    cols: list[str] = []
    for m in metrics:
        for c in ((m.num, m.den) if isinstance(m, Ratio) else (m.col,)):
            if c not in cols:
                cols.append(c)
    return cols


def chi2_sf(x: float, df: int) -> float:
    """P(X² >= x) for a chi-square variable with ``df`` (a whole number)
    degrees of freedom, in closed form (no scipy needed)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if not math.isfinite(x):
        return 0.0 if x > 0 else 1.0
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:                       # e^-h (1 + h + h²/2! + ... up to df/2 - 1)
        term = total = 1.0
        for k in range(1, df // 2):
            term *= h / k
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))      # odd: erfc(√h) + e^-h Σ h^(k-½)/Γ(k+½)
    term = math.sqrt(h) / math.gamma(1.5)
    for k in range(1, (df + 1) // 2):
        total += math.exp(-h) * term
        term *= h / (k + 0.5)
    return min(1.0, total)


def seat_moments(row: dict, players: int) -> tuple[float, np.ndarray, np.ndarray]:
    """(n, mean win share per seat, their covariance matrix over games) from
    one row of summed ``seat_win_columns`` (the cross sums come from the
    squared seat differences: w_i w_j = (w_i² + w_j² - (w_i - w_j)²) / 2)."""
    n = float(row["n"])
    s = np.array([float(row[f"w{i}:s"]) for i in range(players)]) / WIN_UNITS
    q = np.array([float(row[f"w{i}:q"]) for i in range(players)]) / WIN_UNITS ** 2
    cross = np.diag(q)
    for i, j in combinations(range(players), 2):
        c = (q[i] + q[j] - float(row[f"d{i}{j}:q"]) / WIN_UNITS ** 2) / 2
        cross[i, j] = cross[j, i] = c
    cov = (cross - np.outer(s, s) / n) / max(n - 1, 1.0)
    return n, s / n, cov


def seat_balance(summed: pl.DataFrame, by: list[str], players: int) -> pl.DataFrame:
    """Are the seats even? Per group:

    * ``seat_chi2`` and ``seat_p``: the chi-square test of equal win shares,
      X² = n δᵀ S⁻¹ δ over the first P-1 seats (δ: each seat's win share less
      1/P; S: their covariance over games), P-1 degrees of freedom;
    * ``seat_spread_pp``: the spread of the seats' true win shares around par,
      sqrt(max(D, 0) / P) in percentage points, with D = Σ δ² - tr(S_all)/n
      the unbiased estimate of Σ (true share - 1/P)² (0: no spread found);
      ``seat_spread_pp_lo`` / ``_hi`` carry the 95% interval of D through the
      same map, with Var(D) = 2 tr(S²)/n² + 4 δᵀSδ/n (the variance of a
      quadratic form of a normal vector, δ standing in for its mean);
    * ``best_seat`` / ``worst_seat``: the seats with the highest and lowest win share.
    """
    rows = []
    for row in summed.iter_rows(named=True):
        n, share, cov = seat_moments(row, players)
        delta = share - 1.0 / players
        sub, d = cov[:-1, :-1], delta[:-1]
        try:
            chi2 = float(n * d @ np.linalg.solve(sub, d)) if n > 1 else math.nan
        except np.linalg.LinAlgError:      # a seat that always or never wins
            chi2 = math.inf if np.any(d != 0) else 0.0
        spread = float(delta @ delta) - float(np.trace(cov)) / n if n > 1 else math.nan
        se = math.sqrt(max(2 * float(np.trace(cov @ cov)) / n ** 2 + 4 * float(delta @ cov @ delta) / n, 0.0)) \
            if n > 1 else math.nan

        def pp(d: float) -> float:
            return 100 * math.sqrt(max(d, 0.0) / players) if not math.isnan(d) else math.nan

        rows.append({**{k: row[k] for k in by},
                     "seat_chi2": chi2,
                     "seat_p": chi2_sf(chi2, players - 1) if not math.isnan(chi2) else math.nan,
                     "seat_spread_pp": pp(spread),
                     "seat_spread_pp_lo": pp(spread - Z95 * se),
                     "seat_spread_pp_hi": pp(spread + Z95 * se),
                     "best_seat": int(np.argmax(share)),
                     "worst_seat": int(np.argmin(share))})
    return pl.DataFrame(rows, nan_to_null=True)


def seat_win_columns(players: int) -> list[str]:
    return [f"w{s}" for s in range(players)] + [f"d{i}{j}" for i, j in combinations(range(players), 2)]
