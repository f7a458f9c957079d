"""The parts every game's report shares: the plan's common settings, the
built-in tournament, the glossary, the machine line, the seat verdicts and
the key finding on skill, worded the same for every game (each game's
``analyses/<game>/report_run.py`` builds its report from them)."""
from __future__ import annotations

import platform
from dataclasses import dataclass

import polars as pl

from analyses import common
from analyses.report_tables import label
from analyses.result import AnalysisResult
from zsim.strategy_registry import registry


def builtin_field(game: str) -> tuple[str, ...]:
    """Every fair strategy that ships with ``game``: a built-in game's from zsim's own
    strategies, a plugged-in game's from its own package (others' plugins are left out)."""
    from zsim.game_registry import get_game

    spec = get_game(game)
    own = tuple(p + "." for p in (spec.strategies.package, type(spec).__module__.split(".")[0]) if p)
    return tuple(name for name, info in registry(game).items()
                 if info.fair and info.search < 0 and info.module.startswith(own))


@dataclass(frozen=True)
class ReportPlan:
    """What a report of ``GAME`` plays: its analyses' settings and the tournament's deals."""
    players: list[int]
    field: str | None
    games: int
    deals: int
    seed: int
    rules: object

    GAME = ""          # each game's plan names its game

    def tournament_seatings(self, p: int) -> int:
        """Games per deal of the built-in tournament at ``p`` players."""
        from zsim.harness.seatings import seatings

        return len(seatings(len(builtin_field(self.GAME)), p, "rotations")[0])


def report_command(game: str, plan, out: str, default_rules, extra: tuple[str, ...] = ()) -> str:
    """The ``zsim report`` command line that plays ``plan`` of ``game`` again: its players,
    games, deals, seed and field, a ``--rule`` for each rule that differs from
    ``default_rules`` (booleans as ``true``/``false``, lists as comma lists), ``extra``
    arguments, then ``--out``."""
    import shlex

    args = ["zsim", "report", "--game", game, "--players", ",".join(map(str, plan.players)),
            "--games", str(plan.games), "--tournament-games", str(plan.deals), "--seed", str(plan.seed)]
    if plan.field:
        args += ["--field", plan.field]
    for option in rule_texts(plan.rules, default_rules):
        args += ["--rule", option]
    return " ".join(shlex.quote(a) for a in [*args, *extra, "--out", out])


def rule_texts(rules, default) -> tuple[str, ...]:
    """The ``key=value`` options that make ``default`` into ``rules`` (a list
    as a comma list, a yes/no as true/false): what a report plays besides
    the printed rules."""
    out = []
    base = default.as_dict()
    for key, value in rules.as_dict().items():
        if value != base[key]:
            text = (",".join(map(str, value)) if isinstance(value, (list, tuple))
                    else str(value).lower() if isinstance(value, bool) else str(value))
            out.append(f"{key}={text}")
    return tuple(out)


def tournament_result(plan, p: int, advance, game: str) -> AnalysisResult:
    """The built-in field of ``game`` on duplicate deals at ``p`` players (``plan``
    gives deals, seed, rules and, for a game with one, the deck)."""
    from analyses import head_to_head
    from zsim.harness.tournament import run_tournament

    entries = builtin_field(game)
    t = run_tournament(entries, p, plan.deals, plan.seed, plan.rules, getattr(plan, "deck", None),
                       design="rotations", on_games=advance, game=game)
    score = t.score_label
    table = (t.strategies()
             .rename({"win_ci95": "win_share_ci95", f"{score}_ci95": f"{score}_mean_ci95",
                      "place_ci95": "mean_place_ci95"})
             .sort("win_share", descending=True))
    top = table.row(0, named=True)
    same = getattr(t, "identical", ())
    same_text = (" Strategies that play identically in this setting (the same moves in every game "
                 "checked): " + "; ".join(f"{a} and {b}" for a, b in same) + "." if same else "")
    summary = (f"Every fair built-in strategy on duplicate deals at {p} players: {plan.deals:,} deals, each "
               f"played under {len(t.seatings)} seatings (every {p}-subset of the field, its seating "
               f"orders spread over the deals), {t.games:,} games, seed {plan.seed}. Intervals are over "
               f"deals; par is {1 / p:.3f}." + same_text)
    caption_t = f"Per strategy at {p} players"
    caption_h = f"Head to head at {p} players: share of shared games the row finished above the column"
    fig_cap = f"Head to head at {p} players (the row above the column; 95% intervals over deals)"
    figs, alts = {}, {}
    fig = head_to_head.figure(t, p)
    if fig is not None:
        figs[fig_cap] = fig
        alts[fig_cap] = head_to_head.alt_text(t)
    finding = (f"Tournament at {p} players: {top['strategy']} wins most, "
               f"{common.share_text(top['win_share'], top['win_share_ci95'])} of its games against a par of "
               f"{1 / p:.3f}.")
    return AnalysisResult(f"tournament-{p}p", f"Tournament of the built-in field ({p} players)", summary,
                          {caption_t: table, caption_h: head_to_head.matrix_table(t)}, figs,
                          meta={"deals": plan.deals, "seatings": len(t.seatings), "games": t.games},
                          alts=alts, details=(caption_h,), wide=tuple(figs), findings=[finding])


