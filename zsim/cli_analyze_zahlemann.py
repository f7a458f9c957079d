"""``zsim analyze --game zahlemann ...`` and ``zsim report --game zahlemann``:
Zahlemann & Söhne's balance questions as tables and plots."""
from __future__ import annotations

import click

from zsim.cli_analyze import AS_JSON, GAMES, OUT, PLOTS, run_analysis
from zsim.cli_options import QUIET, RULE, SEED, THREADS

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
    for opt in reversed((GAMES, SEED, FIELD, RULE, OUT, PLOTS, AS_JSON, QUIET, THREADS)):
        f = opt(f)
    return f


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
    run_analysis("players", GAME, dict(players=players_list, skilled=skilled, weak=weak, games=games,
                                       seed=seed, field=field, rules=rules),
                 out, plots, as_json, quiet, threads)


@analyze_zahlemann.command("variants")
@_players_option("2,4")
@SKILLED
@WEAK
@_common
def variants_cmd(players_list, skilled, weak, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """Each variant alone and all three: game length, spread of outcomes, skill."""
    run_analysis("variants", GAME, dict(players=players_list, skilled=skilled, weak=weak, games=games,
                                        seed=seed, field=field, rules=rules),
                 out, plots, as_json, quiet, threads)


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
    run_analysis("hand-size", GAME, dict(players=players_list, hand_sizes=hand_sizes, skilled=skilled,
                                         weak=weak, games=games, seed=seed, field=field, rules=rules),
                 out, plots, as_json, quiet, threads)


@analyze_zahlemann.command("money")
@_players_option("2,4")
@_common
def money_cmd(players_list, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """Real coins against plain totals: how often change is missing, and what it costs the payer."""
    run_analysis("money", GAME, dict(players=players_list, games=games, seed=seed, field=field, rules=rules),
                 out, plots, as_json, quiet, threads)


@analyze_zahlemann.command("forget")
@_players_option("2,4")
@click.option("--forgets", default="0,0.1,0.2,0.3,0.4,0.5", show_default=True,
              help="chances of forgetting to announce (strategy parameter forget; comma list within 0..1)")
@_common
def forget_cmd(players_list, forgets, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """What forgetting 'Zahlemann' costs: win share against the chance of forgetting."""
    run_analysis("forget", GAME, dict(players=players_list, forgets=forgets, games=games, seed=seed,
                                      field=field, rules=rules),
                 out, plots, as_json, quiet, threads)