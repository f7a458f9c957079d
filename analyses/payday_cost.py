"""What the payday rules do to the game: one rule at a time, the rest as given.

Each swept rule takes each of its values with every other rule left as the
run's rules config (default: the printed rules); the field stays the same.
The figures are game-level balance measures (see :data:`common.GAME_METRICS`).
"""
from __future__ import annotations

import dataclasses

import polars as pl

from analyses import common
from analyses.play import Collector, Point, play_points
from analyses.result import AnalysisResult
from zsim.errors import ZsimError
from zsim.runner import Matchup

#: rule -> the values swept (payday_counts_table: 0 = hand only, 1 = hand and table)
SWEEPS: dict[str, tuple[int, ...]] = {
    "payday_cost": (0, 1, 2, 3),
    "paydays_to_end": (3, 4, 5, 6),
    "forced_payday_jobs": (5, 7, 9, 11, 13),
    "start_money": (10, 15, 20, 25, 30),
    "payday_counts_table": (0, 1),
}
METRICS = ["seat_advantage", *[m.name for m in common.GAME_METRICS]]


def _rule_key(rule: str, players: int) -> str:
    # the forced-payday threshold has its own rule for games started with two players
    return "forced_payday_jobs_2p" if rule == "forced_payday_jobs" and players == 2 else rule


def points(players: int, field: str | None, games: int, rules, deck,
           sweeps: dict[str, tuple[int, ...]] = SWEEPS) -> list[Point]:
    seats = tuple(common.field_specs(field, players))
    out = []
    for rule, values in sweeps.items():
        key = _rule_key(rule, players)
        for v in values:
            value = bool(v) if rule == "payday_counts_table" else v
            try:
                r = dataclasses.replace(rules, **{key: value})
                m = Matchup(players, seats, r, deck)
            except ZsimError as e:
                raise ZsimError(f"payday-cost sweep {rule}={v}: {e}") from None
            out.append(Point({"rule": rule, "value": int(v)}, m, games))
    return out


def collector() -> Collector:
    return Collector(["rule", "value"], ["seat"], [], common.GAME_METRICS)


def table(game_sums: pl.DataFrame, players: int) -> pl.DataFrame:
    """Balance figures per rule and value (pure: sums in, table out)."""
    order = {r: i for i, r in enumerate(SWEEPS)}
    t = common.balance_table(game_sums, ["rule", "value"], players)
    return t.sort(pl.col("rule").replace_strict(order, default=len(order)), "value")


def figures(t: pl.DataFrame, players: int) -> dict:
    rules = list(dict.fromkeys(t["rule"].to_list()))
    out = {}
    for metric in METRICS:
        fig, axes = common.figure(ncols=len(rules), width=3.2, height=3.2, sharey=True)
        for ax, rule in zip(axes[0], rules):
            part = t.filter(pl.col("rule") == rule)
            common.errorbar(ax, part["value"].to_list(), part[metric].to_list(),
                            part[f"{metric}_ci95"].to_list())
            ax.set_xlabel(rule.replace("_", " "))
            ax.set_xticks(part["value"].to_list())
        axes[0][0].set_ylabel(common.label(metric))
        fig.suptitle(f"{common.label(metric)} against the payday rules ({players} players)")
        out[f"{common.label(metric)} against each payday rule (95% error bars)"] = fig
    return out


def run(players: int, field: str | None, games: int, seed: int, rules, deck,
        advance=None, sweeps=SWEEPS) -> AnalysisResult:
    pts = points(players, field, games, rules, deck, sweeps)
    col = collector()
    play_points(pts, seed, [col], advance)
    t = table(col.out.game, players)
    seats = common.field_specs(field, players)
    summary = (f"{players} players ({', '.join(seats)}), {games:,} games per rule value, seed {seed}; "
               "each row changes one rule and leaves the others as configured. Seat advantage is 1 "
               "minus the largest gap between two seats' win shares (1 = perfectly fair); the "
               "winner's margin is in millions; rates are shares of games or jobs.")
    return AnalysisResult(f"payday-cost-{players}p", f"Payday rules and game balance ({players} players)", summary,
                          {"Balance per rule value": t}, figures(t, players),
                          {"players": players, "field": seats, "games_per_point": games, "seed": seed})
