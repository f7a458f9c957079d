"""``zsim tournament``: a fair tournament on duplicate deals.

The options mirror ``zsim simulate``'s; the shared ones come from
:mod:`zsim.cli_options`.
"""
from __future__ import annotations

import warnings

import click

from zsim import api
from zsim.cli_options import DECK, GAME, PLAYERS, QUIET, RULE, SEED, THREADS
from zsim.cli_output import echo, echo_json


@click.command()
@GAME
@PLAYERS
@click.option("--field", "field_spec", required=True, metavar="A,B,...",
              help="the competing strategies, comma-separated, each once (name:key=value sets "
                   "parameters); fewer than the players fill the table with copies")
@click.option("--games", "-n", type=int, default=2_000, show_default=True,
              help="deals, each played under every seating of the design (with rotations, of "
                   "the deal's cyclic order)")
@click.option("--seatings", "design", type=click.Choice(["all", "rotations"]), default="all",
              show_default=True,
              help="all: every seating of the field each deal; rotations: each table-sized subset "
                   "of the field in its P rotations, in one of its (P-1)! cyclic orders (2 at three "
                   "players, 6 at four), the orders taking contiguous blocks of the deals, equal when "
                   "--games is a multiple of (P-1)! and one deal apart otherwise; balanced like all "
                   "over the orders, fewer games per deal")
@SEED
@RULE
@DECK
@click.option("--out", default=None, metavar="FILE",
              help="write one row per game per seat (Parquet)")
@click.option("--json", "as_json", is_flag=True, help="print the tables as JSON")
@click.option("--compare-independent", is_flag=True,
              help="also play as many games on independent deals and report how much the "
                   "duplicate deals narrow the confidence intervals")
@THREADS
@QUIET
def tournament(game, players, field_spec, games, design, seed, rules, deck, out, as_json, compare_independent,
               threads, quiet):
    """Play every strategy of the field from every seat on the same deals.

    Two entries that played identical games (checked on 256 deals after the
    tournament) get a warning on stderr and are listed under "identical" in
    the JSON. Ctrl-C stops it with no results and no --out file (exit status
    130)."""
    if quiet:
        warnings.simplefilter("ignore")
    result = api.tournament(field_spec, game=game, players=players, games=games, seatings=design, seed=seed,
                            rules=rules, deck=deck, out=out, compare_independent=compare_independent,
                            threads=threads, progress=not quiet)
    if not quiet:
        for line in result.warnings:
            click.echo(line, err=True)
    if as_json:
        echo_json(result.to_json())
        return
    echo(result.text())
