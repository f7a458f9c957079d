"""The fast Wettstreit der Baumeister engine: numba kernels over flat integer arrays.

One call of :func:`play_games_nb` plays a block of games, each from the
shuffle to the places, into preallocated outputs. It is written from docs/rules.md
(Baumeister part) and shares no rule code with the reference engine
(``reference.py``, ``city.py``); tests hold the two equal game by game, and
the chance layout is the one fixed in ``reference.py``'s docstring. Every
slot is named in ``constants.py``:

=======  ==========  ====================================================
array    shape       meaning
=======  ==========  ====================================================
loc      [N + 1]     where each card is: a stack, the auction, a hand, a city
known    [P, N + 1]  1 where a seat knows the card (public cards for all)
rows     [P, W]      each city's row: rows[s, OFF + pos] = card, 0 empty
city     [P, 9]      each row's ends, size, closing corners, shields, coins...
st       [P, N_ST]   purse, saboteurs, first build made, hand size, last bid, in the auction,
                     then the hand's cards ascending
pub      [N_PUB]     the table's public scalars
stacks   [2, N]      the open and the hidden stack as rings (pub: head, size)
opts     [MAX_OPTS]  the options of the decision being asked
rng      [6] uint64  streams: 0 the shuffle, 1 + seat strategies, 5 the table
mem      one int64   loc, known, rows, city, st, pub and opts are views of it
         buffer      (``table_nb.views_nb``); a decision is passed ``mem`` alone
holds    [P]         each hand's count of each type, 8 bits a type (the engine's
                     own, kept as cards come and go: step 3 asks it, not the hand)
=======  ==========  ====================================================

Every decision goes through ``table_nb.ask_nb``, which refuses an answer
outside the options: the game then stops with ``game_out[G_ILLEGAL] = 1 +
seat``. It copies the roster's small strategies (``INLINE = True``) into the
site that asks and calls one kernel holding the dispatch over the rest. The
rows and scoring are in ``rows_nb.py``, the attacks in ``sabotage_nb.py``;
this module plays the turns: income, the auction, step 3 and the final
round. Each step is cut at its decisions into ``hot_flat`` pieces (the
income roll, step 3's options, a build's placements, a placement, the deal,
the turn's end, the game's rows; the auction's and the attacks' in their
modules): the engine asks between them in its loops, and the forward model
(``forward_nb.py``) calls the same pieces one decision at a time.

Every kernel that asks a decision (income, the auction, step 3, the build,
an unsold card) is ``hot_flat``: typed once and copied by LLVM into its one
caller. They were ``hot_inline`` (copied into the game kernel's numba
IR and typed there again), which made the game kernel itself most of a
cold start; as ``hot_flat`` a first ``zsim simulate`` compiles about two
seconds sooner, at the same speed, for every strategy's kernel too
(docs/performance.md). The attacks (``sabotage_nb``) stay inlined into
step 3: as kernels of their own they compiled no faster; the target counts
they and step 3 ask for, and the final scoring, are ``hot_flat`` too, since
each call passed its arrays for a loop over a few seats or cells (1.035x at
two players, 1.060x at four). The dispatch over the other strategies stays
one compiled kernel (``table_nb.ask_called_nb``): with every bot in the
kernel, inlining it into its dozen call sites made the games 1.3x faster but
the compile five times longer, and with a roster of ``first`` alone, copying
it in by LLVM gains 1.01x to 1.02x (docs/performance.md, tenth round). Only
the small bots are copied in where the roster also holds the others, since
the called kernel's size then cost each of their decisions (eleventh round).

The kernel is compiled for a table size (``Roster.for_seats``, as Zahltag's):
``play_games_nb`` reads the number of players with ``seats_nb``, a constant in
the machine code, and makes the table's views with it, so each kernel's
``st.shape[0]`` (what it reads for the seats, instead of ``pub[PUB_PLAYERS]``)
is that constant and its loops over the seats are unrolled (docs/performance.md,
sixteenth round). The kernel of every strategy (``ZSIM_ROSTER=all``) stays for
any number, and so does one for bots of both kinds, copied in and called
(``batch.play_into``: its mixed field measured slower for a table size).

The build search asks each spot once which types it takes
(``rows_nb.spots_nb``: the open ends and the gaps, each with a bitmask of
types) instead of asking the rules once per card and position. Step 3's
check whether one card can be built is the walk the first placement needs,
so the build takes that list instead of walking the row again. ``spots_nb``
is ``hot_flat``: typed once, and copied by LLVM into each of its callers, so
a walk pushes no arguments (see ``zsim.jit``).
"""
from __future__ import annotations

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.auction_nb import auction_nb
from zsim.games.baumeister.rows_nb import can_place_nb, hand_drop_nb, place_nb, score_nb, spots_nb, unplace_nb
from zsim.games.baumeister.sabotage_nb import (any_building_target_nb, any_hand_target_nb, attack_building_nb,
                                               attack_hand_nb)
