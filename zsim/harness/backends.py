"""Where a run's chunks are played: here, one after another (``local``), or
as tasks on a dask cluster (``dask``).

A backend takes the plan (anything with ``task(i)`` and ``span(i)``: a run's
:class:`~zsim.harness.plan.Plan`, or the chunks of several matchups, as a
balance search plays a block) and the chunk indices still to play and yields a
:class:`ChunkResult` per chunk, in whatever order they finish; the
driver in :mod:`zsim.harness.runs` folds them in chunk order, so the backend never
changes a result. The indices may be a lazy iterable (a run can plan up to
2**46 chunks): a backend takes them one at a time as it has room to play
them, and never makes a list of them.

The dask backend never waits without bound, so a run against a cluster
that cannot play it ends with one line (a :class:`ZsimError`) rather than
hanging:

* ``--scheduler`` is checked before anything connects (:func:`parse_scheduler`);
* the connection to a scheduler must be made within ``CONNECT_TIMEOUT``
  seconds (``$ZSIM_DASK_CONNECT_TIMEOUT``), even when something that is not
  a dask scheduler holds the port and never answers;
* during the run it looks at the cluster at the start and whenever no chunk
  has finished for a second: a cluster with no workers for ``IDLE_TIMEOUT``
  seconds (``$ZSIM_DASK_IDLE_TIMEOUT``) ends the run. The wait is never
  silent: when it begins, a :class:`ZsimWarning` says how long it may last
  (a ``zsim: waiting ...`` line on the command line), and a drawn progress
  bar says so in its label until a worker joins. A scheduler that has
  gone away or stopped answering for ``CONNECT_TIMEOUT`` seconds ends it
  too, and a chunk that still fails after dask's retries ends it naming the
  chunk and the worker's error.
"""
from __future__ import annotations

import logging
import os
import queue
import sys
import threading
import time
import uuid
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator

import numpy as np

from zsim.errors import ZsimError, ZsimWarning
from zsim.harness.chunks import Matchup, chunk_outputs, fold, new_agg, play_chunk, rows_frame
from zsim.harness.scheduler import parse_scheduler, seconds_from_env

if TYPE_CHECKING:
    import pyarrow as pa      # only in annotations: a run without per-game rows never imports it

    from zsim.harness.plan import Plan

BACKENDS = ("local", "dask")

#: seconds the connection to a ``--scheduler`` may take
CONNECT_TIMEOUT = 20.0
#: seconds a run waits on a cluster that has no workers before it gives up
IDLE_TIMEOUT = 60.0
CONNECT_TIMEOUT_ENV = "ZSIM_DASK_CONNECT_TIMEOUT"
IDLE_TIMEOUT_ENV = "ZSIM_DASK_IDLE_TIMEOUT"
#: seconds without a finished chunk before the backend looks at the cluster
POLL = 1.0
#: extra seconds past the connect timeout for dask's own "timed out" to arrive
#: (a refused or unresolvable address), so that it is the one the user sees
CONNECT_GRACE = 2.0
#: how many windows of chunks may be handed out past the oldest unfinished one;
#: bounds the finished chunks the driver holds back while it waits for that one
AHEAD = 4


# ---------------------------------------------------------------- one chunk, anywhere
@dataclass
class ChunkResult:
    index: int
    games: int
    agg: np.ndarray                 # int64 [P, runner.n_agg(game)]
    rows: pa.Table | None           # per-game rows when the run keeps them
    arrays: tuple | None = None     # (seat_out, game_out) when the local caller asks for them


def play_task(m: Matchup, seed: int, index: int, first: int, n: int, rows: bool,
              threads: int | None = None, arrays: bool = False) -> ChunkResult:
    """Play one chunk (a dask task, or a plain call on the local backend).
    Unless the caller asks for the arrays themselves, the chunk is played
    into this thread's reused outputs (:func:`zsim.harness.chunks.chunk_outputs`): what leaves
    the task (the sums, the rows) is copied out of them."""
    if threads is not None:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    if arrays:
        seat_out, game_out = play_chunk(m, seed, first, n)
    else:
        seat_out, game_out = play_chunk(m, seed, first, n, *chunk_outputs(m, n))
    agg = new_agg(m)
    fold(m, seat_out, n, agg)
    table = rows_frame(m, seat_out, game_out, first).to_arrow() if rows else None
    return ChunkResult(index, n, agg, table, (seat_out, game_out) if arrays else None)


