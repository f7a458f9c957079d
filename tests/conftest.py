"""Shared fixtures and helpers: the default deck, a few matchups every test can reuse, and
kernels compiled in the test itself."""
from __future__ import annotations

import os

import pytest

# The suite plays hundreds of different strategy fields once each: one kernel
# of every installed strategy per game (compiled once, in the background)
# serves them all, where a kernel per field would compile dozens of times.
# The tests of zsim.roster run the default, a kernel per field, and hold it
# to this one game by game (tests/test_roster.py).
os.environ.setdefault("ZSIM_ROSTER", "all")


# ---------------------------------------------------------------- the example plugin game: begin
# examples/geier (Hol's der Geier, a game plugged in from outside zsim) is
# installed for real, as its README says, by pip into a folder put first on
# sys.path and on PYTHONPATH (zsim subprocesses see it too), so that every
# test over the registered games (tests/test_games_conformance.py) covers it.
# It happens before zsim is imported: the kernel cache's folder is named by a
# digest of the plugins' sources and their paths, read once at import. The
# folder is named by a digest of the example's files, so that one source
# keeps one kernel cache: each session installs afresh and keeps its install
# unless one of the same sources is in place already.
def _install_example_game() -> tuple[str, float]:
    """Install examples/geier; (the folder it is in, the seconds the install took)."""
    import hashlib
    import shutil
    import subprocess
    import sys
    import tempfile
    import time
    from pathlib import Path

    source = Path(__file__).resolve().parent.parent / "examples" / "geier"
    left_out = ("build", "*.egg-info", "__pycache__")          # what a build leaves in a tree
    skip = shutil.ignore_patterns(*left_out)
    files = sorted(p for p in source.rglob("*") if p.is_file() and not any(
        Path(part).match(pattern) for part in p.relative_to(source).parts for pattern in left_out))
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes())
    target = Path(tempfile.gettempdir()) / f"zsim-{os.getuid()}" / "example-games" / f"geier-{digest.hexdigest()[:16]}"
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="zsim-geier-") as work:
        shutil.copytree(source, Path(work) / "src", ignore=skip)     # the build leaves the tree alone
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                               "--no-build-isolation", "--target", str(Path(work) / "site"), str(Path(work) / "src")],
                              capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise RuntimeError(f"pip install of examples/geier failed (exit {done.returncode}): {last} "
                               f"(--no-build-isolation builds with this environment's setuptools, >= 70.1)")
        seconds = time.perf_counter() - started
        if not target.is_dir():
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.rename(Path(work) / "site", target)
            except OSError:              # another session put the same sources in place first
                pass
    sys.path.insert(0, str(target))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(target), os.environ.get("PYTHONPATH")) if p)
    import importlib

    importlib.invalidate_caches()
    games = sys.modules.get("zsim.game_registry")
    if games is not None:                # the registry read the entry points before the install
        games.registry.cache_clear()
        games._plugin.cache_clear()
    return str(target), seconds


EXAMPLE_GAME_SITE, EXAMPLE_GAME_SECONDS = _install_example_game()


def pytest_report_header(config):
    return f"examples/geier installed in {EXAMPLE_GAME_SECONDS:.1f} s, into {EXAMPLE_GAME_SITE}"
# ---------------------------------------------------------------- the example plugin game: end

from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules

def uncached(decorator):
    """``decorator`` (a zsim.jit kind) with the disk cache switched off for the kernels it
    makes: they compile in the test itself, every run, and are never written to the cache
    (numba keeps no IR to inspect for a kernel read back, and the suite's cache is warm)."""
    from numba.core.caching import NullCache

    def wrap(fn):
        kernel = decorator(fn)
        kernel._cache = NullCache()
        return kernel
    return wrap


def default_stop_signals() -> None:
    """For a zsim subprocess (``preexec_fn``): SIGINT, SIGTERM and SIGHUP as a plain
    shell leaves them, whatever the suite was started under. A shell's background
    job ignores SIGINT and ``nohup make test`` ignores SIGHUP, the child inherits
    that, and zsim keeps an ignored signal ignored (``zsim.signals.install``)."""
    import signal

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


#: the zsim processes the running test started (``start_zsim``)
_STARTED: list = []


