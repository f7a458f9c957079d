"""What one seat sees at the table, in words: the screen of ``zsim play`` and
the seat panels of ``zsim view`` are drawn from it.

A game's forward model may define ``describe(pos, seat, matchup) ->
SeatView``, plain Python over the position's numbers. It may read only
what ``seat`` knows: its own hidden cards, everything public, and what the
seat can count from what it has seen. The tests hold it to that the way
they hold ``determinize_nb``: a position drawn from those the seat cannot
tell apart from this one (``determinize_nb``) must give the same view, word
for word. ``seat=-1`` describes the table as a spectator who sees every
hand (the viewer's "all seats" mode): there, and only there, every seat's
hidden cards may appear.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SeatView:
    """One seat's view (or a spectator's, ``seat == -1``).

    ``status``: one line on where the game stands (round, paydays, what is
    waiting). ``own``: (label, text) pairs only the seat itself sees, its
    hand first. ``seats``: one row per seat in play order, each a dict of
    the public facts a person compares across seats (money, cards in hand,
    cards on the table...), the same keys in every row. ``table``: (label,
    text) pairs of the public table (the card on offer, the deck, the
    discards). ``counted``: (label, text) pairs of what the seat has counted
    from what it saw (cards still unseen by type, for example)."""
    seat: int
    status: str
    own: tuple[tuple[str, str], ...] = ()
    seats: tuple[dict, ...] = ()
    table: tuple[tuple[str, str], ...] = ()
    counted: tuple[tuple[str, str], ...] = ()
    extra: dict = field(default_factory=dict, compare=False)

    def lines(self) -> list[str]:
        """The view as plain lines (a terminal without colour, a test's scan)."""
        out = [self.status]
        for label, text in self.own:
            out.append(f"{label}: {text}")
        if self.seats:
            keys = list(self.seats[0])
            out.append(" | ".join(keys))
            for row in self.seats:
                out.append(" | ".join(str(row.get(k, "")) for k in keys))
        for label, text in (*self.table, *self.counted):
            out.append(f"{label}: {text}")
        return out
