"""The ``zsim`` command, run many times without paying for its start each time.

A refused input ends a run a few milliseconds into it, but starting Python with
numpy, polars and numba costs most of a second, and the suite refuses inputs
well over a hundred times. :class:`CommandForks` starts one server process that
imports :mod:`zsim.cli` once and never plays a game. For each run it forks a
child, which moves to the run's folder, takes a file each as its stdout and
stderr (and /dev/null as stdin), and calls the entry point's ``main()`` with the
run's arguments, exactly what ``python -m zsim.cli`` calls. The child leaves with
the command's exit status, or with 1 and the traceback on stderr, as Python
would. The server runs no kernel and imports no polars (whose threads would
be copied half-alive into every child); its one other thread is OpenBLAS's,
which OpenBLAS stops and restarts around a fork itself, so a fork is safe.

What this leaves out is the start itself. tests/test_cli_errors.py runs a
sample of the same inputs through ``python -m zsim.cli`` and asks for the same
result both ways.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SERVER = r'''
import json, os, sys, time, traceback
import zsim.cli        # numpy and numba, not polars: its threads (and jemalloc's) stay out of the forks

def child(req):
    code = 1
    try:
        os.chdir(req["cwd"])
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, req["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            new = os.open(path, flags, 0o600)
            os.dup2(new, fd)
            os.close(new)
        sys.argv = ["zsim", *req["args"]]
        try:
            zsim.cli.main()
            code = 0
        except SystemExit as stop:
            if stop.code is None or isinstance(stop.code, int):
                code = stop.code or 0
            else:                          # sys.exit("text"): Python prints it and exits 1
                print(stop.code, file=sys.stderr)
                code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code & 0xFF)

for line in iter(sys.stdin.readline, ""):
    req = json.loads(line)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        child(req)
    deadline = time.monotonic() + req["timeout"]
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            code = "timeout"
            break
        time.sleep(0.002)
    sys.stdout.write(json.dumps(code) + "\n")
    sys.stdout.flush()
'''


class CommandForks:
    """``run(args, cwd)`` -> a :class:`subprocess.CompletedProcess` of ``zsim ARGS`` run in ``cwd``."""

    def __init__(self):
        self._server: subprocess.Popen | None = None
        self._files = Path(tempfile.mkdtemp(prefix="zsim-forks-"))

    def _start(self) -> subprocess.Popen:
        if self._server is None or self._server.poll() is not None:
            self._server = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True, env=dict(os.environ))
        return self._server

    def run(self, args: list[str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
        server = self._start()
        out, err = self._files / "stdout", self._files / "stderr"
        request = {"args": [str(a) for a in args], "cwd": str(cwd), "out": str(out), "err": str(err),
                   "timeout": timeout}
        server.stdin.write(json.dumps(request) + "\n")
        server.stdin.flush()
        reply = server.stdout.readline()
        if not reply:
            raise RuntimeError(f"the command server stopped (exit status {server.wait()})")
        code = json.loads(reply)
        if code == "timeout":
            raise subprocess.TimeoutExpired(["zsim", *args], timeout)
        return subprocess.CompletedProcess(["zsim", *args], code, out.read_text(), err.read_text())

    def close(self) -> None:
        if self._server is not None:
            self._server.stdin.close()
            self._server.wait(timeout=30)
            self._server = None
        for f in self._files.iterdir():
            f.unlink()
        self._files.rmdir()
