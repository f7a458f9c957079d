"""The environment zsim starts in, checked before numba reads it.

numba reads ``NUMBA_NUM_THREADS`` when it is first imported: ``0`` or a
negative count ends that import with a traceback, and text that is no
number is passed over with a warning and the default used in its place.
zsim refuses both in one line before numba is imported: on the command
line ``zsim: error: ...`` and exit status 2, in Python a :class:`ZsimError`
raised by ``import zsim``.
"""
from __future__ import annotations

import os
import re
import sys

from zsim.errors import EXIT_BAD_INPUT, ZsimError


def numba_threads_problem(environ=None) -> str | None:
    """The line saying what is wrong with ``NUMBA_NUM_THREADS``, or None."""
    raw = (os.environ if environ is None else environ).get("NUMBA_NUM_THREADS")
    if raw is None:
        return None
    value = raw.strip()
    if re.fullmatch(r"[0-9]+", value) and int(value) >= 1:
        return None
    return (f"NUMBA_NUM_THREADS={raw!r} is not a number of threads: set it to a whole number from 1 "
            f"(the threads zsim's runs may use), or unset it")


def _started_as_command() -> bool:
    """Whether this process is the ``zsim`` command (its console script, or
    ``python -m zsim.cli``), not Python code importing zsim."""
    argv = getattr(sys, "orig_argv", sys.argv)
    if os.path.basename(sys.argv[0] if sys.argv else "") == "zsim":
        return True
    return any(a == "-m" and b == "zsim.cli" for a, b in zip(argv, argv[1:]))


def refuse_bad_environment() -> None:
    """Stop here, in one line, when the environment cannot run zsim."""
    problem = numba_threads_problem()
    if problem is None:
        return
    if _started_as_command():
        try:
            print(f"zsim: error: {problem}", file=sys.stderr, flush=True)
        finally:
            raise SystemExit(EXIT_BAD_INPUT)
    raise ZsimError(problem)
