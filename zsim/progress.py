"""A progress bar for long runs, drawn on stderr and only where someone watches.

A zsim run plays its games in chunks (each chunk one call into the numba
engine, tens of milliseconds to a second long), so the commands report
progress once per chunk through ``advance``; nothing here is touched per game.

The bar (games done / planned, games per second, time left) appears only
when all of these hold:

* the run has lasted ``delay`` seconds (2 by default), so quick runs print
  nothing at all;
* ``quiet`` is false;
* stderr is a terminal (a script, a pipe, a CI log or a test capturing
  stderr sees nothing), and not a ``TERM=dumb`` one; or the run is in a
  Jupyter kernel (a notebook), where the bar is one line of text below the
  cell, updated at every chunk and left there when the run ends, saying
  how many games it played and how fast.

It is transient: it is erased when the run ends, however it ends, so the
terminal shows only the results afterwards; and it never writes to stdout,
which carries the results.

While a run waits on something outside it (a dask cluster with no worker),
its label says so (:func:`waiting`), and a warning printed meanwhile goes
above the bar rather than into its line (:func:`above_bar`).

A timer thread puts the bar up after ``delay`` even while the first chunk is
still running (the first run of a session may spend ~40 s compiling the
engine); rich's own thread then redraws it a few times a second whenever the
interpreter lets it.  The engine holds the interpreter lock during a chunk, so
a redraw can lag by a chunk; that is the only cost.

Ctrl-C.  Inside ``progress(...)`` (on the main thread, when SIGINT still has
Python's default handler) a Ctrl-C does not raise wherever the interpreter
happens to be: it is noted, and the next ``advance`` raises KeyboardInterrupt,
at the end of a chunk, where the run's sums and files are whole.  Besides
giving clean stopping points this keeps the Ctrl-C from being lost: polars
runs Python's signal handlers while it works and drops the KeyboardInterrupt
they raise, so a Ctrl-C landing while polars builds the ``--out`` rows would
otherwise vanish and the run go on.  A second Ctrl-C, or one before the first
chunk has finished (e.g. while the engine compiles), raises at once.  One
that comes after the last ``advance`` is dropped: the run is done by then.
SIGTERM and SIGHUP are held the same way (:mod:`zsim.signals`); only the
exit status and the word for the stop differ.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator

from zsim.signals import STOP_SIGNALS, forget_unhandled_interrupt, is_ours, note, stop_now
from zsim.signals import describe as describe_stop
from zsim.signals import exit_code as stop_exit_code

#: seconds a run must last before the bar appears
DELAY = 2.0
#: the progress displays open in this process, the innermost last (:func:`waiting` labels it)
_OPEN: list["Progress"] = []


def stderr_is_terminal() -> bool:
    """Whether a person is (probably) watching stderr."""
    try:
        return sys.stderr is not None and sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):      # no isatty, or a closed stream
        return False


class Progress:
    """Counts what a run has done; draws the bar when it is allowed to.

    ``done`` is the running total of ``advance`` calls whether or not a bar
    is drawn, so a command can say how far it got when it is interrupted."""

    def __init__(self, total: int, label: str, unit: str = "games", *, draw: bool = False,
                 delay: float = DELAY, console=None, notebook: bool = False):
        self.total = int(total)
        self.label = label
        self.unit = unit
        self.done = 0
        self.drawn = False          # whether the bar was ever put up
        self.wait: str | None = None    # what the run waits for, shown after the label
        self._console = console
        self._bar = None            # the rich Progress, once shown
        self._task = None
        self._lock = threading.Lock()
        self._closed = False
        self._timer: threading.Timer | None = None
        self.stop_requested = False   # a Ctrl-C (or SIGTERM, SIGHUP) waits for the next advance
        self._signum = signal.SIGINT
        self._line = _NotebookLine(label, self.total, unit, delay) if notebook else None
        if draw and not notebook:
            # Import rich here, on the main thread, and only when a bar may be
            # drawn: a scripted run never pays for it.
            from rich.console import Console

            if self._console is None:
                self._console = Console(stderr=True)
            self._timer = threading.Timer(max(delay, 0.0), self._show)
            self._timer.daemon = True
            self._timer.start()

    def advance(self, n: int) -> None:
        """Record ``n`` more finished units (called once per chunk); raises
        KeyboardInterrupt if Ctrl-C was pressed since the last call."""
        self.done += int(n)
        bar = self._bar
        if bar is not None:
            bar.update(self._task, completed=self.done)
        if self._line is not None:
            self._line.update(self.done)
        if self.stop_requested:
            self.stop_requested = False
            stop_now(self._signum)

    def _on_signal(self, signum, frame) -> None:
        again = self.stop_requested
        note(signum)
        self._signum = signum
        # noted before any raise: should a library swallow the raise (polars
        # does), the next advance still stops the run
        self.stop_requested = True
        if again or self.done == 0:
            stop_now(signum)              # pressed twice, or nothing to keep yet: stop now

    def set_wait(self, text: str | None) -> None:
        """Show in the bar's label what the run waits for (``text``), or that
        it waits no more (None)."""
        with self._lock:
            self.wait = text
            bar = self._bar
            if bar is not None:
                description = self._description()
                bar.columns[1].bar_width = _bar_width(self._console, description, self.total, self.unit)
                bar.update(self._task, description=description)

    # -- the bar itself ------------------------------------------------------
    def _description(self) -> str:
        from rich.markup import escape

        return escape(self.label if not self.wait else f"{self.label}: {self.wait}")

    def _show(self) -> None:
        """Put the bar up (the timer thread calls this after the delay)."""
        with self._lock:
            if self._closed:
                return
            bar = _make_bar(self._console, self._description(), self.total, self.unit)
            task = bar.add_task(self._description(), total=self.total, completed=self.done)
            bar.start()
            self._task, self._bar, self.drawn = task, bar, True
            bar.update(task, completed=self.done)   # catch an advance made while starting

    def close(self) -> None:
        """Cancel a pending bar, or erase the one drawn.  Safe to call twice."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            bar, self._bar = self._bar, None
            if bar is not None:
                bar.stop()
            if self._line is not None:
                self._line.close(self.done)


