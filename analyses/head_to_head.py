"""A tournament's head to head, as the report shows it: a table of shares
with their intervals over deals, and an annotated heatmap.

The share of a pair (row, column) is the share of the games both played in
which the row finished above the column (ties count for neither), taken per
deal and averaged over deals; its 95% interval is over deals, which are
independent (:meth:`zsim.harness.tournament.Tournament.head_to_head`).
"""
from __future__ import annotations

import polars as pl

from analyses import common, heatmap
from analyses.report_format import format_ci, format_share_bound


def _long(t) -> pl.DataFrame:
    h = t.head_to_head()
    if "above_ci95" not in h.columns:
        h = h.with_columns(pl.lit(None, pl.Float64).alias("above_ci95"))
    return h


def matrix_table(t) -> pl.DataFrame:
    """Row strategy x column strategy: ``<column>`` the share of shared games
    the row finished above the column, ``<column>_ci95`` its half-width and
    ``<column>_games`` the games both played (so that a share never or always
    seen reads as its bound, :func:`analyses.report_format.display_table`)."""
    h = _long(t)
    entries = list(t.entries)
    cols: dict[str, list] = {"strategy": entries}
    for b in entries:
        share, ci, games = [], [], []
        for a in entries:
            r = h.filter(pl.col("row") == a, pl.col("column") == b)
            share.append(None if r.is_empty() else r["above"][0])
            ci.append(None if r.is_empty() else r["above_ci95"][0])
            games.append(None if r.is_empty() else r["games"][0])
        cols[b], cols[f"{b}_ci95"], cols[f"{b}_games"] = share, ci, games
    schema = {"strategy": pl.String, **{c: pl.Int64 if c.endswith("_games") else pl.Float64
                                        for c in cols if c != "strategy"}}
    return pl.DataFrame(cols, schema=schema)


def _order(t) -> list[int]:
    """Entries from the strongest (highest mean share above the others) down."""
    h = _long(t)
    mean = {a: h.filter(pl.col("row") == a)["above"].drop_nulls().mean() or 0.0 for a in t.entries}
    return sorted(range(len(t.entries)), key=lambda i: -mean[t.entries[i]])


def figure(t, players: int):
    """The head-to-head matrix as a heatmap centred on 0.5 (or None for a
    field of one): each cell holds the share and its 95% half-width."""
    if len(t.entries) < 2:
        return None
    h = _long(t)
    order = _order(t)
    names = [t.entries[i] for i in order]
    look = {(r["row"], r["column"]): r for r in h.iter_rows(named=True)}
    values, text = [], []
    for a in names:
        row_v, row_t = [], []
        for b in names:
            r = look.get((a, b))
            v = None if r is None else r["above"]
            ci = None if r is None else r["above_ci95"]
            row_v.append(v)
            row_t.append("" if a == b else heatmap.cell_text(v, ci, max_places=3))
        values.append(row_v)
        text.append(row_t)
    size = 0.62 * len(names) + 2.0
    fig, axes = common.figure(width=size + 1.2, height=size)
    ax = axes[0][0]
    heatmap.draw(ax, values, names, names, text=text, center=0.5, cbar_label="share of shared games the row "
                 "finished above the column", xlabel="column strategy", ylabel="row strategy",
                 title=f"Head to head at {players} players (row above column; ± 95% over deals)")
    ax.tick_params(axis="x", labelrotation=35)
    for lab in ax.get_xticklabels():
        lab.set_horizontalalignment("right")
    return fig


def alt_text(t) -> str:
    """The strongest pairing, from the numbers."""
    h = _long(t).drop_nulls("above")
    if h.is_empty():
        return "Head to head: no pair of strategies shared a game."
    top = h.sort("above", descending=True).row(0, named=True)
    share = (format_share_bound(top["above"], top["games"]) if top["above_ci95"] == 0 else None) \
        or format_ci(top["above"], top["above_ci95"])
    strongest = [t.entries[i] for i in _order(t)][0]
    return (f"Head to head: {strongest} finishes above its rivals most often; the widest gap is "
            f"{top['row']} above {top['column']} in {share} of their {top['games']} shared games.")