def start_zsim(args, cwd=None, env=None, preexec=None):
    """``python -m zsim.cli ARGS`` in the background, its output piped as text and its
    stop signals at their defaults (``preexec``: run instead of ``default_stop_signals``).
    A run still going when its test ends is killed (``_no_zsim_run_outlives_its_test``)."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "zsim.cli", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=preexec or default_stop_signals)
    _STARTED.append(proc)
    return proc


@pytest.fixture(autouse=True)
def _no_zsim_run_outlives_its_test():
    """A test that failed half-way must not leave a run of millions of games to slow
    the tests after it."""
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def check_finished_run_folder(folder, what: str, shards: int, games: int) -> None:
    """A run folder whose run is complete: SHA256SUMS lists each of the ``shards``
    shards once with its true digest, summary.json counts ``games``, and no hidden
    (half-written) file is left. ``what`` opens every failure's message."""
    import hashlib
    import json

    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == [], what
    listed = {}
    for line in (folder / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ")
        assert name not in listed, f"{what}: {name} listed twice"
        listed[name] = digest
    on_disk = sorted(folder.glob("chunk-*.parquet"))
    assert sorted(listed) == [p.name for p in on_disk] and len(on_disk) == shards, what
    assert all(hashlib.sha256(p.read_bytes()).hexdigest() == listed[p.name] for p in on_disk), what
    assert json.loads((folder / "summary.json").read_text())["games"] == games, what


def golden_run(args: list[str], tmp) -> str:
    """What ``zsim ARGS`` prints, run in this process ("{tmp}" in an argument is
    the folder ``tmp``); a run that fails fails the test. The golden tests' runner."""
    from click.testing import CliRunner

    from zsim.cli import cli

    args = [a.replace("{tmp}", str(tmp)) for a in args]
    r = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.output


def text_sha(text: str) -> str:
    """The SHA-256 of ``text`` (UTF-8), as the golden files keep a long output."""
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


#: the rule sets every game-by-game comparison runs under
VARIANTS = {
    "default": {},
    "penalize": {"over_cap": "penalize"},
    "counts_table": {"payday_counts_table": True},
}


def field(players: int) -> list[str]:
    """A mixed field: simple and random alternate, so both bidders and the
    penalty (which only random walks into) are exercised."""
    return [("simple", "random")[s % 2] for s in range(players)]


@pytest.fixture(scope="session")
def deck():
    return default_deck()


@pytest.fixture(scope="session")
def rules():
    return Rules()


@pytest.fixture
def no_open_figures():
    """Start and end a test with no matplotlib figure open."""
    import matplotlib.pyplot as plt

    plt.close("all")
    yield
    plt.close("all")


# ---------------------------------------------------------------- a small filesystem
class SmallFs:
    """A folder on a filesystem that fills up: a real tmpfs of ``size`` bytes
    when this process may mount one (root), else an ordinary folder whose
    subprocesses run under a file-size limit (RLIMIT_FSIZE, with SIGXFSZ
    ignored), so that their writes past ``size`` bytes fail in the kernel
    (EFBIG rather than ENOSPC: the same path through every writer).

    ``grow()`` lifts the limit (a remount, or no limit), as freeing space would."""

    def __init__(self, path, size: int):
        import subprocess

        self.path = path
        self.size = size
        path.mkdir(parents=True, exist_ok=True)
        # ZSIM_TEST_NO_MOUNT=1 tries the stand-in where a mount would work
        self.mounted = not os.environ.get("ZSIM_TEST_NO_MOUNT") and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
            capture_output=True).returncode == 0
        self.limit: int | None = None if self.mounted else size
        #: what the failed writes say
        self.errors = ("No space left on device",) if self.mounted else ("File too large",)

    def preexec(self):
        """For subprocess.Popen(preexec_fn=...): the file-size limit, if any."""
        limit = self.limit

        def apply():
            import resource
            import signal

            default_stop_signals()
            if limit is not None:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        return apply

    def grow(self, size: int = 256 << 20) -> None:
        import subprocess

        if self.mounted:
            subprocess.run(["mount", "-o", f"remount,size={size}", str(self.path)], check=True)
        self.limit = None

    def close(self) -> None:
        import subprocess

        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)


@pytest.fixture
def small_fs(tmp_path):
    """A 256 KiB filesystem at tmp_path/small (see :class:`SmallFs`)."""
    fs = SmallFs(tmp_path / "small", 256 << 10)
    yield fs
    fs.close()


