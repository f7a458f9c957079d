"""What ``zsim games`` says of a game: :class:`GameInfo`, made by the game
registry (:func:`zsim.games.catalogue`) and handed out by the API."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameInfo:
    """A game zsim plays (:func:`zsim.games`).

    Example:
        >>> import zsim
        >>> g = zsim.games()[0]
        >>> g.name, g.min_players, g.max_players
        ('zahltag', 2, 4)
    """
    name: str
    title: str
    min_players: int
    max_players: int
    description: str
    has_deck: bool
    rules: tuple[str, ...]          # its rule keys

    def as_dict(self) -> dict:
        """The row ``zsim games --json`` prints."""
        return {"name": self.name, "title": self.title, "players": [self.min_players, self.max_players],
                "description": self.description, "deck": self.has_deck, "rules": list(self.rules)}

    def line(self) -> str:
        """The line ``zsim games`` prints."""
        return (f"{self.name:<11} {self.min_players}-{self.max_players} players  "
                f"{self.title}: {self.description}")
