"""Baumeister game records: JSON lines (TRACE.md), written and refereed.

The reference engine writes the events in the format's conventions already
(cards by number, rows ``[[pos, card], ...]`` by position, ``"S"`` for the
saboteur face, ``null`` for "none"); :func:`check_record` replays a record
through the rules and names the first line that breaks one.
"""
from __future__ import annotations

import json

from zsim.errors import ZsimError
from zsim.record_referee import carry
from zsim.games.baumeister.reference import Result, play_game
from zsim.games.baumeister.replay import ReplayError, replay_game


def record_game(players: int, rules, strategies: list[str], seed: int = 0, game_index: int = 0,
                deck=None) -> list[dict]:
    """The record of one fresh game of the reference strategies."""
    return play_game(players, rules, strategies, seed, game_index, deck, record=True).events


def to_jsonl(events: list[dict]) -> str:
    """One compact JSON line per event."""
    return "".join(json.dumps(ev, separators=(",", ":"), ensure_ascii=False) + "\n" for ev in events)


def check_record(events: list[dict], name: str = "record") -> Result:
    """Replay one game's events; one-line ZsimError naming the line if a rule is broken."""
    try:
        return replay_game(events)
    except ReplayError as exc:
        # the error keeps its place among ``events`` for a reader of a whole file
        raise carry(ZsimError(f"{name}: {exc}"), exc) from None