# ---------------------------------------------------------------- plugins for a subprocess
def plugin_site(site, group: str, modules: dict[str, str]) -> dict:
    """Install the strategy modules ``{name: source}`` as the package ``probe_pkg``
    in the folder ``site`` under the entry-point group ``group``; the
    environment for a subprocess that sees them (with a kernel cache of its own, and
    the default rosters: it compiles what it plays, not every strategy)."""
    import textwrap

    (site / "probe_pkg").mkdir()
    (site / "probe_pkg" / "__init__.py").write_text("")
    for name, source in modules.items():
        (site / "probe_pkg" / f"{name}.py").write_text(textwrap.dedent(source))
    info = site / "probe_pkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: probe-pkg\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n" + "".join(f"{n} = probe_pkg.{n}\n" for n in modules))
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path, ZSIM_CACHE_DIR=str(site / "cache"), ZSIM_ROSTER="exact")


# ---------------------------------------------------------------- work started with the session
class Background:
    """Slow work that needs nothing from the tests before it: the reference
    engines' games of the game-by-game comparisons, subprocess runs that
    compile a strategy set of their own (a plugin means a new dispatcher, so
    the whole engine is compiled again in that process), and the compile of
    the games other than Zahltag into the kernel cache (see
    :func:`_to_warm`).

    It starts when the session does, at a low CPU priority, so it fills the
    core that the mostly one-threaded rest of the suite leaves idle and
    hardly slows a test down; a test takes its results when it gets there
    (and waits for whatever is not done yet). The work and the checks on it
    are the tests' own: only the moment it starts moves.

    ``blocks(key, fn, args)`` -> ``[fn(a) for a in args]``, computed in a
    pool of one process per core; ``result(key, fn)`` -> ``fn()``, called in
    a thread (for work that waits on subprocesses, which inherit the
    thread's priority). Modules announce their work in
    ``start_in_background(background, items)``, given their selected tests;
    a key nobody announced is started when first asked for."""

    #: the pool's processes, and (a little less low) the threads' subprocesses:
    #: these are single long compiles, best not left for the end
    NICE = 10
    THREAD_NICE = 5

    def __init__(self, tmp_path_factory):
        self.tmp_path_factory = tmp_path_factory
        self._pool = None
        self._threads = None
        self._blocks: dict = {}
        self._results: dict = {}
        #: threads start once every module has announced its work, so the
        #: pool's processes are forked before any thread runs
        self._pending: list | None = []
        self._procs: list = []
        self._closing = False

    @classmethod
    def _lower_thread_priority(cls):
        """Run this thread, and the subprocesses it starts, at the lowest
        priority (on Linux a niceness is a thread's, and a child inherits it
        from the thread that forks it)."""
        import threading

        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), cls.THREAD_NICE)
        except (AttributeError, OSError):
            pass

    def submit_blocks(self, key, fn, args) -> None:
        from concurrent.futures import ProcessPoolExecutor

        if key in self._blocks:
            return
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=max(1, os.cpu_count() or 1),
                                             initializer=os.nice, initargs=(self.NICE,))
        self._blocks[key] = [self._pool.submit(fn, a) for a in args]

    def start(self, key, fn) -> None:
        from concurrent.futures import ThreadPoolExecutor

        if key in self._results or self._pending is not None and any(k == key for k, _ in self._pending):
            return
        if self._pending is not None:
            self._pending.append((key, fn))
            return
        if self._threads is None:
            self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="zsim-background",
                                               initializer=self._lower_thread_priority)
        self._results[key] = self._threads.submit(fn)

    def launch(self) -> None:
        """Start the threads' work announced so far, and any later at once."""
        pending, self._pending = self._pending or [], None
        for key, fn in pending:
            self.start(key, fn)

    def run(self, args, timeout: float = 900, **kwargs):
        """subprocess.run(args, capture_output=True, text=True) for the
        threads' work; a run still going when the session ends is killed."""
        import subprocess

        if self._closing:
            raise RuntimeError("the session is over")
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
        self._procs.append(proc)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        return subprocess.CompletedProcess(args, proc.returncode, out, err)

    def blocks(self, key, fn, args) -> list:
        self.submit_blocks(key, fn, args)
        return [f.result() for f in self._blocks[key]]

    def result(self, key, fn):
        self.start(key, fn)
        return self._results[key].result()

    def close(self) -> None:
        """Drop the work no test took: queued blocks are cancelled, running
        subprocesses killed."""
        self._closing = True
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        for proc in self._procs:
            if proc.poll() is None:
                proc.kill()
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)


