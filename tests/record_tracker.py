"""Follows a game record event by event and checks what must hold at every step.

Independent of both engines: it only moves cards as the events say and
asserts conservation, the card cap and that eliminated seats stay out.
"""
from __future__ import annotations

LETTERS = "FWCE"


class Tracker:
    def __init__(self, start: dict):
        self.rules = start["rules"]
        self.supply = list(self.rules["supply"])
        self.jobs = start["jobs"]
        self.n = start["players"]
        self.hand = [list(h) for h in start["hands"]]
        self.left = [[0] * 4 for _ in range(self.n)]
        self.right = [[0] * 4 for _ in range(self.n)]
        self.stacks = list(start["stacks"])
        self.out: set[int] = set()
        self.checked = 0
        self.check()

    def owned(self, s: int) -> int:
        return sum(self.hand[s]) + sum(self.left[s]) + sum(self.right[s])

    def check(self) -> None:
        for t in range(4):
            total = self.stacks[t] + sum(self.hand[s][t] + self.left[s][t] + self.right[s][t]
                                         for s in range(self.n))
            assert total == self.supply[t], f"type {LETTERS[t]}: {total} cards, supply {self.supply[t]}"
            assert self.stacks[t] >= 0
            assert all(self.hand[s][t] >= 0 for s in range(self.n))
        if self.rules["over_cap"] == "forbid":
            for s in range(self.n):
                assert self.owned(s) <= self.rules["card_cap"], f"seat {s} owns {self.owned(s)}"
        for s in self.out:
            assert self.owned(s) == 0
        self.checked += 1

    def act(self, s: int, action: dict) -> None:
        assert s not in self.out, f"eliminated seat {s} adjusted"
        do = action["do"]
        if do in ("take", "exchange"):
            if do == "exchange":
                g = LETTERS.index(action["give"])
                self.hand[s][g] -= 1
                self.stacks[g] += 1
            t = LETTERS.index(action["type" if do == "take" else "take"])
            self.stacks[t] -= 1
            self.hand[s][t] += 1
        elif do == "discard":
            t = LETTERS.index(action["type"])
            self.hand[s][t] -= 1
            self.stacks[t] += 1

    def apply(self, ev: dict) -> None:
        e = ev["e"]
        if e in ("setup", "adjust"):
            self.act(ev["seat"], ev["action"])
        elif e == "turn":
            assert ev["seat"] not in self.out, f"eliminated seat {ev['seat']} took a turn"
        elif e == "finish":
            s = ev["seat"]
            assert ev["to_hand"] == self.right[s] and ev["to_right"] == self.left[s]
            self.hand[s] = [a + b for a, b in zip(self.hand[s], self.right[s])]
            self.right[s], self.left[s] = self.left[s], [0] * 4
        elif e == "bids":
            for s in self.out:
                assert ev["bids"][s] is None, f"eliminated seat {s} bid"
        elif e == "award":
            need = self.jobs[ev["job"]]
            for s in ev["winners"]:
                assert s not in self.out
                self.hand[s] = [a - b for a, b in zip(self.hand[s], need)]
                self.left[s] = [a + b for a, b in zip(self.left[s], need)]
        elif e == "payday":
            for s in self.out:
                assert ev["counts"][s] is None and ev["paid"][s] is None
        elif e == "eliminated":
            s = ev["seat"]
            for t in range(4):
                self.stacks[t] += self.hand[s][t] + self.left[s][t] + self.right[s][t]
            self.hand[s], self.left[s], self.right[s] = [0] * 4, [0] * 4, [0] * 4
            self.out.add(s)
        self.check()


def follow(events: list[dict]) -> Tracker:
    tracker = Tracker(events[0])
    for ev in events[1:]:
        tracker.apply(ev)
    return tracker
