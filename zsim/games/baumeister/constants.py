"""Every slot of the fast Baumeister engine's arrays, and its output columns.

The kernels (``engine_nb.py``) and the strategy kernels read these; the
reference engine does not (it keeps its own state and names). A strategy
kernel is called as::

    decide_nb(seat, kind, opts, n_opts, params, loc, known, rows, city, st, pub, deck, rules, rng)

and returns, for a discrete decision (``D_TAKE``, ``D_STACK``, ``D_ACTION``,
``D_PLACE``, ``D_TARGET``, ``D_CARD``, ``D_KEEP``, ``D_ACCEPT``, ``D_UNDER``),
an index 0 .. n_opts - 1 into ``opts[:n_opts]``; for an amount (``D_OPEN``,
``D_BID``, ``D_OFFER``) an amount with ``opts[0]`` = low, ``opts[1]`` = high
(``D_BID`` and ``D_OFFER`` may return 0: pass, no offer). The options are in
the order of the reference engine's (``reference_bots.py``): seats ascending;
``STACK_OPEN`` before ``STACK_HIDDEN``; the actions ``A_BUILD``,
``A_BUILDING``, ``A_HAND``, ``A_NOTHING`` that are possible; placements
``card * W + OFF + pos`` by card then position, then ``PLACE_STOP``;
positions of the target's row ascending (as ``OFF + pos``); ``KEEP`` /
``LOSE``; ``ACCEPT`` / ``REFUSE``.

What a fair strategy may read: ``loc[c]`` only where ``known[seat, c]`` is 1
(own cards, built ones, open ones, shown ones, a hidden card it auctioned);
``pub[PUB_CARD]`` only then too; ``st[t, ST_CARDS:]`` (seat t's hand) only
for its own seat; everything else in ``rows``, ``city``, ``st``, ``pub`` and
``deck`` is public. It draws only from stream 1 + seat.
"""
from __future__ import annotations

import numpy as np

N_TYPES = 5
CORNER, TOWER, GATE, HALL, CHURCH = range(N_TYPES)
TYPES = ("corner_tower", "tower", "city_gate", "town_hall", "church")
#: deck columns: deck[c] = (type, value, shields, coins) of card c (row 0 unused)
D_TYPE, D_VALUE, D_SHIELDS, D_COINS, N_DECK = range(5)
MAX_CARDS = 100
#: the most cards one build may place (rule max_cards_per_build)
MAX_BUILD = 10

#: the answers of a first build's search kept in the workspace (``rows_nb.first_search_nb``): for a row
#: holding no card or one, a search for 2 or 3 more cards, indexed by the final round, the row (0 empty,
#: 1 + the one card's type), the cards asked for less 2, and the hand's count of each type (at most 3) as
#: base-4 digits; 0 not yet searched, else 1 + the answer
MEMO_NEEDS = 2
MEMO_HANDS = 4 ** N_TYPES
MEMO_SIZE = 2 * (1 + N_TYPES) * MEMO_NEEDS * MEMO_HANDS

# streams
SHUFFLE_STREAM, TABLE_STREAM, N_STREAMS = 0, 5, 6
SAB_FACE = 6                # the die's saboteur face (faces 1..5 are themselves)

# card locations (loc[c])
L_OPEN, L_HIDDEN, L_AUCTION = 0, 1, 2
L_HAND = 10                 # + seat
L_CITY = 20                 # + seat

# decisions
D_TAKE, D_STACK, D_OPEN, D_BID, D_ACTION, D_PLACE, D_TARGET, D_CARD, D_KEEP, D_OFFER, D_ACCEPT, D_UNDER = range(12)
STACK_OPEN, STACK_HIDDEN = 0, 1
A_BUILD, A_BUILDING, A_HAND, A_NOTHING = range(4)
PLACE_STOP = -1
KEEP, LOSE = 0, 1
ACCEPT, REFUSE = 0, 1

# rows: rows[s, OFF + pos] = card (0: empty); W positions per row
OFF = MAX_CARDS + 1
W = 2 * MAX_CARDS + 3
MAX_OPTS = (MAX_CARDS + 1) * W + 8

# a spot (rows_nb.spots_nb): a row index where some card may go, packed with the
# bitmask of the types it takes
SPOT_SHIFT = 8
SPOT_MASK = (1 << SPOT_SHIFT) - 1

# city[s, ...]
C_LEFT, C_RIGHT, C_COUNT, C_CLOSED_L, C_CLOSED_R, C_SHIELDS, C_COINS, C_HALLS, C_CORNERS = range(9)
N_CITY = 9

# st[s, ...]: per-seat state; public but for the hand itself,
# st[s, ST_CARDS : ST_CARDS + st[s, ST_HAND]]: its card ids, ascending (0 in
# the slots past it), so that a search walks the few cards in hand instead of
# every card's loc
ST_MONEY, ST_SAB, ST_BUILT_ONCE, ST_HAND, ST_LAST_BID, ST_ACTIVE, ST_CARDS = range(7)
N_ST = ST_CARDS + MAX_CARDS

