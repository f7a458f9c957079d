"""``zsim tune``: search a strategy's parameters for the best win share.

Registered in :mod:`zsim.cli` by one ``cli.add_command`` line; the options it
shares with other commands come from :mod:`zsim.cli_options`.
"""
from __future__ import annotations

import warnings

import click

from zsim import api
from zsim.cli_options import DECK, GAME, PLAYERS, QUIET, RULE, THREADS
from zsim.cli_output import echo, echo_json


@click.command()
@GAME
@click.argument("strategy")
@click.option("--vs", "vs", default=None,
              help="the opponents: one strategy for every other seat, or players-1 of them, "
                   "comma-separated (in seat order after the tuned one) [default: the game's "
                   "default strategy, simple for zahltag]")
@PLAYERS
@click.option("--budget", type=int, default=200_000, show_default=True, metavar="GAMES",
              help="games the search and its final race may play (the fresh evaluation is extra)")
@click.option("--batch", type=int, default=None, metavar="GAMES",
              help="games per candidate, rounded down to whole deals (a multiple of --players) "
                   "[default: budget/100, at most 2000]")
@click.option("--eval-games", type=int, default=20_000, show_default=True, metavar="GAMES",
              help="fresh games for each of the best and the default parameters, after the search "
                   "(rounded down to whole deals)")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="run seed (the whole tune follows from it)")
@click.option("--optimizer", default="DE", show_default=True,
              help="nevergrad optimiser (e.g. DE, TwoPointsDE, NoisyDE, TBPSA, OnePlusOne)")
@RULE
@DECK
@THREADS
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@QUIET
def tune(game, strategy, vs, players, budget, batch, eval_games, seed, optimizer, rules, deck, threads, as_json,
         quiet):
    """Tune STRATEGY's parameters for win share against a field.

    Every parameter of STRATEGY is searched within its bounds; each candidate
    plays duplicate deals (the same deal from every seat). The best
    parameters and the defaults are then measured on fresh deals the search
    never played.

    Ctrl-C stops it with no result (exit status 130)."""
    if quiet:
        warnings.simplefilter("ignore")
    result = api.tune(strategy, vs=vs, game=game, players=players, budget=budget, batch=batch,
                      eval_games=eval_games, seed=seed, optimizer=optimizer, rules=rules, deck=deck,
                      threads=threads, progress=not quiet)
    if as_json:
        echo_json(result.to_json())
    else:
        echo(result.text())
