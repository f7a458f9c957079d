"""Running many games: validation, chunking, aggregation, per-game tables.

Games are played in chunks of ``chunk`` games (each chunk in parallel over the
numba threads) and folded into integer running sums, so memory stays flat in
the number of games and every figure is exact and independent of chunking
and threads.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from zsim.errors import ZsimError
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.batch_nb import (A_ELIMINATED, A_GAMES, A_JOB_INCOME, A_JOBS_WON, A_MONEY,
                                         A_MONEY_SQ, A_PAYDAY_PAID, A_PLACE, A_WIN_UNITS,
                                         A_WIN_UNITS_SQ, N_AGG, WIN_UNITS, accumulate_nb,
                                         play_batch_nb)
from zsim.games.zahltag.deck import Deck, default_deck
from zsim.games.zahltag.rules import Rules
from zsim.strategy_registry import strategy_arrays

DEFAULT_CHUNK = 1 << 16
BLOCK = 64          # games per parallel task inside a chunk
MAX_SEED = (1 << 64) - 1
MAX_GAME_INDEX = (1 << 62) - 1


@dataclass(frozen=True)
class Matchup:
    """Everything that fixes which games a seed produces."""
    players: int
    strategies: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    deck: Deck = field(default_factory=default_deck)

    def __post_init__(self):
        if not K.MIN_PLAYERS <= self.players <= K.MAX_PLAYERS:
            raise ZsimError(f"players must be {K.MIN_PLAYERS}..{K.MAX_PLAYERS}, got {self.players}")
        if len(self.strategies) != self.players:
            raise ZsimError(f"{len(self.strategies)} strategies for {self.players} players")
        self.rules.validate(self.players)
        self.deck.check_supply(self.rules.supply)


def set_threads(threads: int | None) -> None:
    """Use ``threads`` numba threads (None: leave the default, all cores)."""
    if threads is None:
        return
    import numba

    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ZsimError(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
    numba.set_num_threads(threads)


def available_memory() -> int | None:
    """Bytes this process can still take: the kernel's MemAvailable, or less
    where a cgroup (a container, a batch job) sets a lower limit; None when
    neither can be read."""
    avail = None
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        used = int(Path("/sys/fs/cgroup/memory.current").read_text())
        if limit != "max":
            room = max(int(limit) - used, 0)
            avail = room if avail is None else min(avail, room)
    except (OSError, ValueError):
        pass
    return avail


def chunk_bytes(chunk: int, players: int, rows: bool) -> int:
    """What one chunk of ``chunk`` games holds in memory at its peak: the
    engine's per-seat and per-game arrays, and with ``rows`` the per-game
    table and the copies Arrow makes on its way to a Parquet file."""
    engine = chunk * (players * K.N_SEAT_STATS + K.N_GAME_STATS) * 8
    table = chunk * players * (len(SEAT_COLUMNS) + len(GAME_COLUMNS) + 3) * 4 * 3 if rows else 0
    return engine + table


def check_chunk_memory(chunk: int, players: int, rows: bool, in_flight: int = 1) -> None:
    """Refuse a --chunk whose buffers (``in_flight`` chunks at a time) would
    not fit in the memory left, saying how much it needs."""
    need = chunk_bytes(chunk, players, rows) * in_flight
    avail = available_memory()
    if avail is not None and need > 0.8 * avail:
        gib = 1 << 30
        fits = int(chunk * 0.8 * avail / need)
        raise ZsimError(f"--chunk {chunk:,} needs about {need / gib:.1f} GiB of memory for its buffers"
                        f"{f' ({in_flight} chunks in flight)' if in_flight > 1 else ''}, and "
                        f"{avail / gib:.1f} GiB is available; give --chunk {max(fits, 1):,} or less")


def check_games_and_seed(games: int, seed: int, first: int = 0) -> None:
    if games <= 0:
        raise ZsimError(f"--games must be at least 1, got {games}")
    if first < 0:
        raise ZsimError(f"--first must be at least 0, got {first}")
    if first + games - 1 > MAX_GAME_INDEX:
        raise ZsimError(f"game indices must stay below 2**62; --first {first} with --games {games} goes past it")
    if not 0 <= seed <= MAX_SEED:
        raise ZsimError(f"--seed must be in 0..2**64-1, got {seed}")


def play_chunk(m: Matchup, seed: int, first_game: int, n_games: int,
               seat_out: np.ndarray | None = None, game_out: np.ndarray | None = None):
    """Play games ``first_game .. first_game + n_games - 1``; returns the
    (seat_out [n, P, N_SEAT_STATS], game_out [n, N_GAME_STATS]) arrays; raises
    ZsimError if any strategy made an illegal decision."""
    if seat_out is None:
        seat_out = np.zeros((n_games, m.players, K.N_SEAT_STATS), np.int64)
        game_out = np.zeros((n_games, K.N_GAME_STATS), np.int64)
    ids, params = strategy_arrays(list(m.strategies))
    play_batch_nb(np.uint64(seed), first_game, n_games, m.rules.as_array(), m.deck.needs, ids,
                  params, seat_out, game_out, BLOCK)
    # the engine plays an illegal decision as a pass; a run built on one is not to be trusted
    if int(game_out[:n_games, K.G_ILLEGAL].sum()):
        raise ZsimError(f"a strategy made an illegal move (engine bug): games {first_game}.."
                        f"{first_game + n_games - 1}, seed {seed}, strategies {', '.join(m.strategies)}")
    return seat_out[:n_games], game_out[:n_games]


def win_share_ci(agg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's win share and its 95% half-width, from running sums."""
    a = agg.astype(np.float64)
    n = a[:, A_GAMES]
    win = a[:, A_WIN_UNITS] / (WIN_UNITS * n)
    win_var = np.maximum(a[:, A_WIN_UNITS_SQ] / (WIN_UNITS ** 2 * n) - win ** 2, 0.0)
    return win, 1.96 * np.sqrt(win_var / n)