def tournament_lines(results: list[AnalysisResult]) -> list[str]:
    """The key finding on the built-in tournament: who wins most at each player count."""
    parts = []
    for r in results:
        t = r.main
        top = t.row(0, named=True)
        parts.append(f"{top['strategy']} at {r.name.removeprefix('tournament-').removesuffix('p')} players "
                     f"({common.share_text(top['win_share'], top['win_share_ci95'])})")
    return ["Tournament of the built-in field, most wins: " + ", ".join(parts) + "."]


def glossary(definitions: dict[str, str], game: str, example: str) -> AnalysisResult:
    """The report's last section: what every column (``definitions``) and every
    strategy of ``game`` means; ``example``: a rare event of the game, for the
    paragraph on rates."""
    t = columns_table(definitions)
    reg = registry(game)
    names = sorted(reg)
    strategies = pl.DataFrame({"strategy": names, "plays": [reg[n].description for n in names],
                               "fair": [reg[n].fair for n in names]})
    return AnalysisResult("glossary", "What the columns and strategies mean",
                          "A mean or a share of games carries its 95% interval as \"value ± half-width\" "
                          "(normal intervals; a ratio of sums uses the delta method with the game as the "
                          f"unit). A rate of rare events, {example}, carries its "
                          "Wilson interval as \"value [lo, hi]\", and a count of zero reads \"< hi\", "
                          "about 3.84 / games. docs/analyses.md gives every formula.",
                          {"Columns": t, "Strategies": strategies})


def columns_table(definitions: dict[str, str]) -> pl.DataFrame:
    """The glossary's table of columns: the header a report shows, the name
    in ``--json`` and ``--out`` files, and the meaning."""
    return pl.DataFrame({"column": [label(n) for n in definitions], "name": list(definitions),
                         "meaning": list(definitions.values())}, schema={"column": pl.String, "name": pl.String,
                                                                       "meaning": pl.String})


def extend_glossary(results: list[AnalysisResult]) -> None:
    """Add to the glossary among ``results`` (the result named "glossary",
    if any) the columns other results define themselves and it lacks."""
    gloss = next((r for r in results if r.name == "glossary" and "Columns" in r.tables), None)
    if gloss is None:
        return
    known = dict(zip(gloss.tables["Columns"]["name"].to_list(), gloss.tables["Columns"]["meaning"].to_list()))
    for r in results:
        for name, meaning in r.definitions.items():
            known.setdefault(name, meaning)
    gloss.tables["Columns"] = columns_table(known)


def machine() -> str:
    """The machine and the library versions, for a report's run table."""
    import numba
    import numpy

    return (f"{platform.machine()}, {numba.config.NUMBA_NUM_THREADS} threads; python {platform.python_version()}, "
            f"numba {numba.__version__}, numpy {numpy.__version__}, polars {pl.__version__}")


def seat_verdicts(results: list[AnalysisResult], margin_pp: float) -> list:
    """A seat verdict (:func:`analyses.verdicts.seats_from_shares`) per player
    count, from the first result with a "Win share per seat" table (players,
    seat, games, win_share, win_share_ci95: one row per seat)."""
    from analyses import verdicts

    seats = next((r.tables["Win share per seat"] for r in results if "Win share per seat" in r.tables), None)
    if seats is None:
        return []
    out = []
    for (p,), part in seats.sort("players", "seat").group_by(["players"], maintain_order=True):
        if part.height != p:          # more than one setting per player count: no single verdict
            continue
        out.append(verdicts.seats_from_shares(part["win_share"].to_list(), part["win_share_ci95"].to_list(),
                                              int(part["games"].min()), margin_pp))
    return out


def bot_edge_line(balance: pl.DataFrame, bot: str, weak: str) -> str:
    """The key finding on the bot edge: ``bot``'s win share above par in one seat among ``weak``,
    per player count; a heuristic's edge over weak players, not the game's skill (which the
    report measures with the strong player, :mod:`analyses.skill`)."""
    from analyses.setting_tables import bot_edge_text

    return "A bot's edge over weak players: " + bot_edge_text(balance, bot, weak)
