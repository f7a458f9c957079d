"""Game records of every game: reading JSON lines and telling whose game it is.

A record is one JSON event per line; a game begins at its ``start`` event,
whose ``name`` is the game's (as ``zsim games`` lists it). A record written
before zsim had a second game has no ``name``: it is Zahltag's. The games'
own modules check and tell a record; this one reads and sorts.

A record file is read as a stream, game by game (:class:`RecordFile`): one
game's events are held at a time, with the file's line number of each
(:class:`GameRecord`), so a file of any length replays in the memory of its
longest game and its first game is told before the rest is read. A problem
in a game is named by the file's line and the game's number in the file,
``games.jsonl line 708 (game 2, bids): ...``: the games' checkers mark their
errors with the event's index in the game (:func:`zsim.record_referee.placed`)
and :meth:`GameRecord.refuse` turns that into the file's line.
"""
from __future__ import annotations

import json
import os
import stat
import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Callable, Iterable, Iterator

from zsim.errors import ZsimError
from zsim.game_registry import DEFAULT_GAME
from zsim.record_referee import placed

#: no event of a record comes near this; a longer "line" (``/dev/zero``, a
#: binary file) is refused before it can fill the memory
MAX_LINE = 16 << 20

#: the exceptions a telling or a check meets in a record of the wrong shape
MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)


class Uncounted(ZsimError, TypeError):
    """``len`` of a record on stdin, which can be read only once. A TypeError
    too, so that ``list(replay)`` goes on without the length."""


class GameRecord:
    """One game of a record file: its events, the file's line number of each
    (a list beside them: the events stay the record's own dicts) and the
    game's number in the file (1 = the first)."""

    __slots__ = ("name", "number", "events", "lines", "__weakref__")

    def __init__(self, name: str, number: int, events: list[dict], lines: list[int]):
        self.name, self.number, self.events, self.lines = name, number, events, lines

    def where(self, at: int | None = None, what=None) -> str:
        """``games.jsonl line 708 (game 2, bids)``: the file's line of event
        ``at`` (``what`` its kind, left out unless a short name); without
        ``at``, the game's lines."""
        if at is None or not 0 <= at < len(self.lines):
            span = f"line {self.lines[0]}" if len(self.lines) == 1 else \
                f"lines {self.lines[0]}-{self.lines[-1]}"
            return f"{self.name} {span} (game {self.number})"
        kind = f", {what}" if isinstance(what, str) and 0 < len(what) <= 24 and what.isprintable() else ""
        return f"{self.name} line {self.lines[at]} (game {self.number}{kind})"

    def refuse(self, exc: BaseException) -> ZsimError:
        """The one line for a problem a game's check or telling found: at the
        file's line when the error is placed, else naming the game's lines."""
        at = getattr(exc, "record_at", None)
        if isinstance(at, int) and 0 <= at < len(self.lines):
            return ZsimError(f"{self.where(at, getattr(exc, 'record_event', None))}: {exc.record_problem}")
        if isinstance(exc, ZsimError):
            return ZsimError(f"{self.where()}: {exc}")
        return ZsimError(f"{self.where()}: malformed record ({exc.__class__.__name__}: {exc})")


