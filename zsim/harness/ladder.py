"""The strength ladder: every fair bot of a game and its search at growing
budgets, rated from duplicate-deal games (``zsim ladder``).

Games: ``tables`` tables, each a set of ``players`` entries drawn from the
field with a generator seeded by the run's seed (each entry sits at a
table about equally often), each table played on ``deals`` deals of its
own in every rotation of its seats, so every entry at it meets the same
cards from every seat. Table ``t`` plays game indices ``t * deals ..``.

Ratings: openskill's Plackett-Luce model, fed every game's places in
table, deal and rotation order, with no drift between games (``tau`` 0:
the bots do not change as the games go on). Plackett-Luce rates a whole
finishing order, shared places included, which a ladder of three or four
players needs; at two players it is Bradley-Terry. A rating's interval is
``mu +- 1.96 sigma``, the model's own uncertainty. Beside it, every
entry's win share above par (1 / players) over its games, with a 95%
interval taken over tables (a table's deals and rotations are not
independent of each other; tables are).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from zsim.errors import ZsimError
from zsim.game_registry import get_game
from zsim.harness.chunks import Matchup, play_chunk
from zsim.strategy_registry import bots, parse_one

Z95 = 1.959963984540054
_TABLE_STREAM = 0x1ADDE


def default_field(game: str) -> list[str]:
    """Every fair bot of ``game`` (its searches are entered at their budgets)."""
    return [s.name for s in bots(game) if s.fair]


def budgets_between(low: int, high: int) -> list[int]:
    """``low``, ``2 low``, ... up to ``high`` (both included when ``high`` is a doubling of ``low``)."""
    if not 1 <= low <= high:
        raise ZsimError(f"--budgets needs 1 <= low <= high, got {low}..{high}")
    out = []
    b = low
    while b <= high:
        out.append(b)
        b *= 2
    return out


def draw_tables(n_entries: int, players: int, tables: int, seed: int) -> np.ndarray:
    """``tables`` rows of ``players`` distinct entries: the entries in a fresh
    random order, cut into tables, again and again, so each entry sits at a
    table about equally often (int [tables, players])."""
    if n_entries < players:
        raise ZsimError(f"a ladder of {players} players needs at least {players} entries, got {n_entries}")
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, _TABLE_STREAM, players])))
    rows: list[list[int]] = []
    queue: list[int] = []
    while len(rows) < tables:
        while len(set(queue)) < players:
            queue += [int(e) for e in rng.permutation(n_entries)]
        row: list[int] = []
        rest: list[int] = []
        for e in queue:                      # the first distinct entries in line; the rest keep their places
            (row if len(row) < players and e not in row else rest).append(e)
        rows.append(row)
        queue = rest
    return np.asarray(rows, np.int64)


@dataclass
class LadderRound:
    """One table size's ladder: the entries, their games and ratings."""
    game: str
    players: int
    entries: tuple[str, ...]
    tables: np.ndarray          # int [T, P]
    deals: int
    seed: int
    places: np.ndarray          # int [T, deals, P (rotation), P (seat)]: the place of each seat
    ratings: pl.DataFrame

    @property
    def games(self) -> int:
        return int(self.places.shape[0] * self.places.shape[1] * self.places.shape[2])


def play_round(game: str, players: int, entries: list[str], tables: int, deals: int, seed: int, rules=None,
               deck=None, on_games: Callable[[int], None] | None = None) -> LadderRound:
    """Play and rate one table size's ladder (see the module's docstring)."""
    g = get_game(game)
    rules = rules or g.default_rules()
    deck = deck if deck is not None else g.default_deck()
    entries = [parse_one(e, game) for e in entries]
    if len(set(entries)) != len(entries):
        raise ZsimError("the ladder lists an entry twice")
    rows = draw_tables(len(entries), players, tables, seed)
    place_col = g.seat_index("place")
    places = np.zeros((tables, deals, players, players), np.int64)
    compile_for = tuple(entries)
    for t, row in enumerate(rows.tolist()):
        for r in range(players):
            seating = row[r:] + row[:r]
            m = Matchup(players, tuple(entries[e] for e in seating), rules, deck, game, compile_for=compile_for)
            so, _ = play_chunk(m, seed, t * deals, deals)
            places[t, :, r, :] = so[:, :, place_col]
            if on_games is not None:
                on_games(deals)
    return LadderRound(game, players, tuple(entries), rows, deals, seed, places,
                       rate(entries, rows, places))


def rate(entries: list[str], rows: np.ndarray, places: np.ndarray) -> pl.DataFrame:
    """Each entry's rating and win share above par (see the module's docstring)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    current = [model.rating(name=e) for e in entries]
    tables, deals, players, _ = places.shape
    wins = np.zeros((tables, len(entries)))
    seen = np.zeros((tables, len(entries)))
    for t in range(tables):
        row = rows[t].tolist()
        for d in range(deals):
            for r in range(players):
                seating = row[r:] + row[:r]
                ranks = places[t, d, r].tolist()
                rated = model.rate([[current[e]] for e in seating], ranks=ranks)
                first = sum(1 for p in ranks if p == 1)
                for s, e in enumerate(seating):
                    current[e] = rated[s][0]
                    wins[t, e] += (1.0 / first) if ranks[s] == 1 else 0.0
                    seen[t, e] += 1
    out = []
    par = 1.0 / players
    for e, name in enumerate(entries):
        at = seen[:, e] > 0
        per_table = wins[at, e] / seen[at, e]
        n = int(at.sum())
        share = float(wins[:, e].sum() / max(seen[:, e].sum(), 1))
        half = Z95 * float(per_table.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
        mu, sigma = current[e].mu, current[e].sigma
        out.append({"entry": name, "tables": n, "games": int(seen[:, e].sum()), "rating": mu,
                    "rating_lo": mu - Z95 * sigma, "rating_hi": mu + Z95 * sigma,
                    "win_share": share, "above_par": share - par, "above_par_ci95": half})
    return pl.DataFrame(out).sort("rating", descending=True)
