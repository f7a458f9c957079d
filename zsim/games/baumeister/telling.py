"""A Baumeister record told as a play-by-play a person can follow (``zsim replay``)."""
from __future__ import annotations

from typing import Iterator

from zsim.record_files import tell


def play_by_play(events: list[dict]) -> str:
    return tell(_lines, events)


def _lines(events: list[dict]) -> Iterator[str]:
    start = events[0]
    cards = {row[0]: row for row in start["cards"]}

    def card(c) -> str:
        row = cards.get(c)
        return f"#{c} {row[1].replace('_', ' ')} {row[2]}" if row else f"#{c}"

    names = start.get("strategies") or [f"seat {s}" for s in range(start["players"])]
    who = [f"seat {s} ({n})" for s, n in enumerate(names)]
    yield (f"Wettstreit der Baumeister, game {start['game']} of seed {start['seed']}: {start['players']} players, "
           f"{len(start['cards'])} cards, {start['money'][0]} Thaler each"
           + (", saboteur=any" if start["rules"].get("saboteur") == "any" else ""))
    for ev in events[1:]:
        e = ev["e"]
        if e == "turn":
            yield f"Turn {ev['turn']}: {who[ev['seat']]}"
        elif e == "roll":
            took = {None: "", "reserve": ", takes a saboteur"}.get(ev["sab_from"],
                                                                    f", takes a saboteur from seat {ev['sab_from']}")
            yield f"  rolls {ev['face']}: +{ev['income']} Thaler{took}"
        elif e == "auction":
            yield f"  auctions the {ev['stack']} card {card(ev['card'])}"
        elif e == "bid":
            yield f"    {who[ev['seat']]} bids {ev['amount']}"
        elif e == "pass":
            yield f"    {who[ev['seat']]} passes"
        elif e == "announce_type":
            yield f"    the card is a {ev['type'].replace('_', ' ')}"
        elif e == "award":
            if ev["winner"] is None:
                yield f"  nobody pays: {card(ev['card'])} goes under the {ev['under']} stack"
            else:
                broke = "".join(f" (seat {s} cannot pay {b}: loses {p})" for s, b, p in ev["insolvent"])
                yield (f"  {who[ev['winner']]} buys it for {ev['price']}{broke}; the auctioneer gets "
                       f"{ev['to_auctioneer']}")
        elif e == "build":
            if ev["placed"]:
                yield f"  {who[ev['seat']]} builds " + ", ".join(f"{card(c)} at {p}" for p, c in ev["placed"])
            else:
                yield f"  {who[ev['seat']]} builds nothing"
        elif e == "sabotage":
            target = f"seat {ev['target']}'s {'hand' if ev['kind'] == 'hand' else 'city'}"
            roll = f", rolls {ev['roll']}" if ev["roll"] is not None else ""
            yield f"  {who[ev['seat']]} sabotages {target}: {card(ev['card'])}{roll}: {ev['outcome'].replace('_', ' ')}"
        elif e == "final_round":
            reason = "a stack ran out" if ev["reason"] == "stack_empty" else "the turn cap"
            yield f"Final round ({reason}): " + ", ".join(f"seat {s}" for s in ev["order"])
        elif e == "end":
            for s in range(start["players"]):
                bonus = ev["middle"][s] + ev["churches"][s] + ev["corners"][s]
                yield (f"{who[s]}: built {ev['built'][s]}, bonuses {bonus}, hand -{ev['hand'][s]}: "
                       f"{ev['total'][s]}, place {ev['places'][s]}")
