"""Wettstreit der Baumeister's balance questions: the seats and the player
count, what gate income is worth, the bonuses, sabotage, and what selling
earns. The prices against the cards' worth are in :mod:`analyses.baumeister.prices`.

Each analysis returns an :class:`AnalysisResult` (tables with their 95%
intervals, figures with error bars, findings written from the numbers); what
the columns mean is in :mod:`analyses.baumeister.measure` and docs/analyses.md.
"""
from __future__ import annotations

import dataclasses
import math
import textwrap

import polars as pl

from analyses import common
from analyses.baumeister import measure
from analyses.baumeister.measure import Setting
from analyses.report_format import format_ci, format_float
from analyses.result import AnalysisResult
from analyses.verdicts import seat_clause
from analyses.setting_tables import bot_edge_text, refuse_keys, seat_figure, shade_printed, x_offsets  # noqa: F401  (refuse_keys: the analyses' own name)

#: the gate experiment: the deck's city gates with their coins times these factors
GATE_FACTORS = (("no gate coins", 0), ("printed coins", 1), ("double coins", 2))
SABOTAGE_SETTINGS = (("rulebook", {}), ("no saboteurs", {"saboteurs": 0}), ("saboteur=any", {"saboteur": "any"}))
SABOTAGE_KEYS = ("saboteurs", "saboteur")


def bot_pair() -> tuple[str, str]:
    """The bot edge's two sides: (the heuristic bot in one seat, the weak bots in the others)."""
    return measure.SKILLED, measure.WEAK


def _pm(r: dict, name: str, fmt: str = ".1f") -> str:
    """A mean with its interval, the half-width at 2 significant digits (so
    that rounding never hides it: ``5.134 ± 0.012``, not ``5.1 ± 0.0``);
    ``fmt`` serves a mean without one; a mean that was 0 in every game says so."""
    v, ci = r.get(name), r.get(f"{name}_ci95")
    if v is None:
        return "–"
    if ci is None:
        return f"{v:{fmt}}"
    if ci == 0:
        return "0 (none in any game)" if v == 0 else f"{format_float(v)} in every game"
    return format_ci(v, ci)


def _rate(r: dict, name: str) -> str:
    return common.rate_text(r[name], r[f"{name}_lo"], r[f"{name}_hi"])


def _plot(ax, pos, part: pl.DataFrame, m: str, label: str, **style) -> None:
    if f"{m}_lo" in part.columns:
        common.errorbar_range(ax, pos, part[m].to_list(), part[f"{m}_lo"].to_list(), part[f"{m}_hi"].to_list(),
                              label=label, **style)
    else:
        common.errorbar(ax, pos, part[m].to_list(), part[f"{m}_ci95"].to_list(), label=label, **style)


def panels(t: pl.DataFrame, x_col: str, metrics: list[str], title: str, xlabel: str, categorical: bool = False,
           par_for: tuple[str, ...] = (), printed=None):
    """One panel per metric against ``x_col``, a series per player count, three panels a row
    (so that a phone shows them a row at a time); ``printed``: the value of ``x_col`` under the
    printed rules, shaded in every panel. More than five categories slant their names, so that
    neighbours never run together."""
    ncols = min(3, len(metrics))
    nrows = math.ceil(len(metrics) / ncols)
    fig, axes = common.figure(ncols=ncols, nrows=nrows, width=4.2, height=3.4)
    plist = sorted(set(t["players"].to_list()))
    xs = list(dict.fromkeys(t[x_col].to_list()))
    flat = [ax for row in axes for ax in row]
    for ax, m in zip(flat, metrics):
        for off, p in zip(x_offsets(len(plist)), plist):
            part = t.filter(pl.col("players") == p)
            pos = [xs.index(v) + off if categorical else v for v in part[x_col].to_list()]
            style = common.series_style(p)
            if categorical:
                style["linestyle"] = "none"
            _plot(ax, pos, part, m, f"{p} players", **style)
        if m in par_for:
            ax.axhline(0.0, color="grey", linestyle=":", linewidth=1)
        shade_printed(ax, xs, printed, categorical)
        if categorical and len(xs) > 5:
            ax.set_xticks(range(len(xs)), [str(v).replace("_", " ") for v in xs], fontsize=8, rotation=35,
                          ha="right", rotation_mode="anchor")
        elif categorical:
            ax.set_xticks(range(len(xs)), [textwrap.fill(str(v).replace("_", " "), 12) for v in xs], fontsize=8)
        else:
            ax.set_xticks(xs)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(textwrap.fill(measure.label(m), 30))
    for ax in flat[len(metrics):]:
        ax.set_visible(False)
    fig.suptitle(title)
    common.legend_below(fig, flat[0])
    return fig


