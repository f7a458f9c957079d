"""Zahlemann's forward model: what ``determinize_nb`` keeps and how it draws.

* Over random games, decision points, seats and rule sets (hypothesis): a
  determinised position shows the seat the same view, holds the seat's own
  hand and passed hand exactly, keeps every public array, and passes on no
  hand the seat cannot know in a way that contradicts what the table saw (a
  passed hand has the size it had; a hand that missed a top held none of
  its matches then).
* Over many draws from one position, each unseen card lands in each place
  (another seat's hand, the draw pile) as often as an independent sampler
  says (chi-square): decks drawn uniformly among those that give each other
  seat the cards it played, replayed against the reference engine's record
  of the round and kept when every public event comes out the same.
* A log restarted in a very long round still gives draws that keep the view.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from zsim.games import registry
from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann import determinize_nb as D
from zsim.games.zahlemann import position_nb as Q
from zsim.games.zahlemann.cards import CARD_BY_CODE
from zsim.games.zahlemann.reference import play_game
from zsim.harness.chunks import Matchup
from zsim.jit import cold
from zsim.harness.forward import (fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb, fm_new_nb, fm_view_nb,
                                  forward_model)
from zsim.rng import game_key
from zsim.roster import roster_of
from zsim.strategy_registry import strategy_arrays

SEED = 20261207
TABLE = ("random:forget=0.3", "first", "random", "first:forget=0.5")     # one roster: one compile
RULES = {"default": [], "variants": ["one_plays_again=true", "fifty_skips=true", "two_passes_hands=true",
                                     "notice=0.7"]}
MATCH = np.array(K.MATCHING, np.int64)


class Model:
    """One matchup's forward model, roster, constants and workspace."""

    def __init__(self, players, rules=(), table=TABLE):
        self.players = players
        self.table = table[:players]
        g = registry()["zahlemann"]
        self.matchup = Matchup(players, self.table, rules=g.parse_rules(list(rules), players), game="zahlemann")
        model = forward_model("zahlemann")
        self.ids, self.params = strategy_arrays("zahlemann", list(self.table))
        self.roster = roster_of("zahlemann", self.ids, None)
        self.consts, self.ws = model.consts(self.matchup), model.workspace(self.matchup)
        self.pos = np.zeros(model.size(self.matchup), np.int64)

    def to_decision(self, game, k):
        """The position before decision ``k`` of game ``game``; False if the game ends first."""
        return _to_decision(self.roster, self.ids, self.params, np.uint64(game_key(SEED, game)), self.players,
                            self.consts, self.ws, self.pos, k)


_MODELS: dict = {}


def model(players, rules_name="default"):
    key = (players, rules_name)
    if key not in _MODELS:
        _MODELS[key] = Model(players, RULES[rules_name])
    return _MODELS[key]


@cold
def _to_decision(roster, ids, params, key, n_players, consts, ws, pos, k):
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    for _ in range(k):
        if fm_decider_nb(roster, pos) < 0:
            return False
        fm_apply_nb(roster, pos, fm_bot_nb(roster, ids, params, pos, consts), consts, ws)
    return fm_decider_nb(roster, pos) >= 0


@cold
def _draws(roster, pos, seat, rng, out, consts, ws, va, vb, n):
    """``n`` determinisations into ``out`` (the last kept); -1 - i if draw i changed the view, else n."""
    na = fm_view_nb(roster, pos, seat, va)
    for t in range(n):
        fm_determinize_nb(roster, pos, seat, rng, out, consts, ws)
        nb = fm_view_nb(roster, out, seat, vb)
        same = na == nb
        for i in range(min(na, nb)):
            same = same and va[i] == vb[i]
        if not same:
            return -1 - t
    return n


@cold
def _restart(pos):
    Q.restart_log_nb(pos)


def _bits(x) -> set:
    return {c for c in range(36) if (int(x) >> c) & 1}


def _passes_fit(out, p):
    """Every passed hand in ``out``'s log has the size its hand had, holds
    what it held at the pass before (less what was played since), and held
    no match of a top its holder drew against."""
    ctrl = out[Q.O_CTRL:Q.O_CTRL + Q.N_CTRL]
    log = out[Q.O_LOG:Q.O_LOG + ctrl[Q.C_N_LOG]]
    passes, size = ctrl[Q.C_PASSES0], [0] * p
    known, played, missed = [None] * p, [set() for _ in range(p)], [[] for _ in range(p)]
    i = 0
    while i < len(log):
        w = int(log[i])
        kind, h, card, count = w & 7, (w >> 3) & 3, (w >> 5) & 63, (w >> 27) & 0xFF
        if kind == Q.EV_PASS:
            for s in range(p):
                obj, hand = (s - passes) % p, _bits(log[i + 1 + s])
                assert len(hand) == size[obj]
                if known[obj] is not None:
                    assert known[obj] <= hand | played[obj]
                    for top, gone in missed[obj]:
                        assert not (known[obj] - gone) & _bits(MATCH[top])
                known[obj], played[obj], missed[obj] = hand, set(), []
            passes += 1
            i += 1 + p
            continue
        if kind == Q.EV_RESHUFFLE:
            i += 2
            continue
        size[h] += count if kind == Q.EV_SNAP else (1 if kind == Q.EV_DRAW else (-1 if kind == Q.EV_PLAY else 0))
        if kind == Q.EV_PLAY:
            played[h].add(card)
        elif kind == Q.EV_NOMATCH:
            missed[h].append((card, set(played[h])))
        i += 1


