"""``zsim bench``: games per second of the engines, as medians and ratios.

Every figure is the median of ``repeat`` runs; ratios compare engines and
thread counts measured in the same process, so a noisy shared machine moves
both sides of a ratio together.  The ratio to the reference engine goes one
step further: the two engines are timed in alternating rounds (reference, then
fast, ``repeat`` times), and ``vs_reference`` is the median of the rounds' own
ratios, so a slow minute slows both sides of the ratio it lands in.  The same
holds for ``vs_one_thread``: all threads and one alternate (:func:`thread_scaling`).
``reference_games=0`` skips the (slow) reference engine: the rows then carry
no reference and no ``vs_reference``.

Besides games/s, each row of the default field carries turns/s and, where the
reference engine ran, decisions/s: games/s times the mean number of times a
game asks a seat's strategy to choose (:func:`decisions_per_game`, counted by
the reference engine over the games it was timed on; the fast engine makes the
same decisions game by game). A game with longer or busier games shows it there,
not in games/s.

The mixed field (every fair built-in strategy) is set against the default
field (``vs_simple_field``: what a field of heuristic bots costs beside the
default one) and against its own bots each in a field of its own
(``vs_own_fields``, in turns/s: what mixing them costs). A third figure
plays no other games: the default field's own games through the kernel
compiled for the mixed field against through the default field's own kernel
(``default_through_mixed_kernel``). Those are the same games, game for game,
so the ratio is what carrying every other bot in the kernel (the dispatch and
the code around it) costs a field, and nothing that the bots do differently.
All are timed in turn, round after round, and each figure is the median of
the rounds' own ratios (:func:`mixed_field_rounds`).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numba

from zsim._cache import BLAS_MODULE
from zsim.errors import ZsimError
from zsim.game_registry import DEFAULT_GAME, get_game
from zsim.harness.chunks import Matchup, chunk_outputs, play_chunk

FIELD = "simple"      # Zahltag's; every game benches its default strategy


def _median_rate(fn, games: int, repeat: int) -> float:
    rates = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        rates.append(games / (time.perf_counter() - t0))
    return statistics.median(rates)


def mixed_tables(players: int, game: str = DEFAULT_GAME) -> list[tuple[str, ...]]:
    """Every fair built-in strategy once, dealt round the tables in name order."""
    from zsim.strategy_registry import registry

    package = get_game(game).strategies.package + "."
    fair = sorted(name for name, info in registry(game).items() if info.fair
                  and info.module.startswith(package))
    return [tuple(fair[(i + k) % len(fair)] for k in range(players))
            for i in range(0, len(fair), players)]


def _fast_runner(players: int, threads: int, games: int, tables: list[tuple[str, ...]] | None,
                 game: str, compile_for: tuple[str, ...] | None = None):
    """A warmed-up function that plays one timed run of the fast engine, and
    the games it plays; ``compile_for``: the strategies of the kernel that plays
    them (by default those of ``tables``)."""
    field = get_game(game).strategies.default
    tables = tables or [(field,) * players]
    # a mixed field: one kernel for all its tables
    every = compile_for or tuple(sorted({s for t in tables for s in t}))
    matchups = [Matchup(players, t, game=game, compile_for=every) for t in tables]
    share = max(1, games // len(matchups))
    numba.set_num_threads(threads)
    for m in matchups:
        play_chunk(m, 1, 0, 256)  # warm: load the compiled kernels
    # into reused outputs, as a run's chunks are played
    outputs = chunk_outputs(matchups[0], share)

    def run():
        numba.set_num_threads(threads)
        for m in matchups:
            play_chunk(m, 1, 0, share, *outputs)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return run, share * len(matchups)


def fast_rate(players: int, threads: int, games: int, repeat: int,
              tables: list[tuple[str, ...]] | None = None, game: str = DEFAULT_GAME) -> float:
    """Games/s of the fast engine; with several ``tables`` their games split evenly."""
    run, played = _fast_runner(players, threads, games, tables, game)
    return _median_rate(run, played, repeat)


def _rounds(runners: list[tuple], repeat: int) -> list[list[float]]:
    """Each of ``runners`` (a function playing one timed run, and the games it plays) timed
    once a round, in turn, for ``repeat`` rounds: each round's games/s, runner by runner.
    Figures set against each other within a round share its minute of the machine."""
    return [[_median_rate(fn, games, 1) for fn, games in runners] for _ in range(max(1, repeat))]


def _alternating(base, base_games: int, other, other_games: int, repeat: int) -> tuple[float, float, float]:
    """``base`` and ``other`` timed in ``repeat`` alternating rounds (``base`` first): the
    median games/s of each and the median of the rounds' own ratios other/base, so that a
    slow minute moves both sides of the ratio it lands in."""
    rounds = _rounds([(base, base_games), (other, other_games)], repeat)
    return (statistics.median(b for b, _ in rounds), statistics.median(o for _, o in rounds),
            statistics.median(o / b for b, o in rounds))


def thread_scaling(players: int, threads: int, games: int, repeat: int,
                   game: str = DEFAULT_GAME) -> tuple[float, float]:
    """All ``threads`` against one, in alternating rounds (one thread, then all): the
    median games/s on all threads and the median of the rounds' ratios."""
    one, played_one = _fast_runner(players, 1, games, None, game)
    many, played_many = _fast_runner(players, threads, games, None, game)
    _, rate, ratio = _alternating(one, played_one, many, played_many, repeat)
    return rate, ratio


