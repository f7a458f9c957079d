"""Playing one chunk of games: validation, the matchup, aggregation, per-game tables.

Games are played in chunks of ``chunk`` games (each chunk in parallel over the
numba threads) and folded into integer running sums, so memory stays flat in
the number of games and every figure is exact and independent of chunking
and threads. The run of many chunks (:func:`zsim.harness.runs.run`, and
:func:`zsim.harness.runs.simulate` without a run folder) sits above this module.
"""
from __future__ import annotations

import math
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from zsim.errors import ZsimError
from zsim.game_registry import DEFAULT_GAME, get_game
from zsim.roster import roster_for as strategy_roster
from zsim.roster import roster_of
from zsim.strategy_registry import searches, strategy_arrays

DEFAULT_CHUNK = 1 << 16
BLOCK = 64          # games per parallel task inside a chunk
MAX_SEED = (1 << 64) - 1
MAX_GAME_INDEX = (1 << 62) - 1

#: win shares are summed as multiples of 1/12 so that shared wins (split 2, 3
#: or 4 ways) add up exactly, whatever the order
WIN_UNITS = 12


@dataclass(frozen=True)
class Matchup:
    """Everything that fixes which games a seed produces: the game, the
    players, one strategy spec per seat, the rules and (for games that have
    one) the deck. ``rules`` and ``deck`` default to the game's own.

    ``compile_for`` changes no game: the strategy names whose kernel plays
    it (see :mod:`zsim.roster`), for a job of many matchups that compiles one
    kernel for all of them; None, the matchup's own strategies."""
    players: int
    strategies: tuple[str, ...]
    rules: Any = None
    deck: Any = None
    game: str = DEFAULT_GAME
    compile_for: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        g = get_game(self.game)
        if self.rules is None:
            object.__setattr__(self, "rules", g.default_rules())
        if self.deck is None and g.has_deck:
            object.__setattr__(self, "deck", g.default_deck())
        if not g.min_players <= self.players <= g.max_players:
            raise ZsimError(f"players must be {g.min_players}..{g.max_players}, got {self.players}"
                            if g.name == DEFAULT_GAME else
                            f"{g.title} takes {g.min_players}..{g.max_players} players, not {self.players}")
        if len(self.strategies) != self.players:
            raise ZsimError(f"{len(self.strategies)} strategies for {self.players} players")
        g.check(self)

    @property
    def spec(self):
        """The game object."""
        return get_game(self.game)


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


def chunk_bytes(chunk: int, players: int, rows: bool, game: str = DEFAULT_GAME) -> int:
    """What one chunk of ``chunk`` games holds in memory at its peak: the
    engine's per-seat and per-game arrays, and with ``rows`` the per-game
    table and the copies Arrow makes on its way to a Parquet file."""
    g = get_game(game)
    engine = chunk * (players * g.n_seat_stats + g.n_game_stats) * 8
    table = chunk * players * (len(g.seat_columns) + len(g.game_columns) + 3) * 4 * 3 if rows else 0
    return engine + table


def check_chunk_memory(chunk: int, players: int, rows: bool, in_flight: int = 1,
                       game: str = DEFAULT_GAME) -> None:
    """Refuse a --chunk whose buffers (``in_flight`` chunks at a time) would
    not fit in the memory left, saying how much it needs."""
    need = chunk_bytes(chunk, players, rows, game) * in_flight
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
    if first == 0 and games - 1 > MAX_GAME_INDEX:     # no --first given: name only --games
        raise ZsimError(f"--games must be at most 2**62, got {games}")
    if first + games - 1 > MAX_GAME_INDEX:
        raise ZsimError(f"game indices must stay below 2**62; --first {first} with --games {games} goes past it")
    if not 0 <= seed <= MAX_SEED:
        raise ZsimError(f"--seed must be in 0..2**64-1, got {seed}")


_outputs = threading.local()


def chunk_outputs(m: Matchup, n: int) -> tuple[np.ndarray, np.ndarray]:
    """This thread's (seat_out, game_out) arrays with room for ``n`` games of
    ``m``'s game and player count, for a loop that plays chunk after chunk
    into them (:func:`play_chunk`'s ``seat_out`` and ``game_out``) and is done
    with one before it plays the next. A chunk's outputs are hundreds of
    bytes a game (about 50 MB for 65,536 Zahltag games of four), and fresh
    arrays that size come from the system as new pages that the kernel
    clears on first touch: a third of a one-thread run's time
    (docs/performance.md). The engines overwrite every row they play, so
    the old contents never show."""
    g = m.spec
    key = (m.game, m.players)
    held = getattr(_outputs, "arrays", None)
    if held is None or held[0] != key or held[1].shape[0] < n:
        held = (key, np.empty((n, m.players, g.n_seat_stats), np.int64), np.empty((n, g.n_game_stats), np.int64))
        _outputs.arrays = held
    return held[1], held[2]


