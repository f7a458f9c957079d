"""What a seat of Wettstreit der Baumeister knows, for its forward model
(``forward_nb.py``): the seat's view (``view_nb``) and a position drawn from
everything the seat cannot tell apart (``determinize_nb``).

What a seat has seen of the cards is the engine's own ``known[seat]``
(RULES.md, "Decisions, knowledge, chance"): a card bought from the open
stack, built, shown when unsold or destroyed, or put under a stack is known
to all; a card from the hidden stack to its auctioneer and its buyer; the
open stack's top card is in sight of all. Every other card is *unseen*, and
lies in one of the places the seat can name without seeing it:

* a slot of the open stack below its top or of the hidden stack (each stack
  is the shuffle's unseen cards on top of the cards put under it, which all
  saw go there);
* the card on auction from the hidden stack, of the type announced if it was;
* a card another seat holds from a hidden auction, known to the card's
  buyer and auctioneer (the bits of ``known``), of the type announced at its
  sale (``ann``), bought for its price (``paid``), the last auction's card or
  not: all public.

The shuffle dealt every order alike, and every draw of chance since (a die,
the pick of a hand attack, 1 over the hand's public size) is as likely
whichever unseen card is where, so the posterior is uniform over the ways
of putting the unseen cards into those slots that meet what the table saw.
That is the announced types, and one thing a move can prove: a seat in the
middle of a build must still be able to place the cards its build lacks
(choosing to build, and each placement of a first build, was legal only
so). Bids, offers and the rest depend on public things alone, and every
other legal move is taken as possible.

``determinize_nb`` draws exactly that: each slot of an announced type gets
a card of that type drawn uniformly from the unseen ones left, the rest are
shuffled into the other slots (uniform over the assignments that meet the
types), and while another seat's build still lacks cards, a draw that leaves
its next placement without an option (the engine's own list,
``engine_nb.placements_nb``) is drawn again: rejection, so every assignment
that meets it stays equally likely. Over every decision of whole games (four
random bots, 300 games) 98% of such draws were kept; ``value`` at three
seats, 96%. The unseen cards are read as a set (ascending) and the slots in
an order named by public facts alone, so the draw is a function of the
seat's view and ``rng``; the position's streams are all drawn afresh.

What the position keeps for it: the engine's ``known`` (who has seen each
card), and per card the type announced at its sale and its price (``ann``,
``paid``, written when a card is sold), which travel with a hidden card when
the determinisation puts another card in its place; the game row's sales by
type are moved with them.
"""
from __future__ import annotations

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.engine_nb import actions_nb, placements_nb
from zsim.games.baumeister.position_nb import (C_DECIDER, C_FINAL, C_KIND, C_N, C_N_CARDS, C_PLACED, C_PLAYERS,
                                               N_CTRL, O_CTRL, const_views, opts_at, pos_ctrl, pos_marks, pos_outs,
                                               pos_views, ws_views)
from zsim.games.baumeister.rows_nb import hand_in_nb
from zsim.games.canonical_nb import sort_span_nb
from zsim.jit import hot, hot_flat
from zsim.rng import below_nb, draw_nb

# a hidden hand card's public description (_hand_code): who knows it, the type announced, last auction's, price
ANN_SHIFT, LAST_SHIFT, PAID_SHIFT = 4, 7, 8


@hot_flat
def _bits(known, c):
    """The seats that know card ``c``, as bits."""
    b = 0
    for t in range(known.shape[0]):
        b |= known[t, c] << t
    return b


@hot_flat
def _unseen(seat, c, known, pub):
    """Whether ``seat`` cannot tell where card ``c`` is (the open stack's top is in sight)."""
    return known[seat, c] == 0 and not (pub[K.PUB_SIZE_OPEN] > 0 and c == pub[K.PUB_OPEN_TOP])


@hot_flat
def _hand_code(c, known, pub, ann, paid):
    return (_bits(known, c) | (ann[c] << ANN_SHIFT) | (np.int64(c == pub[K.PUB_CARD]) << LAST_SHIFT)
            | (paid[c] << PAID_SHIFT))


