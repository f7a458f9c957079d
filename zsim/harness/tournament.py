"""Fair tournaments: duplicate deals over a balanced set of seatings.

A game's deal and setup shuffle depend only on (seed, game index), so playing
the same game indices under every seating of the field is a *duplicate deal*:
each strategy meets the same cards from every seat. Deal ``d`` is game ``d``
under every seating it is played under (with ``independent=True`` each
seating gets its own game indices instead, for comparison).

The seatings of a deal come from one *cyclic order* of the design. The
``"all"`` design has a single order holding every seating. The
``"rotations"`` design plays each table-sized subset of the field in its P
rotations, and a subset can be seated round the table in (P-1)! cyclic orders
(who sits after whom); the deals are cut into (P-1)! contiguous blocks, one
per order, so that over the tournament every entry follows every other
equally often, as it does in ``"all"``. One fixed order would seat, say, the
third entry after the second in every game and estimate a tournament of its
own.

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
from zsim.game_registry import DEFAULT_GAME, get_game
from zsim.harness.chunks import MAX_GAME_INDEX, Matchup, check_games_and_seed, chunk_outputs, play_chunk, rows_frame
from zsim.harness.seatings import order_bounds, seating_orders
from zsim.strategy_registry import registry

WIN_UNITS = 12          # a first place shared by n seats is worth 12 // n units to each
CHUNK_DEALS = 8192      # deals played per chunk (memory is flat in the number of deals)
Z95 = 1.959963984540054
SCREEN_DEALS = 16       # identical-play check: deals every pair is first compared on
CHECK_DEALS = 256       # ... and the deals a pair that matched on those is compared on in all


def is_fair(spec: str, game: str = DEFAULT_GAME) -> bool:
    return registry(game)[spec.split(":")[0]].fair


# ---------------------------------------------------------------- playing
@dataclass
class Tournament:
    """Exact integer sums of a tournament; the tables come from its methods."""
    entries: tuple[str, ...]
    players: int
    orders: np.ndarray        # int [Q, L, P]: a deal of order o is played under orders[o]
    design: str
    deals: int
    seed: int
    independent: bool
    ent_sum: np.ndarray       # int [3, F]  sums over deals of the per-deal sums (win units, money, place)
    ent_sq: np.ndarray        # int [3, F]  sums over deals of their squares
    seat_sum: np.ndarray      # int [3, P]
    seat_sq: np.ndarray       # int [3, P]
    above: np.ndarray         # int [F, F]  seat pairs (row, column) in which the row placed better
    above_sq: np.ndarray      # int [F, F]  sums over deals of the squared per-deal counts of above
    tie: np.ndarray           # int [F, F]  ... the same place
    pairs: np.ndarray         # int [F, F]  seat pairs compared
    shared: np.ndarray        # int [F, F]  games in which both sat
    identical: tuple[tuple[str, str], ...] = ()   # entry pairs that played identical games
    identical_deals: int = 0  # deals the identical-play check compared them on (0: not checked)
    game: str = DEFAULT_GAME

    @property
    def seatings(self) -> np.ndarray:
        """The L seatings of a deal (int [L, P]; with several orders, those of
        order 0, the first L of :attr:`all_seatings`): ``len`` of it is the
        games per deal, as :func:`seatings` gives."""
        return self.orders[0]

    @property
    def all_seatings(self) -> np.ndarray:
        """Every seating played (int [Q * L, P]), order by order: row ``o * L + l``
        is seating ``l`` of order ``o``, the ``permutation`` column of the rows."""
        return self.orders.reshape(-1, self.players)

    @property
    def per_deal(self) -> int:
        """Seatings (games) each deal is played under: ``len(self.seatings)``."""
        return self.orders.shape[1]

    @property
    def games(self) -> int:
        return self.deals * self.per_deal

    def order_deals(self) -> np.ndarray:
        """Deals played under each order (int [Q])."""
        return np.diff(order_bounds(self.deals, len(self.orders)))

    def per_deal_seats(self) -> np.ndarray:
        """Seats each entry holds in one deal's games (the same in every order)."""
        return np.bincount(self.orders[0].ravel(), minlength=len(self.entries))

    def per_deal_pairs(self) -> np.ndarray:
        """Seat pairs (row entry, column entry) compared in one deal's games (int [F, F])."""
        return _seat_pairs(self.orders[0], len(self.entries))

    @property
    def score_label(self) -> str:
        """The name of the game's score in the tables: ``money`` (Zahltag, Zahlemann), ``score``..."""
        return get_game(self.game).score_label

    def strategies(self) -> pl.DataFrame:
        """One row per field entry: win share, the mean score (``<score_label>_mean``: money for
        Zahltag and Zahlemann) and mean place with 95% CIs over deals."""
        occ = self.per_deal_seats()
        cols = _stat_columns(self.ent_sum, self.ent_sq, self.deals, occ, self.score_label)
        present = np.array([[e in row for row in self.orders[0].tolist()] for e in range(len(self.entries))])
        return pl.DataFrame({"strategy": list(self.entries),
                             "fair": [is_fair(e, self.game) for e in self.entries], **cols,
                             "games": (present.sum(axis=1) * self.deals).astype(np.int64)})

    def seats(self) -> pl.DataFrame:
        """One row per seat, over all entries (the seat advantage: the design
        puts every entry at every seat equally often)."""
        occ = np.full(self.players, self.per_deal)
        return pl.DataFrame({"seat": list(range(self.players)),
                             **_stat_columns(self.seat_sum, self.seat_sq, self.deals, occ, self.score_label)})

    def above_ci95(self) -> np.ndarray:
        """95% half-widths (float [F, F], NaN where the pair never met) of the
        share of compared seat pairs in which the row placed above the column:
        over deals of the per-deal shares (each deal compares the same number
        of seat pairs, so their mean is the pooled share above / pairs)."""
        f = len(self.entries)
        k = self.per_deal_pairs()
        out = np.full((f, f), math.nan)
        for a, b in itertools.permutations(range(f), 2):
            out[a, b] = _half_width(int(self.above[a, b]), int(self.above_sq[a, b]), self.deals,
                                    int(k[a, b]))
        return out

    def head_to_head(self) -> pl.DataFrame:
        """Long form: per ordered pair of entries, the shares of compared seat
        pairs in which the row placed above, level with, below the column, and
        the 95% half-width of the first over deals."""
        ci = self.above_ci95()
        rows = []
        for a, b in itertools.permutations(range(len(self.entries)), 2):
            n = int(self.pairs[a, b])
            rows.append({"row": self.entries[a], "column": self.entries[b],
                         "above": self.above[a, b] / n if n else None,
                         "above_ci95": None if math.isnan(ci[a, b]) else float(ci[a, b]),
                         "tie": self.tie[a, b] / n if n else None,
                         "below": self.above[b, a] / n if n else None,
                         "games": int(self.shared[a, b])})
        schema = {"row": pl.String, "column": pl.String, "above": pl.Float64, "above_ci95": pl.Float64,
                  "tie": pl.Float64, "below": pl.Float64, "games": pl.Int64}
        return pl.DataFrame(rows, schema=schema)

    def head_to_head_matrix(self, ci: bool = False) -> pl.DataFrame:
        """Wide form: row strategy x column strategy -> share of shared games
        in which the row finished above the column (diagonal null); with
        ``ci=True`` the 95% half-widths of those shares, in the same shape."""
        f = len(self.entries)
        if ci:
            h = self.above_ci95()
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                h = self.above / self.pairs
        cols = {"strategy": list(self.entries)}
        for b in range(f):
            cols[self.entries[b]] = [None if a == b or not self.pairs[a, b] or math.isnan(h[a, b])
                                     else float(h[a, b]) for a in range(f)]
        return pl.DataFrame(cols, schema={"strategy": pl.String, **{e: pl.Float64 for e in self.entries}})


