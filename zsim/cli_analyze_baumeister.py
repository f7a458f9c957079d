"""``zsim analyze --game baumeister ...`` and ``zsim report --game baumeister``:
Wettstreit der Baumeister's balance questions as tables and plots."""
from __future__ import annotations

from pathlib import Path

import click

from zsim.cli_options import QUIET, SEED, THREADS, check_given

GAME = "baumeister"
#: the defaults of analyses/baumeister/measure.py, named in the help (that module loads polars and numba)
_DEFAULTS = {"field": "budget", "skilled": "budget", "weak": "value"}


def _players_option(default: str):
    return click.option("--players", "-p", "players_list", default=default, show_default=True,
                        help="player counts, a comma list to compare side by side (within 2..4)")


FIELD = click.option("--field", default=None, metavar="SPECS",
                     help="strategies of the field: one for every seat, or a comma list used in turn "
                          f"[default: {_DEFAULTS['field']} in every seat]")
DECK = click.option("--deck", default=None, metavar="FILE",
                    help="building cards CSV (card,type,value,shields,coins) [default: buildings.csv]")
SKILLED = click.option("--skilled", default=None, metavar="SPEC",
                       help="the skilled bot of the skill figure (one seat, every seat in turn) "
                            f"[default: {_DEFAULTS['skilled']}]")
WEAK = click.option("--weak", default=None, metavar="SPEC",
                    help=f"the weak bots it plays against [default: {_DEFAULTS['weak']}]")


def _common(f):
    from zsim.cli_analyze import AS_JSON, GAMES, OUT, PLOTS
    from zsim.cli_options import RULE

    for opt in reversed((GAMES, SEED, FIELD, RULE, DECK, OUT, PLOTS, AS_JSON, QUIET, THREADS)):
        f = opt(f)
    return f


def _setup(players_list, rules, deck, games, seed, out, plots, field, refuse=(), analysis=""):
    """Checked player counts, rules, deck, field, output paths: all before any game is played."""
    from analyses.baumeister.measure import check_spec
    from analyses.baumeister.questions import refuse_keys
    from zsim.cli_analyze import _check_games_seed, _check_out, _check_plots, _parse_int_list
    from zsim.cli_options import game_deck, game_of, game_rules

    game = game_of(GAME)
    plist = _parse_int_list(players_list, "--players", game.min_players, game.max_players)
    refuse_keys(rules, refuse, analysis)
    r = game_rules(game, rules, max(plist))
    d = game_deck(game, deck)
    if field is not None:
        for spec in field.split(","):
            check_spec(spec, "--field entry")
    out, plots = _check_out(out), _check_plots(plots)
    _check_games_seed(games, seed)
    return plist, r, d, out, plots


def _skill(skilled, weak):
    from analyses.baumeister import measure

    return (measure.check_spec(skilled or measure.SKILLED, "--skilled"),
            measure.check_spec(weak or measure.WEAK, "--weak"))


def _go(label, total, quiet, threads, call, out, plots, as_json):
    from zsim.cli_analyze import _play, emit

    emit(_play(label, total, quiet, threads, call), out, plots, as_json)


@click.group()
def analyze_baumeister():
    """Wettstreit der Baumeister's analyses."""


