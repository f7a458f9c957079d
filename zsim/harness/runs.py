"""Long runs: chunks folded in order, run folders that survive a crash, and
stopping at a target precision.

A run is a list of chunks: chunk ``i`` holds games ``i * chunk ..`` and is
played by :func:`zsim.harness.backends.play_task` wherever the backend
(:mod:`zsim.harness.backends`) puts it. Whatever order the
chunks finish in, the driver folds them in chunk order (holding early
finishers back), so the integer sums, the stopping point of ``--precision``
and the shard files are the same on every backend and thread count.

A run folder (``--out DIR``) holds ``manifest.json`` (what the run plays),
one ``chunk-NNNNNNNN.parquet`` per chunk (the chunk's per-game rows, and in
the file's metadata the run's id, the chunk's index and its sums) and
``SHA256SUMS`` (each shard's SHA-256, in ``sha256sum`` format). A shard is
written under a temporary name, listed in SHA256SUMS, and only then renamed,
so a shard on disk is always whole and always listed. ``--resume`` checks the
manifest, refuses any shard it cannot prove to be this run's own and whole
(not listed, another checksum, another run id or chunk), and plays only the
chunks that are missing. :func:`simulate` is a run on the local backend
without a folder, for the analyses' own reductions; the plan itself is
:class:`zsim.harness.plan.Plan`.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from zsim.harness.backends import ChunkResult, LocalBackend
from zsim.errors import ZsimError, output_error
from zsim.game_registry import DEFAULT_GAME
from zsim.install import __version__
from zsim.output import atomic_path, file_digest, special_kind
from zsim.harness.plan import FORMAT, Plan
from zsim.harness.chunks import (DEFAULT_CHUNK, Matchup, Summary, agg_games, check_games_and_seed, n_agg,
                         new_agg, win_share_ci)

if TYPE_CHECKING:
    import pyarrow as pa      # pyarrow is imported where a shard is read or written

MANIFEST = "manifest.json"
SUMS = "SHA256SUMS"
SHARD_KEY = b"zsim.shard"


def precise_enough(agg: np.ndarray, target: float) -> bool:
    """Every seat's win-share 95% half-width (as the summary prints it) is at
    most ``target``."""
    if agg_games(agg) < 2:
        return False
    return bool((win_share_ci(agg)[1] <= target).all())


# ---------------------------------------------------------------- run folders
_SHARD = re.compile(r"chunk-(\d{8,})\.parquet")
_SUM_LINE = re.compile(r"([0-9a-f]{64})  (chunk-\d{8,}\.parquet)\n")


def _shard_name(index: int) -> str:
    return f"chunk-{index:08d}.parquet"


class RunFolder:
    """The manifest, shards and checksums of one run (see the module doc).

    While a zsim process has the folder open it holds an exclusive lock on
    it, so two processes never write (or resume) one run at once; the lock
    goes with the process, however it ends."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._lock_fd: int | None = None
        self._run_id = ""
        self._sums: dict[str, str] = {}      # shard name -> SHA-256, as SHA256SUMS lists them

    # -- opening -------------------------------------------------------------
    @classmethod
    def open(cls, path, plan: Plan, resume: bool) -> "RunFolder":
        """The run folder ``path`` for ``plan``: a new one (made, or an empty
        folder), or with ``resume`` the one a matching run left. Holds the
        folder's lock until :meth:`close` (``run`` closes it at its end)."""
        path = Path(path)
        parent = path.parent if str(path.parent) else Path(".")
        kind = special_kind(path)
        if kind is not None or (path.exists() and not path.is_dir()):
            raise ZsimError(f"--out {str(path)!r} is {kind or 'a file'}; a run folder must be a folder "
                            f"(a path ending in .parquet writes one file)")
        if not path.exists():
            if not parent.is_dir():
                raise ZsimError(f"--out folder {str(parent)!r} does not exist")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise ZsimError(f"--out folder {str(parent)!r} is not writable, so the run folder "
                                f"{str(path)!r} cannot be made there")
        folder = cls(path)
        folder._run_id = run_id(plan)
        try:
            return folder._open(plan, resume)
        except BaseException:
            folder.close()
            raise

    def _open(self, plan: Plan, resume: bool) -> "RunFolder":
        path = self.path
        manifest = path / MANIFEST
        if resume:
            if not manifest.is_file():
                raise ZsimError(f"--resume: {str(path)!r} holds no zsim run (no {MANIFEST})")
            self._lock()
            old = self._read_manifest()
            game = plan.matchup.game
            if old.get("game", DEFAULT_GAME) != game:
                raise ZsimError(f"--resume: {str(path)!r} holds a run of {old.get('game')!r}, not of "
                                f"{game}; give --game {old.get('game')} to finish it, or a new --out folder")
            diff = manifest_diff(old, plan.manifest())
            if diff:
                raise ZsimError(f"--resume: this command differs from the run in {str(path)!r} in "
                                f"{', '.join(diff)}; give the same options, or a new --out folder")
            self.clean_temporaries()
            return self
        created = not path.exists()
        if not created:
            self._lock()
            self.clean_temporaries()      # a killed run's half-written files do not count
            if any(path.iterdir()):
                what = "a zsim run (add --resume to finish it)" if manifest.is_file() else "other files"
                raise ZsimError(f"--out folder {str(path)!r} already holds {what}")
        else:
            try:
                path.mkdir()
            except OSError as exc:
                raise output_error(exc, f"--out folder {str(path)!r}") from None
            self._lock()
        if not os.access(path, os.W_OK | os.X_OK):
            raise ZsimError(f"--out folder {str(path)!r} is not writable")
        try:
            self.write_json(MANIFEST, {**plan.manifest(), "run": self._run_id, "zsim": __version__})
            self._write_sums()
        except BaseException:
            # nothing of the run is on disk: leave the folder as it was (gone, if it was made here)
            (path / MANIFEST).unlink(missing_ok=True)
            (path / SUMS).unlink(missing_ok=True)
            if created:
                self.close()
                try:
                    path.rmdir()
                except OSError:
                    pass
            raise
        return self

    def _lock(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError as exc:
            raise ZsimError(f"--out folder {str(self.path)!r} cannot be opened: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ZsimError(f"--out folder {str(self.path)!r} is in use by another zsim process; "
                            "wait for it to finish") from None
        self._lock_fd = fd

    def close(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    __del__ = close

    def _read_manifest(self) -> dict:
        where = str(self.path / MANIFEST)
        try:
            old = json.loads((self.path / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else "not valid JSON"
            raise ZsimError(f"--resume: {where!r} cannot be read ({reason})") from None
        if not isinstance(old, dict) or not all(k in old for k in ("format", "players", "seed", "games")):
            raise ZsimError(f"--resume: {where!r} is not the manifest of a zsim run")
        if old.get("format") != FORMAT:
            raise ZsimError(f"--resume: {where!r} was written in run-folder format {old.get('format')!r}; "
                            f"this zsim writes format {FORMAT}: start a new --out folder")
        return old

    # -- writing ---------------------------------------------------------------
    def write_json(self, name: str, doc: dict) -> None:
        with atomic_path(self.path / name, f"{name} in run folder {str(self.path)!r}") as tmp:
            tmp.write_text(json.dumps(doc, indent=1) + "\n")

    def _write_sums(self) -> None:
        """SHA256SUMS afresh (atomically) from what is known now."""
        with atomic_path(self.path / SUMS, f"{SUMS} in run folder {str(self.path)!r}") as tmp:
            tmp.write_text("".join(f"{d}  {n}\n" for n, d in sorted(self._sums.items())))

    def _append_sum(self, name: str, digest: str) -> None:
        with open(self.path / SUMS, "a", encoding="ascii") as fh:
            fh.write(f"{digest}  {name}\n")
            fh.flush()
            os.fsync(fh.fileno())
        self._sums[name] = digest

    def clean_temporaries(self) -> None:
        """Drop what a killed run left half-written (the lock says no other
        process writes here)."""
        for p in self.path.glob(".*.part"):
            p.unlink(missing_ok=True)

    def write(self, res: ChunkResult, first: int) -> None:
        """Write chunk ``res.index`` (games ``first ..``) as its shard: to a
        temporary, its checksum into SHA256SUMS, then renamed (so every
        shard on disk is listed)."""
        info = {"run": self._run_id, "index": res.index, "first": first, "games": res.games,
                "agg": res.agg.tolist()}
        meta = {SHARD_KEY: json.dumps(info).encode()}
        table = res.rows.replace_schema_metadata({**(res.rows.schema.metadata or {}), **meta})
        name = _shard_name(res.index)
        what = f"shard {name} of run folder {str(self.path)!r} (--resume goes on from the shards written)"
        import pyarrow.parquet as pq

        with atomic_path(self.path / name, what) as tmp:
            pq.write_table(table, tmp, compression="zstd")
            self._append_sum(name, file_digest(tmp)[1])

    def finish(self, summary: Summary, stopped_early: bool) -> None:
        self._write_sums()
        self.write_json("summary.json", {"games": summary.games, "stopped_at_precision": stopped_early,
                                         "agg": summary.agg.tolist()})

    # -- reading back ------------------------------------------------------------
    def _read_sums(self) -> dict[str, str]:
        """SHA256SUMS as written; a line cut short by a kill is not a line."""
        try:
            text = (self.path / SUMS).read_text(encoding="ascii", errors="replace")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise ZsimError(f"--resume: {str(self.path / SUMS)!r} cannot be read ({exc.strerror})") from None
        sums = {}
        for line in text.splitlines(keepends=True):
            m = _SUM_LINE.fullmatch(line)
            if m:
                sums[m[2]] = m[1]
        return sums

    def done(self, plan: Plan) -> dict[int, np.ndarray]:
        """The sums of every shard on disk, by chunk index, each proven whole
        (its SHA-256 is the one SHA256SUMS lists) and this run's own (its
        metadata names this run and this chunk); any other is refused with
        one line naming it. SHA256SUMS is then rewritten to list exactly
        the shards on disk."""
        listed = self._read_sums()
        shards = []
        for p in self.path.iterdir():
            m = _SHARD.fullmatch(p.name)
            if m:
                shards.append((int(m[1]), p))
        shards.sort()
        out: dict[int, np.ndarray] = {}
        problems: list[str] = []
        for i, p in shards:
            problem, agg = self._check_shard(plan, i, p, listed)
            if problem:
                problems.append(f"{p.name} {problem}")
            else:
                out[i] = agg
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise ZsimError(f"--resume: shard {problems[0]}{more}; such a shard is never counted: "
                            f"move it out of {str(self.path)!r} and --resume plays its games again")
        self._sums = {_shard_name(i): listed[_shard_name(i)] for i in out}
        self._write_sums()
        return out

    def _check_shard(self, plan: Plan, i: int, p: Path,
                     listed: dict[str, str]) -> tuple[str, np.ndarray | None]:
        """(why shard ``p`` of chunk ``i`` may not be folded, or "";
        its sums when it may)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if i >= plan.n_chunks:
            return f"is past this run's last chunk ({plan.n_chunks - 1})", None
        want = listed.get(p.name)
        if want is None:
            return f"is not listed in {SUMS}: zsim did not write it in this run", None
        try:
            if file_digest(p)[1] != want:
                return f"is damaged: its SHA-256 is not the one {SUMS} lists", None
            meta = pq.read_schema(p).metadata or {}
            info = json.loads(meta[SHARD_KEY])
            agg = np.asarray(info["agg"], dtype=np.int64)
        except (OSError, KeyError, ValueError, TypeError, pa.ArrowException):
            return "cannot be read as a zsim shard", None
        if not isinstance(info, dict) or info.get("run") != self._run_id:
            return "belongs to another run (another seed, field, rules, deck or chunking)", None
        first, n = plan.span(i)
        if info.get("index") != i or info.get("first") != first or info.get("games") != n \
                or agg.shape != (plan.matchup.players, n_agg(plan.matchup.game)) or agg_games(agg) != n:
            return f"does not hold chunk {i} of this run", None
        return "", agg


def manifest_diff(old: dict, new: dict) -> list[str]:
    """The keys in which two manifests differ (the zsim version and the run
    id aside, and decks by their jobs, not by the file's path)."""
    def deck_jobs(doc):
        d = doc.get("deck")
        return d.get("needs") if isinstance(d, dict) else d

    diff = []
    for k in sorted(set(old) | set(new)):
        if k in ("zsim", "run"):
            continue
        if k == "deck":
            if deck_jobs(old) != deck_jobs(new):
                diff.append("deck (its jobs)")
        elif old.get(k) != new.get(k):
            diff.append(k)
    return diff


def run_id(plan: Plan) -> str:
    """A digest of what fixes a run's games (the manifest but the deck's
    path): every shard carries it."""
    doc = dict(plan.manifest())
    if isinstance(doc.get("deck"), dict):
        doc["deck"] = doc["deck"]["needs"]
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:32]


# ---------------------------------------------------------------- the run
@dataclass
class RunResult:
    summary: Summary
    resumed_games: int = 0          # games found on disk and not played again
    stopped_at_precision: bool = False
    interrupted: bool = False       # Ctrl-C: the summary covers the chunks folded before it


def _run(plan: Plan, backend, folder: RunFolder | None, on_games, on_rows, on_arrays) -> RunResult:
    m = plan.matchup
    agg = new_agg(m)
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
        # lazily: a cap of 10**15 games must cost nothing until it is played
        todo = (i for i in range(nxt, plan.n_chunks) if i not in on_disk)
        pending: dict[int, ChunkResult] = {}
        keep_rows = folder is not None or on_rows is not None
        results = (backend.results(plan, todo, rows=keep_rows) if on_arrays is None else
                   backend.results(plan, todo, rows=keep_rows, arrays=True))
        try:
            for res in results:
                pending[res.index] = res
                while nxt < plan.n_chunks and (nxt in pending or nxt in on_disk):
                    if nxt in pending:
                        r = pending.pop(nxt)
                        if folder is not None:
                            folder.write(r, plan.span(nxt)[0])    # on disk before it counts
                        fold(nxt, r.agg)
                        if on_rows is not None:
                            on_rows(r.rows)
                        if on_arrays is not None:
                            on_arrays(*r.arrays, plan.span(nxt)[0])
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


def run(plan: Plan, backend=None, folder: RunFolder | None = None,
        on_games: Callable[[int], None] | None = None,
        on_rows: Callable[[pa.Table], None] | None = None,
        on_arrays: Callable[[np.ndarray, np.ndarray, int], None] | None = None) -> RunResult:
    """Play the plan's chunks, fold them in chunk order and stop at the cap
    or, with a precision target, at the first chunk that meets it.
    ``on_rows`` receives each chunk's per-game rows in chunk order (the
    one-file ``--out``); ``on_arrays(seat_out, game_out, first)`` each
    chunk's engine arrays (the local backend only: the analyses' reductions);
    ``on_games(n)`` hears of every chunk folded.

    A Ctrl-C (KeyboardInterrupt, or SIGTERM/SIGHUP as its subclass) ends the
    run with the chunks folded so far, which a run folder already holds: the
    same command with --resume goes on. The folder is closed (its lock
    released) when the run ends, however it ends."""
    try:
        return _run(plan, backend or LocalBackend(), folder, on_games, on_rows, on_arrays)
    finally:
        if folder is not None:
            folder.close()


def read_rows(folder: Path) -> Iterable[pa.Table]:
    """The per-game rows of a run folder, shard by shard in game order."""
    import pyarrow.parquet as pq

    for p in sorted(Path(folder).glob("chunk-*.parquet")):
        yield pq.read_table(p)


def simulate(m: Matchup, games: int, seed: int, chunk: int = DEFAULT_CHUNK,
             on_chunk: Callable[[np.ndarray, np.ndarray, int], None] | None = None,
             stop_on_interrupt: bool = False) -> Summary:
    """Play ``games`` games and fold them into a :class:`Summary`: the run
    of :func:`run` on the local backend, without a run folder.

    ``on_chunk(seat_out, game_out, first_game)`` sees every chunk's per-game
    arrays (for the analyses' own reductions) in game order, before they are
    dropped.

    ``stop_on_interrupt``: a Ctrl-C (KeyboardInterrupt) ends the run and the
    Summary of the games finished so far is returned, marked ``interrupted``
    (without it the interrupt propagates as usual)."""
    check_games_and_seed(games, seed)       # before min(chunk, games) can hide a bad count
    result = run(Plan(m, seed, games, min(chunk, games)), LocalBackend(), on_arrays=on_chunk)
    if result.interrupted and not stop_on_interrupt:
        raise KeyboardInterrupt
    return result.summary