def _seat_pairs(rows: np.ndarray, n_entries: int) -> np.ndarray:
    """Seat pairs (a, b) with a != b over the seatings ``rows``."""
    k = np.zeros((n_entries, n_entries), np.int64)
    for row in rows.tolist():
        for i, j in itertools.permutations(range(len(row)), 2):
            if row[i] != row[j]:
                k[row[i], row[j]] += 1
    return k


def _half_width(t: int, s: int, deals: int, k: int) -> float:
    """95% half-width of the mean of x_d = X_d / k over ``deals`` deals, from
    the exact sums t = sum X_d and s = sum X_d**2 (Python ints: no rounding
    until the end)."""
    if deals < 2 or not k:
        return math.nan
    var = (deals * s - t * t) / (deals * (deals - 1)) / (k * k)
    return Z95 * math.sqrt(max(var, 0.0) / deals)


def _stat_columns(total: np.ndarray, sq: np.ndarray, deals: int, per_deal: np.ndarray,
                  score: str = "money") -> dict:
    """Means and 95% half-widths of per-deal values x_d = X_d / per_deal,
    from the exact sums of X_d and X_d**2; the score's columns are named
    ``<score>_mean`` and ``<score>_ci95`` (the game's ``score_label``)."""
    out = {}
    names = (("win_share", "win_ci95"), (f"{score}_mean", f"{score}_ci95"), ("mean_place", "place_ci95"))
    for i, ((label, ci_label), scale) in enumerate(zip(names, (WIN_UNITS, 1, 1))):
        means, cis = [], []
        for j in range(total.shape[1]):
            t, s, k = int(total[i, j]), int(sq[i, j]), int(per_deal[j]) * scale
            means.append(t / (deals * k) if k else math.nan)
            cis.append(_half_width(t, s, deals, k))
        out[label], out[ci_label] = means, cis
    return out


