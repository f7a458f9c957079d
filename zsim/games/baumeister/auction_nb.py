"""Wettstreit der Baumeister's auctions in the fast engine: the opening bid and the
raises round the table (``auction_nb``), the card going to the highest bid (``award_nb``)
or, unsold, under its stack (``unsold_nb``), and the cap on what a seat may bid (``cap_nb``).
``engine_nb.play_games_nb`` calls them turn by turn; like the rest of the engine they are
``hot_flat``, copied into their caller.

The auction is cut at its decisions into pieces (the stacks on offer, the card
put up, the opening bid, the next bidder and what it may bid, a bid taken, the
award): ``auction_nb`` asks between them in one loop, and the forward model
(``forward_nb.py``) calls the same pieces one decision at a time.
"""
from __future__ import annotations

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.rows_nb import hand_add_nb
from zsim.games.baumeister.table_nb import ask_nb, column_set_nb, pop_top_nb, put_under_nb
from zsim.jit import hot_flat, index_nb, seat_after_nb


@hot_flat
def cap_nb(money, max_bid, forbid):
    """The highest bid a seat with ``money`` may make (``forbid``: overbid=forbid)."""
    return min(max_bid, money) if forbid else max_bid


@hot_flat
def stack_options_nb(pub, opts):
    """The stacks the auctioneer may offer from (not an empty one), into opts; their number."""
    n = 0
    if pub[K.PUB_SIZE_OPEN] > 0:
        opts[n] = K.STACK_OPEN
        n += 1
    if pub[K.PUB_SIZE_HIDDEN] > 0:
        opts[n] = K.STACK_HIDDEN
        n += 1
    return n


@hot_flat
def put_up_nb(a, k, loc, known, st, pub, stacks, rules, game_out):
    """Auctioneer ``a`` offers the top card of stack ``k``: everyone in, no bids yet.
    Returns (the card, the highest opening bid ``a`` may make: below 1, unsold at once)."""
    card = index_nb(pop_top_nb(k, pub, stacks))
    loc[card] = K.L_AUCTION
    if k == K.STACK_HIDDEN:
        known[a, card] = 1
        game_out[K.G_HIDDEN_AUCTIONS] += 1
    else:
        column_set_nb(known, card, 1)
    game_out[K.G_AUCTIONS] += 1
    pub[K.PUB_AUCTIONEER] = a
    pub[K.PUB_STACK] = k
    pub[K.PUB_CARD] = card
    pub[K.PUB_ANNOUNCED] = -1
    column_set_nb(st, K.ST_LAST_BID, 0)
    column_set_nb(st, K.ST_ACTIVE, 1)
    return card, cap_nb(st[a, K.ST_MONEY], rules[K.R_MAX_BID], rules[K.R_FORBID] != 0)


@hot_flat
def opening_options_nb(top, opts):
    """The opening bid's range (1 .. ``top``) into opts, as an amount's low and high."""
    opts[0] = 1
    opts[1] = top


@hot_flat
def open_bid_nb(a, opening, st, pub):
    """The opening bid stands: ``a`` is the high bidder."""
    st[a, K.ST_LAST_BID] = opening
    pub[K.PUB_HIGH] = opening
    pub[K.PUB_HIGH_SEAT] = a


@hot_flat
def next_bidder_nb(at, high_seat, announce_at, card, st, pub, deck, game_out):
    """The seat after ``at`` still bidding, not the high bidder; a hidden card's type is
    told when its bidding first comes round to its auctioneer (``announce_at``, -1 once
    told or for an open card). Returns (the bidder, the new ``announce_at``)."""
    players = st.shape[0]              # a constant in a kernel for a table size (see play_games_nb)
    at = index_nb(seat_after_nb(at, players))
    while st[at, K.ST_ACTIVE] == 0 or at == high_seat:
        at = index_nb(seat_after_nb(at, players))
    at = index_nb(at)                  # told again: LLVM loses what it was told through the loop's phi
    if at == announce_at:
        announce_at = -1
        pub[K.PUB_ANNOUNCED] = deck[card, K.D_TYPE]
        game_out[K.G_ANNOUNCED] += 1
    return at, announce_at


@hot_flat
def raise_options_nb(at, high, st, max_bid, forbid, opts):
    """Whether ``at`` may raise the high bid ``high`` (else it passes without a choice);
    if so its range into opts, as an amount's low and high."""
    low = high + 1
    top = cap_nb(st[at, K.ST_MONEY], max_bid, forbid)
    if low <= top:
        opts[0] = low
        opts[1] = top
        return True
    return False


@hot_flat
def take_bid_nb(at, amount, high, high_seat, active, st, pub, max_bid, game_out):
    """``at``'s raise to ``amount``, or its pass (0): returns the high bid, its seat and
    the number of seats still bidding."""
    if amount > 0:
        st[at, K.ST_LAST_BID] = amount
        pub[K.PUB_HIGH] = amount
        pub[K.PUB_HIGH_SEAT] = at
        if amount == max_bid:
            game_out[K.G_MAX_BID_HITS] += 1
        return amount, at, active
    st[at, K.ST_ACTIVE] = 0
    return high, high_seat, active - 1


