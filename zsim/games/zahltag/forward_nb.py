"""Zahltag's forward model: the game one decision at a time (the contract is
``zsim/harness/forward.py``).

A position is one int64 array laid out for up to four seats (a seat's
row of worker counts is one word of four 16-bit lanes, as in
``engine_nb``; ``_views`` hands out the same arrays the batch engine keeps,
so the bots and the rule kernels run on it unchanged):

=========  ============================================================
words      meaning
=========  ============================================================
O_HAND..   hand, left, right (one word a seat), stacks (one word)
O_MONEY..  money, alive, elim (four words each), demand (four), ``pub``
O_RNG      the game's streams: the deck's, then one per seat
O_BIDS     the answers given for the job on the table (NOT_YET before)
O_DELTA    per seat and type: the cards the seat's public moves put into
           its hand since the deal, less those it took out
O_DEALT    per seat and type: the fewest cards of the type the seat can
           have been dealt, given what it was seen to do
O_CTRL     where the game stands (``C_*``)
O_SEAT..   the batch engine's seat and game rows, kept as it keeps them
O_DECK     the deck, ``deck[top:]`` still to come
=========  ============================================================

What a seat knows of another seat's hand is the other seat's dealt cards
(hidden) moved by its public moves: every take, discard, exchange, job won
and card back from the table is seen, so a hand is ``dealt + delta``. Its
moves also prove things about the dealt cards: a discard shows the hand
held the card, a bid shows it covered the job. Each such proof is a lower
bound on the dealt cards of a type, and together they are all the seat
can know: ``determinize_nb`` deals the opponents' dealt cards afresh from
their pool (public: every hand less the seat's own, less the deltas),
exactly as likely as the shuffle made each deal that meets every bound
(``zsim.games.deal_posterior_nb``), and the rest of the deck in a fresh
order.

Bids for a job are sealed: each seat's answer waits in ``O_BIDS`` until
the last alive seat has answered, then all are checked, counted and
resolved in seat order exactly as the batch engine resolves them.
"""
from __future__ import annotations

import numpy as np

from zsim.games.canonical_nb import sort_span_nb
from zsim.games.deal_posterior_nb import draw, prepare
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.engine_nb import apply_adjust_nb, deal_nb, finish_jobs_nb, game_over_nb, reveal_nb
from zsim.games.zahltag.lanes_nb import lanes_nb, set_lanes_nb
from zsim.games.zahltag.moves_nb import (hand_covers_nb, is_legal_adjust_nb, lane_nb, lane_unit_nb, lanes_sum_nb,
                                         owned_nb)
from zsim.games.zahltag.resolve_nb import award_nb, end_reason_nb, lead_nb, payday_nb, penalty_nb, take_bid_nb
from zsim.jit import grid_nb, hot, hot_flat, hot_inline, recast_nb, seat_after_nb
from zsim.rng import DECK_STREAM, below_nb, draw_nb, seed_streams_nb, shuffle_nb
from zsim.dispatch import dispatcher

_dispatch = dispatcher("zahltag")
adjust_nb = _dispatch.adjust_nb
bid_nb = _dispatch.bid_nb

KINDS = ("setup", "adjust", "bid")
#: the record event (TRACE.md) that shows a decision of each kind
DECISION_EVENTS = ("setup", "adjust", "bids")
KIND_SETUP, KIND_ADJUST, KIND_BID = 0, 1, 2
MAX_OPTIONS = 100                  # a bid's: pass and 1..max_bid (max_bid <= 99); an adjustment has at most 25
NOT_YET = -9                       # O_BIDS: the seat has not answered yet

MP = K.MAX_PLAYERS
O_HAND = 0
O_LEFT = O_HAND + MP
O_RIGHT = O_LEFT + MP
O_STACKS = O_RIGHT + MP
O_MONEY = O_STACKS + 1
O_ALIVE = O_MONEY + MP
O_ELIM = O_ALIVE + MP
O_DEMAND = O_ELIM + MP
O_PUB = O_DEMAND + K.N_TYPES
O_RNG = O_PUB + K.N_PUB
O_BIDS = O_RNG + MP + 1
O_DELTA = O_BIDS + MP
O_DEALT = O_DELTA + MP * K.N_TYPES
O_CTRL = O_DEALT + MP * K.N_TYPES
C_PLAYERS, C_N_CARDS, C_DECIDER, C_KIND, C_TOP, C_EVENT, C_SETUP_LEFT, C_SETUP_DONE = range(8)
C_S, C_RND, C_CUR, C_LEADER, C_JOB, C_ROUND, C_END_REASON = range(8, 15)
N_CTRL = 15
O_SEAT_OUT = O_CTRL + N_CTRL
O_GAME_OUT = O_SEAT_OUT + MP * K.N_SEAT_STATS
O_DECK = O_GAME_OUT + K.N_GAME_STATS


