"""Zahlemann game records: JSON lines (TRACE.md), written, read and refereed.

The reference engine writes a record's events already in the format's
conventions (cards by code, hands sorted by value then R B Y G A V, piles
top first, coin lists largest first, holdings ``[50,20,10,5,2,1]``, ``null``
for "none"); this module turns them into text and back, and
:func:`check_record` re-plays a record to tell whether it keeps every rule.
"""
from __future__ import annotations

import json
from pathlib import Path
from collections.abc import Iterable

from zsim.errors import ZsimError
from zsim.record_referee import carry
from zsim.games.zahlemann.reference import Result, play_game
from zsim.games.zahlemann.replay import ReplayError, replay_game


def record_game(players: int, rules=None, strategies=None, seed: int = 0, game_index: int = 0,
                forget=None) -> list[dict]:
    """The record of one fresh game (see :func:`~.reference.play_game`)."""
    return play_game(players, rules, strategies, seed, game_index, forget, record=True).events


def event_line(event: dict) -> str:
    """One event as a compact JSON line (no newline)."""
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False)


def to_jsonl(events: Iterable[dict]) -> str:
    return "".join(event_line(ev) + "\n" for ev in events)


def write_records(games: Iterable[list[dict]], path) -> None:
    """Write games (lists of events) to ``path``, one event per line."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(to_jsonl(events) for events in games)


def parse_lines(lines: Iterable, name: str = "record", first_line: int = 1) -> list[tuple[int, list[dict]]]:
    """JSON lines (str, or already-parsed dicts) split into games at ``start``
    events: ``[(line number of the start, events), ...]``. Blank lines are
    skipped; errors name the line."""
    games: list[tuple[int, list[dict]]] = []
    for line_no, line in enumerate(lines, start=first_line):
        if isinstance(line, dict):
            ev = line
        else:
            if not str(line).strip():
                continue
            try:
                ev = json.loads(line)
            except (ValueError, RecursionError) as exc:
                raise ZsimError(f"{name} line {line_no}: not a JSON event ({exc.__class__.__name__})") \
                    from None
        if not isinstance(ev, dict) or not isinstance(ev.get("e"), str):
            raise ZsimError(f"{name} line {line_no}: an event is an object with an \"e\" field")
        if ev["e"] == "start":
            games.append((line_no, []))
        elif not games:
            raise ZsimError(f"{name} line {line_no}: the record does not begin with a start event")
        games[-1][1].append(ev)
    return games


def read_records(path) -> list[list[dict]]:
    """The games of a JSON-lines file."""
    return [events for _, events in read_games(path)]


def read_games(path) -> list[tuple[int, list[dict]]]:
    """The games of a JSON-lines file with the line number each starts at."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ZsimError(f"record file {str(p)!r} cannot be read: {exc.__class__.__name__}") from None
    games = parse_lines(text.splitlines(), str(p))
    if not games:
        raise ZsimError(f"record file {str(p)!r} holds no games")
    return games


def check_record(lines: Iterable, name: str = "record", first_line: int = 1) -> Result:
    """The referee: replay one game's record and raise :class:`ZsimError`
    (one line: the record's line number, its event, what the rules say) if it
    breaks a rule or differs from what the rules derive. ``lines`` are JSON
    strings or event dicts of a single game; line numbers count from
    ``first_line``. Returns the replayed game's :class:`~.reference.Result`."""
    lines = list(lines)
    games = parse_lines(lines, name, first_line)
    if len(games) != 1:
        raise ZsimError(f"{name}: check_record takes one game, found {len(games)}")
    start_line, events = games[0]
    try:
        return replay_game(events)
    except ReplayError as exc:
        # the error keeps its place among ``events`` for a reader of a whole file
        raise carry(ZsimError(f"{name}: {_shift(str(exc), start_line - 1)}"), exc) from None


def _shift(message: str, offset: int) -> str:
    """Renumber the ``line N`` a replay error starts with by ``offset``."""
    if offset and message.startswith("line "):
        head, _, rest = message[5:].partition(" ")
        if head.rstrip(":").isdigit():
            return f"line {int(head.rstrip(':')) + offset}{':' if head.endswith(':') else ''} {rest}"
    return message
