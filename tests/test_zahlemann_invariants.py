"""Properties of every Zahlemann game, whatever the rules options.

Hypothesis draws the players, every rules option (all variants, money and
change modes, hand sizes, tiny caps), the strategies and their ``forget``;
each example plays a game on a table that checks itself at every event, then
reads its record. Then a few hundred seeded games per player count, under
the defaults and with every variant on, are replayed from their records.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zsim.games.zahlemann import cards as C
from zsim.games.zahlemann import payment as pay
from zsim.games.zahlemann.reference import Game, SeededChance, play_game, places_of
from zsim.games.zahlemann.replay import replay_game, replay_record
from zsim.games.zahlemann.rules import Rules
from zsim.games.zahlemann.reference_bots import StrategyDecider, make_strategy
from zsim.rng import game_key

ALL_VARIANTS = dict(one_plays_again=True, fifty_skips=True, two_passes_hands=True)


class CheckedGame(Game):
    """A table that checks, after every event, that each of the 36 cards is in
    exactly one place and that no coin was made or lost (the bank counted)."""

    def emit(self, e, **fields):
        super().emit(e, **fields)
        if self.round_no and e != "start":
            where = [c for h in self.hands for c in h] + self.draw_pile + self.discards
            assert sorted(where) == list(C.CARDS), (e, fields)
        if self.total_money:
            assert sum(self.money) == self.n * self.rules.start_value
            assert all(m >= 0 for m in self.money)
        else:
            coins = [sum(m[d] for m in self.money) + self.bank[d] for d in range(6)]
            assert coins == [self.n * c for c in self.rules.coins], e
            assert all(min(m) >= 0 for m in self.money)


def checked_game(players, rules, strategies, seed, index, forget):
    key = game_key(seed, index)
    seats = [make_strategy(name, key, s, forget[s]) for s, name in enumerate(strategies)]
    game = CheckedGame(players, rules, SeededChance(key), StrategyDecider(seats), forget=forget,
                       seed=seed, game_index=index, strategies=strategies, record=True)
    return game.play()


def check_record_properties(events, rules, players):
    """What the record must show: caps, the start-player rule, ends, places."""
    expected_start, rounds, bankrupt = 0, 0, []
    for i, ev in enumerate(events):
        kind = ev["e"]
        if kind == "round":
            rounds += 1
            assert ev["round"] == rounds and ev["start"] == expected_start
        elif kind == "turn":
            assert 1 <= ev["n"] <= rules.max_turns
        elif kind == "round_end":
            paid = [None if p is None else p["paid"] for p in ev["payments"]]
            expected_start = pay.next_starter(ev["winner"], players, paid)
            assert sum(ev["owed"]) > 0 and events[i - 1]["e"] == "play"
        elif kind == "bankrupt":
            bankrupt.append(ev["seat"])
    end = events[-1]
    assert end["e"] == "end" and end["rounds"] == rounds <= rules.max_rounds
    if end["reason"] == "bankrupt":
        assert bankrupt and events[-2]["e"] == "bankrupt"
    else:
        assert end["reason"] == "round_cap" and rounds == rules.max_rounds and not bankrupt
    assert end["places"] == places_of(end["totals"])
    assert sum(end["totals"]) == players * rules.start_value


def check_result(result, rules, players):
    assert result.places == places_of(result.totals)
    assert sum(result.win_share) == pytest.approx(1.0)
    firsts = result.places.count(1)
    assert all(w == (1 / firsts if p == 1 else 0) for w, p in zip(result.win_share, result.places))
    assert sum(result.paid) == sum(result.received)
    assert sum(result.rounds_won) == result.rounds - result.void_rounds
    assert result.change_shortfall == sum(result.shortfall)
    assert any(result.bankrupt) == (result.end_reason == "bankrupt")
    plays = sum(ev["e"] == "play" for ev in result.events)
    assert sum(result.cards_played) == plays
    assert sum(result.forgotten) == sum(ev["e"] == "forgot" for ev in result.events)
    assert result.turns == sum(ev["e"] == "turn" for ev in result.events)


@st.composite
def setups(draw):
    players = draw(st.integers(2, 4))
    coins = tuple(draw(st.integers(0, 3)) for _ in range(6))
    if not any(coins):
        coins = (0, 0, 0, 0, 0, 1)
    rules = Rules(
        hand_size=draw(st.integers(1, 35 // players)),
        coins=coins,
        money=draw(st.sampled_from(["coins", "coins", "total"])),
        change=draw(st.sampled_from(["receiver", "none", "bank"])),
        notice=draw(st.sampled_from([0.0, 0.5, 1.0]) | st.floats(0, 1)),
        max_rounds=draw(st.integers(1, 12)),
        max_turns=draw(st.integers(1, 150)),
        one_plays_again=draw(st.booleans()),
        fifty_skips=draw(st.booleans()),
        two_passes_hands=draw(st.booleans()),
    )
    strategies = [draw(st.sampled_from(["random", "first"])) for _ in range(players)]
    forget = [draw(st.sampled_from([0.0, 0.3, 1.0])) for _ in range(players)]
    return players, rules, strategies, forget


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), seed=st.integers(0, 2**64 - 1), index=st.integers(0, 10**6))
def test_invariants_hold_for_any_rules(setup, seed, index):
    players, rules, strategies, forget = setup
    result = checked_game(players, rules, strategies, seed, index, forget)
    events = result.events
    check_record_properties(events, rules, players)
    check_result(result, rules, players)
    as_read = json.loads(json.dumps(events))                       # what a reader sees
    assert replay_record(as_read) == events
    again = play_game(players, rules, strategies, seed, index, forget, record=True)
    assert again.events == events                                  # deterministic
    assert again.seat_rows() == result.seat_rows() and again.game_row() == result.game_row()


def test_different_games_of_a_seed_differ_and_seeds_differ():
    decks = {tuple(play_game(3, Rules(max_rounds=1), seed=s, game_index=g, record=True).events[1]["deck"])
             for s in (1, 2) for g in range(5)}
    assert len(decks) == 10


@pytest.mark.parametrize("variants", ["defaults", "all_variants"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_replay_from_their_records(players, variants):
    rules = Rules(**ALL_VARIANTS) if variants == "all_variants" else Rules()
    forget = [0.2] * players if variants == "all_variants" else None
    seen, reasons = set(), set()
    for g in range(300):
        result = play_game(players, rules, seed=2024, game_index=g, forget=forget, record=True)
        events = json.loads(json.dumps(result.events))
        again = replay_game(events)
        assert again.events == events and again.seat_rows() == result.seat_rows()
        check_record_properties(events, rules, players)
        seen.update(ev["e"] for ev in events)
        reasons.add(result.end_reason)
    assert {"reshuffle", "round_end", "bankrupt"} <= seen
    assert reasons == {"bankrupt"}
    if variants == "all_variants":
        assert {"skip", "pass_hands", "forgot", "noticed"} <= seen
