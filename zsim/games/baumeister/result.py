"""What one game of Wettstreit der Baumeister's reference engine comes to: the per-seat and
per-game columns of its :class:`Result` (the fast engine's columns, in its order) and the
places that follow from the totals.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from zsim.games.baumeister.cards import TYPES

#: per-seat columns of :class:`Result`
SEAT_COLUMNS = ("total", "place", "built", "complete", "middle", "churches", "corners", "hand",
                "money", "cards_won", "paid", "sales", "income", "insolvent", "penalty", "attacks",
                "destroyed", "kept_paid", "offer_paid", "saboteurs_taken", "cards_built")
#: per-game columns of :class:`Result`
GAME_COLUMNS = ("turns", "end_reason", "auctions", "hidden_auctions", "unsold", "insolvencies",
                "max_bid_hits", "announced", "building_attacks", "hand_attacks", "cards_destroyed",
                *(f"sold_{t}" for t in TYPES), *(f"price_{t}" for t in TYPES))
END_REASONS = ("stack_empty", "max_turns")



@dataclass
class Result:
    """One game's outcome: per-seat lists (index = seat) and per-game numbers."""

    players: int
    seat: dict = field(default_factory=dict)     # column -> list per seat
    game: dict = field(default_factory=dict)     # column -> value
    sales: list = field(default_factory=list)    # (turn, card, stack, winner, price, auctioneer)
    events: list = field(default_factory=list)
    decisions: int = 0   # times a seat's strategy was asked: choices of one option are not asked

    def seat_rows(self) -> list[dict]:
        return [{c: self.seat[c][s] for c in SEAT_COLUMNS} for s in range(self.players)]

    def game_row(self) -> dict:
        return {c: self.game[c] for c in GAME_COLUMNS}


def places_of(totals: list) -> list:
    """Highest total first; equal totals share a place and the next is skipped."""
    return [1 + sum(other > mine for other in totals) for mine in totals]
