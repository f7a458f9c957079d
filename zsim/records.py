"""Game records of every game: reading JSON lines and telling whose game it is.

A record is one JSON event per line; a game begins at its ``start`` event,
whose ``name`` is the game's (as ``zsim games`` lists it). A record written
before zsim had a second game has no ``name``: it is Zahltag's. The games'
own modules check and tell a record; this one only reads and sorts.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterator

from zsim.errors import ZsimError


#: no event of a record comes near this; a longer "line" (``/dev/zero``, a
#: binary file) is refused before it can fill the memory
MAX_LINE = 16 << 20


def read_records(path: str) -> list[list[dict]]:
    """The games of a JSON-lines file (``-`` = stdin), split at ``start`` events."""
    if path == "-":
        name = "<stdin>"
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:     # a text-only stdin (embedded use): take it as it is
            return _split(name, enumerate(sys.stdin.read().splitlines(), start=1))
        return _split(name, _record_lines(raw, name))
    p = Path(path)
    if not p.exists():
        raise ZsimError(f"record file {path!r} does not exist")
    try:
        with open(p, "rb") as fh:
            return _split(path, _record_lines(fh, path))
    except OSError as exc:
        raise ZsimError(f"record file {path!r} cannot be read: {exc.strerror or exc.__class__.__name__}") \
            from None


def _record_lines(fh, name: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of a binary stream of UTF-8 lines, each at most
    :data:`MAX_LINE` bytes, read one at a time."""
    line_no = 0
    while True:
        line = fh.readline(MAX_LINE + 1)
        if not line:
            return
        line_no += 1
        if len(line) > MAX_LINE:
            raise ZsimError(f"record file {name!r} cannot be read: line {line_no} is longer than "
                            f"{MAX_LINE >> 20} MiB, which no game record is")
        try:
            yield line_no, line.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            raise ZsimError(f"record file {name!r} cannot be read: line {line_no} is not UTF-8 text "
                            f"(byte {exc.start + 1})") from None


def _split(name: str, lines) -> list[list[dict]]:
    games: list[list[dict]] = []
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
        if ev["e"] == "start":
            games.append([])
        elif not games:
            raise ZsimError(f"{name} line {line_no}: the record does not begin with a start event")
        games[-1].append(ev)
    if not games:
        raise ZsimError(f"{name}: no games in the record")
    return games


def game_of_record(events: list[dict], name: str = "record"):
    """The game object a record's start line names."""
    from zsim.games import get_game

    start = events[0]
    game = start.get("name", "zahltag")
    if not isinstance(game, str):
        raise ZsimError(f"{name}: the start event's name {game!r} is not a game's name")
    return get_game(game)


def read_any(path: str, expected: str | None = None) -> Iterator[tuple[object, list[dict]]]:
    """(game object, events) of each game in a record file; with ``expected``
    a game of another name is refused in one line."""
    for i, events in enumerate(read_records(path)):
        spec = game_of_record(events, path)
        if expected is not None and spec.name != expected:
            raise ZsimError(f"{path}: game {i + 1} of the record is a {spec.name} game, not {expected} "
                            f"(its start line names {spec.name}; leave out --game to replay it as that)")
        yield spec, events


def tell(lines, events: list[dict]) -> str:
    """A record told by ``lines(events)`` (an iterator of text lines), one
    line naming the game when the record lacks what the telling needs."""
    try:
        return "\n".join(lines(events)) + "\n"
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        game = events[0].get("game", "?") if events and isinstance(events[0], dict) else "?"
        raise ZsimError(f"game {game}: malformed record ({exc.__class__.__name__}: {exc})") from None
