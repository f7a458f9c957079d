"""Several masked hands of one batch drawn together, exactly (Zahlemann's
``determinize_nb``; ``forward_dp_nb`` counts each hand's ways alone).

When two or more hands' masks touch the unseen cards of a batch, drawing
each alone and throwing away draws in which they share a card is exact but
can take thousands of tries late in a round, when the draw pile is nearly
empty and the unseen cards must split among the hands. Instead the unseen
cards are walked in card order, each going to the rest (the unmasked hands
and the draw pile) or to a class of a masked hand whose mask misses it; a
state is the vector of cards each class has got so far, one mixed-radix
number. Every way to the end whose vectors are states of the hands'
programmes weighs the product of their ways (``forward_dp_nb``) times the
orders of each class's cards in its slots; the sums of those weights are
made backwards once per view, and each draw walks forward choosing in
proportion to them. The states are kept in one hash over (batch, card
index, state); a batch whose walk would not fit is drawn by rejection.
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann.forward_dp_nb import F_FILL, F_MASK, field_nb
from zsim.jit import bit_count_nb, hot, hot_flat, lowest_bit_nb
from zsim.rng import draw_nb

JCAP = 1 << 17         # states of every batch's walk
JHASH = 1 << 18
MAXJC = 32             # classes of the masked hands of one batch
MAXB = 64
TWO_53 = 2.0 ** -53
# per batch: whether it has a walk, its classes, where each card's states start
J_USED, J_N_CLS, J_N_CARDS = range(3)
N_META = 3


def new_joint_scratch() -> tuple:
    """(keys [JCAP, 2], weights, hash stamps and slots, [generation, states used],
    per batch: meta, classes (pair, class, stride, radix), layers (offset, count))."""
    return (np.zeros((JCAP, 2), np.int64), np.zeros(JCAP), np.zeros(JHASH, np.int64), np.zeros(JHASH, np.int64),
            np.zeros(2, np.int64), np.zeros((MAXB, N_META), np.int64), np.zeros((MAXB, MAXJC, 4), np.int64),
            np.zeros((MAXB, 38, 2), np.int64))


@hot_flat
def joint_reset_nb(jt):
    """Forget every batch's walk (a new view)."""
    gen = jt[4]
    gen[0] += 1
    gen[1] = 0
    meta = jt[5]
    for b in range(MAXB):
        meta[b, J_USED] = 0


@hot_flat
def _slot(keys, hgen, hidx, gen, k0, k1):
    x = np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(k1) * np.uint64(0xC2B2AE3D27D4EB4F)
    i = np.int64((x ^ (x >> np.uint64(31))) & np.uint64(JHASH - 1))
    while hgen[i] == gen and not (keys[hidx[i], 0] == k0 and keys[hidx[i], 1] == k1):
        i = (i + 1) & (JHASH - 1)
    return i


