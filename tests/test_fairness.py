"""Fair strategies decide from public facts only.

For synthetic game states, the opponents' hidden cards are shuffled between
them in a way that keeps every public fact (hand sizes, the combined hidden
total of each type, the lower bounds everyone has tracked) and every fair
strategy must make the same adjustment and the same bid. The labelled
upper bound ``oracle`` must notice at least once, which shows the test can
catch a strategy that peeks.
"""
from __future__ import annotations

import numpy as np
import pytest

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.moves_nb import counts_of, lanes_of
from zsim.games.zahltag.rules import Rules
from zsim.dispatch import roster_dispatch
from zsim.roster import roster_for as roster
from zsim.strategy_registry import bots, registry, strategy_arrays

RULES = Rules().as_array()
NEEDS = default_deck().lanes()         # int16, as the engine passes them
SUPPLY = np.array(K.DEFAULT_SUPPLY)


def _state(rng: np.random.Generator, players: int):
    left_over = SUPPLY.copy()

    def draw(n):
        out = np.zeros(4, np.int64)
        for _ in range(n):
            avail = np.flatnonzero(left_over)
            t = rng.choice(avail)
            left_over[t] -= 1
            out[t] += 1
        return out

    hand = np.stack([draw(rng.integers(2, 11)) for _ in range(players)])
    left = np.stack([draw(rng.integers(0, 3)) for _ in range(players)])
    right = np.stack([draw(rng.integers(0, 3)) for _ in range(players)])
    stacks = left_over.astype(np.int16)     # card counts are int16, as in the engine (moves_nb)
    money = rng.integers(0, 40, players).astype(np.int64)
    alive = np.ones(players, np.int64)
    demand = rng.integers(0, 30, 4).astype(np.int64)
    pub = np.zeros(K.N_PUB, np.int64)
    pub[K.PUB_JOBS_SINCE] = rng.integers(0, 9)
    pub[K.PUB_PAYDAYS] = rng.integers(0, 5)
    pub[K.PUB_JOBS_LEFT] = rng.integers(1, 25)
    pub[K.PUB_PAYDAYS_LEFT] = rng.integers(1, 4)
    pub[K.PUB_LAST_PAYDAY] = rng.integers(0, 2)
    pub[K.PUB_FORCED_AT] = 9
    pub[K.PUB_TURN] = rng.integers(1, 40)
    pub[K.PUB_ROUND] = 0 if rng.random() < 0.8 else rng.integers(1, 4)
    pub[K.PUB_N_ALIVE] = players
    pub[K.PUB_PLAYERS] = players
    for s in range(players):
        pub[K.PUB_KNOWN + s] = lanes_of(rng.integers(0, hand[s] + 1))
    pub[K.PUB_HANDS] = lanes_of(hand.sum(axis=0))   # the engine keeps it as cards move
    return (hand.astype(np.int16), left.astype(np.int16), right.astype(np.int16), stacks, money, alive,
            demand, pub)


def _hidden_swap(rng, hand, pub, seat):
    """Swap one hidden card between two opponents, keeping every public fact."""
    players = hand.shape[0]
    known = np.array([counts_of(pub[K.PUB_KNOWN + s]) for s in range(players)])
    spare = hand - known  # cards nobody can pin down
    options = [(a, b, t, u) for a in range(players) for b in range(players)
               for t in range(4) for u in range(4)
               if seat not in (a, b) and a != b and t != u and spare[a, t] > 0 and spare[b, u] > 0]
    if not options:
        return None
    a, b, t, u = options[rng.integers(len(options))]
    out = hand.copy()
    out[a, t] -= 1
    out[a, u] += 1
    out[b, u] -= 1
    out[b, t] += 1
    return out


def _decide(sid, params, seat, need, hand, left, right, stacks, money, alive, demand, pub, rng):
    d = roster_dispatch("zahltag", roster("zahltag").sids)
    act = d.adjust_nb(sid, seat, params, hand, left, right, stacks, money, alive, demand, pub,
                      RULES, rng.copy())
    bid = d.bid_nb(sid, seat, need, params, hand, left, right, stacks, money, alive, demand, pub,
                   RULES, rng.copy())
    return int(act), int(bid)


def _changed_decisions(name: str, states: int = 1_500) -> tuple[int, int]:
    ids, params = strategy_arrays("zahltag", [name])
    rng = np.random.default_rng(7)
    tried = changed = 0
    for _ in range(states):
        players = int(rng.integers(3, 5))
        hand, left, right, stacks, money, alive, demand, pub = _state(rng, players)
        seat = int(rng.integers(players))
        swapped = _hidden_swap(rng, hand, pub, seat)
        if swapped is None:
            continue
        need = NEEDS[rng.integers(len(NEEDS))]
        streams = rng.integers(0, 2**63, players + 1).astype(np.uint64)
        before = _decide(ids[0], params[0], seat, need, hand, left, right, stacks, money, alive,
                         demand, pub, streams)
        after = _decide(ids[0], params[0], seat, need, swapped, left, right, stacks, money, alive,
                        demand, pub, streams)
        tried += 1
        changed += before != after
    return tried, changed


@pytest.mark.parametrize("name", sorted(s.name for s in bots() if s.fair))
def test_fair_strategies_ignore_hidden_cards(name):
    tried, changed = _changed_decisions(name)
    assert tried > 1_000
    assert changed == 0


def test_the_test_catches_a_strategy_that_peeks():
    assert not registry()["oracle"].fair
    tried, changed = _changed_decisions("oracle")
    assert tried > 1_000 and changed > 0
