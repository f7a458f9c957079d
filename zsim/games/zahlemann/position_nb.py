"""Zahlemann's forward-model position: its layout, its views, the round's
log of what the table saw, and what each seat sees of it (``view_nb``);
``forward_nb.py`` plays it, ``determinize_nb.py`` reads the log back.

A position is one int64 array laid out for four seats; ``views_nb`` hands
out the arrays the batch engine keeps (``engine_nb.new_workspace``), so the
engine's pieces and the bots run on it unchanged:

==========  ============================================================
words       meaning
==========  ============================================================
O_HANDS     hands [P], then passed [P] (as the engine keeps them)
O_DISCARDS  the discard pile [36], bottom first
O_PILE      the draw pile [36] (top last), then a shuffle's draws [36]
O_MONEY     money [P, 7]; then ``pub``; then the streams (uint64 [6])
O_BATCH     per card: the round's batch it last entered a draw pile in
            (0: the round's deal; b: the b-th reshuffle of the round)
O_CTRL      where the game stands (``C_*``)
O_SEAT_OUT  the batch engine's seat and game rows, kept as it keeps them
O_LOG       the round's log (below), ``C_N_LOG`` words
==========  ============================================================

The log holds, for the round so far, every public event that tells
something about a hidden hand, by *hand object*: the hand dealt to seat
``h`` is object ``h``, and a pass (``two_passes_hands``) moves every object
one seat on, so seat ``s`` holds object ``(s - passes) mod P``. One word an
event (type, object, card, batch, a count):

* ``SNAP``: ``count`` hidden cards of ``batch`` in the object (the deal, or
  the log's restart when it filled up);
* ``DRAW``: one hidden card of ``batch`` drawn into it;
* ``NOMATCH``: its holder had no card matching ``card`` (the top) and drew;
* ``PLAY``: ``card`` (of ``batch``) played from it; ``count`` of the
  object's newest cards of that batch are penalty cards of this turn, which
  a bonus play may not be;
* ``PASS``, then one word a seat: the hand that seat passed on (each known to
  its passer and its receiver only);
* ``RESHUFFLE``, then a word: the cards shuffled into the new draw pile.

A drawn card played at once is public and cancels its ``DRAW``; a drawn
card kept, and a bonus play declined, leave no trace (others cannot tell
them from a card that did not match, or from no bonus card). The log of the
bots' longest rounds (about 440 turns) took under 800 of its ``LOG_WORDS``;
a round that would outgrow it starts it again (``restart_log_nb``).
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann import constants as K
from zsim.jit import bit_count_nb, grid_nb, hot, hot_flat, hot_inline, recast_nb

MP = K.MAX_PLAYERS
NC = K.N_CARDS
O_HANDS = 0
O_PASSED = O_HANDS + MP
O_DISCARDS = O_PASSED + MP
O_PILE = O_DISCARDS + NC
O_MONEY = O_PILE + 2 * NC
O_PUB = O_MONEY + MP * K.M_COLUMNS
O_RNG = O_PUB + K.N_PUB
O_BATCH = O_RNG + K.N_STREAMS
O_CTRL = O_BATCH + NC
(C_PLAYERS, C_DECIDER, C_KIND, C_OPTIONS, C_PENALTY, C_ROUNDS, C_STARTER, C_REASON, C_N_LOG, C_TURN_LOG,
 C_RESH0, C_PASSES0, C_RESTARTS) = range(13)
N_CTRL = 13
O_SEAT_OUT = O_CTRL + N_CTRL
O_GAME_OUT = O_SEAT_OUT + MP * K.N_SEAT_STATS
O_LOG = O_GAME_OUT + K.N_GAME_STATS
#: the log's words: rounds of the bots' games used at most a few hundred
LOG_WORDS = 1536
#: room kept for one turn's events: a full log restarts before a turn
TURN_WORDS = 128
SIZE = O_LOG + LOG_WORDS

EV_SNAP, EV_DRAW, EV_NOMATCH, EV_PLAY, EV_PASS, EV_RESHUFFLE = 1, 2, 3, 4, 5, 6
MATCHING = np.array(K.MATCHING, np.int64)


# ------------------------------------------------------------------ events
@hot_inline
def event_nb(kind, obj, card, batch, count):
    return kind | (obj << 3) | (card << 5) | (batch << 11) | (count << 27)


@hot_inline
def ev_kind(w):
    return w & 7


@hot_inline
def ev_obj(w):
    return (w >> 3) & 3


@hot_inline
def ev_card(w):
    return (w >> 5) & 63


@hot_inline
def ev_batch(w):
    return (w >> 11) & 0xFFFF


@hot_inline
def ev_count(w):
    return (w >> 27) & 0xFF


@hot_inline
def ev_words(w, n_players):
    """The words event ``w`` takes in the log."""
    k = w & 7
    if k == EV_PASS:
        return 1 + n_players
    if k == EV_RESHUFFLE:
        return 2
    return 1


# ------------------------------------------------------------------ views
@hot_inline
def views_nb(pos):
    """The engine's arrays: hands, passed, discards, pile, money, pub, rng."""
    p = pos[O_CTRL + C_PLAYERS]
    return (pos[O_HANDS:O_HANDS + p], pos[O_PASSED:O_PASSED + p], pos[O_DISCARDS:O_DISCARDS + NC],
            pos[O_PILE:O_PILE + 2 * NC], grid_nb(pos, O_MONEY, p, K.M_COLUMNS), pos[O_PUB:O_PUB + K.N_PUB],
            recast_nb(pos, O_RNG, 1, K.N_STREAMS, np.uint64(0))[0])


