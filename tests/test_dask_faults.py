"""The dask backend against clusters that cannot play a run: a --scheduler
that is not an address, a port where something else listens, a cluster with
no workers, a scheduler that goes away, a chunk that keeps failing. Each
ends with one ``zsim: error:`` line in bounded time, never a traceback or a
hang; and the backend takes its chunk indices lazily and keeps the driver's
held-back chunks bounded.

The clusters here run inside the test process (``processes=False``, over
tcp so that a CLI subprocess can reach them too): they start in a fraction
of a second and share the test process's compiled engine."""
from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from zsim.harness import backends
from zsim.harness.backends import AHEAD, DaskBackend, LocalBackend, make_backend, parse_scheduler, play_task
from zsim.errors import ZsimError, ZsimWarning
from zsim.harness.chunks import Matchup, play_chunk
from zsim.harness.runs import Plan, run, simulate

M = Matchup(3, ("simple", "counter", "random"))
ROOT = Path(__file__).resolve().parents[1]
# the in-process schedulers find dask's usual HTTP port taken by one another; that is all
pytestmark = pytest.mark.filterwarnings("ignore:Port 8787 is already in use:UserWarning")
#: far more chunks than could ever be listed (2**46 chunks of 64 games)
HUGE = dict(games=1 << 52, chunk=64)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_cli(*args: str, env: dict | None = None) -> tuple[subprocess.Popen, float]:
    cmd = [sys.executable, "-m", "zsim.cli", "simulate", "-p", "2", "--games", "4000", "--chunk", "1000", "-q",
           "--backend", "dask", *args]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    return proc, time.monotonic()


def finish_cli(proc: subprocess.Popen, started: float, limit: float) -> tuple[int, str, float]:
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"zsim still running after {limit} s")
    return proc.returncode, err, time.monotonic() - started


def assert_one_error_line(err: str, *words: str) -> str:
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.startswith("zsim: error:")]
    assert len(lines) == 1, err
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def in_process_cluster(workers: int, threads: int = 1):
    from distributed import LocalCluster

    return LocalCluster(n_workers=workers, threads_per_worker=threads, processes=False, protocol="tcp://",
                        host="127.0.0.1", dashboard_address=None)


@pytest.fixture(scope="module")
def one_worker():
    cluster = in_process_cluster(1, threads=2)
    yield cluster
    cluster.close()


@pytest.fixture(scope="module")
def no_workers():
    cluster = in_process_cluster(0)
    yield cluster
    cluster.close()


# ---------------------------------------------------------------- --scheduler is checked first
BAD = ["tcp://127.0.0.1", "http://127.0.0.1:8786", "garbage", "tcp://:8786", "tcp://host:99999",
       "tcp://host:abc", ""]


@pytest.fixture(scope="module")
def bad_address_runs():
    # every CLI started at once: the cost is about one interpreter start, not seven
    procs = {a: start_cli("--scheduler", a) for a in BAD}
    return {a: finish_cli(p, t, 60) for a, (p, t) in procs.items()}


@pytest.mark.parametrize("address", BAD)
def test_a_bad_scheduler_address_is_one_line(address, bad_address_runs):
    rc, err, took = bad_address_runs[address]
    assert rc == 2, err
    assert_one_error_line(err, "is not a dask scheduler address", "tcp://HOST:PORT")
    assert took < 30


@pytest.mark.parametrize("address, why", [
    ("tcp://host:0", "the port must be a number in 1..65535"),
    ("::1:8786", "an IPv6 host goes in brackets"),
    ("tcp://[nope]:8786", "'nope' in brackets is not an IPv6 address"),
    ("tcp://[::1]", "there is no :PORT"),
    ("tcp://head:8786/status", "more than HOST:PORT"),
    ("tcp://300.1.1.1:8786", "'300.1.1.1' is not an IPv4 address"),
    ("tcp://bad host:8786", "more than HOST:PORT"),
    ("ws://head:8786", "not ws://"),
])
def test_more_bad_scheduler_addresses(address, why):
    with pytest.raises(ZsimError, match="is not a dask scheduler address") as err:
        parse_scheduler(address)
    assert why in str(err.value) and "tcp://HOST:PORT" in str(err.value)


