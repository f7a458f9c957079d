"""The ``zsim`` command line: parses options, calls :mod:`zsim.api`, prints.

Every command is one call of the public API with the options as its
arguments; what it prints is the result's ``text()`` or ``to_json()``. The
command modules import nothing else of zsim but their option and output
helpers (:mod:`zsim.cli_options`, :mod:`zsim.cli_output`); a test holds
them to it."""
from __future__ import annotations

import sys
import warnings
from contextlib import closing

import click

from zsim import __version__, api
from zsim.cli_options import DECK, GAME, PLAYERS, QUIET, RULE, SEED, STRATEGIES, THREADS
from zsim.cli_output import (EXIT_CANNOT_WRITE, caused_by_a_stop, describe_os_error, echo, echo_json,
                             exit_after_stop, exit_stopped, install_signals, setup_streams, stop_line, stream)


class _Zsim(click.Group):
    """The ``zsim`` group: a stop that ends a command (a run's
    :class:`zsim.Interrupted` saying how far it got, or Ctrl-C, SIGTERM or
    SIGHUP in ``record`` and ``replay``, which have no chunks to finish) ends
    with its one line and 128 + the signal, for every command in one place,
    before click would print a blank line of its own and abort. ``simulate``
    alone catches its stop itself, to print the games it finished."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except api.Interrupted as stop:
            exit_stopped(stop.message)
        except KeyboardInterrupt:
            exit_stopped()


@click.group(cls=_Zsim, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zsim")
def cli():
    """zsim: Monte Carlo strategy simulator for tabletop card games (`zsim games` lists them)."""


@cli.command()
@GAME
@PLAYERS
@click.option("--games", "-n", type=int, default=100_000, show_default=True,
              help="games to play (with --precision: at most)")
@SEED
@STRATEGIES
@RULE
@DECK
@click.option("--out", default=None, metavar="PATH",
              help="write one row per game per seat: FILE.parquet, or a run folder (any other path)")
@click.option("--resume", is_flag=True, help="finish the run in the --out folder (give the same options)")
@click.option("--precision", type=float, default=None, metavar="H",
              help="stop once every seat's win-share 95%% half-width is at most H")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="play chunks here, or as dask tasks")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="an existing dask cluster's scheduler: tcp://HOST:PORT, tls://HOST:PORT, or HOST:PORT "
                   "(read as tcp) (--backend dask) [default: start a LocalCluster]")
@click.option("--workers", type=int, default=None,
              help="LocalCluster worker processes (--backend dask) [default: one per core]")
@click.option("--chunk", type=int, default=65_536, show_default=True, help="games per chunk (and shard)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@THREADS
@QUIET
def simulate(game, players, games, seed, strategies, rules, deck, out, resume, precision, backend, scheduler,
             workers, chunk, as_json, threads, quiet):
    """Play many games and print one summary row per seat.

    Ctrl-C stops the run: the summary then covers the games finished, a
    .parquet --out file is not written (a run folder keeps its shards for
    --resume), and the exit status is 130."""
    if quiet:
        warnings.simplefilter("ignore")
    try:
        result = api.simulate(game=game, players=players, games=games, seed=seed, strategies=strategies,
                              rules=rules, deck=deck, out=out, resume=resume, precision=precision, backend=backend,
                              scheduler=scheduler, workers=workers, chunk=chunk, threads=threads,
                              progress=not quiet)
        stopped = False
    except api.Interrupted as stop:
        if stop.partial is None:
            exit_stopped(stop.message)
        stop_line(stop.message)
        result, stopped = stop.partial, True
    if as_json:
        echo_json(result.to_json())
    else:
        echo(result.text())
    if stopped:
        exit_after_stop()


@cli.command()
@GAME
@PLAYERS
@SEED
@click.option("--games", "-n", type=int, default=1, show_default=True, help="games to record")
@click.option("--first", type=int, default=0, show_default=True,
              help="index of the first game (game i of a run is game i of `simulate`)")
@STRATEGIES
@RULE
@DECK
@click.option("--out", default=None, metavar="FILE", help="JSON-lines file [default: stdout]")
@QUIET
def record(game, players, seed, games, first, strategies, rules, deck, out, quiet):
    """Write complete game records (JSON lines, the game's TRACE.md format).

    On a terminal, a progress bar on stderr shows the games recorded once
    the run has lasted two seconds."""
    records = api.record(game=game, players=players, seed=seed, games=games, first=first, strategies=strategies,
                         rules=rules, deck=deck, out=out, progress=not quiet)
    if out is None:
        with closing(records.jsonl()) as texts:     # its progress bar goes when the output does
            for text in texts:
                stream(text)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--check/--no-check", default=True, show_default=True,
              help="re-check every rule with the reference engine first")
@click.option("--game", "-g", "game", default=None, metavar="NAME",
              help="the game the record must be of [default: the one its start line names]")
@QUIET
def replay(file, check, game, quiet):
    """Print a readable play-by-play of a game record (its start line names the game).

    The file is read, checked and told game by game: each game is printed
    once checked, and a bad line is refused, naming the file's line, when it
    is reached. On a terminal, a progress bar on stderr shows how much of
    the file is done once the replay has lasted two seconds."""
    with closing(iter(api.replay(file, check=check, game=game, progress=not quiet))) as played:
        for one in played:
            stream(one.text)


@cli.command()
@GAME
def rules(game):
    """List the game's rule keys for --rule with their defaults and ranges."""
    for rule in api.rules(game):
        echo(rule.line())


@cli.command()
@GAME
@click.option("--json", "as_json", is_flag=True, help="print the list as JSON")
def strategies(game, as_json):
    """List the game's strategies (built-in and plugged in) with their parameters."""
    found = api.strategies(game)
    if as_json:
        echo_json([s.as_dict() for s in found])
        return
    for s in found:
        for line in s.lines():
            echo(line)


@cli.command("games")
@click.option("--json", "as_json", is_flag=True, help="print the list as JSON")
def games_command(as_json):
    """List the games zsim plays, with their player ranges."""
    found = api.games()
    if as_json:
        echo_json([g.as_dict() for g in found], ensure_ascii=False)
        return
    for g in found:
        echo(g.line())


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="print the rows as JSON")
@click.option("--games", "-n", type=int, default=200_000, show_default=True,
              help="games per fast-engine measurement")
