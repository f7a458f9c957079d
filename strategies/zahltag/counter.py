"""``counter``: counts cards to know who can compete for each job.

Tracks every opponent's hand from public moves (the cards it took, the cards
back from its table, the combined hidden total), exactly so with two players.
No rival able to cover: bids the maximum. Exactly one: bids ``duel``. More:
bids ``crowd``. Holds ``target`` cards like ``simple``. Strong in two-player
games, where its knowledge is exact. ``blind=1`` turns the counting off (every
rival still in counts as able to cover), which `zsim analyze players` plays
against the counting version to price the knowledge.
"""
from __future__ import annotations

from strategies.zahltag._building_blocks import bid_by_rivals_nb, grow_towards_nb
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.facts_nb import rivals_who_could_cover_nb
from zsim.games.zahltag.moves_nb import hand_covers_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "counter"
DESCRIPTION = "tracks opponents' hands from public moves; bids by how many rivals could cover"
PARAMS = (
    Param("duel", 4.0, 1.0, 8.0, "bid when exactly one rival could cover the job"),
    Param("crowd", 3.0, 1.0, 8.0, "bid when several rivals could"),
    Param("target", 8.0, 4.0, 12.0, "hand size it grows towards"),
    Param("blind", 0.0, 0.0, 1.0, "1: count nothing, treat every rival still in as able to cover"),
)


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    return grow_towards_nb(seat, int(params[2]), hand, left, right, stacks, demand, rules)


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if not hand_covers_nb(seat, need, hand):
        return K.PASS
    if params[3] >= 0.5:   # blind: what counting is worth shows against this
        rivals = -1
        for s in range(alive.shape[0]):
            rivals += alive[s] != 0
    else:
        rivals = rivals_who_could_cover_nb(seat, need, hand, left, right, stacks, alive, pub, rules)
    return bid_by_rivals_nb(rivals, params[0], params[1], rules)
