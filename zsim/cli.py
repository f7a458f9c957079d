"""The ``zsim`` command line: parses options and calls the library."""
from __future__ import annotations

import json
import sys
import warnings

import click

from zsim import __version__
from zsim.cli_options import DECK, PLAYERS, QUIET, RULE, SEED, STRATEGIES, THREADS
from zsim.errors import ZsimError



def _matchup(players, strategies, rules, deck):
    from zsim.games.zahltag.deck import load_deck
    from zsim.games.zahltag.rules import parse_rule_options
    from zsim.runner import Matchup
    from zsim.strategy_registry import parse_strategies

    if not 2 <= players <= 4:
        raise ZsimError(f"--players must be 2..4, got {players}")
    return Matchup(players, tuple(parse_strategies(strategies, players)),
                   parse_rule_options(rules), load_deck(deck))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zsim")
def cli():
    """zsim: Monte Carlo strategy simulator for Zahltag."""


@cli.command()
@PLAYERS
@click.option("--games", "-n", type=int, default=100_000, show_default=True, help="games to play")
@SEED
@STRATEGIES
@RULE
@DECK
@click.option("--out", default=None, metavar="FILE", help="write one row per game per seat (Parquet)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@THREADS
@QUIET
def simulate(players, games, seed, strategies, rules, deck, out, as_json, threads, quiet):
    """Play many games and print one summary row per seat.

    Ctrl-C stops the run: the summary then covers the games finished, no
    --out file is written, and the exit status is 130."""
    from zsim.output import parquet_output
    from zsim.progress import INTERRUPTED_EXIT, exit_interrupted, progress
    from zsim.runner import (check_games_and_seed, check_out_path, rows_frame, set_threads,
                             simulate as run, summary_json)

    if quiet:
        warnings.simplefilter("ignore")
    m = _matchup(players, strategies, rules, deck)
    check_games_and_seed(games, seed)
    set_threads(threads)
    target = check_out_path(out) if out else None
    summary, stopped = None, False
    with progress(games, "simulate", quiet) as bar:
        try:
            if target is None:
                summary = run(m, games, seed, stop_on_interrupt=True,
                              on_chunk=lambda so, go, first: bar.advance(so.shape[0]))
            else:
                def write(so, go, first):
                    sink.write(rows_frame(m, so, go, first))
                    bar.advance(so.shape[0])

                with parquet_output(target) as sink:
                    summary = run(m, games, seed, on_chunk=write, stop_on_interrupt=True)
                    if summary.interrupted:
                        raise KeyboardInterrupt   # leave by an exception: the .part file goes
        except KeyboardInterrupt:
            # From the run (whose summary of the finished games is kept) or
            # from around it, e.g. while the file was being closed: either way
            # the temporary file has been removed and no --out file made.
            stopped = True
    stopped = stopped or (summary is not None and summary.interrupted)
    if summary is None or summary.games == 0:
        exit_interrupted(f"interrupted before any of the {games:,} games finished")
    if stopped:
        unwritten = f"; {target} was not written" if target is not None else ""
        click.echo(f"zsim: interrupted after {summary.games:,} of {games:,} games; "
                   f"the summary covers the finished games{unwritten}", err=True)
    if as_json:
        click.echo(json.dumps(summary_json(summary), indent=1))
    else:
        click.echo(f"{summary.games:,} games, {players} players, seed {seed}, deck {m.deck.name}")
        _print_table(summary.table())
    if stopped:
        raise SystemExit(INTERRUPTED_EXIT)


@cli.command()
@PLAYERS
@SEED
@click.option("--games", "-n", type=int, default=1, show_default=True, help="games to record")
@click.option("--first", type=int, default=0, show_default=True,
              help="index of the first game (game i of a run is game i of `simulate`)")
@STRATEGIES
@RULE
@DECK
@click.option("--out", default=None, metavar="FILE", help="JSON-lines file [default: stdout]")
def record(players, seed, games, first, strategies, rules, deck, out):
    """Write complete game records (JSON lines, TRACE.md format)."""
    from zsim.games.zahltag.records import record_games, to_jsonl
    from zsim.output import atomic_path
    from zsim.runner import check_games_and_seed, check_out_path

    m = _matchup(players, strategies, rules, deck)
    check_games_and_seed(games, seed, first)
    games_iter = record_games(m, seed, range(first, first + games))
    if out:
        with atomic_path(check_out_path(out)) as tmp, open(tmp, "w") as fh:
            for events in games_iter:
                fh.write(to_jsonl(events))
    else:
        for events in games_iter:
            click.echo(to_jsonl(events), nl=False)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--check/--no-check", default=True, show_default=True,
              help="re-check every rule with the reference engine first")