@pytest.mark.parametrize("given, meant", [
    ("tcp://head:8786", "tcp://head:8786"),
    ("head.cluster.local:8786", "tcp://head.cluster.local:8786"),
    ("tls://10.0.0.1:1", "tls://10.0.0.1:1"),
    ("TCP://[::1]:65535", "tcp://[::1]:65535"),
    (" node_7:08786 ", "tcp://node_7:8786"),
])
def test_scheduler_addresses_that_are_accepted(given, meant):
    assert parse_scheduler(given) == meant


@pytest.mark.parametrize("value", ["0", "-3", "abc", "inf", "nan"])
@pytest.mark.parametrize("name", [backends.CONNECT_TIMEOUT_ENV, backends.IDLE_TIMEOUT_ENV])
def test_a_bad_timeout_variable_is_refused_before_connecting(name, value, monkeypatch):
    monkeypatch.setenv(name, value)
    t = time.monotonic()
    with pytest.raises(ZsimError, match=rf"\${name} must be a number of seconds above 0"):
        make_backend("dask", "tcp://127.0.0.1:1")
    assert time.monotonic() - t < 1      # refused, not tried


# ---------------------------------------------------------------- connecting is bounded
def test_a_server_that_is_not_a_scheduler_is_given_up_on():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "http.server did not start"
                time.sleep(0.05)
        proc, t = start_cli("--scheduler", f"tcp://127.0.0.1:{port}", env={backends.CONNECT_TIMEOUT_ENV: "3"})
        rc, err, took = finish_cli(proc, t, 30)
    finally:
        server.kill()
        server.wait()
    assert rc == 2, err
    assert_one_error_line(err, f"no dask scheduler answered at tcp://127.0.0.1:{port} within 3 s",
                          "is something else listening there?")
    assert 3 <= took < 3 + 10        # it waited its 3 s, and the stuck connection did not hold the exit


def test_a_refused_connection_says_it_cannot_reach_the_scheduler():
    port = free_port()
    t = time.monotonic()
    with pytest.raises(ZsimError, match=rf"cannot reach the dask scheduler at tcp://127.0.0.1:{port}: "):
        DaskBackend(f"127.0.0.1:{port}", connect_timeout=1.5)
    assert time.monotonic() - t < 1.5 + backends.CONNECT_GRACE + 2


# ---------------------------------------------------------------- every wait in the run is bounded
def test_cli_on_a_cluster_without_workers_gives_up(no_workers):
    proc, t = start_cli("--scheduler", no_workers.scheduler_address, env={backends.IDLE_TIMEOUT_ENV: "3"})
    rc, err, took = finish_cli(proc, t, 40)
    assert rc == 2, err
    assert_one_error_line(err, f"the dask cluster at {no_workers.scheduler_address} has had no workers for 3 s",
                          "start workers or use --backend local")
    assert 3 <= took < 3 + 15


def test_a_scheduler_that_goes_away_ends_the_run(caplog):
    cluster = in_process_cluster(0)
    backend = DaskBackend(cluster.scheduler_address, idle_timeout=60, connect_timeout=5)
    try:
        chunks = backend.results(Plan(M, seed=1, **HUGE), counting(1000)[1], rows=False)
        threading.Timer(1.0, cluster.close).start()
        t = time.monotonic()
        with pytest.raises(ZsimError, match=rf"lost the dask scheduler at {cluster.scheduler_address} ") as err, \
                pytest.warns(ZsimWarning, match="waiting up to 60 s for a dask worker"):   # it has none
            next(chunks)
        assert time.monotonic() - t < 1.0 + 5 + 3
        assert "\n" not in str(err.value)
    finally:
        t = time.monotonic()
        backend.close()
        cluster.close()
        assert time.monotonic() - t < 10       # letting go of a dead scheduler does not hang either
    # nor does it leave dask's traceback of the reconnection it stopped on stderr
    assert not [r for r in caplog.records if r.name == "distributed.client" and r.levelno >= 40]


def test_a_scheduler_that_stops_answering_ends_the_run(no_workers, monkeypatch):
    backend = DaskBackend(no_workers.scheduler_address, idle_timeout=60, connect_timeout=2)
    try:
        monkeypatch.setattr(backend, "_probe", lambda: None)     # as if its host had dropped off the network
        t = time.monotonic()
        with pytest.raises(ZsimError, match=r"lost the dask scheduler at .* \(no answer for 2 s\)"):
            next(backend.results(Plan(M, seed=1, **HUGE), counting(1000)[1], rows=False))
        assert 2 <= time.monotonic() - t < 2 + 4
    finally:
        backend.close()


