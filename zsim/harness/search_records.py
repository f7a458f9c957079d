"""Records of games in which a seat searched, in the game's own record
format, each searched decision's visit counts and values added to the
event that shows that decision.

The game is played through the forward model with every decision noted,
then written by the game's own record writer with a tape (``zsim.tape``)
in each searching seat, so the record is the game's usual one; the places
it ends with are checked against the searched game's. Each searched
decision gets a ``search`` list on the event the forward model names for
its kind (``DECISION_EVENTS``): one entry per seat that searched it, with
the options as a person reads them, their visits and their mean share of
first place. Readers of a record ignore fields they do not know, so replay
and every other reader take these records as they are.
"""
from __future__ import annotations

import dataclasses
from typing import Iterable, Iterator

import numpy as np

from zsim.errors import ZsimError
from zsim.strategy_registry import searches, strategy_arrays


def record_games(matchup, seed: int, games: Iterable[int]) -> Iterator[list[dict]]:
    """The records of ``games`` of ``matchup`` (the same games ``simulate`` plays)."""
    if not searches(matchup.game, matchup.strategies):
        yield from matchup.spec.record_games(matchup, seed, games)
        return
    from zsim.harness.stepping import SearchSetup

    specs = list(matchup.strategies)
    _, params = strategy_arrays(matchup.game, specs)
    setup = SearchSetup(matchup, specs, params.shape[1])
    kinds = getattr(setup.model, "DECISION_EVENTS", None)
    if kinds is None:
        raise ZsimError(f"{matchup.game}'s forward model names no record event for its decisions, "
                        f"so a game a search played cannot be recorded")
    ws = setup.workspace()
    for g in games:
        decisions, rows, seat_out = play_logged(setup, seed, g, ws)
        events = written(matchup, seed, g, decisions, setup.modes)
        _check(matchup, g, events, seat_out)
        _attach(events, decisions, rows, kinds, setup.model)
        yield events


def play_logged(setup, seed: int, game: int, ws):
    """Game ``game`` through the forward model, every decision noted: (decisions
    [N, 6] as ``play_stepped_nb`` logs them, the searched roots' rows, the seat rows)."""
    from zsim.harness.stepping_nb import record_searched_nb

    m = setup.matchup
    seat_out = np.zeros((m.players, m.spec.n_seat_stats), np.int64)
    game_out = np.zeros(m.spec.n_game_stats, np.int64)
    size = 1024
    while True:
        log = (np.zeros((size, 6), np.int64), np.zeros((size, setup.model.MAX_OPTIONS, 3)), np.zeros(1, np.int64))
        record_searched_nb(np.uint64(seed), game, setup.roster, *setup.rows(), setup.consts, *ws, seat_out, game_out,
                           log)
        n = int(log[2][0])
        if n <= size:
            return log[0][:n], log[1][:n], seat_out
        size = 2 * n            # the game is a pure function of its seed: play it again with room


def written(matchup, seed: int, game: int, decisions: np.ndarray, modes: np.ndarray) -> list[dict]:
    """The game's own record of it, each searching seat replaced by a tape of its answers."""
    from zsim.tape import drop, tape_spec

    specs = list(matchup.strategies)
    tapes = []
    for seat in np.flatnonzero(modes >= 0).tolist():
        tapes.append(tape_spec(decisions[decisions[:, 0] == seat, 5]))     # as the seat's bot would answer
        specs[seat] = tapes[-1]
    try:
        taped = dataclasses.replace(matchup, strategies=tuple(specs), compile_for=None)
        events = next(iter(matchup.spec.record_games(taped, seed, [game])))
    finally:
        for t in tapes:
            drop(t)
    if events and events[0].get("strategies") is not None:
        events[0]["strategies"] = list(matchup.strategies)
    return events


def _check(matchup, game: int, events: list[dict], seat_out: np.ndarray) -> None:
    places = next((e["places"] for e in reversed(events) if "places" in e), None)
    want = seat_out[:, matchup.spec.seat_index("place")].tolist()
    if places is not None and list(places) != want:
        raise ZsimError(f"the record of game {game} does not end as the searched game did "
                        f"(places {places} against {want}): a forward model bug")


def _attach(events: list[dict], decisions: np.ndarray, rows: np.ndarray, kinds, model) -> None:
    """Each searched decision's root rows onto the event that shows it."""
    where: dict[str, list[int]] = {}
    for i, e in enumerate(events):
        where.setdefault(e.get("e"), []).append(i)
    cursor = {name: 0 for name in set(kinds)}
    last_round = {name: 0 for name in set(kinds)}
    finder = getattr(model, "decision_event", None)
    position = 0
    for k in range(decisions.shape[0]):
        seat, kind, sealed, _, searched, _ = (int(v) for v in decisions[k])
        name = kinds[kind]
        found = where.get(name, [])
        if sealed > 0:                        # a sealed round is one event for every seat's answer
            if sealed != last_round[name]:
                last_round[name] = sealed
                cursor[name] += 1
            index = found[cursor[name] - 1] if 0 < cursor[name] <= len(found) else None
        elif finder is not None:              # the game's own reading of its record
            index = finder(events, position, seat, kind, int(decisions[k, 3]))
            if index is not None:
                position = max(position, index + 1)
        else:
            while cursor[name] < len(found) and events[found[cursor[name]]].get("seat") != seat:
                cursor[name] += 1
            index = found[cursor[name]] if cursor[name] < len(found) else None
            cursor[name] += 1
        if not searched:
            continue
        if index is None:
            raise ZsimError(f"no {name!r} event in the record for a searched decision of seat {seat}")
        events[index].setdefault("search", []).append({
            "seat": seat,
            "options": [model.option_text(kind, int(o)) for o in rows[k, :searched, 0]],
            "visits": [int(v) for v in rows[k, :searched, 1]],
            "values": [round(float(v), 4) for v in rows[k, :searched, 2]],
        })