from zsim.games.baumeister.table_nb import ask_nb, column_set_nb, mem_size, roll_nb, views_nb
from zsim.jit import cols_nb, hot, hot_flat, index_nb, seat_after_nb
from zsim.rng import game_key_nb, seed_streams_nb, shuffle_nb
from zsim.roster import seats_nb


def new_workspace(n_players, n_cards, log):
    """One thread's scratch arrays, reused game after game: ``mem``, the buffer whose
    views (``views_nb``) are the state a strategy reads, then the engine's own.
    ``log``: keep each card's sales in ``sold`` (the per-card log); without it
    ``sold`` has no rows and a game writes nothing there. Made by numpy, not in a
    kernel: the batch kernel takes them (``zsim.blocks.play_in_blocks``'s
    ``workspace``), and a kernel that made them compiled an allocation for each
    array's type, about a second of a cold start (docs/performance.md,
    seventeenth round)."""
    mem = np.zeros(mem_size.py_func(n_players, n_cards), np.int64)
    stacks = np.zeros((2, n_cards), np.int64)
    rng = np.zeros(K.N_STREAMS, np.uint64)
    saved = np.zeros((K.MAX_BUILD + 2, K.N_CITY), np.int64)
    sold = np.zeros((n_cards + 1 if log else 0, K.N_SOLD), np.int64)
    fit = np.zeros((K.MAX_BUILD + 2, K.W), np.int64)
    memo = np.zeros(K.MEMO_SIZE, np.int8)    # kept from game to game: the rules and the deck hold for a run
    partners = np.zeros(n_cards, np.uint32)  # the shuffle's draws
    holds = np.zeros(n_players, np.int64)    # each hand's count of each type (``hand_in_nb``)
    return mem, stacks, rng, saved, sold, fit, memo, partners, holds


# ------------------------------------------------------------------ 1. income
# Each step is cut at its decisions into pieces that the batch engine's loop asks
# between and the forward model (forward_nb.py) calls one decision at a time.
@hot_flat
def income_roll_nb(s, city, st, pub, opts, rng, seat_out):
    """The income roll and its Thaler; on S a saboteur from the reserve. Returns the
    number of rivals listed in opts to take one from (the reserve being empty), 0 if none."""
    s = index_nb(s)                  # each kernel tells LLVM again: a seat passed in is not known to be >= 0
    face = roll_nb(rng)
    gain = city[s, K.C_COINS] + (0 if face == K.SAB_FACE else face)
    st[s, K.ST_MONEY] += gain
    seat_out[s, K.S_INCOME] += gain
    if face != K.SAB_FACE:
        return 0
    if pub[K.PUB_RESERVE] > 0:
        pub[K.PUB_RESERVE] -= 1
        st[s, K.ST_SAB] += 1
        seat_out[s, K.S_SAB_TAKEN] += 1
        return 0
    n = 0
    for t in range(st.shape[0]):
        if t != s and st[t, K.ST_SAB] > 0:
            opts[n] = t
            n += 1
    return n


