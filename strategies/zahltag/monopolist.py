"""``monopolist``: charges the most when nobody else can do the job.

Bids the maximum when no opponent could cover the job (judged from each
opponent's public bounds, exact with two players), a set level otherwise.
Holds a target hand of the types the deck still needs, like ``simple``.
Strong when the level is low enough to win contested jobs and the hand is
broad enough to be alone on many jobs.
"""
from __future__ import annotations

from strategies.zahltag._building_blocks import grow_towards_nb
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.facts_nb import rivals_who_could_cover_nb
from zsim.games.zahltag.moves_nb import hand_covers_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "monopolist"
DESCRIPTION = "bids the maximum when no opponent could cover the job, a set level otherwise"
PARAMS = (
    Param("level", 3.0, 1.0, 8.0, "bid when some opponent could cover the job"),
    Param("target", 8.0, 4.0, 12.0, "hand size it grows towards"),
)


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    return grow_towards_nb(seat, int(params[1]), hand, left, right, stacks, demand, rules)


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    if rivals_who_could_cover_nb(seat, need, hand, left, right, stacks, alive, pub, rules) == 0:
        return rules[K.R_MAX_BID]
    return min(int(params[0]), rules[K.R_MAX_BID])