# ------------------------------------------------------------------ Python side
def consts(matchup) -> tuple:
    """(rules array, the jobs' needs as lanes, the whole deck's demand by type)."""
    needs = matchup.deck.lanes()
    return matchup.rules.as_array(), needs, needs.astype(np.int64).sum(axis=0)


def workspace(matchup) -> tuple:
    """(the worker pile, a shuffle's draws, scratch rows, what a determinisation
    deals with: the posterior's sums, pool, rows, bounds and the deal drawn)."""
    from zsim.games import deal_posterior_nb
    from zsim.games.zahltag.engine_nb import PILE_MAX

    n_cards = matchup.deck.n_jobs + matchup.rules.payday_cards
    m = deal_posterior_nb.MAX_SEATS
    post = (deal_posterior_nb.workspace(matchup.rules.hand_size, K.N_TYPES), np.zeros(K.N_TYPES, np.int64),
            np.zeros(m, np.int64), np.zeros((m, K.N_TYPES), np.int64), np.zeros((m, K.N_TYPES), np.int64))
    return (np.zeros(PILE_MAX, np.int64), np.zeros(max(PILE_MAX, n_cards), np.uint32),
            np.zeros(2 * MP, np.int64), post)


def size(matchup) -> int:
    return O_DECK + matchup.deck.n_jobs + matchup.rules.payday_cards


def option_text(kind: int, option: int) -> str:
    from zsim.games.zahltag.notation import LETTERS, decode

    if kind == KIND_BID:
        return "pass" if option == K.PASS else f"bid {option}"
    give, take = decode(option)
    if give is None:
        return "nothing" if take is None else f"take {LETTERS[take]}"
    return f"discard {LETTERS[give]}" if take is None else f"exchange {LETTERS[give]} for {LETTERS[take]}"


def describe(pos, seat: int, matchup):
    """The table in words for ``seat`` (``zsim/seat_view.py``; plain Python, no numba)."""
    import sys

    from zsim.games.zahltag import seat_view

    return seat_view.describe(pos, seat, matchup, sys.modules[__name__])


# ------------------------------------------------------------------ views
@hot_inline
def _views(pos):
    p = pos[O_CTRL + C_PLAYERS]
    return (recast_nb(pos, O_HAND, p, K.N_TYPES, np.int16(0)), recast_nb(pos, O_LEFT, p, K.N_TYPES, np.int16(0)),
            recast_nb(pos, O_RIGHT, p, K.N_TYPES, np.int16(0)), recast_nb(pos, O_STACKS, 1, K.N_TYPES, np.int16(0))[0],
            pos[O_MONEY:O_MONEY + p], pos[O_ALIVE:O_ALIVE + p], pos[O_ELIM:O_ELIM + p],
            pos[O_DEMAND:O_DEMAND + K.N_TYPES], pos[O_PUB:O_PUB + K.N_PUB],
            recast_nb(pos, O_RNG, 1, p + 1, np.uint64(0))[0])


@hot_inline
def _know(pos):
    """(answers for the job on the table, delta [P, 4], dealt bounds [P, 4], control words)."""
    p = pos[O_CTRL + C_PLAYERS]
    return (pos[O_BIDS:O_BIDS + p], grid_nb(pos, O_DELTA, p, K.N_TYPES), grid_nb(pos, O_DEALT, p, K.N_TYPES),
            pos[O_CTRL:O_CTRL + N_CTRL])


@hot_inline
def outs_nb(pos):
    p = pos[O_CTRL + C_PLAYERS]
    return (grid_nb(pos, O_SEAT_OUT, p, K.N_SEAT_STATS),
            pos[O_GAME_OUT:O_GAME_OUT + K.N_GAME_STATS])


@hot_inline
def _deck(pos):
    return pos[O_DECK:O_DECK + pos[O_CTRL + C_N_CARDS]]


