"""The exceptions zsim shows to users as a single line, and the exit codes.

Exit codes (the README's table):

* 0: done;
* 2: bad input (an option, a file given to read, a run folder that does not
  match, an output place found unusable before the first game):
  :class:`ZsimError`;
* 74: an output could not be written once the games were under way (disk
  full, an I/O error, a closed standard output): :class:`OutputError`. Every temporary file of
  the command is gone by then, and a run folder is left as ``--resume``
  can finish it;
* 128 + the signal: stopped by Ctrl-C (130), SIGTERM (143) or SIGHUP (129).
"""
from __future__ import annotations

import errno
import os

EXIT_BAD_INPUT = 2
EXIT_CANNOT_WRITE = 74      # sysexits.h's EX_IOERR


class ZsimError(ValueError):
    """Bad input: the message names the problem and is shown as one line
    (``zsim: error: ...`` on the command line, exit status 2).

    Example:
        >>> import zsim
        >>> try:
        ...     zsim.simulate(players=5)
        ... except zsim.ZsimError as exc:
        ...     print(exc)
        --players must be 2..4, got 5
    """
    exit_code = EXIT_BAD_INPUT


class OutputError(ZsimError):
    """An output could not be written (a full disk, no permission); the
    message names the file and why, and nothing half-written is left
    (exit status 74 on the command line).

    Example:
        >>> import zsim
        >>> try:
        ...     zsim.simulate(games=1000, out="/full-disk/games.parquet")   # doctest: +SKIP
        ... except zsim.OutputError as exc:
        ...     print(exc)
        cannot write /full-disk/games.parquet: No space left on device
    """
    exit_code = EXIT_CANNOT_WRITE


class ZsimWarning(UserWarning):
    """Something a user should hear of while a run goes on, such as a wait
    for a dask worker. A Python warning in the API (shown at every
    occurrence, not once per place); one ``zsim: ...`` line on stderr on
    the command line, where ``--quiet`` silences it."""


def describe_os_error(exc: BaseException) -> str:
    """``strerror`` of an OSError in plain words (pyarrow and polars raise
    OSErrors whose text is all they carry)."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return os.strerror(exc.errno)       # pyarrow's strerror carries a paragraph
    text = str(exc).strip().splitlines()
    line = text[-1] if text else exc.__class__.__name__
    for code in (errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EROFS, errno.EIO, errno.EFBIG):
        name = os.strerror(code)
        if name.lower() in line.lower() or errno.errorcode[code] in line:
            return name
    return line


def output_error(exc: BaseException, what: str) -> OutputError:
    """The one-line error for a failed write of ``what`` (a path or a label)."""
    return OutputError(f"cannot write {what}: {describe_os_error(exc)}")


# ---------------------------------------------------------------- values in a message
def shown(value) -> str:
    """``value`` as a message shows it: its repr on one line, cut short."""
    text = repr(value).replace("\n", "\\n")
    return text if len(text) <= 60 else text[:57] + "..."


def entries(text: str, option: str, kind: str = "entry", shown_as=None) -> list[str]:
    """The entries of the comma list ``text`` of ``option``, stripped; an
    empty list or an empty entry (a leading, trailing or doubled comma) is
    refused rather than dropped. ``kind`` names what an entry is;
    ``shown_as``: the value the user gave, when it was a list rather than ``text``."""
    parts = [part.strip() for part in text.split(",")]
    if not any(parts):
        raise ZsimError(f"{option} is empty: give at least one {kind}")
    if not all(parts):
        if shown_as is not None:
            raise ZsimError(f"{option} {shown(shown_as)} has an empty entry: give a {kind} in each")
        raise ZsimError(f"{option} {shown(text)} has an empty entry: separate the entries with single "
                        f"commas, none leading or trailing")
    return parts
