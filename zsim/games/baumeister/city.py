"""A city: a row of building cards at integer positions, the building rules
and the scoring (used by the reference engine; the fast engine has its own).

A card placed into an empty row stands at 0; −1 is left of it. The row's ends
are its outermost cards L ≤ R; an empty position between them is a gap.
Built cards never move. A corner tower closes the end it was placed at (into
an empty row: the left) and keeps closing that end, and only that one, until
it is destroyed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from zsim.games.baumeister.cards import CHURCH, CORNER, HALL, Deck, kin

LEFT, RIGHT = "left", "right"


@dataclass
class City:
    cards: dict[int, int] = field(default_factory=dict)    # position -> card number
    closes: dict[int, str] = field(default_factory=dict)   # corner tower's position -> the end it closes

    # ------------------------------------------------------------ views
    def copy(self) -> City:
        return City(dict(self.cards), dict(self.closes))

    @property
    def empty(self) -> bool:
        return not self.cards

    @property
    def left(self) -> int:
        return min(self.cards)

    @property
    def right(self) -> int:
        return max(self.cards)

    def closed(self, end: str) -> bool:
        return end in self.closes.values()

    def gaps(self) -> list[int]:
        if not self.cards:
            return []
        return [p for p in range(self.left + 1, self.right) if p not in self.cards]

    def row(self) -> list[list[int]]:
        """``[[pos, card], ...]`` by position (the record's ``row``)."""
        return [[p, self.cards[p]] for p in sorted(self.cards)]

    def count(self, deck: Deck, t: int) -> int:
        return sum(1 for c in self.cards.values() if deck.card(c).type == t)

    def shields(self, deck: Deck) -> int:
        return sum(deck.card(c).shields for c in self.cards.values())

    def coins(self, deck: Deck) -> int:
        return sum(deck.card(c).coins for c in self.cards.values())

    # ------------------------------------------------------------ building
    def open_positions(self) -> list[int]:
        """Where a card could go before its type is looked at: the open ends, the gaps, or 0."""
        if not self.cards:
            return [0]
        out = []
        if not self.closed(LEFT):
            out.append(self.left - 1)
        out += self.gaps()
        if not self.closed(RIGHT):
            out.append(self.right + 1)
        return out

    def why_not(self, deck: Deck, card: int, pos: int, final_round: bool) -> str | None:
        """None if ``card`` may be placed at ``pos``, else the rule it breaks."""
        if pos not in self.open_positions():
            return f"position {pos} is not an open end, a gap or the first place of an empty row"
        return self._breaks(deck, card, pos, final_round)

    def _breaks(self, deck: Deck, card: int, pos: int, final_round: bool) -> str | None:
        """The type rules for an open position ``pos``."""
        c = deck.card(card)
        if c.type == CORNER:
            if self.cards and self.left < pos < self.right:
                return "a corner tower stands only at an end"
            if not final_round and self.count(deck, CORNER) >= 1:
                return "only one corner tower before the final round"
        if c.type == HALL and self.count(deck, HALL) >= 1:
            return "at most one town hall in the row"
        for n in (pos - 1, pos + 1):
            if n in self.cards and kin(deck.card(self.cards[n]).type) == kin(c.type):
                return f"two cards of one type side by side (card {self.cards[n]} at {n})"
        return None

    def place(self, deck: Deck, card: int, pos: int) -> None:
        """Place a card (legality checked by the caller with :meth:`why_not`)."""
        was_empty = not self.cards
        if deck.card(card).type == CORNER:
            self.closes[pos] = LEFT if was_empty or pos < self.left else RIGHT
        self.cards[pos] = card

    def legal_placements(self, deck: Deck, hand, final_round: bool) -> list[tuple[int, int]]:
        """Every ``(card, pos)`` that may be placed next, by card number then position."""
        positions = self.open_positions()
        return [(c, p) for c in sorted(hand) for p in positions
                if self._breaks(deck, c, p, final_round) is None]

    def can_place(self, deck: Deck, hand, count: int, final_round: bool) -> bool:
        """Can ``count`` more cards of ``hand`` be placed one after another?"""
        if count <= 0:
            return True
        for c, p in self.legal_placements(deck, hand, final_round):
            nxt = self.copy()
            nxt.place(deck, c, p)
            if nxt.can_place(deck, [h for h in hand if h != c], count - 1, final_round):
                return True
        return False

    # ------------------------------------------------------------ sabotage
    def remove(self, pos: int) -> int:
        """Destroy the card at ``pos`` (an end card shortens the row; an inner one leaves a gap)."""
        card = self.cards.pop(pos)
        self.closes.pop(pos, None)
        return card

    # ------------------------------------------------------------ scoring
    def complete(self) -> bool:
        return bool(self.cards) and not self.gaps() and self.closed(LEFT) and self.closed(RIGHT)

    def score(self, deck: Deck, rules) -> dict[str, int | bool]:
        """``built``, ``complete`` and the three bonuses (the record's end fields, less the hand)."""
        built = sum(deck.card(c).value for c in self.cards.values())
        out = {"built": built, "complete": self.complete(), "middle": 0, "churches": 0, "corners": 0}
        if not out["complete"]:
            return out
        order = [self.cards[p] for p in sorted(self.cards)]
        types = [deck.card(c).type for c in order]
        if HALL in types:
            h = types.index(HALL)
            if len(order) % 2 == 1 and h == len(order) // 2:
                out["middle"] = rules.bonus_middle
            left, right = types[:h].count(CHURCH), types[h + 1:].count(CHURCH)
            if left == right >= 1:
                out["churches"] = rules.bonus_churches
        if deck.card(order[0]).value == deck.card(order[-1]).value:
            out["corners"] = rules.bonus_corners
        return out