@hot
def view_nb(pos, seat, out):
    ctrl = pos_ctrl(pos)
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    seat_out, game_out = pos_outs(pos)
    ann, paid, types = pos_marks(pos)
    players = ctrl[C_PLAYERS]
    n_cards = ctrl[C_N_CARDS]
    n = 0
    for i in range(N_CTRL):
        if i != C_N:                      # another seat's count of options may rest on its hand
            out[n] = ctrl[i]
            n += 1
    for i in range(K.N_PUB):
        v = pub[i]
        if i == K.PUB_CARD and v > 0 and _unseen(seat, v, known, pub):
            v = 0
        out[n] = v
        n += 1
    for t in range(players):
        for i in range(K.N_CITY):
            out[n] = city[t, i]
            n += 1
        for i in range(K.ST_CARDS):
            out[n] = st[t, i]
            n += 1
        for i in range(city[t, K.C_LEFT], city[t, K.C_RIGHT] + 1):
            out[n] = rows[t, i]
            n += 1
    for j in range(K.ST_CARDS, K.ST_CARDS + st[seat, K.ST_HAND]):
        out[n] = st[seat, j]
        n += 1
    for c in range(1, n_cards + 1):      # where each card is, as far as the seat can tell
        if _unseen(seat, c, known, pub):
            out[n] = -1
            n += 1
        else:
            out[n] = loc[c]
            out[n + 1] = _bits(known, c)
            out[n + 2] = ann[c]
            out[n + 3] = paid[c]
            n += 4
    for k in range(2):                   # the stacks, top first: each card the seat can name
        head = pub[K.PUB_HEAD_OPEN + k]
        for i in range(pub[K.PUB_SIZE_OPEN + k]):
            r = head + i - (n_cards if head + i >= n_cards else 0)
            c = stacks[k, r]
            out[n] = 0 if _unseen(seat, c, known, pub) else c
            n += 1
    for o in range(players):             # the others' hidden cards, as what is public of each
        if o == seat:
            continue
        first = n
        for j in range(K.ST_CARDS, K.ST_CARDS + st[o, K.ST_HAND]):
            c = st[o, j]
            if _unseen(seat, c, known, pub):
                out[n] = _hand_code(c, known, pub, ann, paid)
                n += 1
        sort_span_nb(out, first, n)
    for t in range(players):
        for i in range(K.N_SEAT_STATS):
            out[n] = seat_out[t, i]
            n += 1
    first = n
    for i in range(K.N_GAME_STATS):
        out[n] = game_out[i]
        n += 1
    for o in range(players):             # the sales by type, less the hidden cards' (the seat cannot count them)
        if o != seat:
            for j in range(K.ST_CARDS, K.ST_CARDS + st[o, K.ST_HAND]):
                c = st[o, j]
                if _unseen(seat, c, known, pub):
                    out[first + K.G_SOLD + types[c]] -= 1
                    out[first + K.G_PRICE + types[c]] -= paid[c]
    return n


