"""Options several ``zsim`` commands share.

They live here, not in :mod:`zsim.cli`, so that command modules can import
them while ``python -m zsim.cli`` is still importing the CLI itself. Every
check of what they carry is :mod:`zsim.api`'s.
"""
from __future__ import annotations

import click

from zsim.api import DEFAULT_GAME

PLAYERS = click.option("--players", "-p", type=int, default=4, show_default=True,
                       help="players at the table (2..4)")
SEED = click.option("--seed", "-s", type=int, default=0, show_default=True, help="run seed")
STRATEGIES = click.option("--strategies", default=None,
                          help="strategy per seat, comma-separated (one name fills every seat) "
                               "[default: simple]")
RULE = click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
                    help="override a rule (repeatable); see `zsim rules`")
DECK = click.option("--deck", default=None, metavar="FILE", help="job deck CSV [default: jobs.csv]")
QUIET = click.option("--quiet", "-q", is_flag=True,
                     help="no progress bar or warnings on stderr (errors and Ctrl-C still say so)")
THREADS = click.option("--threads", type=int, default=None, help="numba threads [default: all cores]")


GAME = click.option("--game", "-g", "game", default=DEFAULT_GAME, show_default=True, metavar="NAME",
                    help="the game to play (`zsim games` lists them)")
