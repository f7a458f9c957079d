"""What forgetting 'Zahlemann' costs: one seat forgets its announcement with
chance ``forget`` (0 to 0.5), the others never forget.

The tested seat plays the field's first strategy with only ``forget``
changed and takes every seat in turn, an equal share of the games each.
With the printed ``notice=1`` every forgotten announcement is noticed and
costs a penalty card; ``--rule notice=0.5`` asks what forgetting costs at a
table that notices half the time.
"""
from __future__ import annotations

import math

import polars as pl

from analyses import common, stats
from analyses.play import Collector, Point, play_points, split_games
from analyses.report_format import format_ci
from analyses.result import AnalysisResult
from analyses.zahlemann import measure
from zsim.errors import ZsimError
from zsim.harness.chunks import Matchup

FORGETS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)


def with_forget(spec: str, forget: float) -> str:
    """``spec`` with its ``forget`` parameter set (every other parameter kept)."""
    from zsim.strategy_registry import parse_one

    name, *assignments = parse_one(spec, measure.GAME).split(":")
    kept = [a for a in assignments if a.partition("=")[0] != "forget"]
    return parse_one(":".join([name, *kept, f"forget={forget:g}"]), measure.GAME)


def parse_forgets(text: str) -> list[float]:
    out = []
    for part in text.split(","):
        try:
            v = float(part)
        except ValueError:
            raise ZsimError(f"--forgets {text!r} is not a comma list of numbers like 0,0.1,0.2") from None
        if not 0.0 <= v <= 1.0 or math.isnan(v):
            raise ZsimError(f"--forgets {v:g} is outside 0..1")
        if v not in out:
            out.append(v)
    return out


def points(players: list[int], field: str | None, games: int, rules, forgets=FORGETS) -> list[Point]:
    out = []
    for p in players:
        others = common.field_specs(field, p, measure.GAME)
        per_seat = split_games(games, p)
        for f in forgets:
            tested = with_forget(others[0], f)
            for seat in range(p):
                seats = others[1:p][:seat] + [tested] + others[1:p][seat:]
                out.append(Point({"players": p, "forget": f}, Matchup(p, tuple(seats), rules, game=measure.GAME),
                                 per_seat, tested_seat=seat))
    return out


METRICS = [measure.WIN, stats.Mean("money", "total"), stats.Mean("penalty_draws", "penalty_draws"),
           stats.Mean("forgotten", "forgotten")]


def table(seat_sums: pl.DataFrame) -> pl.DataFrame:
    """The tested seat per forget chance, and its loss against never forgetting."""
    t = stats.estimates(seat_sums.filter(pl.col("tested")).drop("tested"), ["players", "forget"], METRICS)
    base = t.filter(pl.col("forget") == t["forget"].min()).select(
        "players", pl.col("win_share").alias("_w0"), pl.col("win_share_ci95").alias("_c0"))
    t = t.join(base, on="players", how="left", maintain_order="left")
    # the points share their deals, so this interval (independent errors) is on the safe side
    return t.with_columns((pl.col("win_share") - pl.col("_w0")).alias("win_change"),
                          (pl.col("win_share_ci95") ** 2 + pl.col("_c0") ** 2).sqrt().alias("win_change_ci95")
                          ).drop("_w0", "_c0")


def run(players: list[int], field: str | None, games: int, seed: int, rules, advance=None,
        forgets=FORGETS) -> AnalysisResult:
    forgets = sorted(forgets)
    pts = points(players, field, games, rules, forgets)
    sums = None
    for p in players:
        col = Collector(["players", "forget"], ["tested"], METRICS)
        play_points([pt for pt in pts if pt.matchup.players == p], seed, [col], advance)
        sums = col.out.seat if sums is None else pl.concat([sums, col.out.seat])
    t = table(sums)
    tested = common.field_specs(field, 1, measure.GAME)[0]
    findings = []
    for p in players:
        part = t.filter(pl.col("players") == p)
        top = part.row(-1, named=True)
        findings.append(f"{p} players: forgetting with chance {top['forget']:g} changes {tested}'s win share by "
                        f"{format_ci(top['win_change'], top['win_change_ci95'], signed=True)} (from "
                        f"{part.row(0, named=True)['win_share']:.3f} to {top['win_share']:.3f}) and costs "
                        f"{top['penalty_draws'] - part.row(0, named=True)['penalty_draws']:.2f} penalty cards "
                        f"a game.")
    fig, axes = common.figure(ncols=2, width=4.6, height=3.6)
    a, b = axes[0]
    for p in players:
        part = t.filter(pl.col("players") == p)
        style = common.series_style(p)
        common.errorbar(a, part["forget"].to_list(), part["win_share"].to_list(), part["win_share_ci95"].to_list(),
                        label=f"{p} players", **style)
        a.axhline(1.0 / p, color=style["color"], linestyle=":", linewidth=1)
        common.errorbar(b, part["forget"].to_list(), part["penalty_draws"].to_list(),
                        part["penalty_draws_ci95"].to_list(), label=f"{p} players", **style)
    a.set_xlabel("chance of forgetting (forget)")
    a.set_ylabel("win share of the forgetful seat")
    a.set_title("Win share (dotted: par)")
    b.set_xlabel("chance of forgetting (forget)")
    b.set_ylabel("penalty cards per game")
    b.set_title("Penalty cards drawn")
    fig.suptitle("What forgetting 'Zahlemann' costs")
    common.legend_below(fig, a)
    cap = "Win share and penalty cards against the chance of forgetting (95% error bars)"
    summary = (f"One seat plays {tested} forgetting its announcement with chance {', '.join(f'{f:g}' for f in forgets)}"
               f" against {', '.join(dict.fromkeys(common.field_specs(field, 4, measure.GAME)))} that never forget "
               f"(their own forget as given), at {', '.join(map(str, players))} players, taking every seat in "
               f"turn; {pts[0].games * players[0]:,} games per point, seed {seed}, notice={rules.notice:g}. "
               f"win_change is the change against the smallest chance tried.")
    return AnalysisResult("zahlemann-forget", "What forgetting 'Zahlemann' costs", summary,
                          {"Forgetful seat per chance of forgetting": t}, {cap: fig},
                          {"players": players, "forgets": forgets, "seed": seed}, alts={cap: cap},
                          findings=findings, wide=(cap,))
