"""How the carry-over analysis shows its numbers: two figures with 95% error bars,
and its findings as sentences, each number with its interval."""
from __future__ import annotations

import math

import polars as pl

from analyses import common, verdicts
from analyses.common import share_text
from analyses.setting_tables import BOT_EDGE_ASIDE, x_offsets

#: the settings as the figures and findings name them (key column carry_over)
NAMES = {True: "carried over", False: "discarded"}
#: one look per setting where the series are the settings (the player counts have theirs)
LOOK = {True: common.CYCLE[0], False: common.CYCLE[1]}
PANELS = ("fully_tied_share", "discarded_points", "mean_score", "bot_win_share")
LABELS = {
    "fully_tied_share": "rounds fully tied (share)",
    "discarded_points": "points discarded per game",
    "mean_score": "mean score per seat (points)",
    "bot_win_share": "bot's win share among weak bots",
}


def seat_figure(seats: pl.DataFrame):
    """Win share per seat, a panel per player count, the two settings side by side, par dotted."""
    plist = sorted(set(seats["players"].to_list()))
    fig, axes = common.figure(ncols=len(plist), width=4.2, height=3.6)
    for ax, p in zip(axes[0], plist):
        for off, flag in zip(x_offsets(2, 0.2), NAMES):
            part = seats.filter((pl.col("players") == p) & (pl.col("carry_over") == flag)).sort("seat")
            common.errorbar(ax, [s + off for s in part["seat"].to_list()], part["win_share"].to_list(),
                            part["win_share_ci95"].to_list(), label=f"ties {NAMES[flag]}",
                            **{**LOOK[flag], "linestyle": "none"})
        ax.axhline(1.0 / p, color="grey", linestyle=":", linewidth=1)
        ax.set_xticks(range(p))
        ax.set_xlabel("seat")
        ax.set_ylabel("win share")
        ax.set_title(f"{p} players")
    fig.suptitle("Win share per seat (the field in every seat)")
    common.legend_below(fig, axes[0][0])
    return fig


def panels(main: pl.DataFrame):
    """One panel per figure of :data:`PANELS` against the setting, a series per player count."""
    fig, axes = common.figure(ncols=len(PANELS), width=3.8, height=3.6)
    plist = sorted(set(main["players"].to_list()))
    flags = list(NAMES)
    for ax, m in zip(axes[0], PANELS):
        for off, p in zip(x_offsets(len(plist)), plist):
            part = main.filter(pl.col("players") == p)
            rows = {r["carry_over"]: r for r in part.iter_rows(named=True)}
            xs = [i + off for i, f in enumerate(flags) if f in rows]
            style = common.series_style(p)
            common.errorbar(ax, xs, [rows[f][m] for f in flags if f in rows],
                            [rows[f][f"{m}_ci95"] for f in flags if f in rows], label=f"{p} players", **style)
            if m == "bot_win_share":
                ax.axhline(1.0 / p, color=style["color"], linestyle=":", linewidth=1)
        ax.set_xticks(range(len(flags)), [f"ties\n{NAMES[f]}" for f in flags])
        ax.set_xlim(-0.5, len(flags) - 0.5)
        ax.set_ylabel(LABELS[m])
    fig.suptitle("What carry-over changes")
    common.legend_below(fig, axes[0][0])
    return fig


def _pct(value, ci) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f}%" + (f" ± {100 * ci:.1f}%" if ci is not None else "")


def _num(value, ci, decimals: int = 2) -> str:
    """A mean and its 95% half-width, with decimals enough to show the half-width (up to 4)."""
    if value is None:
        return "–"
    if ci is None:
        return f"{value:.{decimals}f}"
    if ci > 0:
        decimals = max(decimals, min(4, -math.floor(math.log10(ci))))
    return f"{value:.{decimals}f} ± {ci:.{decimals}f}"


def _setting_text(r: dict) -> str:
    text = (f"ties {NAMES[r['carry_over']]}: {_pct(r['fully_tied_share'], r['fully_tied_share_ci95'])} of "
            f"rounds fully tied, {_num(r['discarded_points'], r['discarded_points_ci95'])} points "
            f"({_num(r['discarded'], r['discarded_ci95'])} cards) discarded a game, mean score "
            f"{_num(r['mean_score'], r['mean_score_ci95'])}")
    if r["carry_over"]:
        text += (f", {_num(r['carries'], r['carries_ci95'])} tables carried a game, the largest taken "
                 f"{_num(r['biggest_table'], r['biggest_table_ci95'], 1)} cards")
    return text


def _per_players(main: pl.DataFrame):
    for (p,), part in main.group_by(["players"], maintain_order=True):
        yield p, {r["carry_over"]: r for r in part.iter_rows(named=True)}


def findings(main: pl.DataFrame, field: str, bots: tuple[str, str]) -> list[str]:
    """The analysis's findings, one sentence per question, written from the table ``main``."""
    out = [f"{p} players, {field} in every seat: " + "; ".join(_setting_text(rows[f]) for f in NAMES if f in rows)
           + "." for p, rows in _per_players(main)]
    out.append("Seats, the largest gap in win share: "
               + "; ".join(seat_text(p, rows) for p, rows in _per_players(main)) + ".")
    out.append(f"{bots[0]} in one seat among {bots[1]} wins " + "; ".join(
        f"{share_text(rows[True]['bot_win_share'], rows[True]['bot_win_share_ci95'])} carried over and "
        f"{share_text(rows[False]['bot_win_share'], rows[False]['bot_win_share_ci95'])} discarded at "
        f"{p} players (par {1 / p:.3f})" for p, rows in _per_players(main) if len(rows) == 2)
        + f" ({BOT_EDGE_ASIDE}).")
    return out


def seat_text(p: int, rows: dict) -> str:
    """The seats at ``p`` players both ways: the largest gap between two seats, read against the
    report's default margin (:mod:`analyses.verdicts`)."""
    parts = []
    for flag in NAMES:
        r = rows.get(flag)
        if r is not None:
            gap = verdicts.edge("Seats", 100 * r["seat_gap"], 100 * r["seat_gap_ci95"], int(r["games"]),
                                subject="", effect="uneven", no_effect="balanced")
            parts.append(f"seat {r['best_seat']} over seat {r['worst_seat']} by "
                         f"{share_text(r['seat_gap'], r['seat_gap_ci95'])} with ties {NAMES[flag]} "
                         f"({gap.label} against a margin of ±{gap.margin_pp:g} pp)")
    return f"at {p} players " + " and ".join(parts)