# ------------------------------------------------------------------ the contract
@hot
def new_nb(key, n_players, consts, ws, pos):
    rules, needs, deck_demand = consts
    pile, partners, scratch, _ = ws
    pos[:] = 0
    n_jobs = needs.shape[0]
    n_cards = n_jobs + rules[K.R_PAYDAY_CARDS]
    pos[O_CTRL + C_PLAYERS] = n_players
    pos[O_CTRL + C_N_CARDS] = n_cards
    hand, left, right, stacks, money, alive, elim, demand, pub, rng = _views(pos)
    bids, delta, dealt, ctrl = _know(pos)
    seed_streams_nb(key, rng)
    deal_nb(n_players, rules, n_jobs, n_cards, hand, left, right, stacks, money, alive, elim, _deck(pos), demand,
            deck_demand, pub, pile, rng, partners)
    bids[:] = NOT_YET
    ctrl[C_SETUP_LEFT] = rules[K.R_SETUP_ROUNDS] * n_players
    ctrl[C_RND] = 1
    ctrl[C_LEADER] = -1
    ctrl[C_END_REASON] = K.END_FIFTH_PAYDAY
    _to_adjust(pos, rules, ws)


@hot_flat
def decider_nb(pos):
    return pos[O_CTRL + C_DECIDER]


@hot_flat
def kind_nb(pos):
    return pos[O_CTRL + C_KIND]


@hot_flat
def sealed_nb(pos):
    if pos[O_CTRL + C_KIND] == KIND_BID:
        return pos[O_CTRL + C_ROUND]
    return 0


@hot
def options_nb(pos, consts, out):
    rules, needs, _ = consts
    hand, left, right, stacks, money, alive, elim, demand, pub, rng = _views(pos)
    ctrl = pos[O_CTRL:O_CTRL + N_CTRL]
    seat = ctrl[C_DECIDER]
    out[0] = 0                    # nothing / pass: always legal
    n = 1
    if ctrl[C_KIND] == KIND_BID:
        if hand_covers_nb(seat, needs[ctrl[C_JOB]], hand):
            for b in range(1, rules[K.R_MAX_BID] + 1):
                out[n] = b
                n += 1
        return n
    in_setup = ctrl[C_KIND] == KIND_SETUP
    for act in range(1, K.N_ACTIONS):
        if is_legal_adjust_nb(seat, act, hand, left, right, stacks, rules, in_setup):
            out[n] = act
            n += 1
    return n


@hot_flat
def bot_nb(roster, strat_ids, strat_params, pos, consts):
    rules, needs, _ = consts
    hand, left, right, stacks, money, alive, elim, demand, pub, rng = _views(pos)
    return _ask_nb(roster, strat_ids, strat_params, pos[O_CTRL + C_DECIDER], pos[O_CTRL + C_KIND],
                   needs[pos[O_CTRL + C_JOB]], hand, left, right, stacks, money, alive, demand, pub, rules, rng)


@hot_flat
def _ask_nb(roster, strat_ids, strat_params, seat, kind, need, hand, left, right, stacks, money, alive, demand,
            pub, rules, rng):
    # a kernel of its own, called with the position's views as arguments: the
    # strategy dispatch (an overload numba copies into its caller) lost the
    # bots' draws when it was copied into the function that made the views
    if kind == KIND_BID:
        return bid_nb(roster, strat_ids[seat], seat, need, strat_params[seat], hand, left, right, stacks, money,
                      alive, demand, pub, rules, rng)
    return adjust_nb(roster, strat_ids[seat], seat, strat_params[seat], hand, left, right, stacks, money, alive,
                     demand, pub, rules, rng)


@hot_flat
def apply_nb(pos, option, consts, ws):
    if pos[O_CTRL + C_KIND] == KIND_BID:
        _bid(pos, option, consts, ws)
    else:
        _adjust(pos, option, consts, ws)


