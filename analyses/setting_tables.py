"""What the analyses of Zahlemann & Söhne and Wettstreit der Baumeister share.

Both lay an analysis out as *settings* (a player count, rules, perhaps a
deck), each playing the field's game and a bot edge: a heuristic bot in one
seat among weak ones (see their ``measure.py``). The tables, checks, the
seat figure and the bot edge's words that do not depend on the game live
here; each game's ``measure`` and ``questions`` keep what is its own (its
metrics, its columns, its words).
"""
from __future__ import annotations

import polars as pl

from analyses import common, stats
from analyses.report_format import format_ci
from analyses.stats import Mean
from zsim.errors import ZsimError

#: what the bot edge is not, said beside it in every finding that gives it
BOT_EDGE_ASIDE = ("a heuristic's edge over weak players; skill itself is measured against the default field "
                  "by the strong player")


def bot_edge_definition(bot: str, weak: str) -> str:
    """The glossary's meaning of ``bot_edge``: ``bot`` in one seat among ``weak``, and why it is
    not the game's skill."""
    return (f"win share above par (1 / players) of {bot} in one seat among {weak} (every seat in turn): a "
            f"heuristic's edge over weak play, not the game's skill — the report's 'Skill against "
            f"luck' section measures skill with the strong player")


def bot_edge_text(rows: pl.DataFrame, bot: str, weak: str) -> str:
    """A finding on the bot edge: ``bot`` in one seat among ``weak``, its win share above par per
    row of ``rows`` (players, bot_edge, bot_edge_ci95) that has one, and what the figure is not."""
    parts = [f"{format_ci(r['bot_edge'], r['bot_edge_ci95'], signed=True)} above par at {r['players']} players"
             for r in rows.iter_rows(named=True) if r.get("bot_edge") is not None]
    return f"{bot} in one seat among {weak} wins " + ", ".join(parts) + f" ({BOT_EDGE_ASIDE})."


def check_spec(spec: str, what: str, game: str) -> str:
    """A strategy spec of ``game``, refused in one line when unknown or empty."""
    from zsim.strategy_registry import parse_one

    out = parse_one(spec, game)
    if not out:
        raise ZsimError(f"{what} is empty")
    return out


def refuse_keys(options, keys, analysis: str) -> None:
    """A ``--rule`` of a key the analysis sweeps itself is refused in one line."""
    for item in options:
        key = str(item).partition("=")[0].strip()
        if key in keys:
            raise ZsimError(f"--rule {key} is swept by the {analysis} analysis; leave it out "
                            f"(the analysis sets {', '.join(keys)} itself)")


def games_of(pts) -> int:
    """The games a list of points plays."""
    return sum(pt.games for pt in pts)


def in_order(t: pl.DataFrame, keys: list[str], settings) -> pl.DataFrame:
    """Rows by player count, then in the order the settings were given (the sums come sorted)."""
    if not settings or len(keys) < 2:
        return t
    order = {s.key[keys[1]]: i for i, s in enumerate(settings)}
    return (t.with_columns(pl.col(keys[1]).replace_strict(order, return_dtype=pl.Int64).alias("_order"))
            .sort(keys[0], "_order").drop("_order"))


def _field(sums: pl.DataFrame) -> pl.DataFrame:
    return sums.filter(pl.col("part") == "field").drop("part")


def field_table(game_sums: dict, keys: list[str], metrics) -> pl.DataFrame:
    """The field's ``metrics`` per setting with the seat test (seat_p, spread), from the per-game
    sums of each player count (``game_sums[players]``)."""
    parts = []
    for p, sums in game_sums.items():
        f = _field(sums)
        if f.is_empty():
            continue
        est = stats.estimates(f, keys, metrics)
        bal = stats.seat_balance(f, keys, p).select(*keys, "seat_p", "seat_spread_pp",
                                                    "seat_spread_pp_lo", "seat_spread_pp_hi")
        parts.append(est.join(bal, on=keys, how="left", coalesce=True, maintain_order="left"))
    return pl.concat(parts, how="diagonal_relaxed").sort(keys, maintain_order=True)


def seat_table(game_sums: dict, keys: list[str]) -> pl.DataFrame:
    """Each seat's win share in the field's games, per setting."""
    parts = []
    for p, sums in game_sums.items():
        f = _field(sums)
        est = stats.estimates(f, keys, [Mean(f"s{s}", f"w{s}", 1.0 / stats.WIN_UNITS) for s in range(p)])
        for s in range(p):
            parts.append(est.select(*keys, pl.lit(s, pl.Int64).alias("seat"), "games",
                                    pl.col(f"s{s}").alias("win_share"),
                                    pl.col(f"s{s}_ci95").alias("win_share_ci95")))
    return pl.concat(parts).sort([*keys, "seat"], maintain_order=True)


def x_offsets(n_series: int, width: float = 0.24) -> list[float]:
    """Horizontal offsets that keep ``n_series`` error bars at one x apart."""
    if n_series < 2:
        return [0.0]
    return [-width / 2 + width * i / (n_series - 1) for i in range(n_series)]


def shade_printed(ax, xs: list, printed, categorical: bool) -> None:
    """Shade the printed rules' value ``printed`` of a sweep over ``xs`` (a
    category's slot, or the value itself on a numeric axis); nothing when
    the sweep does not hold it."""
    if printed is None or printed not in xs:
        return
    at = xs.index(printed) if categorical else printed
    ax.axvspan(at - 0.4, at + 0.4, color="#d9d9d9", alpha=0.6, zorder=0, linewidth=0, label="printed rules")


def seat_figure(seats: pl.DataFrame, seat_note: str):
    """Win share per seat, a series per player count, par dotted (``seat_note``: what seat 0 does)."""
    fig, axes = common.figure(width=6.0, height=4.0)
    ax = axes[0][0]
    plist = sorted(set(seats["players"].to_list()))
    for off, p in zip(x_offsets(len(plist), 0.2), plist):
        part = seats.filter(pl.col("players") == p)
        style = common.series_style(p)
        common.errorbar(ax, [s + off for s in part["seat"].to_list()], part["win_share"].to_list(),
                        part["win_share_ci95"].to_list(), label=f"{p} players", **style)
        ax.axhline(1.0 / p, color=style["color"], linestyle=":", linewidth=1)
    ax.set_xticks(range(max(plist)))
    ax.set_xlabel(f"seat ({seat_note})")
    ax.set_ylabel("win share")
    ax.set_title("Does the start seat win more?")
    ax.legend(fontsize=9)
    return fig