@hot_flat
def _digit(s, jc, k):
    return (s // jc[k, 2]) % jc[k, 3]


@hot_flat
def _need(s, jc, n_jc, pairs, hidden_field, q):
    """The cards pair ``q`` still needs in state ``s``."""
    got = 0
    for k in range(n_jc):
        if jc[k, 0] == q:
            got += _digit(s, jc, k)
    return pairs[q, hidden_field] - got


@hot
def joint_prepare_nb(b, pool, masked, n_masked, pairs, cls, kept, raw, p_off, p_len, p_ncls, p_hidden, jt):
    """The walk of batch ``b`` over the masked pairs ``masked[:n_masked]``
    (``kept``/``raw``: their final states and ways); whether it fits."""
    keys, g, hgen, hidx, gen, meta, jcls, layers = jt
    meta[b, J_USED] = 0
    jc = jcls[b]
    n_jc = _walk_classes(jc, masked, n_masked, pairs, kept, p_off, p_len, p_ncls)
    if n_jc < 0:
        return False
    u = bit_count_nb(pool)
    meta[b, J_N_CLS] = n_jc
    meta[b, J_N_CARDS] = u
    start = gen[1]
    if start >= JCAP:
        return False
    n = start
    keys[n, 0] = b * 64
    keys[n, 1] = 0
    g[n] = 0.0
    i = _slot(keys, hgen, hidx, gen[0], b * 64, 0)
    hgen[i] = gen[0]
    hidx[i] = n
    n += 1
    layers[b, 0, 0] = start
    layers[b, 0, 1] = 1
    x = pool
    for k in range(u):                   # forward: the states each card can leave
        card = lowest_bit_nb(x)
        x &= x - 1
        lo = layers[b, k, 0]
        hi = lo + layers[b, k, 1]
        layers[b, k + 1, 0] = n
        for e in range(lo, hi):
            s = keys[e, 1]
            for opt in range(-1, n_jc):
                s2 = _next(s, opt, card, jc, cls, pool)
                if s2 < 0 or not _can_finish(s2, jc, n_jc, pairs, p_hidden, masked, n_masked, u - k - 1):
                    continue
                i = _slot(keys, hgen, hidx, gen[0], b * 64 + k + 1, s2)
                if hgen[i] != gen[0]:
                    if n >= JCAP or n >= JHASH // 2:
                        return False
                    hgen[i] = gen[0]
                    hidx[i] = n
                    keys[n, 0] = b * 64 + k + 1
                    keys[n, 1] = s2
                    g[n] = 0.0
                    n += 1
        layers[b, k + 1, 1] = n - layers[b, k + 1, 0]
    gen[1] = n
    lo = layers[b, u, 0]
    for e in range(lo, lo + layers[b, u, 1]):   # the ends: states of every pair's programme
        g[e] = _end_weight(keys[e, 1], jc, n_jc, masked, n_masked, pairs, kept, raw, p_off, p_len)
    for k in range(u - 1, -1, -1):              # backward: the sums of the ways onward
        card = _nth_card(pool, k)
        lo = layers[b, k, 0]
        for e in range(lo, lo + layers[b, k, 1]):
            total = 0.0
            for opt in range(-1, n_jc):
                s2 = _next(keys[e, 1], opt, card, jc, cls, pool)
                if s2 < 0:
                    continue
                i = _slot(keys, hgen, hidx, gen[0], b * 64 + k + 1, s2)
                if hgen[i] == gen[0]:
                    total += g[hidx[i]]
            g[e] = total
    meta[b, J_USED] = 1 if g[start] > 0.0 else 0
    return g[start] > 0.0


@hot_flat
def _walk_classes(jc, masked, n_masked, pairs, kept, p_off, p_len, p_ncls):
    """The walk's digits: each class that some state of its pair fills, with
    its stride and radix (the most cards it holds, plus one); their number,
    or -1 if they do not fit."""
    n_jc = 0
    radix_all = np.int64(1)
    for i in range(n_masked):
        q = masked[i]
        for c in range(pairs[q, p_ncls]):
            most = 0
            for j in range(pairs[q, p_off], pairs[q, p_off] + pairs[q, p_len]):
                most = max(most, field_nb(kept[j, 0], kept[j, 1], c))
            if most == 0:
                continue
            if n_jc >= MAXJC or radix_all > (np.int64(1) << 55) // (most + 1):
                return -1
            jc[n_jc, 0] = q
            jc[n_jc, 1] = c
            jc[n_jc, 2] = radix_all
            jc[n_jc, 3] = most + 1
            radix_all *= most + 1
            n_jc += 1
    return n_jc


@hot_flat
def _nth_card(pool, k):
    x = pool
    for _ in range(k):
        x &= x - 1
    return lowest_bit_nb(x)


@hot_flat
def _next(s, opt, card, jc, cls, pool):
    """State ``s`` after ``card`` goes to option ``opt`` (-1: the rest), or -1 if it may not."""
    if opt < 0:
        return s
    if (cls[jc[opt, 0], jc[opt, 1], F_MASK] >> card) & 1 != 0:
        return -1
    if _digit(s, jc, opt) + 1 >= jc[opt, 3]:
        return -1
    return s + jc[opt, 2]


@hot_flat
def _can_finish(s, jc, n_jc, pairs, p_hidden, masked, n_masked, left):
    need = 0
    for i in range(n_masked):
        need += _need(s, jc, n_jc, pairs, p_hidden, masked[i])
    return need <= left


@hot_flat
def _end_weight(s, jc, n_jc, masked, n_masked, pairs, kept, raw, p_off, p_len):
    """The ways of a full walk ending in ``s``: each pair's programme's ways
    for its vector (0 if no state), times each class's orders."""
    w = 1.0
    for i in range(n_masked):
        q = masked[i]
        k0 = np.int64(0)
        k1 = np.int64(0)
        for k in range(n_jc):
            if jc[k, 0] != q:
                continue
            d = _digit(s, jc, k)
            for f in range(2, d + 1):
                w *= f
            c = jc[k, 1]
            if c < 12:
                k0 |= d << (5 * c)
            else:
                k1 |= d << (5 * (c - 12))
        found = 0.0
        for j in range(pairs[q, p_off], pairs[q, p_off] + pairs[q, p_len]):
            if kept[j, 0] == k0 and kept[j, 1] == k1:
                found = raw[j]
        w *= found
        if w == 0.0:
            return 0.0
    return w


@hot
def joint_draw_nb(b, pool, masked, n_masked, pairs, cls, p_k0, p_k1, jt, rng):
    """One draw of batch ``b``'s walk: each masked pair's classes' cards in
    ``cls[q, c, F_FILL]`` and its state in ``pairs[q, p_k0/p_k1]``; returns the cards they took."""
    keys, g, hgen, hidx, gen, meta, jcls, layers = jt
    jc = jcls[b]
    n_jc = meta[b, J_N_CLS]
    for i in range(n_masked):
        q = masked[i]
        for c in range(cls.shape[1]):
            cls[q, c, F_FILL] = 0
    s = np.int64(0)
    taken = np.int64(0)
    x = pool
    for k in range(meta[b, J_N_CARDS]):
        card = lowest_bit_nb(x)
        x &= x - 1
        total = 0.0
        for opt in range(-1, n_jc):
            total += _onward(s, opt, card, jc, cls, pool, keys, g, hgen, hidx, gen[0], b * 64 + k + 1)
        u = np.float64(draw_nb(rng, 0) >> np.uint64(11)) * TWO_53 * total
        pick = -1
        for opt in range(-1, n_jc):
            w = _onward(s, opt, card, jc, cls, pool, keys, g, hgen, hidx, gen[0], b * 64 + k + 1)
            if w > 0.0:
                pick = opt
                if u < w:
                    break
                u -= w
        s = _next(s, pick, card, jc, cls, pool)
        if pick >= 0:
            cls[jc[pick, 0], jc[pick, 1], F_FILL] |= np.int64(1) << card
            taken |= np.int64(1) << card
    for i in range(n_masked):
        q = masked[i]
        k0 = np.int64(0)
        k1 = np.int64(0)
        for k in range(n_jc):
            if jc[k, 0] == q:
                c = jc[k, 1]
                d = _digit(s, jc, k)
                if c < 12:
                    k0 |= d << (5 * c)
                else:
                    k1 |= d << (5 * (c - 12))
        pairs[q, p_k0] = k0
        pairs[q, p_k1] = k1
    return taken


@hot_flat
def _onward(s, opt, card, jc, cls, pool, keys, g, hgen, hidx, gen, k0):
    s2 = _next(s, opt, card, jc, cls, pool)
    if s2 < 0:
        return 0.0
    i = _slot(keys, hgen, hidx, gen, k0, s2)
    return g[hidx[i]] if hgen[i] == gen else 0.0