# ------------------------------------------------------------------ the turn, step by step
@hot_flat
def _to_adjust(pos, rules, ws):
    """Run the turn loop's head up to the next adjustment (setup or turn)."""
    hand, left, right, stacks, money, alive, elim, demand, pub, rng = _views(pos)
    bids, delta, dealt, ctrl = _know(pos)
    _, game_out = outs_nb(pos)
    n_players = ctrl[C_PLAYERS]
    while True:
        if ctrl[C_SETUP_DONE] < ctrl[C_SETUP_LEFT]:
            pub[K.PUB_ROUND] = ctrl[C_RND]
            ctrl[C_DECIDER] = ctrl[C_S]
            ctrl[C_KIND] = KIND_SETUP
            return
        if ctrl[C_SETUP_DONE] == ctrl[C_SETUP_LEFT]:
            pub[K.PUB_ROUND] = 0
            ctrl[C_SETUP_DONE] += 1
        cur = ctrl[C_CUR]
        if alive[cur] == 0:
            ctrl[C_CUR] = seat_after_nb(cur, n_players)
            continue
        ctrl[C_LEADER] = lead_nb(n_players, money, alive, ctrl[C_LEADER], game_out)
        pub[K.PUB_TURN] += 1
        back = lanes_nb(right, cur)
        for t in range(K.N_TYPES):
            delta[cur, t] += lane_nb(back, t)
        finish_jobs_nb(cur, hand, left, right, pub, None)
        ctrl[C_S] = cur
        ctrl[C_DECIDER] = cur
        ctrl[C_KIND] = KIND_ADJUST
        return


@hot_flat
def _seen_adjust(seat, act, delta, dealt):
    """What everyone learns of ``seat``'s hand from its adjustment ``act``."""
    if act == K.ACT_NONE:
        return
    if act < K.ACT_DISCARD:
        delta[seat, act - K.ACT_TAKE] += 1
        return
    g = act - K.ACT_DISCARD if act < K.ACT_EXCHANGE else (act - K.ACT_EXCHANGE) // 4
    delta[seat, g] -= 1                            # the hand held it: dealt + delta stayed >= 0
    dealt[seat, g] = max(dealt[seat, g], -delta[seat, g])
    if act >= K.ACT_EXCHANGE:
        delta[seat, (act - K.ACT_EXCHANGE) % 4] += 1


@hot_flat
def _adjust(pos, act, consts, ws):
    rules, needs, _ = consts
    hand, left, right, stacks, money, alive, elim, demand, pub, rng = _views(pos)
    bids, delta, dealt, ctrl = _know(pos)
    seat_out, game_out = outs_nb(pos)
    seat = ctrl[C_DECIDER]
    in_setup = ctrl[C_KIND] == KIND_SETUP
    if not is_legal_adjust_nb(seat, act, hand, left, right, stacks, rules, in_setup):
        game_out[K.G_ILLEGAL] += 1
        act = K.ACT_NONE
    apply_adjust_nb(seat, act, hand, stacks, pub)
    _seen_adjust(seat, act, delta, dealt)
    n_players = ctrl[C_PLAYERS]
    if in_setup:
        ctrl[C_SETUP_DONE] += 1
        ctrl[C_S] = seat_after_nb(seat, n_players)
        if ctrl[C_S] == 0:
            ctrl[C_RND] += 1
        _to_adjust(pos, rules, ws)
        return
    cur = seat
    scratch = ws[2]
    if rules[K.R_OVER_CAP_PENALIZE] != 0:
        excess = owned_nb(cur, hand, left, right) - rules[K.R_CARD_CAP]
        if excess > 0:
            ctrl[C_EVENT] = penalty_nb(cur, excess, ctrl[C_EVENT], hand, left, right, stacks, money, alive, elim,
                                       pub, seat_out, scratch, None)
            if pub[K.PUB_N_ALIVE] <= 1:
                _end(pos, K.END_LAST_PLAYER, scratch)
                return
    deck = _deck(pos)
    n_cards = ctrl[C_N_CARDS]
    card, top, forced = reveal_nb(deck, ctrl[C_TOP], n_cards, pub, rng, ws[1], game_out, None)
    ctrl[C_TOP] = top
    if card == K.PAYDAY:
        pub[K.PUB_PAYDAYS_LEFT] -= 1
        event, ended = payday_nb(n_players, ctrl[C_EVENT], hand, left, right, stacks, money, alive, elim, pub,
                                 rules, seat_out, game_out, scratch, None)
        ctrl[C_EVENT] = event
        if ended:
            _end(pos, end_reason_nb(pub, rules), scratch)
            return
        if forced:
            shuffle_nb(deck, top, n_cards, rng, DECK_STREAM, ws[1])
            game_out[K.G_RESHUFFLES] += 1
        ctrl[C_CUR] = seat_after_nb(cur, n_players)
        _to_adjust(pos, rules, ws)
        return
    pub[K.PUB_JOBS_LEFT] -= 1
    for t in range(K.N_TYPES):
        demand[t] -= needs[card, t]
    game_out[K.G_JOBS_REVEALED] += 1
    ctrl[C_JOB] = card
    ctrl[C_ROUND] += 1
    bids[:] = NOT_YET
    ctrl[C_KIND] = KIND_BID
    ctrl[C_DECIDER] = _next_bidder(n_players - 1, bids, alive, n_players)