@hot_inline
def outs_nb(pos):
    p = pos[O_CTRL + C_PLAYERS]
    return grid_nb(pos, O_SEAT_OUT, p, K.N_SEAT_STATS), pos[O_GAME_OUT:O_GAME_OUT + K.N_GAME_STATS]


@hot_inline
def ctrl_nb(pos):
    return pos[O_CTRL:O_CTRL + N_CTRL]


@hot_inline
def log_nb(pos):
    return pos[O_LOG:O_LOG + LOG_WORDS]


@hot_inline
def batch_nb(pos):
    return pos[O_BATCH:O_BATCH + NC]


@hot_inline
def obj_of_nb(seat, passes, n_players):
    """The hand object seat ``seat`` holds after ``passes`` passes."""
    if passes == 0:
        return seat
    return (seat - passes % n_players + n_players) % n_players


# ------------------------------------------------------------------ writing the log
@hot_flat
def push_nb(pos, word):
    ctrl = ctrl_nb(pos)
    pos[O_LOG + ctrl[C_N_LOG]] = word
    ctrl[C_N_LOG] += 1


@hot_flat
def new_round_log_nb(pos, hand_size):
    """The round's log: each object's dealt cards, hidden, of batch 0."""
    ctrl = ctrl_nb(pos)
    pub = pos[O_PUB:O_PUB + K.N_PUB]
    for c in range(NC):
        pos[O_BATCH + c] = 0
    ctrl[C_N_LOG] = 0
    ctrl[C_RESH0] = pub[K.PUB_RESHUFFLES]
    ctrl[C_PASSES0] = 0
    for h in range(ctrl[C_PLAYERS]):
        push_nb(pos, event_nb(EV_SNAP, h, 0, 0, hand_size))


@hot_flat
def restart_log_nb(pos):
    """The log is nearly full (a very long round): start it again from each
    object's hidden cards by batch, forgetting what the moves proved and what
    each seat saw of a passed hand. Determinising stays consistent with every
    seat's view, no longer exact (``C_RESTARTS`` counts the restarts)."""
    ctrl = ctrl_nb(pos)
    pub = pos[O_PUB:O_PUB + K.N_PUB]
    n = ctrl[C_PLAYERS]
    ctrl[C_N_LOG] = 0
    ctrl[C_PASSES0] = pub[K.PUB_PASSES]
    ctrl[C_RESTARTS] += 1
    n_batches = pub[K.PUB_RESHUFFLES] - ctrl[C_RESH0] + 1
    for h in range(n):
        hand = pos[O_HANDS + (h + pub[K.PUB_PASSES]) % n]
        for b in range(n_batches):
            count = 0
            for c in range(NC):
                if (hand >> c) & 1 != 0 and pos[O_BATCH + c] == b:
                    count += 1
            if count > 0:
                push_nb(pos, event_nb(EV_SNAP, h, 0, b, count))
    ctrl[C_TURN_LOG] = ctrl[C_N_LOG]


@hot_flat
def seen_reshuffle_nb(pos, before, discarded, top):
    """After a draw: if it reshuffled (``before``: the reshuffles until then),
    the discards under the top (``discarded`` held them) form a new batch."""
    pub = pos[O_PUB:O_PUB + K.N_PUB]
    if pub[K.PUB_RESHUFFLES] == before:
        return
    ctrl = ctrl_nb(pos)
    batch = pub[K.PUB_RESHUFFLES] - ctrl[C_RESH0]
    moved = discarded & ~(np.int64(1) << top)
    for c in range(NC):
        if (moved >> c) & 1 != 0:
            pos[O_BATCH + c] = batch
    push_nb(pos, EV_RESHUFFLE)
    push_nb(pos, moved)


