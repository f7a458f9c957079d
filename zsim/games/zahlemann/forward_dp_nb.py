"""The counting behind Zahlemann's ``determinize_nb`` (see that module for
the model): for one hand object and one batch, the ways its plays can have
emptied its classes of hidden slots, as a table of count vectors and their
numbers of ways, run over the round's log.

A state is the vector of hidden cards left in each class, five bits a class,
twelve classes a word, two words (``MAXC`` classes). A table is a run of
states (two key words and a weight); states are merged through an
open-addressed hash stamped by generation, so it is never cleared. A play
of card ``c`` moves each state to every class whose mask misses ``c``, with
the weight times the cards that class holds (less the turn's penalty cards,
for a bonus play, in the class that drew them); a draw adds a card to the
open class; a miss (no-match draw) adds the top's matches to every mask and
closes the open class; a pass closes it too and starts a new epoch.

Tables are kept step by step when a walk back is wanted (``ffbs_nb``): the
class each play came from, drawn in proportion to the ways through it.
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.position_nb import (C_N_LOG, C_PASSES0, C_PLAYERS, EV_DRAW, EV_NOMATCH, EV_PASS,
                                              EV_PLAY, EV_RESHUFFLE, EV_SNAP, MATCHING, N_CTRL, NC, O_CTRL, O_LOG,
                                              O_PUB, ev_batch, ev_card, ev_count, ev_obj)
from zsim.jit import bit_count_nb, hot, hot_flat, hot_inline
from zsim.rng import below_nb, draw_nb

CAP = 1 << 15          # states of the tables of one programme (and of all kept final tables)
HALF = CAP // 2
HASH = 1 << 14
MAXC = 24              # classes of one programme
MAXPAIR = 24           # programmes (object, batch) of one view
MAXSTEP = 512          # plays a walk back can go through
ALL = (np.int64(1) << NC) - 1
TWO_53 = 2.0 ** -53
OK, TOO_BIG, NO_WAY = 0, 1, 2
# class fields
F_MASK, F_EPOCH, F_SPECIAL, F_FILL = range(4)
# pair fields: one programme of a view, an object's hidden cards of one batch
P_OBJ, P_BATCH, P_HIDDEN, P_FREE, P_NCLS, P_OFF, P_LEN, P_OPEN, P_K0, P_K1 = range(10)
N_PAIR = 10
# step fields (a play, for the walk back)
S_OFF, S_LEN, S_ELIGIBLE, S_EXCL_CLS, S_EXCL, S_DELTA0, S_DELTA1, S_CARD, S_EPOCH = range(9)


def new_dp_scratch() -> tuple:
    """(keys [CAP, 2], weights [CAP], hash stamps, hash slots, [generation], steps)."""
    return (np.zeros((CAP, 2), np.int64), np.zeros(CAP), np.zeros(HASH, np.int64), np.zeros(HASH, np.int64),
            np.zeros(2, np.int64), np.zeros((MAXSTEP, 9), np.int64))


# ------------------------------------------------------------------ keys
@hot_inline
def unit_nb(c):
    """(word, the key's increment) of one card in class ``c``."""
    return c // 12, np.int64(1) << (5 * (c % 12))


@hot_inline
def field_nb(k0, k1, c):
    """The cards class ``c`` holds in state (k0, k1)."""
    word = k0 if c < 12 else k1
    return (word >> (5 * (c % 12))) & 31


@hot_flat
def _slot(keys, hgen, hidx, gen, k0, k1):
    """The hash slot of (k0, k1) in the table stamped ``gen``: its own, or the empty one it would take."""
    x = np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(k1) * np.uint64(0xC2B2AE3D27D4EB4F)
    i = np.int64((x ^ (x >> np.uint64(29))) & np.uint64(HASH - 1))
    while hgen[i] == gen and not (keys[hidx[i], 0] == k0 and keys[hidx[i], 1] == k1):
        i = (i + 1) & (HASH - 1)
    return i


@hot_flat
def _add(keys, weights, hgen, hidx, gen, off, n, limit, k0, k1, w):
    """Add weight ``w`` to state (k0, k1) of the table at ``off`` (``n``
    states so far, ``limit``: where its room ends): the new count of states,
    -1 if the table is full."""
    i = _slot(keys, hgen, hidx, gen, k0, k1)
    if hgen[i] == gen:
        weights[hidx[i]] += w
        return n
    if n >= HASH // 2 or off + n >= limit:
        return -1
    hgen[i] = gen
    hidx[i] = off + n
    keys[off + n, 0] = k0
    keys[off + n, 1] = k1
    weights[off + n] = w
    return n + 1


# ------------------------------------------------------------------ the programme
@hot
def run_dp_nb(pos, start, end, obj, batch, pinned, special_at, dp, cls, store):
    """Run object ``obj``'s events of ``batch`` from log index ``start`` to
    ``end`` (``pinned``: the cards of it the seat knew then, whose plays
    choose nothing; ``special_at``: the log index of a pending drawn card's
    draw, whose class holds a card matching the top). Fills ``cls`` and
    returns (status, table offset, states, classes, open class, plays);
    ``store``: keep each play's table and step for ``ffbs_nb``."""
    keys, weights, hgen, hidx, gen, steps = dp
    p = pos[O_CTRL + C_PLAYERS]
    top = pos[O_PUB + K.PUB_TOP]
    off = 0
    n = 1
    keys[0, 0] = 0
    keys[0, 1] = 0
    weights[0] = 1.0
    n_cls = 0
    open_cls = -1
    epoch = 0
    n_steps = 0
    d0 = np.int64(0)
    d1 = np.int64(0)
    i = start
    while i < end:
        w = pos[O_LOG + i]
        kind = w & 7
        if kind == EV_PASS:
            epoch += 1
            open_cls = -1
            i += 1 + p
            continue
        if kind == EV_RESHUFFLE:
            i += 2
            continue
        if ev_obj(w) != obj:
            i += 1
            continue
        if kind == EV_NOMATCH:
            m = MATCHING[ev_card(w)]
            for c in range(n_cls):
                if cls[c, F_SPECIAL] == 0:
                    cls[c, F_MASK] |= m
            open_cls = -1
        elif (kind == EV_SNAP or kind == EV_DRAW) and ev_batch(w) == batch:
            c = open_cls
            if c < 0 or i == special_at:     # a new class: after a miss or a pass, or the drawn card's
                if n_cls >= MAXC:
                    return TOO_BIG, off, n, n_cls, open_cls, n_steps
                c = n_cls
                n_cls += 1
                cls[c, F_MASK] = ALL & ~MATCHING[top] if i == special_at else 0
                cls[c, F_EPOCH] = epoch
                cls[c, F_SPECIAL] = 1 if i == special_at else 0
                cls[c, F_FILL] = 0
                open_cls = -1 if i == special_at else c
            word, inc = _drawn_into(keys, off, n, c, ev_count(w) if kind == EV_SNAP else 1)
            if inc < 0:
                return TOO_BIG, off, n, n_cls, open_cls, n_steps
            d0 += inc if word == 0 else 0
            d1 += inc if word == 1 else 0
        elif kind == EV_PLAY:
            card = ev_card(w)
            if (pinned >> card) & 1 != 0:
                pinned &= ~(np.int64(1) << card)
            elif ev_batch(w) == batch:
                eligible = _eligible(cls, n_cls, card)
                excl = ev_count(w)
                excl_cls = open_cls if excl > 0 else -1
                if store:
                    if n_steps >= MAXSTEP:
                        return TOO_BIG, off, n, n_cls, open_cls, n_steps
                    _keep_step(steps, n_steps, d0, d1, off, n, eligible, excl_cls, excl, card, epoch)
                    n_steps += 1
                d0 = np.int64(0)
                d1 = np.int64(0)
                new_off = off + n if store else (HALF if off == 0 else 0)
                m = _play_table(keys, weights, hgen, hidx, gen, off, n, new_off, CAP if (store or new_off == HALF)
                                else HALF, n_cls, eligible, excl, excl_cls)
                if m <= 0:
                    return TOO_BIG if m < 0 else NO_WAY, off, n, n_cls, open_cls, n_steps
                off = new_off
                n = m
        i += 1
    if store and n_steps > 0:
        steps[n_steps - 1, S_DELTA0] = d0
        steps[n_steps - 1, S_DELTA1] = d1
    return OK, off, n, n_cls, open_cls, n_steps


@hot_flat
def _eligible(cls, n_cls, card):
    """The classes a played ``card`` may have come from (their masks miss it), as bits."""
    eligible = np.int64(0)
    for c in range(n_cls):
        if cls[c, F_SPECIAL] == 0 and (cls[c, F_MASK] >> card) & 1 == 0:
            eligible |= np.int64(1) << c
    return eligible


@hot_flat
def _drawn_into(keys, off, n, c, add):
    """``add`` cards into class ``c`` of every state of the table at ``off``:
    (the key word, its increment), the increment -1 if a count would pass 31."""
    word, inc = unit_nb(c)
    for j in range(off, off + n):
        if field_nb(keys[j, 0], keys[j, 1], c) + add > 31:
            return word, np.int64(-1)
        keys[j, word] += inc * add
    return word, inc * add


@hot_flat
def _keep_step(steps, j, d0, d1, off, n, eligible, excl_cls, excl, card, epoch):
    """Play ``j``'s step for the walk back (and the draws since play ``j - 1``)."""
    if j > 0:
        steps[j - 1, S_DELTA0] = d0
        steps[j - 1, S_DELTA1] = d1
    st = steps[j]
    st[S_OFF] = off
    st[S_LEN] = n
    st[S_ELIGIBLE] = eligible
    st[S_EXCL_CLS] = excl_cls
    st[S_EXCL] = excl
    st[S_CARD] = card
    st[S_EPOCH] = epoch


@hot_flat
def _play_table(keys, weights, hgen, hidx, gen, off, n, new_off, limit, n_cls, eligible, excl, excl_cls):
    """The table after a play, at ``new_off``: each state of the table at
    ``off`` moved to every ``eligible`` class holding a card it may give up
    (``excl`` of ``excl_cls``'s cannot), weighted by how many; the new
    count of states, normalised to the largest weight (0: no way; -1: full)."""
    gen[0] += 1
    m = 0
    for j in range(off, off + n):
        k0 = keys[j, 0]
        k1 = keys[j, 1]
        for c in range(n_cls):
            if (eligible >> c) & 1 == 0:
                continue
            held = field_nb(k0, k1, c) - (excl if c == excl_cls else 0)
            if held <= 0:
                continue
            word, inc = unit_nb(c)
            m = _add(keys, weights, hgen, hidx, gen[0], new_off, m, limit, k0 - (inc if word == 0 else 0),
                     k1 - (inc if word == 1 else 0), weights[j] * held)
            if m < 0:
                return -1
    top_w = 0.0
    for j in range(new_off, new_off + m):
        top_w = max(top_w, weights[j])
    for j in range(new_off, new_off + m):
        weights[j] /= top_w
    return m


@hot_flat
def fill_count_nb(k0, k1, n_cls, cls, pool):
    """The ways the cards of ``pool`` fill the classes of state (k0, k1):
    the drawn card's class first (its matches, apart from every other
    class's), then the others oldest first, each slot choosing among the
    cards its mask allows less those the older (narrower) classes took."""
    ways = 1.0
    taken = 0
    for c in range(n_cls):
        if cls[c, F_SPECIAL] != 0 and field_nb(k0, k1, c) > 0:
            ways *= bit_count_nb(pool & ~cls[c, F_MASK])
    for c in range(n_cls):
        if cls[c, F_SPECIAL] != 0:
            continue
        held = field_nb(k0, k1, c)
        allowed = bit_count_nb(pool & ~cls[c, F_MASK])
        for k in range(held):
            ways *= max(allowed - taken - k, 0)
        taken += held
    return ways


@hot_flat
def uniform_card_nb(cards, rng):
    """A card of the set ``cards`` (not empty), uniform, counted in card order."""
    k = below_nb(rng, 0, bit_count_nb(cards))
    x = cards
    for _ in range(k):
        x &= x - 1
    return x & -x


@hot_flat
def fill_nb(k0, k1, n_cls, cls, pool, rng):
    """Cards for the classes of state (k0, k1), uniform among the ways
    ``fill_count_nb`` counts (it must be positive): each class's cards in
    ``cls[:, F_FILL]``; returns them all."""
    chosen = np.int64(0)
    for c in range(n_cls):
        cls[c, F_FILL] = 0
        if cls[c, F_SPECIAL] != 0 and field_nb(k0, k1, c) > 0:
            bit = uniform_card_nb(pool & ~cls[c, F_MASK], rng)
            cls[c, F_FILL] = bit
            chosen |= bit
    for c in range(n_cls):
        if cls[c, F_SPECIAL] != 0:
            continue
        for _ in range(field_nb(k0, k1, c)):
            bit = uniform_card_nb(pool & ~cls[c, F_MASK] & ~chosen, rng)
            cls[c, F_FILL] |= bit
            chosen |= bit
    return chosen


@hot_flat
def sample_state_nb(cum, keys, off, n, rng):
    """A state of the kept table at ``off`` (cumulative weights ``cum``), in proportion to its weight."""
    u = np.float64(draw_nb(rng, 0) >> np.uint64(11)) * TWO_53 * cum[off + n - 1]
    lo = off
    hi = off + n - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cum[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return keys[lo, 0], keys[lo, 1]


# ------------------------------------------------------------------ a seat's phases
@hot_flat
def hidden_nb(pos, h, b, start, pin0):
    """The hidden cards of batch ``b`` that object ``h`` holds, from its
    events since log index ``start`` (``pin0``: the cards then known)."""
    p = pos[O_CTRL + C_PLAYERS]
    pinned = pin0
    count = 0
    i = start
    while i < pos[O_CTRL + C_N_LOG]:
        w = pos[O_LOG + i]
        k = w & 7
        i += 1
        if k == EV_PASS:
            i += p
        elif k == EV_RESHUFFLE:
            i += 1
        elif ev_obj(w) == h:
            if k == EV_PLAY and (pinned >> ev_card(w)) & 1 != 0:
                pinned &= ~(np.int64(1) << ev_card(w))
            elif ev_batch(w) == b:
                if k == EV_SNAP:
                    count += ev_count(w)
                elif k == EV_DRAW:
                    count += 1
                elif k == EV_PLAY:
                    count -= 1
    return count


@hot_flat
def phases_nb(pos, seat, start_out, pin0_out, pin_out):
    """Each object's final phase for the seat: where it begins (after the
    seat last passed it on, or at the log's start; -1 where the seat holds
    the object), the cards the seat knew it held then and those it still holds."""
    ctrl = pos[O_CTRL:O_CTRL + N_CTRL]
    p = ctrl[C_PLAYERS]
    for h in range(p):
        k = ctrl[C_PASSES0]
        held = (h + k) % p == seat
        start = 0
        pin0 = np.int64(0)
        i = 0
        while i < ctrl[C_N_LOG]:
            w = pos[O_LOG + i]
            i += 1
            if w & 7 == EV_PASS:
                before = (h + k) % p
                if before == seat:
                    held = False
                    start = i + p
                    pin0 = pos[O_LOG + i + before]
                elif (before + 1) % p == seat:
                    held = True
                k += 1
                i += p
            elif w & 7 == EV_RESHUFFLE:
                i += 1
        start_out[h] = -1 if held else start
        pin0_out[h] = 0 if held else pin0
        pinned = pin0
        i = start
        while not held and i < ctrl[C_N_LOG]:
            w = pos[O_LOG + i]
            i += 1
            if w & 7 == EV_PASS:
                i += p
            elif w & 7 == EV_RESHUFFLE:
                i += 1
            elif w & 7 == EV_PLAY and ev_obj(w) == h:
                pinned &= ~(np.int64(1) << ev_card(w))
        pin_out[h] = 0 if held else pinned


# ------------------------------------------------------------------ the walk back
@hot
def ffbs_nb(k0, k1, n_steps, n_cls, dp, rng, play_cls):
    """The class each play of the programme just run (with ``store``) came
    from, given its final state (k0, k1): walking back, each play's class is
    drawn in proportion to the ways into the state before it times the cards
    that class then held (``play_cls[j]``: play j's class)."""
    keys, weights, hgen, hidx, gen, steps = dp
    for j in range(n_steps - 1, -1, -1):
        st = steps[j]
        k0 -= st[S_DELTA0]
        k1 -= st[S_DELTA1]
        gen[0] += 1
        for t in range(st[S_OFF], st[S_OFF] + st[S_LEN]):       # the table before the play, hashed
            i = _slot(keys, hgen, hidx, gen[0], keys[t, 0], keys[t, 1])
            hgen[i] = gen[0]
            hidx[i] = t
        total = 0.0
        for c in range(n_cls):
            total += _way_back(keys, weights, hgen, hidx, gen[0], st, k0, k1, c)
        u = np.float64(draw_nb(rng, 0) >> np.uint64(11)) * TWO_53 * total
        pick = -1
        for c in range(n_cls):
            w = _way_back(keys, weights, hgen, hidx, gen[0], st, k0, k1, c)
            if w > 0.0:
                pick = c
                if u < w:
                    break
                u -= w
        play_cls[j] = pick
        word, inc = unit_nb(pick)
        if word == 0:
            k0 += inc
        else:
            k1 += inc


@hot_flat
def _way_back(keys, weights, hgen, hidx, gen, st, k0, k1, c):
    """The ways into the state after play ``st`` through class ``c``."""
    if (st[S_ELIGIBLE] >> c) & 1 == 0:
        return 0.0
    word, inc = unit_nb(c)
    p0 = k0 + (inc if word == 0 else 0)
    p1 = k1 + (inc if word == 1 else 0)
    i = _slot(keys, hgen, hidx, gen, p0, p1)
    if hgen[i] != gen:
        return 0.0
    held = field_nb(p0, p1, c) - (st[S_EXCL] if c == st[S_EXCL_CLS] else 0)
    return weights[hidx[i]] * held if held > 0 else 0.0