@click.option("--repeat", type=int, default=5, show_default=True, help="repeats (median reported)")
@click.option("--reference-games", type=int, default=300, show_default=True,
              help="games per reference-engine measurement (0: skip the reference engine)")
@click.option("--startup/--no-startup", default=True, show_default=True,
              help="also time a cold start (compiling) and a warm `simulate --games 1000`")
@click.option("--memory", "memory_games", type=int, default=0, metavar="GAMES",
              help="also report the peak RSS of `simulate --games GAMES`, without and with --out DIR")
@click.option("--scaling", is_flag=True,
              help="instead: games/s against numba threads and against dask workers, with efficiency")
@click.option("--workers", type=int, default=None,
              help="--scaling: dask workers up to this many [default: one per core]")
@click.option("--strategy", default=None, metavar="SEARCH",
              help="instead: the search SEARCH (e.g. ismcts:iterations=1000) from positions of real games: "
                   "iterations/s beside the forward model's playouts/s and games/s and the batch engine's")
@click.option("--players", "-p", type=int, default=4, show_default=True, help="--strategy: players at the table")
@click.option("--positions", type=int, default=64, show_default=True,
              help="--strategy: positions of real games searched each round")
@GAME
def bench(as_json, games, repeat, reference_games, startup, memory_games, scaling, workers, strategy, players,
          positions, game):
    """Measure games per second: fast engine (1 and all threads) vs reference."""
    result = api.bench(game=game, games=games, repeat=repeat, reference_games=reference_games, startup=startup,
                       memory_games=memory_games, scaling=scaling, workers=workers, strategy=strategy,
                       players=players, positions=positions)
    if as_json:
        echo_json(result.to_json())
    else:
        echo(result.text())


def main(argv=None):
    """Entry point: bad input is one line on stderr and exit code 2, an output
    that cannot be written one line and exit code 74, a stop by Ctrl-C,
    SIGTERM or SIGHUP one line and 128 + the signal (see zsim.errors)."""
    setup_streams()   # before anything is printed
    install_signals()
    try:
        cli.main(args=argv, prog_name="zsim", standalone_mode=False)
    except api.ZsimError as exc:
        click.echo(f"zsim: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
    except click.ClickException as exc:
        click.echo(f"zsim: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except api.Interrupted as stop:
        exit_stopped(stop.message)
    except (click.exceptions.Abort, KeyboardInterrupt):
        exit_stopped()
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:
        # a write zsim did not wrap itself (every writer of zsim's does): still one line
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        click.echo(f"zsim: error: {where}{describe_os_error(exc)}", err=True)
        sys.exit(EXIT_CANNOT_WRITE)
    except MemoryError:
        click.echo("zsim: error: out of memory; try a smaller --chunk or fewer --threads", err=True)
        sys.exit(1)
    except Exception as exc:
        if not caused_by_a_stop(exc):
            raise
        exit_stopped()


# ---------------------------------------------------------------- commands in their own modules
# (one `cli.add_command` line each; keep this block just above the __main__ guard)
from zsim.cli_tournament import tournament; cli.add_command(tournament)
from zsim.cli_tune import tune; cli.add_command(tune)
from zsim.cli_analyze import analyze, ladder, report; cli.add_command(analyze); cli.add_command(report)
cli.add_command(ladder)
from zsim.cli_rules import balance, compare, sweep; cli.add_command(sweep); cli.add_command(compare)
cli.add_command(balance)
from zsim.cli_play import play; cli.add_command(play)
from zsim.cli_view import view; cli.add_command(view)


if __name__ == "__main__":
    main()
