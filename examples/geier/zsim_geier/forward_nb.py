"""Hol's der Geier's forward model: the game one bid at a time (zsim's
contract for it is ``zsim/harness/forward.py``).

A position is one int64 array laid out for up to four seats; ``_views``
hands out the very arrays the batch engine keeps (``engine_nb``), so the
bots and the rule kernels (``deal_nb``, ``turn_up_nb``, ``check_bid_nb``,
``settle_nb``, ``finish_nb``) run on it unchanged:

===========  ===========================================================
words        meaning
===========  ===========================================================
O_HANDS      each seat's bid cards, a bitmask (public: every bid is shown)
O_WON        the prizes each seat took, a bitmask of prize indices
O_BIDS       the round's answers so far (NOT_YET before a seat answers)
O_PUB        the public scalars ``constants.PUB_*``
O_RNG        the game's streams as uint64: the deck's, then one a seat
O_CTRL       the number of players and the seat to answer (-1: the end)
O_SEAT_OUT   the batch engine's seat rows, kept as it keeps them
O_GAME_OUT   its game row
O_DECK       the prize deck, ``deck[:round]`` turned up (a tail as long
             as the rules' deck)
===========  ===========================================================

Every decision is a sealed bid: the seats of a round answer one after
another (seat 0 first, as the batch engine asks them), each answer waits in
``O_BIDS``, and when the last seat has answered the round is settled. An
answer that is not a card of the seat's hand ends the game at once, marked
``1 + seat`` in the game row's ``illegal``, as the batch engine ends it.

What a seat knows. Every bid is shown once the round's bids are in, so
every hand and every prize taken is public, and so are the cards turned
up, the table and the set of prizes still to come. Hidden are the order of
the prizes still to come, the bids of the open round other than the seat's
own, and every stream. Nothing a seat sees depends on the order of the
deck still to come (no one has seen it, so no bid can depend on it): given
all a seat has seen, every order of the prizes left is as likely as any
other, as the one shuffle made them. ``determinize_nb`` therefore needs no
rejection: it writes the prizes left in ascending order (the set
``PUB_LEFT``, never the order the position holds) and shuffles them
uniformly from its own stream, clears the other seats' answers of the open
round (they are asked again: the search never sees one before its own), and
reseeds every stream. The draw is exact up to the 2**-32 granularity of
``zsim.rng.below_nb``.
"""
from __future__ import annotations

import numpy as np

from zsim.dispatch import dispatcher
from zsim.jit import grid_nb, hot, hot_flat, hot_inline, lowest_bit_nb, recast_nb
from zsim.rng import below_nb, draw_nb
from zsim_geier import constants as K
from zsim_geier.engine_nb import check_bid_nb, deal_nb, finish_nb, settle_nb, turn_up_nb

bid_nb = dispatcher("geier").bid_nb

KINDS = ("bid",)
#: the record event (TRACE.md) that shows a decision of each kind
DECISION_EVENTS = ("bids",)
KIND_BID = 0
MAX_OPTIONS = K.MAX_PRIZES          # a full hand
NOT_YET = 0                         # O_BIDS: no answer yet (no bid card is 0)

MP = K.MAX_PLAYERS
O_HANDS = 0
O_WON = O_HANDS + MP
O_BIDS = O_WON + MP
O_PUB = O_BIDS + MP
O_RNG = O_PUB + K.N_PUB
O_CTRL = O_RNG + K.N_STREAMS
C_PLAYERS, C_DECIDER = 0, 1
N_CTRL = 2
O_SEAT_OUT = O_CTRL + N_CTRL
O_GAME_OUT = O_SEAT_OUT + MP * K.N_SEAT_STATS
O_DECK = O_GAME_OUT + K.N_GAME_STATS


# ------------------------------------------------------------------ Python side
def consts(matchup) -> tuple:
    """(the rules array the batch engine reads,)."""
    from zsim_geier.batch import rules_array

    return (rules_array(matchup.rules),)


def workspace(matchup) -> tuple:
    """(the shuffle's draws,)."""
    return (np.zeros(K.MAX_PRIZES, np.uint32),)


def size(matchup) -> int:
    return O_DECK + matchup.rules.n_prizes


def option_text(kind: int, option: int) -> str:
    return f"bid {option}"


# ------------------------------------------------------------------ views
@hot_inline
def _views(pos):
    """(hands, won, bids, deck, pub, streams) as the batch engine keeps them."""
    p = pos[O_CTRL + C_PLAYERS]
    return (pos[O_HANDS:O_HANDS + p], pos[O_WON:O_WON + p], pos[O_BIDS:O_BIDS + p],
            pos[O_DECK:O_DECK + pos[O_PUB + K.PUB_N_PRIZES]], pos[O_PUB:O_PUB + K.N_PUB],
            recast_nb(pos, O_RNG, 1, K.N_STREAMS, np.uint64(0))[0])


@hot_inline
def outs_nb(pos):
    p = pos[O_CTRL + C_PLAYERS]
    return grid_nb(pos, O_SEAT_OUT, p, K.N_SEAT_STATS), pos[O_GAME_OUT:O_GAME_OUT + K.N_GAME_STATS]


# ------------------------------------------------------------------ the contract
@hot
def new_nb(key, n_players, consts, ws, pos):
    rules = consts[0]
    pos[:] = 0
    n_prizes = rules[K.R_N_PRIZES]
    pos[O_CTRL + C_PLAYERS] = n_players
    pos[O_PUB + K.PUB_N_PRIZES] = n_prizes       # the deck's length, for _views
    hands, won, bids, deck, pub, rng = _views(pos)
    deal_nb(key, n_players, n_prizes, hands, won, deck, ws[0], pub, rng)
    _next_round(pos, rules)


