"""A city: a row of building cards at integer positions, the building rules,
the search whether a build can still be made, and the scoring (used by the
reference engine; the fast engine has its own).

A card placed into an empty row stands at 0; −1 is left of it. The row's ends
are its outermost cards L ≤ R; an empty position between them is a gap.
Built cards never move. A corner tower closes the end it was placed at (into
an empty row: the left) and keeps closing that end, and only that one, until
it is destroyed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from zsim.games.baumeister.cards import CHURCH, CORNER, HALL, TYPES, Deck, kin

LEFT, RIGHT = "left", "right"
#: an end of a row that takes no more cards (a corner tower closed it), in :func:`can_grow`
CLOSED = -1


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
        """Can ``count`` more cards of ``hand`` be placed one after another?

        One card is a look at the legal placements. Two or more are asked only
        for a first build, whose row holds nothing but that build's own cards:
        no gaps. Such a row takes cards at its two ends alone, so the answer
        depends on little (see :func:`can_grow`), which is searched instead of
        the cards and positions themselves: a first build of ten cards out of a
        large hand is answered at once, where trying the cards one after
        another in every order takes exponential time. A row with gaps is
        searched placement by placement, one card of each type."""
        if count <= 0:
            return True
        if len(hand) < count:
            return False
        if count == 1:
            return bool(self.legal_placements(deck, hand, final_round))
        if self.gaps():
            return self._search(deck, hand, count, final_round)
        held = [0] * len(TYPES)
        for c in hand:
            held[deck.card(c).type] += 1
        # in the final round only the two ends limit the corner towers
        corners_left = 2 if final_round else 1 - self.count(deck, CORNER)
        return can_grow(self.ends(deck), max(0, corners_left), 1 - min(1, self.count(deck, HALL)),
                        tuple(min(n, count) for n in held), count)

    def _search(self, deck: Deck, hand, count: int, final_round: bool) -> bool:
        """:meth:`can_place` by trying each placement and searching on; cards of one
        type go to the same places, so one card of each type is tried."""
        if count <= 0:
            return True
        tried = set()
        for c, p in self.legal_placements(deck, hand, final_round):
            if (deck.card(c).type, p) in tried:
                continue
            tried.add((deck.card(c).type, p))
            nxt = self.copy()
            nxt.place(deck, c, p)
            if nxt._search(deck, [h for h in hand if h != c], count - 1, final_round):
                return True
        return False

    def ends(self, deck: Deck) -> tuple[int, int] | None:
        """What :func:`can_grow` reads of a row: None when it is empty, else
        (left, right), each the type of that end's card or :data:`CLOSED`."""
        if not self.cards:
            return None
        left = CLOSED if self.closed(LEFT) else deck.card(self.cards[self.left]).type
        right = CLOSED if self.closed(RIGHT) else deck.card(self.cards[self.right]).type
        return mirror(left, right)

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


# ---------------------------------------------------------------- a first build's search
def mirror(left: int, right: int) -> tuple[int, int]:
    """A row's ends, smaller first: the building rules read the same in a mirror,
    so a row and its mirror image take the same builds."""
    return (left, right) if left <= right else (right, left)


def grown(ends: tuple[int, int] | None, t: int) -> list[tuple[int, int]]:
    """The ends after a card of type ``t`` goes to each place it may take in a row
    without gaps (``ends`` as :meth:`City.ends`), leaving aside the row's counts
    of corner towers and town halls: to 0 in an empty row (a corner tower there
    closes the left end), else to an open end whose card is not of its kin (a
    corner tower closes the end it goes to)."""
    if ends is None:
        return [(CLOSED, CORNER) if t == CORNER else (t, t)]
    new = CLOSED if t == CORNER else t
    left, right = ends
    out = []
    if left != CLOSED and kin(left) != kin(t):
        out.append(mirror(new, right))
    if right != CLOSED and kin(right) != kin(t):
        out.append(mirror(left, new))
    return out


@lru_cache(maxsize=1 << 16)
def can_grow(ends: tuple[int, int] | None, corners_left: int, halls_left: int, held: tuple[int, ...],
             need: int) -> bool:
    """Can ``need`` more cards be placed one after another into a row without gaps?

    A row without gaps takes a card only at an open end (or at 0 when empty) and
    stays without gaps, and whether a card fits there depends on its type alone.
    So the answer depends on nothing but the row's ends (:meth:`City.ends`), how
    many more corner towers (``corners_left``) and town halls (``halls_left``) it
    may take, how many cards of each type the hand holds (``held``, by type) and
    ``need``; cards of one type are interchangeable. The search runs over these
    states, each answered once and kept (``lru_cache``: the answer is the
    search's own, so what is kept changes no game). More than ``need`` cards of
    a type cannot help, so counts are cut to ``need``: there are at most
    (need + 1)^5 hands, times 22 pairs of ends and 6 counts of corner towers and
    town halls left, so the search takes time polynomial in ``need``, not the
    factorial number of orders in which the cards of a hand could be placed
    (a first build of ten cards visits a few hundred states at most).
    """
    if need <= 0:
        return True
    for t, n in enumerate(held):
        if n == 0 or (t == CORNER and corners_left == 0) or (t == HALL and halls_left == 0):
            continue
        rest = tuple(min(m - (u == t), need - 1) for u, m in enumerate(held))
        for after in grown(ends, t):
            if can_grow(after, corners_left - (t == CORNER), halls_left - (t == HALL), rest, need - 1):
                return True
    return False
