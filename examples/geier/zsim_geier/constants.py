"""Hol's der Geier's fixed facts and the slot maps of the fast engine's flat arrays.

Everything here is a plain int (or a tuple of ints), usable as a
compile-time constant inside numba kernels. The fast engine shares no rule
code with the reference engine; these numbers are the game as the
package's README states it.

Cards
-----
A *prize* is named by its index ``i`` in the canonical order of the prize
deck, ascending by value: with ``v = rules[R_VULTURES]`` vulture cards the
values are ``-v .. -1`` (indices ``0 .. v-1``) and then ``1 .. top_prize``
(indices ``v .. N-1``), ``N = v + top_prize``. A set of prizes (the table,
the prizes a seat has taken, those not yet turned) is an int64 bitmask,
bit ``i`` = prize ``i``.

A *bid card* is its value ``b`` in ``1 .. N``; a hand is an int64 bitmask
with bit ``b`` set for each bid card held (bit 0 is never used).
"""
from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: the most prize cards (and so bid cards) the rules allow: 10 vultures + a top prize of 15
MAX_PRIZES = 25

# ------------------------------------------------------------------ rules array
# The validated rules travel into kernels as one int64 array.
R_VULTURES = 0         # the number of vulture (negative) cards, -R_VULTURES .. -1
R_TOP_PRIZE = 1        # the highest positive prize card
R_CARRY_OVER = 2       # 0 / 1: a fully tied table stays for the next round
R_N_PRIZES = 3         # R_VULTURES + R_TOP_PRIZE: prize cards, rounds, and bid cards per hand
N_RULES = 4

# ------------------------------------------------------------------ streams
DECK_STREAM = 0        # the one shuffle of the prize deck; stream 1 + seat is that seat's strategy
N_STREAMS = 1 + MAX_PLAYERS

# ------------------------------------------------------------------ public state
# Scalars every seat can see, kept by the engine in one int64 array (``pub``)
# that strategies read; the reference engine's KernelDecider fills it alike.
PUB_ROUND = 0          # the round, 1-based (a prize card is turned up every round)
PUB_PLAYERS = 1        # P
PUB_N_PRIZES = 2       # N: prize cards in the deck, bid cards in a full hand
PUB_PRIZE = 3          # the value of the card turned up this round (its sign decides the round)
PUB_POT = 4            # the value of every card on the table (this one and any carried)
PUB_TABLE = 5          # the prizes on the table, a bitmask of prize indices
PUB_LEFT = 6           # the prizes not yet turned up, a bitmask of prize indices
PUB_CARRIES = 7        # rounds carried over so far
N_PUB = 8

# ------------------------------------------------------------------ outcomes
# Per seat, per game (int64 array [games, players, N_SEAT_STATS]).
S_SCORE = 0            # the values of the prizes taken, summed
S_PLACE = 1            # 1 = best; tied seats share a place and the next is skipped
S_PRIZES = 2           # prize cards taken
S_MICE = 3             # points of the positive prizes taken
S_VULTURES = 4         # points of the vulture cards taken (0 or less)
S_TABLES = 5           # times the seat took the table
S_CANCELLED = 6        # its bids cancelled by a tie
N_SEAT_STATS = 7

# Per game (int64 array [games, N_GAME_STATS]).
G_CARRIES = 0          # rounds whose fully tied table stayed for the next round
G_TIED_ROUNDS = 1      # rounds with at least one cancelled bid
G_DISCARDED = 2        # prize cards discarded (fully tied without carry_over, or left at the end)
G_DISCARDED_POINTS = 3 # their values summed
G_BIGGEST_TABLE = 4    # the most prize cards taken at once
G_ILLEGAL = 5          # 0, or 1 + the seat whose strategy gave an illegal bid (the game
                       # stopped there: its other columns hold the state at that moment)
N_GAME_STATS = 6

#: the column names, in order (what tables and tests call them)
SEAT_COLUMNS = ("score", "place", "prizes", "mice", "vultures", "tables", "cancelled")
GAME_COLUMNS = ("carries", "tied_rounds", "discarded", "discarded_points", "biggest_table", "illegal")