@hot_flat
def decider_nb(pos):
    return pos[O_CTRL + C_DECIDER]


@hot_flat
def kind_nb(pos):
    return KIND_BID


@hot_flat
def sealed_nb(pos):
    """Every bid is sealed until the round's last: the round's number while it is open."""
    if pos[O_CTRL + C_DECIDER] >= 0:
        return pos[O_PUB + K.PUB_ROUND]
    return 0


@hot
def options_nb(pos, consts, out):
    """The cards of the deciding seat's hand, ascending (an option is the bid card's value)."""
    seat = pos[O_CTRL + C_DECIDER]
    if seat < 0:
        return 0
    x = pos[O_HANDS + seat]
    n = 0
    while x != 0:
        out[n] = lowest_bit_nb(x)
        x &= x - 1
        n += 1
    return n


# bot_nb and apply_nb run at every bid: inlined into their caller (hot_flat), not
# called, they made bot-driven games 0.75x the batch engine's speed instead of 0.53x
@hot_flat
def bot_nb(roster, strat_ids, strat_params, pos, consts):
    hands, won, bids, deck, pub, rng = _views(pos)
    return _ask_nb(roster, strat_ids, strat_params, pos[O_CTRL + C_DECIDER], hands, won, deck, pub, consts[0],
                   rng)


@hot
def _ask_nb(roster, strat_ids, strat_params, seat, hands, won, deck, pub, rules, rng):
    # a kernel of its own, handed the position's views: the strategy dispatch
    # (an overload numba copies into its caller) lost the bots' draws when it
    # was copied into the function that made the views
    return bid_nb(roster, strat_ids[seat], seat, strat_params[seat], hands, won, deck, pub, rules, rng)


@hot_flat
def apply_nb(pos, option, consts, ws):
    rules = consts[0]
    hands, won, bids, deck, pub, rng = _views(pos)
    seat_out, game_out = outs_nb(pos)
    n = pos[O_CTRL + C_PLAYERS]
    seat = pos[O_CTRL + C_DECIDER]
    if check_bid_nb(seat, option, hands, rules, game_out) < 0:
        finish_nb(n, won, pub, rules, seat_out, game_out)      # the batch engine stops the game here
        pos[O_CTRL + C_DECIDER] = -1
        return
    bids[seat] = option
    nxt = _next_bidder(seat, bids, n)
    if nxt >= 0:
        pos[O_CTRL + C_DECIDER] = nxt
        return
    settle_nb(n, hands, bids, won, pub, rules, seat_out, game_out)
    if pub[K.PUB_ROUND] == pub[K.PUB_N_PRIZES]:
        finish_nb(n, won, pub, rules, seat_out, game_out)
        pos[O_CTRL + C_DECIDER] = -1
        return
    _next_round(pos, rules)


@hot_flat
def _next_bidder(seat, bids, n):
    """The first seat after ``seat`` (round the table) that has not answered,
    or -1. In a game the seats answer in seat order; a position determinised
    in the middle of a round asks the seats whose answers it cleared after
    the deciding one."""
    s = seat
    for _ in range(1, n):
        s = s + 1 if s + 1 < n else 0          # no division: this runs at every bid
        if bids[s] == NOT_YET:
            return s
    return -1


@hot_flat
def _next_round(pos, rules):
    """The next prize card turned up; seat 0 answers first."""
    hands, won, bids, deck, pub, rng = _views(pos)
    turn_up_nb(pub[K.PUB_ROUND], deck, pub, rules)
    for s in range(bids.shape[0]):
        bids[s] = NOT_YET
    pos[O_CTRL + C_DECIDER] = 0


# ------------------------------------------------------------------ what a seat knows
@hot
def determinize_nb(pos, seat, rng, out, consts, ws):
    for i in range(pos.shape[0]):
        out[i] = pos[i]
    hands, won, bids, deck, pub, streams = _views(out)
    if out[O_CTRL + C_DECIDER] >= 0:
        for s in range(bids.shape[0]):          # the round's other answers are sealed
            if s != seat:
                bids[s] = NOT_YET
    top = pub[K.PUB_ROUND]                      # deck[:top] is turned up
    x = pub[K.PUB_LEFT]                         # the rest, as a set: ascending
    k = top
    while x != 0:
        deck[k] = lowest_bit_nb(x)
        x &= x - 1
        k += 1
    for i in range(k - 1, top, -1):             # then shuffled, drawn from rng alone
        j = top + below_nb(rng, 0, i - top + 1)
        deck[i], deck[j] = deck[j], deck[i]
    for i in range(streams.shape[0]):           # the deck's and every bot's stream: unknown
        streams[i] = draw_nb(rng, 0)


@hot
def view_nb(pos, seat, out):
    hands, won, bids, deck, pub, rng = _views(pos)
    seat_out, game_out = outs_nb(pos)
    p = pos[O_CTRL + C_PLAYERS]
    decider = pos[O_CTRL + C_DECIDER]
    out[0] = p
    out[1] = decider
    n = 2
    for s in range(p):
        out[n] = hands[s]
        out[n + 1] = won[s]
        out[n + 2] = bids[s] if (s == seat or decider < 0) else NOT_YET     # sealed while the round is open
        n += 3
        for c in range(K.N_SEAT_STATS):
            out[n] = seat_out[s, c]
            n += 1
    for i in range(K.N_PUB):                    # PUB_LEFT: the prizes still to come, as a set
        out[n] = pub[i]
        n += 1
    for c in range(K.N_GAME_STATS):
        out[n] = game_out[c]
        n += 1
    for i in range(pub[K.PUB_ROUND]):           # the cards turned up, in order
        out[n] = deck[i]
        n += 1
    return n
