"""Zahlemann & Söhne's fixed facts and the slot maps of the fast engine's flat arrays.

Everything here is a plain int (or a tuple of ints), usable as a compile-time
constant inside numba kernels. The fast engine shares no rule code with the
reference engine; these numbers are the game as docs/rules.md states it.

Cards and hands
---------------
A card is the int ``6 * value_index + colour_index`` (0..35): values
1, 2, 5, 10, 20, 50 (index 0..5), colours R B Y G A V (index 0..5). A hand
(or any set of cards) is an int64 bitmask, bit ``c`` = card ``c``, so
ascending card ints, the canonical order, is ascending bit order.
``VALUE_MASK[v]`` holds the six cards of value index ``v`` and
``COLOUR_MASK[k]`` the six of colour index ``k``; the cards matching ``top``
are ``VALUE_MASK[top // 6] | COLOUR_MASK[top % 6]``, kept for every card in
``MATCHING`` (a lookup in a turn loop instead of a division).

Coins
-----
A holding is six counts of coins of ``DENOMINATIONS`` (50, 20, 10, 5, 2, 1),
largest first; the engine keeps each seat's money as a row of ``M_COLUMNS``
ints: the six counts, then the total value (``M_TOTAL``). Under ``money=total``
the counts stay 0 and only ``M_TOTAL`` is kept.
"""
from __future__ import annotations

