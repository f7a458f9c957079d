"""``handsize``: holds a target hand and sheds idle workers before paydays.

Grows towards ``target`` cards of the most demanded types; when the chance
that the next reveal is a payday reaches ``shed`` and it holds more than the
smallest other hand, it discards its least needed type instead. Bids like
``simple`` (the maximum when the opponents together cannot cover the job,
else ``low``). Strong when payday costs are high relative to job income.
"""
from __future__ import annotations

from strategies.zahltag._building_blocks import (grow_towards_nb, least_demanded_held_nb, smallest_other_hand_nb,
                                unopposed_or_nb)
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.facts_nb import payday_chance_nb
from zsim.games.zahltag.moves_nb import hand_covers_nb, hand_size_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "handsize"
DESCRIPTION = "holds a target hand size and sheds idle workers when a payday is likely"
PARAMS = (
    Param("target", 8.0, 0.0, 12.0, "hand size it grows towards (0: never takes a card)"),
    Param("shed", 0.3, 0.0, 1.0, "payday chance at which it sheds a card"),
    Param("low", 3.0, 1.0, 8.0, "bid when the opponents could cover the job"),
)


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if pub[K.PUB_ROUND] == 0 and payday_chance_nb(pub) >= params[1]:
        if hand_size_nb(seat, hand) > smallest_other_hand_nb(seat, hand, alive):
            return K.ACT_DISCARD + least_demanded_held_nb(seat, demand, hand)
        return K.ACT_NONE
    return grow_towards_nb(seat, int(params[0]), hand, left, right, stacks, demand, rules)


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    return unopposed_or_nb(seat, need, int(params[2]), hand, stacks, pub, rules)