@hot_flat
def auction_nb(a, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks, seat_out,
               game_out, sold, holds):
    a = index_nb(a)
    players = st.shape[0]              # a constant in a kernel for a table size (see play_games_nb)
    n = stack_options_nb(pub, opts)
    i = 0
    if n > 1:
        i = ask_nb(a, K.D_STACK, n, roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return
    k = index_nb(opts[i])
    card, top = put_up_nb(a, k, loc, known, st, pub, stacks, rules, game_out)
    if top < 1:                      # overbid=forbid and an empty purse: unsold at once
        unsold_nb(card, a, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
                  game_out)
        return
    opening = 1
    if top > 1:
        opening_options_nb(top, opts)
        opening = ask_nb(a, K.D_OPEN, 2, roster, ids, params, mem, deck, rules, rng)
        if opening < 0:
            return
    open_bid_nb(a, opening, st, pub)
    # the rules read at every bid, read once (the compiler cannot keep them: every store
    # into the game's arrays might, for all it knows, have changed them)
    max_bid = rules[K.R_MAX_BID]
    forbid = rules[K.R_FORBID] != 0
    high, high_seat = opening, a
    announce_at = a if k == K.STACK_HIDDEN else -1   # a hidden card's type is told when its bidding comes round
    at = a
    active = players                 # seats still bidding, the high bidder among them
    while active > 1:
        at, announce_at = next_bidder_nb(at, high_seat, announce_at, card, st, pub, deck, game_out)
        amount = 0
        if raise_options_nb(at, high, st, max_bid, forbid, opts):
            amount = ask_nb(at, K.D_BID, 2, roster, ids, params, mem, deck, rules, rng)
            if amount < 0:
                return
        high, high_seat, active = take_bid_nb(at, amount, high, high_seat, active, st, pub, max_bid, game_out)
    if award_nb(card, a, high, high_seat, loc, known, st, pub, deck, seat_out, game_out, sold, holds) == 0:
        unsold_nb(card, a, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
                  game_out)


@hot_flat
def award_nb(card, a, high, high_seat, loc, known, st, pub, deck, seat_out, game_out, sold, holds):
    """The highest last bid (``high``, ``high_seat``'s) pays; an insolvent bidder pays their purse as a
    penalty and the next one down the chain is asked to pay. Returns the price paid, or 0 when nobody
    could pay (the card is then unsold: :func:`unsold_nb`). A sale is noted in ``sold[card]`` (price,
    turn, buyer, stack, times sold: the per-card log; nothing reads it during the game) when the run
    keeps that log (``sold`` has rows)."""
    players = st.shape[0]
    a_broke = False
    # every bid beat the one before, so the highest last bid is the high bid: only an
    # insolvent payer sends the search down the chain of last bids
    seat, bid = high_seat, high
    while True:
        if seat < 0:
            break
        st[seat, K.ST_LAST_BID] = 0
        if st[seat, K.ST_MONEY] >= bid:
            to_a = 0 if seat == a or a_broke else bid // 2
            st[seat, K.ST_MONEY] -= bid
            st[a, K.ST_MONEY] += to_a
            loc[card] = K.L_HAND + seat
            known[seat, card] = 1
            t = index_nb(deck[card, K.D_TYPE])
            hand_add_nb(seat, card, st, holds, deck)
            seat_out[seat, K.S_CARDS_WON] += 1
            seat_out[seat, K.S_PAID] += bid
            seat_out[a, K.S_SALES] += to_a
            game_out[K.G_SOLD + t] += 1
            game_out[K.G_PRICE + t] += bid
            if sold.shape[0] > 0:
                sold[card, K.CL_PRICE] = bid
                sold[card, K.CL_TURN] = pub[K.PUB_TURN]
                sold[card, K.CL_BUYER] = seat
                sold[card, K.CL_STACK] = pub[K.PUB_STACK]
                sold[card, K.CL_TIMES] += 1
            return bid
        seat_out[seat, K.S_INSOLVENT] += 1
        seat_out[seat, K.S_PENALTY] += st[seat, K.ST_MONEY]
        st[seat, K.ST_MONEY] = 0
        game_out[K.G_INSOLVENCIES] += 1
        if seat == a:
            a_broke = True
        seat, bid = -1, 0
        for t in range(players):
            if st[t, K.ST_LAST_BID] > bid:
                seat, bid = t, st[t, K.ST_LAST_BID]
    return 0


@hot_flat
def count_unsold_nb(game_out):
    game_out[K.G_UNSOLD] += 1


@hot_flat
def unsold_nb(card, a, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks, game_out):
    count_unsold_nb(game_out)
    put_under_nb(card, a, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks)
