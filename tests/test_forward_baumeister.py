"""Baumeister's forward model: what a determinisation keeps, and how it draws
what the seat cannot see (``zsim/games/baumeister/forward_know_nb.py``).

* From any position of a random game, for any seat, a determinised position
  shows the seat the same view, keeps the seat's hand, its knowledge and the
  public table as they are, and is a consistent table itself: every card in
  one place, hands sorted, the type announced for each hidden card held.
* Over many draws from one small position, each unseen card lands in each
  place (a stack, a hand, the auction) as often as the exact posterior says.
  That posterior is worked out here in plain Python from the reference
  engine (``reference.py``) played to the same decision: its own record of
  what each seat has seen, every assignment of the unseen cards to their
  places enumerated and kept when it gives each hidden card its announced
  type and lets a seat in the middle of a build finish it (``City.can_place``).
"""
from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy.stats import chisquare

from zsim.games.baumeister import constants as K
from zsim.games.baumeister import forward_nb as F
from zsim.games.baumeister import position_nb as P
from zsim.games.baumeister import reference_bots as S
from zsim.games.baumeister.cards import parse_deck
from zsim.games.baumeister.reference import HIDDEN_STACK, OPEN_STACK, Game, SeededChance
from zsim.games.baumeister.rules import Rules
from zsim.harness.chunks import Matchup
from zsim.harness.forward import (fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb, fm_new_nb, fm_options_nb,
                                  fm_view_nb)
from zsim.jit import cold
from zsim.rng import game_key
from zsim.roster import Roster
from zsim.strategy_registry import strategy_arrays

SEED = 4711
TINY = parse_deck("card,type,value,shields,coins\n" + "\n".join(
    f"{i},{t},{v},{sh},{co}" for i, (t, v, sh, co) in enumerate(
        [("corner_tower", 1, 1, 0), ("corner_tower", 2, 1, 0), ("tower", 1, 1, 0), ("tower", 2, 1, 0),
         ("city_gate", 2, 0, 2), ("city_gate", 4, 0, 1), ("town_hall", 5, 0, 0), ("church", 4, 0, 0),
         ("church", 5, 0, 0), ("church", 6, 0, 0)], 1)), "tiny")


@cold
def _probe(roster, ids, params, keys, n_players, consts, ws, pos, k, seat, rng, out, views, o_loc, locs):
    """With one game key: that game played by the bots through the forward model, ``k`` decisions
    on (or to its end), then ``seat``'s determinisations of it into ``out``: with ``locs`` of no
    rows one, the seat's view of ``pos`` and of ``out`` into ``views[0]`` and ``views[1]``; else
    one for each row, ``locs[i]`` where each card is in the i-th. Returns (decisions played, the
    views' lengths). With several keys: those games played out, each position determinised for
    every seat; returns (decisions, determinised positions whose pending decision had no
    option, 0). One kernel for every use, cached: its compile links the whole forward model."""
    done = 0
    bad = 0
    for g in range(keys.shape[0]):
        fm_new_nb(roster, keys[g], n_players, consts, ws, pos)
        while (keys.shape[0] > 1 or done < k) and fm_decider_nb(roster, pos) >= 0:
            if keys.shape[0] > 1:
                for s in range(n_players):
                    fm_determinize_nb(roster, pos, s, rng, out, consts, ws)
                    bad += np.int64(fm_options_nb(roster, out, consts, views[0]) < 1)
            fm_apply_nb(roster, pos, fm_bot_nb(roster, ids, params, pos, consts), consts, ws)
            done += 1
    if keys.shape[0] > 1:
        return done, bad, 0
    for i in range(locs.shape[0]):
        fm_determinize_nb(roster, pos, seat, rng, out, consts, ws)
        for c in range(locs.shape[1]):
            locs[i, c] = out[o_loc + c]
    if locs.shape[0] > 0:
        return done, 0, 0
    fm_determinize_nb(roster, pos, seat, rng, out, consts, ws)
    return done, fm_view_nb(roster, pos, seat, views[0]), fm_view_nb(roster, out, seat, views[1])


