"""``zsim bench``: games per second of the engines, as medians and ratios.

Every figure is the median of ``repeat`` runs; ratios compare engines and
thread counts measured in the same process, so a noisy shared machine moves
both sides of a ratio together.  ``reference_games=0`` skips the (slow)
reference engine: the rows then carry no reference and no ``vs_reference``.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import click
import numba

from zsim.errors import ZsimError
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules
from zsim.runner import Matchup, play_chunk

FIELD = "simple"


def _median_rate(fn, games: int, repeat: int) -> float:
    rates = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        rates.append(games / (time.perf_counter() - t0))
    return statistics.median(rates)


def mixed_tables(players: int) -> list[tuple[str, ...]]:
    """Every fair built-in strategy once, dealt round the tables in name order."""
    from zsim.strategy_registry import registry

    fair = sorted(name for name, info in registry().items() if info.fair
                  and info.module.startswith("strategies."))
    return [tuple(fair[(i + k) % len(fair)] for k in range(players))
            for i in range(0, len(fair), players)]


def fast_rate(players: int, threads: int, games: int, repeat: int,
              tables: list[tuple[str, ...]] | None = None) -> float:
    """Games/s of the fast engine; with several ``tables`` their games split evenly."""
    matchups = [Matchup(players, t) for t in (tables or [(FIELD,) * players])]
    share = max(1, games // len(matchups))
    numba.set_num_threads(threads)
    for m in matchups:
        play_chunk(m, 1, 0, 256)  # warm: load the compiled kernels

    def run():
        for m in matchups:
            play_chunk(m, 1, 0, share)

    rate = _median_rate(run, share * len(matchups), repeat)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return rate


def reference_rate(players: int, games: int, repeat: int) -> float:
    from zsim.games.zahltag.reference import play_reference

    rules, deck = Rules(), default_deck()

    def run():
        for g in range(games):
            play_reference(players, rules, deck, [FIELD] * players, 1, g)

    return _median_rate(run, games, repeat)


def _zsim(args: list[str], env: dict | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "zsim.cli", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def startup_times(repeat: int) -> dict:
    """Cold start (empty kernel cache: compile everything) and warm start
    (``zsim simulate --games 1000`` with the cache filled), in seconds."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ZSIM_CACHE_DIR=cache)
        cold = _zsim(["simulate", "--games", "1000"], env)
    _zsim(["simulate", "--games", "1000"])
    warm = statistics.median(_zsim(["simulate", "--games", "1000"]) for _ in range(repeat))
    return {"cold_start_s": cold, "warm_simulate_1000_s": warm}


_RSS_PROBE = """
import resource, sys
from zsim.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def peak_rss_mb(games: int, out: str | None = None) -> float:
    """Peak resident memory of ``zsim simulate --games N [--out OUT]``, in MB,
    measured by the process itself (not mixed with other children)."""
    extra = ["--out", out] if out else []
    done = subprocess.run([sys.executable, "-c", _RSS_PROBE, "simulate", "--games", str(games), "-q", *extra],
                          capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def run_bench(as_json: bool, games: int, repeat: int, reference_games: int,
              startup: bool = True, memory_games: int = 0) -> list[dict]:
    if reference_games < 0:
        raise ZsimError(f"--reference-games must be 0 (skip the reference engine) or more, "
                        f"got {reference_games}")
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows: list[dict] = []
    for players in (2, 4):
        ref = None
        if reference_games:
            ref = reference_rate(players, reference_games, max(1, repeat // 2))
            rows.append({"engine": "reference", "players": players, "threads": 1, "games_per_s": ref,
                         "field": FIELD})
        one = fast_rate(players, 1, games, repeat)
        rows.append({"engine": "fast", "players": players, "threads": 1, "games_per_s": one,
                     "field": FIELD})
        if ref is not None:
            rows[-1]["vs_reference"] = one / ref
        if all_threads > 1:
            many = fast_rate(players, all_threads, games, repeat)
            rows.append({"engine": "fast", "players": players, "threads": all_threads,
                         "games_per_s": many, "field": FIELD, "vs_one_thread": many / one})
    # the mixed field: every fair built-in once, in tables of four
    tables = mixed_tables(4)
    mixed = fast_rate(4, 1, games, repeat, tables)
    rows.append({"engine": "fast", "players": 4, "threads": 1, "games_per_s": mixed,
                 "field": "mixed: " + " | ".join(",".join(t) for t in tables),
                 "vs_simple_field": mixed / one})

    # start-up and memory belong to what `zsim simulate` runs by default:
    # the simple field, four players, all threads
    default_run = next(r for r in rows if r["engine"] == "fast" and r["players"] == 4
                       and r["threads"] == all_threads and r["field"] == FIELD)
    if startup:
        default_run.update(startup_times(3))
    if memory_games:
        default_run["peak_rss_mb"] = peak_rss_mb(memory_games)
        with tempfile.TemporaryDirectory() as tmp:
            default_run["peak_rss_out_dir_mb"] = peak_rss_mb(memory_games, os.path.join(tmp, "run"))
        default_run["peak_rss_games"] = memory_games
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    else:
        reference = f"{reference_games} games" if reference_games else "skipped (--reference-games 0)"
        click.echo(f"field: {FIELD} in every seat; medians of {repeat} runs of {games:,} games "
                   f"(reference: {reference})")
        for r in rows:
            note = ""
            if "vs_reference" in r:
                note = f"  {r['vs_reference']:7.1f}x reference"
            if "vs_one_thread" in r:
                note = f"  {r['vs_one_thread']:7.2f}x one thread"
            if "vs_simple_field" in r:
                note = f"  {r['vs_simple_field']:7.2f}x the simple field  ({r['field']})"
            click.echo(f"{r['engine']:<10} {r['players']}p {r['threads']:>2} thread(s) "
                       f"{r['games_per_s']:>12,.0f} games/s{note}")
        last = default_run
        if "cold_start_s" in last:
            click.echo(f"cold start (compiling every kernel): {last['cold_start_s']:.1f} s; "
                       f"warm `zsim simulate --games 1000`: {last['warm_simulate_1000_s']:.2f} s")
        if "peak_rss_mb" in last:
            click.echo(f"peak RSS of `zsim simulate --games {last['peak_rss_games']}`: "
                       f"{last['peak_rss_mb']:.0f} MB; with --out DIR (a run folder): "
                       f"{last['peak_rss_out_dir_mb']:.0f} MB")
    return rows