def test_a_chunk_that_keeps_failing_is_one_line_naming_it(one_worker, monkeypatch):
    def broken(*a, **kw):
        raise RuntimeError("the worker's deck is\nmissing")

    monkeypatch.setattr(backends, "play_chunk", broken)     # the in-process worker plays zsim.harness.backends here
    backend = DaskBackend(one_worker.scheduler_address, idle_timeout=10)
    try:
        with pytest.raises(ZsimError) as err:
            run(Plan(M, seed=2, games=4_000, chunk=1_000), backend)
    finally:
        backend.close()
    text = str(err.value)
    assert "\n" not in text
    assert "chunk 0 (games 0..999)" in text or "chunk 1 (games 1,000..1,999)" in text, text
    assert "after its retries: RuntimeError: the worker's deck is missing" in text


# ---------------------------------------------------------------- lazy indices, bounded look-ahead
def counting(limit: int, end: int | None = None):
    """0, 1, 2, ... (up to ``end``, or for ever) recording what was taken, and
    failing the test when more than ``limit`` are taken (a backend that lists
    its indices takes them all)."""
    taken: list[int] = []

    def gen():
        for i in itertools.count() if end is None else range(end):
            if i >= limit:
                raise AssertionError(f"the backend took more than {limit} chunk indices ahead of the run")
            taken.append(i)
            yield i

    return taken, gen()


def test_local_backend_takes_indices_as_it_plays():
    plan = Plan(M, seed=3, **HUGE)
    taken, indices = counting(10)
    got = list(itertools.islice(LocalBackend().results(plan, indices, rows=False), 3))
    assert [r.index for r in got] == [0, 1, 2] and taken == [0, 1, 2]


def test_dask_backend_takes_indices_as_windows_free_up(one_worker):
    plan = Plan(M, seed=3, **HUGE)
    port = one_worker.scheduler_address.rsplit(":", 1)[1]
    backend = DaskBackend(f"127.0.0.1:{port}")          # the bare HOST:PORT form, read as tcp
    try:
        window = 2 * backend.workers()
        taken, indices = counting(40 + AHEAD * window)
        chunks = backend.results(plan, indices, rows=True)
        got = list(itertools.islice(chunks, 40))
        chunks.close()
    finally:
        backend.close()
    assert len(taken) <= 40 + window
    got_indices = [r.index for r in got]          # in any order, each chunk once, and only those taken
    assert len(set(got_indices)) == 40 and set(got_indices) <= set(taken)
    for r in got[:3] + got[-3:]:
        local = play_task(M, plan.seed, r.index, *plan.span(r.index), True)
        assert np.array_equal(r.agg, local.agg) and r.rows.equals(local.rows)


def test_a_late_chunk_holds_back_what_is_handed_out(one_worker, monkeypatch):
    plan = Plan(M, seed=4, games=40 * 64, chunk=64)
    first_chunk = play_chunk(M, plan.seed, 0, 64)
    expected = simulate(M, plan.games, plan.seed).agg     # before the engine is made late
    gate = threading.Event()
    real = backends.play_chunk

    def late_first(m, seed, first, n, *outputs):
        if first == 0:
            gate.wait(10)
            return first_chunk
        return real(m, seed, first, n, *outputs)

    monkeypatch.setattr(backends, "play_chunk", late_first)
    backend = DaskBackend(one_worker.scheduler_address)
    seen: list[int] = []
    taken_then: list[int] = []      # indices taken when each result came
    try:
        window = 2 * backend.workers()
        taken, indices = counting(plan.n_chunks, end=plan.n_chunks)
        threading.Timer(2.5, gate.set).start()
        aggs = {}
        for r in backend.results(plan, indices, rows=False):
            seen.append(r.index)
            taken_then.append(len(taken))
            aggs[r.index] = r.agg
    finally:
        gate.set()
        backend.close()
    # while chunk 0 was late only AHEAD windows were handed out, so the driver held few back
    before = seen.index(0)
    assert before == AHEAD * window - 1 and taken_then[before - 1] == AHEAD * window, (seen, taken_then)
    assert sorted(seen) == list(range(plan.n_chunks))
    assert np.array_equal(sum(aggs.values()), expected)
