"""``zsim view``: each game of a record as a page to step through (zsim/viewer.py)."""
from __future__ import annotations

import click

from zsim import api
from zsim.cli_options import QUIET


@click.command()
@click.argument("record", metavar="RECORD")
@click.option("--out", required=True, metavar="DIR", help="a new (or empty) folder for the pages")
@click.option("--continuations", type=int, default=64, show_default=True,
              help="games played on from each position for the chances of winning (0: none)")
@click.option("--hint", default="ismcts", show_default=True, metavar="SPEC",
              help="the search whose view of a person's decisions the page shows")
@click.option("--hint-iterations", type=int, default=256, show_default=True,
              help="that search's budget per decision (0: no hints)")
@click.option("--threshold", type=float, default=0.9, show_default=True,
              help="the winner's chance of winning from which a game counts as decided")
@click.option("--games", "-n", type=int, default=None, help="view only the record's first N games [default: all]")
@QUIET
def view(record, out, continuations, hint, hint_iterations, threshold, games, quiet):
    """Write each game of RECORD as a page to step through, move by move.

    A page shows every seat's view (all hands only in "all seats"), every
    move as each seat could tell it, the search's visit counts where a
    search decided (or, for a person's move, what it would have done),
    and each seat's chance of winning after every move with its interval.
    The pages are self-contained HTML: open DIR/index.html in a browser."""
    pages = api.view(record, out, continuations=continuations, hint=hint, hint_iterations=hint_iterations,
                     threshold=threshold, games=games, quiet=quiet)
    click.echo(f"{len(pages) - 1} game page{'s' if len(pages) != 2 else ''} in {pages[0].parent}: "
               f"open {pages[0]}")
