"""Zahlemann & Söhne's balance questions: the seats and the player count,
the variants, the dealt hand size, and real coins against plain totals.

Each analysis returns an :class:`AnalysisResult` (tables with their 95%
intervals, figures with error bars, findings written from the numbers).
What the figures mean (the bot edge among them: a heuristic bot's edge over
weak ones, not the game's skill) is in :mod:`analyses.zahlemann.measure`;
what forgetting 'Zahlemann' costs is in :mod:`analyses.zahlemann.forget`.
"""
from __future__ import annotations

import textwrap

import polars as pl

from analyses import common
from analyses.report_format import format_ci
from analyses.result import AnalysisResult
from analyses.verdicts import seat_clause
from analyses.setting_tables import bot_edge_text, refuse_keys, seat_figure, shade_printed, x_offsets  # noqa: F401  (refuse_keys: the analyses' own name)
from analyses.zahlemann import measure
from analyses.zahlemann.measure import Setting

VARIANT_KEYS = ("one_plays_again", "fifty_skips", "two_passes_hands")
VARIANTS = (("none", {}), *((k, {k: True}) for k in VARIANT_KEYS), ("all three", {k: True for k in VARIANT_KEYS}))
MONEY_SETTINGS = (("coins, change from the receiver", {}), ("coins, no change", {"change": "none"}),
                  ("coins, change from the bank", {"change": "bank"}), ("totals, paid exactly", {"money": "total"}))
MONEY_KEYS = ("money", "change")
HAND_SIZES = tuple(range(3, 9))


#: what a panel without 2-player points says instead
NO_TWO = "no 2-player points: the survivor holds\nall the money, the same in every game"


def _panels(t: pl.DataFrame, x_col: str, metrics: list[str], title: str, xlabel: str,
            categorical: bool = False, par_for: str | None = None, printed=None):
    """One panel per metric against ``x_col``, a series per player count;
    ``printed``: the value of ``x_col`` under the printed rules, shaded in
    every panel."""
    fig, axes = common.figure(ncols=len(metrics), width=4.4, height=3.6)
    plist = sorted(set(t["players"].to_list()))
    xs = list(dict.fromkeys(t[x_col].to_list()))
    for ax, m in zip(axes[0], metrics):
        for off, p in zip(x_offsets(len(plist)), plist):
            part = t.filter(pl.col("players") == p)
            pos = [xs.index(v) + off if categorical else v for v in part[x_col].to_list()]
            style = common.series_style(p)
            if categorical:
                style["linestyle"] = "none"        # no line between unordered settings
            if m in ("money_range", "winner_margin") and p == 2:
                # two players: the survivor holds all the money, the same in every game
                ax.set_title(NO_TWO, fontsize=8, color="#444")
                continue
            if f"{m}_lo" in part.columns:
                common.errorbar_range(ax, pos, part[m].to_list(), part[f"{m}_lo"].to_list(),
                                      part[f"{m}_hi"].to_list(), label=f"{p} players", **style)
            else:
                common.errorbar(ax, pos, part[m].to_list(), part[f"{m}_ci95"].to_list(), label=f"{p} players",
                                **style)
        if m == par_for:
            ax.axhline(0.0, color="grey", linestyle=":", linewidth=1)
        shade_printed(ax, xs, printed, categorical)
        if categorical:
            ax.set_xticks(range(len(xs)), [textwrap.fill(str(v).replace("_", " "), 11) for v in xs], fontsize=8)
        else:
            ax.set_xticks(xs)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(measure.label(m))
    fig.suptitle(title)
    common.legend_below(fig, axes[0][0])
    return fig


# ---------------------------------------------------------------- players
#: the bot edge's two sides: (the heuristic bot in one seat, the weak bots in the others)
BOTS = (measure.SKILLED, measure.WEAK)


def players_points(players, field, games, rules, bots=BOTS):
    return measure.points(players, [Setting({}, rules)], field, games, bots)