@hot_flat
def _next_bidder(seat, bids, alive, n_players):
    """The first seat after ``seat`` (round the table) still in that has not
    answered, or -1. Seats answer in seat order in a game; a position
    determinised in the middle of the bidding asks the seats whose answers it
    hid after the deciding one."""
    for k in range(1, n_players + 1):
        s = (seat + k) % n_players
        if alive[s] != 0 and bids[s] == NOT_YET:
            return s
    return -1


@hot_flat
def _bid(pos, answer, consts, ws):
    rules, needs, _ = consts
    hand, left, right, stacks, money, alive, elim, demand, pub, rng = _views(pos)
    bids, delta, dealt, ctrl = _know(pos)
    n_players = ctrl[C_PLAYERS]
    seat = ctrl[C_DECIDER]
    bids[seat] = answer
    nxt = _next_bidder(seat, bids, alive, n_players)
    if nxt >= 0:
        ctrl[C_DECIDER] = nxt
        return
    # every seat has answered: the bids are shown, checked and resolved in seat order
    seat_out, game_out = outs_nb(pos)
    job = ctrl[C_JOB]
    need = needs[job]
    max_bid = rules[K.R_MAX_BID]
    low = max_bid + 1
    n_bidders = 0
    for s in range(n_players):
        if alive[s] != 0:
            low, n_bidders = take_bid_nb(s, bids[s], low, n_bidders, need, hand, seat_out, game_out, bids, max_bid)
        else:
            bids[s] = -1
    for s in range(n_players):
        if bids[s] > 0:                     # the hand covered the job: a bound on its dealt cards
            for t in range(K.N_TYPES):
                dealt[s, t] = max(dealt[s, t], need[t] - delta[s, t])
            if bids[s] == low:              # and the job's workers leave it for the table
                for t in range(K.N_TYPES):
                    delta[s, t] -= need[t]
    ctrl[C_EVENT] = award_nb(n_players, job, need, bids, low, n_bidders, ctrl[C_EVENT], hand, left, right, stacks,
                             money, alive, elim, pub, rules, seat_out, game_out, None)
    if pub[K.PUB_N_ALIVE] <= 1:
        _end(pos, K.END_LAST_PLAYER, ws[2])
        return
    ctrl[C_CUR] = seat_after_nb(ctrl[C_CUR], n_players)
    _to_adjust(pos, rules, ws)


@hot
def _end(pos, reason, scratch):
    hand, left, right, stacks, money, alive, elim, demand, pub, rng = _views(pos)
    ctrl = pos[O_CTRL:O_CTRL + N_CTRL]
    seat_out, game_out = outs_nb(pos)
    game_over_nb(ctrl[C_PLAYERS], reason, ctrl[C_LEADER], hand, left, right, money, alive, elim, pub, seat_out,
                 game_out, scratch)
    ctrl[C_DECIDER] = -1
    ctrl[C_END_REASON] = reason


# ------------------------------------------------------------------ what a seat knows
@hot
def determinize_nb(pos, seat, rng, out, consts, ws):
    rules = consts[0]
    for i in range(pos.shape[0]):
        out[i] = pos[i]
    hand, left, right, stacks, money, alive, elim, demand, pub, streams = _views(out)
    bids, delta, dealt, ctrl = _know(out)
    n_players = ctrl[C_PLAYERS]
    if ctrl[C_KIND] == KIND_BID and ctrl[C_DECIDER] >= 0:
        for s in range(n_players):          # the answers given so far are sealed
            if s != seat:
                bids[s] = NOT_YET
    _deal_again(seat, n_players, rules[K.R_HAND_SIZE], hand, alive, pub, delta, dealt, rng, ws[3])
    deck = _deck(out)
    n_cards = ctrl[C_N_CARDS]
    top = ctrl[C_TOP]
    sort_span_nb(deck, top, n_cards)          # the rest as a set: jobs by number, paydays first
    for i in range(n_cards - 1, top, -1):   # the rest of the deck, shuffled from the seat's stream
        j = top + below_nb(rng, 0, i - top + 1)
        deck[i], deck[j] = deck[j], deck[i]
    for i in range(streams.shape[0]):       # the future's chance and the other seats' bots: unknown
        streams[i] = draw_nb(rng, 0)