class _Table:
    """A forward model set up for random bots at ``players`` seats."""

    def __init__(self, players, rules=None, deck=None):
        self.m = Matchup(players, ("random",) * players, rules=rules, deck=deck, game="baumeister")
        self.ids, self.params = strategy_arrays("baumeister", ["random"] * players)
        self.roster = Roster("baumeister", self.ids)          # random alone, whatever $ZSIM_ROSTER says
        self.consts, self.ws = F.consts(self.m), F.workspace(self.m)
        self.n = self.m.deck.n
        self.pos = np.zeros(F.size(self.m), np.int64)
        self.out = np.zeros_like(self.pos)

    def probe(self, game, k, seat=0, draw=1, draws=0):
        """``_probe`` of one game: (decisions played, the views, or where each card is in each of ``draws``)."""
        views = np.zeros((2, max(4 * self.pos.shape[0], F.MAX_OPTIONS)), np.int64)
        locs = np.zeros((draws, self.n + 1), np.int64)
        done, na, nb = self._probe([game_key(SEED, game)], k, seat, draw, views, locs)
        return done, views[0, :na], views[1, :nb], locs

    def sweep(self, games):
        """``_probe`` of several games: (decisions, determinised positions left without options)."""
        views = np.zeros((2, max(4 * self.pos.shape[0], F.MAX_OPTIONS)), np.int64)
        done, bad, _ = self._probe([game_key(SEED, g) for g in games], 0, 0, 5, views,
                                   np.zeros((0, self.n + 1), np.int64))
        return done, bad

    def _probe(self, keys, k, seat, draw, views, locs):
        return _probe(self.roster, self.ids, self.params, np.array(keys, np.uint64), self.m.players, self.consts,
                      self.ws, self.pos, k, seat, np.array([draw], np.uint64), self.out, views, P.O_LOC, locs)

    def arrays(self, pos):
        """(loc, known, st, hand lists, pub, stacks) of a position, read in Python."""
        n, p = self.n, self.m.players
        o_known = P.O_LOC + n + 1
        loc = pos[P.O_LOC:P.O_LOC + n + 1]
        known = pos[o_known:o_known + p * (n + 1)].reshape(p, n + 1)
        st = pos[P.O_ST:P.O_ST + p * K.N_ST].reshape(p, K.N_ST)
        hands = [list(st[s, K.ST_CARDS:K.ST_CARDS + st[s, K.ST_HAND]]) for s in range(p)]
        o_stacks = o_known + (P.MP + 3) * (n + 1)
        return loc, known, st, hands, pos[P.O_PUB:P.O_PUB + K.N_PUB], pos[o_stacks:o_stacks + 2 * n].reshape(2, n)


# ---------------------------------------------------------------- what a determinisation keeps
_TABLES: dict = {}


def _table(players):
    if players not in _TABLES:
        _TABLES[players] = _Table(players)
    return _TABLES[players]


@settings(max_examples=60, deadline=None)
@given(players=hs.integers(2, 4), game=hs.integers(0, 10_000), k=hs.integers(0, 400), seat=hs.integers(0, 3),
       draw=hs.integers(1, 2 ** 62))
def test_a_determinisation_keeps_the_view_the_own_hand_and_a_consistent_table(players, game, k, seat, draw):
    t = _table(players)
    seat %= players
    _, view_a, view_b, _ = t.probe(game, k, seat, draw)
    assert len(view_a) == len(view_b) and (view_a == view_b).all()
    loc0, known0, st0, hands0, pub0, stacks0 = t.arrays(t.pos)
    loc1, known1, st1, hands1, pub1, stacks1 = t.arrays(t.out)
    assert hands1[seat] == hands0[seat]                          # the seat's own hand, card for card
    assert (known1[seat] == known0[seat]).all()                  # what it has seen
    for c in range(1, t.n + 1):
        if known0[seat, c]:
            assert loc1[c] == loc0[c] and (known1[:, c] == known0[:, c]).all()
    assert (st1[:, :K.ST_CARDS] == st0[:, :K.ST_CARDS]).all()    # purses, saboteurs, hand sizes, bids
    assert (pub1 == np.where(np.arange(K.N_PUB) == K.PUB_CARD, pub1, pub0)).all()
    if pub0[K.PUB_SIZE_OPEN]:
        assert pub1[K.PUB_OPEN_TOP] == pub0[K.PUB_OPEN_TOP]
    # a consistent table: every card once, hands ascending and where loc says, announced types held
    where = {}
    for s, hand in enumerate(hands1):
        assert hand == sorted(hand)
        where.update({c: K.L_HAND + s for c in hand})
    for k_ in range(2):
        head, size = pub1[K.PUB_HEAD_OPEN + k_], pub1[K.PUB_SIZE_OPEN + k_]
        where.update({stacks1[k_, (head + i) % t.n]: K.L_OPEN + k_ for i in range(size)})
    for c in range(1, t.n + 1):
        if loc1[c] >= K.L_CITY or loc1[c] == K.L_AUCTION:
            where[c] = loc1[c]
    assert sorted(where) == list(range(1, t.n + 1)) and all(loc1[c] == w for c, w in where.items())
    ann = t.out[P.O_LOC + (P.MP + 1) * (t.n + 1):][:t.n + 1]
    for s, hand in enumerate(hands1):
        for c in hand:
            assert ann[c] == 0 or t.m.deck.card(c).type == ann[c] - 1


def test_every_determinisation_of_whole_games_leaves_a_decision_with_options_and_rarely_redraws():
    """Every decision of 120 games, determinised for every seat: the pending decision keeps an
    option (a build under way can still be finished), and a draw the table rules out (rejection)
    is rare: most of another seat's hidden cards leave its build possible."""
    t = _table(4)
    counts = t.ws[0][P.W_COUNTS:P.W_COUNTS + 2]
    before = counts.copy()
    done, bad = t.sweep(range(120))
    draws, kept = counts - before
    assert done > 120 * 200 and bad == 0
    assert kept > 500 and kept / draws > 0.8


