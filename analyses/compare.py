"""``zsim compare``: two rule sets (or two decks) of one game on the same deals.

Both sides play the same games: game *i* of side A and game *i* of side B
start from the same seed, so what differs between them is the rules alone
and most of the luck of the deal cancels out of their difference. Every
measure of :mod:`analyses.rule_metrics` is taken per game on both sides,
and its change (A less B) gets the *paired* 95% interval, from the spread
of the per-game differences. Beside it stands the interval two
independent runs of the same size would give (from each side's own
spread), and their ratio says how much sharper the pairing made it.

The seats' largest gap is compared too: the seat whose gap to par is
largest on either side is followed on both, so the change of its gap is
a mean of per-game differences like any other.

A verdict per measure reads the change against a margin: ``--margin``
percentage points for win shares and rates (shares of games), and
``--relative-margin`` percent of side B's value for every other measure
(turns, money): *changes* when the whole interval lies beyond the margin,
*no practical change* when it lies within, else *can't tell yet* with the
games that would decide it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from analyses import common, rule_metrics, stats, verdicts
from analyses.play import Point, play_points
from analyses.report_format import format_ci
from analyses.result import AnalysisResult
from analyses.stats import Share
from zsim.errors import ZsimError
from zsim.game_registry import get_game
from zsim.harness.chunks import Matchup

Z95 = stats.Z95
#: the default relative margin of measures that are not shares: percent of side B's value
RELATIVE_MARGIN = 2.0


@dataclass
class ComparePlan:
    game: str
    players: list[int]
    games: int
    seed: int
    field: str
    a: tuple[str, ...]             # side A's --rule options
    b: tuple[str, ...]             # side B's
    a_label: str
    b_label: str
    strong: str | None
    strong_games: int
    margin_pp: float
    relative_margin: float
    deck_a: object = None
    deck_b: object = None
    points: list[Point] = field(default_factory=list)

    @property
    def total_games(self) -> int:
        return sum(p.games for p in self.points)


def side_label(options: tuple[str, ...], deck_name: str | None) -> str:
    parts = list(options) + ([f"deck {deck_name}"] if deck_name else [])
    return ", ".join(parts) if parts else "the printed rules"


def plan(game: str, a: tuple[str, ...], b: tuple[str, ...], *, players: list[int], games: int, seed: int = 0,
         field_spec: str | None = None, strong: str | None = None, strong_games: int | None = None,
         margin_pp: float = verdicts.MARGIN_PP, relative_margin: float = RELATIVE_MARGIN, deck_a=None,
         deck_b=None, deck_names: tuple = (None, None)) -> ComparePlan:
    """Both sides' matchups, checked before a game is played."""
    from analyses.sweep import STRONG_SHARE, _strong

    g = get_game(game)
    if games < 2:
        raise ZsimError(f"--games must be at least 2 (a paired interval needs two games), got {games}")
    field_text = field_spec or g.strategies.default
    strong_spec = _strong(g, strong)
    if strong_games is None:
        strong_games = games // STRONG_SHARE if strong_spec else 0
    out = ComparePlan(game, list(players), games, seed, field_text, tuple(a), tuple(b),
                      side_label(tuple(a), deck_names[0]), side_label(tuple(b), deck_names[1]), strong_spec,
                      strong_games if strong_spec else 0, margin_pp, relative_margin, deck_a, deck_b)
    same = True
    for p in players:
        seats = tuple(common.field_specs(field_text, p, game))
        sides = []
        for side, options, deck in (("A", a, deck_a), ("B", b, deck_b)):
            try:
                rule_set = g.parse_rules(list(options), p)
                m = Matchup(p, seats, rule_set, deck, game)
            except ZsimError as exc:
                which = "--rule" if side == "A" else "--against"
                raise ZsimError(f"{which} at {p} players cannot be played: {exc}") from None
            sides.append(m)
            out.points.append(Point({"players": p, "side": side, "part": "field"}, m, games))
            if out.strong_games:
                per_seat = max(out.strong_games // p, 2)
                for s in range(p):
                    lineup = list(seats)
                    lineup[s] = strong_spec
                    out.points.append(Point({"players": p, "side": side, "part": "strong"},
                                            Matchup(p, tuple(lineup), rule_set, deck, game), per_seat, tested_seat=s))
        same = same and _same_game(g, *sides)
    if same:
        raise ZsimError("the two sides are the same rules and deck: give --rule KEY=VALUE (side A) or "
                        "--against KEY=VALUE (side B) where they differ")
    return out


def _same_game(g, a: Matchup, b: Matchup) -> bool:
    """Whether two matchups deal the same game: the same rules and the same cards (a deck's name aside)."""
    import json

    def cards(m: Matchup) -> str:
        deck = dict(g.manifest_extras(m).get("deck", {}))
        deck.pop("name", None)
        return json.dumps(deck, sort_keys=True, default=str)
    return a.rules == b.rules and cards(a) == cards(b)


class _Games:
    """Keeps each side's per-game frame (about 200 bytes a game), to pair
    them game by game once both sides are played."""

    def __init__(self, g):
        self.frame = rule_metrics.game_frame(g)
        self.parts: dict[tuple, list[pl.DataFrame]] = {}

    def add(self, rows: pl.DataFrame, players: int) -> None:
        side, part = rows["side"][0], rows["part"][0]
        if part == "field":
            f = self.frame(rows, [], players)
        else:
            f = (stats.with_win_units(rows, players).filter(pl.col("tested"))
                 .select("game", "seat", pl.col("win_units").cast(pl.Int64).alias("strong_units")))
        self.parts.setdefault((players, side, part), []).append(f)

    def frame_of(self, players: int, side: str, part: str) -> pl.DataFrame | None:
        chunks = self.parts.get((players, side, part))
        if not chunks:
            return None
        keys = ["game"] if part == "field" else ["seat", "game"]
        return pl.concat(chunks).sort(keys)


def play(p: ComparePlan, advance=None) -> _Games:
    out = _Games(get_game(p.game))
    play_points(p.points, p.seed, [out], advance)
    return out


@dataclass
class _Measure:
    name: str              # the table's name of the measure
    label: str             # its words
    kind: str              # "pp": a share shown in percentage points; "value": anything else
    a: np.ndarray          # per game, side A
    b: np.ndarray          # per game, side B


def _measures(g, players: int, fa: pl.DataFrame, fb: pl.DataFrame) -> list[_Measure]:
    out = []
    w = 100.0 / stats.WIN_UNITS
    for s in range(players):
        out.append(_Measure(f"win_share_seat_{s}", f"win share of seat {s} (pp)", "pp",
                            fa[f"w{s}"].to_numpy() * w, fb[f"w{s}"].to_numpy() * w))
    par = 100.0 / players
    share_a = [fa[f"w{s}"].mean() * w for s in range(players)]
    share_b = [fb[f"w{s}"].mean() * w for s in range(players)]
    seat = max(range(players), key=lambda s: max(abs(share_a[s] - par), abs(share_b[s] - par)))
    sign_a = 1.0 if share_a[seat] >= par else -1.0
    sign_b = 1.0 if share_b[seat] >= par else -1.0
    out.append(_Measure("seat_gap_pp", f"gap to par of seat {seat}, the most uneven (pp)", "pp",
                        sign_a * (fa[f"w{seat}"].to_numpy() * w - par), sign_b * (fb[f"w{seat}"].to_numpy() * w - par)))
    for m in rule_metrics.game_metrics(g):
        col = m.col
        scale = 100.0 if isinstance(m, Share) else 1.0
        kind = "pp" if isinstance(m, Share) else "value"
        words = m.name.replace("_", " ") + (" (pp of games)" if kind == "pp" else "")
        out.append(_Measure(m.name, words, kind, fa[col].to_numpy() * scale, fb[col].to_numpy() * scale))
    for c in g.summary_columns:
        scale = (100.0 if c.kind == "share" else 1.0) / players
        kind = "pp" if c.kind == "share" else "value"
        words = (c.meaning or c.name) + (" (pp, per seat)" if kind == "pp" else " (per seat)")
        out.append(_Measure(c.name, words, kind, fa[f"all_{c.source}"].to_numpy() * scale,
                            fb[f"all_{c.source}"].to_numpy() * scale))
    return out


def _row(players: int, m: _Measure, p: ComparePlan, part: str = "field") -> dict:
    a, b = m.a.astype(float), m.b.astype(float)
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    d = a - b
    half = Z95 * float(np.std(d, ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    half_a = Z95 * float(np.std(a, ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    half_b = Z95 * float(np.std(b, ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    independent = math.hypot(half_a, half_b)
    change = float(d.mean())
    margin = p.margin_pp if m.kind == "pp" else abs(float(b.mean())) * p.relative_margin / 100
    unit = "pp" if m.kind == "pp" else ""
    if margin > 0:
        v = verdicts.edge(m.name, change, half, n, margin, subject="change", effect="changes",
                          no_effect="no practical change", unit=unit or "(units)")
        label, needed = v.label, v.games_needed
    else:                   # side B's value is 0: any change is one
        label, needed = ("changes" if abs(change) > half else "no change seen"), None
    return {"players": players, "part": part, "measure": m.name, "meaning": m.label, "unit": unit,
            "a": float(a.mean()), "a_ci95": half_a, "b": float(b.mean()), "b_ci95": half_b,
            "change": change, "change_ci95": half, "independent_ci95": independent,
            "sharper": independent / half if half and half > 0 else None,
            "margin": margin, "verdict": label, "games_to_decide": needed, "games": n}


def tables(p: ComparePlan, played: _Games) -> dict[str, pl.DataFrame]:
    g = get_game(p.game)
    rows = []
    for players in p.players:
        fa, fb = played.frame_of(players, "A", "field"), played.frame_of(players, "B", "field")
        for m in _measures(g, players, fa, fb):
            rows.append(_row(players, m, p))
        sa, sb = played.frame_of(players, "A", "strong"), played.frame_of(players, "B", "strong")
        if sa is not None and sb is not None:
            w, par = 100.0 / stats.WIN_UNITS, 100.0 / players
            m = _Measure("skill_edge_pp", f"{p.strong}'s win share above par (pp)", "pp",
                         sa["strong_units"].to_numpy() * w - par, sb["strong_units"].to_numpy() * w - par)
            rows.append(_row(players, m, p, "strong"))
    t = pl.DataFrame(rows, nan_to_null=True, infer_schema_length=None).drop("part")
    return {"Change per measure": t}


def findings(p: ComparePlan, t: pl.DataFrame) -> list[str]:
    out = []
    for players in p.players:
        part = t.filter(pl.col("players") == players)
        changed = part.filter(pl.col("verdict") == "changes")
        words = [f"{r['measure']} {format_ci(r['change'], r['change_ci95'], signed=True)}"
                 + (" pp" if r["unit"] == "pp" else "") for r in changed.iter_rows(named=True)]
        sharp = part["sharper"].drop_nulls()
        text = (f"{players} players, {p.a_label} against {p.b_label}: "
                + (f"{len(words)} of {part.height} measures change ({'; '.join(words[:6])}"
                   + ("; …" if len(words) > 6 else "") + ")" if words else
                   f"no measure changes beyond its margin ({part.height} measures)"))
        if len(sharp):
            text += (f"; pairing the deals made the intervals {float(sharp.median()):.1f} times narrower "
                     f"than two independent runs (median over the measures)")
        out.append(text + ".")
    return out


def figure(p: ComparePlan, t: pl.DataFrame):
    """Each change with its paired 95% interval (dark) over the interval two
    independent runs would give (light), the margin shaded: shares in
    percentage points (top), every other measure in percent of side B's
    value (bottom); a column per player count."""
    fig, axes = common.figure(ncols=len(p.players), nrows=2, width=5.2,
                              height=0.34 * max(t.group_by("players").len()["len"]) / 2 + 1.6)
    for col, players in enumerate(p.players):
        part = t.filter(pl.col("players") == players)
        for row, (kind, unit) in enumerate((("pp", f"change (percentage points; margin ±{p.margin_pp:g})"),
                                            ("value", f"change (% of B's value; margin ±{p.relative_margin:g}%)"))):
            ax = axes[row][col]
            rows = [r for r in part.iter_rows(named=True) if _kind(r) == kind]
            if kind == "value":
                rows = [r for r in rows if r["b"]]
            scale = [1.0 if kind == "pp" else 100.0 / abs(r["b"]) for r in rows]
            y = list(range(len(rows)))[::-1]
            for yi, r, k in zip(y, rows, scale):
                if r["independent_ci95"] is not None:
                    ax.plot([(r["change"] - r["independent_ci95"]) * k, (r["change"] + r["independent_ci95"]) * k],
                            [yi, yi], color="#b8c9dc", linewidth=7, solid_capstyle="butt",
                            label="two independent runs" if yi == y[0] else None)
                ci = r["change_ci95"] or 0.0
                ax.errorbar([r["change"] * k], [yi], xerr=[[ci * k], [ci * k]], fmt="o", color="#0072B2",
                            capsize=3, label="paired (same deals)" if yi == y[0] else None)
            margin = p.margin_pp if kind == "pp" else p.relative_margin
            ax.axvspan(-margin, margin, color="#009e73", alpha=0.12, linewidth=0,
                       label="within the margin")
            ax.axvline(0, color="#666", linewidth=0.8)
            ax.set_yticks(y, [r["measure"] for r in rows])
            ax.set_ylim(-0.7, max(len(rows), 1) - 0.3)
            ax.set_xlabel(unit)
            if row == 0:
                ax.set_title(f"{players} players")
    common.legend_below(fig, axes[0][0], ncols=3)
    fig.suptitle(f"{p.a_label} against {p.b_label}: what changes")
    return fig


def _kind(r: dict) -> str:
    return "pp" if r["unit"] == "pp" else "value"


def result(p: ComparePlan, played: _Games) -> AnalysisResult:
    g = get_game(p.game)
    t = tables(p, played)
    main = t["Change per measure"]
    summary = (f"{g.title}: {p.a_label} (A) against {p.b_label} (B), {p.games:,} games a side at "
               f"{', '.join(map(str, p.players))} players, {p.field} in every seat; game i of both sides starts "
               f"from the same seed ({p.seed}), so each change carries a paired 95% interval (change_ci95), shown "
               f"beside the interval of two independent runs (independent_ci95). Verdicts read a change against "
               f"±{p.margin_pp:g} pp for shares and ±{p.relative_margin:g}% of B's value for everything else"
               + (f"; the skill edge: {p.strong} in one seat, {p.strong_games:,} games a side."
                  if p.strong_games else "."))
    meta = {"game": p.game, "players": p.players, "games": p.games, "seed": p.seed, "field": p.field,
            "a": list(p.a), "b": list(p.b), "strong": p.strong, "strong_games": p.strong_games,
            "margin_pp": p.margin_pp, "relative_margin_percent": p.relative_margin}
    figures = {f"What changes from {p.b_label} to {p.a_label}, with paired and independent intervals":
               figure(p, main)}
    return AnalysisResult("compare", f"{p.a_label} against {p.b_label}", summary, t, figures, meta,
                          findings=findings(p, main), wide=tuple(figures))
