"""``zsim analyze --game zahlemann ...`` and ``zsim report --game zahlemann``:
Zahlemann & Söhne's balance questions as tables and plots."""
from __future__ import annotations

from pathlib import Path

import click

from zsim.cli_options import QUIET, SEED, THREADS, check_given

GAME = "zahlemann"


def _players_option(default: str):
    return click.option("--players", "-p", "players_list", default=default, show_default=True,
                        help="player counts, a comma list to compare side by side (within 2..4)")


FIELD = click.option("--field", default=None, metavar="SPECS",
                     help="strategies of the field: one for every seat, or a comma list used in turn "
                          "[default: shedder]")
SKILLED = click.option("--skilled", default="counter", show_default=True, metavar="SPEC",
                       help="the skilled bot of the skill figure (one seat, every seat in turn)")
WEAK = click.option("--weak", default="random", show_default=True, metavar="SPEC",
                    help="the weak bots it plays against")


def _common(f):
    from zsim.cli_analyze import AS_JSON, GAMES, OUT, PLOTS
    from zsim.cli_options import RULE

    for opt in reversed((GAMES, SEED, FIELD, RULE, OUT, PLOTS, AS_JSON, QUIET, THREADS)):
        f = opt(f)
    return f


def _setup(players_list, rules, games, seed, out, plots, refuse=(), analysis=""):
    """Checked player counts, rules, output paths: all before any game is played."""
    from analyses.zahlemann.questions import refuse_keys
    from zsim.cli_analyze import _check_games_seed, _check_out, _check_plots, _parse_int_list
    from zsim.cli_options import game_of, game_rules

    game = game_of(GAME)
    plist = _parse_int_list(players_list, "--players", game.min_players, game.max_players)
    refuse_keys(rules, refuse, analysis)
    r = game_rules(game, rules, max(plist))
    out, plots = _check_out(out), _check_plots(plots)
    _check_games_seed(games, seed)
    return plist, r, out, plots


def _skill(skilled, weak):
    from analyses.zahlemann.measure import check_spec

    return check_spec(skilled, "--skilled"), check_spec(weak, "--weak")


def _go(label, pts, quiet, threads, call, out, plots, as_json):
    from analyses.zahlemann.measure import games_of
    from zsim.cli_analyze import _play, emit

    result = _play(label, games_of(pts), quiet, threads, call)
    emit(result, out, plots, as_json)


@click.group()
def analyze_zahlemann():
    """Zahlemann & Söhne's analyses."""


@analyze_zahlemann.command("players")
@_players_option("2,3,4")
@SKILLED
@WEAK
@_common
def players_cmd(players_list, skilled, weak, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """The start seat's advantage at each player count; 2, 3 and 4 players side by side."""
    from analyses.zahlemann import questions as q

    plist, r, out, plots = _setup(players_list, rules, games, seed, out, plots)
    skill = _skill(skilled, weak)
    pts = q.players_points(plist, field, games, r, skill)
    _go("players", pts, quiet, threads, lambda adv: q.players_run(plist, field, games, seed, r, adv, skill),
        out, plots, as_json)


@analyze_zahlemann.command("variants")
@_players_option("2,4")
@SKILLED
@WEAK
@_common
def variants_cmd(players_list, skilled, weak, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """Each variant alone and all three: game length, spread of outcomes, skill."""
    from analyses.zahlemann import questions as q

    plist, r, out, plots = _setup(players_list, rules, games, seed, out, plots, q.VARIANT_KEYS, "variants")
    skill = _skill(skilled, weak)
    pts = q.variants_points(plist, field, games, r, skill)
    _go("variants", pts, quiet, threads, lambda adv: q.variants_run(plist, field, games, seed, r, adv, skill),
        out, plots, as_json)


@analyze_zahlemann.command("hand-size")
@_players_option("2,4")
@click.option("--hand-sizes", "hand_sizes", default="3..8", show_default=True,
              help="cards dealt (rule hand_size; comma list or range)")
@SKILLED
@WEAK
@_common
def hand_size_cmd(players_list, hand_sizes, skilled, weak, games, seed, field, rules, out, plots, as_json, quiet,
                  threads):
    """The dealt hand size against game length and skill."""
    from analyses.zahlemann import questions as q
    from zsim.cli_analyze import _parse_int_list
    from zsim.games.zahlemann.rules import SPEC_BY_KEY

    spec = SPEC_BY_KEY["hand_size"]
    sizes = _parse_int_list(hand_sizes, "--hand-sizes", spec.low, spec.high)
    plist, r, out, plots = _setup(players_list, rules, games, seed, out, plots, ("hand_size",), "hand-size")
    skill = _skill(skilled, weak)
    pts = q.hand_points(plist, field, games, r, sizes, skill)    # refuses a hand the deck cannot deal
    _go("hand-size", pts, quiet, threads,
        lambda adv: q.hand_run(plist, field, games, seed, r, adv, sizes, skill), out, plots, as_json)


@analyze_zahlemann.command("money")
@_players_option("2,4")
@_common
def money_cmd(players_list, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """Real coins against plain totals: how often change is missing, and what it costs the payer."""
    from analyses.zahlemann import questions as q

    plist, r, out, plots = _setup(players_list, rules, games, seed, out, plots, q.MONEY_KEYS, "money")
    pts = q.money_points(plist, field, games, r)
    _go("money", pts, quiet, threads, lambda adv: q.money_run(plist, field, games, seed, r, adv),
        out, plots, as_json)


@analyze_zahlemann.command("forget")
@_players_option("2,4")
@click.option("--forgets", default="0,0.1,0.2,0.3,0.4,0.5", show_default=True,
              help="chances of forgetting to announce (strategy parameter forget; comma list within 0..1)")
@_common
def forget_cmd(players_list, forgets, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """What forgetting 'Zahlemann' costs: win share against the chance of forgetting."""
    from analyses.zahlemann import forget as analysis

    fs = analysis.parse_forgets(forgets)
    plist, r, out, plots = _setup(players_list, rules, games, seed, out, plots)
    pts = analysis.points(plist, field, games, r, fs)
    _go("forget", pts, quiet, threads, lambda adv: analysis.run(plist, field, games, seed, r, adv, fs),
        out, plots, as_json)


def report(players_list, games, tournament_games, seed, field, rules, out, quiet, threads) -> None:
    """``zsim report --game zahlemann``: every analysis, the tournament, the metadata."""
    from analyses.report import check_target
    from analyses.zahlemann import report_run
    from zsim.cli_analyze import _check_games_seed, _parse_int_list, play_report, tournament_deals
    from zsim.cli_options import game_of, game_rules

    game = game_of(GAME)
    plist = _parse_int_list(players_list, "--players", game.min_players, game.max_players)
    report_run.check_rules(rules)
    r = game_rules(game, rules, max(plist))
    _check_games_seed(games, seed)
    deals = tournament_deals(tournament_games, games)
    target = Path(check_given(out, "--out"))
    check_target(target)
    play_report(report_run, report_run.Plan(plist, field, games, deals, seed, r), out, target, quiet, threads,
                title="zsim report: Zahlemann & Söhne")