@hot_flat
def take_saboteur_nb(s, took, st, seat_out):
    """Seat ``s`` takes a saboteur from rival ``took``."""
    st[took, K.ST_SAB] -= 1
    st[s, K.ST_SAB] += 1
    seat_out[s, K.S_SAB_TAKEN] += 1


@hot_flat
def income_nb(s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, seat_out):
    n = income_roll_nb(s, city, st, pub, opts, rng, seat_out)
    if n > 0:
        i = 0
        if n > 1:
            i = ask_nb(s, K.D_TAKE, n, roster, ids, params, mem, deck, rules, rng)
            if i < 0:
                return
        take_saboteur_nb(s, opts[i], st, seat_out)


# ------------------------------------------------------------------ 2. auction
@hot
def need_of_nb(s, st, rules):
    return 1 if st[s, K.ST_BUILT_ONCE] != 0 else rules[K.R_FIRST_MIN]


@hot_flat
def after_auction_nb(pub):
    """The end is triggered when a stack is empty after the auction step."""
    pub[K.PUB_TRIGGERED] = 1 if pub[K.PUB_SIZE_OPEN] == 0 or pub[K.PUB_SIZE_HIDDEN] == 0 else 0


# ------------------------------------------------------------------ 3. build or sabotage
@hot_flat
def actions_nb(s, final, loc, rows, city, st, deck, rules, opts, saved, fit, memo, holds):
    """Step 3's options into opts: A_BUILD, A_BUILDING, A_HAND where possible, then A_NOTHING.
    Returns (their number, the cards the build must place, and the first placement's spots
    when the check listed them in fit[0], else -1)."""
    s = index_nb(s)
    need = need_of_nb(s, st, rules)
    n_first = -1                     # the first placement's spots, when this check listed them in fit[0]
    can_build = False
    if st[s, K.ST_HAND] > 0:
        if need == 1:                # the check for one card is the first placement's own walk
            n_first, anywhere = spots_nb(s, final, rows, city, deck, fit[0])
            can_build = holds[s] & K.HELD[index_nb(anywhere)] != 0
        else:
            can_build = can_place_nb(s, need, final, loc, rows, city, st, deck, saved, fit, memo, holds)
    can_building = False
    can_hand = False
    if final == 0 and st[s, K.ST_SAB] > 0:
        can_building = any_building_target_nb(s, city)
        can_hand = any_hand_target_nb(s, st, rules)
    n = 0
    if can_build:
        opts[n] = K.A_BUILD
        n += 1
    if can_building:
        opts[n] = K.A_BUILDING
        n += 1
    if can_hand:
        opts[n] = K.A_HAND
        n += 1
    opts[n] = K.A_NOTHING
    n += 1
    return n, need, n_first


