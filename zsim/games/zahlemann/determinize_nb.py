"""What a seat knows in Zahlemann, and positions drawn from it: the forward
model's ``view_nb`` and ``determinize_nb`` (``forward_nb.py``; the position
and its log are ``position_nb.py``).

What a seat learns
------------------
Each round is dealt afresh, so only the round so far matters. Public: every
card played, every draw (not its card), the discards, hand and pile sizes,
money, and which cards each reshuffle put into the new pile. Its own: its
hand, and each hand it passed on (``two_passes_hands``) or received as it
was then. The moves prove the rest: a draw for want of a match shows that
*every card then in that hand* misses the top; a play shows the hand held
the card; a bonus play that it was not a penalty card of the turn; a
pending decision of another seat shows that it holds a match (a play), a
bonus card (a bonus), or that its drawn card matches (a drawn card).

The model of the hidden hands (exact)
-------------------------------------
The shuffle made every assignment of the cards to the *slots* (each dealt
card, each draw, each place of the draw pile) equally likely, so the
posterior is uniform over the assignments that fit every proof above. A
hand's hidden slots fall into *classes*: the slots drawn between two of its
no-match draws (or passes), of one batch (the deal, or one reshuffle; a
slot of batch ``b`` holds a card that was last shuffled in batch ``b``).
A class's *mask* is the union of the tops its hand failed to match since
the class began: no card of the mask can be in a slot of the class still
held, so the masks of a hand's classes are nested, oldest widest. Which
class a played card came from is not seen, only that its class's mask
missed the card when it was played. The number of ways the plays can have
emptied the classes is counted class by class (a dynamic programme over the
vectors of cards left per class, each play choosing a class in proportion
to the cards it still holds), times the number of ways the unseen cards
fill what is left, which nested masks make a product. A hand's vector is
drawn from that product exactly, then its cards, one class at a time, the
widest mask first, each uniform among the cards its mask allows and not yet
taken.

Hands whose classes the seat's unseen cards cannot miss (no mask touches
them: most hands most of the time) are filled, with the draw pile, from a
uniform shuffle of what is left. A masked hand alone in its batch is drawn
from its product; two or more are drawn together (``forward_joint_nb``: the
unseen cards walked in card order, each to the rest or to a class whose
mask misses it, in proportion to the ways onward). A draw in which another
seat would lack what its pending decision shows is thrown away and drawn
again (rejection: exact), and so is one in which two masked hands of a
batch too big to walk (none met in the tests) were drawn alone and share a
card. In bot games about three tries in ten are thrown away at another
seat's decision (mostly: it must hold a match), none at the seat's own
(``M_TRIES`` and ``M_DRAWS`` count them). Within a two_passes_hands round
the classes also split at
each pass, and the hands passed out of the seat's sight are recovered by
walking the programme back (``forward_pass_nb``).

The draw reads hidden things only as sets in card order and draws only from
``rng``; the programmes depend on the seat's view alone and are kept for the
next draw from the same view (a search draws thousands of times): making
them took about 0.7 ms at three players and 1.4 ms at four (most of it the
joint walk), each draw from them 2-4 us.

Not drawn: another seat's count of unnoticed forgotten announcements (a
statistic no rule reads, which nobody saw) is set to its noticed count.
If the round's log ever had to restart (``position_nb.restart_log_nb``, a
round far longer than any the bots played) the draw forgets what the moves
before the restart proved: still consistent with the view, no longer exact.
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.forward_dp_nb import (CAP, F_FILL, F_MASK, F_SPECIAL, MAXC, MAXPAIR, N_PAIR, OK, P_BATCH,
                                                P_FREE, P_HIDDEN, P_K0, P_K1, P_LEN, P_NCLS, P_OBJ, P_OFF, P_OPEN,
                                                field_nb, fill_count_nb, fill_nb, hidden_nb, new_dp_scratch,
                                                phases_nb, run_dp_nb, sample_state_nb, uniform_card_nb)
from zsim.games.zahlemann.forward_joint_nb import (J_USED, MAXB, joint_draw_nb, joint_prepare_nb, joint_reset_nb,
                                                   new_joint_scratch)
from zsim.games.zahlemann.forward_pass_nb import new_pass_scratch, passes_nb
from zsim.games.zahlemann.position_nb import (C_DECIDER, C_KIND, C_N_LOG, C_OPTIONS, C_PENALTY, C_PLAYERS, C_RESH0,
                                              C_TURN_LOG, EV_DRAW, EV_PASS, EV_RESHUFFLE, MATCHING, MP, N_CTRL, NC,
                                              O_BATCH, O_CTRL, O_DISCARDS, O_HANDS, O_LOG, O_PILE, O_PUB, O_RNG,
                                              O_SEAT_OUT, SIZE, ev_batch, ev_obj, view_nb)
from zsim.jit import bit_count_nb, hot, hot_flat, lowest_bit_nb
from zsim.rng import below_nb, draw_nb

VIEW_WORDS = SIZE + 64
# misc words of the scratch
(M_VIEW_N, M_SEAT, M_PAIRS, M_KEPT, M_ERRORS, M_BATCH, M_SPECIAL, M_TRIES, M_DRAWS, M_FALLBACKS, M_REJECTED,
 M_FAULTS, M_MOST_TRIES, M_PENDING_REJECTED, M_TAKEN) = range(15)
M_WALKS, M_NO_WALKS = 32, 33  # counters: joint walks made, too big to make
N_MISC = 40
M_PIN = 16            # per object: the cards the seat knows it holds now
M_START = 20          # per object: where its final phase begins in the log (-1: the seat holds it)
M_PIN0 = 24           # per object: the cards the seat knew it held at that start
M_CONTENT = 28        # per object: the hand drawn


def new_scratch(players: int) -> tuple:
    """One thread's scratch for ``determinize_nb``: (the programme's tables,
    the pairs, their classes, misc words, the view kept and a new one, the
    batches' unseen cards, the kept final tables' keys, cumulative weights
    and ways, a shuffle's cards, each batch's masked pairs, the joint walks)."""
    return (new_dp_scratch(), np.zeros((MAXPAIR, N_PAIR), np.int64), np.zeros((MAXPAIR, MAXC, 4), np.int64),
            np.zeros(N_MISC, np.int64), np.zeros(VIEW_WORDS, np.int64), np.zeros(VIEW_WORDS, np.int64),
            np.zeros(MAXB, np.int64), np.zeros((CAP, 2), np.int64), np.zeros(CAP), np.zeros(CAP),
            np.zeros(NC, np.int64), np.zeros((MAXB, MAXPAIR + 1), np.int64), new_joint_scratch(),
            new_pass_scratch())


# ------------------------------------------------------------------ the draw
@hot
def determinize_nb(pos, seat, rng, out, consts, ws):
    scr = ws[2]
    misc = scr[3]
    for i in range(pos.shape[0]):
        out[i] = pos[i]
    if pos[O_CTRL + C_DECIDER] >= 0:
        _prepare(pos, seat, scr)
        if misc[M_ERRORS] == 0:
            _draw(out, seat, rng, scr)
            if out[O_PUB + K.PUB_PASSES] > 0:
                passes_nb(out, seat, rng, misc[M_BATCH] + 1, scr[1], scr[2], misc[M_PAIRS], scr[0], scr[13])
        misc[M_FAULTS] += misc[M_ERRORS]
    _tidy(out, seat, rng)


@hot_flat
def _tidy(out, seat, rng):
    """What no seat may carry over: stale pile and discard words, the
    streams (future chance and the other seats' bots), others' slips."""
    p = out[O_CTRL + C_PLAYERS]
    pub = out[O_PUB:O_PUB + K.N_PUB]
    for i in range(pub[K.PUB_DRAW_SIZE], 2 * NC):
        out[O_PILE + i] = 0
    for i in range(pub[K.PUB_N_DISCARDS], NC):
        out[O_DISCARDS + i] = 0
    for i in range(K.N_STREAMS):
        out[O_RNG + i] = np.int64(draw_nb(rng, 0))
    for s in range(p):
        if s != seat:
            base = O_SEAT_OUT + s * K.N_SEAT_STATS
            out[base + K.S_FORGOTTEN] = out[base + K.S_NOTICED]


# ------------------------------------------------------------------ the true position, redrawn
@hot
def redraw_nb(pos, rng, out, consts, ws):
    """The forward model's ``redraw_nb``: the true position with what no seat
    has seen drawn afresh. In Zahlemann nobody sees a card of the face-down
    draw pile (a drawn card, penalty and fifty draws included, goes into a
    hand unseen; a passed hand moves hand to hand, never through the pile),
    and the pile is all of one batch (the deal's, or the last reshuffle's),
    so its order is reshuffled from its cards taken in card order, and every
    stream (the deck's and announcements' chance, the bots' own) is drawn
    anew. The hands, passed hands, discards, money, batches, counters and the
    log stay as they are. Stale words, which would tell the old order (the
    cards drawn off the pile's top, the last shuffle's draws kept in the
    pile's second half), are cleared as ``_tidy`` clears them, and so are
    the discards' stale words."""
    for i in range(pos.shape[0]):
        out[i] = pos[i]
    pub = out[O_PUB:O_PUB + K.N_PUB]
    size = pub[K.PUB_DRAW_SIZE]
    if out[O_CTRL + C_DECIDER] >= 0 and size > 1:
        cards = np.int64(0)                  # the pile as a set, then in card order
        for i in range(size):
            cards |= np.int64(1) << out[O_PILE + i]
        m = 0
        while cards != 0:
            out[O_PILE + m] = lowest_bit_nb(cards)
            cards &= cards - 1
            m += 1
        for i in range(size - 1, 0, -1):     # Fisher-Yates from the redraw's stream
            j = below_nb(rng, 0, i + 1)
            t = out[O_PILE + i]
            out[O_PILE + i] = out[O_PILE + j]
            out[O_PILE + j] = t
    for i in range(size, 2 * NC):
        out[O_PILE + i] = 0
    for i in range(pub[K.PUB_N_DISCARDS], NC):
        out[O_DISCARDS + i] = 0
    for i in range(K.N_STREAMS):
        out[O_RNG + i] = np.int64(draw_nb(rng, 0))


# ------------------------------------------------------------------ the programmes of a view
@hot
def _prepare(pos, seat, scr):
    """The programmes of the seat's view, unless the last call made them."""
    pairs, misc, view, new_view, pools = scr[1], scr[3], scr[4], scr[5], scr[6]
    n = view_nb(pos, seat, new_view)
    same = misc[M_VIEW_N] == n and misc[M_SEAT] == seat
    i = 0
    while same and i < n:
        same = view[i] == new_view[i]
        i += 1
    if same:
        return
    for i in range(n):
        view[i] = new_view[i]
    misc[M_VIEW_N] = n
    misc[M_SEAT] = seat
    misc[M_ERRORS] = 0
    misc[M_KEPT] = 0
    misc[M_PAIRS] = 0
    ctrl = pos[O_CTRL:O_CTRL + N_CTRL]
    pub = pos[O_PUB:O_PUB + K.N_PUB]
    p = ctrl[C_PLAYERS]
    phases_nb(pos, seat, misc[M_START:M_START + MP], misc[M_PIN0:M_PIN0 + MP], misc[M_PIN:M_PIN + MP])
    known = pos[O_HANDS + seat] | pub[K.PUB_DISCARDED]
    for h in range(p):
        known |= misc[M_PIN + h]
    n_batches = pub[K.PUB_RESHUFFLES] - ctrl[C_RESH0] + 1
    if n_batches > MAXB:
        misc[M_ERRORS] += 1
        return
    misc[M_BATCH] = n_batches - 1
    misc[M_SPECIAL] = ctrl[C_N_LOG] - 1 if ctrl[C_DECIDER] != seat and ctrl[C_KIND] == K.D_DRAWN else -1
    for b in range(n_batches):
        pools[b] = 0
    for c in range(NC):
        if (known >> c) & 1 == 0:
            pools[pos[O_BATCH + c]] |= np.int64(1) << c
    for b in range(n_batches):
        total = pub[K.PUB_DRAW_SIZE] if b == n_batches - 1 else 0
        for h in range(p):
            if misc[M_START + h] < 0:
                continue
            hidden = hidden_nb(pos, h, b, misc[M_START + h], misc[M_PIN0 + h])
            if hidden == 0:
                continue
            q = misc[M_PAIRS]
            if q >= MAXPAIR:
                misc[M_ERRORS] += 1
                return
            pairs[q, P_OBJ] = h
            pairs[q, P_BATCH] = b
            pairs[q, P_HIDDEN] = hidden
            _prepare_pair(pos, q, pools[b], scr)
            misc[M_PAIRS] += 1
            total += hidden
        if total != bit_count_nb(pools[b]):
            misc[M_ERRORS] += 1              # a model bug: the tests would catch it
    _prepare_walks(scr, n_batches)


@hot
def _prepare_walks(scr, n_batches):
    """Each batch's masked pairs, and the joint walk of those with two or more."""
    pairs, cls, misc, pools, kept, raw, masked, jt = scr[1], scr[2], scr[3], scr[6], scr[7], scr[9], scr[11], \
        scr[12]
    joint_reset_nb(jt)
    for b in range(n_batches):
        masked[b, 0] = 0
    for q in range(misc[M_PAIRS]):
        if pairs[q, P_FREE] == 0:
            b = pairs[q, P_BATCH]
            masked[b, 0] += 1
            masked[b, masked[b, 0]] = q
    for b in range(n_batches):
        if masked[b, 0] >= 2:
            if joint_prepare_nb(b, pools[b], masked[b, 1:], masked[b, 0], pairs, cls, kept, raw, P_OFF, P_LEN,
                                P_NCLS, P_HIDDEN, jt):
                misc[M_WALKS] += 1
            else:
                misc[M_NO_WALKS] += 1


@hot
def _prepare_pair(pos, q, pool, scr):
    """Run pair ``q``'s programme and keep its final table, weighted by the
    ways the unseen cards fill it unless it is free (no mask touches them)."""
    dp, pairs, cls, misc, kept, cum, raw = scr[0], scr[1], scr[2], scr[3], scr[7], scr[8], scr[9]
    pr = pairs[q]
    h = pr[P_OBJ]
    status, off, n, n_cls, open_cls, _ = run_dp_nb(pos, misc[M_START + h], pos[O_CTRL + C_N_LOG], h, pr[P_BATCH],
                                                   misc[M_PIN0 + h], misc[M_SPECIAL], dp, cls[q], False)
    keys, weights = dp[0], dp[1]
    base = misc[M_KEPT]
    if status != OK or base + n > CAP:   # past the programme's room: the cards as one unmasked class
        misc[M_FALLBACKS] += 1
        n_cls, open_cls, off, n = _plain(pr[P_HIDDEN], cls[q], keys, weights)
    free = True
    for c in range(n_cls):
        most = 0
        for j in range(off, off + n):
            most = max(most, field_nb(keys[j, 0], keys[j, 1], c))
        if most > 0 and (cls[q, c, F_SPECIAL] != 0 or cls[q, c, F_MASK] & pool != 0):
            free = False
    acc = 0.0
    for j in range(n):
        k0 = keys[off + j, 0]
        k1 = keys[off + j, 1]
        w = weights[off + j]
        if not free:
            w *= fill_count_nb(k0, k1, n_cls, cls[q], pool)
        acc += w
        raw[base + j] = weights[off + j]
        kept[base + j, 0] = k0
        kept[base + j, 1] = k1
        cum[base + j] = acc
    if acc <= 0.0:
        misc[M_ERRORS] += 1
    pr[P_FREE] = 1 if free else 0
    pr[P_NCLS] = n_cls
    pr[P_OFF] = base
    pr[P_LEN] = n
    pr[P_OPEN] = open_cls
    misc[M_KEPT] = base + n


@hot_flat
def _plain(hidden, cls, keys, weights):
    """One state: ``hidden`` cards in unmasked classes (31 at most a class)."""
    n_cls = 0
    k0 = np.int64(0)
    k1 = np.int64(0)
    while hidden > 0:
        put = min(hidden, 31)
        for f in range(4):
            cls[n_cls, f] = 0
        if n_cls < 12:
            k0 |= np.int64(put) << (5 * n_cls)
        else:
            k1 |= np.int64(put) << (5 * (n_cls - 12))
        hidden -= put
        n_cls += 1
    keys[0, 0] = k0
    keys[0, 1] = k1
    weights[0] = 1.0
    return n_cls, n_cls - 1, 0, 1


# ------------------------------------------------------------------ one draw
@hot
def _draw(out, seat, rng, scr):
    """Hands and a draw pile for ``out``, from the programmes of the seat's
    view; another try whenever two masked hands drawn alone take the same
    card or the pending decision's proof fails."""
    pairs, cls, misc, pools, cards = scr[1], scr[2], scr[3], scr[6], scr[10]
    ctrl = out[O_CTRL:O_CTRL + N_CTRL]
    pub = out[O_PUB:O_PUB + K.N_PUB]
    p = ctrl[C_PLAYERS]
    misc[M_DRAWS] += 1
    tries = 0
    while True:
        misc[M_TRIES] += 1
        tries += 1
        if not _draw_masked(scr, rng):
            misc[M_REJECTED] += 1
            continue
        for b in range(misc[M_BATCH] + 1):  # the free hands and the pile: the rest, shuffled
            m = _shuffled(pools[b] & ~misc[M_TAKEN], cards, rng)
            at = 0
            for q in range(misc[M_PAIRS]):
                pr = pairs[q]
                if pr[P_FREE] == 0 or pr[P_BATCH] != b:
                    continue
                pr[P_K0], pr[P_K1] = sample_state_nb(scr[8], scr[7], pr[P_OFF], pr[P_LEN], rng)
                for c in range(pr[P_NCLS]):
                    cls[q, c, F_FILL] = 0
                    for _ in range(field_nb(pr[P_K0], pr[P_K1], c)):
                        cls[q, c, F_FILL] |= np.int64(1) << cards[at]
                        at += 1
            if b == misc[M_BATCH]:
                for i in range(pub[K.PUB_DRAW_SIZE]):
                    out[O_PILE + i] = cards[at]
                    at += 1
            if at != m:
                misc[M_ERRORS] += 1
        for h in range(p):
            misc[M_CONTENT + h] = misc[M_PIN + h]
        for q in range(misc[M_PAIRS]):
            for c in range(pairs[q, P_NCLS]):
                misc[M_CONTENT + pairs[q, P_OBJ]] |= cls[q, c, F_FILL]
        if _pending_holds(out, seat, rng, scr):
            break
        misc[M_REJECTED] += 1
        misc[M_PENDING_REJECTED] += 1
    misc[M_MOST_TRIES] = max(misc[M_MOST_TRIES], tries)
    passes = pub[K.PUB_PASSES]
    for h in range(p):
        if misc[M_START + h] >= 0:
            out[O_HANDS + (h + passes) % p] = misc[M_CONTENT + h]


@hot
def _draw_masked(scr, rng):
    """The masked pairs' cards, batch by batch: by the batch's joint walk, or
    each alone, failing if two take the same card; ``M_TAKEN``: the cards taken."""
    pairs, cls, misc, pools, kept, cum, masked, jt = scr[1], scr[2], scr[3], scr[6], scr[7], scr[8], scr[11], \
        scr[12]
    meta = jt[5]
    taken = np.int64(0)
    for b in range(misc[M_BATCH] + 1):
        n_masked = masked[b, 0]
        if n_masked >= 2 and meta[b, J_USED] != 0:
            taken |= joint_draw_nb(b, pools[b], masked[b, 1:], n_masked, pairs, cls, P_K0, P_K1, jt, rng)
            continue
        for i in range(n_masked):
            q = masked[b, 1 + i]
            pr = pairs[q]
            pr[P_K0], pr[P_K1] = sample_state_nb(cum, kept, pr[P_OFF], pr[P_LEN], rng)
            got = fill_nb(pr[P_K0], pr[P_K1], pr[P_NCLS], cls[q], pools[b], rng)
            if got & taken != 0:
                return False
            taken |= got
    misc[M_TAKEN] = taken
    return True


@hot_flat
def _shuffled(cards_set, cards, rng):
    """The cards of a set into ``cards``, in card order, then shuffled: how many."""
    m = 0
    x = cards_set
    while x != 0:
        cards[m] = lowest_bit_nb(x)
        x &= x - 1
        m += 1
    for i in range(m - 1, 0, -1):
        j = below_nb(rng, 0, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    return m


@hot
def _pending_holds(out, seat, rng, scr):
    """Whether the drawn hands fit another seat's pending decision (it holds
    a match, or a bonus card besides the turn's penalty cards, which are
    drawn here among the cards of the class that drew them), and its
    options and penalty cards in ``out``."""
    pairs, cls, misc = scr[1], scr[2], scr[3]
    ctrl = out[O_CTRL:O_CTRL + N_CTRL]
    pub = out[O_PUB:O_PUB + K.N_PUB]
    p = ctrl[C_PLAYERS]
    d = ctrl[C_DECIDER]
    if d == seat or d < 0:
        return True
    obj = (d - pub[K.PUB_PASSES] % p + p) % p
    hand = misc[M_CONTENT + obj]
    match = MATCHING[pub[K.PUB_TOP]]
    kind = ctrl[C_KIND]
    if kind == K.D_DRAWN:
        for q in range(misc[M_PAIRS]):
            if pairs[q, P_OBJ] == obj:
                for c in range(pairs[q, P_NCLS]):
                    if cls[q, c, F_SPECIAL] != 0:
                        ctrl[C_OPTIONS] = cls[q, c, F_FILL]
        return True
    penalty = np.int64(0)
    if kind == K.D_BONUS:
        for q in range(misc[M_PAIRS]):
            if pairs[q, P_OBJ] != obj:
                continue
            drawn = 0                        # the turn's penalty draws of this batch
            i = ctrl[C_TURN_LOG]
            while i < ctrl[C_N_LOG]:
                w = out[O_LOG + i]
                if w & 7 == EV_DRAW and ev_obj(w) == obj and ev_batch(w) == pairs[q, P_BATCH]:
                    drawn += 1
                i += 1 + (p if w & 7 == EV_PASS else (1 if w & 7 == EV_RESHUFFLE else 0))
            if drawn == 0:
                continue
            in_class = cls[q, pairs[q, P_OPEN], F_FILL] if pairs[q, P_OPEN] >= 0 else 0
            if bit_count_nb(in_class) < drawn:
                misc[M_ERRORS] += 1
                return True
            for _ in range(drawn):
                bit = uniform_card_nb(in_class, rng)
                penalty |= bit
                in_class &= ~bit
        ctrl[C_PENALTY] = penalty
    options = hand & match & ~penalty
    ctrl[C_OPTIONS] = options
    return options != 0