@analyze_baumeister.command("players")
@_players_option("2,3,4")
@SKILLED
@WEAK
@_common
def players_cmd(players_list, skilled, weak, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """The start seat's advantage at 2, 3 and 4 players; the player counts side by side."""
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, out, plots = _setup(players_list, rules, deck, games, seed, out, plots, field)
    skill = _skill(skilled, weak)
    total = measure.games_of(q.players_points(plist, field, games, r, d, skill))
    _go("players", total, quiet, threads, lambda adv: q.players_run(plist, field, games, seed, r, d, adv, skill),
        out, plots, as_json)


@analyze_baumeister.command("prices")
@_players_option("2,4")
@_common
def prices_cmd(players_list, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """Price paid per card type, value and tenth of the game against the card's final worth."""
    from analyses.baumeister import prices

    plist, r, d, out, plots = _setup(players_list, rules, deck, games, seed, out, plots, field)
    total = prices.total_games(plist, field, games, r, d)
    _go("prices", total, quiet, threads, lambda adv: prices.run(plist, field, games, seed, r, d, adv),
        out, plots, as_json)


@analyze_baumeister.command("gates")
@_players_option("2,4")
@_common
def gates_cmd(players_list, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """What a city gate's income is worth: the same shuffles with gate coins at 0, as printed, doubled."""
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, out, plots = _setup(players_list, rules, deck, games, seed, out, plots, field)
    total = measure.games_of(q.gates_points(plist, field, games, r, d))
    _go("gates", total, quiet, threads, lambda adv: q.gates_run(plist, field, games, seed, r, d, adv),
        out, plots, as_json)


@analyze_baumeister.command("bonuses")
@_players_option("2,4")
@_common
def bonuses_cmd(players_list, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """How often cities are complete, each bonus's frequency, and which bonus decides games."""
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, out, plots = _setup(players_list, rules, deck, games, seed, out, plots, field)
    total = measure.games_of(q.bonuses_points(plist, field, games, r, d))
    _go("bonuses", total, quiet, threads, lambda adv: q.bonuses_run(plist, field, games, seed, r, d, adv),
        out, plots, as_json)


@analyze_baumeister.command("sabotage")
@_players_option("2,4")
@SKILLED
@WEAK
@_common
def sabotage_cmd(players_list, skilled, weak, games, seed, field, rules, deck, out, plots, as_json, quiet,
                 threads):
    """How much the die and the saboteurs decide: skill with the rulebook's sabotage, none, and saboteur=any."""
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, out, plots = _setup(players_list, rules, deck, games, seed, out, plots, field, q.SABOTAGE_KEYS,
                                     "sabotage")
    skill = _skill(skilled, weak)
    total = measure.games_of(q.sabotage_points(plist, field, games, r, d, skill))
    _go("sabotage", total, quiet, threads, lambda adv: q.sabotage_run(plist, field, games, seed, r, d, adv, skill),
        out, plots, as_json)


@analyze_baumeister.command("auctioneer")
@_players_option("2,3,4")
@_common
def auctioneer_cmd(players_list, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """What selling earns the auctioneer by player count, and insolvency by bot (every fair built-in one)."""
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, out, plots = _setup(players_list, rules, deck, games, seed, out, plots, field)
    total = measure.games_of(q.auctioneer_points(plist, field, games, r, d))
    _go("auctioneer", total, quiet, threads, lambda adv: q.auctioneer_run(plist, field, games, seed, r, d, adv),
        out, plots, as_json)


def report(players_list, games, tournament_games, seed, field, rules, deck, out, quiet, threads) -> None:
    """``zsim report --game baumeister``: every analysis, the tournament, the metadata."""
    from analyses.baumeister import report_run
    from analyses.baumeister.measure import check_spec
    from analyses.report import check_target
    from zsim.cli_analyze import _check_games_seed, _parse_int_list, play_report, tournament_deals
    from zsim.cli_options import game_deck, game_of, game_rules

    game = game_of(GAME)
    plist = _parse_int_list(players_list, "--players", game.min_players, game.max_players)
    report_run.check_rules(rules)
    r = game_rules(game, rules, max(plist))
    d = game_deck(game, deck)
    if field is not None:
        for spec in field.split(","):
            check_spec(spec, "--field entry")
    _check_games_seed(games, seed)
    deals = tournament_deals(tournament_games, games)
    target = Path(check_given(out, "--out"))
    check_target(target)
    play_report(report_run, report_run.Plan(plist, field, games, deals, seed, r, d), out, target, quiet, threads,
                title="zsim report: Wettstreit der Baumeister")
