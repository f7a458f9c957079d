"""The ``zsim`` command line: parses options and calls the library."""
from __future__ import annotations

import json
import os
import sys
import warnings

import click

from zsim import __version__
from zsim.cli_options import (DECK, GAME, PLAYERS, QUIET, RULE, SEED, STRATEGIES, THREADS, check_given,
                              game_of, make_matchup)
from zsim.errors import ZsimError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
    from zsim.output import parquet_output
    from zsim.progress import exit_interrupted, progress
    from zsim.signals import describe as describe_stop
    from zsim.signals import exit_code as stop_exit_code
    from zsim.signals import forget_unhandled_interrupt
    from zsim.runner import check_chunk_memory, check_out_path, set_threads, summary_json
    from zsim.backends import make_backend
    from zsim.runs import Plan, RunFolder, run

    if quiet:
        warnings.simplefilter("ignore")
    check_given(out, "--out")
    m = make_matchup(game, players, strategies, rules, deck)
    plan = Plan(m, seed, games, chunk, precision)
    set_threads(threads)
    in_flight = 1 if backend == "local" else 2 * (workers or os.cpu_count() or 1) + 1
    check_chunk_memory(min(chunk, games), players, rows=out is not None, in_flight=in_flight, game=m.game)
    target = folder = None
    if out and out.lower().endswith(".parquet"):
        if resume:
            raise ZsimError("--resume needs a run folder as --out (a path not ending in .parquet)")
        target = check_out_path(out)
    elif out:
        folder = RunFolder.open(out, plan, resume)
    elif resume:
        raise ZsimError("--resume needs --out DIR, the run folder to finish")
    engine = make_backend(backend, scheduler, workers)
    result = None
    try:
        with progress(games, "simulate", quiet) as bar:
            if target is None:
                result = run(plan, engine, folder, on_games=bar.advance)
            else:
                try:
                    with parquet_output(target) as sink:
                        result = run(plan, engine, on_games=bar.advance, on_rows=sink.write)
                        if result.interrupted:
                            raise KeyboardInterrupt   # leave by an exception: the .part file goes
                except KeyboardInterrupt:
                    if result is None:
                        raise
    finally:
        engine.close()
    summary = result.summary
    if summary.games == 0:
        exit_interrupted(f"before any of the {games:,} games finished")
    if result.interrupted:
        kept = (f"; {target} was not written" if target is not None else
                f"; {out} keeps them: the same command with --resume finishes the run" if folder else "")
        click.echo(f"zsim: {describe_stop()} after {summary.games:,} of {games:,} games; "
                   f"the summary covers the finished games{kept}", err=True)
    if as_json:
        click.echo(json.dumps(summary_json(summary), indent=1))
    else:
        how = ""
        if result.stopped_at_precision:
            how = f" (win shares within ±{precision:g}; cap {games:,})"
        elif precision is not None and not result.interrupted:
            how = f" (the cap: ±{precision:g} not reached)"
        resumed = f", {result.resumed_games:,} of them from {out}" if result.resumed_games else ""
        setup = m.spec.describe_setup(m)
        named = "" if m.game == "zahltag" else f"{m.spec.title}: "
        click.echo(f"{named}{summary.games:,} games{how}{resumed}, {players} players, seed {seed}"
                   f"{', ' + setup if setup else ''}")
        _print_table(summary.table())
    if result.interrupted:
        forget_unhandled_interrupt()
        raise SystemExit(stop_exit_code())


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
def record(game, players, seed, games, first, strategies, rules, deck, out):
    """Write complete game records (JSON lines, the game's TRACE.md format)."""
    from zsim.output import atomic_path
    from zsim.runner import check_games_and_seed, check_out_path

    check_given(out, "--out")
    m = make_matchup(game, players, strategies, rules, deck)
    check_games_and_seed(games, seed, first)
    games_iter = m.spec.record_games(m, seed, range(first, first + games))
    to_jsonl = m.spec.to_jsonl
    if out:
        with atomic_path(check_out_path(out)) as tmp, open(tmp, "w") as fh:
            for events in games_iter:
                fh.write(to_jsonl(events))
    else:
        for events in games_iter:
            _stream(to_jsonl(events))


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--check/--no-check", default=True, show_default=True,
              help="re-check every rule with the reference engine first")
@click.option("--game", "-g", "game", default=None, metavar="NAME",
              help="the game the record must be of [default: the one its start line names]")
def replay(file, check, game):
    """Print a readable play-by-play of a game record (its start line names the game)."""
    from zsim.records import read_any

    expected = game_of(game).name if game is not None else None
    for spec, events in read_any(file, expected):
        if check:
            spec.check_record(events)
        _stream(spec.play_by_play(events))


