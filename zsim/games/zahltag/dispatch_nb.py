"""Strategy dispatch inside the jitted game loop.

A seat's strategy is an int id plus a float parameter row; these functions
branch on the id, so one compiled engine serves every matchup.  The order of
the branches is the order of ``zsim.strategy_registry.BUILTIN``.
"""
from __future__ import annotations

from zsim.jit import hot_inline

from strategies import random as random_strategy
from strategies import simple as simple_strategy

random_adjust_nb = random_strategy.adjust_nb
random_bid_nb = random_strategy.bid_nb
simple_adjust_nb = simple_strategy.adjust_nb
simple_bid_nb = simple_strategy.bid_nb


@hot_inline
def adjust_nb(sid, seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if sid == 1:
        return simple_adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub,
                                rules, rng)
    return random_adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub,
                            rules, rng)


@hot_inline
def bid_nb(sid, seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules,
           rng):
    if sid == 1:
        return simple_bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand,
                             pub, rules, rng)
    return random_bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub,
                         rules, rng)