class RecordFile:
    """A JSON-lines record file (``-`` = stdin), read game by game.

    Iterating opens the file and yields a :class:`GameRecord` for each game,
    holding no other: a game is handed on once the next ``start`` line (or
    the end of the file) is read. A line that is no event is refused in one
    line when it is reached, after the games before it. ``size`` is the
    file's size in bytes when it is a regular file (else None), ``done`` the
    bytes read so far: what a progress bar needs. A regular file can be read
    again; stdin only once."""

    def __init__(self, path: str):
        self.path = path
        self.name = "<stdin>" if path == "-" else path
        self.size: int | None = None
        self.done = 0
        self._stdin_read = False

    def check(self) -> None:
        """Refuse, before any reading, a file that does not exist or cannot be opened."""
        if self.path == "-":
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise ZsimError(f"record file {self.path!r} does not exist") from None
        except (OSError, ValueError) as exc:     # ValueError: a NUL byte in the name
            raise self._unreadable(exc) from None
        if stat.S_ISDIR(st.st_mode):
            raise ZsimError(f"record file {self.path!r} cannot be read: Is a directory")
        if stat.S_ISREG(st.st_mode):            # a pipe or a device is opened only to be read
            with self._open_file():
                pass

    def _unreadable(self, exc: BaseException) -> ZsimError:
        why = (exc.strerror if isinstance(exc, OSError) else None) or exc.__class__.__name__
        return ZsimError(f"record file {self.path!r} cannot be read: {why}")

    @contextmanager
    def _open_file(self):
        if not Path(self.path).exists():
            raise ZsimError(f"record file {self.path!r} does not exist")
        try:
            fh = open(self.path, "rb")
        except (OSError, ValueError) as exc:
            raise self._unreadable(exc) from None
        with fh:
            yield fh

    def _source(self):
        if self.path != "-":
            return self._open_file()
        if self._stdin_read:
            raise ZsimError("stdin (-) has been read already: a record on stdin can be replayed once")
        self._stdin_read = True
        return nullcontext(getattr(sys.stdin, "buffer", None))

    @contextmanager
    def reading(self) -> Iterator[Iterator["GameRecord"]]:
        """The file opened, its ``size`` known: its games, read one at a time."""
        with self._source() as fh:
            self.done, self.size = 0, None
            if fh is not None:
                try:
                    if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                        self.size = max(os.fstat(fh.fileno()).st_size - fh.tell(), 0)
                except (OSError, ValueError, AttributeError):   # no file descriptor (a BytesIO)
                    pass
            yield self._games(self._lines(fh))

    def __iter__(self) -> Iterator[GameRecord]:
        with self.reading() as games:
            yield from games

    def _lines(self, fh) -> Iterator[tuple[int, str]]:
        """(line number, text) of the open file, counting the bytes read."""
        if fh is None:              # a text-only stdin (embedded use): take its lines as they come
            for line_no, line in enumerate(sys.stdin, start=1):
                yield line_no, line.rstrip("\r\n")
            return
        for line_no, text, size in _record_lines(fh, self.name):
            self.done += size
            yield line_no, text

    def _games(self, lines) -> Iterator[GameRecord]:
        number, events, numbers = 0, None, None
        for line_no, ev in _events(self.name, lines):
            if ev["e"] == "start":
                if events is not None:
                    yield GameRecord(self.name, number, events, numbers)
                number, events, numbers = number + 1, [], []
            elif events is None:
                raise ZsimError(f"{self.name} line {line_no}: the record does not begin with a start event")
            events.append(ev)
            numbers.append(line_no)
        if events is None:
            raise ZsimError(f"{self.name}: no games in the record")
        yield GameRecord(self.name, number, events, numbers)

    def count(self) -> int:
        """The number of games, read in a pass of their own (every line checked as iterating does)."""
        if self.path == "-":
            raise Uncounted("the games on stdin (-) cannot be counted before they are replayed: "
                            "iterate the replay instead")
        return sum(1 for _ in self)


def _record_lines(fh, name: str) -> Iterator[tuple[int, str, int]]:
    """(line number, text, bytes read) of a binary stream of UTF-8 lines,
    each at most :data:`MAX_LINE` bytes, read one at a time."""
    line_no = 0
    while True:
        try:
            line = fh.readline(MAX_LINE + 1)
        except OSError as exc:
            raise ZsimError(f"record file {name!r} cannot be read: "
                            f"{exc.strerror or exc.__class__.__name__}") from None
        if not line:
            return
        line_no += 1
        if len(line) > MAX_LINE:
            raise ZsimError(f"record file {name!r} cannot be read: line {line_no} is longer than "
                            f"{MAX_LINE >> 20} MiB, which no game record is")
        try:
            yield line_no, line.decode("utf-8").rstrip("\r\n"), len(line)
        except UnicodeDecodeError as exc:
            raise ZsimError(f"record file {name!r} cannot be read: line {line_no} is not UTF-8 text "
                            f"(byte {exc.start + 1})") from None


def _events(name: str, lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, dict]]:
    """The events of numbered lines (blank lines skipped), each checked to be an event."""
    for line_no, line in lines:
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ZsimError(f"{name} line {line_no}: not JSON ({exc.msg})") from None
        except RecursionError:
            # arrays or objects inside one another beyond Python's recursion limit
            raise ZsimError(f"{name} line {line_no}: the event nests too deeply to be a game "
                            f"record") from None
        except ValueError as exc:   # e.g. a number of more digits than Python converts
            raise ZsimError(f"{name} line {line_no}: not a usable JSON event ({exc})") from None
        if not isinstance(ev, dict) or "e" not in ev:
            raise ZsimError(f"{name} line {line_no}: an event needs an \"e\" field")
        yield line_no, ev


