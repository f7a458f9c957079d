"""``zsim bench --scaling``: games/s against numba threads and dask workers.

Each figure is a median over repeats of the same run of the simple field at
four players. Efficiency is the rate with k threads (or workers) over k times
the rate with one, measured in the same process a moment apart; the dask
rows also give their rate against the local backend with as many threads.
"""
from __future__ import annotations

import os
import statistics
import time

import numba

from zsim.harness.bench import fast_rate
from zsim.game_registry import DEFAULT_GAME, get_game
from zsim.harness.chunks import Matchup
from zsim.harness.backends import DaskBackend
from zsim.harness.runs import Plan, run


def dask_rate(workers: int, games: int, repeat: int, game: str = DEFAULT_GAME) -> float:
    """Games/s of a run on a LocalCluster of ``workers`` single-threaded
    worker processes (started, warmed up and closed outside the timing)."""
    backend = DaskBackend(workers=workers)
    try:
        spec = get_game(game)
        m = Matchup(spec.max_players, (spec.strategies.default,) * spec.max_players, game=game)
        chunk = max(1, games // (8 * workers))         # several tasks per worker
        run(Plan(m, 1, workers * 256, chunk=256), backend)   # each worker loads the kernels
        rates = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            run(Plan(m, 1, games, chunk=chunk), backend)
            rates.append(games / (time.perf_counter() - t0))
        return statistics.median(rates)
    finally:
        backend.close()


def scaling_rows(games: int, repeat: int, max_workers: int | None = None,
                 game: str = DEFAULT_GAME) -> list[dict]:
    threads = numba.config.NUMBA_NUM_THREADS
    rows: list[dict] = []
    local: dict[int, float] = {}
    for t in range(1, threads + 1):
        local[t] = fast_rate(get_game(game).max_players, t, games, repeat, game=game)
        rows.append({"backend": "local", "units": t, "unit": "threads", "games_per_s": local[t],
                     "efficiency": local[t] / (t * local[1])})
    workers = max_workers or os.cpu_count() or 1
    first = None
    for w in range(1, workers + 1):
        rate = dask_rate(w, games, repeat, game)
        first = first or rate
        rows.append({"backend": "dask", "units": w, "unit": "workers", "games_per_s": rate,
                     "efficiency": rate / (w * first),
                     "vs_local_same_cores": rate / local[min(w, threads)]})
    return rows


def format_rows(rows: list[dict], games: int, repeat: int, game: str = DEFAULT_GAME) -> list[str]:
    spec = get_game(game)
    out = [f"scaling: {spec.title}, {spec.strategies.default} field, {spec.max_players} players; "
           f"medians of {repeat} runs of {games:,} games"]
    for r in rows:
        extra = f"  {r['vs_local_same_cores']:.2f}x local" if "vs_local_same_cores" in r else ""
        out.append(f"{r['backend']:<6} {r['units']:>2} {r['unit']:<8} {r['games_per_s']:>12,.0f} games/s"
                   f"  efficiency {r['efficiency']:.2f}{extra}")
    return out
