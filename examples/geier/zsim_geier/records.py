"""Hol's der Geier game records: JSON lines (TRACE.md), written and refereed.

The reference engine writes a record's events already in the format's
conventions (prize and bid cards as their values, per-seat lists indexed
by seat); this module turns them into text, and :func:`check_record`
re-plays a record to tell whether it keeps every rule.
"""
from __future__ import annotations

import json
from collections.abc import Iterable

from zsim.errors import ZsimError
from zsim.record_referee import carry
from zsim_geier.reference import Result, play_game
from zsim_geier.replay import ReplayError, replay_game


def record_game(players: int, rules=None, strategies=None, seed: int = 0, game_index: int = 0) -> list[dict]:
    """The record of one fresh game played by the reference bots (see :func:`~.reference.play_game`)."""
    return play_game(players, rules, strategies, seed, game_index, record=True).events


def event_line(event: dict) -> str:
    """One event as a compact JSON line (no newline)."""
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False)


def to_jsonl(events: Iterable[dict]) -> str:
    return "".join(event_line(ev) + "\n" for ev in events)


def check_record(events: list[dict], name: str = "record") -> Result:
    """The referee: replay one game's events and raise :class:`ZsimError` (one
    line: the record's line, its event, what the rules say) if it breaks a
    rule or differs from what the rules derive. Returns the replayed game's
    :class:`~.reference.Result`."""
    try:
        return replay_game(list(events))
    except ReplayError as exc:
        # the error keeps its place among ``events`` for a reader of a whole file
        raise carry(ZsimError(f"{name}: {exc}"), exc) from None