def _summary_tail(games: int, seed: int, players: list[int]) -> str:
    return f"{', '.join(map(str, players))} players, {games:,} games per point, seed {seed}"


# ---------------------------------------------------------------- players
PLAYERS_COLUMNS = ["game_turns", "mean_score", "winner_score", "winner_margin", "complete_share", "price_per_card",
                   "cards_sold", "unsold", "insolvencies", "insolvency_rate", "attacks", "cards_destroyed",
                   "income_per_seat", "seat_p", "seat_spread_pp"]


def players_points(players, field, games, rules, deck, bots=None):
    return measure.points(players, [Setting({}, rules, deck)], field, games, bots or bot_pair())


def players_run(players: list[int], field: str | None, games: int, seed: int, rules, deck, advance=None,
                bots=None) -> AnalysisResult:
    """The start seat's advantage at each player count, and 2 against 4 side by side."""
    bots = bots or bot_pair()
    pts = players_points(players, field, games, rules, deck, bots)
    m = measure.play(pts, ["players"], seed, advance)
    balance = measure.joined(m, ["players"], PLAYERS_COLUMNS)
    seats = measure.seat_table(m, ["players"])
    parts = []
    for row in balance.iter_rows(named=True):
        p = row["players"]
        s = seats.filter(pl.col("players") == p).sort("seat")
        first = s.row(0, named=True)
        parts.append(f"{p} players: seat 0 wins {common.share_text(first['win_share'], first['win_share_ci95'])} "
                     f"against a par of {1 / p:.3f}; {seat_clause(s, int(row['games']))}")
    findings = ["The start seat (seat 0 has the first turn): " + "; ".join(parts) + "."]
    findings.append("Side by side: " + "; ".join(
        f"{r['players']} players play {_pm(r, 'game_turns')} turns, score {_pm(r, 'mean_score')} a seat "
        f"(the winner {_pm(r, 'winner_score')}), complete {_pm(r, 'complete_share', '.2f')} of cities, pay "
        f"{_pm(r, 'price_per_card')} Thaler a card and have {_pm(r, 'insolvencies', '.2f')} insolvencies a game"
        for r in balance.iter_rows(named=True)) + ".")
    findings.append(bot_edge_text(balance, *bots))
    findings.append(measure.caps_text(balance))
    figs = {
        "Win share per seat at each player count (95% error bars; dotted: par)": seat_figure(seats, "0 has the first turn"),
        "2, 3 and 4 players side by side (95% error bars)":
            panels(balance, "players", ["game_turns", "mean_score", "complete_share", "price_per_card",
                                        "insolvencies", "bot_edge"], "What the player count changes", "players",
                   par_for=("bot_edge",)),
    }
    summary = (f"{measure.field_names(field)} in every seat at {_summary_tail(games, seed, players)}; then "
               f"{bots[0]} in one seat among {bots[1]} (every seat in turn) for bot_edge, a heuristic's edge "
               f"over weaker play (not the game's skill). Seat 0 has the first turn; seat_p tests that every "
               f"seat wins 1/players.")
    return AnalysisResult("baumeister-players", "Seats and player counts", summary,
                          {"Balance per player count": balance, "Win share per seat": seats}, figs,
                          {"players": players, "games_per_point": games, "seed": seed,
                           "field": measure.field_names(field)},
                          alts={k: k for k in figs}, findings=findings, wide=tuple(figs)[1:])


# ---------------------------------------------------------------- gates
def gate_deck(deck, factor: int, name: str):
    """``deck`` with every city gate's coins times ``factor`` (the other cards as they are)."""
    from zsim.games.baumeister.cards import GATE, Deck

    cards = tuple(dataclasses.replace(c, coins=c.coins * factor) if c.type == GATE else c for c in deck.cards)
    return Deck(f"{deck.name}, {name}", cards)