def play_chunk(m: Matchup, seed: int, first_game: int, n_games: int,
               seat_out: np.ndarray | None = None, game_out: np.ndarray | None = None,
               block: int = BLOCK, roster=None):
    """Play games ``first_game .. first_game + n_games - 1`` of ``m``'s game;
    returns the (seat_out [n, P, S], game_out [n, G]) arrays; raises
    ZsimError if any strategy made an illegal decision. Every game's chunks
    go through here: it is the one place an illegal move is caught.

    ``roster`` (a :class:`~zsim.roster.Roster`) names the strategies the
    kernels are compiled for; by default those of ``m.compile_for``, else
    the matchup's own strategies."""
    g = m.spec
    if seat_out is None:
        seat_out = np.zeros((n_games, m.players, g.n_seat_stats), np.int64)
        game_out = np.zeros((n_games, g.n_game_stats), np.int64)
    ids, params = strategy_arrays(m.game, list(m.strategies))
    if block < 1:
        raise ValueError(f"block must be at least 1, not {block}")
    if roster is None and m.compile_for is not None:
        roster = strategy_roster(m.game, m.compile_for)
    if searches(m.game, m.strategies):
        from zsim.harness.stepping import play_stepped_chunk_into

        play_stepped_chunk_into(m, seed, first_game, n_games, list(m.strategies), params.shape[1], seat_out,
                                game_out, block, roster)
    else:
        g.play_chunk_into(m, seed, first_game, n_games, ids, params, seat_out, game_out, block,
                          roster_of(m.game, ids, roster))
    # an engine plays an illegal decision as a pass (or stops the game); a run built on one is not to be trusted
    bad = np.flatnonzero(game_out[:n_games, g.illegal_column]) if g.illegal_column >= 0 else ()
    if len(bad):
        who = g.illegal_detail(game_out[bad[0]], m.strategies)
        if who:
            raise ZsimError(f"{who} gave an illegal answer in game {first_game + int(bad[0])} of seed {seed} "
                            f"({len(bad)} game(s) of {n_games} stopped)")
        raise ZsimError(f"a strategy made an illegal move (engine bug): games {first_game}.."
                        f"{first_game + n_games - 1}, seed {seed}, strategies {', '.join(m.strategies)}")
    return seat_out[:n_games], game_out[:n_games]


# ---------------------------------------------------------------- the fold
def n_agg(game: str = DEFAULT_GAME) -> int:
    """Columns of a game's running sums (see :mod:`zsim.games.fold_nb`)."""
    from zsim.games.fold_nb import A_FIRST_COLUMN
    return A_FIRST_COLUMN + len(get_game(game).summary_columns)


def new_agg(m: Matchup) -> np.ndarray:
    return np.zeros((m.players, n_agg(m.game)), np.int64)


def fold(m: Matchup, seat_out: np.ndarray, n: int, agg: np.ndarray) -> None:
    """Add ``n`` games' per-seat rows to the running sums ``agg`` (in place)."""
    from zsim.games.fold_nb import KIND_MEAN, KIND_SHARE, fold_nb

    g = m.spec
    if seat_out.shape[0] < n or seat_out.shape[1:] != (m.players, g.n_seat_stats):
        raise ValueError(f"fold: {n} games of {m.players} seats do not fit rows of shape {seat_out.shape}")
    cols = np.array([g.seat_index(c.source) for c in g.summary_columns], np.int64)
    kinds = np.array([KIND_SHARE if c.kind == "share" else KIND_MEAN for c in g.summary_columns], np.int64)
    fold_nb(seat_out, n, g.seat_index("place"), g.seat_index(g.score), cols, kinds, WIN_UNITS, agg)


def agg_games(agg: np.ndarray) -> int:
    """Games folded into ``agg``."""
    return int(agg[0, 0])


