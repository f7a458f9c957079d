"""Zahlemann strategies decide from what their seat may know.

Random legal decision states (every variant on or off, 2-4 players): the
cards the deciding seat cannot see, the other hands and the draw pile, are
dealt out again at random (every hand keeps its size; the discards, money,
``pub`` and the seat's own ``passed`` hand stay), and the other seats'
``passed`` hands are redrawn. No fair strategy may change a decision, and
none may touch a stream but its own (1 + seat). The labelled ``oracle``
reads the other hands, so it must change some decisions: the test can catch
a strategy that peeks. Every answer of every strategy must be legal.
"""
from __future__ import annotations

import numpy as np
import pytest

from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.engine_nb import decide_one_nb
from zsim.games.zahlemann.batch import rules_array
from zsim.games.zahlemann.rules import Rules
from zsim.roster import roster_for as roster
from zsim.strategy_registry import bots, registry, strategy_arrays

STATES = 2_000
FAIR = sorted(s.name for s in bots("zahlemann") if s.fair)


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def _matching(card: int) -> int:
    return K.VALUE_MASK[card // K.N_COLOURS] | K.COLOUR_MASK[card % K.N_COLOURS]


def _cards(mask: int) -> list[int]:
    return [c for c in range(K.N_CARDS) if mask >> c & 1]


def random_state(rnd: np.random.Generator):
    """A legal decision: (seat, kind, options, hands, passed, discards, money,
    pub, rules, draw pile), the draw pile as a list of cards."""
    players = int(rnd.integers(2, 5))
    seat = int(rnd.integers(players))
    rules = Rules().with_overrides({"one_plays_again": bool(rnd.random() < 0.5),
                                    "fifty_skips": bool(rnd.random() < 0.5),
                                    "two_passes_hands": bool(rnd.random() < 0.5)})
    kind = int(rnd.integers(3)) if rules.one_plays_again else int(rnd.integers(2))
    while True:
        deck = [int(c) for c in rnd.permutation(K.N_CARDS)]
        n_disc = int(rnd.integers(1, 16))
        if kind == K.D_BONUS:            # the top is the 1 just played
            ones = [c for c in deck if c // K.N_COLOURS == K.V1]
            deck.remove(ones[0])
            deck.insert(n_disc - 1, ones[0])
        discards, rest = deck[:n_disc], deck[n_disc:]
        top = discards[-1]
        sizes = [int(rnd.integers(1, 8)) for _ in range(players)]
        if sum(sizes) > len(rest):
            continue
        hands, at = [], 0
        for size in sizes:
            hands.append(_mask(rest[at:at + size]))
            at += size
        pile = rest[at:]
        match = _matching(top)
        own = hands[seat] & match
        if kind == K.D_DRAWN:            # the drawn card is the only match
            if own == 0:
                continue
            drawn = own & -own
            extra = own & ~drawn         # give the other matches to the draw pile
            hands[seat] &= ~extra
            pile += _cards(extra)
            options = drawn
        else:
            options = own
        if options:
            break
    hands_a = np.array(hands, np.int64)
    passed = np.array([int(rnd.integers(0, 2**36)) & hands[(s + 1) % players] if rnd.random() < 0.5
                       else 0 for s in range(players)], np.int64)
    disc = np.zeros(K.N_CARDS, np.int64)
    disc[:n_disc] = discards
    money = np.zeros((players, K.M_COLUMNS), np.int64)
    money[:, :K.N_DENOMINATIONS] = rnd.integers(0, 5, (players, K.N_DENOMINATIONS))
    money[:, K.M_TOTAL] = money[:, :K.N_DENOMINATIONS] @ np.array(K.DENOMINATIONS)
    pub = np.zeros(K.N_PUB, np.int64)
    pub[K.PUB_TOP] = top
    pub[K.PUB_ROUND] = rnd.integers(1, 6)
    pub[K.PUB_TURN] = rnd.integers(1, 60)
    pub[K.PUB_STARTER] = rnd.integers(players)
    pub[K.PUB_DRAW_SIZE] = len(pile)
    pub[K.PUB_N_DISCARDS] = n_disc
    pub[K.PUB_DISCARDED] = _mask(discards)
    pub[K.PUB_PLAYERS] = players
    pub[K.PUB_CUR] = seat
    pub[K.PUB_DRAWN] = 1 if kind == K.D_DRAWN else 0
    pub[K.PUB_PLAYED] = 1 if kind == K.D_BONUS else 0
    return seat, kind, options, hands_a, passed, disc, money, pub, rules_array(rules), pile


def hidden_reshuffle(rnd, seat, hands, passed, pile):
    """The other hands and the draw pile dealt out again, sizes kept; the
    other seats' passed hands redrawn."""
    hidden = [c for s in range(len(hands)) if s != seat for c in _cards(int(hands[s]))] + list(pile)
    hidden = [int(c) for c in rnd.permutation(hidden)]
    out, at = hands.copy(), 0
    for s in range(len(hands)):
        if s != seat:
            size = int(hands[s]).bit_count()
            out[s] = _mask(hidden[at:at + size])
            at += size
    new_passed = passed.copy()
    for s in range(len(hands)):
        if s != seat:
            new_passed[s] = _mask(rnd.choice(hidden, int(rnd.integers(0, 6)), replace=False))
    return out, new_passed


def decide(sid, params, seat, kind, options, hands, passed, disc, money, pub, rules, rng):
    """The answer and the streams after it (the kernel works on a copy)."""
    rng = rng.copy()
    answer = int(decide_one_nb(roster('zahlemann'), sid, seat, kind, np.int64(options), params, hands, passed, disc,
                               money, pub, rules, rng))
    return answer, rng


def _check(name: str, states: int = STATES):
    """(decisions tried, decisions changed by the hidden reshuffle); asserts
    legality and stream discipline on the way."""
    ids, params = strategy_arrays("zahlemann", [name])
    rnd = np.random.default_rng(20261202)
    changed = 0
    for _ in range(states):
        seat, kind, options, hands, passed, disc, money, pub, rules, pile = random_state(rnd)
        rng = rnd.integers(1, 2**63, K.N_STREAMS).astype(np.uint64)
        answer, after = decide(ids[0], params[0], seat, kind, options, hands, passed, disc, money,
                               pub, rules, rng)
        legal = (options >> answer) & 1 if 0 <= answer < K.N_CARDS else answer == K.KEEP and kind != K.D_PLAY
        assert legal, (name, seat, kind, bin(options), answer)
        untouched = np.arange(K.N_STREAMS) != 1 + seat
        assert (after[untouched] == rng[untouched]).all(), (name, "drew from another stream")
        hands2, passed2 = hidden_reshuffle(rnd, seat, hands, passed, pile)
        again, _ = decide(ids[0], params[0], seat, kind, options, hands2, passed2, disc, money,
                          pub, rules, rng)
        changed += again != answer
    return states, changed


def test_the_states_are_legal_and_varied():
    rnd = np.random.default_rng(1)
    kinds, players = set(), set()
    for _ in range(500):
        seat, kind, options, hands, _, disc, _, pub, rules, pile = random_state(rnd)
        everything = [c for h in hands for c in _cards(int(h))] + list(disc[:pub[K.PUB_N_DISCARDS]]) + pile
        assert sorted(everything) == list(range(K.N_CARDS))
        assert pub[K.PUB_DISCARDED] == _mask(disc[:pub[K.PUB_N_DISCARDS]])
        assert options and options & ~int(hands[seat]) == 0
        assert options & ~_matching(int(pub[K.PUB_TOP])) == 0
        if kind == K.D_DRAWN:
            assert options & (options - 1) == 0
            assert int(hands[seat]) & ~options & _matching(int(pub[K.PUB_TOP])) == 0
        if kind == K.D_BONUS:
            assert pub[K.PUB_TOP] // K.N_COLOURS == K.V1 and rules[K.R_ONE_PLAYS_AGAIN]
        kinds.add(kind)
        players.add(len(hands))
    assert kinds == {K.D_PLAY, K.D_DRAWN, K.D_BONUS} and players == {2, 3, 4}


@pytest.mark.parametrize("name", FAIR)
def test_fair_strategies_ignore_hidden_cards(name):
    tried, changed = _check(name)
    assert changed == 0, f"{name} changed {changed} of {tried} decisions when hidden cards moved"


def test_the_test_catches_a_strategy_that_peeks():
    assert not registry("zahlemann")["oracle"].fair
    _, changed = _check("oracle")
    assert changed > 20, changed


def test_the_field_is_there():
    names = {s.name for s in bots("zahlemann")}
    assert {"shedder", "flexible", "counter", "variant", "keeper", "oracle"} <= names
    assert len(FAIR) >= 7
