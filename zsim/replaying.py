"""What every game's replay shares: reading the start line, refereeing each
line the rules write against the record's, and turning a broken rule into
one line that names the record's line.

A game's replay module subclasses :class:`RecordReferee` with its own chance
and decisions (read from the line the rules write next) and its own
``same`` (JSON equality with the game's leniencies).
"""
from __future__ import annotations

import json

from zsim.errors import ZsimError


class Recording:
    """The event log of a reference engine's game: with ``record`` (or a
    ``referee``) set, :meth:`emit` keeps each event, showing it to the referee first."""

    record: bool = False
    referee = None
    events: list

    def emit(self, e: str, **fields) -> None:
        if self.record:
            event = {"e": e, **fields}
            if self.referee is not None:
                self.referee.observe(self, len(self.events), event)
            self.events.append(event)


def short(obj) -> str:
    """Compact JSON, for messages."""
    return json.dumps(obj, separators=(",", ":"))


class RecordReferee:
    """The referee half of a game's record reader (``events[0]`` = start).

    Subclasses set ``error`` (their ReplayError) and may override :meth:`same`."""

    error: type[ZsimError] = ZsimError

    def __init__(self, events: list[dict]):
        self.events = events

    def same(self, want, got) -> bool:
        return want == got

    def fail(self, i: int, problem: str):
        ev = self.events[i] if i < len(self.events) else None
        what = ev.get("e") if isinstance(ev, dict) else "?"
        raise self.error(f"line {i + 1} ({what}): {problem}")

    def observe(self, game, i: int, event: dict) -> None:
        """The engine's line ``i`` must be the record's."""
        if i >= len(self.events):
            raise self.error(f"the record ends after line {len(self.events)}, but the rules go on "
                             f"with {short(event)}")
        got = self.events[i]
        if isinstance(got, dict) and got.get("e") == event["e"]:
            missing = [k for k in event if k not in got]
            if missing:
                self.fail(i, f"lacks {', '.join(missing)} (the rules give {short(event)})")
        if not isinstance(got, dict) or not self.same(event, {k: got.get(k) for k in event}):
            if isinstance(got, dict) and got.get("e") == event["e"]:
                wrong = [k for k in event if not self.same(event[k], got.get(k))]
                self.fail(i, f"{', '.join(wrong)} should be "
                             f"{', '.join(short(event[k]) for k in wrong)} by the rules "
                             f"(the rules give {short(event)})")
            self.fail(i, f"the rules give {short(event)} here")

    def check_finished(self, game) -> None:
        if len(self.events) > len(game.events):
            self.fail(len(game.events), "comes after the game's end")


def start_event(events, name: str, low: int, high: int, error: type[ZsimError]):
    """The start line of a record of game ``name`` with a valid player count:
    ``(start, players, bad)``, ``bad(problem)`` raising ``error`` about line 1."""
    if not isinstance(events, list) or not events or not isinstance(events[0], dict) \
            or events[0].get("e") != "start":
        raise error("line 1: a record begins with its start event")
    start = events[0]

    def bad(problem: str):
        raise error(f"line 1 (start): {problem}")

    if start.get("name") != name:
        bad(f"name should be {name!r}, got {start.get('name')!r}")
    players = start.get("players")
    if type(players) is not int or not low <= players <= high:
        bad(f"players must be {low}..{high}, got {players!r}")
    return start, players, bad


def play_checked(game, inputs: RecordReferee):
    """Play a game fed by a record; a rule broken on the way is one line naming the record's line."""
    try:
        result = game.play()
    except inputs.error:
        raise
    except ZsimError as exc:
        raise inputs.error(f"line {len(game.events) + 1}: {exc}") from None
    inputs.check_finished(game)
    return result
