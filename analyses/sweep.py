"""``zsim sweep``: any rule of any game, one or two keys at a time.

A designer's next question is rarely one somebody wrote an analysis for
("what if the open stack were 15 cards?"). A sweep answers it from the game
contract alone (:class:`zsim.games.base.Game`): the rule keys and their
ranges come from the game's rule specs, and every point is measured the
same way for every game, plugins included:

* the seats: each seat's win share in the field's games, the largest gap
  to par in percentage points with its interval, the seat test, and the
  verdict against the margin (``balanced`` / ``uneven`` / ``can't tell
  yet``, :mod:`analyses.verdicts`);
* the game: its length (the game column ``turns``, where it has one), how
  its games end (a share per end reason), the winner's margin on its score,
  the share of games in which a seat is knocked out (the game's
  ``knockout`` column: Zahltag's eliminations, Zahlemann's bankruptcies,
  Baumeister's insolvencies), lead changes where the game counts them, and
  the game's own summary columns (means over the seats);
* the skill edge: the strong player (``--strong``, by default the game's
  own strong player) in one seat against the field in the others, every
  seat in turn, its win share above par in percentage points.

Every point plays the same deals (the same seed from game 0: common random
numbers), so a difference between two points is sharper than their
separate intervals suggest; ``zsim compare`` measures that pairing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import product

import numpy as np
import polars as pl

from analyses import common, heatmap, rule_metrics, stats, verdicts
from analyses.play import Collector, Point, play_points
from analyses.report_format import format_ci
from analyses.result import AnalysisResult
from analyses.setting_tables import shade_printed
from analyses.stats import Mean
from zsim.errors import ZsimError
from zsim.game_registry import get_game
from zsim.harness.chunks import Matchup
from zsim.rule_options import parse_value

#: the most points a sweep plays unless --max-points says otherwise
MAX_POINTS = 400
#: the most keys swept at once (a heatmap has two axes)
MAX_KEYS = 2
#: the strong player's games per point, by default: one for every STRONG_SHARE of the field's
STRONG_SHARE = 10


# ---------------------------------------------------------------- what is swept
@dataclass(frozen=True)
class Axis:
    """One swept rule: its key, its values in the order given, how each
    prints, and the printed rules' value."""
    key: str
    values: tuple
    labels: tuple[str, ...]
    printed: object

    @property
    def printed_label(self) -> str | None:
        return _label(self.printed) if self.printed in self.values else None