def run_tournament(entries: tuple[str, ...], players: int, deals: int, seed: int,
                   rules=None, deck=None, independent: bool = False,
                   design: str = "all", chunk: int = CHUNK_DEALS,
                   on_rows: Callable[[pl.DataFrame], None] | None = None,
                   on_games: Callable[[int], None] | None = None,
                   check_identical: bool = True, game: str = DEFAULT_GAME) -> Tournament:
    """Play ``deals`` deals, each under the seatings of its order (:func:`seating_orders`,
    :func:`order_bounds`).

    Duplicate (default): deal ``d`` is game index ``d`` under every seating of its
    order. ``independent=True``: seating ``l`` of deal ``d`` is game ``deals * (1 + l) + d``
    (no deal is shared, nor shared with the duplicate run). ``on_rows`` receives
    the per-game rows (one per seat) of every seating of every chunk;
    ``on_games(n)`` is told the ``n`` games of each one once they are counted
    (a progress report: ``deals * len(seatings)`` games in all).
    ``check_identical``: afterwards, compare every pair of entries with
    :func:`identical_pairs` and keep the pairs that played identical games
    (under 1,000 games for a field of 8 different strategies, 0.2% of a
    4-player tournament of 2,000 deals; 2P x 240 more for a pair that matches
    on the first deals)."""
    g = get_game(game)
    rules = rules or g.default_rules()
    deck = deck or g.default_deck()
    if not entries:
        raise ZsimError("the field is empty")
    check_games_and_seed(deals, seed)
    orders, design = seating_orders(len(entries), players, design)
    n_order, n_seat = orders.shape[:2]
    f, p = len(entries), players
    if independent and deals * (n_seat + 1) - 1 > MAX_GAME_INDEX:
        raise ZsimError(f"--games {deals} with --compare-independent needs game indices past 2**62 "
                        f"({n_seat} seating{'s' if n_seat != 1 else ''} a deal); give fewer deals")
    # one kernel for every pairing: compiled for all the entries
    matchups = [[Matchup(p, tuple(entries[e] for e in row), rules, deck, game, compile_for=tuple(entries))
                 for row in order.tolist()] for order in orders]
    bounds = order_bounds(deals, n_order).tolist()
    ent_sum = np.zeros((3, f), np.int64)
    ent_sq = np.zeros((3, f), np.int64)
    seat_sum = np.zeros((3, p), np.int64)
    seat_sq = np.zeros((3, p), np.int64)
    above, above_sq, tie, pairs, shared = (np.zeros((f, f), np.int64) for _ in range(5))
    enum = pl.Enum(list(entries))
    size = min(chunk, deals)
    seat_buf, game_buf = chunk_outputs(matchups[0][0], size)
    place_col, score_col = g.seat_index("place"), g.seat_index(g.score)
    for c0 in range(0, deals, size):
        n = min(size, deals - c0)
        ent = np.zeros((3, n, f), np.int64)
        seat = np.zeros((3, n, p), np.int64)
        won = np.zeros((n, f, f), np.int64)        # per deal: seat pairs the row won
        for o in range(n_order):
            lo, hi = max(c0, bounds[o]), min(c0 + n, bounds[o + 1])
            if lo >= hi:
                continue
            part = slice(lo - c0, hi - c0)
            for l, (row, m) in enumerate(zip(orders[o].tolist(), matchups[o])):
                first = deals * (1 + l) + lo if independent else lo
                so, go = play_chunk(m, seed, first, hi - lo, seat_buf, game_buf)
                win = _fold_seating(so[:, :, place_col], so[:, :, score_col], row, part, ent, seat, won,
                                    (tie, pairs, shared))
                if on_rows is not None:
                    on_rows(_rows(m, so, go, first, lo, o * n_seat + l, win, enum))
                if on_games is not None:
                    on_games(hi - lo)
        ent_sum += ent.sum(axis=1)
        ent_sq += (ent * ent).sum(axis=1)
        seat_sum += seat.sum(axis=1)
        seat_sq += (seat * seat).sum(axis=1)
        above += won.sum(axis=0)
        above_sq += (won * won).sum(axis=0)
    same, checked = (), 0
    if check_identical and f > 1:
        same, checked = identical_pairs(entries, orders, seed, rules, deck, game=game), CHECK_DEALS
    return Tournament(tuple(entries), p, orders, design, deals, seed, independent,
                      ent_sum, ent_sq, seat_sum, seat_sq, above, above_sq, tie, pairs, shared,
                      same, checked, game)


