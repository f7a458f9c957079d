"""Hol's der Geier's forward model (examples/geier/zsim_geier/forward_nb.py),
beyond what tests/test_forward_models.py holds every forward model to.

* Stepped games equal the batch engine's under the deck-size rules too
  (the generic test flips only the yes/no rule).
* A bid is sealed: ``sealed_nb`` names the round, a seat's view does not
  show another seat's bid of the open round, the options are the hand.
* An illegal answer ends the game as the batch engine ends it.
* Determinising (hypothesis, over games, decision points and seats) keeps
  every public word and the seat's own hand and bid exactly, clears the
  other seats' bids of the open round and reseeds every stream.
* Determinising draws the prizes still to come with the posterior's
  frequencies: a chi-square test against an exact enumeration of the
  shuffled decks that agree with what was turned up, in plain Python.
"""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from scipy.stats import chisquare

from zsim.games import get_game
from zsim.harness.chunks import Matchup, play_chunk
from zsim.harness.forward import (fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb, fm_new_nb,
                                  fm_options_nb, fm_reward_nb, fm_sealed_nb, fm_view_nb, forward_model)
from zsim.harness.stepping import play_stepped_chunk
from zsim.rng import game_key
from zsim.roster import roster_for
from zsim.strategy_registry import strategy_arrays

from zsim_geier import constants as K
from zsim_geier import forward_nb as F

GAME = get_game("geier")
MODEL = forward_model("geier")
BOTS = ("greedy", "matcher", "random")
ROSTER = roster_for("geier", BOTS)
SEED = 20261208
RULE_SETS = {"default": [], "discard": ["carry_over=false"], "mice_only": ["vultures=0", "top_prize=15"],
             "small": ["vultures=10", "top_prize=5"], "tiny": ["vultures=2", "top_prize=5"]}


class Table:
    """A matchup's forward-model arrays, ready for the kernels below."""

    def __init__(self, players: int, rule_set: str = "default", bots=("random", "matcher", "greedy", "random")):
        self.m = Matchup(players, tuple(bots[:players]), rules=GAME.parse_rules(RULE_SETS[rule_set], players),
                         game="geier", compile_for=BOTS)
        self.ids, self.params = strategy_arrays("geier", list(self.m.strategies))
        self.consts, self.ws = MODEL.consts(self.m), MODEL.workspace(self.m)
        self.n_prizes = self.m.rules.n_prizes
        self.pos = np.zeros(MODEL.size(self.m), np.int64)

    def advance(self, seed: int, game: int, steps: int) -> int:
        """Game ``game`` of ``seed`` played by the bots for up to ``steps`` decisions; the decisions played."""
        return _advance(ROSTER, self.ids, self.params, np.uint64(game_key(seed, game)), self.m.players,
                        self.consts, self.ws, self.pos, steps)

    def deck(self, pos):
        return pos[F.O_DECK:F.O_DECK + self.n_prizes]


@njit
def _advance(roster, ids, params, key, n_players, consts, ws, pos, steps):
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    k = 0
    while k < steps and fm_decider_nb(roster, pos) >= 0:
        fm_apply_nb(roster, pos, fm_bot_nb(roster, ids, params, pos, consts), consts, ws)
        k += 1
    return k


@njit
def _apply(roster, pos, option, consts, ws):
    fm_apply_nb(roster, pos, option, consts, ws)


@njit
def _asked(roster, pos, consts, opts):
    """(decider, sealed round, the options' count) of the pending decision."""
    return fm_decider_nb(roster, pos), fm_sealed_nb(roster, pos), fm_options_nb(roster, pos, consts, opts)


@njit
def _view(roster, pos, seat, out):
    return fm_view_nb(roster, pos, seat, out)


@njit
def _reward(roster, pos, out):
    fm_reward_nb(roster, pos, out)


@njit
def _determinize(roster, pos, seat, rng, out, consts, ws):
    fm_determinize_nb(roster, pos, seat, rng, out, consts, ws)


@njit
def _draw_decks(roster, pos, seat, rng, out, consts, ws, first, decks):
    """``decks[i]``: the prizes still to come of determinisation ``i``, in order."""
    for i in range(decks.shape[0]):
        fm_determinize_nb(roster, pos, seat, rng, out, consts, ws)
        for j in range(decks.shape[1]):
            decks[i, j] = out[first + j]


def _view_of(pos, seat):
    out = np.zeros(4 * pos.shape[0], np.int64)
    return out[:_view(ROSTER, pos, seat, out)].copy()


# ---------------------------------------------------------------- the game, stepped
@pytest.mark.parametrize("rule_set", ["mice_only", "small"])
def test_stepped_games_equal_the_batch_engines_under_the_deck_rules(rule_set):
    for players in (2, 4):
        for bots in (("matcher", "greedy", "random", "matcher"), ("random", "random", "matcher", "greedy")):
            m = Table(players, rule_set, bots).m
            seat_a, game_a = play_chunk(m, SEED, 0, 300)
            seat_b, game_b = play_stepped_chunk(m, SEED, 0, 300)
            assert (seat_a == seat_b).all() and (game_a == game_b).all(), (rule_set, players, bots)


