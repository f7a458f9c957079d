"""Fair tournaments: duplicate deals over a balanced set of seatings.

A game's deal and setup shuffle depend only on (seed, game index), so playing
the same game indices under every seating of the field is a *duplicate deal*:
each strategy meets the same cards from every seat. Deal ``d`` is game ``d``
under every seating (with ``independent=True`` each seating gets its own game
indices instead, for comparison).

Statistics respect that structure: a strategy's value in one deal is the mean
over all its seats in that deal's games; deals are independent, so means and
95% confidence intervals are taken over the per-deal values. Every sum is an
exact integer folded chunk by chunk, so memory stays flat in the number of
deals and results do not depend on threads or chunking.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from zsim.errors import ZsimError
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.deck import Deck, default_deck
from zsim.games.zahltag.rules import Rules
from zsim.runner import MAX_GAME_INDEX, Matchup, check_games_and_seed, play_chunk, rows_frame
from zsim.strategy_registry import parse_one, registry

WIN_UNITS = 12          # a first place shared by n seats is worth 12 // n units to each
CHUNK_DEALS = 8192      # deals played per chunk (memory is flat in the number of deals)
MAX_FULL = 720          # more seatings than this: each subset of the field in its rotations
MAX_FIELD = 12
Z95 = 1.959963984540054
DESIGNS = ("all", "rotations")


# ---------------------------------------------------------------- field and seatings
def parse_field(spec: str | None) -> tuple[str, ...]:
    """``a,b:k=v,...`` -> canonical specs; each entry once, at most MAX_FIELD."""
    parts = [p for p in (spec or "").split(",") if p.strip()]
    if not parts:
        raise ZsimError("--field is empty: name at least one strategy (one fills the table with copies)")
    entries = [parse_one(p) for p in parts]
    for i, e in enumerate(entries):
        if e in entries[:i]:
            raise ZsimError(f"--field lists {e!r} twice (entries {parts[entries.index(e)].strip()!r} "
                            f"and {parts[i].strip()!r}); give each entry once")
    if len(entries) > MAX_FIELD:
        raise ZsimError(f"--field has {len(entries)} entries; at most {MAX_FIELD}")
    return tuple(entries)


def seatings(n_entries: int, players: int, design: str = "all") -> tuple[np.ndarray, str]:
    """The balanced seatings (int [L, players] of entry indices) and the design used.

    ``"all"``: every seating in which each entry holds floor(P/F) or ceil(P/F)
    seats: every permutation when the field fills the table exactly, every
    seating of every P-subset when it is larger, copies when it is smaller.
    The set is closed under relabelling entries and seats, so every entry sits
    at every seat equally often and every pair meets equally often. When it
    would exceed MAX_FULL seatings, or with ``design="rotations"`` and a field
    at least as large as the table: each P-subset in its P cyclic rotations
    (a Latin square per subset: balanced the same way, fewer games per deal)."""
    if n_entries < 1:
        raise ZsimError("the field is empty")
    if design not in DESIGNS:
        raise ZsimError(f"seatings design must be one of {', '.join(DESIGNS)}, got {design!r}")
    lo, hi = players // n_entries, -(-players // n_entries)
    if n_entries < players or (design == "all" and math.perm(n_entries, players) <= MAX_FULL):
        rows = [s for s in itertools.product(range(n_entries), repeat=players)
                if all(lo <= s.count(e) <= hi for e in range(n_entries))]
        return np.array(rows, dtype=np.int64), "all"
    rows = [c[r:] + c[:r] for c in itertools.combinations(range(n_entries), players)
            for r in range(players)]
    return np.array(rows, dtype=np.int64), "rotations"


def is_fair(spec: str) -> bool:
    return registry()[spec.split(":")[0]].fair


# ---------------------------------------------------------------- playing
@dataclass
class Tournament:
    """Exact integer sums of a tournament; the tables come from its methods."""
    entries: tuple[str, ...]
    players: int
    seatings: np.ndarray      # int [L, P]
    design: str
    deals: int
    seed: int
    independent: bool
    ent_sum: np.ndarray       # int [3, F]  sums over deals of the per-deal sums (win units, money, place)
    ent_sq: np.ndarray        # int [3, F]  sums over deals of their squares
    seat_sum: np.ndarray      # int [3, P]
    seat_sq: np.ndarray       # int [3, P]
    above: np.ndarray         # int [F, F]  seat pairs (row, column) in which the row placed better
    tie: np.ndarray           # int [F, F]  ... the same place
    pairs: np.ndarray         # int [F, F]  seat pairs compared
    shared: np.ndarray        # int [F, F]  games in which both sat

    @property
    def games(self) -> int:
        return self.deals * len(self.seatings)

    def per_deal_seats(self) -> np.ndarray:
        """Seats each entry holds in one deal's games."""
        return np.bincount(self.seatings.ravel(), minlength=len(self.entries))

    def strategies(self) -> pl.DataFrame:
        """One row per field entry: win share, mean money and mean place with 95% CIs over deals."""
        occ = self.per_deal_seats()
        cols = _stat_columns(self.ent_sum, self.ent_sq, self.deals, occ)
        present = np.array([[e in row for row in self.seatings.tolist()] for e in range(len(self.entries))])
        return pl.DataFrame({"strategy": list(self.entries),
                             "fair": [is_fair(e) for e in self.entries], **cols,
                             "games": (present.sum(axis=1) * self.deals).astype(np.int64)})

    def seats(self) -> pl.DataFrame:
        """One row per seat, over all entries (the seat advantage: the design
        puts every entry at every seat equally often)."""
        occ = np.full(self.players, len(self.seatings))
        return pl.DataFrame({"seat": list(range(self.players)),
                             **_stat_columns(self.seat_sum, self.seat_sq, self.deals, occ)})

    def head_to_head(self) -> pl.DataFrame:
        """Long form: per ordered pair of entries, the shares of compared seat
        pairs in which the row placed above, level with, below the column."""
        rows = []
        for a, b in itertools.permutations(range(len(self.entries)), 2):
            n = int(self.pairs[a, b])
            rows.append({"row": self.entries[a], "column": self.entries[b],
                         "above": self.above[a, b] / n if n else None,
                         "tie": self.tie[a, b] / n if n else None,
                         "below": self.above[b, a] / n if n else None,
                         "games": int(self.shared[a, b])})
        schema = {"row": pl.String, "column": pl.String, "above": pl.Float64, "tie": pl.Float64,
                  "below": pl.Float64, "games": pl.Int64}
        return pl.DataFrame(rows, schema=schema)

    def head_to_head_matrix(self) -> pl.DataFrame:
        """Wide form: row strategy x column strategy -> share of shared games
        in which the row finished above the column (diagonal null)."""
        f = len(self.entries)
        with np.errstate(invalid="ignore", divide="ignore"):
            h = self.above / self.pairs
        cols = {"strategy": list(self.entries)}
        for b in range(f):
            cols[self.entries[b]] = [None if a == b or not self.pairs[a, b] else float(h[a, b])
                                     for a in range(f)]
        return pl.DataFrame(cols, schema={"strategy": pl.String, **{e: pl.Float64 for e in self.entries}})


