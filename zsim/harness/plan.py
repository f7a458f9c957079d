"""A run's plan: what is played (the matchup), from which seed, how many
games in chunks of how many, and the precision that may end it early. The
local and dask backends play a plan's chunks; zsim.harness.runs folds them and keeps
a run folder, whose manifest is the plan's."""
from __future__ import annotations

from dataclasses import dataclass

from zsim.errors import ZsimError
from zsim.harness.chunks import DEFAULT_CHUNK, Matchup, check_games_and_seed

#: the run folder's manifest format (3: the manifest names the game, whose summary columns the sums follow)
FORMAT = 3


@dataclass(frozen=True)
class Plan:
    matchup: Matchup
    seed: int
    games: int                  # planned games (the cap, with a precision target)
    chunk: int = DEFAULT_CHUNK
    precision: float | None = None

    def __post_init__(self):
        check_games_and_seed(self.games, self.seed)
        if not 1 <= self.chunk <= 1 << 24:
            raise ZsimError(f"--chunk must be 1..{1 << 24}, got {self.chunk}")
        if self.precision is not None and not 0 < self.precision < 1:
            raise ZsimError(f"--precision must be between 0 and 1 (a win-share half-width), got {self.precision}")

    @property
    def n_chunks(self) -> int:
        return -(-self.games // self.chunk)

    def span(self, index: int) -> tuple[int, int]:
        """(first game, games) of chunk ``index``."""
        first = index * self.chunk
        return first, min(self.chunk, self.games - first)

    def task(self, index: int) -> tuple[Matchup, int, int, int]:
        """(matchup, seed, first game, games) of chunk ``index``: what a backend plays for it."""
        first, n = self.span(index)
        return self.matchup, self.seed, first, n

    def manifest(self) -> dict:
        m = self.matchup
        return {"format": FORMAT, "game": m.game, "players": m.players, "strategies": list(m.strategies),
                "rules": m.rules.as_dict(), **m.spec.manifest_extras(m),
                "seed": self.seed, "games": self.games, "chunk": self.chunk, "precision": self.precision}

