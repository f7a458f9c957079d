"""Reading game records back: split, re-check, and tell as a play-by-play."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterator

from zsim.errors import ZsimError

TYPE_NAMES = {"F": "foreman", "W": "worker", "C": "crane", "E": "excavator"}


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


def check_record(events: list[dict]) -> None:
    """Re-play the record with the reference engine; raise on any difference."""
    from zsim.games.zahltag.reference import ReplayError, replay_record

    game = events[0].get("game", "?")
    try:
        derived = replay_record(events)
    except ReplayError as exc:
        raise ZsimError(f"game {game}: the record breaks the rules: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ZsimError(f"game {game}: malformed record ({exc.__class__.__name__}: {exc})") from None
    for i, (want, got) in enumerate(zip(derived, events)):
        if _known(want, got) != want:
            raise ZsimError(f"game {game}: event {i + 1} ({got.get('e')}) differs from the rules' "
                            f"{json.dumps(want, separators=(',', ':'))}")
    if len(derived) != len(events):
        raise ZsimError(f"game {game}: the record has {len(events)} events, the rules give {len(derived)}")


def _known(want: dict, got: dict) -> dict:
    """``got`` restricted to the fields the format defines (extra fields are allowed)."""
    return {k: got.get(k) for k in want}


def _action(a: dict) -> str:
    do = a.get("do")
    if do == "take":
        return f"takes a {TYPE_NAMES[a['type']]}"
    if do == "discard":
        return f"discards a {TYPE_NAMES[a['type']]}"
    if do == "exchange":
        return f"exchanges a {TYPE_NAMES[a['give']]} for a {TYPE_NAMES[a['take']]}"
    return "keeps the crew"


def _cards(counts) -> str:
    parts = [f"{n}{letter}" for n, letter in zip(counts, "FWCE") if n]
    return " ".join(parts) if parts else "-"


def play_by_play(events: list[dict]) -> str:
    try:
        return "\n".join(_lines(events)) + "\n"
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        game = events[0].get("game", "?") if events and isinstance(events[0], dict) else "?"
        raise ZsimError(f"game {game}: malformed record ({exc.__class__.__name__}: {exc})") from None


def _lines(events: list[dict]) -> Iterator[str]:
    start = events[0]
    names = start.get("strategies") or [f"seat {s}" for s in range(start["players"])]
    who = [f"seat {s} ({n})" for s, n in enumerate(names)]
    jobs = start["jobs"]
    yield (f"Game {start['game']} of seed {start['seed']}: {start['players']} players, "
           f"{len(jobs)} jobs")
    for s, hand in enumerate(start["hands"]):
        yield f"  {who[s]} is dealt {_cards(hand)}"
    yield f"  stacks {_cards(start['stacks'])}"
    for ev in events[1:]:
        e = ev["e"]
        if e == "setup":
            yield f"  setup round {ev['round']}: {who[ev['seat']]} {_action(ev['action'])}"
        elif e == "turn":
            yield f"Turn {ev['turn']}: {who[ev['seat']]}"
        elif e == "finish":
            yield f"  finishes jobs: {_cards(ev['to_hand'])} back to hand, {_cards(ev['to_right'])} to the right"
        elif e == "adjust":
            yield f"  {_action(ev['action'])}"
        elif e == "penalty":
            yield f"  owns {ev['excess']} over the cap and pays {-ev['paid'][ev['seat']]}"
        elif e == "reveal":
            card = ev["card"]
            if card == "P":
                yield "  takes out a payday (forced)" if ev.get("forced") else "  reveals a payday"
            else:
                yield f"  reveals {card} needing {_cards(jobs[card])}"
        elif e == "shuffle":
            why = "payday twice in a row" if ev["reason"] == "payday_in_a_row" else "after the forced payday"
            yield f"  deck reshuffled ({why})"
        elif e == "bids":
            shown = ", ".join(f"{s}:{'pass' if b == 0 else b}" for s, b in enumerate(ev["bids"])
                              if b is not None)
            yield f"  bids {shown}"
        elif e == "award":
            if not ev["winners"]:
                yield "  nobody takes the job"
            else:
                names_won = " and ".join(who[s] for s in ev["winners"])
                tie = " (tie)" if len(ev["winners"]) > 1 else ""
                yield f"  {names_won} take{'s' if len(ev['winners']) == 1 else ''} it for {ev['amount']}{tie}"
        elif e == "payday":
            bill = ", ".join(f"{s}:{p}" for s, p in enumerate(ev["paid"]) if p is not None)
            yield f"  PAYDAY {ev['number']}: counted {ev['counts']}, paid {bill}"
        elif e == "eliminated":
            yield f"  {who[ev['seat']]} is eliminated ({ev['reason']})"
        elif e == "end":
            yield f"End ({ev['reason']}): money {ev['money']}, places {ev['places']}"
