"""The hands passed on out of a seat's sight (``two_passes_hands``), drawn
for Zahlemann's ``determinize_nb``.

At a pass its passer and its receiver see the hand that moved; another seat
does not, yet a position holds it (the log's pass words, and ``passed`` for
the bots). A hand object's phase (from the seat's last sight of it to the
next, or to now) is split into epochs by the passes inside it; with the
cards it holds at the phase's end drawn (now: ``determinize_nb``'s draw; at
the seat's next sight: those it then saw, placed by the programme), walking
the programme back gives the class of each card played in the phase, and a
pass's hand is what the classes begun before it held then: the cards still
held, those played after it, and the known ones not yet played.
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann.forward_dp_nb import (F_EPOCH, F_FILL, F_SPECIAL, MAXC, MAXSTEP, OK, P_BATCH, P_K0,
                                                P_K1, P_NCLS, P_OBJ, S_CARD, S_EPOCH, ffbs_nb, fill_count_nb,
                                                fill_nb, run_dp_nb)
from zsim.games.zahlemann.position_nb import (C_N_LOG, C_PASSES0, C_PLAYERS, C_RESTARTS, EV_DRAW, EV_PASS, EV_PLAY,
                                              EV_RESHUFFLE, EV_SNAP, N_CTRL, NC, O_BATCH, O_CTRL, O_LOG, O_PASSED,
                                              ev_batch, ev_card, ev_obj)
from zsim.jit import hot, hot_flat
from zsim.rng import draw_nb

MAXINNER = 64          # passes inside one phase
TWO_53 = 2.0 ** -53


def new_pass_scratch() -> tuple:
    """(classes of a rerun programme, each play's class, each inner pass's hand, a table's weights)."""
    from zsim.games.zahlemann.forward_dp_nb import CAP

    return (np.zeros((MAXC, 4), np.int64), np.zeros(MAXSTEP, np.int64), np.zeros(MAXINNER, np.int64),
            np.zeros(CAP))


@hot
def passes_nb(out, seat, rng, n_batches, pairs, pcls, n_pairs, dp, ps):
    """Draw every pass word of ``out``'s log the seat did not see, and each
    other seat's ``passed``; ``pairs``/``pcls``: the final phases' programmes
    (``P_*`` fields) with the states and class cards just drawn."""
    ctrl = out[O_CTRL:O_CTRL + N_CTRL]
    p = ctrl[C_PLAYERS]
    n_log = ctrl[C_N_LOG]
    last_pass = -1
    for h in range(p):
        k = ctrl[C_PASSES0]
        held = (h + k) % p == seat
        i0 = 0
        pin0 = np.int64(0)
        inner = 0
        i = 0
        while i < n_log:
            w = out[O_LOG + i]
            if w & 7 == EV_PASS:
                last_pass = i
                before = (h + k) % p
                if before == seat:
                    held = False
                    i0 = i + 1 + p
                    pin0 = out[O_LOG + i + 1 + before]
                    inner = 0
                elif (before + 1) % p == seat:
                    if inner > 0 and ctrl[C_RESTARTS] == 0:
                        _phase(out, h, i0, i, pin0, out[O_LOG + i + 1 + before], -1, rng, n_batches, pairs, pcls,
                               n_pairs, dp, ps)
                    held = True
                else:
                    inner += 1
                k += 1
                i += 1 + p
            else:
                i += 2 if w & 7 == EV_RESHUFFLE else 1
        if not held and inner > 0:
            _phase(out, h, i0, n_log, pin0, 0, 1, rng, n_batches, pairs, pcls, n_pairs, dp, ps)
    if last_pass >= 0:
        for s in range(p):
            if s != seat:
                out[O_PASSED + s] = out[O_LOG + last_pass + 1 + s]


@hot
def _phase(out, h, i0, i1, pin0, seen, final, rng, n_batches, pairs, pcls, n_pairs, dp, ps):
    """The hands object ``h`` passed inside its phase ``[i0, i1)``; ``seen``:
    what it held at ``i1``, unless ``final`` (> 0): then drawn already."""
    cls, play_cls, hands, weights = ps
    keys = dp[0]
    steps = dp[5]
    for k in range(MAXINNER):
        hands[k] = 0
    pinned_end = _pinned_after(out, h, i0, i1, pin0)
    for b in range(n_batches):
        q = -1
        for j in range(n_pairs):
            if pairs[j, P_OBJ] == h and pairs[j, P_BATCH] == b:
                q = j
        if not _drew(out, h, b, i0, i1):
            continue
        pool = np.int64(0) if final > 0 else _hidden_seen(out, seen & ~pinned_end, b, i1, n_batches)
        special = -1
        if q >= 0 and final > 0 and pcls[q, pairs[q, P_NCLS] - 1, F_SPECIAL] != 0:
            special = out[O_CTRL + C_N_LOG] - 1
        status, off, n, n_cls, open_cls, n_steps = run_dp_nb(out, i0, i1, h, b, pin0, special, dp, cls, True)
        if status != OK or (final > 0 and q >= 0 and n_cls != pairs[q, P_NCLS]):
            return
        if final > 0:                            # the state drawn for now (none held: all played)
            k0 = pairs[q, P_K0] if q >= 0 else np.int64(0)
            k1 = pairs[q, P_K1] if q >= 0 else np.int64(0)
            for c in range(n_cls):
                cls[c, F_FILL] = pcls[q, c, F_FILL] if q >= 0 else 0
        else:
            total = 0.0
            for j in range(n):
                weights[j] = dp[1][off + j] * fill_count_nb(keys[off + j, 0], keys[off + j, 1], n_cls, cls, pool)
                total += weights[j]
            if total <= 0.0:
                return
            u = np.float64(draw_nb(rng, 0) >> np.uint64(11)) * TWO_53 * total
            pick = 0
            for j in range(n):
                pick = j
                if u < weights[j]:
                    break
                u -= weights[j]
            k0 = keys[off + pick, 0]
            k1 = keys[off + pick, 1]
            fill_nb(k0, k1, n_cls, cls, pool, rng)
        ffbs_nb(k0, k1, n_steps, n_cls, dp, rng, play_cls)
        for c in range(n_cls):                   # held at the end: there at every pass after the class began
            for k in range(cls[c, F_EPOCH] + 1, MAXINNER):
                hands[k] |= cls[c, F_FILL]
        for j in range(n_steps):                 # played after a pass from a class begun before it
            c = play_cls[j]
            for k in range(cls[c, F_EPOCH] + 1, min(steps[j, S_EPOCH] + 1, MAXINNER)):
                hands[k] |= np.int64(1) << steps[j, S_CARD]
    _write(out, h, i0, i1, pin0, hands)


@hot_flat
def _write(out, h, i0, i1, pin0, hands):
    """Each inner pass's hand, the known cards not yet played added, into its word."""
    ctrl = out[O_CTRL:O_CTRL + N_CTRL]
    p = ctrl[C_PLAYERS]
    k = ctrl[C_PASSES0]                      # the passes before i0, counted from the log's start
    i = 0
    while i < i0:
        w = out[O_LOG + i]
        if w & 7 == EV_PASS:
            k += 1
        i += 1 + (p if w & 7 == EV_PASS else (1 if w & 7 == EV_RESHUFFLE else 0))
    pinned = pin0
    inner = 0
    i = i0
    while i < i1:
        w = out[O_LOG + i]
        if w & 7 == EV_PASS:
            inner += 1
            if inner < MAXINNER:
                out[O_LOG + i + 1 + (h + k) % p] = hands[inner] | pinned
            k += 1
            i += 1 + p
            continue
        if w & 7 == EV_PLAY and ev_obj(w) == h:
            pinned &= ~(np.int64(1) << ev_card(w))
        i += 2 if w & 7 == EV_RESHUFFLE else 1


@hot_flat
def _drew(out, h, b, i0, i1):
    """Whether object ``h`` got hidden cards of batch ``b`` in ``[i0, i1)``."""
    p = out[O_CTRL + C_PLAYERS]
    i = i0
    while i < i1:
        w = out[O_LOG + i]
        k = w & 7
        if (k == EV_DRAW or k == EV_SNAP) and ev_obj(w) == h and ev_batch(w) == b:
            return True
        i += 1 + (p if k == EV_PASS else (1 if k == EV_RESHUFFLE else 0))
    return False


@hot_flat
def _pinned_after(out, h, i0, i1, pin0):
    """The known cards of object ``h`` not played in ``[i0, i1)``."""
    p = out[O_CTRL + C_PLAYERS]
    pinned = pin0
    i = i0
    while i < i1:
        w = out[O_LOG + i]
        if w & 7 == EV_PLAY and ev_obj(w) == h:
            pinned &= ~(np.int64(1) << ev_card(w))
        i += 1 + (p if w & 7 == EV_PASS else (1 if w & 7 == EV_RESHUFFLE else 0))
    return pinned


@hot_flat
def _hidden_seen(out, cards, b, i1, n_batches):
    """The cards of ``cards`` that were of batch ``b`` at log index ``i1``:
    the batch of the last reshuffle before it that took them, else the
    batch they are of now if no reshuffle of the log took them, else 0."""
    p = out[O_CTRL + C_PLAYERS]
    n_log = out[O_CTRL + C_N_LOG]
    n_resh = 0
    i = 0
    while i < n_log:
        w = out[O_LOG + i]
        n_resh += 1 if w & 7 == EV_RESHUFFLE else 0
        i += 1 + (p if w & 7 == EV_PASS else (1 if w & 7 == EV_RESHUFFLE else 0))
    last_batch = n_batches - 1
    out_cards = np.int64(0)
    for c in range(NC):
        if (cards >> c) & 1 == 0:
            continue
        batch = -1
        anywhere = False
        j = 0
        i = 0
        while i < n_log:
            w = out[O_LOG + i]
            if w & 7 == EV_RESHUFFLE:
                j += 1
                if (out[O_LOG + i + 1] >> c) & 1 != 0:
                    anywhere = True
                    if i < i1:
                        batch = last_batch - (n_resh - j)
            i += 1 + (p if w & 7 == EV_PASS else (1 if w & 7 == EV_RESHUFFLE else 0))
        if batch < 0:
            batch = 0 if anywhere else out[O_BATCH + c]
        if batch == b:
            out_cards |= np.int64(1) << c
    return out_cards