def notify(text: str) -> None:
    """Tell the user ``text`` while the run goes on: a :class:`ZsimWarning`
    raised at the caller's line outside zsim, shown every time (Python's
    default shows a warning once per place; a second run that waits the same
    way should say so too) and above a drawn progress bar. Warning filters
    still apply (the command line's ``--quiet`` ignores them all)."""
    from zsim import progress

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep   # zsim/, not zsim/harness/
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(here):
        frame = frame.f_back
    if frame is None:
        where = dict(filename="zsim", lineno=0, module="zsim")
    else:
        globs = frame.f_globals
        where = dict(filename=frame.f_code.co_filename, lineno=frame.f_lineno,
                     module=globs.get("__name__", "zsim"), module_globals=globs)
    with progress.above_bar():
        warnings.warn_explicit(text, ZsimWarning, registry=None, **where)


def _one_line(exc: BaseException) -> str:
    """An exception as one line: its type and its text, newlines folded."""
    text = " ".join(str(exc).split())
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


# ---------------------------------------------------------------- backends
class LocalBackend:
    """Chunks one after another in this process, each over all numba threads."""
    name = "local"

    def results(self, plan: Plan, indices: Iterable[int], rows: bool,
                arrays: bool = False) -> Iterator[ChunkResult]:
        for i in indices:       # lazily: the next index is taken when the last chunk is done
            m, seed, first, n = plan.task(i)
            yield play_task(m, seed, i, first, n, rows, arrays=arrays)

    def close(self) -> None:
        pass


class DaskBackend:
    """Chunks as dask tasks: on a LocalCluster started for the run, or on the
    cluster whose scheduler ``address`` names. A few tasks per worker are in
    flight at a time, and no more than ``AHEAD`` windows past the oldest
    unfinished chunk, so the driver's memory stays flat; a task lost with
    its worker is run again by dask. Every wait is bounded (see the module
    doc); ``connect_timeout`` and ``idle_timeout`` default to the module's
    constants or their environment variables."""
    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 worker_threads: int | None = None, *, connect_timeout: float | None = None,
                 idle_timeout: float | None = None):
        self.connect_timeout = (seconds_from_env(CONNECT_TIMEOUT_ENV, CONNECT_TIMEOUT)
                                if connect_timeout is None else float(connect_timeout))
        self.idle_timeout = (seconds_from_env(IDLE_TIMEOUT_ENV, IDLE_TIMEOUT)
                             if idle_timeout is None else float(idle_timeout))
        if not (self.connect_timeout > 0 and self.idle_timeout > 0):
            raise ZsimError("the dask backend's time limits must be above 0 seconds")
        if scheduler is not None:
            scheduler = parse_scheduler(scheduler)
        try:
            from distributed import Client, LocalCluster
        except ImportError:   # pragma: no cover - a dependency of zsim
            raise ZsimError("--backend dask needs the 'distributed' package") from None
        self.cluster = None
        if scheduler is not None:
            self.address = scheduler
            self.client = self._connect(Client, scheduler)
            self.threads = worker_threads
        else:
            n = workers or os.cpu_count() or 1
            # the cluster is zsim's own: a failing chunk reaches the user as one
            # line through its future, so the workers' logs (tasks cancelled
            # when a run stops, port notices) stay quiet
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                        host="127.0.0.1", dashboard_address=None,
                                        silence_logs=logging.CRITICAL)
            self.address = self.cluster.scheduler_address
            self.client = Client(self.cluster, set_as_default=False)
            # one numba thread per worker process: the workers share the cores
            self.threads = worker_threads or 1

    # ------------------------------------------------------------ connecting
    def _connect(self, Client, address: str):
        """A client of the scheduler at ``address``, made in a daemon thread so
        that a server which takes the connection and never answers (dask's own
        timeout does not cover that) costs ``connect_timeout`` seconds, and the
        thread left waiting on it does not keep zsim from exiting."""
        timeout = self.connect_timeout
        if address.startswith("tls://"):
            from distributed.security import Security

            if Security().get_connection_args("client").get("ssl_context") is None:
                raise ZsimError(f"--scheduler {address} needs dask's TLS settings (distributed.comm.tls.ca-file, "
                                f".client.cert and .client.key in the dask config); or give a tcp:// address")
        box: dict = {}
        done = threading.Event()
        lock = threading.Lock()

        def connect() -> None:
            try:
                client = Client(address, timeout=timeout, set_as_default=False)
            except BaseException as exc:     # handed to the waiting thread
                box["error"] = exc
            else:
                with lock:
                    late = box.get("abandoned", False)
                    box["client"] = client
                if late:                     # the run gave up on it: let the scheduler go
                    try:
                        client.close(timeout=5)
                    except Exception:
                        pass
            finally:
                done.set()

        threading.Thread(target=connect, name="zsim-dask-connect", daemon=True).start()
        answered = done.wait(timeout + CONNECT_GRACE)
        with lock:
            if not answered:
                box["abandoned"] = True
        if not answered:
            raise ZsimError(f"no dask scheduler answered at {address} within {timeout:g} s "
                            f"(is something else listening there?)")
        if "error" in box:
            exc = box["error"]
            if isinstance(exc, OSError):         # refused, unresolvable, timed out
                raise ZsimError(f"cannot reach the dask scheduler at {address}: {exc}") from None
            raise ZsimError(f"cannot connect to the dask scheduler at {address}: {_one_line(exc)}") from None
        return box["client"]

    # ------------------------------------------------------------ looking at the cluster
    def _probe(self) -> int | None:
        """The number of workers the scheduler knows of, or None when the
        scheduler does not answer within a few seconds."""
        if self.client.status not in ("running", "connecting"):
            return None
        try:
            info = self.client.sync(self.client.scheduler.identity, n_workers=0,
                                    callback_timeout=max(1.0, min(5.0, self.connect_timeout)))
            return int(info.get("n_workers", len(info.get("workers", {}))))
        except Exception:
            return None

    def workers(self) -> int:
        """Workers in the cluster now (at least 1: a window is never empty)."""
        return max(1, self._probe() or 0)

    def _lost(self, why: str) -> ZsimError:
        return ZsimError(f"lost the dask scheduler at {self.address} ({why}); "
                         f"a run folder (--out DIR) keeps the finished chunks for --resume")

    # ------------------------------------------------------------ playing
    def results(self, plan: Plan, indices: Iterable[int], rows: bool) -> Iterator[ChunkResult]:
        flight = _InFlight(self, plan, indices, rows)
        try:
            flight.look()             # a cluster with no workers says so now, not after a second
            flight.hand_out()
            while flight.active:
                try:
                    f = flight.finished.get(timeout=POLL)
                except queue.Empty:
                    flight.look()
                    flight.hand_out()
                    continue
                entry = flight.active.get(f.key)
                if entry is None or entry[0] is not f:
                    continue
                res = flight.collect(f, entry[1])
                if res is None:
                    flight.look()
                    f.add_done_callback(flight.finished.put)    # heard of again once it is played again
                    continue
                del flight.active[f.key]
                f.release()
                flight.wait_ends()      # a worker played it
                if time.monotonic() - flight.last_probe > 10 * POLL:
                    flight.look()      # now and then, so the window follows workers that come and go
                flight.hand_out()
                yield res
        finally:
            flight.let_go()

    def _failed(self, plan: Plan, i: int, exc: BaseException) -> ZsimError:
        first, n = plan.span(i)
        return ZsimError(f"chunk {i} (games {first:,}..{first + n - 1:,}) failed on the dask cluster at "
                         f"{self.address}, after its retries: {_one_line(exc)}")

    def close(self) -> None:
        """Let go of the cluster; never raises (it runs while an error may be on
        its way to the user) and never waits long. Closing a client whose
        scheduler is gone stops its attempts to reconnect, which dask logs as an
        error with a traceback; zsim has said what happened in one line, so
        that log is dropped."""
        quiet = _DropAll()
        log = logging.getLogger("distributed.client")
        log.addFilter(quiet)
        try:
            self.client.close(timeout=5)
        except Exception:
            pass
        finally:
            log.removeFilter(quiet)
            if self.cluster is not None:
                try:
                    self.cluster.close(timeout=10)
                except Exception:
                    pass