def _label(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


def _spec(game, key: str):
    specs = {s.key: s for s in game.rule_specs}
    if key not in specs:
        raise ZsimError(f"unknown rule key {key!r} for {game.name} (valid keys: {', '.join(specs)})")
    return specs[key]


def parse_axis(game_name: str, text: str) -> Axis:
    """``KEY=VALUES`` as an :class:`Axis`: VALUES is a range ``3..9`` (or
    ``0..12:3``, every third), a comma list ``1,2,4``, ``true,false`` (or
    ``both``) for a yes/no rule, choices by name; a rule of several numbers
    (Zahltag's supply) takes its values separated by ``;``
    (``14,16,10,12;10,10,10,10``). Each value is checked against the rule's
    range; a refusal is one line naming the key."""
    game = get_game(game_name)
    key, sep, raw = str(text).partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not key or not raw:
        raise ZsimError(f"--rule {text!r} is not of the form KEY=VALUES (e.g. payday_cost=0..3 or "
                        f"hand_size=5,7,9)")
    spec = _spec(game, key)
    if spec.kind == "ints":
        items = [p for p in raw.split(";")]
    elif spec.kind == "bool" and raw.lower() == "both":
        items = ["false", "true"]
    elif ".." in raw and spec.kind in ("int", "prob"):
        items = _range(key, raw, spec)
    else:
        items = raw.split(",")
    if any(not p.strip() for p in items):
        raise ZsimError(f"--rule {key}={raw} has an empty value")
    values = tuple(parse_value(spec, p if spec.kind != "ints" else p.strip()) for p in items)
    seen = set()
    for v in values:
        if v in seen:
            raise ZsimError(f"--rule {key}={raw} gives the value {_label(v)} twice")
        seen.add(v)
    return Axis(key, values, tuple(_label(v) for v in values), spec.default)


def _range(key: str, raw: str, spec) -> list[str]:
    body, _, step_text = raw.partition(":")
    lo_text, _, hi_text = body.partition("..")
    try:
        if spec.kind == "int":
            lo, hi, step = int(lo_text), int(hi_text), int(step_text or 1)
        else:
            lo, hi, step = float(lo_text), float(hi_text), float(step_text or 0.1)
    except ValueError:
        raise ZsimError(f"--rule {key}={raw}: a range is LOW..HIGH or LOW..HIGH:STEP "
                        f"(e.g. {key}=1..5)") from None
    if step <= 0 or hi < lo:
        raise ZsimError(f"--rule {key}={raw}: a range runs from low to high in steps above 0")
    if spec.kind == "int":
        return [str(v) for v in range(lo, hi + 1, step)]
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    return [repr(round(lo + i * step, 10)) for i in range(count)]


# ---------------------------------------------------------------- the plan
@dataclass
class SweepPlan:
    game: str
    axes: list[Axis]
    players: list[int]
    games: int
    seed: int
    field: str
    fixed: tuple[str, ...]
    strong: str | None
    strong_games: int
    margin_pp: float
    deck: object = None
    points: list[Point] = field(default_factory=list)
    cells: list[dict] = field(default_factory=list)     # one per (players, values): its key and rules

    @property
    def total_games(self) -> int:
        return sum(p.games for p in self.points)

    @property
    def keys(self) -> list[str]:
        return ["players", *(a.key for a in self.axes)]


def plan(game: str, rules: list[str] | tuple[str, ...], *, players, games: int, seed: int = 0,
         field_spec: str | None = None, fixed: tuple[str, ...] = (), strong: str | None = None,
         strong_games: int | None = None, margin_pp: float = verdicts.MARGIN_PP,
         max_points: int = MAX_POINTS, deck=None) -> SweepPlan:
    """Everything a sweep will play, checked before a game is: the axes, the
    rules of every point (the game's own checks included), the grid's size."""
    g = get_game(game)
    if not rules:
        raise ZsimError(f"give a rule to sweep: --rule KEY=VALUES (`zsim rules --game {game}` lists the keys)")
    if len(rules) > MAX_KEYS:
        raise ZsimError(f"a sweep takes one or two --rule keys, got {len(rules)}")
    axes = [parse_axis(game, r) for r in rules]
    if len({a.key for a in axes}) != len(axes):
        raise ZsimError(f"--rule {axes[0].key} is swept twice; give each key once")
    swept = {a.key for a in axes}
    for item in fixed:
        key = str(item).partition("=")[0].strip()
        if key in swept:
            raise ZsimError(f"--fix {key} is also swept by --rule {key}; fix it or sweep it, not both")
    if games < 1:
        raise ZsimError(f"--games must be at least 1, got {games}")
    if max_points < 1:
        raise ZsimError(f"--max-points must be at least 1, got {max_points}")
    counts = [len(a.values) for a in axes]
    size = len(players) * math.prod(counts)
    if size > max_points:
        shape = " × ".join([f"{len(players)} player counts", *map(str, counts)])
        raise ZsimError(f"the sweep has {size} points ({shape}), over --max-points {max_points}: "
                        f"{size * games:,} games of the field alone; narrow a range, or raise --max-points")
    field_text = field_spec or g.strategies.default
    strong_spec = _strong(g, strong)
    if strong_games is None:
        strong_games = games // STRONG_SHARE if strong_spec else 0
    if strong_games < 0:
        raise ZsimError(f"--strong-games must be 0 or more, got {strong_games}")
    out = SweepPlan(game, axes, list(players), games, seed, field_text, tuple(fixed), strong_spec,
                    strong_games if strong_spec else 0, margin_pp, deck)
    for p in players:
        seats = common.field_specs(field_text, p, game)
        for combo in product(*(a.values for a in axes)):
            options = [*fixed, *(f"{a.key}={_label(v)}" for a, v in zip(axes, combo))]
            try:
                rule_set = g.parse_rules(options, p)
                m = Matchup(p, tuple(seats), rule_set, deck, game)
            except ZsimError as exc:
                where = ", ".join(f"{a.key}={_label(v)}" for a, v in zip(axes, combo))
                raise ZsimError(f"the point {where} at {p} players cannot be played: {exc}") from None
            key = {"players": p, **{a.key: _label(v) for a, v in zip(axes, combo)}}
            out.cells.append(key)
            out.points.append(Point({**key, "part": "field"}, m, games))
            if out.strong_games:
                per_seat = max(out.strong_games // p, 1)
                for s in range(p):
                    lineup = list(seats)
                    lineup[s] = strong_spec
                    out.points.append(Point({**key, "part": "strong"}, Matchup(p, tuple(lineup), rule_set, deck, game),
                                            per_seat, tested_seat=s))
    return out


def _strong(g, strong: str | None) -> str | None:
    """The strong player's spec: ``strong``, else the game's best bot (None:
    no skill edge, for ``none`` or a game that names no best bot). Not the
    search by default: at about a tenth of a second a game, a search at every
    point of a 100-point grid costs hours."""
    from zsim.strategy_registry import parse_one

    text = strong if strong is not None else g.strategies.best_bot
    if text is None or not str(text).strip() or str(text).strip().lower() == "none":
        return None
    out = parse_one(str(text), g.name)
    if not out:
        raise ZsimError("--strong is empty")
    return out


@dataclass
class Measured:
    """What a sweep's games gave, per player count (sums, see :mod:`analyses.stats`)."""
    field_games: dict[int, pl.DataFrame]
    field_seats: dict[int, pl.DataFrame]
    strong_seats: dict[int, pl.DataFrame]


class _Router:
    """Hands each chunk to the collector of its part (the field's games, the
    strong player's) and player count: a game's per-game sums need one
    player count, and the strong player's games are not the field's."""

    def __init__(self, g, keys: list[str], players: list[int]):
        self.by = {}
        for n in players:
            self.by["field", n] = Collector(keys, ["seat"], rule_metrics.seat_metrics(g), rule_metrics.game_metrics(g), frame=rule_metrics.game_frame(g))
            self.by["strong", n] = Collector(keys, ["tested"], [rule_metrics.seat_metrics(g)[0]])

    def add(self, rows: pl.DataFrame, players: int) -> None:
        self.by[rows["part"][0], players].add(rows, players)


def play(p: SweepPlan, advance=None) -> Measured:
    """Play every point (one kernel compiled for the field and the strong player alike)."""
    g = get_game(p.game)
    router = _Router(g, p.keys + ["part"], p.players)
    play_points(p.points, p.seed, [router], advance)
    out = Measured({}, {}, {})
    for n in p.players:
        field_c, strong_c = router.by["field", n], router.by["strong", n]
        out.field_games[n] = field_c.out.game.drop("part")
        out.field_seats[n] = field_c.out.seat.drop("part")
        if strong_c.out.seat is not None:
            out.strong_seats[n] = strong_c.out.seat.drop("part")
    return out


# ---------------------------------------------------------------- tables
def tables(p: SweepPlan, measured: Measured) -> dict[str, pl.DataFrame]:
    """The main table (one row per point), the seats' win shares, and the
    verdicts per point."""
    g = get_game(p.game)
    keys = p.keys
    rows, seat_rows = [], []
    for players in p.players:
        games = measured.field_games[players]
        est = stats.estimates(games, keys, rule_metrics.game_metrics(g))
        bal = stats.seat_balance(games, keys, players).select(*keys, "seat_p", "seat_spread_pp",
                                                              "seat_spread_pp_lo", "seat_spread_pp_hi")
        seat_est = stats.estimates(games, keys, [Mean(f"s{s}", f"w{s}", 1.0 / stats.WIN_UNITS)
                                                 for s in range(players)])
        own = stats.estimates(measured.field_seats[players].group_by(keys).agg(pl.exclude("seat").sum()),
                              keys, rule_metrics.seat_metrics(g)[1:]).drop("games")
        skill = _skill(measured.strong_seats.get(players), keys, players)
        t = (est.join(bal, on=keys, how="left", coalesce=True)
             .join(seat_est.drop("games"), on=keys, how="left", coalesce=True)
             .join(own, on=keys, how="left", coalesce=True))
        if skill is not None:
            t = t.join(skill, on=keys, how="left", coalesce=True)
        for r in t.iter_rows(named=True):
            shares = [r[f"s{s}"] for s in range(players)]
            halves = [r[f"s{s}_ci95"] for s in range(players)]
            v = verdicts.seats_from_shares(shares, halves, int(r["games"]), p.margin_pp)
            gap = int(np.argmax([abs(x - 1.0 / players) for x in shares]))
            signed = 100 * (shares[gap] - 1.0 / players)
            row = {k: r[k] for k in keys}
            row.update(games=r["games"], seats=v.label, seat_gap_pp=abs(signed), seat_gap_pp_ci95=100 * halves[gap],
                       seat_gap_seat=gap, seat_gap_signed_pp=signed, seat_p=r["seat_p"],
                       seat_spread_pp=r["seat_spread_pp"], seat_spread_pp_lo=r["seat_spread_pp_lo"],
                       seat_spread_pp_hi=r["seat_spread_pp_hi"])
            if skill is not None:
                e = verdicts.edge("skill", r["skill_edge_pp"], r["skill_edge_pp_ci95"], int(r["strong_games"]),
                                  p.margin_pp, subject="edge", effect="skill matters",
                                  no_effect="barely matters")
                row.update(skill=e.label, skill_edge_pp=r["skill_edge_pp"],
                           skill_edge_pp_ci95=r["skill_edge_pp_ci95"], strong_games=r["strong_games"])
            for m in rule_metrics.game_metrics(g) + rule_metrics.seat_metrics(g)[1:]:
                for suffix in ("", "_ci95", "_lo", "_hi"):
                    if f"{m.name}{suffix}" in r:
                        row[f"{m.name}{suffix}"] = r[f"{m.name}{suffix}"]
            rows.append(row)
            for s in range(players):
                seat_rows.append({**{k: r[k] for k in keys}, "seat": s, "games": r["games"],
                                  "win_share": shares[s], "win_share_ci95": halves[s]})
    main = pl.DataFrame(rows, nan_to_null=True, infer_schema_length=None)
    seats = pl.DataFrame(seat_rows, nan_to_null=True, infer_schema_length=None)
    return {"Per point": main, "Win share per seat": seats}


def _skill(sums: pl.DataFrame | None, keys: list[str], players: int) -> pl.DataFrame | None:
    """The strong seat's win share above par (pp) per point."""
    if sums is None:
        return None
    tested = sums.filter(pl.col("tested")).drop("tested")
    est = stats.estimates(tested, keys, [Mean("share", "win_units", 1.0 / stats.WIN_UNITS)])
    return est.select(*keys, pl.col("games").alias("strong_games"),
                      ((pl.col("share") - 1.0 / players) * 100).alias("skill_edge_pp"),
                      (pl.col("share_ci95") * 100).alias("skill_edge_pp_ci95"))


# ---------------------------------------------------------------- figures
#: the metrics drawn, in order: (column, axis label); those a game lacks are left out
def drawn_metrics(g, main: pl.DataFrame) -> list[tuple[str, str]]:
    out = [("seat_gap_pp", "largest seat gap to par (pp of win share)")]
    if "skill_edge_pp" in main.columns:
        out.append(("skill_edge_pp", "strong player's edge over par (pp)"))
    if "game_length" in main.columns:
        out.append(("game_length", "game length (turns)"))
    if "knockout_rate" in main.columns:
        out.append(("knockout_rate", f"{g.knockout_label} (share)"))
    if "lead_changes" in main.columns:
        out.append(("lead_changes", "lead changes per game"))
    out.append(("winner_margin", f"winner's margin ({g.score_label})"))
    return out


def _band(main: pl.DataFrame, col: str) -> tuple[list, list]:
    v = main[col].to_list()
    if f"{col}_ci95" in main.columns:
        ci = [0.0 if c is None else c for c in main[f"{col}_ci95"].to_list()]
        return [None if a is None else a - c for a, c in zip(v, ci)], [None if a is None else a + c
                                                                    for a, c in zip(v, ci)]
    return main[f"{col}_lo"].to_list(), main[f"{col}_hi"].to_list()


def line_figure(p: SweepPlan, main: pl.DataFrame, g):
    """One key: a panel per metric, a line with its 95% band per player count, the printed value shaded."""
    axis = p.axes[0]
    metrics = drawn_metrics(g, main)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in axis.values)
    xs = list(axis.values) if numeric else list(range(len(axis.values)))
    ncols = min(3, len(metrics))
    nrows = math.ceil(len(metrics) / ncols)
    fig, axes = common.figure(ncols=ncols, nrows=nrows, width=4.4, height=3.3)
    for i, (col, text) in enumerate(metrics):
        ax = axes[i // ncols][i % ncols]
        for players in p.players:
            part = main.filter(pl.col("players") == players)
            order = [part[axis.key].to_list().index(lbl) for lbl in axis.labels]
            part = part[order]
            style = common.series_style(players)
            lo, hi = _band(part, col)
            if col == "seat_gap_pp":               # a gap is never below 0
                lo = [None if v is None else max(v, 0.0) for v in lo]
            y = [float("nan") if v is None else v for v in part[col].to_list()]
            ax.plot(xs, y, label=f"{players} players", **style)
            ax.fill_between(xs, [float("nan") if v is None else v for v in lo],
                            [float("nan") if v is None else v for v in hi], color=style["color"], alpha=0.15,
                            linewidth=0)
        if col == "seat_gap_pp":
            ax.axhspan(0, p.margin_pp, color="#009e73", alpha=0.12, linewidth=0,
                       label=f"within ±{p.margin_pp:g} pp")
        if col == "skill_edge_pp":
            ax.axhline(0, color="#666", linestyle=":", linewidth=1)
        shade_printed(ax, xs if numeric else list(axis.values), axis.printed, not numeric)
        if not numeric or len(xs) <= 12:
            ax.set_xticks(xs, list(axis.labels))
        ax.set_xlabel(axis.key)
        ax.set_ylabel(text)
    for j in range(len(metrics), nrows * ncols):
        axes[j // ncols][j % ncols].axis("off")
    common.legend_below(fig, axes[0][0], ncols=5)
    fig.suptitle(f"What {axis.key} does (bands: 95% intervals)")
    return fig


def heatmap_figure(p: SweepPlan, main: pl.DataFrame, col: str, text: str):
    """Two keys: a heatmap of ``col`` per player count on one colour scale, the printed rules boxed."""
    rows_axis, cols_axis = p.axes
    vals = [v for v in main[col].to_list() if v is not None]
    lo, hi = (min(vals), max(vals)) if vals else (0.0, 1.0)
    center = 0.0 if col == "skill_edge_pp" and lo < 0 < hi else None
    fig, axes = common.figure(ncols=len(p.players), width=max(3.2, 0.55 * len(cols_axis.values) + 1.6),
                              height=max(2.6, 0.42 * len(rows_axis.values) + 1.3))
    box = None
    if rows_axis.printed_label is not None and cols_axis.printed_label is not None:
        box = [(rows_axis.labels.index(rows_axis.printed_label), cols_axis.labels.index(cols_axis.printed_label))]
    starred = col == "seat_gap_pp"          # the points whose seats are balanced within the margin
    for ax, players in zip(axes[0], p.players):
        part = main.filter(pl.col("players") == players)
        at = {(r[rows_axis.key], r[cols_axis.key]): r for r in part.iter_rows(named=True)}
        grid, cells, stars = [], [], []
        for i, rl in enumerate(rows_axis.labels):
            row, words = [], []
            for j, cl in enumerate(cols_axis.labels):
                r = at.get((rl, cl))
                v = None if r is None else r[col]
                row.append(v)
                words.append(heatmap.MISSING if v is None else (f"{v:.1f}" if col.endswith("_pp") else f"{v:.3g}"))
                if starred and r is not None and r["seats"] == "balanced":
                    stars.append((i, j))
            grid.append(row)
            cells.append(words)
        heatmap.draw(ax, grid, rows_axis.labels, cols_axis.labels, text=cells, boxes=box, stars=stars, center=center,
                     vmin=None if center is not None else lo, vmax=None if center is not None else hi,
                     colorbar=players == p.players[-1], cbar_label=text, xlabel=cols_axis.key,
                     ylabel=rows_axis.key, title=f"{players} players")
    star_label = f"seats balanced (within ±{p.margin_pp:g} pp)" if starred else None
    if box or star_label:
        heatmap.marks_legend(fig, star_label=star_label, box_label="printed rules" if box else None)
    fig.suptitle(text)
    return fig


# ---------------------------------------------------------------- words
def findings(p: SweepPlan, main: pl.DataFrame) -> list[str]:
    out = []
    for players in p.players:
        part = main.filter(pl.col("players") == players)
        balanced, uneven, unsure = (part.filter(pl.col("seats") == label).height
                                    for label in ("balanced", "uneven", "can't tell yet"))
        even = part.sort("seat_gap_pp").row(0, named=True)
        where = ", ".join(f"{a.key}={even[a.key]}" for a in p.axes)
        text = (f"{players} players: seats balanced (within ±{p.margin_pp:g} pp) at {balanced} of "
                f"{part.height} points, uneven at {uneven}, can't tell yet at {unsure}; the smallest gap "
                f"is at {where} ({_gap(even)})")
        printed = part
        for a in p.axes:
            printed = printed.filter(pl.col(a.key) == (a.printed_label or "\0"))
        if printed.height:
            r = printed.row(0, named=True)
            text += f"; at the printed rules {r['seats']} ({_gap(r)})"
        out.append(text + ".")
    if "skill_edge_pp" in main.columns:
        best = main.sort("skill_edge_pp", descending=True, nulls_last=True).row(0, named=True)
        where = ", ".join(f"{a.key}={best[a.key]}" for a in p.axes)
        out.append(f"The strong player ({p.strong}) gains most at {where}, {best['players']} players: "
                   f"{format_ci(best['skill_edge_pp'], best['skill_edge_pp_ci95'], signed=True)} pp above par.")
    return out


def _gap(r: dict) -> str:
    """The largest seat gap of a row in words: whose, its sign, its interval."""
    seat = verdicts._seat(int(r["seat_gap_seat"]), int(r["players"]))
    return f"{seat} {format_ci(r['seat_gap_signed_pp'], r['seat_gap_pp_ci95'], signed=True)} pp"


def _no_skill(g, p: SweepPlan) -> str:
    if p.strong and not p.strong_games:
        return "--strong-games 0"
    if g.strategies.best_bot:
        return "--strong none"
    return f"{g.title} names no best bot; --strong SPEC names a strong player"


def result(p: SweepPlan, measured: Measured) -> AnalysisResult:
    g = get_game(p.game)
    t = tables(p, measured)
    main = t["Per point"]
    figures = {}
    if len(p.axes) == 1:
        figures[f"What {p.axes[0].key} does, per player count"] = line_figure(p, main, g)
    else:
        for col, text in drawn_metrics(g, main):
            figures[f"{text.capitalize()} by {p.axes[0].key} and {p.axes[1].key}"] = \
                heatmap_figure(p, main, col, text)
    swept = " and ".join(f"{a.key} over {', '.join(a.labels)}" for a in p.axes)
    summary = (f"{g.title}: {swept}, {p.games:,} games a point at {', '.join(map(str, p.players))} players, "
               f"{p.field} in every seat, every point on the same deals (seed {p.seed})"
               + (f"; the skill edge: {p.strong} in one seat against that field, "
                  f"{p.strong_games:,} games a point" if p.strong_games else f"; no skill edge ({_no_skill(g, p)})")
               + f". Seats are read against a margin of ±{p.margin_pp:g} pp.")
    meta = {"game": p.game, "players": p.players, "games_per_point": p.games, "seed": p.seed, "field": p.field,
            "fixed": list(p.fixed), "swept": {a.key: list(a.labels) for a in p.axes},
            "strong": p.strong, "strong_games": p.strong_games, "margin_pp": p.margin_pp}
    words = findings(p, main)
    typed = {caption: typed_keys(frame, p.axes) for caption, frame in t.items()}
    return AnalysisResult("sweep", f"Sweep of {' × '.join(a.key for a in p.axes)}", summary, typed, figures, meta,
                          findings=words, wide=tuple(figures))


def typed_keys(frame: pl.DataFrame, axes: list[Axis]) -> pl.DataFrame:
    """The swept keys' columns as the rules' own types (whole numbers, numbers, true/false), for a
    table a program reads; a rule of several numbers or of named choices stays text."""
    casts = []
    for a in axes:
        if a.key not in frame.columns:
            continue
        if all(isinstance(v, bool) for v in a.values):
            casts.append(pl.col(a.key) == "true")
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in a.values):
            casts.append(pl.col(a.key).cast(pl.Int64))
        elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in a.values):
            casts.append(pl.col(a.key).cast(pl.Float64))
    return frame.with_columns(casts) if casts else frame


def printed_verdicts(p: SweepPlan, main: pl.DataFrame, seats: pl.DataFrame) -> list:
    """The verdict box of a sweep's page: per player count, the seats (and the
    skill edge) at the printed rules, or at the most even point when the
    sweep leaves the printed rules out."""
    from dataclasses import replace

    out = []
    for players in p.players:
        part = main.filter(pl.col("players") == players)
        at = part
        for a in p.axes:
            at = at.filter(pl.col(a.key).cast(pl.String) == (a.printed_label or "\0"))
        if at.height:
            row, where = at.row(0, named=True), "the printed rules"
        else:
            row = part.sort("seat_gap_pp").row(0, named=True)
            where = ", ".join(f"{a.key}={row[a.key]}" for a in p.axes) + ", the most even point"
        cell = seats
        for k in p.keys:
            cell = cell.filter(pl.col(k) == row[k])
        cell = cell.sort("seat")
        v = verdicts.seats_from_shares(cell["win_share"].to_list(), cell["win_share_ci95"].to_list(),
                                       int(row["games"]), p.margin_pp)
        out.append(replace(v, headline=f"{v.headline} ({where})"))
        if row.get("skill_edge_pp") is not None:
            e = verdicts.edge("Skill", row["skill_edge_pp"], row["skill_edge_pp_ci95"], int(row["strong_games"]),
                              p.margin_pp, subject=f"{p.strong} in one seat against {p.field}, above par",
                              effect=f"matters at {players} players", no_effect=f"barely matters at {players} players",
                              players=players)
            out.append(replace(e, headline=f"{e.headline} ({where})"))
    return out