@cli.command()
@GAME
def rules(game):
    """List the game's rule keys for --rule with their defaults and ranges."""
    for s in game_of(game).rule_specs:
        if s.kind == "int":
            rng = f"{s.low}..{s.high}"
        elif s.kind == "choice":
            rng = "|".join(s.choices)
        elif s.kind == "bool":
            rng = "true|false"
        elif s.kind == "prob":
            rng = "0..1"
        else:
            rng = f"{s.names} each {s.low}..{s.high}"
        if isinstance(s.default, tuple):
            default = ",".join(map(str, s.default))
        elif isinstance(s.default, bool):
            default = str(s.default).lower()
        else:
            default = str(s.default)
        click.echo(f"{s.key:<22} {str(default):<12} {rng:<22} {s.help}")


@cli.command()
@GAME
@click.option("--json", "as_json", is_flag=True, help="print the list as JSON")
def strategies(game, as_json):
    """List the game's strategies (built-in and plugged in) with their parameters."""
    from zsim.strategy_registry import describe

    rows = describe(game_of(game).name)
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    for row in rows:
        label = "" if row["fair"] else "  [reads hidden hands: an upper bound, not fair]"
        click.echo(f"{row['name']:<12} {row['description']}{label}")
        for p in row["params"]:
            click.echo(f"    {p['name']}={p['default']:g}  ({p['low']:g}..{p['high']:g})  {p['help']}")


@cli.command("games")
@click.option("--json", "as_json", is_flag=True, help="print the list as JSON")
def games_command(as_json):
    """List the games zsim plays, with their player ranges."""
    from zsim.games import registry

    rows = [{"name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
             "description": g.description, "deck": g.has_deck,
             "rules": [s.key for s in g.rule_specs]} for g in registry().values()]
    if as_json:
        click.echo(json.dumps(rows, indent=1, ensure_ascii=False))
        return
    for r in rows:
        lo, hi = r["players"]
        click.echo(f"{r['name']:<11} {lo}-{hi} players  {r['title']}: {r['description']}")


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
@GAME
def bench(as_json, games, repeat, reference_games, startup, memory_games, scaling, workers, game):
    """Measure games per second: fast engine (1 and all threads) vs reference."""
    from zsim.bench import run_bench

    if games < 1 or repeat < 1:
        raise ZsimError("--games and --repeat must be at least 1")
    if reference_games < 0:
        raise ZsimError(f"--reference-games must be 0 (skip the reference engine) or more, "
                        f"got {reference_games}")
    name = game_of(game).name
    if scaling:
        from zsim.bench_scaling import format_rows, scaling_rows

        if workers is not None and workers < 1:
            raise ZsimError(f"--workers must be at least 1, got {workers}")
        rows = scaling_rows(games, repeat, workers, name)
        click.echo(json.dumps(rows, indent=1) if as_json else "\n".join(format_rows(rows, games, repeat, name)))
        return
    run_bench(as_json=as_json, games=games, repeat=repeat, reference_games=reference_games,
              startup=startup, memory_games=memory_games, game=name)


def _stream(text: str) -> None:
    """Write a piece of streamed output (records, a play-by-play). A reader
    that stops early (``zsim record | head``) ends the command quietly with
    status 0, as for any Unix filter; click would report status 1."""
    try:
        click.echo(text, nl=False)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())      # the interpreter's final flush goes nowhere
        raise click.exceptions.Exit(0) from None


def _print_table(frame):
    import polars as pl

    from zsim.terminal import table_formatting

    with pl.Config(tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
                   float_precision=3, tbl_width_chars=200, tbl_cols=-1, **table_formatting()):
        click.echo(str(frame))


def main(argv=None):
    """Entry point: bad input is one line on stderr and exit code 2, an output
    that cannot be written one line and exit code 74, a stop by Ctrl-C,
    SIGTERM or SIGHUP one line and 128 + the signal (see zsim.errors)."""
    from zsim.terminal import setup_streams; setup_streams()  # before anything is printed
    from zsim import signals
    from zsim.errors import EXIT_CANNOT_WRITE, describe_os_error

    signals.install()
    try:
        cli.main(args=argv, prog_name="zsim", standalone_mode=False)
    except ZsimError as exc:
        click.echo(f"zsim: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
    except click.ClickException as exc:
        click.echo(f"zsim: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except (click.exceptions.Abort, KeyboardInterrupt):
        _stopped(signals)
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
        if not signals.caused_by_a_stop(exc):
            raise
        _stopped(signals)


def _stopped(signals):
    """One line saying how the run was stopped, and 128 + the signal."""
    click.echo(f"zsim: {signals.describe()}", err=True)
    signals.forget_unhandled_interrupt()
    sys.exit(signals.exit_code())


# ---------------------------------------------------------------- commands in their own modules
# (one `cli.add_command` line each; keep this block just above the __main__ guard)
from zsim.cli_tournament import tournament; cli.add_command(tournament)
from zsim.cli_tune import tune; cli.add_command(tune)
from zsim.cli_analyze import analyze, report; cli.add_command(analyze); cli.add_command(report)


if __name__ == "__main__":
    main()