class _InFlight:
    """One run's chunks on a dask cluster: those handed out and not yet taken back, the
    window of how many may be out, and the watch on the cluster's workers and scheduler
    (:meth:`DaskBackend.results` drives it)."""

    def __init__(self, backend: DaskBackend, plan: Plan, indices: Iterable[int], rows: bool):
        self.backend, self.plan, self.rows = backend, plan, rows
        self.todo = iter(indices)
        self.finished: queue.SimpleQueue = queue.SimpleQueue()   # futures, as dask says they are done
        self.active: dict[str, tuple[object, int, int]] = {}    # key -> (future, chunk index, order handed out)
        self.run_id = uuid.uuid4().hex  # keys never meet an earlier run's, on this cluster or another
        self.handed = 0                 # chunks handed out so far
        self.more = True                # the indices are not used up
        self.window = 2                 # until the first look says how many workers there are
        self.last_probe = time.monotonic()
        self.no_workers_since: float | None = None
        self.no_answer_since: float | None = None

    def wait_begins(self) -> None:
        b = self.backend
        notify(f"waiting up to {b.idle_timeout:g} s for a dask worker at {b.address} (the scheduler has none)")
        _progress_waiting("waiting for a dask worker")

    def wait_ends(self) -> None:
        if self.no_workers_since is not None:
            self.no_workers_since = None
            _progress_waiting(None)

    def hand_out(self) -> None:
        plan, b = self.plan, self.backend
        while self.more and len(self.active) < self.window:
            if self.active and self.handed - min(o for _, _, o in self.active.values()) >= AHEAD * self.window:
                return     # the oldest chunk is late: the driver would have to hold the rest
            try:
                i = next(self.todo)
            except StopIteration:
                self.more = False
                return
            m, seed, first, n = plan.task(i)
            f = b.client.submit(play_task, m, seed, i, first, n, self.rows, b.threads,
                                key=f"zsim-chunk-{i}-{self.run_id}", pure=False, retries=3)
            self.active[f.key] = (f, i, self.handed)
            self.handed += 1
            f.add_done_callback(self.finished.put)

    def look(self) -> None:
        """Raise when the cluster cannot finish the run; else adjust the window."""
        b = self.backend
        t = time.monotonic()
        self.last_probe = t
        if b.client.status in ("closing", "closed"):
            raise b._lost("the connection is closed")
        n = b._probe()
        if n is None:
            self.no_answer_since = self.no_answer_since or t
            if t - self.no_answer_since >= b.connect_timeout:
                raise b._lost(f"no answer for {b.connect_timeout:g} s")
            return
        self.no_answer_since = None
        if n == 0:
            if self.no_workers_since is None:
                self.no_workers_since = t
                self.wait_begins()
            if t - self.no_workers_since >= b.idle_timeout:
                raise ZsimError(f"the dask cluster at {b.address} has had no workers for "
                                f"{b.idle_timeout:g} s; start workers or use --backend local")
        else:
            self.wait_ends()
            self.window = 2 * n

    def collect(self, f, i: int) -> ChunkResult | None:
        """The chunk's result, or None when it is not to be had yet (its
        result went with a worker and dask plays it again)."""
        b = self.backend
        status = f.status
        if status == "finished":
            try:
                return f.result(timeout=b.connect_timeout)
            except TimeoutError:
                return None
            except Exception as exc:
                status = f.status
                if status in ("pending", "lost"):
                    return None
                if status != "cancelled":
                    raise b._failed(self.plan, i, exc) from None
        if status == "error":
            try:
                exc = f.exception(timeout=b.connect_timeout)
            except Exception as e:   # the error itself could not be fetched
                exc = e
            raise b._failed(self.plan, i, exc) from None
        if status == "cancelled":
            if b.client.status != "running":
                raise b._lost("the connection closed mid-run")
            raise ZsimError(f"chunk {i} of the run was cancelled on the dask cluster at {b.address} "
                            f"(by another client?)")
        return None

    def let_go(self) -> None:
        """A stop, an error, or the driver done early: the chunks still out are not wanted.
        Releasing is local (it queues a message), so it cannot hang on a lost scheduler."""
        for f, _, _ in self.active.values():
            f.release()
        self.active.clear()
        if self.no_workers_since is not None:
            _progress_waiting(None)