def test_each_round_is_one_sealed_round_the_options_are_the_hand_and_rewards_share_first_place():
    t = Table(3)
    t.advance(SEED, 3, 0)
    opts = np.zeros(F.MAX_OPTIONS, np.int64)
    rounds = []
    while True:
        seat, sealed, n = _asked(ROSTER, t.pos, t.consts, opts)
        if seat < 0:
            break
        hand = t.pos[F.O_HANDS + seat]
        assert list(opts[:n]) == [b for b in range(1, 16) if hand >> b & 1]
        assert sealed == t.pos[F.O_PUB + K.PUB_ROUND] > 0
        rounds.append(sealed)
        if seat > 0 and sealed < 15:               # seat 0 has bid: no other seat sees which card
            other = t.pos.copy()
            other[F.O_BIDS] = next(b for b in range(1, 16) if t.pos[F.O_HANDS] >> b & 1 and b != t.pos[F.O_BIDS])
            assert (_view_of(other, seat) == _view_of(t.pos, seat)).all()
            assert not np.array_equal(_view_of(other, 0), _view_of(t.pos, 0))
        _apply(ROSTER, t.pos, opts[n // 2], t.consts, t.ws)
    assert rounds == [r for r in range(1, 16) for _ in range(3)]
    reward = np.zeros(3)
    _reward(ROSTER, t.pos, reward)
    places = t.pos[F.O_SEAT_OUT + K.S_PLACE:F.O_SEAT_OUT + 3 * K.N_SEAT_STATS:K.N_SEAT_STATS]
    assert reward.sum() == pytest.approx(1.0)
    assert all((reward[s] > 0) == (places[s] == 1) for s in range(3))


def test_an_illegal_answer_ends_the_game_marking_its_seat():
    t = Table(3)
    t.advance(SEED, 5, 4)                        # round 2, seat 1 to bid
    held = t.pos[F.O_HANDS + 1]
    spent = next(b for b in range(1, 16) if not held >> b & 1)
    _apply(ROSTER, t.pos, spent, t.consts, t.ws)
    assert t.pos[F.O_CTRL + F.C_DECIDER] == -1
    assert t.pos[F.O_GAME_OUT + K.G_ILLEGAL] == 2
    assert t.pos[F.O_HANDS + 1] == held           # the round was not settled


# ---------------------------------------------------------------- determinising
@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 4), rule_set=st.sampled_from(sorted(RULE_SETS)), game=st.integers(0, 10**6),
       steps=st.integers(0, 110), seat=st.integers(0, 3), draw=st.integers(0, 2**63 - 1))
def test_determinising_keeps_what_the_seat_knows_and_redraws_the_rest(players, rule_set, game, steps, seat, draw):
    seat %= players
    t = Table(players, rule_set)
    t.advance(SEED, game, steps)
    pos, out = t.pos, np.zeros_like(t.pos)
    _determinize(ROSTER, pos, seat, np.array([draw], np.uint64), out, t.consts, t.ws)
    assert (_view_of(out, seat) == _view_of(pos, seat)).all()
    public = np.r_[F.O_HANDS:F.O_BIDS, F.O_PUB:F.O_RNG, F.O_CTRL:F.O_DECK]
    assert (out[public] == pos[public]).all()     # hands (the seat's own too), prizes taken, pub, rows
    turned = pos[F.O_PUB + K.PUB_ROUND]
    assert (t.deck(out)[:turned] == t.deck(pos)[:turned]).all()
    assert sorted(t.deck(out)[turned:]) == sorted(t.deck(pos)[turned:])
    open_round = pos[F.O_CTRL + F.C_DECIDER] >= 0
    for s in range(players):
        kept = pos[F.O_BIDS + s] if (s == seat or not open_round) else F.NOT_YET
        assert out[F.O_BIDS + s] == kept
    streams = slice(F.O_RNG, F.O_RNG + K.N_STREAMS)
    assert not (out[streams] == pos[streams]).any()


def _posterior_orders(n_prizes: int, turned: list[int]) -> Counter:
    """The orders of the prizes still to come over every shuffled deck that
    begins with ``turned``: the posterior's weights, by enumeration (every
    deck equally likely, and nothing a seat saw depends on the order to come)."""
    k = len(turned)
    return Counter(d[k:] for d in itertools.permutations(range(n_prizes)) if list(d[:k]) == turned)


def test_determinised_prizes_to_come_follow_the_posterior_chi_square():
    t = Table(3, "tiny")                          # 7 prizes
    t.advance(SEED, 11, 7)                        # round 3, seat 0 has bid, seat 1 to bid
    turned = int(t.pos[F.O_PUB + K.PUB_ROUND])
    assert turned == 3 and t.pos[F.O_BIDS] != F.NOT_YET
    draws = 24_000
    decks = np.zeros((draws, t.n_prizes - turned), np.int64)
    out = np.zeros_like(t.pos)
    _draw_decks(ROSTER, t.pos, 2, np.array([99], np.uint64), out, t.consts, t.ws, F.O_DECK + turned, decks)
    assert out[F.O_BIDS] == F.NOT_YET             # seat 0's sealed bid is not seat 2's to see
    weights = _posterior_orders(t.n_prizes, [int(c) for c in t.deck(t.pos)[:turned]])
    assert len(weights) == 24
    seen = Counter(tuple(int(c) for c in d) for d in decks)
    assert set(seen) == set(weights)
    orders = sorted(weights)
    total = sum(weights.values())
    expected = [draws * weights[o] / total for o in orders]
    assert chisquare([seen[o] for o in orders], expected).pvalue > 1e-3
    # each card in each place to come
    cards = sorted(orders[0])
    for place in range(len(cards)):
        by_card = Counter(int(c) for c in decks[:, place])
        want = Counter()
        for o, w in weights.items():
            want[o[place]] += w
        assert chisquare([by_card[c] for c in cards], [draws * want[c] / total for c in cards]).pvalue > 1e-3
