"""``oracle``: reads every hand. An upper bound for comparison, never fair.

``counter`` with perfect information: the same parameters and hand-keeping,
but it counts the opponents that truly hold a job's requirement instead of
those that could. Use it to measure how much perfect information is worth;
it is labelled unfair and kept out of fair results.
"""
from __future__ import annotations

from strategies.zahltag import counter
from strategies.zahltag._building_blocks import bid_by_rivals_nb
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_covers_nb
from zsim.jit import hot_inline

NAME = "oracle"
DESCRIPTION = "sees every hand: bids the maximum when no opponent truly covers the job"
FAIR = False
PARAMS = counter.PARAMS[:3]   # duel, crowd, target: oracle has nothing to turn off
adjust_nb = counter.adjust_nb


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    rivals = 0
    for o in range(hand.shape[0]):
        if o != seat and alive[o] != 0 and hand_covers_nb(o, need, hand):  # reads hidden hands
            rivals += 1
    return bid_by_rivals_nb(rivals, params[0], params[1], rules)
