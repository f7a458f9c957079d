"""A Zahlemann record told as a play-by-play a person can follow (``zsim replay``)."""
from __future__ import annotations

from typing import Iterator

from zsim.record_files import tell

_DRAW = {"no_match": "draws", "penalty": "draws a penalty card:", "fifty": "is skipped and draws"}
_PASS = {"no_card": "nothing to draw", "no_match": "no match", "kept": "keeps the drawn match"}


def _coins(c) -> str:
    if isinstance(c, int):
        return str(c)
    return "+".join(map(str, c)) if c else "nothing"


def _holding(h) -> str:
    if isinstance(h, int):
        return str(h)
    worth = sum(n * d for n, d in zip(h, (50, 20, 10, 5, 2, 1)))
    return f"{worth} ({' '.join(f'{n}x{d}' for n, d in zip(h, (50, 20, 10, 5, 2, 1)) if n)})"


def play_by_play(events: list[dict]) -> str:
    return tell(_lines, events)


def _lines(events: list[dict]) -> Iterator[str]:
    start = events[0]
    names = start.get("strategies") or [f"seat {s}" for s in range(start["players"])]
    who = [f"seat {s} ({n})" for s, n in enumerate(names)]
    on = [k for k in ("one_plays_again", "fifty_skips", "two_passes_hands") if start["rules"].get(k)]
    yield (f"Zahlemann & Söhne, game {start['game']} of seed {start['seed']}: {start['players']} players"
           f"{', variants ' + ', '.join(on) if on else ''}; each starts with {_holding(start['coins'][0])}")
    for ev in events[1:]:
        e = ev["e"]
        if e == "round":
            yield f"Round {ev['round']}: {who[ev['start']]} starts; {ev['discard']} is turned up"
            for s, hand in enumerate(ev["hands"]):
                yield f"  {who[s]} holds {' '.join(hand)}"
        elif e == "turn":
            yield f" turn {ev['n']}: {who[ev['seat']]}"
        elif e == "play":
            how = {"hand": "", "drawn": " (just drawn)", "bonus": " (bonus after a 1)"}[ev["from"]]
            yield f"   plays {ev['card']}{how}"
        elif e == "draw":
            card = ev["card"] if ev["card"] is not None else "nothing (no cards left)"
            yield f"   {_DRAW[ev['why']]} {card}"
        elif e == "announce":
            yield "   calls 'Zahlemann!'"
        elif e == "forgot":
            yield "   forgets to call 'Zahlemann'"
        elif e == "noticed":
            yield "   ... and is caught" if ev["noticed"] else "   ... and nobody notices"
        elif e == "pass_turn":
            yield f"   ends the turn: {_PASS[ev['why']]}"
        elif e == "skip":
            pass                                      # told by the fifty draw that follows
        elif e == "reshuffle":
            yield f"   the discards are shuffled into a new draw pile of {len(ev['pile'])}"
        elif e == "pass_hands":
            yield "   every hand moves to the left"
        elif e == "round_end":
            yield f" {who[ev['winner']]} goes out and wins round {ev['round']}"
            for s, p in enumerate(ev["payments"]):
                if p is not None:
                    change = f", {_coins(p['change'])} back" if p["change"] else ""
                    yield (f"  {who[s]} owes {ev['owed'][s]}: hands over {_coins(p['given'])}{change} "
                           f"(pays {p['paid']})")
        elif e == "bankrupt":
            yield f"  {who[ev['seat']]} is bankrupt"
        elif e == "void_round":
            yield f" round {ev['round']} is void ({ev['why'].replace('_', ' ')})"
        elif e == "end":
            yield f"End ({ev['reason'].replace('_', ' ')}, {ev['rounds']} rounds): money {ev['totals']}, " \
                  f"places {ev['places']}"