def _progress_waiting(text: str | None) -> None:
    from zsim import progress

    progress.waiting(text)


class _DropAll(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return False


def make_backend(name: str, scheduler: str | None = None, workers: int | None = None):
    """The backend ``--backend``, ``--scheduler`` and ``--workers`` ask for;
    every option is checked before anything starts or connects."""
    check_backend(name, scheduler, workers)
    if name != "dask":
        return LocalBackend()
    if scheduler is not None:
        scheduler = parse_scheduler(scheduler)
    seconds_from_env(CONNECT_TIMEOUT_ENV, CONNECT_TIMEOUT)
    seconds_from_env(IDLE_TIMEOUT_ENV, IDLE_TIMEOUT)
    return DaskBackend(scheduler, workers)


def check_backend(name: str, scheduler: str | None = None, workers: int | None = None) -> None:
    """Refuse what :func:`make_backend` would, without starting or
    connecting anything (a run checks it before it makes its --out folder)."""
    if name not in BACKENDS:
        raise ZsimError(f"--backend must be one of {', '.join(BACKENDS)}, got {name!r}")
    if scheduler is not None and name != "dask":
        raise ZsimError("--scheduler needs --backend dask")
    if workers is not None and workers < 1:
        raise ZsimError(f"--workers must be at least 1, got {workers}")
    if workers is not None and name != "dask":
        raise ZsimError("--workers needs --backend dask (the local backend uses --threads)")
    if workers is not None and scheduler is not None:
        raise ZsimError("--workers sizes the LocalCluster zsim starts; the cluster at --scheduler has "
                        "its own workers (start them with `dask worker`)")
    if scheduler is not None:
        parse_scheduler(scheduler)
