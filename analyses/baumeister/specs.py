"""Wettstreit der Baumeister's analyses and report as specs (:mod:`zsim.analysis_spec`):
``zsim analyze --game baumeister NAME``, its ``zsim.analyze`` options and ``zsim report
--game baumeister`` are made from ``ANALYSES`` and ``REPORT``.

Cheap to import (``--help`` reads it): each analysis's modules load when it is played.
"""
from __future__ import annotations

from zsim.analysis_spec import GAMES, RULES, SEED, AnalysisSpec, Option, ReportSpec, field, players
from analyses.baumeister.fields import FIELD, SKILLED, WEAK
from zsim.games.baumeister.rules import MAX_PLAYERS, MIN_PLAYERS

_HERE = "analyses.baumeister.specs"

DECK = Option("deck", None, "building cards CSV (card,type,value,shields,coins) [default: buildings.csv]",
              metavar="FILE", show_default=False)
COMMON = (GAMES, SEED, field(f"{FIELD} in every seat"), RULES, DECK)
BOTS = (Option("skilled", None, "the bot whose edge over weak players the edge figure measures (bot_edge: one "
                                f"seat, every seat in turn) [default: {SKILLED}]", metavar="SPEC", show_default=False),
        Option("weak", None, f"the weak bots it plays against [default: {WEAK}]", metavar="SPEC",
               show_default=False))


def _players(default: str) -> Option:
    return players(default, f"player counts, a comma list to compare side by side (within {MIN_PLAYERS}.."
                            f"{MAX_PLAYERS})", MIN_PLAYERS, MAX_PLAYERS)


def _setting(players, rules, deck, field, refuse=(), analysis=""):
    """(rules, deck), every --field entry checked; a --rule the analysis sweeps refused."""
    from analyses.baumeister.measure import check_spec
    from analyses.baumeister.questions import refuse_keys
    from zsim.analysis_spec import game_deck, game_of, game_rules, rule_options

    game = game_of("baumeister")
    refuse_keys(rule_options(rules), refuse, analysis)
    r = game_rules(game, rules, max(players))
    d = game_deck(game, deck)
    if field is not None:
        for spec in field.split(","):
            check_spec(spec, "--field entry")
    return r, d


def _bots(skilled, weak):
    from analyses.baumeister.measure import check_spec
    from zsim.analysis_spec import spec_list

    return (check_spec(spec_list(skilled) or SKILLED, "--skilled"),
            check_spec(spec_list(weak) or WEAK, "--weak"))


# ---------------------------------------------------------------- the plays
def players_play(*, players, skilled, weak, games, seed, field, rules, deck):
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    r, d = _setting(players, rules, deck, field)
    bots = _bots(skilled, weak)
    total = measure.games_of(q.players_points(players, field, games, r, d, bots))
    return total, lambda adv: q.players_run(players, field, games, seed, r, d, adv, bots)


def prices(*, players, games, seed, field, rules, deck):
    from analyses.baumeister import prices as analysis

    r, d = _setting(players, rules, deck, field)
    return (analysis.total_games(players, field, games, r, d),
            lambda adv: analysis.run(players, field, games, seed, r, d, adv))


def _question(points: str, run: str):
    """The play of a question of analyses/baumeister/questions.py with no options of its own."""
    def play(*, players, games, seed, field, rules, deck):
        from analyses.baumeister import measure
        from analyses.baumeister import questions as q

        r, d = _setting(players, rules, deck, field)
        total = measure.games_of(getattr(q, points)(players, field, games, r, d))
        return total, lambda adv: getattr(q, run)(players, field, games, seed, r, d, adv)
    return play


gates = _question("gates_points", "gates_run")
bonuses = _question("bonuses_points", "bonuses_run")
auctioneer = _question("auctioneer_points", "auctioneer_run")


def sabotage(*, players, skilled, weak, games, seed, field, rules, deck):
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    r, d = _setting(players, rules, deck, field, q.SABOTAGE_KEYS, "sabotage")
    bots = _bots(skilled, weak)
    total = measure.games_of(q.sabotage_points(players, field, games, r, d, bots))
    return total, lambda adv: q.sabotage_run(players, field, games, seed, r, d, adv, bots)


def report_plan(*, players, games, tournament_games, seed, field, rules, deck):
    from analyses.baumeister import report_run
    from zsim.analysis_spec import rule_options

    report_run.check_rules(rule_options(rules))
    r, d = _setting(players, rules, deck, field)
    return report_run, report_run.Plan(players, field, games, tournament_games, seed, r, d)


# ---------------------------------------------------------------- the specs
ANALYSES = (
    AnalysisSpec("players", "The start seat's advantage at 2, 3 and 4 players; the player counts side by side.",
                 (_players("2,3,4"), *BOTS, *COMMON), f"{_HERE}:players_play"),
    AnalysisSpec("prices", "Price paid per card type, value and tenth of the game against the card's final worth.",
                 (_players("2,4"), *COMMON), f"{_HERE}:prices"),
    AnalysisSpec("gates", "What a city gate's income is worth: the same shuffles with gate coins at 0, as printed, "
                          "doubled.",
                 (_players("2,4"), *COMMON), f"{_HERE}:gates"),
    AnalysisSpec("bonuses", "How often cities are complete, each bonus's frequency, and which bonus decides games.",
                 (_players("2,4"), *COMMON), f"{_HERE}:bonuses"),
    AnalysisSpec("sabotage", "How much the die and the saboteurs decide: the bot edge over weak bots with the "
                             "rulebook's sabotage, none, and saboteur=any.",
                 (_players("2,4"), *BOTS, *COMMON), f"{_HERE}:sabotage"),
    AnalysisSpec("auctioneer", "What selling earns the auctioneer by player count, and insolvency by bot (every "
                               "fair built-in one).",
                 (_players("2,3,4"), *COMMON), f"{_HERE}:auctioneer"),
)

REPORT = ReportSpec("Wettstreit der Baumeister: zsim report", f"{_HERE}:report_plan")
