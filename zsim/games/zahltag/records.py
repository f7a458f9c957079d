"""Game records (JSON lines, see TRACE.md) of the games the fast engine plays.

``record_games`` replays chosen games of a run with the engine's event log on
and turns each log into the record's events; the same seed and game index
give the same game as ``simulate``.
"""
from __future__ import annotations

import json
from typing import Iterable, Iterator

import numpy as np

from zsim.games.zahltag import constants as K
from zsim.games.zahltag import events_nb as E
from zsim.games.zahltag.batch_nb import record_game_nb
from zsim.games.zahltag.engine_nb import new_workspace
from zsim.games.zahltag.notation import action_json, card_code
from zsim.roster import roster_of
from zsim.strategy_registry import strategy_arrays

SHUFFLE_REASONS = {E.SHUFFLE_IN_A_ROW: "payday_in_a_row", E.SHUFFLE_FORCED: "forced_payday"}


def _play_logged(matchup, seed: int, game: int):
    ids, params = strategy_arrays(matchup.game, list(matchup.strategies))
    rules_a, needs = matchup.rules.as_array(), matchup.deck.lanes()
    roster = roster_of("zahltag", ids)
    ws = new_workspace(len(ids), needs, rules_a)   # a replay sets it up again, as every game does
    size = 1 << 14
    while True:
        log = np.zeros(size, np.int64)
        seat_out, game_out = record_game_nb(np.uint64(seed), game, rules_a, needs, roster, ids, params, ws, log)
        if log[0] <= size:
            return log[1:log[0]], seat_out, game_out
        size = int(log[0]) * 2  # the game is deterministic: replay it with room


def decode(matchup, seed: int, game: int, log: np.ndarray, seat_out: np.ndarray) -> list[dict]:
    """The TRACE.md events of one game from the engine's int log."""
    p = matchup.players
    events: list[dict] = []
    needs = matchup.deck.needs
    i = 0
    while i < len(log):
        code, n = int(log[i]), int(log[i + 1])
        a = [int(v) for v in log[i + 2:i + 2 + n]]
        i += 2 + n
        if code == E.LOG_DEAL:
            hands = [a[4 * s:4 * s + 4] for s in range(p)]
            stacks = a[4 * p:4 * p + 4]
        elif code == E.LOG_DECK:
            events.append({
                "e": "start", "name": "zahltag", "players": p, "seed": seed, "game": game,
                "rules": matchup.rules.as_dict(), "jobs": matchup.deck.job_dict(),
                "hands": hands, "stacks": stacks,
                "money": [matchup.rules.start_money] * p,
                "deck": [card_code(c) for c in a], "strategies": list(matchup.strategies),
            })
        elif code == E.LOG_SETUP:
            events.append({"e": "setup", "seat": a[0], "round": a[1], "action": action_json(a[2])})
        elif code == E.LOG_TURN:
            events.append({"e": "turn", "seat": a[0], "turn": a[1]})
        elif code == E.LOG_FINISH:
            events.append({"e": "finish", "seat": a[0], "to_hand": a[1:5], "to_right": a[5:9]})
        elif code == E.LOG_ADJUST:
            events.append({"e": "adjust", "seat": a[0], "action": action_json(a[1])})
        elif code == E.LOG_PENALTY:
            events.append({"e": "penalty", "seat": a[0], "excess": a[1], "paid": a[2:2 + p]})
        elif code == E.LOG_REVEAL:
            events.append({"e": "reveal", "card": card_code(a[0]), "forced": bool(a[1])})
        elif code == E.LOG_SHUFFLE:
            events.append({"e": "shuffle", "reason": SHUFFLE_REASONS[a[0]],
                           "deck": [card_code(c) for c in a[1:]]})
        elif code == E.LOG_BIDS:
            events.append({"e": "bids", "job": card_code(a[0]),
                           "bids": [None if b < 0 else b for b in a[1:1 + p]]})
        elif code == E.LOG_AWARD:
            winners = a[2:]
            need = [int(v) for v in needs[a[0]]]
            events.append({"e": "award", "job": card_code(a[0]), "winners": winners,
                           "amount": a[1], "left": [list(need) for _ in winners]})
        elif code == E.LOG_PAYDAY:
            events.append({"e": "payday", "number": a[0],
                           "counts": [None if c < 0 else c for c in a[1:1 + p]],
                           "paid": [None if c < 0 else c for c in a[1 + p:1 + 2 * p]]})
        elif code == E.LOG_ELIM:
            events.append({"e": "eliminated", "seat": a[0], "reason": K.ELIM_REASONS[a[1]]})
        elif code == E.LOG_END:
            events.append({"e": "end", "money": [int(v) for v in seat_out[:, K.S_MONEY]],
                           "places": [int(v) for v in seat_out[:, K.S_PLACE]],
                           "reason": K.END_REASONS[a[0]]})
        else:
            raise ValueError(f"unknown log event code {code}")
    return events


def record_game(matchup, seed: int, game: int) -> list[dict]:
    log, seat_out, _ = _play_logged(matchup, seed, game)
    return decode(matchup, seed, game, log, seat_out)


def record_games(matchup, seed: int, games: Iterable[int]) -> Iterator[list[dict]]:
    for g in games:
        yield record_game(matchup, seed, g)


def to_jsonl(events: list[dict]) -> str:
    return "".join(json.dumps(ev, separators=(",", ":")) + "\n" for ev in events)