def players_run(players: list[int], field: str | None, games: int, seed: int, rules,
                advance=None, bots=BOTS) -> AnalysisResult:
    """The start seat's advantage at each player count, and 2 against 4 side by side."""
    pts = players_points(players, field, games, rules, bots)
    m = measure.play(pts, ["players"], seed, advance)
    cols = ["rounds", "turns_per_round", "game_turns", "winner_margin", "money_range", "round_cap_rate",
            "seat_p", "seat_spread_pp", "penalty_draws"]
    balance = measure.joined(m, ["players"], cols)
    seats = measure.seat_table(m, ["players"])
    field_names = ", ".join(dict.fromkeys(common.field_specs(field, 4, measure.GAME)))
    findings = []
    parts = []
    for row in balance.iter_rows(named=True):
        p = row["players"]
        s = seats.filter(pl.col("players") == p).sort("seat")
        first = s.row(0, named=True)
        parts.append(f"{p} players: seat 0 {common.share_text(first['win_share'], first['win_share_ci95'])} "
                     f"against a par of {1 / p:.3f}; {seat_clause(s, int(row['games']))}")
    findings.append("The start seat (seat 0 leads the first round): " + "; ".join(parts) + ".")
    findings.append("Game length: " + "; ".join(
        f"{format_ci(r['rounds'], r['rounds_ci95'])} rounds of {r['turns_per_round']:.1f} turns at "
        f"{r['players']} players" for r in balance.iter_rows(named=True)) + ".")
    findings.append(bot_edge_text(balance, *bots))
    figs = {
        "Win share per seat at each player count (95% error bars; dotted: par)": seat_figure(seats, "0 leads the first round"),
        "2, 3 and 4 players side by side: rounds, turns per round, the bot edge over weak bots (95% error bars)":
            _panels(balance, "players", ["rounds", "turns_per_round", "bot_edge"],
                    "What the player count changes", "players", par_for="bot_edge"),
    }
    alts = {k: k for k in figs}
    summary = (f"{field_names} in every seat at {', '.join(map(str, players))} players, {games:,} games each, "
               f"seed {seed}; then {bots[0]} in one seat among {bots[1]} (every seat in turn) for "
               f"bot_edge, a heuristic's edge over weak players (not the game's skill). Seat 0 leads the "
               f"first round; later rounds follow the rules' start player. seat_p tests that every seat wins "
               f"1/players.")
    return AnalysisResult("zahlemann-players", "Seats and player counts", summary,
                          {"Balance per player count": balance, "Win share per seat": seats}, figs,
                          {"players": players, "games_per_point": games, "seed": seed, "field": field_names},
                          alts=alts, findings=findings, wide=tuple(figs)[1:])


# ---------------------------------------------------------------- variants
def variant_settings(rules) -> list[Setting]:
    return [Setting({"variant": name}, rules.with_overrides(over)) for name, over in VARIANTS]


def variants_points(players, field, games, rules, bots=BOTS):
    return measure.points(players, variant_settings(rules), field, games, bots)


def variants_run(players: list[int], field: str | None, games: int, seed: int, rules,
                 advance=None, bots=BOTS) -> AnalysisResult:
    """Each variant alone and all three: game length, spread of outcomes, the bot edge over weak bots."""
    pts = variants_points(players, field, games, rules, bots)
    keys = ["players", "variant"]
    m = measure.play(pts, keys, seed, advance)
    t = measure.joined(m, keys, ["rounds", "turns_per_round", "winner_margin", "money_range", "seat_spread_pp",
                                 "bonus_plays", "skips", "hand_passes"], variant_settings(rules))
    findings = []
    for p in players:
        part = t.filter(pl.col("players") == p)
        base = part.filter(pl.col("variant") == "none").row(0, named=True)
        # two players: the game ends when one is bankrupt, so the other holds all the money
        spread = p > 2
        bits = []
        for r in part.filter(pl.col("variant") != "none").iter_rows(named=True):
            bits.append(f"{r['variant']} {r['rounds']:.1f} rounds ({r['rounds'] - base['rounds']:+.1f})"
                        + (f", spread {r['money_range']:.0f}" if spread else "")
                        + f", bot edge {format_ci(r['bot_edge'], r['bot_edge_ci95'], signed=True)}")
        findings.append(f"{p} players, printed rules: {format_ci(base['rounds'], base['rounds_ci95'])} rounds, "
                        + (f"richest less poorest {format_ci(base['money_range'], base['money_range_ci95'])}, "
                           if spread else "")
                        + f"bot edge ({bots[0]} among {bots[1]}) {base['bot_edge']:+.3f} ± "
                          f"{base['bot_edge_ci95']:.3f}; "
                        + "; ".join(bits) + ".")
    figs = {"What each variant does to game length, the spread of outcomes and the bot edge over weak bots "
            "(95% error bars)":
            _panels(t, "variant", ["rounds", "money_range", "bot_edge"], "The variants", "variant",
                    categorical=True, par_for="bot_edge", printed=VARIANTS[0][0])}
    summary = (f"The printed rules (variant none), each variant alone and all three together, at "
               f"{', '.join(map(str, players))} players; {games:,} games of the field per point and as many "
               f"for the bot edge ({bots[0]} in one seat among {bots[1]}), seed {seed}. "
               f"money_range is the richest seat's money less the poorest's; bot_edge is that bot's "
               f"win share above par, a heuristic's edge over weak players (not the game's skill). With two "
               f"players a game ends when one of them is bankrupt, so the other holds all the money and the "
               f"spread is the same in every game.")
    return AnalysisResult("zahlemann-variants", "The variants", summary, {"Per variant": t}, figs,
                          {"players": players, "games_per_point": games, "seed": seed},
                          alts={k: k for k in figs}, findings=findings, wide=tuple(figs))


# ---------------------------------------------------------------- hand size
def hand_settings(rules, sizes) -> list[Setting]:
    return [Setting({"hand_size": k}, rules.with_overrides({"hand_size": k})) for k in sizes]


def hand_points(players, field, games, rules, sizes=HAND_SIZES, bots=BOTS):
    return measure.points(players, hand_settings(rules, sizes), field, games, bots)


