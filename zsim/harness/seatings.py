"""Who sits where in a tournament: the field a tournament is given, and the designs of
seatings its duplicate deals are played under (:mod:`zsim.harness.tournament` says why a
deal is played under a cyclic order of seatings, and how the orders share the deals).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from zsim.errors import ZsimError
from zsim.game_registry import DEFAULT_GAME
from zsim.harness.chunks import MAX_GAME_INDEX
from zsim.strategy_registry import parse_one

MAX_FULL = 720          # more seatings than this: each subset of the field in its rotations
MAX_FIELD = 12
DESIGNS = ("all", "rotations")


# ---------------------------------------------------------------- field and seatings
def parse_field(spec: str | None, game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """``a,b:k=v,...`` -> canonical specs; each entry once, at most MAX_FIELD
    (an empty entry, from a doubled, leading or trailing comma, is refused)."""
    from zsim.errors import entries as comma_entries

    if spec is None or not spec.strip():
        raise ZsimError("--field is empty: name at least one strategy (one fills the table with copies)")
    parts = comma_entries(spec, "--field", "strategy")
    entries = [parse_one(p, game) for p in parts]
    for i, e in enumerate(entries):
        if e in entries[:i]:
            raise ZsimError(f"--field lists {e!r} twice (entries {parts[entries.index(e)].strip()!r} "
                            f"and {parts[i].strip()!r}); give each entry once")
    if len(entries) > MAX_FIELD:
        raise ZsimError(f"--field has {len(entries)} entries; at most {MAX_FIELD}")
    return tuple(entries)


def seating_orders(n_entries: int, players: int, design: str = "all") -> tuple[np.ndarray, str]:
    """The design's cyclic orders (int [Q, L, P] of entry indices: order ``o``
    is the ``L`` seatings a deal of that order is played under) and the design used.

    ``"all"`` (Q = 1): every seating in which each entry holds floor(P/F) or
    ceil(P/F) seats: every permutation when the field fills the table exactly,
    every seating of every P-subset when it is larger, copies when it is
    smaller. The set is closed under relabelling entries and seats, so every
    entry sits at every seat equally often, every pair meets equally often and
    every entry follows every other equally often.

    ``"rotations"`` (used as well when ``"all"`` would exceed MAX_FULL
    seatings; a field smaller than the table always gets ``"all"``): order
    ``o`` seats each P-subset ``c`` (sorted) round the table as ``c[0]``
    followed by ``c[1:]`` permuted by the o-th permutation of
    ``itertools.permutations`` and plays it in its P rotations (a Latin square
    per subset: every entry at every seat equally often, C(F, P) * P seatings
    a deal). The Q = (P-1)! orders together hold every seating of every
    subset once, so over the orders the design is balanced like ``"all"``,
    down to who sits after whom; order 0 is the subset as sorted."""
    if n_entries < 1:
        raise ZsimError("the field is empty")
    if design not in DESIGNS:
        raise ZsimError(f"seatings design must be one of {', '.join(DESIGNS)}, got {design!r}")
    lo, hi = players // n_entries, -(-players // n_entries)
    if n_entries < players or (design == "all" and math.perm(n_entries, players) <= MAX_FULL):
        rows = [s for s in itertools.product(range(n_entries), repeat=players)
                if all(lo <= s.count(e) <= hi for e in range(n_entries))]
        return np.array([rows], dtype=np.int64), "all"
    orders = []
    for perm in itertools.permutations(range(1, players)):
        rows = []
        for c in itertools.combinations(range(n_entries), players):
            cycle = (c[0],) + tuple(c[k] for k in perm)
            rows += [cycle[r:] + cycle[:r] for r in range(players)]
        orders.append(rows)
    return np.array(orders, dtype=np.int64), "rotations"


def seatings(n_entries: int, players: int, design: str = "all") -> tuple[np.ndarray, str]:
    """The seatings one deal is played under (int [L, players]) and the design
    used: for ``"all"`` every seating of :func:`seating_orders`, for
    ``"rotations"`` those of its order 0 (every order has as many, so
    ``len`` of it is the games per deal in either design)."""
    orders, used = seating_orders(n_entries, players, design)
    return orders[0], used


def check_independent(n_entries: int, players: int, deals: int, design: str = "all") -> None:
    """Refuse ``--compare-independent`` where its games would need indices
    past 2**62 (seating ``l`` of deal ``d`` is game ``deals * (1 + l) + d``)."""
    per_deal = len(seatings(n_entries, players, design)[0])
    if deals * (per_deal + 1) - 1 > MAX_GAME_INDEX:
        raise ZsimError(f"--games {deals} with --compare-independent needs game indices past 2**62 "
                        f"({per_deal} seating{'s' if per_deal != 1 else ''} a deal); give fewer deals")


def order_bounds(deals: int, n_orders: int) -> np.ndarray:
    """Deals ``bounds[o] .. bounds[o + 1] - 1`` are played under order ``o``:
    contiguous blocks of floor or ceil(deals / n_orders) deals, equal when
    ``deals`` is a multiple of ``n_orders`` (with fewer deals than orders,
    some orders get none)."""
    return np.array([o * deals // n_orders for o in range(n_orders + 1)], dtype=np.int64)


