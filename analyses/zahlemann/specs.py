"""Zahlemann & Söhne's analyses and report as specs (:mod:`zsim.analysis_spec`):
``zsim analyze --game zahlemann NAME``, its ``zsim.analyze`` options and ``zsim report
--game zahlemann`` are made from ``ANALYSES`` and ``REPORT``.

Cheap to import (``--help`` reads it): each analysis's modules load when it is played.
"""
from __future__ import annotations

from zsim.analysis_spec import GAMES, RULES, SEED, AnalysisSpec, Option, ReportSpec, field, ints, players
from zsim.games.zahlemann.rules import MAX_PLAYERS, MIN_PLAYERS, SPEC_BY_KEY

_HERE = "analyses.zahlemann.specs"
_HAND = SPEC_BY_KEY["hand_size"]
COMMON = (GAMES, SEED, field("shedder"), RULES)
SKILLED = Option("skilled", "counter", "the bot whose edge over weak players the edge figure measures "
                                       "(bot_edge: one seat, every seat in turn)", metavar="SPEC")
WEAK = Option("weak", "random", "the weak bots it plays against", metavar="SPEC")


def _players(default: str) -> Option:
    return players(default, f"player counts, a comma list to compare side by side (within {MIN_PLAYERS}.."
                            f"{MAX_PLAYERS})", MIN_PLAYERS, MAX_PLAYERS)


def _rules(players, rules, refuse=(), analysis=""):
    from analyses.zahlemann.questions import refuse_keys
    from zsim.analysis_spec import game_of, game_rules, rule_options

    refuse_keys(rule_options(rules), refuse, analysis)
    return game_rules(game_of("zahlemann"), rules, max(players))


def _bots(skilled, weak):
    from analyses.zahlemann.measure import check_spec
    from zsim.analysis_spec import spec_list

    return check_spec(spec_list(skilled), "--skilled"), check_spec(spec_list(weak), "--weak")


# ---------------------------------------------------------------- the plays
def players_play(*, players, skilled, weak, games, seed, field, rules):
    from analyses.zahlemann import questions as q

    r = _rules(players, rules)
    bots = _bots(skilled, weak)
    total = q.measure.games_of(q.players_points(players, field, games, r, bots))
    return total, lambda adv: q.players_run(players, field, games, seed, r, adv, bots)


def variants(*, players, skilled, weak, games, seed, field, rules):
    from analyses.zahlemann import questions as q

    r = _rules(players, rules, q.VARIANT_KEYS, "variants")
    bots = _bots(skilled, weak)
    total = q.measure.games_of(q.variants_points(players, field, games, r, bots))
    return total, lambda adv: q.variants_run(players, field, games, seed, r, adv, bots)


def hand_size(*, players, hand_sizes, skilled, weak, games, seed, field, rules):
    from analyses.zahlemann import questions as q

    r = _rules(players, rules, ("hand_size",), "hand-size")
    bots = _bots(skilled, weak)
    total = q.measure.games_of(q.hand_points(players, field, games, r, hand_sizes, bots))  # refuses a hand too large
    return total, lambda adv: q.hand_run(players, field, games, seed, r, adv, hand_sizes, bots)


def money(*, players, games, seed, field, rules):
    from analyses.zahlemann import questions as q

    r = _rules(players, rules, q.MONEY_KEYS, "money")
    total = q.measure.games_of(q.money_points(players, field, games, r))
    return total, lambda adv: q.money_run(players, field, games, seed, r, adv)


def forget(*, players, forgets, games, seed, field, rules):
    from analyses.zahlemann import forget as analysis
    from analyses.zahlemann.measure import games_of

    r = _rules(players, rules)
    total = games_of(analysis.points(players, field, games, r, forgets))
    return total, lambda adv: analysis.run(players, field, games, seed, r, adv, forgets)


def _forgets(value, flag):
    from analyses.zahlemann.forget import parse_forgets
    from zsim.errors import ZsimError

    if not isinstance(value, str):
        try:
            value = ",".join(repr(float(f)) for f in value)
        except (TypeError, ValueError):
            raise ZsimError(f"{flag} must be a comma list of chances within 0..1, got {value!r}") from None
    return parse_forgets(value)


def report_plan(*, players, games, tournament_games, seed, field, rules, deck):
    from analyses.zahlemann import report_run
    from zsim.analysis_spec import game_deck, game_of, game_rules, rule_options

    game = game_of("zahlemann")
    game_deck(game, deck)                     # a deck for a game without one: one line
    report_run.check_rules(rule_options(rules))
    r = game_rules(game, rules, max(players))
    return report_run, report_run.Plan(players, field, games, tournament_games, seed, r)


# ---------------------------------------------------------------- the specs
ANALYSES = (
    AnalysisSpec("players", "The start seat's advantage at each player count; 2, 3 and 4 players side by side.",
                 (_players("2,3,4"), SKILLED, WEAK, *COMMON), f"{_HERE}:players_play"),
    AnalysisSpec("variants", "Each variant alone and all three: game length, spread of outcomes, the bot edge over "
                             "weak bots.",
                 (_players("2,4"), SKILLED, WEAK, *COMMON), f"{_HERE}:variants"),
    AnalysisSpec("hand-size", "The dealt hand size against game length and the bot edge over weak bots.",
                 (_players("2,4"),
                  Option("hand_sizes", "3..8", "cards dealt (rule hand_size; comma list or range)",
                         ints(_HAND.low, _HAND.high)),
                  SKILLED, WEAK, *COMMON), f"{_HERE}:hand_size"),
    AnalysisSpec("money", "Real coins against plain totals: how often change is missing, and what it costs the payer.",
                 (_players("2,4"), *COMMON), f"{_HERE}:money"),
    AnalysisSpec("forget", "What forgetting 'Zahlemann' costs: win share against the chance of forgetting.",
                 (_players("2,4"),
                  Option("forgets", "0,0.1,0.2,0.3,0.4,0.5",
                         "chances of forgetting to announce (strategy parameter forget; comma list within 0..1)",
                         _forgets),
                  *COMMON), f"{_HERE}:forget"),
)

REPORT = ReportSpec("Zahlemann & Söhne: zsim report", f"{_HERE}:report_plan")