@dataclass
class Summary:
    matchup: Matchup
    seed: int
    agg: np.ndarray          # int64 [P, N_AGG]
    games: int               # games folded into agg
    interrupted: bool = False  # stopped by Ctrl-C (see simulate's stop_on_interrupt)

    def table(self) -> pl.DataFrame:
        a = self.agg.astype(np.float64)
        n = a[:, A_GAMES]
        money_mean = a[:, A_MONEY] / n
        money_var = np.maximum(a[:, A_MONEY_SQ] / n - money_mean ** 2, 0.0) * n / np.maximum(n - 1, 1)
        win, win_ci = win_share_ci(self.agg)
        return pl.DataFrame({
            "seat": list(range(self.matchup.players)),
            "strategy": list(self.matchup.strategies),
            "win_share": win,
            "win_ci95": win_ci,
            "money_mean": money_mean,
            "money_ci95": 1.96 * np.sqrt(money_var / n),
            "money_sd": np.sqrt(money_var),
            "mean_place": a[:, A_PLACE] / n,
            "jobs_won": a[:, A_JOBS_WON] / n,
            "job_income": a[:, A_JOB_INCOME] / n,
            "payday_paid": a[:, A_PAYDAY_PAID] / n,
            "eliminated_share": a[:, A_ELIMINATED] / n,
        })


def simulate(m: Matchup, games: int, seed: int, chunk: int = DEFAULT_CHUNK,
             on_chunk: Callable[[np.ndarray, np.ndarray, int], None] | None = None,
             stop_on_interrupt: bool = False) -> Summary:
    """Play ``games`` games and fold them into a :class:`Summary`.

    ``on_chunk(seat_out, game_out, first_game)`` sees every chunk's per-game
    rows (for writing them out, counting progress) before they are dropped.

    ``stop_on_interrupt``: a Ctrl-C (KeyboardInterrupt) ends the run and the
    Summary of the games finished so far is returned, marked ``interrupted``
    (without it the interrupt propagates as usual)."""
    check_games_and_seed(games, seed)
    agg = np.zeros((m.players, N_AGG), np.int64)
    size = min(chunk, games)
    seat_buf = np.zeros((size, m.players, K.N_SEAT_STATS), np.int64)
    game_buf = np.zeros((size, K.N_GAME_STATS), np.int64)
    done = 0
    try:
        while done < games:
            n = min(size, games - done)
            seat_out, game_out = play_chunk(m, seed, done, n, seat_buf, game_buf)
            accumulate_nb(seat_out, n, agg)
            if on_chunk is not None:
                on_chunk(seat_out, game_out, done)
            done += n
    except KeyboardInterrupt:
        if not stop_on_interrupt:
            raise
        # The interrupt surfaces between Python statements, never inside the
        # compiled fold, so agg holds whole chunks only; its per-seat game
        # count (not ``done``, which may lag one chunk) says how many. The run
        # counts as interrupted even if every game was folded: on_chunk (the
        # --out writer) may not have finished with the last chunk.
        folded = int(agg[0, A_GAMES])
        return Summary(m, seed, agg, folded, interrupted=True)
    return Summary(m, seed, agg, games)


# ---------------------------------------------------------------- per-game rows
BID_COLUMNS = tuple(f"bids_{b}" for b in range(1, K.BID_BINS)) + (f"bids_{K.BID_BINS}plus",)
SEAT_COLUMNS = ("money", "place", "jobs_won", "job_income", "payday_paid", "penalty_paid",
                "penalty_received", "eliminated", "bids", "idle_at_payday", "final_cards",
                "final_table", "bid_sum") + BID_COLUMNS
GAME_COLUMNS = ("turns", "paydays", "jobs_revealed", "jobs_no_bid", "jobs_one_bid", "jobs_tied",
                "end_reason", "eliminations", "reshuffles", "lead_changes")


def rows_frame(m: Matchup, seat_out: np.ndarray, game_out: np.ndarray, first_game: int) -> pl.DataFrame:
    """One row per game per seat (the ``--out`` table; columns in the README)."""
    n, p = seat_out.shape[0], m.players
    cols: dict[str, object] = {
        "game": np.repeat(np.arange(first_game, first_game + n, dtype=np.int64), p),
        "seat": np.tile(np.arange(p, dtype=np.int8), n),
        # gathered from a P-long categorical: building n*P strings costs more than the game
        "strategy": pl.Series(list(m.strategies), dtype=pl.Categorical).gather(np.tile(np.arange(p), n)),
    }
    flat = seat_out.reshape(n * p, K.N_SEAT_STATS)
    for i, name in enumerate(SEAT_COLUMNS):
        cols[name] = flat[:, i].astype(np.int32)
    for i, name in enumerate(GAME_COLUMNS):
        if name == "end_reason":
            continue
        cols[name] = np.repeat(game_out[:, i].astype(np.int32), p)
    reasons = pl.Series(list(K.END_REASONS), dtype=pl.Categorical)
    cols["end_reason"] = reasons.gather(np.repeat(game_out[:, K.G_END_REASON], p))
    return pl.DataFrame(cols)


def check_out_path(path: str | os.PathLike) -> Path:
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ZsimError(f"--out folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ZsimError(f"--out folder {str(parent)!r} is not writable")
    if p.is_dir():
        raise ZsimError(f"--out {str(p)!r} is a folder, not a file")
    return p


def summary_json(summary: Summary) -> list[dict]:
    rows = summary.table().to_dicts()
    for r in rows:
        for k, v in r.items():
            if isinstance(v, float) and not math.isfinite(v):
                r[k] = None
    return rows
