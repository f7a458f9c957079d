"""``oracle``: reads every hand. An upper bound for comparison, never fair.

Knows exactly which opponents hold a job's requirement: bids the maximum when
none does, ``duel`` against one, ``crowd`` against several. Holds ``target``
cards like ``simple``. Use it to measure how much perfect information is
worth; it is labelled unfair and kept out of fair results.
"""
from __future__ import annotations

from strategies._common import bid_by_rivals_nb, grow_towards_nb
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_covers_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "oracle"
DESCRIPTION = "sees every hand: bids the maximum when no opponent truly covers the job"
FAIR = False
PARAMS = (
    Param("duel", 4.0, 1.0, 8.0, "bid when exactly one opponent covers the job"),
    Param("crowd", 3.0, 1.0, 8.0, "bid when several do"),
    Param("target", 8.0, 4.0, 12.0, "hand size it grows towards"),
)


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    return grow_towards_nb(seat, int(params[2]), hand, left, right, stacks, demand, rules)


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    rivals = 0
    for o in range(hand.shape[0]):
        if o != seat and alive[o] != 0 and hand_covers_nb(o, need, hand):  # reads hidden hands
            rivals += 1
    return bid_by_rivals_nb(rivals, params[0], params[1], rules)
