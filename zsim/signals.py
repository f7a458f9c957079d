"""The signals that stop a zsim run, and how the run says it was stopped.

Ctrl-C (SIGINT), SIGTERM (what ``kill``, ``timeout`` and batch schedulers
send) and SIGHUP (a closed terminal or ssh session) all stop a run the same
way: inside a run (:func:`zsim.progress.progress`) at the end of the chunk
being played, elsewhere at once; temporary files are removed on the way out,
one line on stderr says what happened, and the exit status is 128 + the
signal (130, 143, 129), as a shell reports a process the signal killed.

Each stop surfaces as a KeyboardInterrupt (for SIGTERM and SIGHUP the
subclass :class:`Stopped`), so every ``except KeyboardInterrupt`` that tidies
up after a Ctrl-C tidies up after the other two as well.
"""
from __future__ import annotations

import signal
import sys
import threading

STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))

_last: list[int] = []     # the signals received, latest last


class Stopped(KeyboardInterrupt):
    """A run stopped by SIGTERM or SIGHUP."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def note(signum: int) -> None:
    """Remember that ``signum`` arrived (it decides the exit status).

    From then on zsim is on its way out, and a stop raised at once (before
    the first chunk, say while numba loads or compiles the engine) can leave
    objects of the compiler half built; their destructors then fail, and
    Python would print each failure as "Exception ignored ... Traceback".
    Those say nothing to the user, so they are dropped."""
    _last.append(int(signum))
    sys.unraisablehook = _drop_unraisable


def _drop_unraisable(unraisable) -> None:
    pass


def stop_now(signum: int):
    """Raise the exception that stops the run for ``signum``."""
    note(signum)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def _immediate(signum, frame):
    stop_now(signum)


def caused_by_a_stop(exc: BaseException) -> bool:
    """Whether ``exc`` is a stop, or was raised because of one: a stop raised
    inside a callback that C code made (numba unpickling a cached kernel,
    say) comes back wrapped, as a SystemError caused by it."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def last_signal() -> int:
    return _last[-1] if _last else int(signal.SIGINT)


def exit_code() -> int:
    """128 + the signal that stopped the run (130 for a KeyboardInterrupt
    raised some other way)."""
    return 128 + last_signal()


def describe() -> str:
    """The word for how the run ended: ``interrupted`` (Ctrl-C), ``terminated
    (SIGTERM)``, ``hung up (SIGHUP)``."""
    s = last_signal()
    if s == signal.SIGINT:
        return "interrupted"
    if s == getattr(signal, "SIGHUP", None):
        return "hung up (SIGHUP)"
    return f"terminated ({signal.Signals(s).name})"


def is_ours(handler) -> bool:
    """Whether ``handler`` is Python's or zsim's own stop-at-once handler
    (the ones a run may replace with its stop-at-the-chunk's-end handler)."""
    return handler is signal.default_int_handler or handler is _immediate or handler == signal.SIG_DFL


def forget_unhandled_interrupt() -> None:
    """Let the exit status be the one zsim chooses after a stop.

    CPython remembers a KeyboardInterrupt that escaped any code it ran
    through ``PyRun_*`` (numba's loaders do) and, under ``python -m``, never
    forgets it: the process then kills itself with SIGINT at exit, whatever
    status zsim gave. Running an empty string through the same door clears
    the mark. Called only on the way out after a stop."""
    try:
        import ctypes

        ctypes.pythonapi.PyRun_SimpleStringFlags(b"", None)
    except (ImportError, AttributeError, OSError):    # not CPython: nothing remembered
        pass


def install() -> None:
    """Make SIGTERM and SIGHUP stop zsim as Ctrl-C does (called by ``main``).

    A signal someone chose to ignore (``nohup``) or to handle stays theirs."""
    if threading.current_thread() is not threading.main_thread():
        return
    for s in STOP_SIGNALS:
        if s == signal.SIGINT:
            continue
        if signal.getsignal(s) == signal.SIG_DFL:
            signal.signal(s, _immediate)