def _fold_seating(place, score, row: list[int], part: slice, ent, seat, won, counts) -> np.ndarray:
    """Fold one seating's games (``place`` and ``score`` [n, P] of deals ``part`` of the
    chunk, seat ``s`` held by entry ``row[s]``) into the chunk's per-deal sums (``ent``,
    ``seat``: wins, score and place; ``won``: seat pairs the row won) and the
    tournament's ``counts`` (ties, pairs and games shared, per pair of entries).
    Returns the seats' win units."""
    tie, pairs, shared = counts
    n = place.shape[0]
    top = place == 1
    win = np.where(top, WIN_UNITS // np.maximum(top.sum(axis=1, keepdims=True), 1), 0)
    for i, v in enumerate((win, score, place)):
        seat[i, part] += v
        for s, e in enumerate(row):
            ent[i, part, e] += v[:, s]
    for i, j in itertools.permutations(range(len(row)), 2):
        a, b = row[i], row[j]
        if a != b:
            won[part, a, b] += place[:, i] < place[:, j]
            tie[a, b] += int((place[:, i] == place[:, j]).sum())
            pairs[a, b] += n
    for a, b in itertools.permutations(set(row), 2):
        shared[a, b] += n
    return win


def _rows(m: Matchup, so, go, first: int, deal0: int, seating: int, win, enum) -> pl.DataFrame:
    n, p = so.shape[0], m.players
    score = m.spec.score
    frame = rows_frame(m, so, go, first)
    lead = pl.DataFrame({
        "deal": np.repeat(np.arange(deal0, deal0 + n, dtype=np.int64), p),
        "permutation": np.full(n * p, seating, np.int32),
    })
    return pl.concat([lead, frame], how="horizontal").with_columns(
        pl.col("strategy").cast(pl.String).cast(enum),
        win=pl.Series(win.reshape(-1) / WIN_UNITS),
    ).select("deal", "permutation", "game", "seat", "strategy", "place", score, "win",
             pl.exclude("deal", "permutation", "game", "seat", "strategy", "place", score, "win"))


# ---------------------------------------------------------------- identical play
def identical_pairs(entries: tuple[str, ...], orders: np.ndarray, seed: int, rules=None,
                    deck=None, deals: int = CHECK_DEALS,
                    screen: int = SCREEN_DEALS, game: str = DEFAULT_GAME) -> tuple[tuple[str, str], ...]:
    """The pairs of entries (in field order) that play identical games in this
    setting: for each seat ``i``, the first seating of ``orders`` with entry
    ``a`` at seat ``i`` and ``b`` at the table is played, and so is the same
    seating with ``a`` and ``b`` swapped, on games ``0 .. deals - 1`` of
    ``seed`` (``b`` then holds every seat too). Every seat and game statistic
    of every such game must match for the pair to count; two strategies
    are never reported when a single checked game tells them apart. A pair
    is first compared on ``screen`` deals and only if those match on the
    rest, so a field of different strategies costs a few hundred games."""
    g = get_game(game)
    rules = rules or g.default_rules()
    deck = deck or g.default_deck()
    flat = [tuple(r) for r in orders.reshape(-1, orders.shape[-1]).tolist()]
    p = len(flat[0])
    screen = min(screen, deals)
    cache: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}

    def play(row: tuple[int, ...], first: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        so, go = play_chunk(Matchup(p, tuple(entries[e] for e in row), rules, deck, game,
                                    compile_for=tuple(entries)), seed, first, n)
        return so.copy(), go.copy()

    def screened(row):
        if row not in cache:
            cache[row] = play(row, 0, screen)
        return cache[row]

    def same(x, y) -> bool:
        return bool(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]))

    found = []
    for a, b in itertools.combinations(range(len(entries)), 2):
        checks = []
        for i in range(p):
            row = next((r for r in flat if r[i] == a and b in r), None)
            if row is not None:
                swapped = tuple(b if e == a else a if e == b else e for e in row)
                checks.append((row, swapped))
        if not checks or not all(same(screened(r), screened(s)) for r, s in checks):
            continue
        if deals > screen and not all(same(play(r, screen, deals - screen), play(s, screen, deals - screen))
                                      for r, s in checks):
            continue
        found.append((entries[a], entries[b]))
    return tuple(found)


