"""``undercut``: bids below the competition it expects.

Counts the opponents who could cover the job (from their public bounds). With
none it bids the maximum; otherwise it expects rivals to bid around
``expect`` and goes ``margin`` lower for each rival, never under ``floor``.
Its defaults (expect 5, margin 2, floor 2, target 7) bid 3 against one
rival and 2 against several, with a hand of 7: low bids that win many jobs
cheaply. They are chosen to make it a strategy of its own: at its old
defaults (5, 1, 3, 8) it bid 4 against one rival and 3 against several,
exactly what ``counter`` bids, and the two played identical games. Weak when
everyone undercuts (ties pay bid − 2).
"""
from __future__ import annotations

from strategies.zahltag._building_blocks import grow_towards_nb
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.facts_nb import rivals_who_could_cover_nb
from zsim.games.zahltag.moves_nb import hand_covers_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "undercut"
DESCRIPTION = "bids below the expected competition: expect - margin x rivals who could cover"
PARAMS = (
    Param("expect", 5.0, 1.0, 8.0, "the bid it expects a lone rival to make"),
    Param("margin", 2.0, 0.0, 4.0, "how much lower it goes per rival that could cover"),
    Param("floor", 2.0, 1.0, 8.0, "never bids below this"),
    Param("target", 7.0, 4.0, 12.0, "hand size it grows towards"),
)


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    return grow_towards_nb(seat, int(params[3]), hand, left, right, stacks, demand, rules)


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    rivals = rivals_who_could_cover_nb(seat, need, hand, left, right, stacks, alive, pub, rules)
    top = rules[K.R_MAX_BID]
    if rivals == 0:
        return top
    bid = int(params[0] - params[1] * rivals)
    if bid < int(params[2]):
        bid = int(params[2])
    if bid < 1:
        bid = 1
    return bid if bid < top else top
