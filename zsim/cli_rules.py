"""``zsim sweep``, ``zsim compare`` and ``zsim balance``: a designer's rule
questions without a developer.

Registered in :mod:`zsim.cli` by one ``cli.add_command`` line; every check
and the run itself are :func:`zsim.api.sweep`'s.
"""
from __future__ import annotations

import click

from zsim import api
from zsim.cli_options import DECK, GAME, QUIET, THREADS
from zsim.cli_output import echo, echo_json


def _show(result, as_json: bool) -> None:
    """The result as the command prints it: its text, or its tables as JSON."""
    if as_json:
        echo_json(result.to_json(), default=str)
    else:
        echo(result.text())


def table(unit: str, seed_help: str):
    """The options every rule-design command shares: the players and games
    of a ``unit`` (a point, a side), the seed, the field and the strong player."""
    options = [
        click.option("--players", "-p", default=None, metavar="COUNTS",
                     help="player counts, e.g. 4 or 2,3,4 [default: every count the game takes]"),
        click.option("--games", "-n", type=int, default=20_000, show_default=True,
                     help=f"games of the field per {unit}"),
        click.option("--seed", "-s", type=int, default=0, show_default=True, help=f"run seed: {seed_help}"),
        click.option("--field", default=None, metavar="SPECS",
                     help="the strategies at the table: one for every seat, or a comma list in seat order "
                          "[default: the game's default strategy]"),
        click.option("--strong", default=None, metavar="SPEC",
                     help="the strong player of the skill edge, in one seat against the field (a fair strategy; "
                          "'none' for no skill edge; a search such as ismcts costs about 0.1 s a game) "
                          "[default: the game's best bot: undercut, counter, budget]"),
        click.option("--strong-games", type=int, default=None, metavar="GAMES",
                     help=f"games per {unit} of the strong player, every seat in turn [default: --games / 10]"),
    ]

    def apply(f):
        for option in reversed(options):
            f = option(f)
        return f
    return apply


@click.command()
@GAME
@click.option("--rule", "rules", multiple=True, required=True, metavar="KEY=VALUES",
              help="a rule to sweep, once or twice: a range (hand_size=5..9, payday_cost=0..12:3), a list "
                   "(tie_discount=0,1,2), true,false or both; a rule of several numbers takes its values "
                   "separated by ; (`zsim rules` lists the keys)")
@click.option("--fix", "fixed", multiple=True, metavar="KEY=VALUE",
              help="a rule held at VALUE at every point (repeatable)")
@table("point", "every point plays the same deals from it")
@click.option("--margin", type=float, default=1.0, show_default=True, metavar="PP",
              help="practical margin of the seat verdicts, in percentage points of win share")
@click.option("--max-points", type=int, default=400, show_default=True,
              help="refuse a grid of more points (player counts × values) than this")
@DECK
@click.option("--out", default=None, metavar="FILE",
              help="write the table of points to FILE (.parquet or .csv), the seats' table beside it")
@click.option("--plots", default=None, metavar="DIR", help="save every figure as a PNG in DIR")
@click.option("--report", default=None, metavar="DIR",
              help="write the sweep as a page (index.html, report.md, figures/) into DIR")
@click.option("--json", "as_json", is_flag=True, help="print the tables as JSON")
@QUIET
@THREADS
def sweep(game, rules, fixed, players, games, seed, field, strong, strong_games, margin, max_points, deck, out,
          plots, report, as_json, quiet, threads):
    """Sweep one or two rules of any game over their values.

    Every point plays the field on the same deals (common random numbers) and
    reports, for every game alike: each seat's win share and the largest
    gap to par with its verdict against --margin, game length, how games
    end, knock-outs, lead changes, the winner's margin, the game's own
    summary columns and the strong player's edge over par. One rule draws
    lines with 95% bands, two draw heatmaps per player count; the printed
    rules are marked.

    Ctrl-C stops it with nothing written (exit status 130)."""
    result = api.sweep(list(rules), game=game, players=players, games=games, seed=seed, field=field,
                       fixed=list(fixed), strong=strong, strong_games=strong_games, margin=margin,
                       max_points=max_points, deck=deck, out=out, plots=plots, report=report, threads=threads,
                       progress=not quiet)
    _show(result, as_json)


@click.command()
@GAME
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
              help="side A's rules (repeatable) [default: the printed rules]")
@click.option("--against", "against", multiple=True, metavar="KEY=VALUE",
              help="side B's rules (repeatable) [default: the printed rules]")
@table("side", "game i of both sides starts from the same deal")
@click.option("--margin", type=float, default=1.0, show_default=True, metavar="PP",
              help="practical margin of a change in a share (win share, a rate), in percentage points")
