"""Hidden hands drawn exactly from what a seat has seen (numba), for the
forward models' ``determinize_nb``.

The situation every card game of zsim shares: up to three other seats were
dealt hidden cards of ``T`` types from a pool whose counts by type the
deciding seat knows (a shuffled deal: every way of dealing the physical
cards was equally likely), seat ``o`` ``rows[o]`` cards, and their public
moves since have proved lower bounds ``low[o, t]`` on what they were dealt
(a card given up shows the hand held it; a bid shows the hand covered a
job). Given that, a count matrix ``D`` (seat by type) has probability

    prod over t of  n_t! / prod over o of D[o, t]!      (D >= low, row and column sums fixed)

the number of ways to deal the physical cards into it. Rejection (deal
afresh until the bounds hold) is exact but accepted a median 2% of
Zahltag's decision points and some never in hundreds of tries, so the draw
goes type by type instead: ``Z[t, c]``, the total weight of filling types
``t..T-1`` into the capacities ``c`` left in each seat, is summed backwards
once (``prepare``), and each draw picks type ``t``'s column with probability
its weight times ``Z[t + 1, c - column]`` over ``Z[t, c]``: exact, and a few
hundred steps a draw. The sums are kept for the inputs that made them (a
search draws thousands of times from one information set) and made afresh
when the inputs change.

Capacities are packed base ``B = max row + 1`` into one index, three
seats at most (zsim's games seat four).
"""
from __future__ import annotations

import numpy as np

from zsim.jit import hot, hot_flat
from zsim.rng import draw_nb

MAX_SEATS = 3
MAX_TYPES = 8
KEY_WORDS = 2 + MAX_TYPES + MAX_SEATS * (1 + MAX_TYPES)


def workspace(max_row: int, n_types: int) -> tuple:
    """(the sums Z [types + 1, B**3], the inputs they were made for, the
    factorials' inverses 1/k! for k up to the pool's size)."""
    base = max_row + 1
    inv_fact = np.ones(MAX_SEATS * base * MAX_TYPES + 1)
    for k in range(1, inv_fact.shape[0]):
        inv_fact[k] = inv_fact[k - 1] / k
    return np.zeros((n_types + 1, base ** MAX_SEATS)), np.full(KEY_WORDS, -1, np.int64), inv_fact


@hot_flat
def _same_inputs(key, k, n_types, pool, rows, low):
    """Whether ``key`` holds these inputs; writes them into it if not."""
    same = key[0] == k and key[1] == n_types
    key[0] = k
    key[1] = n_types
    for t in range(n_types):
        same = same and key[2 + t] == pool[t]
        key[2 + t] = pool[t]
    for o in range(k):
        base = 2 + MAX_TYPES + o * (1 + MAX_TYPES)
        same = same and key[base] == rows[o]
        key[base] = rows[o]
        for t in range(n_types):
            same = same and key[base + 1 + t] == low[o, t]
            key[base + 1 + t] = low[o, t]
    return same


@hot_flat
def _column_weight(t, k, c0, c1, c2, x0, x1, pool, low, inv_fact):
    """The weight of column (x0, x1, pool[t] - x0 - x1) into capacities
    (c0, c1, c2), or -1 where it breaks a bound; returns (weight, x2)."""
    x2 = pool[t] - x0 - x1
    if k < 3:
        if x2 != 0:
            return -1.0, 0
    elif x2 < low[2, t] or x2 > c2:
        return -1.0, 0
    w = inv_fact[x0] * inv_fact[x1] * inv_fact[x2]
    return w, x2


@hot
def prepare(k, n_types, pool, rows, low, ws):
    """Make the sums ``Z`` for ``k`` seats (1..3) dealt ``rows[o]`` cards each
    from ``pool`` (counts by type) with bounds ``low[o, t]``, unless they are
    made for these inputs already; returns ``Z[0, rows]``, the total weight
    (0 when no deal meets the bounds)."""
    z, key, inv_fact = ws
    b = z.shape[1]
    base = 1
    while base * base * base < b:
        base += 1
    full = rows[0] + (base * rows[1] if k > 1 else 0) + (base * base * rows[2] if k > 2 else 0)
    if _same_inputs(key, k, n_types, pool, rows, low):
        return z[0, full]
    z[n_types, 0] = 1.0
    left = 0
    for t in range(n_types - 1, -1, -1):
        left += pool[t]
        for i in range(b):
            z[t, i] = 0.0
        top0 = min(rows[0], left)
        for c0 in range(top0 + 1):
            top1 = min(rows[1], left - c0) if k > 1 else 0
            for c1 in range(top1 + 1):
                c2 = left - c0 - c1 if k > 2 else 0
                if (k == 1 and c0 != left) or (k == 2 and c1 != left - c0) or (k > 2 and c2 > rows[2]):
                    continue
                total = 0.0
                for x0 in range(low[0, t], min(c0, pool[t]) + 1):
                    hi1 = min(c1, pool[t] - x0) if k > 1 else 0
                    lo1 = low[1, t] if k > 1 else 0
                    for x1 in range(lo1, hi1 + 1):
                        w, x2 = _column_weight(t, k, c0, c1, c2, x0, x1, pool, low, inv_fact)
                        if w >= 0.0:
                            total += w * z[t + 1, (c0 - x0) + base * (c1 - x1) + base * base * (c2 - x2)]
                z[t, c0 + base * c1 + base * base * c2] = total
    return z[0, full]


@hot
def draw(k, n_types, pool, rows, low, ws, rng, out):
    """One deal ``out[o, t]`` drawn with the probability above (``prepare``
    must have returned a positive total for the same inputs)."""
    z, _, inv_fact = ws
    b = z.shape[1]
    base = 1
    while base * base * base < b:
        base += 1
    c0 = rows[0]
    c1 = rows[1] if k > 1 else 0
    c2 = rows[2] if k > 2 else 0
    for t in range(n_types):
        here = z[t, c0 + base * c1 + base * base * c2]
        u = (draw_nb(rng, 0) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * here
        acc = 0.0
        pick0, pick1, pick2 = -1, 0, 0
        for x0 in range(low[0, t], min(c0, pool[t]) + 1):
            hi1 = min(c1, pool[t] - x0) if k > 1 else 0
            lo1 = low[1, t] if k > 1 else 0
            for x1 in range(lo1, hi1 + 1):
                w, x2 = _column_weight(t, k, c0, c1, c2, x0, x1, pool, low, inv_fact)
                if w < 0.0:
                    continue
                part = w * z[t + 1, (c0 - x0) + base * (c1 - x1) + base * base * (c2 - x2)]
                if part <= 0.0:
                    continue
                acc += part
                pick0, pick1, pick2 = x0, x1, x2     # the last column with weight: rounding's fallback
                if acc > u:
                    break
            if acc > u:
                break
        out[0, t] = pick0
        c0 -= pick0
        if k > 1:
            out[1, t] = pick1
            c1 -= pick1
        if k > 2:
            out[2, t] = pick2
            c2 -= pick2
