"""What the payday rules do to the game: one rule at a time, the rest as given.

Each swept rule takes each of its values with every other rule left as the
run's rules config (default: the printed rules); the field stays the same.
The value the run's rules already have is always among the values swept, so
every curve passes through the game as configured. The forced-payday
threshold is its own rule at two players (``forced_payday_jobs_2p``, printed
8) and at three and four (``forced_payday_jobs``, printed 9): one panel shows
both, each row of the table names the rule it changed.

The figures are game-level balance measures (see :data:`common.GAME_METRICS`),
one figure per swept rule with one series per player count on shared axes,
so 2 against 4 players is read off one picture.
"""
from __future__ import annotations

import dataclasses

import polars as pl

from analyses import common
from analyses.play import Collector, Point, play_points
from analyses.result import AnalysisResult
from zsim.errors import ZsimError
from zsim.harness.chunks import Matchup

#: sweep -> the values tried besides the configured one (payday_counts_table: 0 off, 1 on)
SWEEPS: dict[str, tuple[int, ...]] = {
    "payday_cost": (0, 1, 2, 3),
    "paydays_to_end": (3, 4, 5, 6),
    "forced_payday_jobs": (5, 7, 9, 11, 13),
    "start_money": (10, 15, 20, 25, 30),
    "payday_counts_table": (0, 1),
}
#: what each sweep's axis is (the forced-payday panel holds two rules)
SWEEP_LABELS = {
    "payday_cost": "payday_cost: paid per card above the fewest",
    "paydays_to_end": "paydays_to_end: paydays that end the game",
    "forced_payday_jobs": "forced-payday threshold (jobs since the last payday)",
    "start_money": "start_money (millions)",
    "payday_counts_table": "payday_counts_table (0 hand only, 1 hand and table)",
}
#: the figures drawn per rule (the table has every GAME_METRICS column)
HEADLINE = ["seat_spread_pp", "elimination_rate", "winner_margin", "game_turns",
            "payday_share_of_income", "one_bidder_share"]


def rule_key(sweep: str, players: int) -> str:
    """The rule a sweep changes at this player count: the forced-payday
    threshold has its own rule for games started with two players."""
    return "forced_payday_jobs_2p" if sweep == "forced_payday_jobs" and players == 2 else sweep


def sweep_values(sweep: str, players: int, rules, sweeps=SWEEPS) -> tuple[int, ...]:
    """The values tried: the sweep's own and the one the rules already have."""
    current = int(getattr(rules, rule_key(sweep, players)))
    return tuple(sorted({*sweeps[sweep], current}))


def points(players: int, field: str | None, games: int, rules, deck,
           sweeps: dict[str, tuple[int, ...]] = SWEEPS) -> list[Point]:
    seats = tuple(common.field_specs(field, players))
    out = []
    for sweep in sweeps:
        key = rule_key(sweep, players)
        for v in sweep_values(sweep, players, rules, sweeps):
            value = bool(v) if sweep == "payday_counts_table" else v
            try:
                r = dataclasses.replace(rules, **{key: value})
                m = Matchup(players, seats, r, deck)
            except ZsimError as e:
                raise ZsimError(f"payday-cost sweep {key}={v} at {players} players: {e}") from None
            out.append(Point({"players": players, "sweep": sweep, "rule": key, "value": int(v),
                              "default": int(v) == int(getattr(rules, key))}, m, games))
    return out


def collector() -> Collector:
    return Collector(["players", "sweep", "rule", "value", "default"], ["seat"], [], common.GAME_METRICS)


def table(game_sums: pl.DataFrame, players: int) -> pl.DataFrame:
    """Balance figures per rule and value at one player count (pure: sums in, table out)."""
    order = {r: i for i, r in enumerate(SWEEPS)}
    keys = ["players", "sweep", "rule", "value", "default"]
    t = common.balance_table(game_sums, keys, players)
    return t.sort(pl.col("sweep").replace_strict(order, default=len(order)), "value").drop("sweep")


