"""The layout of a Baumeister forward-model position (``forward_nb.py``) and
the views that make the engine's arrays of it.

A position is one int64 array: a fixed part laid out for four seats, then
tails sized by the deck's N cards (``O_LOC`` on):

==========  ==========================================================
words       meaning
==========  ==========================================================
O_CTRL      where the game stands (``C_*``): the pending decision, its
            ``C_N`` options, and what its answer continues (the bidder,
            the build so far, the card to go under...)
O_PUB       the engine's public scalars (``constants.PUB_*``)
O_RNG       the game's six streams (uint64): the shuffle, one per seat,
            the table's
O_SEAT_OUT  the batch engine's seat and game rows, kept as it keeps them
O_CITY..    each city's ends and counts, each hand's count of each type
            (``holds``), the seats' ``st`` rows (hand lists), their rows
loc, known  each card's place, and which seats know it [4, N + 1]
ann, paid   per card: 1 + the type announced when it was last sold (0:
            none) and the price it was last sold for: public facts that
            a determinisation carries with a hidden card
types       per card: its type (the deck's, for ``view_nb``)
stacks      the open and the hidden stack as rings [2, N]
opts        the pending decision's options as the engine lists them for
            its bots (an amount's low and high for an opening, a bid, an
            offer); past them, scratch (the deal's shuffle, older lists)
==========  ==========================================================

The constants (the rules, the deck) and a thread's workspace are one int64
array each as well (``const_views``, ``ws_views``): the model is called at
every decision, and each array a call passes costs some seven words.
"""
from __future__ import annotations

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.jit import grid_nb, hot_inline, recast_nb

MP = 4


@hot_inline
def span_nb(mem, start, n):
    """``mem[start:start + n]`` built without a slice's clamping of its ends to the array
    (a few compares and branches each, for a dozen views at every decision)."""
    return grid_nb(mem, start, 1, n)[0]

(C_PLAYERS, C_N_CARDS, C_DECIDER, C_KIND, C_N, C_SEAT, C_FINAL, C_LEFT, C_REASON, C_AT, C_ANNOUNCE, C_ACTIVE,
 C_ATTACK, C_UNDER_CARD, C_UNDER_AFTER, C_PLACED, N_CTRL) = range(17)
O_CTRL = 0
O_PUB = O_CTRL + N_CTRL
O_RNG = O_PUB + K.N_PUB
O_SEAT_OUT = O_RNG + K.N_STREAMS
O_GAME_OUT = O_SEAT_OUT + MP * K.N_SEAT_STATS
O_CITY = O_GAME_OUT + K.N_GAME_STATS
O_HOLDS = O_CITY + MP * K.N_CITY
O_ST = O_HOLDS + MP
O_ROWS = O_ST + MP * K.N_ST
O_LOC = O_ROWS + MP * K.W          # then known, ann, paid, types, stacks, opts: sized by N


def _opts_words(n_cards: int) -> int:
    # a build's placements: at most every card of a hand at every spot of a row (W), and a stop;
    # the shuffle's N cards; an amount's two words
    return n_cards * K.W + 8


def size_for(n_cards: int) -> int:
    return opts_at.py_func(n_cards) + _opts_words(n_cards)


@hot_inline
def opts_at(n_cards):
    """Where the ``opts`` tail starts: everything before it is the game's state; in it,
    only the pending decision's ``C_N`` options mean anything."""
    return O_LOC + (n_cards + 1) * (4 + MP) + 2 * n_cards


# ------------------------------------------------------------------ views
@hot_inline
def pos_views(pos):
    """The engine's arrays: loc, known, rows, city, st, pub, opts, stacks, rng, holds."""
    p = pos[O_CTRL + C_PLAYERS]
    n = pos[O_CTRL + C_N_CARDS]
    o_known = O_LOC + n + 1
    o_stacks = o_known + (MP + 3) * (n + 1)
    return (span_nb(pos, O_LOC, n + 1), grid_nb(pos, o_known, p, n + 1), grid_nb(pos, O_ROWS, p, K.W),
            grid_nb(pos, O_CITY, p, K.N_CITY), grid_nb(pos, O_ST, p, K.N_ST), span_nb(pos, O_PUB, K.N_PUB),
            span_nb(pos, o_stacks + 2 * n, pos.shape[0] - o_stacks - 2 * n), grid_nb(pos, o_stacks, 2, n),
            recast_nb(pos, O_RNG, 1, K.N_STREAMS, np.uint64(0))[0], span_nb(pos, O_HOLDS, p))


@hot_inline
def pos_marks(pos):
    """(ann, paid, types): per card, 1 + the type announced at its last sale, its price, its type."""
    n = pos[O_CTRL + C_N_CARDS]
    o_ann = O_LOC + (MP + 1) * (n + 1)
    return span_nb(pos, o_ann, n + 1), span_nb(pos, o_ann + n + 1, n + 1), span_nb(pos, o_ann + 2 * (n + 1), n + 1)


@hot_inline
def pos_outs(pos):
    p = pos[O_CTRL + C_PLAYERS]
    return grid_nb(pos, O_SEAT_OUT, p, K.N_SEAT_STATS), span_nb(pos, O_GAME_OUT, K.N_GAME_STATS)


@hot_inline
def pos_ctrl(pos):
    return span_nb(pos, O_CTRL, N_CTRL)


# ------------------------------------------------------------------ the constants and the workspace
# each one int64 array in a tuple: a call passes an array as some seven words, and the model is
# called at every decision (as tuples of two and six arrays the stepped games were measurably slower)
def consts_array(rules_a, deck_a):
    """The rules' array, then the deck [N + 1, N_DECK], in one array (see :func:`const_views`)."""
    return np.concatenate([rules_a, deck_a.ravel()]).astype(np.int64)


@hot_inline
def const_views(consts):
    """(rules, deck) of the forward model's ``consts``."""
    c = consts[0]
    return span_nb(c, 0, K.N_RULES), grid_nb(c, K.N_RULES, (c.shape[0] - K.N_RULES) // K.N_DECK, K.N_DECK)


W_SAVED = 0
W_FIT = W_SAVED + (K.MAX_BUILD + 2) * K.N_CITY
W_MEMO = W_FIT + (K.MAX_BUILD + 2) * K.W
W_COUNTS = W_MEMO + K.MEMO_SIZE // 8
W_PARTNERS = W_COUNTS + 2
SCRATCH_ROWS = 8


def workspace_words(n_cards: int) -> int:
    return W_PARTNERS + (n_cards + 1) // 2 + SCRATCH_ROWS * (n_cards + 2)


@hot_inline
def ws_views(ws, n_cards):
    """(saved, fit, memo, partners, scratch, counts) of the forward model's workspace: the build
    search's scratch rows and first builds' answers as the engine keeps them, the shuffle's draws,
    a determinisation's scratch rows [8, N + 2] and its counts of draws and accepted draws."""
    w = ws[0]
    o_scratch = W_PARTNERS + (n_cards + 1) // 2
    return (grid_nb(w, W_SAVED, K.MAX_BUILD + 2, K.N_CITY), grid_nb(w, W_FIT, K.MAX_BUILD + 2, K.W),
            recast_nb(w, W_MEMO, 1, K.MEMO_SIZE, np.int8(0))[0], recast_nb(w, W_PARTNERS, 1, n_cards, np.uint32(0))[0],
            grid_nb(w, o_scratch, SCRATCH_ROWS, n_cards + 2), span_nb(w, W_COUNTS, 2))
