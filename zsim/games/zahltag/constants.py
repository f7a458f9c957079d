"""Zahltag's fixed facts and the slot maps of the engine's flat arrays.

Everything here is a plain int, usable as a compile-time constant inside numba
kernels.  Worker types are always indexed in the order F, W, C, E.
"""
from __future__ import annotations

# ------------------------------------------------------------------ workers
TYPE_LETTERS = "FWCE"
N_TYPES = 4
F, W, C, E = 0, 1, 2, 3
DEFAULT_SUPPLY = (14, 16, 10, 12)
MIN_PLAYERS = 2
MAX_PLAYERS = 4

# ------------------------------------------------------------------ deck
#: a deck slot holding this value is a payday card; jobs are 0..n_jobs-1
PAYDAY = -1

# ------------------------------------------------------------------ adjustments
# An adjustment (setup or turn step 2) is one int code:
#   0                 nothing
#   1 + t             take type t from its stack
#   5 + t             discard hand type t to its stack
#   9 + 4 * g + t     exchange: give hand type g, take type t (g != t)
ACT_NONE = 0
ACT_TAKE = 1
ACT_DISCARD = 5
ACT_EXCHANGE = 9
N_ACTIONS = 25

# ------------------------------------------------------------------ bids
PASS = 0

# ------------------------------------------------------------------ rules array
# The validated rules config travels into kernels as one int64 array.
R_START_MONEY = 0
R_PAYDAY_COST = 1
R_PAYDAYS_TO_END = 2
R_PAYDAY_CARDS = 3
R_FORCED_JOBS = 4
R_FORCED_JOBS_2P = 5
R_CARD_CAP = 6
R_MAX_BID = 7
R_SETUP_ROUNDS = 8
R_HAND_SIZE = 9
R_TIE_DISCOUNT = 10
R_OVER_CAP_PENALIZE = 11
R_PAYDAY_COUNTS_TABLE = 12
R_SUPPLY = 13  # four slots: 13..16
N_RULES = 17

# ------------------------------------------------------------------ outcomes
# Per seat, per game (int64 array [games, players, N_SEAT_STATS]).
S_MONEY = 0            # final money
S_PLACE = 1            # 1 = best; tied seats share a place
S_JOBS_WON = 2         # jobs awarded (a tie counts for every tied winner)
S_JOB_INCOME = 3       # net money from awards (a tie at 1 counts negative)
S_PAYDAY_PAID = 4      # money actually paid at paydays
S_PENALTY_PAID = 5     # cap penalties paid (variant over_cap=penalize)
S_PENALTY_RECEIVED = 6 # cap penalties received
S_ELIMINATED = 7       # 0 = survived, else the elimination event's number
S_BIDS = 8             # jobs this seat bid on (not passed)
S_IDLE_AT_PAYDAY = 9   # counted cards summed over the executed paydays
S_FINAL_CARDS = 10     # worker cards owned at the end (hand + table)
S_FINAL_TABLE = 11     # of which on the table
S_BID_SUM = 12         # sum of the bids made (passes count nothing)
S_BID_HIST = 13        # BID_BINS slots: bids of 1, 2, .., BID_BINS - 1, and BID_BINS or more
BID_BINS = 9
N_SEAT_STATS = S_BID_HIST + BID_BINS

# Per game (int64 array [games, N_GAME_STATS]).
G_TURNS = 0            # turns taken
G_PAYDAYS = 1          # paydays executed
G_JOBS_REVEALED = 2    # job cards revealed
G_JOBS_NO_BID = 3      # jobs everybody passed
G_JOBS_ONE_BID = 4     # jobs with exactly one bidder
G_JOBS_TIED = 5        # jobs won by a tie
G_END_REASON = 6       # END_FIFTH_PAYDAY or END_LAST_PLAYER
G_ELIMINATIONS = 7     # seats eliminated
G_RESHUFFLES = 8       # shuffles after the setup shuffle
G_LEAD_CHANGES = 9     # times the sole money leader (checked after every turn) changed
G_ILLEGAL = 10         # decisions a strategy got wrong (played as pass / nothing)
N_GAME_STATS = 11

END_FIFTH_PAYDAY = 0
END_LAST_PLAYER = 1
END_REASONS = ("fifth_payday", "last_player")

ELIM_PAYDAY = 0
ELIM_TIE_BID = 1
ELIM_PENALTY = 2
ELIM_REASONS = ("payday", "tie_bid", "penalty")

# ------------------------------------------------------------------ public state
# Scalars every seat can see, kept by the engine in one int64 array that
# strategies read (``pub``).
PUB_JOBS_SINCE = 0     # jobs revealed since the last payday
PUB_PAYDAYS = 1        # paydays executed
PUB_JOBS_LEFT = 2      # job cards still in the deck
PUB_PAYDAYS_LEFT = 3   # payday cards still in the deck
PUB_LAST_PAYDAY = 4    # 1 when the last executed card was a payday
PUB_FORCED_AT = 5      # jobs since the last payday that force one
PUB_TURN = 6           # turns taken so far (0 during setup)
PUB_ROUND = 7          # setup round 1.. during setup, 0 afterwards
PUB_N_ALIVE = 8        # players still in
PUB_PLAYERS = 9        # players at the start
# From slot PUB_KNOWN on, one slot per seat: the fewest cards of each type that
# seat must hold in hand, as everyone can tell from its public moves (cards it
# took, cards back from its right area, less what it gave up or used), as
# four 16-bit lanes of one int64, type t in bits 16t..16t+15 (``moves_nb``;
# ``facts_nb.known_nb`` reads one type).
PUB_KNOWN = 10
# Slot PUB_HANDS: the cards in every hand together, by type (the supply less
# the stacks and every table area, so public), kept as cards move, as lanes
# too: the opponents' combined hand of every type is one subtraction per
# decision.
PUB_HANDS = PUB_KNOWN + MAX_PLAYERS
N_PUB = PUB_HANDS + 1