def hand_run(players: list[int], field: str | None, games: int, seed: int, rules, advance=None,
             sizes=HAND_SIZES, bots=BOTS) -> AnalysisResult:
    """The dealt hand size against game length and the bot edge over weak bots."""
    pts = hand_points(players, field, games, rules, sizes, bots)
    keys = ["players", "hand_size"]
    m = measure.play(pts, keys, seed, advance)
    t = measure.joined(m, keys, ["rounds", "turns_per_round", "game_turns", "winner_margin", "money_range"],
                       hand_settings(rules, sizes))
    findings = []
    for p in players:
        part = t.filter(pl.col("players") == p)
        lo, hi = part.row(0, named=True), part.row(-1, named=True)
        best = part.sort("bot_edge", descending=True).row(0, named=True)
        findings.append(f"{p} players: {lo['hand_size']} cards dealt give {lo['rounds']:.1f} rounds of "
                        f"{lo['turns_per_round']:.1f} turns, {hi['hand_size']} give {hi['rounds']:.1f} of "
                        f"{hi['turns_per_round']:.1f}; {bots[0]}'s edge over {bots[1]} is largest at "
                        f"{best['hand_size']} cards ({format_ci(best['bot_edge'], best['bot_edge_ci95'], signed=True)} "
                        f"above par).")
    figs = {"Hand size against game length and the bot edge over weak bots (95% error bars)":
            _panels(t, "hand_size", ["rounds", "turns_per_round", "bot_edge"], "The dealt hand size",
                    "cards dealt (rule hand_size)", par_for="bot_edge", printed=type(rules)().hand_size)}
    summary = (f"Rule hand_size {', '.join(map(str, sizes))} at {', '.join(map(str, players))} players; "
               f"{games:,} games of the field per point and as many for the bot edge ({bots[0]} in one seat "
               f"among {bots[1]}, a heuristic's edge over weak players, not the game's skill), seed {seed}.")
    return AnalysisResult("zahlemann-hand-size", "The dealt hand size", summary, {"Per hand size": t}, figs,
                          {"players": players, "games_per_point": games, "seed": seed, "hand_sizes": list(sizes)},
                          alts={k: k for k in figs}, findings=findings, wide=tuple(figs))


# ---------------------------------------------------------------- coins
def money_settings(rules) -> list[Setting]:
    return [Setting({"money": name}, rules.with_overrides(over)) for name, over in MONEY_SETTINGS]


def money_points(players, field, games, rules):
    return measure.points(players, money_settings(rules), field, games, bots=None)


def money_run(players: list[int], field: str | None, games: int, seed: int, rules,
              advance=None) -> AnalysisResult:
    """Real coins against plain totals: how often change is missing, and what it costs."""
    pts = money_points(players, field, games, rules)
    keys = ["players", "money"]
    m = measure.play(pts, keys, seed, advance)
    t = measure.joined(m, keys, ["shortfall_rate", "shortfall_per_game", "shortfall_when_short",
                                 "shortfall_share_of_paid", "rounds", "winner_margin", "money_range"],
                       money_settings(rules))
    findings = []
    for p in players:
        part = {r["money"]: r for r in t.filter(pl.col("players") == p).iter_rows(named=True)}
        base, none = part[MONEY_SETTINGS[0][0]], part[MONEY_SETTINGS[1][0]]
        total = part[MONEY_SETTINGS[3][0]]
        findings.append(
            f"{p} players: with change from the receiver, change is missing in "
            f"{common.rate_text(base['shortfall_rate'], base['shortfall_rate_lo'], base['shortfall_rate_hi'])} "
            f"of games, costing the payers {_num(base['shortfall_when_short'], base['shortfall_when_short_ci95'])} "
            f"when it happens; with no change at all, "
            f"{common.rate_text(none['shortfall_rate'], none['shortfall_rate_lo'], none['shortfall_rate_hi'])}"
            f" and {_num(none['shortfall_when_short'], none['shortfall_when_short_ci95'])}. Games last "
            f"{base['rounds']:.1f} rounds with coins and {total['rounds']:.1f} with totals.")
    figs = {"Real coins against totals: games with missing change and game length (95% error bars)":
            _panels(t, "money", ["shortfall_rate", "rounds"], "Coins and change", "how money is paid",
                    categorical=True, printed=MONEY_SETTINGS[0][0])}
    summary = (f"The field at {', '.join(map(str, players))} players under four ways of paying: coins with "
               f"change from the round's winner (the printed rule), coins with no change, coins with change "
               f"from the bank, and plain totals paid exactly; {games:,} games each, seed {seed}. A shortfall "
               f"is what a payer overpays because the change could not be made.")
    return AnalysisResult("zahlemann-money", "Real coins against plain totals", summary, {"Per way of paying": t},
                          figs, {"players": players, "games_per_point": games, "seed": seed},
                          alts={k: k for k in figs}, findings=findings, wide=tuple(figs))


def _num(value, ci) -> str:
    if value is None:
        return "nothing (it never happened)"
    return format_ci(value, ci)
