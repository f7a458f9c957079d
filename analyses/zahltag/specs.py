"""Zahltag's analyses and report as specs (:mod:`zsim.analysis_spec`): the commands of
``zsim analyze --game zahltag``, the options of ``zsim.analyze(..., game="zahltag")`` and
``zsim report``'s plan are all made from ``ANALYSES`` and ``REPORT``.

Cheap to import (``--help`` reads it): each analysis's modules load when it is played.
"""
from __future__ import annotations

from zsim.analysis_spec import GAMES, RULES, SEED, AnalysisSpec, Option, ReportSpec, field, ints, one_int, players
from zsim.games.zahltag.rules import SPEC_BY_KEY

_COST, _HAND = SPEC_BY_KEY["payday_cost"], SPEC_BY_KEY["hand_size"]
_HERE = "analyses.zahltag.specs"

DECK = Option("deck", None, "job deck CSV [default: jobs.csv]", metavar="FILE", show_default=False)
TARGETS = Option("targets", "0..12", "target hand sizes of the tested seat (comma list or range, within 0..12)",
                 ints(0, 12))
COMMON = (GAMES, SEED, field("simple"), RULES)
PLAYER_LIST = players("4", "player count, or a comma list to compare side by side (e.g. 2,4)", 2, 4)


def _rules_deck(rules, deck):
    from zsim.analysis_spec import game_deck, game_of, game_rules

    game = game_of("zahltag")
    return game_rules(game, rules), game_deck(game, deck)


# ---------------------------------------------------------------- the plays
def hand_size(*, players, targets, deck, games, seed, field, rules):
    from analyses.zahltag import hand_size as analysis

    r, d = _rules_deck(rules, deck)
    total = sum(p.games for p in analysis.points(players, field, games, r, d, targets))
    return total, lambda adv: analysis.run(players, field, games, seed, r, d, adv, targets)


def payday_cost(*, players, deck, games, seed, field, rules):
    from analyses.zahltag import payday_cost as analysis

    r, d = _rules_deck(rules, deck)
    total = sum(p.games for n in players for p in analysis.points(n, field, games, r, d))
    return total, lambda adv: analysis.run(players, field, games, seed, r, d, adv)


def players_play(*, players, deck, games, seed, field, rules):
    from analyses.zahltag import players as analysis

    r, d = _rules_deck(rules, deck)
    main, know = analysis.points(players, field, games, r, d)
    total = sum(p.games for p in main + know)
    return total, lambda adv: analysis.run(players, field, games, seed, r, d, adv)


def deck(*, players, decks, perturb, games, seed, field, rules):
    from analyses.common import field_specs
    from analyses.zahltag import deck as analysis
    from zsim.analysis_spec import game_deck, game_of, game_rules
    from zsim.harness.chunks import Matchup

    if decks is None or isinstance(decks, str) or not hasattr(decks, "__iter__"):
        decks = () if decks is None else (decks,)
    game = game_of("zahltag")
    r = game_rules(game, rules)
    extra = [game_deck(game, f) for f in decks]
    for n in players:
        seats = tuple(field_specs(field, n))
        for d in extra:
            Matchup(n, seats, r, d)   # refuses a deck the supply cannot serve, before any game
    total = games * (1 + len(extra) + perturb) * len(players)
    return total, lambda adv: analysis.run(players, field, games, seed, r, extra, perturb, adv)


def tradeoff(*, players, targets, costs, hand_sizes, deck, games, seed, field, rules):
    from analyses.zahltag import tradeoff as analysis
    from zsim.analysis_spec import int_list, rule_options

    ks = int_list(targets, "--targets", *analysis.target_limits())
    analysis.check_rule_keys(item.partition("=")[0].strip() for item in rule_options(rules))
    r, d = _rules_deck(rules, deck)
    total = analysis.total_games(players, field, games, r, d, ks, costs, hand_sizes)
    return total, lambda adv: analysis.run(players, field, games, seed, r, d, adv, ks, costs, hand_sizes)


def report_plan(*, players, games, tournament_games, seed, field, rules, deck):
    from analyses.zahltag import report_run

    r, d = _rules_deck(rules, deck)
    return report_run, report_run.Plan(players, field, games, tournament_games, seed, r, d)


# ---------------------------------------------------------------- the specs
ANALYSES = (
    AnalysisSpec(
        "hand-size", "One seat's target hand size (handsize:target=K) against a fixed field.",
        (Option("players", 4, "players at the table (2..4)", one_int(2, 4), short="-p", cli="int"), TARGETS, DECK,
         *COMMON),
        f"{_HERE}:hand_size"),
    AnalysisSpec(
        "payday-cost", "Sweep the payday rules one at a time and report game balance.",
        (PLAYER_LIST, DECK, *COMMON), f"{_HERE}:payday_cost"),
    AnalysisSpec(
        "players", "The same field at 2, 3 and 4 players, and what counting cards is worth.",
        (players("2,3,4", "player counts to compare (comma list)", 2, 4), DECK, *COMMON),
        f"{_HERE}:players_play"),
    AnalysisSpec(
        "deck", "The headline figures for the default deck, user decks and perturbed decks.",
        (PLAYER_LIST,
         Option("decks", (), "a job deck CSV to compare with the default (repeatable)", metavar="FILE",
                cli="many", long="--deck", show_default=False),
         Option("perturb", 3, "random perturbations of the default deck to add (0..50)", one_int(0, 50), cli="int"),
         *COMMON),
        f"{_HERE}:deck"),
    AnalysisSpec(
        "tradeoff", "Hand size against payday cost: the best target hand at each payday cost,\n"
                    "and what the dealt hand size does to the field.",
        (players("2,3,4", "player counts to sweep (comma list)", 2, 4),
         Option("targets", "0..12", TARGETS.help),   # checked against the tested strategy's own range
         Option("costs", "0..3", "payday costs to sweep (rule payday_cost; comma list or range)",
                ints(_COST.low, _COST.high)),
         Option("hand_sizes", "3..11", "cards dealt in the field's rule grid (rule hand_size; comma list or range)",
                ints(_HAND.low, _HAND.high)),
         DECK, *COMMON),
        f"{_HERE}:tradeoff"),
)

REPORT = ReportSpec("Zahltag: zsim report", f"{_HERE}:report_plan")