@hot_flat
def step3_nb(s, final, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks, saved,
             fit, memo, holds, seat_out, game_out):
    s = index_nb(s)
    n, need, n_first = actions_nb(s, final, loc, rows, city, st, deck, rules, opts, saved, fit, memo, holds)
    action = K.A_NOTHING
    if n > 1:
        i = ask_nb(s, K.D_ACTION, n, roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return
        action = opts[i]
    if action == K.A_BUILD:
        build_nb(s, final, need, n_first, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng,
                 saved, fit, memo, holds, seat_out)
    elif action == K.A_BUILDING:
        attack_building_nb(s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
                           seat_out, game_out)
    elif action == K.A_HAND:
        attack_hand_nb(s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
                       holds, seat_out, game_out)


@hot_flat
def placements_nb(s, final, need, placed, n_first, loc, rows, city, st, pub, deck, opts, saved, fit, memo, holds):
    """The next placement's options into opts, by card then position (each leaving a way to
    place the ``need`` cards of the build), then PLACE_STOP once ``need`` are placed; their
    number. ``n_first`` >= 0: the spots are already in ``fit[0]`` (step 3's check for one card
    listed them; the city is unchanged)."""
    s = index_nb(s)
    pub[K.PUB_PLACED] = placed
    rest = need - placed - 1
    spots = fit[0]                        # where a card may go, and the types each spot takes
    if n_first >= 0:
        n_spots = n_first
    else:
        n_spots = spots_nb(s, final, rows, city, deck, spots)[0]
    n = 0
    if rest <= 0:
        # every spot that takes the card's type, written without a branch on it: an option
        # is kept by counting it, and the next one overwrites a spot that does not take it
        for j in range(K.ST_CARDS, K.ST_CARDS + st[s, K.ST_HAND]):
            c = index_nb(st[s, index_nb(j)])
            t = index_nb(deck[c, K.D_TYPE])
            for q in range(n_spots):
                spot = spots[q]
                opts[index_nb(n)] = c * K.W + (spot >> K.SPOT_SHIFT)
                n += (spot >> t) & 1
    else:
        seen = 0                         # the types met in hand so far,
        reps = saved[K.MAX_BUILD + 1]    # and the first card of each
        for j in range(K.ST_CARDS, K.ST_CARDS + st[s, K.ST_HAND]):
            c = index_nb(st[s, index_nb(j)])
            t = index_nb(deck[c, K.D_TYPE])
            if seen >> t & 1 != 0:
                # a card goes where the first of its type may go (legality and what can follow
                # depend on the type alone): copy those positions instead of searching again
                rep = reps[t]
                n_rep = n
                for i in range(n_rep):
                    o = index_nb(opts[i])          # a placement: card * W + position
                    if o // K.W == rep:
                        opts[index_nb(n)] = c * K.W + (o - rep * K.W)
                        n += 1
                continue
            seen |= 1 << t
            reps[t] = c
            for q in range(n_spots):
                if (spots[q] >> t) & 1 == 0:
                    continue
                p = index_nb(spots[q] >> K.SPOT_SHIFT)
                for i in range(K.N_CITY):
                    saved[0, i] = city[s, i]
                place_nb(s, c, p, loc, rows, city, deck)
                ok = can_place_nb(s, rest, final, loc, rows, city, st, deck, saved, fit, memo, holds)
                unplace_nb(s, c, p, saved[0], loc, rows, city)
                if ok:
                    opts[index_nb(n)] = c * K.W + p
                    n += 1
    if placed >= need:
        opts[n] = K.PLACE_STOP
        n += 1
    return n


@hot_flat
def place_card_nb(s, choice, loc, known, rows, city, st, deck, holds):
    """The placement ``choice`` (card * W + row index) from seat ``s``'s hand into its row."""
    choice = index_nb(choice)
    c = choice // K.W
    place_nb(s, c, choice - c * K.W, loc, rows, city, deck)
    hand_drop_nb(s, c, st, holds, deck)
    column_set_nb(known, c, 1)


@hot_flat
def build_done_nb(s, placed, st, seat_out):
    st[s, K.ST_BUILT_ONCE] = 1
    seat_out[s, K.S_CARDS_BUILT] += placed


@hot_flat
def build_nb(s, final, need, n_first, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts,
             rng, saved, fit, memo, holds, seat_out):
    """Up to R_MAX_BUILD placements, each asked of the seat, the first build of ``need`` cards at
    least. ``n_first`` >= 0: the first placement's spots are already in ``fit[0]`` (step 3's check
    for one card listed them; the city is unchanged)."""
    s = index_nb(s)
    most = rules[K.R_MAX_BUILD]
    placed = 0
    pub[K.PUB_NEED] = need
    while placed < most and st[s, K.ST_HAND] > 0:
        n = placements_nb(s, final, need, placed, n_first, loc, rows, city, st, pub, deck, opts, saved, fit, memo,
                          holds)
        n_first = -1
        if n == 0 or (n == 1 and opts[0] == K.PLACE_STOP):
            break
        i = 0
        if n > 1:
            i = ask_nb(s, K.D_PLACE, n, roster, ids, params, mem, deck, rules, rng)
            if i < 0:
                return
        choice = opts[i]
        if choice == K.PLACE_STOP:
            break
        place_card_nb(s, choice, loc, known, rows, city, st, deck, holds)
        placed += 1
    build_done_nb(s, placed, st, seat_out)


# ------------------------------------------------------------------ the game's frame
@hot_flat
def deal_nb(players, n_cards, rules, loc, st, pub, opts, stacks, rng, partners):
    """A new game's table (on cleared arrays): the public counts, the purses, and the
    shuffle of cards 1..N, Fisher-Yates from the bottom; position 0 tops the open stack."""
    pub[K.PUB_PLAYERS] = players
    pub[K.PUB_N] = n_cards
    pub[K.PUB_RESERVE] = rules[K.R_SABOTEURS]
    for s in range(players):
        st[s, K.ST_MONEY] = rules[K.R_START_MONEY]
    for i in range(n_cards):
        opts[i] = i + 1
    shuffle_nb(opts, 0, n_cards, rng, K.SHUFFLE_STREAM, partners)
    half = (n_cards + 1) // 2
    for i in range(half):
        stacks[K.STACK_OPEN, i] = opts[i]
        loc[opts[i]] = K.L_OPEN
    for i in range(half, n_cards):
        stacks[K.STACK_HIDDEN, i - half] = opts[i]
        loc[opts[i]] = K.L_HIDDEN
    pub[K.PUB_SIZE_OPEN] = half
    pub[K.PUB_SIZE_HIDDEN] = n_cards - half
    pub[K.PUB_OPEN_TOP] = stacks[K.STACK_OPEN, 0]


@hot_flat
def turn_over_nb(final, left, reason, players, pub, rules):
    """After a turn's step 3: the final round starts (all seats to play once more) when the
    end was triggered or the turn cap reached; in it, one seat fewer to play. Returns
    (final, left, reason, whether the game is over)."""
    if final == 0:
        if pub[K.PUB_TRIGGERED] != 0:
            reason = K.END_STACK
        elif pub[K.PUB_TURN] >= rules[K.R_MAX_TURNS]:
            reason = K.END_TURNS
        if reason >= 0:
            final = 1
            pub[K.PUB_FINAL] = 1
            left = players
        return final, left, reason, False
    left -= 1
    return final, left, reason, left == 0


@hot_flat
def game_over_nb(players, reason, rows, city, st, pub, deck, rules, seat_out, game_out):
    """The game's rows: the scores and places, the turns and why it ended (an illegal
    answer ends it where it stands)."""
    if pub[K.PUB_ILLEGAL] != 0:
        reason = K.END_ILLEGAL
        game_out[K.G_ILLEGAL] = pub[K.PUB_ILLEGAL]
    for s in range(players):
        score_nb(s, rows, city, st, deck, rules, seat_out)
        seat_out[s, K.S_MONEY] = st[s, K.ST_MONEY]
    for s in range(players):
        place = 1
        for t in range(players):
            if seat_out[t, K.S_TOTAL] > seat_out[s, K.S_TOTAL]:
                place += 1
        seat_out[s, K.S_PLACE] = place
    game_out[K.G_TURNS] = pub[K.PUB_TURN]
    game_out[K.G_END_REASON] = reason


# ------------------------------------------------------------------ the game
@hot
def play_games_nb(run_seed, first_game, start, stop, deck, rules, roster, ids, params, ws, seat_rows, game_rows,
                  cards_out):
    """Games ``first_game + start`` .. ``first_game + stop - 1`` of the run ``run_seed``, complete, game
    ``first_game + g`` with the key ``game_key(run_seed, first_game + g)`` into ``seat_rows[g]`` [P,
    N_SEAT_STATS] and ``game_rows[g]`` [N_GAME_STATS], and its per-card log into ``cards_out[g]`` [N + 1,
    N_CARD_LOG] when ``cards_out`` has a row per game (see ``batch_nb.play_blocks_nb``).

    A block of games a call, not one: a call pushes every array it is passed (the workspace's
    nine, the deck, the rules, the strategies, the rows), some 117 words, and the game reads
    them back from the stack; a block of 32 games pays that once."""
    mem, stacks, rng, saved, sold, fit, memo, partners, holds = ws
    players = seats_nb(roster, ids.shape[0])   # a constant in a kernel for a table size (Roster.for_seats)
    n_cards = deck.shape[0] - 1
    # row lengths the compiler sees: a card's type or a seat's count is a shift away, not a multiply
    deck = cols_nb(deck, K.N_DECK)
    # the views made here, not passed in: their row lengths are constants to the compiler
    loc, known, rows, city, st, pub, opts = views_nb(mem, players, n_cards)
    for g in range(start, stop):
        seat_out = cols_nb(seat_rows[g], K.N_SEAT_STATS)
        game_out = game_rows[g]
        key = game_key_nb(run_seed, np.uint64(first_game + g))
        seed_streams_nb(key, rng)
        seat_out[:, :] = 0
        game_out[:] = 0
        known[:, :] = 0
        # the last game's cities and hands: only their cells can be non-zero (a row is empty outside
        # its ends, a hand list past its size), so only they are cleared, not the rows' full width
        for s in range(players):
            if city[s, K.C_COUNT] > 0:
                rows[s, city[s, K.C_LEFT]:city[s, K.C_RIGHT] + 1] = 0
            st[s, :K.ST_CARDS + st[s, K.ST_HAND]] = 0
        city[:, :] = 0
        pub[:] = 0
        holds[:] = 0
        if sold.shape[0] > 0:
            sold[:, :] = 0
            sold[:, K.CL_BUYER] = -1
            sold[:, K.CL_STACK] = -1
        deal_nb(players, n_cards, rules, loc, st, pub, opts, stacks, rng, partners)
        # the normal turns and then the final round, one step 3 site for both: each inlined
        # copy of step 3 (the build search, both attacks) is typed and optimized again
        seat = 0
        reason = -1
        final = 0
        left = 0                         # final-round seats still to play
        while True:
            seat = index_nb(seat)
            pub[K.PUB_SEAT] = seat
            if final == 0:
                pub[K.PUB_TURN] += 1
                income_nb(seat, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng,
                          seat_out)
                if pub[K.PUB_ILLEGAL] != 0:
                    break
                auction_nb(seat, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng,
                           stacks, seat_out, game_out, sold, holds)
                if pub[K.PUB_ILLEGAL] != 0:
                    break
                after_auction_nb(pub)
            step3_nb(seat, final, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng,
                     stacks, saved, fit, memo, holds, seat_out, game_out)
            if pub[K.PUB_ILLEGAL] != 0:
                break
            final, left, reason, over = turn_over_nb(final, left, reason, players, pub, rules)
            if over:
                break
            seat = seat_after_nb(seat, players)
        game_over_nb(players, reason, rows, city, st, pub, deck, rules, seat_out, game_out)
        if cards_out.shape[0] > 0:
            card_log_nb(cards_out[g], sold, loc, n_cards)


@hot_flat
def card_log_nb(out, sold, loc, n_cards):
    """The game just played, card by card, into ``out`` [N + 1, N_CARD_LOG] (row 0 unused): the
    last sale as ``award_nb`` noted it in ``sold``, where the card ended and whose."""
    out[0, :] = 0
    for c in range(1, n_cards + 1):
        for i in range(K.N_SOLD):
            out[c, i] = sold[c, i]
        where = loc[c]
        if where >= K.L_CITY:
            out[c, K.CL_END] = K.CE_CITY
            out[c, K.CL_OWNER] = where - K.L_CITY
        elif where >= K.L_HAND:
            out[c, K.CL_END] = K.CE_HAND
            out[c, K.CL_OWNER] = where - K.L_HAND
        else:
            out[c, K.CL_END] = K.CE_STACK
            out[c, K.CL_OWNER] = -1
