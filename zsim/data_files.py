"""Reading a data file a user names (``--deck FILE``): one line for each way it can fail.

A data file is small (a deck is a few dozen rows), so zsim reads one within
bounds: a regular file of at most :data:`MAX_BYTES` bytes, UTF-8 text, and at
most :data:`MAX_ROWS` CSV rows besides the header. A FIFO, a device or a
folder is refused before it is opened for reading, and no more than
``MAX_BYTES + 1`` bytes are ever read, so ``--deck /dev/zero`` or a huge file
costs nothing.
"""
from __future__ import annotations

import csv
import io
import os
import re
import stat
from pathlib import Path

from zsim.errors import ZsimError

#: the largest data file zsim reads (1 MiB)
MAX_BYTES = 1 << 20
#: the most CSV rows a data file may hold besides its header
MAX_ROWS = 1000
#: a cell is shown in a message up to this many characters
SHOWN_CHARS = 40
#: the most digits a number in a cell may have (any larger number is over every limit)
MAX_DIGITS = 30

_WHOLE = re.compile(r"([+-]?)([0-9]+)")


_SPECIAL = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def special_kind_of(mode: int) -> str | None:
    """What a file of ``mode`` is when it is neither a regular file nor a
    folder ("a FIFO (named pipe)", "a character device", ...; "not a regular
    file" for anything else); None for a regular file or a folder. zsim's
    inputs and outputs both name such files in these words."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return next((kind for test, kind in _SPECIAL if test(mode)), "not a regular file")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    kind = special_kind_of(mode)
    return kind if kind == "not a regular file" else f"{kind}, not a regular file"


def _reason(exc: OSError) -> str:
    return exc.strerror.lower() if exc.strerror else exc.__class__.__name__


def read_data_file(path: str | Path, what: str, max_bytes: int = MAX_BYTES) -> str:
    """The text of ``path`` (UTF-8, a byte-order mark allowed); ``what`` names
    the file in messages, e.g. ``"deck file"``. Refuses anything but a regular
    file of at most ``max_bytes`` bytes, reading no more than ``max_bytes + 1``."""
    p = Path(path)
    shown = repr(str(p))
    try:
        st = os.stat(p)                    # before any open: opening a FIFO to read would wait for a writer
    except FileNotFoundError:
        raise ZsimError(f"{what} {shown} does not exist") from None
    except (OSError, ValueError) as exc:   # ValueError: a NUL byte in the name
        reason = _reason(exc) if isinstance(exc, OSError) else "the name holds a NUL byte"
        raise ZsimError(f"{what} {shown} cannot be read: {reason}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ZsimError(f"{what} {shown} is {_kind(st.st_mode)}")
    too_big = f"{what} {shown} is larger than {_size(max_bytes)}, the limit for a {what}"
    if st.st_size > max_bytes:
        raise ZsimError(too_big)
    try:
        # O_NONBLOCK: should the name have turned into a FIFO since the stat, the
        # open returns at once and the fstat below refuses it
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ZsimError(f"{what} {shown} cannot be read: {_reason(exc)}") from None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(f.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise ZsimError(f"{what} {shown} is {_kind(mode)}")
        try:
            data = f.read(max_bytes + 1)
        except OSError as exc:
            raise ZsimError(f"{what} {shown} cannot be read: {_reason(exc)}") from None
    if len(data) > max_bytes:
        raise ZsimError(too_big)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ZsimError(f"{what} {shown} cannot be read: it is not UTF-8 text "
                        f"(byte 0x{data[exc.start]:02x} on line {line})") from None


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and n % (1 << 20) == 0 else f"{n:,} bytes"


def show(text: str, limit: int = SHOWN_CHARS, quoted: bool = True) -> str:
    """``text`` for a one-line message: quoted (unless not ``quoted``), control
    characters escaped, a long text cut to ``limit`` characters and marked so."""
    cut = len(text) > limit
    r = repr(text[:limit])
    body = r[1:-1] + ("..." if cut else "")
    out = f"{r[0]}{body}{r[0]}" if quoted else body
    return out + (f" ({len(text):,} characters)" if cut else "")


def plain(text: str) -> str:
    """``text`` as it is when it prints on one line, else with its control
    characters escaped (a file name in a message)."""
    return text if text.isprintable() else repr(text)[1:-1]


def csv_rows(text: str, where: str, max_rows: int = MAX_ROWS) -> list[tuple[int, list[str]]]:
    """The CSV rows of ``text`` as ``(line number, cells)``, the header first;
    blank lines are skipped and a row's number is the file's line it is on.
    ``where`` opens each message, e.g. ``"deck mine.csv"``. One line refuses a
    file the csv module cannot read, a row running over several lines (a quote
    left open) and more than ``max_rows`` rows besides the header."""
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[tuple[int, list[str]]] = []
    last = 0                                             # the line the previous row ended on
    while True:
        first = last + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            if "field limit" in str(exc):
                raise ZsimError(f"{where}: line {first} has a field longer than {csv.field_size_limit():,} "
                                f"characters (is a quote left open?)") from None
            raise ZsimError(f"{where}: line {first} is not valid CSV ({exc})") from None
        last = reader.line_num
        if last > first:
            raise ZsimError(f"{where}: line {first} opens a quote that runs on to line {last} "
                            f"(a cell holds one line)")
        if any("\n" in cell or "\r" in cell for cell in row):     # the file ended inside quotes
            raise ZsimError(f"{where}: line {first} opens a quote that is never closed")
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        rows.append((first, row))
        if len(rows) > max_rows + 1:
            raise ZsimError(f"{where}: the file has more than the limit of {max_rows:,} rows")
    return rows


def whole_number(cell: str, where: str) -> int:
    """``cell`` as a whole number (ASCII digits, an optional sign, spaces
    around); ``where`` opens the message, e.g. ``"deck mine.csv: line 2 worker"``."""
    text = cell.strip()
    m = _WHOLE.fullmatch(text)
    if m is None:
        raise ZsimError(f"{where} is not a whole number: {show(text)}")
    sign, digits = m.groups()
    digits = digits.lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        raise ZsimError(f"{where} is out of range: {show(text)}")
    return int(sign + digits)
