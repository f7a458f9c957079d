"""A dask scheduler with no workers: the run says at once that it waits for
one, and for how long, rather than waiting in silence.

On the command line that is one ``zsim: waiting ...`` line on stderr (a pipe
gets it too; ``--quiet`` drops it), in the API a :class:`ZsimWarning` at the
caller's line, and on a terminal the progress bar's label says so while the
wait lasts. A wait that ends without a worker is still the one ``zsim:
error:`` line and exit status 2; a worker that joins lets the run go on.

The scheduler and the worker here are real ``dask scheduler`` and ``dask
worker`` processes, as a user starts them."""
from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest
from conftest import start_zsim
from rich.console import Console

import zsim
from zsim import progress
from zsim.harness import backends
from zsim.errors import ZsimError, ZsimWarning

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["--games", "1000"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dask(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "dask", *args, "--no-dashboard"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def scheduler():
    """The address of a `dask scheduler` with no workers (the last test adds one)."""
    port = free_port()
    proc = dask("scheduler", "--host", "127.0.0.1", "--port", str(port))
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "dask scheduler did not start"
                time.sleep(0.05)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        stop(proc)


class Lines:
    """A stream's lines as they come, each with the moment it was read."""

    def __init__(self, stream):
        self.got: list[tuple[float, str]] = []
        self._reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._reader.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.got.append((time.monotonic(), line.rstrip("\n")))

    def wait_for(self, text: str, limit: float) -> float:
        """When the first line holding ``text`` came (fails after ``limit`` seconds)."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            for t, line in list(self.got):
                if text in line:
                    return t
            if not self._reader.is_alive() and not any(text in line for _, line in self.got):
                break
            time.sleep(0.02)
        pytest.fail(f"no line with {text!r} on stderr; got {[line for _, line in self.got]}")

    def lines(self) -> list[str]:
        self._reader.join(30)
        return [line for _, line in self.got]


def notice(address: str, seconds: str) -> str:
    return f"zsim: waiting up to {seconds} s for a dask worker at {address} (the scheduler has none)"


def simulate_on(address: str, *args: str, idle: str):
    return start_zsim(["simulate", "--backend", "dask", "--scheduler", address, *GAMES, *args], cwd=ROOT,
                      env={**os.environ, backends.IDLE_TIMEOUT_ENV: idle})


def finish(proc: subprocess.Popen, limit: float) -> int:
    try:
        return proc.wait(limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"zsim still running after {limit} s")


# ---------------------------------------------------------------- the pieces, in process
def test_the_notice_is_a_warning_at_the_callers_line_every_time():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")      # Python's own: a plain warning would show once per line
        for _ in range(2):
            backends.notify("waiting up to 5 s for a dask worker at tcp://head:8786 (the scheduler has none)")
    assert [w.category for w in seen] == [ZsimWarning, ZsimWarning]
    assert str(seen[0].message) == "waiting up to 5 s for a dask worker at tcp://head:8786 (the scheduler has none)"
    assert seen[0].filename == __file__      # the first frame outside zsim: here


def test_the_bar_says_what_the_run_waits_for_and_a_warning_goes_above_it(capsys):
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=120)
    with progress.progress(1000, "simulate", delay=0.0, console=console) as p:
        end = time.monotonic() + 30
        while not p.drawn and time.monotonic() < end:     # the timer thread puts it up
            time.sleep(0.01)
        assert p.drawn
        progress.waiting("waiting for a dask worker")
        p._bar.refresh()
        with progress.above_bar():
            print("zsim: a line for the user", file=sys.stderr)
        waited = buf.getvalue()
        progress.waiting(None)
        p._bar.refresh()
        after = buf.getvalue()[len(waited):]
    assert "simulate: waiting for a dask worker" in waited
    assert "zsim: a line for the user\n" in waited     # printed by the bar's console, on a line of its own
    assert "simulate" in after and "waiting" not in after
    assert capsys.readouterr().err == ""           # nothing went past the bar to stderr itself


# ---------------------------------------------------------------- against a real scheduler
def test_the_api_warns_then_gives_up(scheduler, monkeypatch):
    monkeypatch.setenv(backends.IDLE_TIMEOUT_ENV, "1")
    with pytest.warns(ZsimWarning) as seen, pytest.raises(ZsimError) as err:
        zsim.simulate(backend="dask", scheduler=scheduler, games=1000, progress=False)
    assert [str(w.message) for w in seen] == [notice(scheduler, "1")[len("zsim: "):]]
    assert seen[0].filename == __file__
    assert str(err.value) == (f"the dask cluster at {scheduler} has had no workers for 1 s; "
                              f"start workers or use --backend local")


def test_cli_says_it_waits_at_once_then_gives_up_with_one_line(scheduler):
    idle = 3
    proc = simulate_on(scheduler, idle=str(idle))
    quiet = simulate_on(scheduler, "--quiet", idle=str(idle))
    err = Lines(proc.stderr)
    waiting = err.wait_for("waiting up to", 60)
    assert proc.poll() is None                      # said while the run waits
    assert finish(proc, 60) == 2 and finish(quiet, 60) == 2
    gave_up = err.wait_for("zsim: error:", 5)
    lines = err.lines()
    error = (f"zsim: error: the dask cluster at {scheduler} has had no workers for {idle} s; "
             f"start workers or use --backend local")
    assert lines == [notice(scheduler, str(idle)), error]     # one line each, no traceback
    # the notice came as the wait began, not as it ended
    assert gave_up - waiting >= idle - 1
    assert quiet.stderr.read().splitlines() == [error]       # --quiet: the error alone


def test_a_worker_that_joins_lets_the_run_finish(scheduler):
    local = json.loads(json.dumps(zsim.simulate(games=1000, progress=False).to_json()))
    proc = simulate_on(scheduler, "--json", idle="60")
    err = Lines(proc.stderr)
    err.wait_for("waiting up to 60 s", 60)
    worker = dask("worker", scheduler, "--nworkers", "1", "--nthreads", "1")
    try:
        assert finish(proc, 120) == 0
    finally:
        stop(worker)
    assert err.lines() == [notice(scheduler, "60")]
    assert json.loads(proc.stdout.read()) == local