@hot
def redraw_nb(pos, rng, out, consts, ws):
    """The true position with what no seat has seen drawn afresh: the order
    of the jobs and paydays still in the deck, and every stream. Hands and
    the bids given so far stay as they are."""
    for i in range(pos.shape[0]):
        out[i] = pos[i]
    streams = _views(out)[9]
    ctrl = _know(out)[3]
    deck = _deck(out)
    n_cards = ctrl[C_N_CARDS]
    top = ctrl[C_TOP]
    sort_span_nb(deck, top, n_cards)
    for i in range(n_cards - 1, top, -1):
        j = top + below_nb(rng, 0, i - top + 1)
        deck[i], deck[j] = deck[j], deck[i]
    for i in range(streams.shape[0]):
        streams[i] = draw_nb(rng, 0)


@hot
def _deal_again(seat, n_players, hand_size, hand, alive, pub, delta, dealt, rng, post):
    """The opponents' dealt cards drawn afresh from their pool given every
    bound the table saw (``zsim.games.deal_posterior_nb``); their hands are
    then dealt + delta."""
    post_ws, pool, rows, low, drawn = post
    others = pub[K.PUB_HANDS] - lanes_nb(hand, seat)     # every hand less the seat's own: public
    k = 0
    for o in range(n_players):
        if o != seat and alive[o] != 0:
            rows[k] = hand_size
            for t in range(K.N_TYPES):
                low[k, t] = dealt[o, t]
            k += 1
    for t in range(K.N_TYPES):
        pool[t] = lane_nb(others, t)
        for o in range(n_players):
            if o != seat and alive[o] != 0:
                pool[t] -= delta[o, t]
    if k == 0 or prepare(k, K.N_TYPES, pool, rows, low, post_ws) <= 0.0:
        return                               # nothing hidden, or no deal fits (a model bug the tests catch)
    draw(k, K.N_TYPES, pool, rows, low, post_ws, rng, drawn)
    k = 0
    for o in range(n_players):
        if o != seat and alive[o] != 0:
            got = np.int64(0)
            for t in range(K.N_TYPES):
                got += (drawn[k, t] + delta[o, t]) * lane_unit_nb(t)
            set_lanes_nb(hand, o, got)
            k += 1


@hot
def view_nb(pos, seat, out):
    hand, left, right, stacks, money, alive, elim, demand, pub, rng = _views(pos)
    bids, delta, dealt, ctrl = _know(pos)
    n_players = ctrl[C_PLAYERS]
    n = 0
    for s in range(n_players):
        out[n] = lanes_nb(hand, s) if s == seat else lanes_sum_nb(lanes_nb(hand, s))   # others': the count
        out[n + 1] = lanes_nb(left, s)
        out[n + 2] = lanes_nb(right, s)
        out[n + 3] = money[s]
        out[n + 4] = alive[s]
        out[n + 5] = elim[s]
        out[n + 6] = bids[s] if (s == seat or ctrl[C_KIND] != KIND_BID) else 0
        n += 7
        for t in range(K.N_TYPES):
            out[n] = delta[s, t]
            out[n + 1] = dealt[s, t]
            n += 2
    out[n] = lanes_nb(stacks, 0)
    n += 1
    for i in range(K.N_TYPES):
        out[n] = demand[i]
        n += 1
    for i in range(K.N_PUB):
        out[n] = pub[i]
        n += 1
    for i in range(N_CTRL):
        out[n] = ctrl[i]
        n += 1
    deck = _deck(pos)
    for i in range(ctrl[C_TOP]):            # what was revealed, in order
        out[n] = deck[i]
        n += 1
    start = n
    for i in range(ctrl[C_TOP], ctrl[C_N_CARDS]):   # what is left, as a set
        out[n] = deck[i]
        n += 1
    sort_span_nb(out, start, n)
    return n