def gate_settings(rules, deck) -> list[Setting]:
    return [Setting({"gates": name}, rules, gate_deck(deck, f, name)) for name, f in GATE_FACTORS]


def gates_points(players, field, games, rules, deck):
    return measure.points(players, gate_settings(rules, deck), field, games)


GATE_COLUMNS = ["income_per_seat", "mean_score", "winner_score", "complete_share", "price_per_card", "gate_price",
                "paid_per_seat", "game_turns", "insolvencies", "cards_sold"]


def gate_effects(t: pl.DataFrame) -> pl.DataFrame:
    """Each setting against the printed coins: the change in income and in score per seat, and
    points per Thaler (score change / income change). Intervals treat the settings as independent,
    which is on the safe side: they play the same shuffles."""
    base_name = GATE_FACTORS[1][0]
    base = t.filter(pl.col("gates") == base_name).select(
        "players", *(pl.col(c).alias(f"_{c}") for c in ("income_per_seat", "income_per_seat_ci95", "mean_score",
                                                        "mean_score_ci95")))
    d = t.join(base, on="players", how="left", maintain_order="left").filter(pl.col("gates") != base_name)
    d = d.with_columns((pl.col("income_per_seat") - pl.col("_income_per_seat")).alias("income_change"),
                       ((pl.col("income_per_seat_ci95") ** 2 + pl.col("_income_per_seat_ci95") ** 2).sqrt()
                        ).alias("income_change_ci95"),
                       (pl.col("mean_score") - pl.col("_mean_score")).alias("score_change"),
                       ((pl.col("mean_score_ci95") ** 2 + pl.col("_mean_score_ci95") ** 2).sqrt()
                        ).alias("score_change_ci95"))
    d = d.with_columns((pl.col("score_change") / pl.col("income_change")).alias("points_per_thaler"))
    # delta method for a ratio of two independent estimates
    d = d.with_columns((pl.col("points_per_thaler").abs() * (
        (pl.col("score_change_ci95") / pl.col("score_change")) ** 2
        + (pl.col("income_change_ci95") / pl.col("income_change")) ** 2).sqrt()).alias("points_per_thaler_ci95"))
    return d.select("players", "gates", "income_change", "income_change_ci95", "score_change", "score_change_ci95",
                    "points_per_thaler", "points_per_thaler_ci95").with_columns(pl.col(pl.Float64).fill_nan(None))


def gates_run(players: list[int], field: str | None, games: int, seed: int, rules, deck, advance=None
              ) -> AnalysisResult:
    """What a city gate's income is worth: the same shuffles with the gates' coins at 0, as printed, doubled."""
    settings = gate_settings(rules, deck)
    pts = gates_points(players, field, games, rules, deck)
    keys = ["players", "gates"]
    m = measure.play(pts, keys, seed, advance)
    t = measure.joined(m, keys, GATE_COLUMNS, settings)
    eff = gate_effects(t)
    findings = []
    for p in players:
        none = eff.filter((pl.col("players") == p) & (pl.col("gates") == GATE_FACTORS[0][0])).row(0, named=True)
        both = {r["gates"]: r for r in t.filter(pl.col("players") == p).iter_rows(named=True)}
        base, off = both[GATE_FACTORS[1][0]], both[GATE_FACTORS[0][0]]
        findings.append(
            f"{p} players: the printed gate coins add {format_ci(-none['income_change'], none['income_change_ci95'])} "
            f"Thaler of income per seat and game and change the mean score by {-none['score_change']:+.1f} ± "
            f"{none['score_change_ci95']:.1f} points ({_ppt(none)} points per Thaler); a gate sells for "
            f"{_pm(base, 'gate_price')} Thaler with coins and {_pm(off, 'gate_price')} without.")
    findings.append(measure.caps_text(t))
    figs = {"Gate coins at 0, as printed and doubled: income, score and prices (95% error bars)":
            panels(t, "gates", ["income_per_seat", "mean_score", "price_per_card", "gate_price", "complete_share",
                                "game_turns"], "What the city gates' income does", "gate coins", categorical=True,
                   printed=GATE_FACTORS[1][0])}
    summary = (f"A controlled experiment: {measure.field_names(field)} in every seat plays the same shuffles with "
               f"three decks that differ only in the city gates' coins (0, as printed, doubled), at "
               f"{_summary_tail(games, seed, players)}. Every seat sees the same change, so the figures say what "
               f"the gates' money does to the whole table (its scores, its prices), not how much one seat gains "
               f"over the others; points_per_thaler is the score change per Thaler of income change.")
    return AnalysisResult("baumeister-gates", "What a city gate's income is worth", summary,
                          {"Per gate setting": t, "Against the printed coins": eff}, figs,
                          {"players": players, "games_per_point": games, "seed": seed,
                           "field": measure.field_names(field)},
                          alts={k: k for k in figs}, findings=findings, wide=tuple(figs))