# ------------------------------------------------------------------ cards
VALUES = (1, 2, 5, 10, 20, 50)
COLOURS = "RBYGAV"
N_VALUES = 6
N_COLOURS = 6
N_CARDS = 36
ALL_CARDS = (1 << N_CARDS) - 1
#: value indices with a variant effect
V1, V2, V50 = 0, 1, 5
#: the six cards of one value: bits 6v .. 6v+5
VALUE_MASK = tuple(0x3F << (N_COLOURS * v) for v in range(N_VALUES))
#: the six cards of one colour: bits k, k+6, .., k+30
COLOUR_MASK = tuple(0x41041041 << k for k in range(N_COLOURS))
#: MATCHING[c]: the cards that may go on card c, its value's and its colour's
MATCHING = tuple(VALUE_MASK[c // N_COLOURS] | COLOUR_MASK[c % N_COLOURS] for c in range(N_CARDS))
MIN_PLAYERS = 2
MAX_PLAYERS = 4

# ------------------------------------------------------------------ coins
DENOMINATIONS = (50, 20, 10, 5, 2, 1)
N_DENOMINATIONS = 6
M_TOTAL = 6            # money[:, M_TOTAL]: the value of the seat's money
M_COLUMNS = 7

# ------------------------------------------------------------------ rules array
# The validated rules travel into kernels as one int64 array; ``notice`` (a
# probability) travels beside it as a float64.
R_HAND_SIZE = 0
R_MONEY = 1            # MONEY_COINS or MONEY_TOTAL
R_CHANGE = 2           # CHANGE_RECEIVER, CHANGE_NONE or CHANGE_BANK
R_MAX_ROUNDS = 3
R_MAX_TURNS = 4
R_ONE_PLAYS_AGAIN = 5  # 0 / 1
R_FIFTY_SKIPS = 6      # 0 / 1
R_TWO_PASSES_HANDS = 7 # 0 / 1
R_COINS = 8            # six slots 8..13: the starting coins of 50, 20, 10, 5, 2, 1
N_RULES = 14

MONEY_COINS, MONEY_TOTAL = 0, 1
MONEY_MODES = ("coins", "total")
CHANGE_RECEIVER, CHANGE_NONE, CHANGE_BANK = 0, 1, 2
CHANGE_MODES = ("receiver", "none", "bank")

# ------------------------------------------------------------------ streams
DECK_STREAM = 0        # every shuffle; stream 1 + seat is that seat's strategy
ANNOUNCE_STREAM = 5    # the forget and notice draws
N_STREAMS = 6

# ------------------------------------------------------------------ decisions
D_PLAY = 0             # play one of ``options`` (a must)
D_DRAWN = 1            # the no_match draw matches: play it, or KEEP
D_BONUS = 2            # one_plays_again: play one of ``options``, or STOP
DECISION_KINDS = ("play", "drawn", "bonus")
KEEP = -1              # the answer "keep" (D_DRAWN) or "stop" (D_BONUS)
STOP = -1

# ------------------------------------------------------------------ public state
# Scalars every seat can see, kept by the engine in one int64 array (``pub``)
# that strategies read; the reference engine's KernelDecider fills it alike.
PUB_TOP = 0            # the top discard (a card int)
PUB_ROUND = 1          # the round, 1-based, void rounds counted
PUB_TURN = 2           # the turn within the round, 1-based, skipped turns counted
PUB_STARTER = 3        # the seat that started this round
PUB_DRAW_SIZE = 4      # cards in the draw pile
PUB_N_DISCARDS = 5     # cards in the discard pile (discards[PUB_N_DISCARDS - 1] is the top)
PUB_PLAYERS = 6        # P
PUB_CUR = 7            # whose turn it is (the deciding seat)
PUB_DRAWN = 8          # cards the current seat drew this turn (the no_match draw, penalty cards)
PUB_PLAYED = 9         # cards the current seat played this turn (a bonus chain)
PUB_SKIP = 10          # 1 while a fifty_skips skip is pending
PUB_DEADLOCK = 11      # the round's deadlock count
PUB_PASSES = 12        # hand passes this round (two_passes_hands)
PUB_RESHUFFLES = 13    # reshuffles of the discards this game
PUB_DISCARDED = 14     # the discard pile's cards as a bitmask (bit c: card c)
N_PUB = 15

# ------------------------------------------------------------------ outcomes
# Per seat, per game (int64 array [games, players, N_SEAT_STATS]).
S_TOTAL = 0            # value of the final money
S_PLACE = 1            # 1 = best; tied seats share a place and the next is skipped
S_ROUNDS_WON = 2
S_PAID = 3             # sum of the seat's payments (value handed over minus change)
S_RECEIVED = 4         # sum of the payments the seat received as a round's winner
S_BANKRUPT = 5         # 0 / 1
S_CARDS_PLAYED = 6
S_CARDS_DRAWN = 7      # every draw that gave a card (no_match, penalty, fifty)
S_PENALTY_DRAWS = 8    # of them, penalty cards
S_FORGOTTEN = 9        # announcements forgotten
S_NOTICED = 10         # of them, noticed
S_SHORTFALL = 11       # what the seat lost as a payer because no change was made
S_COINS = 12           # six slots: the final coins of 50, 20, 10, 5, 2, 1 (zeros under money=total)
N_SEAT_STATS = 18

# Per game (int64 array [games, N_GAME_STATS]).
G_ROUNDS = 0           # rounds played, void ones included
G_VOID_ROUNDS = 1
G_TURNS = 2            # every turn of the game, skipped ones included
G_RESHUFFLES = 3
G_END_REASON = 4       # END_BANKRUPT, END_ROUND_CAP (END_ILLEGAL: see G_ILLEGAL)
G_CHANGE_SHORTFALL = 5 # the seats' shortfalls summed
G_BONUS_PLAYS = 6
G_SKIPS = 7
G_HAND_PASSES = 8
G_BANK = 9             # six slots: the bank's net stock change per denomination (change=bank)
G_ILLEGAL = 15         # 0, or 1 + the seat whose strategy gave an illegal answer (the game
                       # stopped there: its other columns hold the state at that moment)
N_GAME_STATS = 16

END_BANKRUPT = 0
END_ROUND_CAP = 1
END_ILLEGAL = 2
END_REASONS = ("bankrupt", "round_cap", "illegal")

#: the column names, in order (what tables and tests call them)
SEAT_COLUMNS = ("total", "place", "rounds_won", "paid", "received", "bankrupt", "cards_played",
                "cards_drawn", "penalty_draws", "forgotten", "noticed", "shortfall",
                "coins_50", "coins_20", "coins_10", "coins_5", "coins_2", "coins_1")
GAME_COLUMNS = ("rounds", "void_rounds", "turns", "reshuffles", "end_reason", "change_shortfall",
                "bonus_plays", "skips", "hand_passes", "bank_50", "bank_20", "bank_10", "bank_5",
                "bank_2", "bank_1", "illegal")