# ------------------------------------------------------------------ a position drawn from the view
@hot_flat
def _below(rng, n):
    return np.int64(((draw_nb(rng, 0) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@hot_flat
def _slots(seat, n_cards, players, loc, known, st, pub, stacks, ann, paid, where, code, want):
    """The places of the unseen cards, in an order named by public facts (stack slots top
    first, the card on auction, each other seat's hidden cards by their public description):
    ``where`` (stack k, ring index r: k * N + r; 2N: on auction; 2N + 1 + o: seat o's hand),
    ``code`` (who knows it, and for a hand card what _hand_code says), ``want`` (the type it
    must be, -1 any). Clears the stacks' rings outside their cards. Returns their number."""
    ns = 0
    for k in range(2):
        head = pub[K.PUB_HEAD_OPEN + k]
        size = pub[K.PUB_SIZE_OPEN + k]
        for i in range(n_cards):
            r = head + i - (n_cards if head + i >= n_cards else 0)
            if i >= size:
                stacks[k, r] = 0             # a card that left: nothing reads it, nothing may show through
            elif _unseen(seat, stacks[k, r], known, pub):
                where[ns] = k * n_cards + r
                code[ns] = 0
                want[ns] = -1
                ns += 1
    card = pub[K.PUB_CARD]
    if card > 0 and loc[card] == K.L_AUCTION and _unseen(seat, card, known, pub):
        where[ns] = 2 * n_cards
        code[ns] = _bits(known, card)
        want[ns] = pub[K.PUB_ANNOUNCED]
        ns += 1
    for o in range(players):
        if o == seat:
            continue
        first = ns
        for j in range(K.ST_CARDS, K.ST_CARDS + st[o, K.ST_HAND]):
            c = st[o, j]
            if _unseen(seat, c, known, pub):
                code[ns] = _hand_code(c, known, pub, ann, paid)
                ns += 1
        sort_span_nb(code, first, ns)
        for j in range(first, ns):
            where[j] = 2 * n_cards + 1 + o
            want[j] = ((code[j] >> ANN_SHIFT) & 7) - 1
    return ns


@hot_flat
def _assign(rng, u, nu, want, ns, got, pool, types):
    """A uniform assignment of the unseen cards ``u[:nu]`` to the slots (``got[j]`` for slot j),
    each slot of a wanted type given one of that type."""
    for i in range(nu):
        pool[i] = u[i]
    m = nu
    for j in range(ns):
        t = want[j]
        if t < 0:
            continue
        count = 0
        for i in range(m):
            count += np.int64(types[pool[i]] == t)
        r = _below(rng, count)
        for i in range(m):
            if types[pool[i]] == t:
                if r == 0:
                    got[j] = pool[i]
                    pool[i] = pool[m - 1]
                    m -= 1
                    break
                r -= 1
    for i in range(m - 1, 0, -1):
        k = _below(rng, i + 1)
        pool[i], pool[k] = pool[k], pool[i]
    q = 0
    for j in range(ns):
        if want[j] < 0:
            got[j] = pool[q]
            q += 1


@hot_flat
def _place(seat, n_cards, players, ns, where, code, got, loc, known, st, pub, stacks, holds, ann, paid, types, st0,
           known0, hand):
    """The drawn cards into their slots: the stacks, the card on auction, the others' hands (their
    cards the seat knows, from ``st0``/``known0``, and the drawn ones, ascending), and what each
    card carries (who knows it, the type announced, the price)."""
    for j in range(ns):
        c = got[j]
        w = where[j]
        bits = code[j] & 15
        if w < 2 * n_cards:
            k = w // n_cards
            stacks[k, w - k * n_cards] = c
            loc[c] = K.L_OPEN + k
        elif w == 2 * n_cards:
            loc[c] = K.L_AUCTION
            pub[K.PUB_CARD] = c
        else:
            loc[c] = K.L_HAND + w - 2 * n_cards - 1
            if (code[j] >> LAST_SHIFT) & 1:
                pub[K.PUB_CARD] = c
        for t in range(players):
            known[t, c] = (bits >> t) & 1
        ann[c] = (code[j] >> ANN_SHIFT) & 7 if w > 2 * n_cards else 0
        paid[c] = code[j] >> PAID_SHIFT
    for o in range(players):
        if o == seat:
            continue
        h = 0
        for j in range(K.ST_CARDS, K.ST_CARDS + st0[o, K.ST_HAND]):
            c = st0[o, j]
            if known0[seat, c] != 0:
                hand[h] = c
                h += 1
        for j in range(ns):
            if where[j] == 2 * n_cards + 1 + o:
                hand[h] = got[j]
                h += 1
        sort_span_nb(hand, 0, h)
        held = 0
        for j in range(h):
            st[o, K.ST_CARDS + j] = hand[j]
            held += hand_in_nb(types[hand[j]])
        holds[o] = held


@hot
def determinize_nb(pos, seat, rng, out, consts, ws):
    rules, deck = const_views(consts)
    saved, fit, memo, partners, scratch, counts = ws_views(ws, deck.shape[0] - 1)
    head = opts_at(deck.shape[0] - 1)
    for i in range(head + pos[O_CTRL + C_N]):   # the state and the pending options (the scratch past them: cleared)
        out[i] = pos[i]
    ctrl = pos_ctrl(out)
    loc, known, rows, city, st, pub, opts, stacks, streams, holds = pos_views(out)
    seat_out, game_out = pos_outs(out)
    ann, paid, types = pos_marks(out)
    st0, known0 = pos_views(pos)[4], pos_views(pos)[1]
    players = ctrl[C_PLAYERS]
    n_cards = ctrl[C_N_CARDS]
    u, where, code, want, pool, got, hand = (scratch[0], scratch[1], scratch[2], scratch[3], scratch[4], scratch[5],
                                             scratch[6])
    nu = 0
    for c in range(1, n_cards + 1):     # the unseen cards, as a set; their sales leave the game row
        if _unseen(seat, c, known, pub):
            u[nu] = c
            nu += 1
            if K.L_HAND <= loc[c] < K.L_CITY:
                game_out[K.G_SOLD + types[c]] -= 1
                game_out[K.G_PRICE + types[c]] -= paid[c]
    ns = _slots(seat, n_cards, players, loc, known, st, pub, stacks, ann, paid, where, code, want)
    d = ctrl[C_DECIDER]
    building = d >= 0 and d != seat and ctrl[C_KIND] == K.D_PLACE
    owed = building and pub[K.PUB_NEED] > ctrl[C_PLACED]   # another seat's build still lacks cards
    while True:
        counts[0] += np.int64(owed)
        _assign(rng, u, nu, want, ns, got, pool, types)
        _place(seat, n_cards, players, ns, where, code, got, loc, known, st, pub, stacks, holds, ann, paid, types,
               st0, known0, hand)
        if not building:
            break
        # the build's next placements, as the engine lists them: none, where the hand drawn
        # cannot finish the build (the seat's moves so far would not have been legal)
        ctrl[C_N] = placements_nb(d, ctrl[C_FINAL], pub[K.PUB_NEED], ctrl[C_PLACED], -1, loc, rows, city, st, pub,
                                  deck, opts, saved, fit, memo, holds)
        if ctrl[C_N] > 0:
            break
    counts[1] += np.int64(owed)
    for j in range(ns):
        if where[j] > 2 * n_cards:
            game_out[K.G_SOLD + types[got[j]]] += 1
            game_out[K.G_PRICE + types[got[j]]] += paid[got[j]]
    if d >= 0 and d != seat and ctrl[C_KIND] == K.D_ACTION:   # step 3's options rest on the hand too
        ctrl[C_N] = actions_nb(d, ctrl[C_FINAL], loc, rows, city, st, deck, rules, opts, saved, fit, memo, holds)[0]
    for i in range(ctrl[C_N], opts.shape[0]):
        opts[i] = 0
    for i in range(streams.shape[0]):    # the future's chance and every seat's bot: unknown
        streams[i] = draw_nb(rng, 0)


# ------------------------------------------------------------------ the true position, redrawn
@hot_flat
def _unseen_by_all(c, known, pub):
    """Whether no seat can tell where card ``c`` is: none has seen it, and it is not the open stack's top."""
    return _bits(known, c) == 0 and not (pub[K.PUB_SIZE_OPEN] > 0 and c == pub[K.PUB_OPEN_TOP])


@hot
def redraw_nb(pos, rng, out, consts, ws):
    """The true position with what no seat has seen drawn afresh: the cards
    still face down in the open and the hidden stack that no seat has seen
    (read as a set, ascending, then shuffled into those same slots, each
    card's ``loc`` following it), and every stream (the die, the shuffle's
    and the table's chance, each seat's bot). Hands, cities, purses, the
    open stack's top, the card on auction, the cards put under a stack and
    the pending options stay as they are; at the end only the streams move."""
    for i in range(pos.shape[0]):
        out[i] = pos[i]
    ctrl = pos_ctrl(out)
    loc, known, rows, city, st, pub, opts, stacks, streams, holds = pos_views(out)
    if ctrl[C_DECIDER] >= 0:
        n_cards = ctrl[C_N_CARDS]
        scratch = ws_views(ws, n_cards)[4]
        cards, slots = scratch[0], scratch[1]
        ns = 0
        for k in range(2):                   # the stacks' slots, top first, that hold a card none has seen
            head = pub[K.PUB_HEAD_OPEN + k]
            for i in range(pub[K.PUB_SIZE_OPEN + k]):
                r = head + i - (n_cards if head + i >= n_cards else 0)
                c = stacks[k, r]
                if _unseen_by_all(c, known, pub):
                    slots[ns] = k * n_cards + r
                    cards[ns] = c
                    ns += 1
        sort_span_nb(cards, 0, ns)           # the cards as a set
        for i in range(ns - 1, 0, -1):
            j = below_nb(rng, 0, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        for j in range(ns):
            k = slots[j] // n_cards
            stacks[k, slots[j] - k * n_cards] = cards[j]
            loc[cards[j]] = K.L_OPEN + k
    for i in range(streams.shape[0]):        # the future's chance and every seat's bot
        streams[i] = draw_nb(rng, 0)
