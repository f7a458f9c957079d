"""``zsim analyze --game baumeister ...`` and ``zsim report --game baumeister``:
Wettstreit der Baumeister's balance questions as tables and plots."""
from __future__ import annotations

import click

from zsim.cli_analyze import AS_JSON, GAMES, OUT, PLOTS, run_analysis
from zsim.cli_options import QUIET, RULE, SEED, THREADS

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
    for opt in reversed((GAMES, SEED, FIELD, RULE, DECK, OUT, PLOTS, AS_JSON, QUIET, THREADS)):
        f = opt(f)
    return f


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
    run_analysis("players", GAME, dict(players=players_list, skilled=skilled, weak=weak, games=games,
                                       seed=seed, field=field, rules=rules, deck=deck),
                 out, plots, as_json, quiet, threads)


@analyze_baumeister.command("prices")
@_players_option("2,4")
@_common
def prices_cmd(players_list, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """Price paid per card type, value and tenth of the game against the card's final worth."""
    run_analysis("prices", GAME, dict(players=players_list, games=games, seed=seed, field=field, rules=rules,
                                      deck=deck),
                 out, plots, as_json, quiet, threads)


@analyze_baumeister.command("gates")
@_players_option("2,4")
@_common
def gates_cmd(players_list, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """What a city gate's income is worth: the same shuffles with gate coins at 0, as printed, doubled."""
    run_analysis("gates", GAME, dict(players=players_list, games=games, seed=seed, field=field, rules=rules,
                                     deck=deck),
                 out, plots, as_json, quiet, threads)


@analyze_baumeister.command("bonuses")
@_players_option("2,4")
@_common
def bonuses_cmd(players_list, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """How often cities are complete, each bonus's frequency, and which bonus decides games."""
    run_analysis("bonuses", GAME, dict(players=players_list, games=games, seed=seed, field=field, rules=rules,
                                       deck=deck),
                 out, plots, as_json, quiet, threads)


@analyze_baumeister.command("sabotage")
@_players_option("2,4")
@SKILLED
@WEAK
@_common
def sabotage_cmd(players_list, skilled, weak, games, seed, field, rules, deck, out, plots, as_json, quiet,
                 threads):
    """How much the die and the saboteurs decide: skill with the rulebook's sabotage, none, and saboteur=any."""
    run_analysis("sabotage", GAME, dict(players=players_list, skilled=skilled, weak=weak, games=games,
                                        seed=seed, field=field, rules=rules, deck=deck),
                 out, plots, as_json, quiet, threads)


@analyze_baumeister.command("auctioneer")
@_players_option("2,3,4")
@_common
def auctioneer_cmd(players_list, games, seed, field, rules, deck, out, plots, as_json, quiet, threads):
    """What selling earns the auctioneer by player count, and insolvency by bot (every fair built-in one)."""
    run_analysis("auctioneer", GAME, dict(players=players_list, games=games, seed=seed, field=field,
                                          rules=rules, deck=deck),
                 out, plots, as_json, quiet, threads)