"""A Hol's der Geier record told as a play-by-play a person can follow (``zsim replay``)."""
from __future__ import annotations

from typing import Iterator

from zsim.record_files import tell


def _cards(cards) -> str:
    return " ".join(f"{v:+d}" for v in cards)


def play_by_play(events: list[dict]) -> str:
    return tell(_lines, events)


def _lines(events: list[dict]) -> Iterator[str]:
    start = events[0]
    names = start.get("strategies") or [f"seat {s}" for s in range(start["players"])]
    who = [f"seat {s} ({n})" for s, n in enumerate(names)]
    rules = start["rules"]
    carry = "ties carry over" if rules["carry_over"] else "tied prizes are discarded"
    yield (f"Hol's der Geier, game {start['game']} of seed {start['seed']}: {start['players']} players, "
           f"vultures -{rules['vultures']}..-1 and mice 1..{rules['top_prize']}, {carry}")
    for ev in events[1:]:
        e = ev["e"]
        if e == "deck":
            yield f"The prize deck is shuffled: {len(ev['prizes'])} cards"
        elif e == "turn":
            extra = f" (the table holds {_cards(ev['table'])}, worth {ev['pot']:+d})" if len(ev["table"]) > 1 else ""
            yield f"Round {ev['round']}: {ev['prize']:+d} is turned up{extra}"
        elif e == "bids":
            shown = ", ".join(f"{w} {b}" for w, b in zip(who, ev["bids"]))
            tied = f"; {', '.join(map(str, ev['cancelled']))} tied and cancel out" if ev["cancelled"] else ""
            yield f"  bids: {shown}{tied}"
        elif e == "take":
            yield f"  {who[ev['seat']]} takes {_cards(ev['cards'])} with {ev['bid']} ({ev['points']:+d})"
        elif e == "carry":
            yield f"  no bid stands alone: {_cards(ev['cards'])} stays on the table"
        elif e == "discard":
            why = "no bid stands alone" if ev["why"] == "tie" else "the game is over"
            yield f"  {why}: {_cards(ev['cards'])} is discarded"
        elif e == "end":
            yield f"End: points {ev['scores']}, places {ev['places']}"