@click.option("--relative-margin", type=float, default=2.0, show_default=True, metavar="PERCENT",
              help="practical margin of a change in any other measure, in percent of side B's value")
@DECK
@click.option("--against-deck", default=None, metavar="FILE", help="side B's deck [default: the game's own]")
@click.option("--out", default=None, metavar="FILE", help="write the table of changes to FILE (.parquet or .csv)")
@click.option("--plots", default=None, metavar="DIR", help="save the figure as a PNG in DIR")
@click.option("--json", "as_json", is_flag=True, help="print the table as JSON")
@QUIET
@THREADS
def compare(game, rules, against, players, games, seed, field, strong, strong_games, margin, relative_margin, deck,
            against_deck, out, plots, as_json, quiet, threads):
    """Compare two rule sets (or two decks) on the same deals.

    Side A (--rule, --deck) and side B (--against, --against-deck) play the
    same games: game i of both starts from the same seed. Every measure of
    `zsim sweep` gets its change (A less B) with a paired 95% interval, the
    interval two independent runs would give beside it, and a verdict:
    changes, no practical change, or can't tell yet.

    Ctrl-C stops it with nothing written (exit status 130)."""
    result = api.compare(list(rules), list(against), game=game, players=players, games=games, seed=seed,
                         field=field, strong=strong, strong_games=strong_games, margin=margin,
                         relative_margin=relative_margin, deck=deck, against_deck=against_deck, out=out,
                         plots=plots, threads=threads, progress=not quiet)
    _show(result, as_json)


@click.command()
@GAME
@click.option("--free", "free", multiple=True, required=True, metavar="KEY=VALUES",
              help="a rule the search may set, over its values (as sweep's --rule: 0..3, 5,7,9, both); repeatable")
@click.option("--target", "targets", multiple=True, required=True, metavar="METRIC<=X|METRIC>=X|METRIC=LO..HI",
              help="a bound every player count must meet, e.g. seat_gap<=0.01 (shares as fractions), "
                   "skill_edge>=0.10, turns=25..40; repeatable")
@click.option("--rule", "fixed", multiple=True, metavar="KEY=VALUE", help="a rule held at VALUE (repeatable)")
@click.option("--players", "-p", default=None, metavar="COUNTS",
              help="player counts the targets must hold at, e.g. 4 or 2,3,4 [default: every count the game takes]")
@click.option("--budget", type=int, default=400_000, show_default=True, metavar="GAMES",
              help="games the search and its race may play (the one-step table plays a few more)")
@click.option("--batch", type=int, default=None, metavar="GAMES",
              help="games of a block, per setting and player count [default: budget / 100, 200..5000]")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="run seed: every setting plays the same deals, and the search follows from it")
@click.option("--field", default=None, metavar="SPECS",
              help="the strategies at the table [default: the game's default strategy]")
@click.option("--strong", default=None, metavar="SPEC",
              help="the strong player of a skill_edge target [default: the game's best bot]")
@click.option("--optimizer", default="NGOpt", show_default=True,
              help="nevergrad optimiser (e.g. NGOpt, DiscreteOnePlusOne, PortfolioDiscreteOnePlusOne)")
@DECK
@click.option("--run", default=None, metavar="DIR",
              help="keep every block played in DIR; the same command resumes a stopped search from it")
@click.option("--out", default=None, metavar="FILE", help="write the settings' table to FILE (.parquet or .csv)")
@click.option("--json", "as_json", is_flag=True, help="print the tables as JSON")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="play each block here, or its chunks as dask tasks side by side")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="an existing dask cluster's scheduler (--backend dask) [default: start a LocalCluster]")
@click.option("--workers", type=int, default=None,
              help="LocalCluster worker processes (--backend dask) [default: one per core]")
@QUIET
@THREADS
def balance(game, free, targets, fixed, players, budget, batch, seed, field, strong, optimizer, deck, run, out,
            as_json, backend, scheduler, workers, quiet, threads):
    """Search the free rules for settings that meet the targets.

    Every setting plays the same deals, block by block, until each target's
    95% interval lies inside or outside its bound (or 4 blocks); nevergrad
    proposes the settings, the best race on further blocks, and the answer
    gives the settings found, each target's value at the best setting and
    at the printed rules, and what one step of each free key breaks.

    Ctrl-C stops it; with --run the blocks played are kept and the same
    command resumes (exit status 130). --backend dask plays each block's
    chunks side by side on a dask cluster, with the same result."""
    result = api.balance(list(free), list(targets), game=game, players=players, budget=budget, batch=batch,
                         seed=seed, field=field, fixed=list(fixed), strong=strong, optimizer=optimizer, deck=deck,
                         run=run, out=out, backend=backend, scheduler=scheduler, workers=workers,
                         threads=threads, progress=not quiet)
    _show(result, as_json)