def replay(file, check):
    """Print a readable play-by-play of a game record."""
    from zsim.games.zahltag.replay import check_record, play_by_play, read_records

    for events in read_records(file):
        if check:
            check_record(events)
        click.echo(play_by_play(events), nl=False)


@cli.command()
def rules():
    """List the rule keys of --rule with their defaults and ranges."""
    from zsim.games.zahltag.rules import RULE_SPECS

    for s in RULE_SPECS:
        if s.kind == "int":
            rng = f"{s.low}..{s.high}"
        elif s.kind == "choice":
            rng = "|".join(s.choices)
        elif s.kind == "bool":
            rng = "true|false"
        else:
            rng = f"F,W,C,E each {s.low}..{s.high}"
        if isinstance(s.default, tuple):
            default = ",".join(map(str, s.default))
        elif isinstance(s.default, bool):
            default = str(s.default).lower()
        else:
            default = str(s.default)
        click.echo(f"{s.key:<22} {str(default):<12} {rng:<22} {s.help}")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="print the list as JSON")
def strategies(as_json):
    """List every strategy (built-in and plugged in) with its parameters."""
    from zsim.strategy_registry import describe

    rows = describe()
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    for row in rows:
        label = "" if row["fair"] else "  [reads hidden hands: an upper bound, not fair]"
        click.echo(f"{row['name']:<12} {row['description']}{label}")
        for p in row["params"]:
            click.echo(f"    {p['name']}={p['default']:g}  ({p['low']:g}..{p['high']:g})  {p['help']}")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="print the rows as JSON")
@click.option("--games", "-n", type=int, default=200_000, show_default=True,
              help="games per fast-engine measurement")
@click.option("--repeat", type=int, default=5, show_default=True, help="repeats (median reported)")
@click.option("--reference-games", type=int, default=300, show_default=True,
              help="games per reference-engine measurement")
@click.option("--startup/--no-startup", default=True, show_default=True,
              help="also time a cold start (compiling) and a warm `simulate --games 1000`")
@click.option("--memory", "memory_games", type=int, default=0, metavar="GAMES",
              help="also report the peak RSS of `simulate --games GAMES`")
def bench(as_json, games, repeat, reference_games, startup, memory_games):
    """Measure games per second: fast engine (1 and all threads) vs reference."""
    from zsim.bench import run_bench

    run_bench(as_json=as_json, games=games, repeat=repeat, reference_games=reference_games,
              startup=startup, memory_games=memory_games)


def _print_table(frame):
    import polars as pl

    with pl.Config(tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
                   float_precision=3, tbl_width_chars=200, tbl_cols=-1):
        click.echo(str(frame))


def main(argv=None):
    """Entry point: bad input is one line on stderr and exit code 2."""
    try:
        cli.main(args=argv, prog_name="zsim", standalone_mode=False)
    except ZsimError as exc:
        click.echo(f"zsim: error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
    except click.ClickException as exc:
        click.echo(f"zsim: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("zsim: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("zsim: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)


# ---------------------------------------------------------------- commands in their own modules
# (one `cli.add_command` line each; keep this block just above the __main__ guard)
from zsim.cli_tournament import tournament; cli.add_command(tournament)
from zsim.cli_tune import tune; cli.add_command(tune)
from zsim.cli_analyze import analyze, report; cli.add_command(analyze); cli.add_command(report)


if __name__ == "__main__":
    main()