def _reference_runner(players: int, games: int, game: str):
    spec = get_game(game)
    m = Matchup(players, (spec.strategies.default,) * players, game=game)

    def run():
        for g in range(games):
            spec.reference_rows(m, 1, g)

    return run


def reference_rate(players: int, games: int, repeat: int, game: str = DEFAULT_GAME) -> float:
    """Games/s of the game's reference engine, the default strategy in every seat."""
    return _median_rate(_reference_runner(players, games, game), games, repeat)


def paired_rates(players: int, games: int, reference_games: int, repeat: int,
                 game: str = DEFAULT_GAME, warm: bool = True) -> tuple[float, float, float]:
    """The reference engine and the fast one (one thread, the default field)
    timed in ``repeat`` alternating rounds: the median games/s of each, and
    the median of the rounds' ratios fast/reference. ``warm=False``: the caller
    has just played the same reference games (``decisions_per_game`` does)."""
    fast, played = _fast_runner(players, 1, games, None, game)
    reference = _reference_runner(players, reference_games, game)
    if warm:
        reference()                  # the reference engine's first game imports and builds its tables
    return _alternating(reference, reference_games, fast, played, repeat)


def decisions_per_game(players: int, games: int, game: str = DEFAULT_GAME) -> float:
    """Mean number of times a game of the default field asks a seat's strategy to choose,
    counted by the reference engine over the games ``paired_rates`` times it on (games
    0..``games``-1 of seed 1). Zahltag asks every seat still in for each adjustment and
    each bid; Zahlemann asks at every play from the hand (a lone matching card too), every
    drawn match and every bonus play; Baumeister asks only where there is more than one
    option (decisions/s = games/s x this)."""
    spec = get_game(game)
    m = Matchup(players, (spec.strategies.default,) * players, game=game)
    return sum(spec.reference_decisions(m, 1, g) for g in range(games)) / games


def mixed_field_rounds(players: int, games: int, repeat: int, tables: list[tuple[str, ...]],
                       game: str = DEFAULT_GAME) -> dict:
    """The mixed field of ``tables`` against the default field and against its bots each
    in a field of its own, all timed in turn in each of ``repeat`` rounds on one thread:
    its games/s and turns/s (medians), ``vs_simple_field`` (games/s against the default
    field's), ``vs_own_fields`` and ``default_through_mixed_kernel`` (the default field
    played by a kernel of the mixed field's strategies against by its own; medians of the
    rounds' own ratios).

    ``vs_own_fields`` is in turns, not games: bots that meet other bots play longer or
    shorter games (a Baumeister table of first, random and heuristic bidders runs a third
    more turns than any of them alone), and that is the field, not what mixing costs. Each
    strategy's own field is timed and its turns counted, and a turn of the tables would
    cost, at no cost of mixing, the mean over their seats of a turn of each seat's own
    field. Timed in one round, a slow minute moves both sides of a ratio, not one."""
    seats = [s for t in tables for s in t]
    own_fields = {s: [(s,) * players] for s in sorted(set(seats))}
    default_field = get_game(game).strategies.default
    # the default field's runner first: its outputs, the largest, are the ones the others reuse
    default = _fast_runner(players, 1, games, None, game)
    mixed = _fast_runner(players, 1, games, tables, game)
    # the default field's own games through the mixed field's kernel: the same games, only the
    # kernel differs, so the ratio is what carrying the other bots costs and nothing else
    through = _fast_runner(players, 1, games, None, game,
                           compile_for=tuple(sorted(set(seats) | {default_field})))
    own = {s: _fast_runner(players, 1, games, field, game) for s, field in own_fields.items()}
    mixed_turns = turns_per_game(players, game, tables=tables)
    own_turns = {s: turns_per_game(players, game, tables=field) for s, field in own_fields.items()}
    rates, vs_default, vs_own, vs_kernel = [], [], [], []
    for rate, default_rate, through_rate, *own_rates in _rounds([mixed, default, through, *own.values()], repeat):
        turn_cost = {s: 1.0 / (r * own_turns[s]) for s, r in zip(own, own_rates)}
        alone = len(seats) / sum(turn_cost[s] for s in seats)
        rates.append(rate)
        vs_default.append(rate / default_rate)
        vs_own.append(rate * mixed_turns / alone)
        vs_kernel.append(through_rate / default_rate)
    median = statistics.median(rates)
    return {"games_per_s": median, "turns_per_s": median * mixed_turns,
            "vs_simple_field": statistics.median(vs_default), "vs_own_fields": statistics.median(vs_own),
            "default_through_mixed_kernel": statistics.median(vs_kernel)}


