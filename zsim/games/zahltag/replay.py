"""Reading game records back: split, re-check, and tell as a play-by-play."""
from __future__ import annotations

from typing import Iterator

from zsim.errors import ZsimError
from zsim.record_referee import carry, placed, short

TYPE_NAMES = {"F": "foreman", "W": "worker", "C": "crane", "E": "excavator"}


from zsim.record_files import MAX_LINE, read_records, tell  # noqa: F401  (the generic reader, re-exported)


def check_record(events: list[dict]) -> None:
    """Re-play the record with the reference engine; raise on any difference."""
    from zsim.games.zahltag.reference_replay import ReplayError, replay_record

    game = events[0].get("game", "?") if events and isinstance(events[0], dict) else "?"
    try:
        derived = replay_record(events)
    except ReplayError as exc:
        raise carry(ZsimError(f"game {game}: the record breaks the rules: {exc}"), exc) from None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ZsimError(f"game {game}: malformed record ({exc.__class__.__name__}: {exc})") from None
    for i, (want, got) in enumerate(zip(derived, events)):
        if _known(want, got) != want:
            problem = f"differs from the rules' {short(want)}"
            raise placed(ZsimError(f"game {game}: event {i + 1} ({got.get('e')}) {problem}"), i, problem,
                         got.get("e"))
    if len(derived) != len(events):
        message = f"game {game}: the record has {len(events)} events, the rules give {len(derived)}"
        if len(events) > len(derived):
            at, problem = len(derived), "comes after the game's end by the rules"
        else:
            at, problem = len(events) - 1, f"the game's record ends here, but the rules go on with " \
                                           f"{short(derived[len(events)])}"
        raise placed(ZsimError(message), at, problem, events[at].get("e"))


def _known(want: dict, got: dict) -> dict:
    """``got`` restricted to the fields the format defines (extra fields are allowed).
    A start event written before records named their game has no ``name``: it is Zahltag's."""
    return {k: got.get(k, "zahltag" if k == "name" and got.get("e") == "start" else None) for k in want}


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
    return tell(_lines, events)


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