# ---------------------------------------------------------------- what a draw keeps
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), rules_name=st.sampled_from(sorted(RULES)), game=st.integers(0, 10_000),
       k=st.integers(0, 150), seat=st.integers(0, 3), draw_seed=st.integers(1, 2**62))
def test_a_draw_keeps_the_view_the_own_hand_and_what_the_table_saw(players, rules_name, game, k, seat, draw_seed):
    m = model(players, rules_name)
    while not m.to_decision(game, k):          # past the game's end: an earlier decision
        k //= 2
    seat %= players
    pos = m.pos
    out = np.zeros_like(pos)
    views = np.zeros((2, 4 * pos.size), np.int64)
    faults = m.ws[2][3][D.M_FAULTS]
    assert _draws(m.roster, pos, seat, np.array([draw_seed], np.uint64), out, m.consts, m.ws, views[0], views[1],
                  5) == 5
    assert m.ws[2][3][D.M_FAULTS] == faults, "the model's counts of hidden cards did not add up"
    assert out[Q.O_HANDS + seat] == pos[Q.O_HANDS + seat]
    assert out[Q.O_PASSED + seat] == pos[Q.O_PASSED + seat]
    for lo, hi in ((Q.O_MONEY, Q.O_MONEY + Q.MP * K.M_COLUMNS), (Q.O_PUB, Q.O_PUB + K.N_PUB),
                   (Q.O_BATCH, Q.O_BATCH + 36), (Q.O_GAME_OUT, Q.O_GAME_OUT + K.N_GAME_STATS)):
        assert (out[lo:hi] == pos[lo:hi]).all()
    n_discards = pos[Q.O_PUB + K.PUB_N_DISCARDS]
    assert (out[Q.O_DISCARDS:Q.O_DISCARDS + n_discards] == pos[Q.O_DISCARDS:Q.O_DISCARDS + n_discards]).all()
    hands = [int(out[Q.O_HANDS + s]) for s in range(players)]
    pile = {int(c) for c in out[Q.O_PILE:Q.O_PILE + pos[Q.O_PUB + K.PUB_DRAW_SIZE]]}
    everything = set().union(*map(_bits, hands)) | pile | _bits(pos[Q.O_PUB + K.PUB_DISCARDED])
    assert everything == set(range(36)) and sum(map(len, map(_bits, hands))) + len(pile) + n_discards == 36
    options, decider = int(out[Q.O_CTRL + Q.C_OPTIONS]), out[Q.O_CTRL + Q.C_DECIDER]
    assert options != 0 and options & ~hands[decider] == 0 and options & ~int(MATCH[pos[Q.O_PUB + K.PUB_TOP]]) == 0
    _passes_fit(out, players)


def test_a_restarted_log_still_gives_draws_that_keep_the_view():
    m = model(4, "variants")
    out = np.zeros_like(m.pos)
    views = np.zeros((2, 4 * m.pos.size), np.int64)
    tried = 0
    for game in range(3):
        for k in range(0, 60, 7):
            if not m.to_decision(game, k) or m.pos[Q.O_CTRL + Q.C_KIND] != K.D_PLAY:
                continue
            _restart(m.pos)
            assert m.pos[Q.O_CTRL + Q.C_RESTARTS] == 1
            faults = m.ws[2][3][D.M_FAULTS]
            for seat in range(4):
                assert _draws(m.roster, m.pos, seat, np.array([k + 1], np.uint64), out, m.consts, m.ws, views[0],
                              views[1], 3) == 3
            assert m.ws[2][3][D.M_FAULTS] == faults
            tried += 1
    assert tried >= 10


# ---------------------------------------------------------------- the draw's frequencies
def _record_prefix(events, k):
    """The reference engine's record up to the (k+1)-th decision (a play, or a drawn match kept)."""
    seen = 0
    for i, e in enumerate(events):
        if e["e"] == "play" or (e["e"] == "pass_turn" and e["why"] == "kept"):
            if seen == k:
                return events[:i]
            seen += 1
    raise AssertionError("the record ends first")