@hot_flat
def seen_draw_nb(pos, obj):
    """The card just drawn (the pile's old top) went into object ``obj``."""
    pub = pos[O_PUB:O_PUB + K.N_PUB]
    card = pos[O_PILE + pub[K.PUB_DRAW_SIZE]]
    push_nb(pos, event_nb(EV_DRAW, obj, 0, pos[O_BATCH + card], 0))


@hot_flat
def seen_pass_nb(pos):
    """Every hand moved one seat on: the hands passed, each seen by its passer and receiver."""
    n = pos[O_CTRL + C_PLAYERS]
    push_nb(pos, EV_PASS)
    for s in range(n):
        push_nb(pos, pos[O_PASSED + s])


@hot_flat
def penalty_count_nb(pos, penalty, batch):
    """The penalty cards of this turn (``penalty``) that are of ``batch``."""
    count = 0
    if penalty == 0:
        return count
    for c in range(NC):
        if (penalty >> c) & 1 != 0 and pos[O_BATCH + c] == batch:
            count += 1
    return count


@hot_flat
def log_room_nb(pos):
    """Restart the log before a turn if one turn's events might not fit."""
    if pos[O_CTRL + C_N_LOG] + TURN_WORDS > LOG_WORDS:
        _restart(pos)


@hot
def _restart(pos):
    restart_log_nb(pos)


# ------------------------------------------------------------------ what a seat sees
@hot
def view_nb(pos, seat, out):
    """The forward model's ``view_nb``: everything public (the control words,
    ``pub``, hand sizes, money, the rows, the discards, the batches, the log)
    and the seat's own: its hand, its ``passed``, its options and penalty
    cards, the passed hands it passed or received. Not: other hands, the
    draw pile's order, the streams, another seat's unnoticed slips."""
    ctrl = pos[O_CTRL:O_CTRL + N_CTRL]
    p = ctrl[C_PLAYERS]
    pub = pos[O_PUB:O_PUB + K.N_PUB]
    n = 0
    for i in range(N_CTRL):
        v = ctrl[i]
        if i == C_OPTIONS and ctrl[C_DECIDER] != seat:
            v = 0                        # another seat's options show its hand
        elif i == C_PENALTY and pub[K.PUB_CUR] != seat:
            v = bit_count_nb(v)          # another seat's penalty cards: how many
        out[n] = v
        n += 1
    for i in range(K.N_PUB):
        out[n] = pub[i]
        n += 1
    for s in range(p):
        hand = pos[O_HANDS + s]
        out[n] = hand if s == seat else bit_count_nb(hand)
        out[n + 1] = pos[O_PASSED + s] if s == seat else 0
        n += 2
        for c in range(K.M_COLUMNS):
            out[n] = pos[O_MONEY + s * K.M_COLUMNS + c]
            n += 1
        for c in range(K.N_SEAT_STATS):
            v = pos[O_SEAT_OUT + s * K.N_SEAT_STATS + c]
            out[n] = v if (s == seat or c != K.S_FORGOTTEN) else 0     # an unnoticed slip is nobody's
            n += 1
    for c in range(K.N_GAME_STATS):
        out[n] = pos[O_GAME_OUT + c]
        n += 1
    for i in range(pub[K.PUB_N_DISCARDS]):
        out[n] = pos[O_DISCARDS + i]
        n += 1
    for c in range(NC):
        out[n] = pos[O_BATCH + c]
        n += 1
    n = _view_log(pos, seat, out, n)
    return n


@hot_flat
def _view_log(pos, seat, out, n):
    """The log, each passed hand blanked unless the seat passed or received it."""
    ctrl = pos[O_CTRL:O_CTRL + N_CTRL]
    p = ctrl[C_PLAYERS]
    i = 0
    while i < ctrl[C_N_LOG]:
        w = pos[O_LOG + i]
        out[n] = w
        n += 1
        i += 1
        if w & 7 == EV_PASS:
            for s in range(p):
                out[n] = pos[O_LOG + i] if (s == seat or (s + 1) % p == seat) else 0
                n += 1
                i += 1
        elif w & 7 == EV_RESHUFFLE:
            out[n] = pos[O_LOG + i]
            n += 1
            i += 1
    return n
