"""What every game's replay shares: reading the start line, refereeing each
line the rules write against the record's, and turning a broken rule into
one line that names the record's line.

A game's replay module subclasses :class:`RecordReferee` with its own chance
and decisions (read from the line the rules write next) and its own
``same`` (JSON equality with the game's leniencies).

Every error about a game's line is also :func:`placed`: it carries the
event's index in the game and the problem in words, so that a reader of a
file of many games (:mod:`zsim.record_files`) can name the file's own line.
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


#: the attributes :func:`placed` gives an error
PLACE = ("record_at", "record_event", "record_problem")


def placed(exc: BaseException, at: int, problem: str, what=None) -> BaseException:
    """``exc`` marked with its place in a game's record: ``at`` the index of
    the event it is about (0 = the start line), ``what`` that event's kind
    (``e``) when known, ``problem`` what is wrong, in words that still read
    right after ``<file> line <n> (game <k>, <what>):``."""
    exc.record_at, exc.record_event, exc.record_problem = at, what, problem
    return exc


def carry(new: BaseException, old: BaseException) -> BaseException:
    """``new`` (``old`` reworded) keeping ``old``'s place in the record."""
    for key in PLACE:
        if hasattr(old, key):
            setattr(new, key, getattr(old, key))
    return new


def kind_of(events, i: int):
    """The ``e`` of event ``i`` of a game, or None."""
    ev = events[i] if 0 <= i < len(events) else None
    return ev.get("e") if isinstance(ev, dict) else None


class RecordReferee:
    """The referee half of a game's record reader (``events[0]`` = start).

    Subclasses set ``error`` (their ReplayError) and may override :meth:`same`."""

    error: type[ZsimError] = ZsimError

    def __init__(self, events: list[dict]):
        self.events = events

    def same(self, want, got) -> bool:
        return want == got

    def fail(self, i: int, problem: str):
        what = kind_of(self.events, i)
        shown = "?" if what is None else what
        raise placed(self.error(f"line {i + 1} ({shown}): {problem}"), i, problem, what)

    def ends(self, needed: str):
        """The record ends where the rules still call for ``needed``."""
        n = len(self.events)
        raise placed(self.error(f"the record ends after line {n}, but the rules {needed}"), n - 1,
                     f"the game's record ends here, but the rules {needed}", kind_of(self.events, n - 1))

    def observe(self, game, i: int, event: dict) -> None:
        """The engine's line ``i`` must be the record's."""
        if i >= len(self.events):
            self.ends(f"go on with {short(event)}")
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
        raise placed(error("line 1: a record begins with its start event"), 0,
                     "a record begins with its start event")
    start = events[0]

    def bad(problem: str):
        raise placed(error(f"line 1 (start): {problem}"), 0, problem, "start")

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
        i = len(game.events)
        raise placed(inputs.error(f"line {i + 1}: {exc}"), i, str(exc), kind_of(inputs.events, i)) from None
    inputs.check_finished(game)
    return result