def _ppt(r: dict) -> str:
    v, ci = r["points_per_thaler"], r["points_per_thaler_ci95"]
    if v is None:
        return "–"
    return format_ci(v, ci)


# ---------------------------------------------------------------- bonuses
BONUS_COLUMNS = ["complete_share", "middle_rate", "churches_rate", "corners_rate", "middle_if_complete",
                 "churches_if_complete", "corners_if_complete", "middle_decides", "churches_decides",
                 "corners_decides", "bonus_decides", "winner_margin", "winner_score"]
BONUSES = ("middle", "churches", "corners")


def bonuses_points(players, field, games, rules, deck):
    return measure.points(players, [Setting({}, rules, deck)], field, games)


def bonuses_run(players: list[int], field: str | None, games: int, seed: int, rules, deck, advance=None
                ) -> AnalysisResult:
    """How often cities are complete, each bonus's frequency, and which bonus decides games."""
    pts = bonuses_points(players, field, games, rules, deck)
    m = measure.play(pts, ["players"], seed, advance)
    t = measure.joined(m, ["players"], BONUS_COLUMNS)
    findings = []
    for r in t.iter_rows(named=True):
        p = r["players"]
        top = max(BONUSES, key=lambda b: r[f"{b}_decides"])
        findings.append(
            f"{p} players: {_pm(r, 'complete_share', '.3f')} of cities are complete; the bonuses go to "
            + ", ".join(f"{b} {_pm(r, f'{b}_rate', '.3f')}" for b in BONUSES)
            + " of cities; a bonus decides " + _rate(r, "bonus_decides") + " of games, "
            + f"{top} most often ({_rate(r, f'{top}_decides')}).")
    findings.append(measure.caps_text(t))
    figs = {"How often each bonus is won, and how often it decides the game (95% error bars)": _bonus_figure(t)}
    summary = (f"{measure.field_names(field)} in every seat at {_summary_tail(games, seed, players)}. A bonus "
               f"decides a game when a winner, without that bonus of theirs, would score below another seat (who "
               f"keeps all of theirs); <bonus>_rate is the share of cities that got it, <bonus>_if_complete the "
               f"same among complete cities.")
    return AnalysisResult("baumeister-bonuses", "Complete cities and the bonuses", summary, {"Per player count": t},
                          figs, {"players": players, "games_per_point": games, "seed": seed,
                                 "field": measure.field_names(field)},
                          alts={k: k for k in figs}, findings=findings, wide=tuple(figs))


def _bonus_figure(t: pl.DataFrame):
    fig, axes = common.figure(ncols=2, width=4.6, height=3.6)
    a, b = axes[0]
    plist = sorted(set(t["players"].to_list()))
    for off, p in zip(x_offsets(len(plist)), plist):
        r = t.filter(pl.col("players") == p)
        style = dict(common.series_style(p), linestyle="none")
        xs = [i + off for i in range(len(BONUSES))]
        common.errorbar(a, xs, [r[f"{x}_rate"][0] for x in BONUSES], [r[f"{x}_rate_ci95"][0] for x in BONUSES],
                        label=f"{p} players", **style)
        common.errorbar_range(b, xs, [r[f"{x}_decides"][0] for x in BONUSES],
                              [r[f"{x}_decides_lo"][0] for x in BONUSES], [r[f"{x}_decides_hi"][0] for x in BONUSES],
                              label=f"{p} players", **style)
    for ax, title, ylabel in ((a, "Cities that win it", "share of cities"),
                              (b, "Games it decides", "share of games")):
        ax.set_xticks(range(len(BONUSES)), ["town hall\nin the middle", "churches\neither side",
                                            "corner towers\nof one value"], fontsize=8)
        ax.set_title(title)
        ax.set_ylabel(ylabel)
    fig.suptitle("The bonuses")
    common.legend_below(fig, a)
    return fig


