"""The report's "What the rules do": each of the game's main rules
(:attr:`zsim.games.base.Game.main_rules`) swept one key at a time by the
generic sweep (:mod:`analyses.sweep`), every other rule as the report plays
it, every value on the same deals. One section for every game, written once:
the seats' verdict at each value, game length, the game's knock-outs and the
strong player's edge, a line figure per rule with the printed value shaded,
and one table of every rule and value.

It replaces Zahltag's hand-written payday sweep in the report (the same five
rules, now with the seat verdicts and the skill edge); ``zsim analyze
payday-cost`` still plays that one.
"""
from __future__ import annotations

import polars as pl

from analyses import common
from analyses import sweep as sweeping
from analyses.report_format import format_ci
from analyses.report_parts import rule_texts
from analyses.result import AnalysisResult
from zsim.game_registry import get_game

NAME = "rules"
TITLE = "What the rules do"
#: the table a program reads: one row per rule, player count and value
TABLE = "Per rule and value"


def plans(game: str, report_plan) -> list[sweeping.SweepPlan]:
    """One sweep per main rule, at the report's player counts the rule applies
    to, its games a point and its seed (a rule the report's own ``--rule``
    fixes is swept all the same: the sweep is the question)."""
    g = get_game(game)
    fixed = rule_texts(report_plan.rules, g.default_rules())
    out = []
    for main in g.main_rules:
        key = main.sweep.partition("=")[0].strip()
        counts = [p for p in report_plan.players if main.players is None or p in main.players]
        if not counts:
            continue
        out.append(sweeping.plan(game, [main.sweep], players=counts, games=report_plan.games,
                                 seed=report_plan.seed, field_spec=report_plan.field,
                                 fixed=tuple(f for f in fixed if f.partition("=")[0] != key),
                                 deck=getattr(report_plan, "deck", None)))
    return out


def total_games(game: str, report_plan) -> int:
    return sum(p.total_games for p in plans(game, report_plan))


def configured(report_plan, key: str) -> str:
    """The value the report plays ``key`` at, as a sweep labels it."""
    value = report_plan.rules.as_dict()[key]
    return sweeping._label(tuple(value) if isinstance(value, list) else value)


def run(game: str, report_plan, advance=None) -> AnalysisResult:
    g = get_game(game)
    sweeps = plans(game, report_plan)
    figures, findings, parts = {}, [], []
    for p in sweeps:
        main = sweeping.tables(p, sweeping.play(p, advance))["Per point"]
        key = p.axes[0].key
        figures[f"What {key} does, per player count (bands: 95% intervals; the printed value shaded)"] = \
            sweeping.line_figure(p, main, g)
        findings.append(rule_line(g, p, main))
        order = {label: i for i, label in enumerate(p.axes[0].labels)}
        parts.append(main.rename({key: "value"}).with_columns(
            pl.col("value").cast(pl.String), pl.lit(key).alias("rule"),
            (pl.col("value").cast(pl.String) == configured(report_plan, key)).alias("configured"))
            .sort("players", pl.col("value").replace_strict(order, return_dtype=pl.Int64)))
    table = pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()
    if parts:
        table = table.select("rule", "players", "value", "configured",
                             pl.exclude("rule", "players", "value", "configured"))
    first = sweeps[0] if sweeps else None
    strong = (f"; the skill edge is {first.strong} in one seat against that field, {first.strong_games:,} games "
              f"a point" if first is not None and first.strong_games else "")
    summary = ("Each main rule of the game on its own, every other rule as this report plays it: "
               + "; ".join(f"{p.axes[0].key} over {', '.join(p.axes[0].labels)}"
                           + ("" if p.players == sweeps[0].players else f" (at {_counts(p.players)} players)")
                           for p in sweeps)
               + (f". {first.games:,} games a point of {first.field} in every seat, every value on the same "
                  f"deals (seed {first.seed}){strong}. Seats are read against a margin of ±{first.margin_pp:g} pp; "
                  "`zsim sweep` plays any other rule the same way." if first is not None else "."))
    meta = {"swept": {p.axes[0].key: list(p.axes[0].labels) for p in sweeps},
            "games_per_point": first.games if first else 0, "seed": first.seed if first else 0,
            "strong": first.strong if first else None, "strong_games": first.strong_games if first else 0}
    return AnalysisResult(NAME, TITLE, summary, {TABLE: table}, figures, meta, findings=findings,
                          wide=tuple(figures), definitions=definitions(g))


def definitions(g) -> dict[str, str]:
    """What the table's columns mean, for the report's headers and glossary."""
    out = {"rule": "the rule swept", "value": "the rule's value at this point",
           "configured": "true at the value this report plays the rule at",
           "seats": "the seats' verdict at this point: balanced, uneven or can't tell yet",
           "seat_gap_pp": "how far the seat furthest from par wins off par, in percentage points of win share",
           "seat_gap_seat": "that seat, in play order (0 starts)",
           "seat_gap_signed_pp": "its gap with the sign: above par positive",
           "skill": "whether the strong player's edge matters at this point",
           "skill_edge_pp": "the strong player's win share in one seat against the field, above par (pp)",
           "strong_games": "games the strong player's edge is measured on",
           "game_length": "turns per game", "winner_margin": f"the winner's lead over the next seat ({g.score_label})",
           "lead_changes": "times the sole leader changed, per game"}
    if g.knockout:
        out["knockout_rate"] = f"share of {g.knockout_label}"
    for reason in g.categories.get("end_reason", ()):
        out[f"end_{reason}"] = f"share of games that ended by {reason.replace('_', ' ')}"
    for c in g.summary_columns:
        out[c.name] = c.meaning or c.name.replace("_", " ")
    return out


