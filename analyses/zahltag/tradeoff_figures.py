"""The trade-off analysis's figures, each with the alt text that tells what it shows.

Per player count, a heatmap pair of the strategy grid (the tested seat's win
share and income less payday cost per payday cost and target hand) and one of
the rule grid (the field's income less payday per seat and its eliminations
per payday cost and dealt hand); across player counts, the best target hand
against payday cost with the targets within noise of it. Drawn from the tables
:mod:`analyses.zahltag.tradeoff` builds.
"""
from __future__ import annotations

import polars as pl
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from analyses import common, heatmap
from analyses.zahltag.hand_size import TESTED
from analyses.zahltag.tradeoff_words import rule_sentence, trend

#: the payday cost axis of every figure
COST_LABEL = "payday cost (millions per card)"


def _cells(t: pl.DataFrame, row_key: str, col_key: str, value: str, ci: str | None, scale: float = 1.0,
           max_places: int | None = 1):
    """A heatmap's rows, columns, cell values (times ``scale``; None where
    missing) and cell texts (value and 95% half-width) from a long table."""
    rows = sorted(set(t[row_key].to_list()))
    cols = sorted(set(t[col_key].to_list()))
    at = {(r[row_key], r[col_key]): r for r in t.iter_rows(named=True)}
    values = [[None if (r, c) not in at or at[(r, c)][value] is None else at[(r, c)][value] * scale
               for c in cols] for r in rows]
    text = [[heatmap.cell_text(at[(r, c)][value], at[(r, c)][ci] if ci else None, scale,
                               max_places=max_places) if (r, c) in at else heatmap.MISSING
             for c in cols] for r in rows]
    return rows, cols, values, text


def strategy_figure(grid: pl.DataFrame, best: pl.DataFrame, p: int, default: int, cost0: int):
    g = grid.filter(pl.col("players") == p)
    b = best.filter(pl.col("players") == p)
    fig, axes = common.figure(nrows=2, width=9.0, height=3.1)   # shown full width: 13 targets
    rows, cols, w, wt = _cells(g, "payday_cost", "target", "win_share", "win_share_ci95", 100.0)
    stars = [(rows.index(r["payday_cost"]), cols.index(r["best_target"])) for r in b.iter_rows(named=True)]
    boxes = [(rows.index(cost0), cols.index(default))] if cost0 in rows and default in cols else []
    par = 100.0 / p
    heatmap.draw(axes[0][0], w, rows, cols, text=wt, stars=stars, boxes=boxes, center=par, cmap="PuOr",
                 cbar_label=f"win share (%; mid colour: par {par:.0f}%)", ylabel=COST_LABEL,
                 title=f"Win share of the tested seat, % ({p} players)")
    _, _, v, vt = _cells(g, "payday_cost", "target", "income_less_payday", "income_less_payday_ci95")
    heatmap.draw(axes[1][0], v, rows, cols, text=vt, stars=stars, boxes=boxes,
                 cbar_label="millions per game", ylabel=COST_LABEL,
                 xlabel=f"target hand size of the tested seat ({TESTED}:target, cards)",
                 title=f"Income less payday cost of the tested seat ({p} players)")
    heatmap.marks_legend(fig, "best target by win share at this payday cost",
                         f"default: target {default}, payday cost {cost0}" if boxes else None)
    return fig


def best_figure(best: pl.DataFrame, targets) -> object:
    fig, ax = common.figure(width=6.0, height=4.0)
    ax = ax[0][0]
    players = sorted(set(best["players"].to_list()))
    for i, p in enumerate(players):
        part = best.filter(pl.col("players") == p).sort("payday_cost")
        dodge = (i - (len(players) - 1) / 2) * 0.07
        x = [c + dodge for c in part["payday_cost"].to_list()]
        y = part["best_target"].to_list()
        below = [k - lo for k, lo in zip(y, part["noise_low"].to_list())]
        above = [hi - k for k, hi in zip(y, part["noise_high"].to_list())]
        ax.errorbar(x, y, yerr=[below, above], capsize=4, label=f"{p} players", markersize=7,
                    **common.series_style(p))
    lo, hi = min(targets), max(targets)
    ax.axhline(lo, color="grey", linestyle=":", linewidth=1)
    ax.axhline(hi, color="grey", linestyle=":", linewidth=1, label="edges of the range tried")
    costs = sorted(set(best["payday_cost"].to_list()))
    ax.set_xticks(costs)
    ax.set_yticks(sorted(set(targets)))
    ax.set_ylim(lo - 0.6, hi + 0.6)
    ax.set_xlabel(COST_LABEL)
    ax.set_ylabel("best target hand of the tested seat (cards)")
    ax.set_title(f"Best target hand against payday cost ({', '.join(map(str, players))} players)")
    ax.legend(fontsize=9)
    return fig


#: eliminations above this share of games are outlined on the seat-spread maps
ELIMINATIONS_OUTLINED = 0.05