def _to_warm(by_module) -> list[tuple[str, str]]:
    """(what, game) compiled beside the tests when they span several files:
    ``"warm"`` for each game besides Zahltag, ``"stepped"`` for each game
    with a forward model.

    The first tests compile Zahltag's engine in this process; meanwhile
    subprocesses compile the other games' kernels, and every game's stepped
    games and search, into the same kernel cache, so that the tests that
    play them later load them instead (on a warm cache they only load
    them). A run of one file is left alone."""
    from zsim.games import DEFAULT_GAME, registry

    if len(by_module) < 2:
        return []
    return ([("warm", g) for g in registry() if g != DEFAULT_GAME]
            + [("stepped", g) for g, spec in sorted(registry().items()) if spec.forward]
            + [("trace", g) for g in TRACED])


def _compile_kernels(work: Background, game: str):
    """``zsim simulate --game GAME`` on a few games: compiles what a run of it needs."""
    import sys

    return work.run([sys.executable, "-m", "zsim.cli", "simulate", "--game", game, "-p", "2", "-n", "20",
                     "-q", "--json"])


def _compile_stepped(work: Background, game: str):
    """A few games of ``game`` with a searching seat: compiles the forward
    model's stepped games and the search, which the tests of the forward
    models and the searches then load (after the game's own engine, whose
    kernels they share)."""
    import sys

    from zsim.games import DEFAULT_GAME

    if game != DEFAULT_GAME:
        warm_game(work, game)
    return work.run([sys.executable, "-m", "zsim.cli", "simulate", "--game", game, "-p", "2", "-n", "2",
                     "--strategies", "ismcts:iterations=2", "-q", "--json"])


#: the games whose win-probability traces the tests play (tests/test_trace.py, tests/test_drama.py)
TRACED = ("zahltag", "zahlemann", "baumeister")


def _compile_trace(work: Background, game: str):
    """One tiny drama analysis of ``game``: compiles its traces (the forward
    model's continuations from a redrawn and a determinised position)."""
    import sys

    warm_stepped(work, game)
    return work.run([sys.executable, "-m", "zsim.cli", "analyze", "--game", game, "drama", "-p", "2", "-n", "1",
                     "--continuations", "2", "-q"])


def warm_trace(background: Background, game: str) -> None:
    """Wait for the background compile of ``game``'s traces (see ``_compile_trace``)."""
    background.result(("trace", game), lambda: _compile_trace(background, game))


def warm_stepped(background: Background, game: str) -> None:
    """Wait for the background compile of ``game``'s stepped games and search (see ``warm_game``)."""
    background.result(("stepped", game), lambda: _compile_stepped(background, game))


def pytest_collection_modifyitems(session, config, items):
    """Tests marked ``late`` go last (in their order): each waits for a subprocess that compiles a
    whole engine of its own, which has the session's start to finish in while the rest run."""
    items.sort(key=lambda item: item.get_closest_marker("late") is not None)


def warm_game(background: Background, game: str) -> None:
    """Wait for the background compile of ``game``'s kernels (starting it if this run has none), so
    that the first test of the game loads them rather than compiling them a second time alongside."""
    background.result(("warm", game), lambda: _compile_kernels(background, game))


@pytest.fixture(scope="session", autouse=True)
def background(request, tmp_path_factory):
    """The session's :class:`Background`, its work announced by the modules of
    the selected tests (in the order the tests run) before the first test."""
    work = Background(tmp_path_factory)
    by_module: dict = {}
    for item in request.session.items:
        by_module.setdefault(item.module, []).append(item)
    compile_ = {"warm": _compile_kernels, "stepped": _compile_stepped, "trace": _compile_trace}
    for what, game in _to_warm(by_module):
        work.start((what, game), lambda what=what, game=game: compile_[what](work, game))
    for module, items in by_module.items():
        announce = getattr(module, "start_in_background", None)
        if announce is not None:
            announce(work, items)
    work.launch()
    yield work
    work.close()