def _stat_columns(total: np.ndarray, sq: np.ndarray, deals: int, per_deal: np.ndarray) -> dict:
    """Means and 95% half-widths of per-deal values x_d = X_d / per_deal,
    from the exact sums of X_d and X_d**2 (Python ints: no rounding until the end)."""
    out = {}
    names = (("win_share", "win_ci95"), ("money_mean", "money_ci95"), ("mean_place", "place_ci95"))
    for i, ((label, ci_label), scale) in enumerate(zip(names, (WIN_UNITS, 1, 1))):
        means, cis = [], []
        for j in range(total.shape[1]):
            t, s, k = int(total[i, j]), int(sq[i, j]), int(per_deal[j]) * scale
            means.append(t / (deals * k) if k else math.nan)
            if deals > 1 and k:
                var = (deals * s - t * t) / (deals * (deals - 1)) / (k * k)
                cis.append(Z95 * math.sqrt(max(var, 0.0) / deals))
            else:
                cis.append(math.nan)
        out[label], out[ci_label] = means, cis
    return out


def run_tournament(entries: tuple[str, ...], players: int, deals: int, seed: int,
                   rules: Rules | None = None, deck: Deck | None = None, independent: bool = False,
                   design: str = "all", chunk: int = CHUNK_DEALS,
                   on_rows: Callable[[pl.DataFrame], None] | None = None,
                   on_games: Callable[[int], None] | None = None) -> Tournament:
    """Play ``deals`` deals, each under every seating of :func:`seatings`.

    Duplicate (default): deal ``d`` is game index ``d`` under every seating.
    ``independent=True``: seating ``l`` of deal ``d`` is game ``deals * (1 + l) + d``
    (no deal is shared, nor shared with the duplicate run). ``on_rows`` receives
    the per-game rows (one per seat) of every seating of every chunk;
    ``on_games(n)`` is told the ``n`` games of each one once they are counted
    (a progress report: ``deals * len(seatings)`` games in all)."""
    rules = rules or Rules()
    deck = deck or default_deck()
    if not entries:
        raise ZsimError("the field is empty")
    check_games_and_seed(deals, seed)
    seats_, design = seatings(len(entries), players, design)
    n_seat, f, p = len(seats_), len(entries), players
    if independent and deals * (n_seat + 1) - 1 > MAX_GAME_INDEX:
        raise ZsimError("too many deals for independent game indices (they must stay below 2**62)")
    matchups = [Matchup(p, tuple(entries[e] for e in row), rules, deck) for row in seats_.tolist()]
    ent_sum = np.zeros((3, f), np.int64)
    ent_sq = np.zeros((3, f), np.int64)
    seat_sum = np.zeros((3, p), np.int64)
    seat_sq = np.zeros((3, p), np.int64)
    above, tie, pairs, shared = (np.zeros((f, f), np.int64) for _ in range(4))
    enum = pl.Enum(list(entries))
    size = min(chunk, deals)
    seat_buf = np.zeros((size, p, K.N_SEAT_STATS), np.int64)
    game_buf = np.zeros((size, K.N_GAME_STATS), np.int64)
    for c0 in range(0, deals, size):
        n = min(size, deals - c0)
        ent = np.zeros((3, n, f), np.int64)
        seat = np.zeros((3, n, p), np.int64)
        for l, (row, m) in enumerate(zip(seats_.tolist(), matchups)):
            first = deals * (1 + l) + c0 if independent else c0
            so, go = play_chunk(m, seed, first, n, seat_buf, game_buf)
            place = so[:, :, K.S_PLACE]
            top = place == 1
            win = np.where(top, WIN_UNITS // np.maximum(top.sum(axis=1, keepdims=True), 1), 0)
            vals = (win, so[:, :, K.S_MONEY], place)
            for i, v in enumerate(vals):
                seat[i] += v
                for s, e in enumerate(row):
                    ent[i, :, e] += v[:, s]
            for i, j in itertools.permutations(range(p), 2):
                a, b = row[i], row[j]
                if a != b:
                    above[a, b] += int((place[:, i] < place[:, j]).sum())
                    tie[a, b] += int((place[:, i] == place[:, j]).sum())
                    pairs[a, b] += n
            for a, b in itertools.permutations(set(row), 2):
                shared[a, b] += n
            if on_rows is not None:
                on_rows(_rows(m, so, go, first, c0, l, win, enum))
            if on_games is not None:
                on_games(n)
        ent_sum += ent.sum(axis=1)
        ent_sq += (ent * ent).sum(axis=1)
        seat_sum += seat.sum(axis=1)
        seat_sq += (seat * seat).sum(axis=1)
    return Tournament(tuple(entries), p, seats_, design, deals, seed, independent,
                      ent_sum, ent_sq, seat_sum, seat_sq, above, tie, pairs, shared)


def _rows(m: Matchup, so, go, first: int, deal0: int, seating: int, win, enum) -> pl.DataFrame:
    n, p = so.shape[0], m.players
    frame = rows_frame(m, so, go, first)
    lead = pl.DataFrame({
        "deal": np.repeat(np.arange(deal0, deal0 + n, dtype=np.int64), p),
        "permutation": np.full(n * p, seating, np.int32),
    })
    return pl.concat([lead, frame], how="horizontal").with_columns(
        pl.col("strategy").cast(pl.String).cast(enum),
        win=pl.Series(win.reshape(-1) / WIN_UNITS),
    ).select("deal", "permutation", "game", "seat", "strategy", "place", "money", "win",
             pl.exclude("deal", "permutation", "game", "seat", "strategy", "place", "money", "win"))


# ---------------------------------------------------------------- variance reduction
def variance_reduction(dup: Tournament, ind: Tournament) -> pl.DataFrame:
    """Per entry (and pooled): the 95% half-widths of win share and mean money
    on duplicate and on independent deals, their ratio (independent /
    duplicate) and the variance factor (the ratio squared: how many times
    more games independent deals need for the same precision)."""
    a, b = dup.strategies(), ind.strategies()
    out = {"strategy": list(dup.entries) + ["all (pooled)"]}
    for stat in ("win", "money"):
        d, i = a[f"{stat}_ci95"].to_numpy(), b[f"{stat}_ci95"].to_numpy()
        d = np.append(d, math.sqrt(np.mean(d ** 2)))   # pooled: root mean square half-width
        i = np.append(i, math.sqrt(np.mean(i ** 2)))
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(d > 0, i / d, np.nan)
        out[f"{stat}_ci95_duplicate"] = d
        out[f"{stat}_ci95_independent"] = i
        out[f"{stat}_ci_ratio"] = ratio
        out[f"{stat}_variance_factor"] = ratio ** 2
    return pl.DataFrame(out).fill_nan(None)


def compare_independent(entries: tuple[str, ...], players: int, deals: int, seed: int,
                        rules: Rules | None = None, deck: Deck | None = None, design: str = "all"
                        ) -> tuple[Tournament, Tournament, pl.DataFrame]:
    """Play the tournament on duplicate and on independent deals (the same
    seatings, the same number of games) and return both with :func:`variance_reduction`."""
    dup = run_tournament(entries, players, deals, seed, rules, deck, design=design)
    ind = run_tournament(entries, players, deals, seed, rules, deck, independent=True, design=design)
    return dup, ind, variance_reduction(dup, ind)


# ---------------------------------------------------------------- JSON
def _clean(rows: list[dict]) -> list[dict]:
    return [{k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()}
            for r in rows]


def tournament_json(t: Tournament, comparison: pl.DataFrame | None = None) -> dict:
    out = {"players": t.players, "seed": t.seed, "field": list(t.entries), "deals": t.deals,
           "seatings": len(t.seatings), "design": t.design, "games": t.games,
           "deals_shared": not t.independent,
           "strategies": _clean(t.strategies().to_dicts()), "seats": _clean(t.seats().to_dicts()),
           "head_to_head": _clean(t.head_to_head().to_dicts())}
    if comparison is not None:
        out["independent_games"] = t.games
        out["variance_reduction"] = _clean(comparison.to_dicts())
    return out