def _replayed_places(events, seat, hand_size, players, n, rng):
    """The independent sampler: for each of ``n`` decks, drawn uniformly among
    those whose slots (each seat's dealt cards and draws) give every other
    seat the cards it was seen to play, whether replaying the round's public
    events gives the same events (each play from a hand that holds it, each
    drawn card played the card drawn, each no-match draw by a hand with no
    match); returns (each unseen card's place per kept deck: a seat, or
    ``players`` for the draw pile; the unseen cards)."""
    r = max(i for i, e in enumerate(events) if e["e"] == "round")
    rnd, body = events[r], events[r + 1:]
    assert not any(e["e"] == "reshuffle" for e in body)
    plays, draws = {s: [] for s in range(players)}, {s: 0 for s in range(players)}
    seen = {CARD_BY_CODE[c] for c in rnd["hands"][seat]} | {CARD_BY_CODE[rnd["discard"]]}
    for e in body:
        if e["e"] == "play":
            plays[e["seat"]].append(CARD_BY_CODE[e["card"]])
            seen.add(CARD_BY_CODE[e["card"]])
        elif e["e"] == "draw" and e["card"] is not None:
            draws[e["seat"]] += 1
            if e["seat"] == seat:
                seen.add(CARD_BY_CODE[e["card"]])
    others = [s for s in range(players) if s != seat]
    unseen = np.array([c for c in range(36) if c not in seen], np.int64)
    shuffled = unseen[np.argsort(rng.random((n, len(unseen))), axis=1)]
    slots, at = {}, 0
    for s in others:                         # a seat's slots: its plays and its unseen cards, in random order
        held = hand_size + draws[s] - len(plays[s])
        cards = np.concatenate([np.tile(np.array(plays[s], np.int64), (n, 1)), shuffled[:, at:at + held]], axis=1)
        at += held
        slots[s] = np.take_along_axis(cards, np.argsort(rng.random(cards.shape), axis=1), axis=1)
    one = np.int64(1)
    hands = {s: np.bitwise_or.reduce(one << slots[s][:, :hand_size], axis=1) for s in others}
    drawn, last, ok, top = {s: hand_size for s in others}, {s: np.zeros(n, np.int64) for s in others}, \
        np.ones(n, bool), CARD_BY_CODE[rnd["discard"]]
    for e in body:
        s = e.get("seat")
        if e["e"] == "play":
            c = CARD_BY_CODE[e["card"]]
            if s != seat:
                ok &= (last[s] == c) if e["from"] == "drawn" else ((hands[s] >> c) & 1) == 1
                hands[s] &= ~(one << c)
            top = c
        elif e["e"] == "draw" and s != seat:
            if e["why"] == "no_match":
                ok &= (hands[s] & MATCH[top]) == 0
            if e["card"] is not None:
                last[s] = slots[s][:, drawn[s]]
                drawn[s] += 1
                hands[s] |= one << last[s]
    kept = np.nonzero(ok)[0]
    places = np.full((len(unseen), len(kept)), players, np.int64)
    for s in others:
        for i, c in enumerate(unseen):
            places[i, ((hands[s][kept] >> c) & 1) == 1] = s
    return places, unseen


@cold
def _drawn_places(roster, pos, seat, rng, out, consts, ws, cards, n, players, places):
    for t in range(n):
        fm_determinize_nb(roster, pos, seat, rng, out, consts, ws)
        for i in range(cards.shape[0]):
            places[i, t] = players
            for s in range(players):
                if s != seat and (out[Q.O_HANDS + s] >> cards[i]) & 1 == 1:
                    places[i, t] = s


#: (players, game, decision): positions of the first round after a few draws for want of a match
POSITIONS = [(2, 4, 10), (2, 5, 11), (3, 9, 11), (3, 8, 13)]


@pytest.mark.parametrize("players,game,k", POSITIONS)
def test_each_unseen_card_lands_in_each_place_as_often_as_an_independent_sampler_says(players, game, k):
    table = ("random", "first", "random")[:players]
    m = Model(players, table=table)
    assert m.to_decision(game, k) and m.pos[Q.O_CTRL + Q.C_ROUNDS] == 1
    seat = m.pos[Q.O_CTRL + Q.C_DECIDER]
    record = play_game(players, m.matchup.rules, list(table), SEED, game, forget=[0.0] * players, record=True)
    events = _record_prefix(record.events, k)
    assert sum(e["e"] == "draw" and e["why"] == "no_match" and e["seat"] != seat for e in events) >= 2
    replayed, cards = _replayed_places(events, seat, 5, players, 1_500_000, np.random.default_rng(game * 100 + k))
    assert replayed.shape[1] > 10_000
    drawn = np.zeros((len(cards), 20_000), np.int64)
    walks = m.ws[2][3][D.M_WALKS]
    _drawn_places(m.roster, m.pos, seat, np.array([k], np.uint64), np.zeros_like(m.pos), m.consts, m.ws, cards,
                  drawn.shape[1], players, drawn)
    assert players == 2 or m.ws[2][3][D.M_WALKS] > walks, "two masked hands: drawn together"
    tested = 0
    for i in range(len(cards)):
        a = np.bincount(drawn[i], minlength=players + 1)
        b = np.bincount(replayed[i], minlength=players + 1)
        assert ((a > 0) == (b > 0)).all(), f"card {cards[i]}: places {a} drawn, {b} replayed"
        if (a > 0).sum() >= 2:
            keep = a + b > 0
            p = chi2_contingency(np.stack([a[keep], b[keep]]))[1]
            assert p > 1e-4, f"card {cards[i]}: {a} drawn, {b} replayed (p = {p:.2g})"
            tested += 1
    assert tested >= 10
