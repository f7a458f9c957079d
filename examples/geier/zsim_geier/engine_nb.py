"""The fast Hol's der Geier engine: numba kernels over flat integer arrays.

One call of :func:`play_game_nb` plays one complete game, from the shuffle
of the prize deck to the places, into preallocated outputs. It is written
from the rulings in the package's README alone and shares no rule code
with the reference engine (``reference.py``); tests hold the two equal
game by game, and the chance layout (which stream draws what) is the one
fixed in ``reference.py``'s docstring. State (``constants.py`` has every slot):

==========  ==============  ==============================================
array       shape           meaning
==========  ==============  ==============================================
hands       [P]             each hand's bid cards as a bitmask (bit b = card b)
won         [P]             the prizes each seat took, a bitmask of prize indices
bids        [P]             this round's sealed bids (never shown to a strategy)
deck        [MAX_PRIZES]    the prize indices in the order turned up
partners    [MAX_PRIZES]    uint32 scratch for the shuffle's draws
pub         [N_PUB]         public scalars (``constants.PUB_*``)
rng         [N_STREAMS]     uint64 streams: 0 the deck, 1 + seat the strategies
==========  ==============  ==============================================

Every bid goes through :func:`ask_nb`, where it is checked: a card not in
the seat's hand stops the game with ``game_out[G_ILLEGAL] = 1 + seat``;
the other columns then hold the state at that moment.

The pieces of :func:`play_game_nb`'s loop (:func:`deal_nb`,
:func:`turn_up_nb`, :func:`check_bid_nb`, :func:`settle_nb`,
:func:`finish_nb`) are kernels of their own, which the forward model
(``forward_nb.py``, the game one decision at a time) calls too: the rules
are written once.
"""
from __future__ import annotations

import numpy as np

from zsim.dispatch import dispatcher
from zsim.jit import bit_count_nb, cold, highest_bit_nb, hot, hot_inline, index_nb, lowest_bit_nb
from zsim.rng import seed_streams_nb, shuffle_nb
from zsim_geier import constants as K
from zsim_geier.hand_nb import prize_value_nb

# strategy dispatch: generated for the installed strategies (see zsim.dispatch)
bid_nb = dispatcher("geier").bid_nb

ONE = np.int64(1)


def new_workspace(n_players):
    """One thread's scratch arrays, reused game after game (``zsim.blocks.play_in_blocks``'s ``workspace``)."""
    hands = np.zeros(n_players, np.int64)
    won = np.zeros(n_players, np.int64)
    bids = np.zeros(n_players, np.int64)
    deck = np.zeros(K.MAX_PRIZES, np.int64)
    partners = np.zeros(K.MAX_PRIZES, np.uint32)
    pub = np.zeros(K.N_PUB, np.int64)
    rng = np.zeros(K.N_STREAMS, np.uint64)
    return hands, won, bids, deck, partners, pub, rng


@hot
def mask_value_nb(mask, rules):
    """The values of the prizes of a bitmask, summed."""
    total = 0
    x = mask
    while x != 0:
        i = lowest_bit_nb(x)
        x &= x - 1
        total += prize_value_nb(i, rules)
    return total


@hot_inline
def check_bid_nb(seat, bid, hands, rules, game_out):
    """``bid`` if it is a card of the seat's hand, else -1 (and the seat marked in ``game_out``)."""
    if 1 <= bid <= rules[K.R_N_PRIZES] and (hands[seat] >> bid) & 1 != 0:
        return bid
    game_out[K.G_ILLEGAL] = 1 + seat
    return -1


@hot_inline
def ask_nb(seat, roster, strat_ids, strat_params, hands, won, deck, pub, rules, rng, game_out):
    """The seat's sealed bid; -1 for an illegal one (and marked in ``game_out``)."""
    bid = bid_nb(roster, strat_ids[seat], seat, strat_params[seat], hands, won, deck, pub, rules, rng)
    return check_bid_nb(seat, bid, hands, rules, game_out)


@hot_inline
def deal_nb(key, n, n_prizes, hands, won, deck, partners, pub, rng):
    """The game's streams seeded from ``key``, the prize deck shuffled once
    (canonical order, then the one shuffle of stream 0), full hands, nothing
    taken, and the public scalars of a game before its first round."""
    seed_streams_nb(key, rng)
    for i in range(n_prizes):                # the prizes in canonical order, then shuffled once
        deck[i] = i
    shuffle_nb(deck, 0, n_prizes, rng, K.DECK_STREAM, partners)
    full = ((ONE << (n_prizes + 1)) - 1) & ~ONE
    for s in range(n):
        hands[s] = full
        won[s] = 0
    pub[:] = 0
    pub[K.PUB_PLAYERS] = n
    pub[K.PUB_N_PRIZES] = n_prizes
    pub[K.PUB_LEFT] = (ONE << n_prizes) - 1


