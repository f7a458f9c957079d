"""Hol's der Geier's analyses and report as specs (:mod:`zsim.analysis_spec`):
``zsim analyze --game geier NAME``, its ``zsim.analyze`` options and ``zsim report
--game geier`` are made from ``ANALYSES`` and ``REPORT``. The game object names
this module (``Geier.analyses``).

Cheap to import (``--help`` reads it): no polars, numba or matplotlib here; the
analysis's modules load when it is played.
"""
from __future__ import annotations

from zsim.analysis_spec import GAMES, RULES, SEED, AnalysisSpec, Option, ReportSpec, field, players
from zsim_geier.rules import MAX_PLAYERS, MIN_PLAYERS

GAME = "geier"
#: the field's strategy (the game's default), and the bot edge's two sides: the heuristic bot in one
#: seat and the weak bots in the others (its edge over weak players, not the game's skill)
FIELD, SKILLED, WEAK = "matcher", "matcher", "random"
#: the rule keys the analysis sets itself (a --rule of one is refused)
SWEPT = ("carry_over",)

_HERE = "zsim_geier.analyses.specs"


def _rules(players, rules, analysis: str):
    """The checked rules, a --rule of a key the analysis sets refused in one line."""
    from analyses.setting_tables import refuse_keys
    from zsim.analysis_spec import game_of, game_rules, rule_options

    refuse_keys(rule_options(rules), SWEPT, analysis)
    return game_rules(game_of(GAME), rules, max(players))


def _bots(skilled, weak) -> tuple[str, str]:
    from analyses.setting_tables import check_spec
    from zsim.analysis_spec import spec_list

    return check_spec(spec_list(skilled), "--skilled", GAME), check_spec(spec_list(weak), "--weak", GAME)


# ---------------------------------------------------------------- the play
def carry_over(*, players, skilled, weak, games, seed, field, rules):
    from zsim_geier.analyses import carry_over as analysis

    r = _rules(players, rules, "carry-over")
    bots = _bots(skilled, weak)
    total = analysis.games_of(analysis.points(players, field, games, r, bots))   # checks --field
    return total, lambda adv: analysis.run(players, field, games, seed, r, adv, bots)


def report_plan(*, players, games, tournament_games, seed, field, rules, deck):
    from zsim_geier.analyses import report_run
    from zsim.analysis_spec import game_deck, game_of

    game_deck(game_of(GAME), deck)             # Geier has no deck: a --deck is refused in one line
    r = _rules(players, rules, "report")
    plan = report_run.Plan(players, field, games, tournament_games, seed, r)
    plan.total_games()                         # checks --field (and --games against the seats)
    return report_run, plan


# ---------------------------------------------------------------- the specs
ANALYSES = (
    AnalysisSpec(
        "carry-over",
        "A fully tied table carried over to the next card or discarded: seats, ties, points lost, the bot edge "
        "over weak bots.",
        (players("2,3,4", f"player counts, a comma list to compare side by side (within {MIN_PLAYERS}.."
                          f"{MAX_PLAYERS})", MIN_PLAYERS, MAX_PLAYERS),
         Option("skilled", SKILLED, "the bot whose edge over weak players the edge figure measures "
                                    "(bot_edge: one seat, every seat in turn)", metavar="SPEC"),
         Option("weak", WEAK, "the weak bots it plays against", metavar="SPEC"),
         GAMES, SEED, field(f"{FIELD} in every seat"), RULES),
        f"{_HERE}:carry_over",
        tables=("Per setting", "Win share per seat"),
        figures=("win share per seat",
                 "fully tied rounds, points discarded, mean score and the bot's win share among weak bots"),
        findings="per player count: fully tied rounds, points discarded and mean score both ways; "
                 "the largest seat gap and the test of even seats; the bot's win share among weak bots"),
)

REPORT = ReportSpec("zsim report: Hol's der Geier", f"{_HERE}:report_plan")