# ---------------------------------------------------------------- variance reduction
def variance_reduction(dup: Tournament, ind: Tournament) -> pl.DataFrame:
    """Per entry (and pooled): the 95% half-widths of win share and mean money
    on duplicate and on independent deals, their ratio (independent /
    duplicate) and the variance factor (the ratio squared: how many times
    more games independent deals need for the same precision)."""
    a, b = dup.strategies(), ind.strategies()
    out = {"strategy": list(dup.entries) + ["all (pooled)"]}
    for stat in ("win", dup.score_label):
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
                        rules=None, deck=None, design: str = "all"
                        ) -> tuple[Tournament, Tournament, pl.DataFrame]:
    """Play the tournament on duplicate and on independent deals (the same
    seatings, the same number of games) and return both with :func:`variance_reduction`."""
    dup = run_tournament(entries, players, deals, seed, rules, deck, design=design)
    ind = run_tournament(entries, players, deals, seed, rules, deck, independent=True, design=design,
                         check_identical=False)
    return dup, ind, variance_reduction(dup, ind)


# ---------------------------------------------------------------- JSON
def _clean(rows: list[dict]) -> list[dict]:
    return [{k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()}
            for r in rows]


def tournament_json(t: Tournament, comparison: pl.DataFrame | None = None) -> dict:
    out = {"players": t.players, "seed": t.seed, "field": list(t.entries), "deals": t.deals,
           "seatings": t.per_deal, "design": t.design, "orders": len(t.orders),
           "order_deals": t.order_deals().tolist(), "games": t.games,
           "deals_shared": not t.independent,
           "identical": [list(pair) for pair in t.identical], "identical_deals_checked": t.identical_deals,
           "strategies": _clean(t.strategies().to_dicts()), "seats": _clean(t.seats().to_dicts()),
           "head_to_head": _clean(t.head_to_head().to_dicts())}
    if comparison is not None:
        out["independent_games"] = t.games
        out["variance_reduction"] = _clean(comparison.to_dicts())
    return out