# ---------------------------------------------------------------- sabotage
SABOTAGE_COLUMNS = ["attacks", "building_attacks", "hand_attacks", "cards_destroyed", "mean_score", "winner_score",
                    "complete_share", "game_turns"]


def sabotage_settings(rules) -> list[Setting]:
    return [Setting({"sabotage": name}, rules.with_overrides(over)) for name, over in SABOTAGE_SETTINGS]


def _with_deck(settings: list[Setting], deck) -> list[Setting]:
    return [dataclasses.replace(s, deck=deck) for s in settings]


def sabotage_points(players, field, games, rules, deck, bots=None):
    return measure.points(players, _with_deck(sabotage_settings(rules), deck), field, games, bots or bot_pair())


def sabotage_run(players: list[int], field: str | None, games: int, seed: int, rules, deck, advance=None,
                 bots=None) -> AnalysisResult:
    """How much the die and the saboteurs decide: the bot edge over weak bots with the rulebook's
    sabotage, without saboteurs and with the variant saboteur=any; attacks, destroyed cards and scores."""
    bots = bots or bot_pair()
    settings = _with_deck(sabotage_settings(rules), deck)
    pts = measure.points(players, settings, field, games, bots)
    keys = ["players", "sabotage"]
    m = measure.play(pts, keys, seed, advance)
    t = measure.joined(m, keys, SABOTAGE_COLUMNS, settings)
    findings = []
    for p in players:
        rows = {r["sabotage"]: r for r in t.filter(pl.col("players") == p).iter_rows(named=True)}
        base, none, anyv = (rows[n] for n, _ in SABOTAGE_SETTINGS)
        findings.append(
            f"{p} players: {bots[0]} among {bots[1]} wins {format_ci(base['bot_edge'], base['bot_edge_ci95'], signed=True)} "
            f"above par with the rulebook's sabotage, {format_ci(none['bot_edge'], none['bot_edge_ci95'], signed=True)} "
            f"without saboteurs and {format_ci(anyv['bot_edge'], anyv['bot_edge_ci95'], signed=True)} with saboteur=any "
            f"(a heuristic's edge over weaker play, not the game's skill); "
            f"the field sends {_pm(base, 'attacks', '.2f')} saboteurs a game destroying {_pm(base, 'cards_destroyed', '.2f')}"
            f" cards (saboteur=any: {_pm(anyv, 'attacks', '.2f')} and {_pm(anyv, 'cards_destroyed', '.2f')}), and "
            f"scores {_pm(base, 'mean_score')} a seat ({_pm(none, 'mean_score')} without saboteurs, "
            f"{_pm(anyv, 'mean_score')} with saboteur=any).")
    findings.append(measure.caps_text(t))
    figs = {"The bot edge over weak bots, attacks, destroyed cards and scores under three kinds of sabotage "
            "(95% error bars)":
            panels(t, "sabotage", ["bot_edge", "attacks", "cards_destroyed", "mean_score", "complete_share",
                                   "game_turns"], "How much sabotage decides", "sabotage", categorical=True,
                   par_for=("bot_edge",), printed=SABOTAGE_SETTINGS[0][0])}
    summary = (f"The rulebook's sabotage (form (a) at the weakest city), no saboteurs at all (rule saboteurs=0) and "
               f"the variant saboteur=any, at {_summary_tail(games, seed, players)}: "
               f"{measure.field_names(field)} in every seat for the table's figures, and {bots[0]} in one seat "
               f"among {bots[1]} (every seat in turn) for bot_edge, that bot's win share above par: how much "
               f"sabotage changes a heuristic's edge over weaker play, not the game's skill.")
    return AnalysisResult("baumeister-sabotage", "How much the die and the saboteurs decide", summary,
                          {"Per kind of sabotage": t}, figs,
                          {"players": players, "games_per_point": games, "seed": seed,
                           "field": measure.field_names(field)},
                          alts={k: k for k in figs}, findings=findings, wide=tuple(figs))