def _figure(t: pl.DataFrame, sweep_rules: list[str], sweep: str, players_list) -> tuple[object, str]:
    """One rule's sweep: a panel per headline figure, a series per player count."""
    fig, axes = common.figure(ncols=3, nrows=2, width=3.6, height=2.9)
    flat = [a for row in axes for a in row]
    for ax, metric in zip(flat, HEADLINE):
        for p in players_list:
            part = t.filter(pl.col("players") == p, pl.col("rule").is_in(sweep_rules)).sort("value")
            if part.is_empty():
                continue
            x, style = part["value"].to_list(), common.series_style(p)
            if f"{metric}_lo" in part.columns:
                common.errorbar_range(ax, x, part[metric].to_list(), part[f"{metric}_lo"].to_list(),
                                      part[f"{metric}_hi"].to_list(), f"{p} players", **style)
            else:
                ci = part[f"{metric}_ci95"].to_list() if f"{metric}_ci95" in part.columns else [0.0] * len(x)
                common.errorbar(ax, x, part[metric].to_list(), ci, f"{p} players", **style)
            d = part.filter(pl.col("default"))
            if not d.is_empty():   # the configured value: a ring around its point
                ax.plot(d["value"].to_list(), d[metric].to_list(), linestyle="none", marker="o",
                        markersize=13, markerfacecolor="none", markeredgecolor=style["color"])
        ax.set_title(common.label(metric), fontsize=10)
        values = sorted(set(t.filter(pl.col("rule").is_in(sweep_rules))["value"].to_list()))
        ax.set_xticks(values)
        ax.tick_params(labelsize=9)
    for ax in flat[len(HEADLINE):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(SWEEP_LABELS.get(sweep, sweep).split(":")[0].split(" (")[0], fontsize=9)
    common.legend_below(fig, flat[0])
    counts = ", ".join(map(str, players_list))
    if len(sweep_rules) > 1:      # the forced-payday threshold: one rule at 2 players, one at 3 and 4
        name = ", ".join(f"{r} ({', '.join(str(p) for p in players_list if rule_key(sweep, p) == r)} players)"
                         for r in sweep_rules)
    else:
        name = sweep_rules[0]
    fig.suptitle(f"{name} at {counts} players (rings: the rules as configured; bars: 95% intervals)",
                 fontsize=11)
    caption = f"{SWEEP_LABELS.get(sweep, sweep)}: balance at {counts} players"
    return fig, caption


def figures(t: pl.DataFrame, players_list) -> tuple[dict, dict]:
    out, alts = {}, {}
    for sweep in SWEEPS:
        rules_here = sorted({rule_key(sweep, p) for p in players_list})
        if t.filter(pl.col("rule").is_in(rules_here)).is_empty():
            continue
        fig, caption = _figure(t, rules_here, sweep, players_list)
        out[caption] = fig
        alts[caption] = sweep_alt(t, sweep, players_list)
    return out, alts


def sweep_alt(t: pl.DataFrame, sweep: str, players_list) -> str:
    """A sentence from the numbers: what the sweep moves most."""
    parts = []
    for p in players_list:
        part = t.filter(pl.col("players") == p, pl.col("rule") == rule_key(sweep, p)).sort("value")
        if part.is_empty():
            continue
        elim = part["elimination_rate"].to_list()
        turns = part["game_turns"].to_list()
        lo, hi = common.pct_text(min(elim)), common.pct_text(max(elim))
        parts.append(f"at {p} players games last {common.span_text(turns, '.1f')} turns and "
                     f"{lo if lo == hi else f'{lo} to {hi}'} of games see an elimination")
    return f"Sweeping {sweep}: " + "; ".join(parts) + "."


#: the share of games with an elimination from which the text calls them common
ELIMINATIONS_COMMON = 0.05


def eliminations_finding(t: pl.DataFrame, players_list, common_share: float = ELIMINATIONS_COMMON) -> str:
    """When eliminations become common (at least ``common_share`` of games),
    from the swept rules, each with its Wilson interval."""
    parts = []
    for p in players_list:
        part = t.filter(pl.col("players") == p)
        base = part.filter(pl.col("default")).row(0, named=True) if not part.filter(pl.col("default")).is_empty() \
            else None
        common_rows = part.filter(pl.col("elimination_rate_lo") >= common_share).sort("elimination_rate",
                                                                                    descending=True)
        text = f"at {p} players"
        if base is not None:
            text += (" as configured " +
                     common.rate_text(base["elimination_rate"], base["elimination_rate_lo"], base["elimination_rate_hi"])
                     + " of games")
        if common_rows.is_empty():
            text += f"; no rule value swept here makes them common (≥ {common_share:.0%} of games)"
        else:
            hits = [f"{r['rule']}={r['value']} ({common.rate_text(r['elimination_rate'], r['elimination_rate_lo'], r['elimination_rate_hi'])})"
                    for r in common_rows.head(3).iter_rows(named=True)]
            text += f"; they become common (≥ {common_share:.0%} of games) at " + ", ".join(hits)
        parts.append(text)
    return "Eliminations: " + "; ".join(parts) + "."


def run(players_list, field: str | None, games: int, seed: int, rules, deck,
        advance=None, sweeps=SWEEPS) -> AnalysisResult:
    if isinstance(players_list, int):
        players_list = [players_list]
    parts = []
    for p in players_list:
        col = collector()
        play_points(points(p, field, games, rules, deck, sweeps), seed, [col], advance)
        parts.append(table(col.out.game, p))
    t = pl.concat(parts, how="diagonal_relaxed")
    figs, alts = figures(t, players_list)
    seats = common.field_specs(field, max(players_list))
    counts = ", ".join(map(str, players_list))
    summary = (f"The field ({', '.join(sorted(set(seats)))}) at {counts} players, {games:,} games per rule "
               f"value, seed {seed}. Each row changes one rule and leaves the others as configured; "
               "the default column marks the value the rules already have. Seat balance is a chi-square test "
               "that every seat wins 1/players of the games (seat_p) and the spread of the seats' "
               "win shares around par corrected for noise (seat_spread_pp); rates of rare events "
               "carry Wilson intervals [lo, hi]. All points share their deals (the same seed from "
               "game 0), so neighbouring values differ more surely than their intervals suggest.")
    return AnalysisResult("payday-cost", f"The payday rules at {counts} players", summary,
                          {f"Balance per rule value ({counts} players)": t}, figs,
                          {"players": list(players_list), "field": sorted(set(seats)),
                           "games_per_point": games, "seed": seed},
                          alts=alts, details=(f"Balance per rule value ({counts} players)",),
                          findings=[eliminations_finding(t, players_list)])