def read_records(path: str) -> list[list[dict]]:
    """The games of a JSON-lines file (``-`` = stdin), split at ``start``
    events, all at once (:class:`RecordFile` reads them one at a time)."""
    source = RecordFile(path)
    source.check()
    return [game.events for game in source]


def game_of(game: GameRecord, expected: str | None = None):
    """The game object that a game's start line names; with ``expected``
    a game of another name is refused in one line."""
    from zsim.game_registry import get_game

    name = game.events[0].get("name", DEFAULT_GAME)   # records older than the other games are the first game's
    where = game.where(0, "start")
    if not isinstance(name, str):
        raise ZsimError(f"{where}: the start event's name {json.dumps(name)[:40]} is not a game's name")
    try:
        spec = get_game(name)
    except ZsimError as exc:
        raise ZsimError(f"{where}: {exc}") from None
    if expected is not None and spec.name != expected:
        raise ZsimError(f"{where}: the record is a {spec.name} game, not {expected} (its start line names "
                        f"{spec.name}; leave out --game to replay it as that)")
    return spec


def game_of_record(events: list[dict], name: str = "record"):
    """The game object a record's start line names."""
    return game_of(GameRecord(name, 1, events, list(range(1, len(events) + 1))))


@contextmanager
def advancing(total: int, label: str, unit: str = "games", quiet: bool = False) -> Iterator[Callable[[int], None]]:
    """``advance(n)`` of a progress bar of ``total`` units (:mod:`zsim.progress`:
    drawn on a terminal's stderr once the work has lasted two seconds, never
    elsewhere). A Ctrl-C is not held for the next advance: a generator that
    yields between advances cannot promise to reach one."""
    from zsim.progress import progress

    with progress(total, label, quiet, unit=unit, defer_ctrl_c=False) as bar:
        yield bar.advance


@contextmanager
def reading_progress(source: RecordFile, label: str, quiet: bool = False) -> Iterator[Callable[[], None]]:
    """``update()`` moves a progress bar of the file's kB to the bytes read so
    far; a file of unknown size (a pipe, a device) has no bar."""
    if not source.size:
        yield lambda: None
        return
    total = -(-source.size // 1000)
    shown = 0

    def update() -> None:
        nonlocal shown
        now = min(-(-source.done // 1000), total)
        advance(now - shown)
        shown = now

    with advancing(total, label, unit="kB", quiet=quiet) as advance:
        yield update


def counted(items: Iterable, total: int, label: str, quiet: bool = False) -> Iterator:
    """``items`` handed on one by one, each advancing a progress bar of ``total`` games."""
    with advancing(total, label, quiet=quiet) as advance:
        for item in items:
            advance(1)
            yield item


def tell(lines, events: list[dict]) -> str:
    """A record told by ``lines(events)`` (an iterator of text lines), one
    line naming the game and placed at the event being told when the record
    lacks what the telling needs."""
    watched = _Watched(events)
    try:
        return "\n".join(lines(watched)) + "\n"
    except MALFORMED as exc:
        game = events[0].get("game", "?") if events and isinstance(events[0], dict) else "?"
        problem = f"malformed record ({exc.__class__.__name__}: {exc})"
        at = watched.origin_at()
        ev = events[at] if 0 <= at < len(events) else None
        raise placed(ZsimError(f"game {game}: {problem}"), at, problem,
                     ev.get("e") if isinstance(ev, dict) else None) from None


class _Watched(list):
    """A game's events that note the index of the last one read (through
    ``[i]``, a slice or iteration), so a telling that fails names its line."""

    def __init__(self, items, origin: "_Watched | None" = None, index: range | None = None):
        super().__init__(items)
        self._origin = self if origin is None else origin
        self._index = range(len(self)) if index is None else index
        self.at = 0

    def origin_at(self) -> int:
        return self._origin.at

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _Watched(list.__getitem__(self, key), self._origin, self._index[key])
        value = list.__getitem__(self, key)
        self._origin.at = self._index[key]
        return value

    def __iter__(self):
        for i, value in zip(self._index, list.__iter__(self)):
            self._origin.at = i
            yield value
