"""The fast Baumeister engine's table: the one strategy dispatch with its check
of every answer, the die, and the two stacks (see engine_nb.py for the arrays)."""
from __future__ import annotations

from numba.extending import overload

from zsim.games.baumeister import constants as K
from zsim.jit import cold, grid_nb, hot, hot_flat, hot_inline, index_nb, seat_after_nb
from zsim.rng import below_nb
from zsim.roster import RosterType, called_part_nb, in_inline_part_nb, inline_part_nb, roster_parts
from zsim.dispatch import dispatcher

# strategy dispatch: compiled for each roster of strategies (see zsim.roster)
decide_nb = dispatcher("baumeister").decide_nb


# ------------------------------------------------------------------ the table's memory
@hot_inline
def views_nb(mem, players, n_cards):
    """The game's arrays a strategy reads, as views of the one buffer ``mem``
    (see :func:`mem_size`): loc, known, rows, city, st, pub, opts."""
    a = n_cards + 1
    loc = grid_nb(mem, 0, 1, a)[0]
    b = a + players * (n_cards + 1)
    known = grid_nb(mem, a, players, n_cards + 1)
    a = b + players * K.W
    rows = grid_nb(mem, b, players, K.W)
    b = a + players * K.N_CITY
    city = grid_nb(mem, a, players, K.N_CITY)
    a = b + players * K.N_ST
    st = grid_nb(mem, b, players, K.N_ST)
    b = a + K.N_PUB
    pub = grid_nb(mem, a, 1, K.N_PUB)[0]
    opts = grid_nb(mem, b, 1, K.MAX_OPTS)[0]
    return loc, known, rows, city, st, pub, opts


@hot_inline
def mem_size(players, n_cards):
    return (n_cards + 1) * (players + 1) + players * (K.W + K.N_CITY + K.N_ST) + K.N_PUB + K.MAX_OPTS


# ------------------------------------------------------------------ asking
def ask_nb(seat, kind, n, roster, ids, params, mem, deck, rules, rng):
    """The seat's answer to a decision with ``n`` options (an amount's low and
    high in opts[0], opts[1]); -1, with PUB_ILLEGAL set, for an answer outside them.

    Compiled for the roster (:func:`_ask_for`). A roster of both kinds copies
    the strategies whose modules say ``INLINE = True`` (``first``, ``random``:
    a decision of a few instructions) into every site that asks, and asks the
    rest through :func:`ask_called_nb`, one kernel holding the dispatch over
    them alone: with the heuristic bots in the same kernel, each of ``first``'s
    decisions paid for their size, 0.58x the speed of ``first``'s own kernel
    (docs/performance.md, eleventh round). A roster of one kind is asked
    through :func:`ask_called_nb` alone, which LLVM copies in itself when it
    holds small bots only."""
    raise TypeError("ask_nb is compiled for a roster: call it inside a numba kernel")


@overload(ask_nb, inline="always")
def _ask_for(seat, kind, n, roster, ids, params, mem, deck, rules, rng):
    if not isinstance(roster, RosterType):
        return None
    inline, called = roster_parts(roster)
    if inline is None or called is None:
        return lambda seat, kind, n, roster, ids, params, mem, deck, rules, rng: ask_called_nb(
            seat, kind, n, roster, ids, params, mem, deck, rules, rng)
    return lambda seat, kind, n, roster, ids, params, mem, deck, rules, rng: ask_split_nb(
        seat, kind, n, roster, ids, params, mem, deck, rules, rng)


@hot_flat
def answer_nb(seat, kind, n, roster, sid, ids, params, mem, deck, rules, rng):
    """Strategy ``sid``'s answer for ``seat`` (one of ``roster``), checked: -1, with
    PUB_ILLEGAL set, for an answer outside the options. Copied in where it is asked."""
    loc, known, rows, city, st, pub, opts = views_nb(mem, ids.shape[0], deck.shape[0] - 1)
    answer = decide_nb(roster, sid, seat, kind, opts, n, params[seat], loc, known, rows, city, st, pub, deck,
                       rules, rng)
    if kind == K.D_OPEN or kind == K.D_BID or kind == K.D_OFFER:
        ok = opts[0] <= answer <= opts[1] or (answer == 0 and kind != K.D_OPEN)
    else:
        ok = 0 <= answer < n
    if not ok:
        pub[K.PUB_ILLEGAL] = 1 + seat
        return -1
    return answer