# pub[...]: public scalars
(PUB_PLAYERS, PUB_N, PUB_TURN, PUB_SEAT, PUB_RESERVE, PUB_FINAL, PUB_TRIGGERED,
 PUB_HEAD_OPEN, PUB_HEAD_HIDDEN, PUB_SIZE_OPEN, PUB_SIZE_HIDDEN, PUB_OPEN_TOP,
 PUB_AUCTIONEER, PUB_STACK, PUB_CARD, PUB_HIGH, PUB_HIGH_SEAT, PUB_ANNOUNCED,
 PUB_ATTACKER, PUB_TARGET, PUB_ATTACK_POS, PUB_OFFER, PUB_PLACED, PUB_NEED,
 PUB_ILLEGAL, N_PUB) = range(26)

# rules[...]
(R_START_MONEY, R_MAX_BID, R_FORBID, R_SABOTEURS, R_FIRST_MIN, R_MAX_BUILD, R_ANY,
 R_HAND_MIN, R_BONUS_MIDDLE, R_BONUS_CHURCHES, R_BONUS_CORNERS, R_MAX_TURNS, N_RULES) = range(13)

# outputs
SEAT_COLUMNS = ("total", "place", "built", "complete", "middle", "churches", "corners", "hand",
                "money", "cards_won", "paid", "sales", "income", "insolvent", "penalty", "attacks",
                "destroyed", "kept_paid", "offer_paid", "saboteurs_taken", "cards_built")
(S_TOTAL, S_PLACE, S_BUILT, S_COMPLETE, S_MIDDLE, S_CHURCHES, S_CORNERS, S_HAND, S_MONEY,
 S_CARDS_WON, S_PAID, S_SALES, S_INCOME, S_INSOLVENT, S_PENALTY, S_ATTACKS, S_DESTROYED,
 S_KEPT_PAID, S_OFFER_PAID, S_SAB_TAKEN, S_CARDS_BUILT) = range(len(SEAT_COLUMNS))
N_SEAT_STATS = len(SEAT_COLUMNS)

GAME_COLUMNS = ("turns", "end_reason", "auctions", "hidden_auctions", "unsold", "insolvencies",
                "max_bid_hits", "announced", "building_attacks", "hand_attacks", "cards_destroyed",
                *(f"sold_{t}" for t in TYPES), *(f"price_{t}" for t in TYPES), "illegal")
(G_TURNS, G_END_REASON, G_AUCTIONS, G_HIDDEN_AUCTIONS, G_UNSOLD, G_INSOLVENCIES, G_MAX_BID_HITS,
 G_ANNOUNCED, G_BUILDING_ATTACKS, G_HAND_ATTACKS, G_DESTROYED) = range(11)
G_SOLD = 11                 # + type
G_PRICE = G_SOLD + N_TYPES  # + type
G_ILLEGAL = G_PRICE + N_TYPES
N_GAME_STATS = len(GAME_COLUMNS)
END_REASONS = ("stack_empty", "max_turns", "illegal")
END_STACK, END_TURNS, END_ILLEGAL = range(3)

# the per-card log (batch_nb.play_blocks_nb given cards_out): cards_out[g, c, CL_*] for card c = 1..N (row 0 unused).
# The workspace's ``sold`` [N + 1, N_SOLD] holds the first five while a game runs (one store each per
# sale, in award_nb); the end is read from ``loc`` when the game is over. A run without the log gets
# a ``sold`` of no rows, and its games neither clear nor write it.
CARD_COLUMNS = ("price", "turn", "buyer", "stack", "times_sold", "end", "owner")
CL_PRICE, CL_TURN, CL_BUYER, CL_STACK, CL_TIMES, CL_END, CL_OWNER = range(len(CARD_COLUMNS))
N_SOLD = 5                  # CL_PRICE .. CL_TIMES: what award_nb writes (the last sale of the card)
N_CARD_LOG = len(CARD_COLUMNS)
#: where a card ended (CL_END): a stack (never sold, unsold, or destroyed), a hand, a city
CARD_ENDS = ("stack", "hand", "city")
CE_STACK, CE_HAND, CE_CITY = range(3)

#: neighbour class of each type: tower and corner tower count as one
KIN = np.array([TOWER, TOWER, GATE, HALL, CHURCH], dtype=np.int64)
#: bit t of every type: a mask of the types that may go somewhere
ALL_TYPES = (1 << N_TYPES) - 1
#: for a mask m of types, the bits of the engine's count of each type in a hand (8 bits a type,
#: ``rows_nb.hand_in_nb``) that belong to m: ``holds[s] & HELD[m] != 0`` when the hand holds one of them
HELD = np.array([sum(255 << (8 * t) for t in range(N_TYPES) if m >> t & 1) for m in range(1 << N_TYPES)],
                dtype=np.int64)
#: the types a card of type t rules out beside it (its own neighbour class), as bits
SAME_KIN = np.array([sum(1 << u for u in range(N_TYPES) if KIN[u] == KIN[t]) for t in range(N_TYPES)],
                    dtype=np.int64)
