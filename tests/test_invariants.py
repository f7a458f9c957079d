"""Property tests over random rules configs, fields and seeds.

Each example plays one game in the fast engine with its record on, then
checks what must hold whatever the rules: the reference engine re-derives
the same record; cards are conserved per type at every event; nobody owns
more than the cap under the default rule; money is start + income - payments;
the game ends by its paydays or with one player (or none) left; eliminated
seats never act again.
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from record_tracker import follow
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.records import record_game
from zsim.games.zahltag.reference_replay import replay_record
from zsim.games.zahltag.rules import Rules
from zsim.harness.chunks import Matchup, play_chunk

DECK = default_deck()


@st.composite
def matchups(draw):
    players = draw(st.integers(2, 4))
    hand_size = draw(st.integers(3, 9))
    payday_cards = draw(st.integers(1, 8))
    supply = tuple(draw(st.integers(4, 20)) for _ in range(4))
    supply = tuple(max(v, 4) for v in supply)
    if sum(supply) < players * hand_size:
        hand_size = sum(supply) // players
    rules = Rules(
        start_money=draw(st.integers(0, 40)),
        payday_cost=draw(st.integers(0, 3)),
        paydays_to_end=draw(st.integers(1, payday_cards)),
        payday_cards=payday_cards,
        forced_payday_jobs=draw(st.integers(1, 12)),
        forced_payday_jobs_2p=draw(st.integers(1, 12)),
        card_cap=draw(st.integers(hand_size, 16)),
        max_bid=draw(st.integers(1, 9)),
        setup_rounds=draw(st.integers(0, 4)),
        hand_size=hand_size,
        tie_discount=draw(st.integers(0, 3)),
        over_cap=draw(st.sampled_from(["forbid", "penalize"])),
        payday_counts_table=draw(st.booleans()),
        supply=supply,
    )
    strategies = tuple(draw(st.sampled_from(["random", "simple"])) for _ in range(players))
    return Matchup(players, strategies, rules, DECK)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=matchups(), seed=st.integers(0, 2**64 - 1), game=st.integers(0, 10**6))
def test_invariants_hold_for_any_rules(m, seed, game):
    m.rules.validate(m.players)
    events = record_game(m, seed, game)
    assert replay_record(events) == events

    tracker = follow(events)          # conservation, cap, eliminated seats stay out
    assert tracker.checked == len(events)

    seats, games = play_chunk(m, seed, game, 1)
    seats, games = seats[0], games[0]
    assert games[K.G_ILLEGAL] == 0
    income = seats[:, K.S_JOB_INCOME] + seats[:, K.S_PENALTY_RECEIVED]
    payments = seats[:, K.S_PAYDAY_PAID] + seats[:, K.S_PENALTY_PAID]
    np.testing.assert_array_equal(seats[:, K.S_MONEY], m.rules.start_money + income - payments)

    survivors = int((seats[:, K.S_ELIMINATED] == 0).sum())
    if games[K.G_END_REASON] == K.END_FIFTH_PAYDAY:
        assert games[K.G_PAYDAYS] == m.rules.paydays_to_end
    else:
        assert survivors <= 1 and games[K.G_PAYDAYS] < m.rules.paydays_to_end
    assert events[-1]["e"] == "end"
    assert seats[:, K.S_PLACE].min() == 1
    assert (seats[seats[:, K.S_ELIMINATED] > 0, K.S_MONEY] == 0).all()
    # places: survivors above the eliminated, later eliminations above earlier ones
    for a in range(m.players):
        for b in range(m.players):
            ea, eb = seats[a, K.S_ELIMINATED], seats[b, K.S_ELIMINATED]
            if ea == 0 and eb > 0:
                assert seats[a, K.S_PLACE] < seats[b, K.S_PLACE]
            if ea > eb > 0:
                assert seats[a, K.S_PLACE] < seats[b, K.S_PLACE]