# ---------------------------------------------------------------- auctioneer
AUCTION_COLUMNS = ["sales_per_seat", "sales_per_auction", "sales_share_of_paid", "paid_per_seat", "price_per_card",
                   "auctions", "hidden_auctions", "unsold", "insolvencies", "insolvency_rate"]


def fair_bots() -> tuple[str, ...]:
    """Every fair Baumeister strategy that ships with zsim (the registry's, in its order)."""
    from analyses.report_parts import builtin_field

    return builtin_field(measure.GAME)


def bot_settings(rules, deck) -> list[Setting]:
    return [Setting({"strategy": name}, rules, deck, field=name) for name in fair_bots()]


def auctioneer_points(players, field, games, rules, deck):
    return (measure.points(players, [Setting({}, rules, deck)], field, games)
            + measure.points(players, bot_settings(rules, deck), None, games))


def auctioneer_run(players: list[int], field: str | None, games: int, seed: int, rules, deck, advance=None
                   ) -> AnalysisResult:
    """What selling earns the auctioneer, by player count, and how often each bot goes insolvent."""
    pts = measure.points(players, [Setting({}, rules, deck)], field, games)
    m = measure.play(pts, ["players"], seed, advance)
    t = measure.joined(m, ["players"], AUCTION_COLUMNS)
    bots = bot_settings(rules, deck)
    keys = ["players", "strategy"]
    mb = measure.play(measure.points(players, bots, None, games), keys, seed, advance)
    b = measure.joined(mb, keys, ["insolvencies", "insolvency_rate", "price_per_card", "paid_per_seat",
                                  "sales_per_seat", "mean_score"], bots)
    findings = []
    for r in t.iter_rows(named=True):
        findings.append(
            f"{r['players']} players: selling earns each seat {_pm(r, 'sales_per_seat')} Thaler a game, "
            f"{_pm(r, 'sales_per_auction', '.2f')} per auction held, {100 * r['sales_share_of_paid']:.0f}% of "
            f"what the buyers pay ({_pm(r, 'paid_per_seat')} Thaler a seat); the rest goes to the bank.")
    parts = []
    for p in players:
        rows = b.filter(pl.col("players") == p)
        parts.append(f"{p} players: " + ", ".join(
            f"{r['strategy']} {_rate(r, 'insolvency_rate')} of games ({_pm(r, 'insolvencies', '.2f')} a game)"
            for r in rows.iter_rows(named=True)))
    findings.append("Insolvency, each bot in every seat: " + "; ".join(parts) + ".")
    findings.append(measure.caps_text(pl.concat([t, b], how="diagonal_relaxed")))
    figs = {"What selling earns, by player count (95% error bars)":
            panels(t, "players", ["sales_per_seat", "sales_per_auction", "sales_share_of_paid"],
                   "The auctioneer's takings", "players"),
            "Insolvency by bot, each bot in every seat (95% error bars)":
            panels(b, "strategy", ["insolvency_rate", "insolvencies", "price_per_card"], "Who goes insolvent",
                   "strategy in every seat", categorical=True)}
    summary = (f"{measure.field_names(field)} in every seat for the auctioneer's takings, then each fair built-in "
               f"bot ({', '.join(fair_bots())}) in every seat for insolvency, at {_summary_tail(games, seed, players)}."
               f" sales are what auctioneers receive (half of a price another seat pays, rounded down); "
               f"sales_share_of_paid is sales over all prices paid.")
    return AnalysisResult("baumeister-auctioneer", "What selling earns, and who goes insolvent", summary,
                          {"Auctioneer per player count": t, "Insolvency per bot": b}, figs,
                          {"players": players, "games_per_point": games, "seed": seed, "bots": list(fair_bots())},
                          alts={k: k for k in figs}, findings=findings, wide=tuple(figs))