def spread_figure(rule: pl.DataFrame, p: int, hand0: int, cost0: int, vmax: float):
    """The seats' spread around par by dealt hand and payday cost at ``p``
    players, on the colour scale 0..``vmax`` every player count shares, the
    cells where more than 5% of games see an elimination outlined and the
    printed rules boxed."""
    t = rule.filter(pl.col("players") == p)
    fig, axes = common.figure(width=6.0, height=3.4)
    ax = axes[0][0]
    rows, cols, v, _ = _cells(t, "payday_cost", "hand_size", "seat_spread_pp", None)
    text = [[heatmap.MISSING if x is None else f"{x:.1f}" for x in row] for row in v]
    boxes = [(rows.index(cost0), cols.index(hand0))] if cost0 in rows and hand0 in cols else []
    heatmap.draw(ax, v, rows, cols, text=text, boxes=boxes, vmin=0.0, vmax=vmax, fontsize=10,
                 cbar_label="seat spread (pp of win share)", ylabel=COST_LABEL,
                 xlabel="cards dealt to each player (rule hand_size)",
                 title=f"How uneven are the seats? {p} players")
    _, _, e, _ = _cells(t, "payday_cost", "hand_size", "elimination_rate", None)
    heatmap.outline(ax, [[x is not None and x > ELIMINATIONS_OUTLINED for x in row] for row in e])
    handles = [Line2D([], [], color="#d55e00", linewidth=2.6,
                      label=f"eliminations in more than {ELIMINATIONS_OUTLINED:.0%} of games")]
    if boxes:
        handles.append(Rectangle((0, 0), 1, 1, fill=False, edgecolor="black", linewidth=2.5,
                                 label=f"printed rules: deal {hand0}, payday cost {cost0}"))
    fig.legend(handles=handles, loc="outside lower center", ncol=1, fontsize=10, frameon=False)
    return fig


def spread_alt(rule: pl.DataFrame, p: int, hand0: int, cost0: int) -> str:
    t = rule.filter(pl.col("players") == p).sort("payday_cost", "hand_size")
    cells = "; ".join(f"deal {r['hand_size']} cost {r['payday_cost']}: {r['seat_spread_pp']:.1f}"
                      for r in t.iter_rows(named=True) if r["seat_spread_pp"] is not None)
    hot = [f"deal {r['hand_size']} cost {r['payday_cost']}" for r in t.iter_rows(named=True)
           if r["elimination_rate"] is not None and r["elimination_rate"] > ELIMINATIONS_OUTLINED]
    return (f"Seat spread in percentage points of win share at {p} players, by cards dealt and payday cost "
            f"(printed rules: deal {hand0}, cost {cost0}): {cells}. Eliminations above "
            f"{ELIMINATIONS_OUTLINED:.0%}: {', '.join(hot) or 'nowhere'}.")


def rule_figure(rule: pl.DataFrame, p: int, hand0: int, cost0: int):
    t = rule.filter(pl.col("players") == p)
    fig, axes = common.figure(nrows=2, width=6.0, height=2.9)
    rows, cols, v, vt = _cells(t, "payday_cost", "hand_size", "income_less_payday_per_seat",
                               "income_less_payday_per_seat_ci95")
    stars = []
    for i, row in enumerate(v):
        finite = [(x, j) for j, x in enumerate(row) if x is not None]
        if finite:
            stars.append((i, max(finite)[1]))
    boxes = [(rows.index(cost0), cols.index(hand0))] if cost0 in rows and hand0 in cols else []
    heatmap.draw(axes[0][0], v, rows, cols, text=vt, stars=stars, boxes=boxes,
                 cbar_label="millions per game and seat", ylabel=COST_LABEL,
                 title=f"Income less payday cost per seat, the field ({p} players)")
    _, _, e, _ = _cells(t, "payday_cost", "hand_size", "elimination_rate", None, 100.0)
    et = [[heatmap.cell_text(x, None, places=1) for x in row] for row in e]
    heatmap.draw(axes[1][0], e, rows, cols, text=et, boxes=boxes, vmin=0.0,
                 cbar_label="% of games", ylabel=COST_LABEL, xlabel="cards dealt to each player (rule hand_size)",
                 title=f"Games with an elimination, % ({p} players)")
    heatmap.marks_legend(fig, "most income per seat at this payday cost",
                         f"printed rules: deal {hand0}, payday cost {cost0}" if boxes else None)
    return fig


def strategy_alt(best: pl.DataFrame, p: int, default: int, cost0: int) -> str:
    """The alt text of :func:`strategy_figure`."""
    b = best.filter(pl.col("players") == p).sort("payday_cost")
    text = (f"At {p} players the tested seat's best target hand "
            f"{trend(b['payday_cost'].to_list(), b['best_target'].to_list())} (win share "
            + ", ".join(f"{w:.3f} at cost {c}" for c, w in zip(b["payday_cost"], b["win_share"])) + ")")
    d = b.filter(pl.col("payday_cost") == cost0)
    if not d.is_empty() and d["default_win_share"][0] is not None:
        text += f"; the default, target {default} at cost {cost0}, wins {d['default_win_share'][0]:.3f}"
    return text + "."


def best_alt(best: pl.DataFrame) -> str:
    """The alt text of :func:`best_figure`."""
    parts = []
    for (p,), part in best.sort("players", "payday_cost").group_by(["players"], maintain_order=True):
        parts.append(f"at {p} players it {trend(part['payday_cost'].to_list(), part['best_target'].to_list())}")
    return "The best target hand against payday cost: " + "; ".join(parts) + "."


def rule_alt(rule: pl.DataFrame, p: int, cost0: int) -> str:
    """The alt text of :func:`rule_figure`."""
    return rule_sentence(p, rule.filter(pl.col("players") == p), cost0)