@hot
def ask_called_nb(seat, kind, n, roster, ids, params, mem, deck, rules, rng):
    """A decision asked through a call: the dispatch over ``roster`` copied into
    this one kernel. The game's arrays come as the one buffer they are views of:
    a call passes every array as its pointer, shape and strides, and a dozen
    arrays made each of a game's ~180 decisions push about a hundred words
    (docs/performance.md)."""
    seat = index_nb(seat)
    return answer_nb(seat, kind, n, roster, ids[seat], ids, params, mem, deck, rules, rng)


@hot_flat
def ask_split_nb(seat, kind, n, roster, ids, params, mem, deck, rules, rng):
    """A decision of a roster of both kinds: an inline strategy's in the site that
    asks it, any other's through :func:`ask_called_nb` over the called ones alone."""
    seat = index_nb(seat)
    sid = ids[seat]
    if in_inline_part_nb(roster, sid):
        return answer_nb(seat, kind, n, inline_part_nb(roster), sid, ids, params, mem, deck, rules, rng)
    return ask_called_nb(seat, kind, n, called_part_nb(roster), ids, params, mem, deck, rules, rng)


@hot
def roll_nb(rng):
    """One die roll of the table's stream: 1..5, or SAB_FACE."""
    d = below_nb(rng, K.TABLE_STREAM, 6)
    return K.SAB_FACE if d == 5 else d + 1


# ------------------------------------------------------------------ stacks
@hot_flat
def column_set_nb(a, j, value):
    """``a[t, j] = value`` for every seat ``t`` of a seat-by-row array (``known``,
    ``st``; a table seats 2 to 4), one store a seat. Not ``a[:, j] = value`` nor a
    loop over the seats: LLVM made either a vector loop behind a check of the trip
    count, some 30 instructions for two to four stores, at every auction, card built
    and card put under (docs/performance.md, sixteenth round)."""
    j = index_nb(j)
    players = a.shape[0]
    a[0, j] = value
    a[1, j] = value
    if players > 2:
        a[2, j] = value
        if players > 3:
            a[3, j] = value


@hot_flat
def under_stack_nb(pub):
    """The stack a card put under goes to: the smaller one, or -1 when both are
    as large (then a seat picks, :func:`under_options_nb`)."""
    a, b = pub[K.PUB_SIZE_OPEN], pub[K.PUB_SIZE_HIDDEN]
    if a < b:
        return K.STACK_OPEN
    if b < a:
        return K.STACK_HIDDEN
    return -1


@hot_flat
def under_options_nb(opts):
    """The choice of stack on equal sizes, into opts; their number."""
    opts[0] = K.STACK_OPEN
    opts[1] = K.STACK_HIDDEN
    return 2


@hot_flat
def put_under_at_nb(card, k, loc, known, pub, stacks):
    """The card goes under stack ``k`` and is shown to all."""
    n = pub[K.PUB_N]
    size = pub[K.PUB_SIZE_OPEN + k]
    at = pub[K.PUB_HEAD_OPEN + k] + size      # head < n and size < n: one turn of the ring at most
    stacks[k, at - n if at >= n else at] = card
    pub[K.PUB_SIZE_OPEN + k] = size + 1
    if k == K.STACK_OPEN and size == 0:
        pub[K.PUB_OPEN_TOP] = card
    column_set_nb(known, card, 1)
    loc[card] = K.L_OPEN + k


@hot_inline
def put_under_nb(card, chooser, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks):
    """The card goes under the smaller stack (``chooser`` picks on equal sizes)
    and is shown to all; returns the stack, or -1 on an illegal choice."""
    k = under_stack_nb(pub)
    if k < 0:
        i = ask_nb(chooser, K.D_UNDER, under_options_nb(opts), roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return -1
        k = opts[i]
    put_under_at_nb(card, k, loc, known, pub, stacks)
    return k


@hot
def pop_top_nb(k, pub, stacks):
    """Take the top card of stack ``k``. (The ring's next slot by a comparison: ``%``
    is a division, tens of cycles, twice for each of a game's auctions.)"""
    head = pub[K.PUB_HEAD_OPEN + k]
    card = stacks[k, head]
    head = seat_after_nb(head, pub[K.PUB_N])
    pub[K.PUB_HEAD_OPEN + k] = head
    pub[K.PUB_SIZE_OPEN + k] -= 1
    if k == K.STACK_OPEN:
        pub[K.PUB_OPEN_TOP] = stacks[k, head] if pub[K.PUB_SIZE_OPEN] > 0 else 0
    return card


@cold
def decide_one_nb(roster, sid, seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    """One strategy decision outside a game (the reference engine's KernelDecider)."""
    return decide_nb(roster, sid, seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng)