# ---------------------------------------------------------------- the posterior, against plain Python
class _Stop(Exception):
    pass


class _StopAt:
    """A decider that answers with the reference bots and stops the game when asked its
    ``k + 1``-th decision, keeping who was asked what."""

    def __init__(self, inner, k):
        self.inner, self.k, self.asked = inner, k, 0

    def decide(self, game, seat, kind, options):
        if self.asked == self.k:
            self.pending = (seat, kind)
            raise _Stop
        self.asked += 1
        return self.inner.decide(game, seat, kind, options)


def _reference_at(players, rules, deck, game_index, k):
    key = game_key(SEED, game_index)
    stop = _StopAt(S.StrategyDecider([S.make_strategy("random", key, s) for s in range(players)]), k)
    g = Game(players, rules, deck, SeededChance(key), stop)
    try:
        g.play()
    except _Stop:
        return g, stop.pending
    raise AssertionError("the reference game ended first")


def _posterior(g, seat, pending):
    """The exact chance of each place for each card ``seat`` has not seen: every assignment of
    those cards to the places they may be in, equally likely where it meets the table."""
    top = g.stacks[OPEN_STACK][0] if g.stacks[OPEN_STACK] else None
    unseen = sorted(c for c in range(1, g.deck.n + 1) if c not in g.public and c not in g.seen[seat] and c != top)
    slots = [("open", None) for c in g.stacks[OPEN_STACK] if c in unseen]
    slots += [("hidden", None) for c in g.stacks[HIDDEN_STACK] if c in unseen]
    if g.in_auction in unseen:
        slots.append(("auction", g.deck.card(g.in_auction).type if g.in_auction in g.announced else None))
    for o in range(g.n):
        if o != seat:
            slots += [(f"hand {o}", g.deck.card(c).type if c in g.announced else None) for c in g.hands[o]
                      if c in unseen]
    builder, kind = pending
    rest = g.shown["need"] - len(g.placed) if kind == S.PLACE and builder != seat else 0
    kept = [c for c in g.hands[builder] if c not in unseen]
    counts = {c: {} for c in unseen}
    total = 0
    for perm in itertools.permutations(unseen):
        if any(want is not None and g.deck.card(c).type != want for c, (_, want) in zip(perm, slots)):
            continue
        if rest > 0:
            hand = kept + [c for c, (place, _) in zip(perm, slots) if place == f"hand {builder}"]
            if not g.cities[builder].can_place(g.deck, hand, rest, g.final_round):
                continue
        total += 1
        for c, (place, _) in zip(perm, slots):
            counts[c][place] = counts[c].get(place, 0) + 1
    return {c: {p: v / total for p, v in d.items()} for c, d in counts.items()}, total, len(slots)


def _place_name(loc):
    if loc >= K.L_HAND:
        return f"hand {loc - K.L_HAND}"
    return {K.L_OPEN: "open", K.L_HIDDEN: "hidden", K.L_AUCTION: "auction"}[loc]


# (players, rules, game, decisions played, seat): positions of the tiny deck where the posterior is
# shaped by the table (see the asserts): announced types, and another seat's first build under way
TWO = Rules(first_build_min=2)
POSITIONS = [
    (3, TWO, 2, 22, 2),       # seat 1 starts its first build holding a card seat 2 has not seen; one type announced
    (3, TWO, 11, 38, 2),      # the same, where only a third of the assignments let it build
    (2, TWO, 6, 11, 1),       # seat 0 has placed one card of two
    (3, Rules(), 9, 34, 2),   # seat 0 has placed one card of three: its single card is built, not on trial
    (4, TWO, 0, 32, 1),       # a hidden card on auction, its type announced, and two announced cards in hands
]


def test_each_unseen_card_lands_in_each_place_as_often_as_the_posterior_says():
    shaped = []
    for players, rules, game, k, seat in POSITIONS:
        g, pending = _reference_at(players, rules, TINY, game, k)
        expected, total, n_slots = _posterior(g, seat, pending)
        shaped.append(total < np.prod(np.arange(1, n_slots + 1)))      # the table rules assignments out
        t = _Table(players, rules, TINY)
        done, _, _, locs = t.probe(game, k, seat, 99, draws=4000)
        assert done == k
        assert t.pos[P.O_CTRL + P.C_DECIDER] == pending[0]
        assert F.KINDS[t.pos[P.O_CTRL + P.C_KIND]] == pending[1]        # the same decision pending
        draws = locs.shape[0]
        for c, chances in expected.items():
            seen = {}
            for loc in locs[:, c]:
                seen[_place_name(loc)] = seen.get(_place_name(loc), 0) + 1
            assert set(seen) <= set(chances), f"card {c} drawn into {set(seen) - set(chances)}"
            places = sorted(chances)
            if len(places) > 1:
                p = chisquare([seen.get(q, 0) for q in places], [draws * chances[q] for q in places]).pvalue
                assert p > 1e-4, f"card {c}: {seen} against {chances} (p = {p:.2g})"
    assert all(shaped)