def in_notebook() -> bool:
    """Whether zsim runs in a Jupyter kernel (a notebook in Jupyter, JupyterLab or an editor)."""
    if "ipykernel" not in sys.modules:
        return False
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and shell.__class__.__name__ == "ZMQInteractiveShell"


class _NotebookLine:
    """The progress of a run in a notebook: one line of text below the cell,
    shown once the run has lasted ``delay`` seconds and updated at most four
    times a second (at a chunk's end: a kernel draws nothing from threads
    reliably), then left saying how the run went."""

    def __init__(self, label: str, total: int, unit: str, delay: float):
        import time

        self._clock = time.monotonic
        self.label, self.total, self.unit, self.delay = label, total, unit, delay
        self.started = self._clock()
        self._handle = None
        self._last = -1.0
        self.shown: list[str] = []       # every text put up (for tests)

    def _put(self, text: str) -> None:
        from IPython.display import display

        self.shown.append(text)
        if self._handle is None:
            self._handle = display({"text/plain": text}, raw=True, display_id=True)
        else:
            self._handle.update({"text/plain": text}, raw=True)

    def update(self, done: int) -> None:
        now = self._clock()
        elapsed = now - self.started
        if elapsed < self.delay or now - self._last < 0.25:
            return
        self._last = now
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else float("nan")
        when = f", {left:,.0f} s left" if left == left else ""
        self._put(f"{self.label}: {done:,}/{self.total:,} {self.unit}, {rate:,.0f} {self.unit}/s{when}")

    def close(self, done: int) -> None:
        if self._handle is None:
            return
        elapsed = self._clock() - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        self._put(f"{self.label}: {done:,}/{self.total:,} {self.unit} in {elapsed:,.1f} s "
                  f"({rate:,.0f} {self.unit}/s)")


def _bar_width(console, label: str, total: int, unit: str) -> int:
    """The bar takes what the text leaves of one line (10..40 cells): a line
    that wraps would leave a stale copy behind at every redraw."""
    count = f"{total:,}/{total:,} {unit}"
    text = len(label) + len(count) + len(f"{total:,} {unit}/s") + len("0:00:00 left") + 5
    return max(10, min(40, console.width - text - 1))


