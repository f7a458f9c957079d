"""Long runs: chunks as tasks, run folders that survive a crash, stopping at
a target precision, and the local and dask backends that play the chunks.

A run is a list of chunks: chunk ``i`` holds games ``i * chunk ..`` and is
played by :func:`play_task` wherever the backend puts it. Whatever order the
chunks finish in, the driver folds them in chunk order (holding early
finishers back), so the integer sums, the stopping point of ``--precision``
and the shard files are the same on every backend and thread count.

A run folder (``--out DIR``) holds ``manifest.json`` (what the run plays) and
one ``chunk-NNNNNNNN.parquet`` per chunk: the chunk's per-game rows, with the
chunk's sums in the file's metadata. Each shard is written under a temporary
name and renamed, so a shard on disk is always whole; ``--resume`` reads the
shards back, checks the manifest and plays only the chunks that are missing.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from zsim import __version__
from zsim.errors import ZsimError
from zsim.games.zahltag.batch_nb import A_GAMES, N_AGG, accumulate_nb
from zsim.runner import (DEFAULT_CHUNK, Matchup, Summary, check_games_and_seed, play_chunk, rows_frame,
                         win_share_ci)

MANIFEST = "manifest.json"
FORMAT = 1
AGG_KEY = b"zsim.agg"
BACKENDS = ("local", "dask")


# ---------------------------------------------------------------- the plan
@dataclass(frozen=True)
class Plan:
    matchup: Matchup
    seed: int
    games: int                  # planned games (the cap, with a precision target)
    chunk: int = DEFAULT_CHUNK
    precision: float | None = None

    def __post_init__(self):
        check_games_and_seed(self.games, self.seed)
        if not 1 <= self.chunk <= 1 << 24:
            raise ZsimError(f"--chunk must be 1..{1 << 24}, got {self.chunk}")
        if self.precision is not None and not 0 < self.precision < 1:
            raise ZsimError(f"--precision must be between 0 and 1 (a win-share half-width), got {self.precision}")

    @property
    def n_chunks(self) -> int:
        return -(-self.games // self.chunk)

    def span(self, index: int) -> tuple[int, int]:
        """(first game, games) of chunk ``index``."""
        first = index * self.chunk
        return first, min(self.chunk, self.games - first)

    def manifest(self) -> dict:
        m = self.matchup
        return {"format": FORMAT, "game": "zahltag", "players": m.players, "strategies": list(m.strategies),
                "rules": m.rules.as_dict(), "deck": {"name": m.deck.name, "needs": m.deck.needs.tolist()},
                "seed": self.seed, "games": self.games, "chunk": self.chunk, "precision": self.precision}


def precise_enough(agg: np.ndarray, target: float) -> bool:
    """Every seat's win-share 95% half-width (as the summary prints it) is at
    most ``target``."""
    if agg[0, A_GAMES] < 2:
        return False
    return bool((win_share_ci(agg)[1] <= target).all())


# ---------------------------------------------------------------- one chunk, anywhere
@dataclass
class ChunkResult:
    index: int
    games: int
    agg: np.ndarray                 # int64 [P, N_AGG]
    rows: pa.Table | None           # per-game rows when the run keeps them


def play_task(m: Matchup, seed: int, index: int, first: int, n: int, rows: bool,
              threads: int | None = None) -> ChunkResult:
    """Play one chunk (a dask task, or a plain call on the local backend)."""
    if threads is not None:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    seat_out, game_out = play_chunk(m, seed, first, n)
    agg = np.zeros((m.players, N_AGG), np.int64)
    accumulate_nb(seat_out, n, agg)
    table = rows_frame(m, seat_out, game_out, first).to_arrow() if rows else None
    return ChunkResult(index, n, agg, table)


# ---------------------------------------------------------------- backends
class LocalBackend:
    """Chunks one after another in this process, each over all numba threads."""
    name = "local"

    def results(self, plan: Plan, indices: list[int], rows: bool) -> Iterator[ChunkResult]:
        for i in indices:
            first, n = plan.span(i)
            yield play_task(plan.matchup, plan.seed, i, first, n, rows)

    def close(self) -> None:
        pass


class DaskBackend:
    """Chunks as dask tasks: on a LocalCluster started for the run, or on the
    cluster whose scheduler ``address`` names. A few tasks per worker are in
    flight at a time, so the driver's memory stays flat; a task lost with
    its worker is run again by dask."""
    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 worker_threads: int | None = None):
        try:
            from distributed import Client, LocalCluster
        except ImportError:   # pragma: no cover - a dependency of zsim
            raise ZsimError("--backend dask needs the 'distributed' package") from None
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="20s")
            except OSError as exc:
                raise ZsimError(f"cannot reach the dask scheduler at {scheduler}: {exc}") from None
            self.threads = worker_threads
        else:
            n = workers or os.cpu_count() or 1
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                        host="127.0.0.1", dashboard_address=None)
            self.client = Client(self.cluster)
            # one numba thread per worker process: the workers share the cores
            self.threads = worker_threads or 1

    def workers(self) -> int:
        return max(1, len(self.client.scheduler_info(n_workers=-1).get("workers", {})))

    def results(self, plan: Plan, indices: list[int], rows: bool) -> Iterator[ChunkResult]:
        from distributed import as_completed

        todo = list(indices)
        window = 2 * self.workers()
        futures = as_completed()
        active = {}

        def submit(i: int) -> None:
            first, n = plan.span(i)
            f = self.client.submit(play_task, plan.matchup, plan.seed, i, first, n, rows, self.threads,
                                   key=f"zsim-chunk-{plan.seed}-{i}-{os.getpid()}-{id(self)}", pure=False,
                                   retries=3)
            active[f.key] = f
            futures.add(f)

        try:
            while todo and len(active) < window:
                submit(todo.pop(0))
            for f in futures:
                res = f.result()
                del active[f.key]
                f.release()
                if todo:
                    submit(todo.pop(0))
                yield res
        finally:
            for f in list(active.values()):
                f.cancel()

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()


def make_backend(name: str, scheduler: str | None = None, workers: int | None = None):
    if name not in BACKENDS:
        raise ZsimError(f"--backend must be one of {', '.join(BACKENDS)}, got {name!r}")
    if scheduler and name != "dask":
        raise ZsimError("--scheduler needs --backend dask")
    if workers is not None and workers < 1:
        raise ZsimError(f"--workers must be at least 1, got {workers}")
    return DaskBackend(scheduler, workers) if name == "dask" else LocalBackend()


# ---------------------------------------------------------------- run folders
def _shard_name(index: int) -> str:
    return f"chunk-{index:08d}.parquet"


class RunFolder:
    """The shards and manifest of one run (see the module doc)."""

    def __init__(self, path: Path):
        self.path = Path(path)

    @classmethod
    def open(cls, path, plan: Plan, resume: bool) -> "RunFolder":
        path = Path(path)
        parent = path.parent if str(path.parent) else Path(".")
        if path.exists() and not path.is_dir():
            raise ZsimError(f"--out {str(path)!r} is a file; a run folder must be a folder")
        if not path.exists() and not parent.is_dir():
            raise ZsimError(f"--out folder {str(parent)!r} does not exist")
        folder = cls(path)
        manifest = path / MANIFEST
        if resume:
            if not manifest.is_file():
                raise ZsimError(f"--resume: {str(path)!r} holds no zsim run (no {MANIFEST})")
            try:
                old = json.loads(manifest.read_text())
            except (OSError, ValueError) as exc:
                raise ZsimError(f"--resume: {str(manifest)!r} cannot be read: {exc}") from None
            new = plan.manifest()
            diff = [k for k in sorted(set(old) | set(new)) if k != "zsim" and old.get(k) != new.get(k)]
            if diff:
                raise ZsimError(f"--resume: this command differs from the run in {str(path)!r} in "
                                f"{', '.join(diff)}; give the same options, or a new --out folder")
            folder.clean_temporaries()
            return folder
        if path.exists() and any(path.iterdir()):
            what = "a zsim run (add --resume to finish it)" if manifest.is_file() else "other files"
            raise ZsimError(f"--out folder {str(path)!r} already holds {what}")
        try:
            path.mkdir(exist_ok=True)
        except OSError as exc:
            raise ZsimError(f"cannot create --out folder {str(path)!r}: {exc.strerror or exc}") from None
        if not os.access(path, os.W_OK | os.X_OK):
            raise ZsimError(f"--out folder {str(path)!r} is not writable")
        folder.write_json(MANIFEST, {**plan.manifest(), "zsim": __version__})
        return folder

    def write_json(self, name: str, doc: dict) -> None:
        tmp = self.path / f".{name}.part"
        tmp.write_text(json.dumps(doc, indent=1) + "\n")
        os.replace(tmp, self.path / name)

    def clean_temporaries(self) -> None:
        """Drop what a killed run left half-written."""
        for p in self.path.glob(".*.part"):
            p.unlink(missing_ok=True)

    def done(self, plan: Plan) -> dict[int, np.ndarray]:
        """The sums of every whole shard on disk, by chunk index."""
        out = {}
        for i in range(plan.n_chunks):
            p = self.path / _shard_name(i)
            if not p.is_file():
                continue
            try:
                meta = pq.read_schema(p).metadata or {}
                info = json.loads(meta[AGG_KEY])
            except (OSError, KeyError, ValueError, pa.ArrowException):
                p.unlink()      # not a whole shard (cannot happen after a rename): play it again
                continue
            agg = np.asarray(info["agg"], dtype=np.int64)
            if info.get("games") != plan.span(i)[1] or agg.shape != (plan.matchup.players, N_AGG):
                raise ZsimError(f"--resume: shard {p.name} does not belong to this run")
            out[i] = agg
        return out

    def write(self, res: ChunkResult) -> None:
        meta = {AGG_KEY: json.dumps({"games": res.games, "agg": res.agg.tolist()}).encode()}
        table = res.rows.replace_schema_metadata({**(res.rows.schema.metadata or {}), **meta})
        name = _shard_name(res.index)
        tmp = self.path / f".{name}.part"
        try:
            pq.write_table(table, tmp, compression="zstd")
            os.replace(tmp, self.path / name)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def finish(self, summary: Summary, stopped_early: bool) -> None:
        self.write_json("summary.json", {"games": summary.games, "stopped_at_precision": stopped_early,
                                         "agg": summary.agg.tolist()})


# ---------------------------------------------------------------- the run
@dataclass
class RunResult:
    summary: Summary
    resumed_games: int = 0          # games found on disk and not played again
    stopped_at_precision: bool = False
    interrupted: bool = False       # Ctrl-C: the summary covers the chunks folded before it


def run(plan: Plan, backend=None, folder: RunFolder | None = None,
        on_games: Callable[[int], None] | None = None,
        on_rows: Callable[[pa.Table], None] | None = None) -> RunResult:
    """Play the plan's chunks, fold them in chunk order and stop at the cap
    or, with a precision target, at the first chunk that meets it.
    ``on_rows`` receives each chunk's per-game rows in chunk order (the
    one-file ``--out``); ``on_games(n)`` hears of every chunk folded.

    A Ctrl-C (KeyboardInterrupt) ends the run with the chunks folded so far,
    which a run folder already holds: the same command with --resume goes on."""
    backend = backend or LocalBackend()
    m = plan.matchup
    agg = np.zeros((m.players, N_AGG), np.int64)
    on_disk = folder.done(plan) if folder is not None else {}
    folded = 0
    resumed = 0
    nxt = 0

    def fold(i: int, chunk_agg: np.ndarray) -> None:
        nonlocal folded
        agg[...] += chunk_agg
        folded += plan.span(i)[1]

    def met() -> bool:
        return plan.precision is not None and precise_enough(agg, plan.precision)

    # the chunks already on disk that lead the run count first
    while nxt < plan.n_chunks and nxt in on_disk and not met():
        fold(nxt, on_disk[nxt])
        resumed += plan.span(nxt)[1]
        nxt += 1
    if on_games is not None and resumed:
        on_games(resumed)
    stopped = met()
    interrupted = False
    if not stopped and nxt < plan.n_chunks:
        todo = [i for i in range(nxt, plan.n_chunks) if i not in on_disk]
        pending: dict[int, ChunkResult] = {}
        results = backend.results(plan, todo, rows=folder is not None or on_rows is not None)
        try:
            for res in results:
                pending[res.index] = res
                while nxt < plan.n_chunks and (nxt in pending or nxt in on_disk):
                    if nxt in pending:
                        r = pending.pop(nxt)
                        if folder is not None:
                            folder.write(r)       # on disk before it counts
                        fold(nxt, r.agg)
                        if on_rows is not None:
                            on_rows(r.rows)
                        if on_games is not None:
                            on_games(r.games)
                    else:
                        fold(nxt, on_disk[nxt])
                        resumed += plan.span(nxt)[1]
                    nxt += 1
                    if met():
                        stopped = True
                        break
                if stopped or nxt >= plan.n_chunks:
                    break
        except KeyboardInterrupt:
            interrupted = True
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()
    summary = Summary(m, plan.seed, agg, folded, interrupted=interrupted)
    if folder is not None and not interrupted:
        folder.finish(summary, stopped)
    return RunResult(summary, resumed, stopped, interrupted)


def read_rows(folder: Path) -> Iterable[pa.Table]:
    """The per-game rows of a run folder, shard by shard in game order."""
    for p in sorted(Path(folder).glob("chunk-*.parquet")):
        yield pq.read_table(p)
