"""How many workers to hold: one seat's target hand size against a fixed field.

The tested seat plays ``handsize`` with ``target`` = 0..12 (its other
parameters at their defaults); every other seat plays the field. The tested
seat takes every position in turn, an equal share of the games each, so the
seat order does not colour the result.
"""
from __future__ import annotations

import polars as pl

from analyses import common, stats
from analyses.play import Collector, Point, play_points, split_games
from analyses.report_format import format_ci
from analyses.result import AnalysisResult
from analyses.stats import Mean
from zsim.errors import ZsimError
from zsim.harness.chunks import Matchup

TARGETS = tuple(range(0, 13))
TESTED = "handsize"

SEAT_METRICS = [
    Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS),
    Mean("money", "money"),
    Mean("job_income", "job_income"),
    Mean("payday_paid", "payday_paid"),
    Mean("income_less_payday", "net_income"),
    Mean("jobs_won", "jobs_won"),
    Mean("idle_at_payday", "idle_at_payday"),
]


def points(players: int, field: str | None, games: int, rules, deck,
           targets=TARGETS) -> list[Point]:
    others = common.field_specs(field, players - 1)
    per_seat = split_games(games, players)
    out = []
    for k in targets:
        if not 0 <= k <= 12:
            raise ZsimError(f"hand size {k} is outside handsize's target range 0..12")
        tested = f"{TESTED}:target={k}"
        for seat in range(players):
            seats = others[:seat] + [tested] + others[seat:]
            out.append(Point({"target": k}, Matchup(players, tuple(seats), rules, deck), per_seat,
                             tested_seat=seat))
    return out


def collector() -> Collector:
    return Collector(["target"], ["tested"], SEAT_METRICS)


def table(seat_sums: pl.DataFrame) -> pl.DataFrame:
    """The tested seat's figures per target hand size (pure: sums in, table out)."""
    tested = seat_sums.filter(pl.col("tested")).drop("tested")
    return stats.estimates(tested, ["target"], SEAT_METRICS)


def figures(t: pl.DataFrame, players: int) -> dict:
    k = t["target"].to_list()
    fig1, ax = common.figure()
    ax = ax[0][0]
    common.errorbar(ax, k, t["job_income"].to_list(), t["job_income_ci95"].to_list(), "job income")
    common.errorbar(ax, k, t["payday_paid"].to_list(), t["payday_paid_ci95"].to_list(), "payday cost")
    ax.set_xlabel("target hand size (cards)")
    ax.set_ylabel("millions per game")
    ax.set_title(f"What a bigger hand earns and costs ({players} players)")
    ax.legend()
    fig2, axes = common.figure(ncols=2, width=4.6, height=3.6)
    a, b = axes[0]
    common.errorbar(a, k, t["money"].to_list(), t["money_ci95"].to_list())
    a.set_xlabel("target hand size (cards)")
    a.set_ylabel(common.label("money"))
    a.set_title("Final money")
    common.errorbar(b, k, t["win_share"].to_list(), t["win_share_ci95"].to_list())
    b.axhline(1.0 / players, color="grey", linestyle=":", label="par")
    b.set_xlabel("target hand size (cards)")
    b.set_ylabel(common.label("win_share"))
    b.set_title("Win share")
    b.legend()
    fig2.suptitle(f"Final money and win share against hand size ({players} players)")
    return {f"Job income and payday cost against hand size at {players} players (95% error bars)": fig1,
            f"Final money and win share against hand size at {players} players (95% error bars)": fig2}


def run(players: int, field: str | None, games: int, seed: int, rules, deck,
        advance=None, targets=TARGETS) -> AnalysisResult:
    pts = points(players, field, games, rules, deck, targets)
    col = collector()
    play_points(pts, seed, [col], advance)
    t = table(col.out.seat)
    others = common.field_specs(field, players - 1)
    best = t.sort("win_share", descending=True).row(0, named=True)
    summary = (f"One seat plays handsize with target hand sizes {', '.join(map(str, targets))} against "
               f"{', '.join(others)} at {players} players, taking every seat in turn; "
               f"{pts[0].games * players:,} games per hand size, seed {seed}. Money figures are in "
               f"millions per game. The best target here is {best['target']} cards "
               f"(win share {format_ci(best['win_share'], best['win_share_ci95'])})"
               + (", at the edge of the range tried: the best may lie beyond it." if best["target"] in
                  (min(targets), max(targets)) and len(targets) > 1 else ".")
               + " All hand sizes are played on the same deals, so neighbouring ones differ more surely "
                 "than their intervals suggest.")
    return AnalysisResult(f"hand-size-{players}p", f"Hand size against payday cost ({players} players)", summary,
                          {"Tested seat per target hand size": t}, figures(t, players),
                          {"players": players, "field": others, "games_per_point": pts[0].games * players,
                           "seed": seed})