def turns_per_game(players: int, game: str = DEFAULT_GAME, games: int = 2000,
                   tables: list[tuple[str, ...]] | None = None) -> float:
    """Mean turns of a game of the default field, or of ``tables`` in equal
    shares (turns/s = games/s x this)."""
    spec = get_game(game)
    turns = [i for i, c in enumerate(spec.game_columns) if c.name == "turns"]
    if not turns:
        return float("nan")
    tables = tables or [(spec.strategies.default,) * players]
    share = max(1, games // len(tables))
    every = tuple(sorted({s for t in tables for s in t}))
    means = [play_chunk(Matchup(players, t, game=game, compile_for=every), 1, 0, share)[1][:, turns[0]].mean()
             for t in tables]
    return float(sum(means) / len(means))


def _zsim(args: list[str], env: dict | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "zsim.cli", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


#: the least a numba program pays to start: import numba, load one cached kernel, call it
#: (scipy's BLAS held off as zsim._cache holds it off); prints whether the kernel came from the cache
_FLOOR = f"""
import sys
sys.modules["{BLAS_MODULE}"] = None
import numpy as np
from numba import njit


@njit(cache=True)
def total(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


total(np.arange(1000))
print("cached" if total.stats.cache_hits else "compiled")
"""


class NumbaFloor:
    """A one-kernel numba script in a folder of its own, with its own kernel cache:
    :meth:`time` runs it warm, in seconds (the floor under any numba tool's warm start)."""

    def __init__(self):
        self._dir = tempfile.TemporaryDirectory()
        self.script = os.path.join(self._dir.name, "floor.py")
        with open(self.script, "w") as f:
            f.write(_FLOOR)
        self.env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(self._dir.name, "cache"))
        self.run()                   # compiles and caches the kernel

    def run(self) -> str:
        done = subprocess.run([sys.executable, self.script], env=self.env, check=True,
                              capture_output=True, text=True)
        return done.stdout.strip()

    def time(self) -> float:
        t0 = time.perf_counter()
        how = self.run()
        spent = time.perf_counter() - t0
        if how != "cached":
            raise RuntimeError(f"the floor script's kernel was {how}, not loaded from its cache")
        return spent

    def close(self) -> None:
        self._dir.cleanup()


def startup_times(repeat: int, game: str = DEFAULT_GAME) -> dict:
    """Cold start (empty kernel cache: compile the game's kernels) and warm start
    (``zsim simulate --game G --games 1000`` with the cache filled), in seconds; the warm
    start alternates with a one-kernel numba script's (:class:`NumbaFloor`), so the two
    medians, ``warm_simulate_1000_s`` and ``numba_floor_s``, come from the same minutes."""
    args = ["simulate", "--game", game, "--games", "1000"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ZSIM_CACHE_DIR=cache)
        cold = _zsim(args, env)
    _zsim(args)
    floor = NumbaFloor()
    warm, floors = [], []
    try:
        for _ in range(repeat):
            warm.append(_zsim(args))
            floors.append(floor.time())
    finally:
        floor.close()
    return {"cold_start_s": cold, "warm_simulate_1000_s": statistics.median(warm),
            "numba_floor_s": statistics.median(floors)}


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


def bench_rows(games: int, repeat: int, reference_games: int, startup: bool = True, memory_games: int = 0,
               game: str = DEFAULT_GAME) -> list[dict]:
    """The measurements of ``zsim bench``, one row each (see the module doc)."""
    if reference_games < 0:
        raise ZsimError(f"--reference-games must be 0 (skip the reference engine) or more, "
                        f"got {reference_games}")
    spec = get_game(game)
    field = spec.strategies.default
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows: list[dict] = []
    for players in (spec.min_players, spec.max_players):
        turns = turns_per_game(players, game)
        decisions = decisions_per_game(players, reference_games, game) if reference_games else None

        def rates(per_s: float) -> dict:
            out = {"games_per_s": per_s, "turns_per_s": per_s * turns}
            if decisions is not None:
                out.update(decisions_per_s=per_s * decisions, decisions_per_game=decisions)
            return out

        if reference_games:             # counting the decisions warmed the reference engine
            ref, one, paired = paired_rates(players, games, reference_games, repeat, game, warm=False)
            rows.append({"game": game, "engine": "reference", "players": players, "threads": 1,
                         **rates(ref), "field": field})
        else:
            one = fast_rate(players, 1, games, repeat, game=game)
        rows.append({"game": game, "engine": "fast", "players": players, "threads": 1, **rates(one),
                     "field": field})
        if reference_games:
            rows[-1]["vs_reference"] = paired
        if all_threads > 1:
            many, scaling = thread_scaling(players, all_threads, games, repeat, game)
            rows.append({"game": game, "engine": "fast", "players": players, "threads": all_threads,
                         **rates(many), "field": field, "vs_one_thread": scaling})
    # the mixed field: every fair built-in once, in tables of the most players
    tables = mixed_tables(spec.max_players, game)
    if len(tables) > 1 or tables and len(set(tables[0])) > 1:
        rows.append({"game": game, "engine": "fast", "players": spec.max_players, "threads": 1,
                     "field": "mixed: " + " | ".join(",".join(t) for t in tables),
                     **mixed_field_rounds(spec.max_players, games, repeat, tables, game)})

    # start-up and memory belong to what `zsim simulate` runs by default:
    # the simple field, four players, all threads
    default_run = _default_run(rows, spec)
    if startup:
        default_run.update(startup_times(3, game))
    if memory_games:
        default_run["peak_rss_mb"] = peak_rss_mb(memory_games)
        with tempfile.TemporaryDirectory() as tmp:
            default_run["peak_rss_out_dir_mb"] = peak_rss_mb(memory_games, os.path.join(tmp, "run"))
        default_run["peak_rss_games"] = memory_games
    return rows


def _default_run(rows: list[dict], spec) -> dict:
    all_threads = numba.config.NUMBA_NUM_THREADS
    return next(r for r in rows if r["engine"] == "fast" and r["players"] == spec.max_players
                and r["threads"] == all_threads and r["field"] == spec.strategies.default)


def bench_lines(rows: list[dict], games: int, repeat: int, reference_games: int,
                game: str = DEFAULT_GAME) -> list[str]:
    """The lines ``zsim bench`` prints for ``rows``."""
    spec = get_game(game)
    field = spec.strategies.default
    reference = (f"{reference_games} games a round, alternating with the fast engine; "
                 f"the ratio is the median of the rounds' ratios"
                 if reference_games else "skipped (--reference-games 0)")
    out = [f"{spec.title}; field: {field} in every seat; medians of {repeat} runs of {games:,} "
           f"games (reference: {reference})"]
    counted = {r["players"]: r["decisions_per_game"] for r in rows if "decisions_per_game" in r}
    if counted:
        out.append("decisions a game (a seat's strategy asked to choose; counted by the reference "
                   "engine over its games): " + ", ".join(f"{d:,.1f} at {p}p" for p, d in counted.items()))
    for r in rows:
        note = ""
        if "vs_reference" in r:
            note = f"  {r['vs_reference']:7.1f}x reference"
        if "vs_one_thread" in r:
            note = f"  {r['vs_one_thread']:7.2f}x one thread"
        if "vs_simple_field" in r:
            note = (f"  {r['vs_simple_field']:7.2f}x the {field} field, {r['vs_own_fields']:.2f}x its bots "
                    f"each in a field of its own (turns/s); the {field} field's own games through this "
                    f"field's kernel {r['default_through_mixed_kernel']:.2f}x through its own  ({r['field']})")
        turns = (f" {r['turns_per_s']:>13,.0f} turns/s" if "turns_per_s" in r and r["turns_per_s"] == r["turns_per_s"]
                 else "")   # a game with no turns column (NaN) shows games/s alone
        if "decisions_per_s" in r:
            turns += f" {r['decisions_per_s']:>14,.0f} decisions/s"
        out.append(f"{r['engine']:<10} {r['players']}p {r['threads']:>2} thread(s) "
                   f"{r['games_per_s']:>12,.0f} games/s{turns}{note}")
    last = _default_run(rows, spec)
    if "cold_start_s" in last:
        out.append(f"cold start (compiling {game}'s kernels): {last['cold_start_s']:.1f} s; "
                   f"warm `zsim simulate --game {game} --games 1000`: "
                   f"{last['warm_simulate_1000_s']:.2f} s (a one-kernel numba script, the floor "
                   f"under any numba tool's warm start: {last['numba_floor_s']:.2f} s)")
    if "peak_rss_mb" in last:
        out.append(f"peak RSS of `zsim simulate --games {last['peak_rss_games']}`: "
                   f"{last['peak_rss_mb']:.0f} MB; with --out DIR (a run folder): "
                   f"{last['peak_rss_out_dir_mb']:.0f} MB")
    return out