@hot_inline
def turn_up_nb(r, deck, pub, rules):
    """Round ``r`` (0-based) begins: its prize card turned up onto the table."""
    card = index_nb(deck[r])
    value = prize_value_nb(card, rules)
    pub[K.PUB_ROUND] = r + 1
    pub[K.PUB_PRIZE] = value
    pub[K.PUB_LEFT] &= ~(ONE << card)
    if pub[K.PUB_TABLE] == 0:
        pub[K.PUB_POT] = 0
    pub[K.PUB_TABLE] |= ONE << card
    pub[K.PUB_POT] += value


@hot
def settle_nb(n, hands, bids, won, pub, rules, seat_out, game_out):
    """Reveal the bids, cancel the ties and hand the table to the winner, carry it or discard it."""
    seen = np.int64(0)
    dup = np.int64(0)
    for s in range(n):
        bit = ONE << bids[s]
        hands[s] &= ~bit
        dup |= seen & bit
        seen |= bit
    if dup != 0:
        game_out[K.G_TIED_ROUNDS] += 1
        for s in range(n):
            if (dup >> bids[s]) & 1 != 0:
                seat_out[s, K.S_CANCELLED] += 1
    unique = seen & ~dup
    table = pub[K.PUB_TABLE]
    if unique != 0:
        best = highest_bit_nb(unique) if pub[K.PUB_PRIZE] > 0 else lowest_bit_nb(unique)
        winner = 0
        for s in range(n):
            if bids[s] == best:
                winner = s
        won[winner] |= table
        cards = bit_count_nb(table)
        seat_out[winner, K.S_TABLES] += 1
        game_out[K.G_BIGGEST_TABLE] = max(game_out[K.G_BIGGEST_TABLE], cards)
        pub[K.PUB_TABLE] = 0
    elif rules[K.R_CARRY_OVER] != 0:
        game_out[K.G_CARRIES] += 1
        pub[K.PUB_CARRIES] += 1
    else:
        game_out[K.G_DISCARDED] += bit_count_nb(table)
        game_out[K.G_DISCARDED_POINTS] += pub[K.PUB_POT]
        pub[K.PUB_TABLE] = 0


@hot
def finish_nb(n, won, pub, rules, seat_out, game_out):
    """A table left after the last round is discarded; then each seat's prizes and places."""
    table = pub[K.PUB_TABLE]
    if table != 0:
        game_out[K.G_DISCARDED] += bit_count_nb(table)
        game_out[K.G_DISCARDED_POINTS] += mask_value_nb(table, rules)
    vultures = (ONE << rules[K.R_VULTURES]) - 1       # the prize indices of the vulture cards
    for s in range(n):
        seat_out[s, K.S_PRIZES] = bit_count_nb(won[s])
        seat_out[s, K.S_VULTURES] = mask_value_nb(won[s] & vultures, rules)
        seat_out[s, K.S_MICE] = mask_value_nb(won[s] & ~vultures, rules)
        seat_out[s, K.S_SCORE] = seat_out[s, K.S_MICE] + seat_out[s, K.S_VULTURES]
    for s in range(n):
        above = 0
        for o in range(n):
            if seat_out[o, K.S_SCORE] > seat_out[s, K.S_SCORE]:
                above += 1
        seat_out[s, K.S_PLACE] = 1 + above


@hot
def play_game_nb(key, rules, roster, strat_ids, strat_params, ws, seat_out, game_out):
    """Play the game with 64-bit ``key`` into ``seat_out`` [P, N_SEAT_STATS]
    and ``game_out`` [N_GAME_STATS]; ``ws`` comes from :func:`new_workspace`."""
    hands, won, bids, deck, partners, pub, rng = ws
    n = hands.shape[0]
    n_prizes = rules[K.R_N_PRIZES]
    seat_out[:, :] = 0
    game_out[:] = 0
    deal_nb(key, n, n_prizes, hands, won, deck, partners, pub, rng)
    for r in range(n_prizes):
        turn_up_nb(r, deck, pub, rules)
        for s in range(n):
            bid = ask_nb(s, roster, strat_ids, strat_params, hands, won, deck, pub, rules, rng, game_out)
            if bid < 0:
                finish_nb(n, won, pub, rules, seat_out, game_out)
                return
            bids[s] = bid
        settle_nb(n, hands, bids, won, pub, rules, seat_out, game_out)
    finish_nb(n, won, pub, rules, seat_out, game_out)


# ------------------------------------------------------------------ one decision, from Python
@cold
def bid_one_nb(roster, sid, seat, params, hands, won, deck, pub, rules, rng):
    """The strategy ``sid``'s bid in one position (the reference engine's KernelDecider
    and the fairness tests ask the compiled strategies through this)."""
    return bid_nb(roster, sid, seat, params, hands, won, deck, pub, rules, rng)