def _make_bar(console, label: str, total: int, unit: str):
    from rich.progress import BarColumn, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as RichProgress
    from rich.text import Text

    class Rate(ProgressColumn):
        """Units per second over rich's recent samples (blank until known)."""

        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f} {unit}/s", style="progress.data.speed")

    return RichProgress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(bar_width=_bar_width(console, label, total, unit)),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} " + unit.replace("[", r"\[")),
        Rate(),
        TimeRemainingColumn(),
        TextColumn("left"),
        console=console,
        transient=True,             # erased at the end: only the results stay on screen
        redirect_stdout=False,      # stdout is for results; never route it through the bar
        redirect_stderr=False,
        refresh_per_second=4,
    )


@contextmanager
def progress(total: int, label: str, quiet: bool = False, unit: str = "games", *,
             delay: float | None = None, console=None, defer_ctrl_c: bool = True) -> Iterator[Progress]:
    """A :class:`Progress` for a run of ``total`` units (see the module doc).

    ``console`` (a ``rich.console.Console``) replaces stderr as the place to
    draw; it is then drawn on only if that console is a terminal.  Tests use
    it with ``delay`` to see the bar without waiting two seconds.
    ``defer_ctrl_c``: hold a Ctrl-C until the next ``advance`` (module doc).
    ``delay`` defaults to :data:`DELAY`."""
    delay = DELAY if delay is None else delay
    notebook = False
    if quiet:
        draw = False
    elif console is not None:
        draw = bool(console.is_terminal) and not console.is_dumb_terminal
    else:
        notebook = in_notebook()
        draw = notebook or stderr_is_terminal()
    p = Progress(total, label, unit, draw=draw, delay=delay, console=console, notebook=notebook)
    previous = _take_stop_signals(p._on_signal) if defer_ctrl_c else {}
    _OPEN.append(p)
    try:
        yield p
    finally:
        _OPEN.remove(p)
        for s, handler in previous.items():
            signal.signal(s, handler)
        p.close()


def waiting(text: str | None) -> None:
    """Show in the label of the innermost open progress display what the run
    waits for (e.g. a dask worker), or that it waits no more (None); nothing
    when no display is open. Only a drawn bar shows it."""
    if _OPEN:
        _OPEN[-1].set_wait(text)


@contextmanager
def above_bar() -> Iterator[None]:
    """Inside it, lines written to ``sys.stderr`` (a warning) are printed above
    a drawn bar, which is then redrawn below them, rather than into its line."""
    bar = next((p._bar for p in reversed(_OPEN) if p._bar is not None), None)
    if bar is None:
        yield
        return
    from rich.file_proxy import FileProxy

    class Above(FileProxy):
        # the stream's own encoding: click takes a stream without one for a
        # misconfigured one and writes past it, to the file underneath
        encoding = property(lambda self: self.rich_proxied_file.encoding)
        errors = property(lambda self: self.rich_proxied_file.errors)

    saved = sys.stderr
    proxy = Above(bar.console, saved)
    sys.stderr = proxy
    try:
        yield
    finally:
        sys.stderr = saved
        proxy.flush()


def _take_stop_signals(handler) -> dict:
    """Install ``handler`` for SIGINT, SIGTERM and SIGHUP and return the ones
    it replaces; nothing off the main thread, and a signal someone else
    handles or ignores is left to them: their choice stands."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    taken = {}
    for s in STOP_SIGNALS:
        previous = signal.getsignal(s)
        if (s == signal.SIGINT and previous is not signal.default_int_handler) or not is_ours(previous):
            continue
        signal.signal(s, handler)
        taken[s] = previous
    return taken


# ---------------------------------------------------------------- Ctrl-C, SIGTERM, SIGHUP
#: the exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it)
INTERRUPTED_EXIT = 130


def exit_interrupted(message: str):
    """End the command after a Ctrl-C (or SIGTERM, SIGHUP): one ``zsim: ...``
    line on stderr, exit 128 + the signal.  ``message`` says how far the run
    got, e.g. ``after 10 of 20 games``; it is prefixed with how the run was
    stopped (``interrupted``, ``terminated (SIGTERM)``, ...).

    Printed even with ``--quiet``: it explains why the output is short."""
    import click

    click.echo(f"zsim: {describe_stop()} {message}", err=True)
    forget_unhandled_interrupt()
    raise SystemExit(stop_exit_code())