def win_share_ci(agg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's win share and its 95% half-width, from running sums."""
    from zsim.games.fold_nb import A_GAMES, A_WIN_UNITS, A_WIN_UNITS_SQ

    a = agg.astype(np.float64)
    n = a[:, A_GAMES]
    win = a[:, A_WIN_UNITS] / (WIN_UNITS * n)
    win_var = np.maximum(a[:, A_WIN_UNITS_SQ] / (WIN_UNITS ** 2 * n) - win ** 2, 0.0)
    return win, 1.96 * np.sqrt(win_var / n)


@dataclass
class Summary:
    matchup: Matchup
    seed: int
    agg: np.ndarray          # int64 [P, n_agg(game)]
    games: int               # games folded into agg
    interrupted: bool = False  # stopped by Ctrl-C (see zsim.harness.runs.simulate's stop_on_interrupt)

    def table(self) -> pl.DataFrame:
        """One row per seat: win share, the score (money) and mean place with
        their intervals, then the game's own columns."""
        from zsim.games.fold_nb import A_FIRST_COLUMN, A_GAMES, A_PLACE, A_SCORE, A_SCORE_SQ

        g = self.matchup.spec
        a = self.agg.astype(np.float64)
        n = a[:, A_GAMES]
        score = g.score_label
        mean = a[:, A_SCORE] / n
        var = np.maximum(a[:, A_SCORE_SQ] / n - mean ** 2, 0.0) * n / np.maximum(n - 1, 1)
        win, win_ci = win_share_ci(self.agg)
        cols = {
            "seat": list(range(self.matchup.players)),
            "strategy": list(self.matchup.strategies),
            "win_share": win,
            "win_ci95": win_ci,
            f"{score}_mean": mean,
            f"{score}_ci95": 1.96 * np.sqrt(var / n),
            f"{score}_sd": np.sqrt(var),
            "mean_place": a[:, A_PLACE] / n,
        }
        for k, c in enumerate(g.summary_columns):
            cols[c.name] = a[:, A_FIRST_COLUMN + k] / n
        return pl.DataFrame(cols)


# ---------------------------------------------------------------- per-game rows
def rows_frame(m: Matchup, seat_out: np.ndarray, game_out: np.ndarray, first_game: int) -> pl.DataFrame:
    """One row per game per seat (the ``--out`` table): game, seat, strategy,
    the game's seat columns, its game columns, then its labelled columns."""
    g = m.spec
    n, p = seat_out.shape[0], m.players
    cols: dict[str, object] = {
        "game": np.repeat(np.arange(first_game, first_game + n, dtype=np.int64), p),
        "seat": np.tile(np.arange(p, dtype=np.int8), n),
        # gathered from a P-long categorical: building n*P strings costs more than the game
        "strategy": pl.Series(list(m.strategies), dtype=pl.Categorical).gather(np.tile(np.arange(p), n)),
    }
    flat = seat_out.reshape(n * p, seat_out.shape[2])
    for i, c in enumerate(g.seat_columns):
        cols[c.name] = flat[:, i].astype(np.int32)
    labelled = []
    for i, c in enumerate(g.game_columns):
        if c.name in g.categories:
            labelled.append((i, c.name))
            continue
        cols[c.name] = np.repeat(game_out[:, i].astype(np.int32), p)
    for i, name in labelled:
        labels = pl.Series(list(g.categories[name]), dtype=pl.Categorical)
        cols[name] = labels.gather(np.repeat(game_out[:, i], p))
    return pl.DataFrame(cols)


def seat_column_names(game: str = DEFAULT_GAME) -> tuple[str, ...]:
    return tuple(c.name for c in get_game(game).seat_columns)


def game_column_names(game: str = DEFAULT_GAME) -> tuple[str, ...]:
    return tuple(c.name for c in get_game(game).game_columns)



def check_out_path(path: str | os.PathLike, stream: str | None = None, form: str = "Parquet") -> Path:
    """Where a file ``--out`` is written, checked before a game is played:
    the name itself, or where its symbolic link leads (that file is
    replaced, the link kept). A named pipe, a device or a socket is
    returned as it is when the output can be written as a stream
    (``stream``: the format's name, e.g. "JSON lines") and refused in one
    line otherwise (``form``: the format that cannot); a folder, a missing
    or unwritable folder is refused too."""
    from zsim.output import link_end, special_kind

    p = Path(path)
    kind = special_kind(p)
    if kind is not None:
        if stream is not None:
            return p
        raise ZsimError(f"--out {str(p)!r} is {kind}, not a regular file; {form} output is written as a "
                        f"whole file, not as a stream: give a file name")
    if p.is_dir():
        raise ZsimError(f"--out {str(p)!r} is a folder, not a file")
    end = link_end(p)
    led = f" (where the link {str(p)!r} leads)" if end != p else ""
    parent = end.parent if str(end.parent) else Path(".")
    if not parent.is_dir():
        raise ZsimError(f"--out folder {str(parent)!r}{led} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ZsimError(f"--out folder {str(parent)!r}{led} is not writable")
    return end


def summary_json(summary: Summary) -> list[dict]:
    rows = summary.table().to_dicts()
    for r in rows:
        for k, v in r.items():
            if isinstance(v, float) and not math.isfinite(v):
                r[k] = None
    return rows