def _counts(players) -> str:
    return ", ".join(map(str, players))


def rule_line(g, p: sweeping.SweepPlan, main: pl.DataFrame) -> str:
    """One rule in a sentence: where the seats are even, then how far it moves
    game length, the game's knock-outs and the strong player's edge."""
    axis = p.axes[0]
    values = ", ".join(axis.labels) if len(axis.labels) <= 6 else f"{axis.labels[0]} to {axis.labels[-1]}"
    printed = f", printed {axis.printed_label}" if axis.printed_label is not None else ""
    even = []
    for players in p.players:
        part = main.filter(pl.col("players") == players)
        n = part.filter(pl.col("seats") == "balanced").height
        even.append(f"{n} of {part.height} values at {players} players")
    text = (f"{axis.key} ({values}{printed}): seats balanced within ±{p.margin_pp:g} pp at " + ", ".join(even))
    moves = [_moves(main, axis, col, words) for col, words in _measures(g, main)]
    moves = [m for m in moves if m]
    if moves:
        text += "; " + "; ".join(moves)
    return text + "."


def _measures(g, main: pl.DataFrame) -> list[tuple[str, str]]:
    out = []
    if "game_length" in main.columns:
        out.append(("game_length", "game length"))
    if "knockout_rate" in main.columns:
        out.append(("knockout_rate", g.knockout_label))
    if "skill_edge_pp" in main.columns:
        out.append(("skill_edge_pp", "the strong player's edge (pp)"))
    return out


def _moves(main: pl.DataFrame, axis, col: str, words: str) -> str:
    """``words`` from its lowest point to its highest, each with its interval and where it is."""
    rows = main.filter(pl.col(col).is_not_null()).sort(col)
    if rows.is_empty():
        return ""
    lo, hi = rows.row(0, named=True), rows.row(-1, named=True)
    if lo[col] == hi[col]:
        return f"{words} {_value(lo, col)} at every value"
    text = (f"{words} from {_value(lo, col)} ({axis.key}={lo[axis.key]}, {lo['players']} players) "
            f"to {_value(hi, col)} ({axis.key}={hi[axis.key]}, {hi['players']} players)")
    return text if _apart(lo, hi, col) else text + ", within the noise"


def _ends(row: dict, col: str) -> tuple[float, float]:
    if f"{col}_lo" in row and f"{col}_ci95" not in row:
        return row[f"{col}_lo"], row[f"{col}_hi"]
    ci = row.get(f"{col}_ci95") or 0.0
    return row[col] - ci, row[col] + ci


def _apart(lo: dict, hi: dict, col: str) -> bool:
    """Whether the 95% intervals of the lowest and the highest point do not overlap."""
    return _ends(lo, col)[1] < _ends(hi, col)[0]


def _value(row: dict, col: str) -> str:
    if f"{col}_lo" in row and f"{col}_ci95" not in row:
        return common.rate_text(row[col], row[f"{col}_lo"], row[f"{col}_hi"])
    return format_ci(row[col], row.get(f"{col}_ci95"), signed=col == "skill_edge_pp")


def key_line(result: AnalysisResult, game: str) -> str | None:
    """The report's opening line on the rules: which rule moves the seat gap,
    game length and the knock-outs most (the widest range between two of its
    values at one player count), each with its two ends."""
    t = result.tables.get(TABLE)
    if t is None or t.is_empty():
        return None
    g = get_game(game)
    parts = []
    for col, words in [("seat_gap_pp", "the largest seat gap (pp)"), *_measures(g, t)[:2]]:
        if col not in t.columns:
            continue
        best = None
        for (rule, players), part in t.filter(pl.col(col).is_not_null()).group_by(["rule", "players"]):
            part = part.sort(col)
            if part.height < 2:
                continue
            span = part[col][-1] - part[col][0]
            if not _apart(part.row(0, named=True), part.row(-1, named=True), col):
                continue                      # a range inside the noise moves nothing
            if best is None or (span, rule, players) > (best[0], best[1], best[2]):
                best = (span, rule, players, part.row(0, named=True), part.row(-1, named=True))
        if best is None or best[0] == 0:
            continue
        _, rule, players, lo, hi = best
        parts.append(f"{words} with {rule}, from {_value(lo, col)} at {lo['value']} to {_value(hi, col)} at "
                     f"{hi['value']} ({players} players)")
    if not parts:
        return ("What the rules do: no main rule moves the seat gap, game length or the knock-outs beyond "
                "the noise of these games.")
    return "What the rules do, the rule that moves each most: " + "; ".join(parts) + "."
