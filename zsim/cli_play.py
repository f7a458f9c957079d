"""``zsim play``: a person at the table against the bots (zsim/play_app.py)."""
from __future__ import annotations

import click

from zsim import api
from zsim.cli_options import GAME, RULE, SEED

@click.command()
@GAME
@click.option("--players", "-p", type=int, default=None, help="players at the table [default: the game's]")
@click.option("--seat", type=int, default=0, show_default=True, help="your seat (0 plays first)")
@click.option("--bots", default=None, metavar="SPECS",
              help="the other seats' strategies, one for all or a comma list in turn [default: the game's best bot]")
@RULE
@SEED
@click.option("--deal", type=int, default=0, show_default=True,
              help="which game of the seed to deal (the same seed and deal give the same cards)")
@click.option("--hint", default="ismcts", show_default=True, metavar="SPEC", help="the search that gives hints")
@click.option("--hint-iterations", type=int, default=256, show_default=True,
              help="the hint's budget per decision (a count: the same position gives the same hint)")
@click.option("--out", default=None, metavar="FILE",
              help="where the game's record goes [default: zsim-play-GAME-seedS-dealD.jsonl]")
@click.option("--serve", is_flag=True, help="play in a browser instead: serve the table at --host:--port")
@click.option("--host", default="localhost", show_default=True, help="with --serve: the address to listen on")
@click.option("--port", type=int, default=8000, show_default=True, help="with --serve: the port to listen on")
@click.option("--numbered", is_flag=True, hidden=True)    # what --serve runs: one record per browser session
def play(game, players, seat, bots, rules, seed, deal, hint, hint_iterations, out, serve, host, port, numbered):
    """Play a game against the bots in the terminal.

    You see only what your seat may see. Keys 1-9 (or the list and Enter,
    or the mouse) choose; h asks the search what it would do and what it
    makes of each option; q leaves. No take-backs: --seed and --deal deal
    the same cards again. The record is saved when the game ends, in the
    game's record format (zsim replay reads it). With --serve the same
    table opens in a browser at http://HOST:PORT (textual-serve)."""
    if serve:
        api._serve_play(game, players, seat, bots, rules, seed, deal, hint, hint_iterations, out, host, port,
                        announce=lambda line: click.echo(line, err=True))
        return
    lines = api._play_in_terminal(game, players, seat, bots, rules, seed, deal, hint, hint_iterations, out,
                                  numbered)
    if lines is None:
        click.echo("left before the end: nothing was saved", err=True)
        raise SystemExit(130)
    for line in lines:
        click.echo(line)
