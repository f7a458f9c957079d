"""Zahlemann game records (TRACE.md): the fields, JSON lines, and the referee."""
from __future__ import annotations

import copy
import json

import pytest

from zsim.errors import ZsimError
from zsim.games.zahlemann import cards as C
from zsim.games.zahlemann.records import (
    check_record, parse_lines, read_games, read_records, record_game, to_jsonl, write_records)
from zsim.games.zahlemann.replay import ReplayError, replay_game, replay_record
from zsim.games.zahlemann.rules import Rules

#: every event's fields, in TRACE.md's order
TRACE_FIELDS = {
    "start": ["name", "players", "seed", "game", "rules", "strategies", "forget", "coins"],
    "round": ["round", "start", "deck", "hands", "discard"],
    "turn": ["seat", "n"],
    "play": ["seat", "card", "from"],
    "announce": ["seat"], "forgot": ["seat"],
    "noticed": ["seat", "noticed"],
    "reshuffle": ["pile"],
    "draw": ["seat", "card", "why"],
    "pass_turn": ["seat", "why"],
    "skip": ["seat"],
    "pass_hands": ["hands"],
    "round_end": ["round", "winner", "owed", "payments", "coins"],
    "bankrupt": ["seat"],
    "void_round": ["round", "why"],
    "end": ["coins", "totals", "places", "reason", "rounds"],
}
VARIANTS = dict(one_plays_again=True, fifty_skips=True, two_passes_hands=True)


def canonical(codes):
    return [C.CODES[c] for c in sorted(C.parse(x) for x in codes)]


def sample_games():
    """Games touching every event kind."""
    games = []
    for g in range(6):
        games.append(record_game(3, Rules(notice=0.5, **VARIANTS), seed=21, game_index=g,
                                 forget=[0.5, 0.0, 1.0]))
    games.append(record_game(2, Rules(max_turns=3, max_rounds=2), seed=2))
    games.append(record_game(4, Rules(change="bank", coins=(1, 0, 0, 1, 0, 0)), seed=3))
    games.append(record_game(2, Rules(money="total"), seed=4))
    return games


GAMES = sample_games()


def test_every_event_has_tracemd_fields_in_order():
    kinds = set()
    for events in GAMES:
        assert events[0]["e"] == "start" and events[-1]["e"] == "end"
        for ev in events:
            assert list(ev) == ["e"] + TRACE_FIELDS[ev["e"]], ev
            kinds.add(ev["e"])
    assert kinds == set(TRACE_FIELDS)


def test_conventions_codes_sorted_hands_coin_lists_nulls():
    for events in GAMES:
        start = events[0]
        assert start["name"] == "zahlemann" and start["rules"] == Rules.from_dict(start["rules"]).as_dict()
        for ev in events:
            if ev["e"] == "round":
                assert sorted(ev["deck"]) == sorted(C.CODES)
                assert all(h == canonical(h) for h in ev["hands"])
            elif ev["e"] == "pass_hands":
                assert all(h == canonical(h) for h in ev["hands"])
            elif ev["e"] == "round_end":
                assert ev["owed"][ev["winner"]] == 0 and ev["payments"][ev["winner"]] is None
                for p in ev["payments"]:
                    if p is None or isinstance(p["given"], int):
                        continue
                    for key in ("given", "change", "received"):
                        if key in p:
                            assert p[key] == sorted(p[key], reverse=True)
                    assert p["paid"] == sum(p["given"]) - sum(p["change"])
    bank = [p for events in GAMES for ev in events if ev["e"] == "round_end"
            for p in ev["payments"] if p and "received" in p]
    assert bank and all(sum(p["received"]) == p["paid"] for p in bank)
    totals = [ev for ev in GAMES[-1] if ev["e"] == "round_end"]
    assert totals and all(isinstance(c, int) for c in totals[0]["coins"])


def test_jsonl_round_trip_and_files(tmp_path):
    text = "".join(to_jsonl(events) for events in GAMES)
    assert [g for _, g in parse_lines(text.splitlines())] == GAMES
    path = tmp_path / "games.jsonl"
    write_records(GAMES, path)
    assert read_records(path) == GAMES
    starts = [line for line, _ in read_games(path)]
    assert starts[0] == 1 and starts[1] == 1 + len(GAMES[0])


def test_records_replay_to_themselves():
    for events in GAMES:
        assert replay_record(events) == events
        result = check_record(to_jsonl(events).splitlines())
        assert result.events == events


def test_replay_reproduces_the_result():
    from zsim.games.zahlemann.reference import play_game

    fresh = play_game(3, Rules(**VARIANTS), seed=8, game_index=2, record=True)
    again = replay_game(fresh.events)
    assert again.seat_rows() == fresh.seat_rows() and again.game_row() == fresh.game_row()


def test_extra_fields_are_ignored():
    events = copy.deepcopy(GAMES[0])
    for ev in events:
        ev["debug"] = {"x": 1}
    check_record(events)


# ------------------------------------------------------------------ the referee
def first(events, pred):
    return next(i for i, ev in enumerate(events) if pred(ev))


def refused(events, message):
    with pytest.raises(ZsimError, match=message) as info:
        check_record([json.dumps(ev) for ev in events])
    assert "\n" not in str(info.value)
    return str(info.value)


def test_a_card_not_in_hand_is_refused_naming_the_line():
    events = copy.deepcopy(GAMES[0])
    i = first(events, lambda ev: ev["e"] == "play" and ev["from"] == "hand")
    hand_seat = events[i]["seat"]
    held = set()
    for ev in events[:i]:
        if ev["e"] == "round":
            held = set(ev["hands"][hand_seat])
    events[i]["card"] = next(c for c in C.CODES if c not in held)
    refused(events, rf"line {i + 1} \(play\): seat {hand_seat} cannot play")


def test_a_card_that_does_not_match_is_refused():
    events = copy.deepcopy(GAMES[0])
    i = first(events, lambda ev: ev["e"] == "round")
    rnd = events[i]
    t = first(events, lambda ev: ev["e"] == "play")
    seat = events[t]["seat"]
    top = C.parse(rnd["discard"])
    wrong = [c for c in rnd["hands"][seat] if not C.matches(C.parse(c), top)]
    assert wrong
    events[t]["card"] = wrong[0]
    refused(events, rf"line {t + 1} \(play\): seat {seat} cannot play {wrong[0]} now: "
                    rf"it does not match the top card {rnd['discard']}")


def test_a_deck_must_hold_every_card_once():
    events = copy.deepcopy(GAMES[0])
    events[1]["deck"][3] = events[1]["deck"][4]
    refused(events, r"line 2 \(round\): deck must list each of the 36 cards once")


def test_derived_fields_must_agree():
    events = copy.deepcopy(GAMES[0])
    events[1]["hands"][0], events[1]["hands"][1] = events[1]["hands"][1], events[1]["hands"][0]
    refused(events, r"line 2 \(round\): hands should be")
    events = copy.deepcopy(GAMES[0])
    i = first(events, lambda ev: ev["e"] == "round_end")
    events[i]["payments"] = [None if p is None else dict(p, paid=p["paid"] + 1) for p in events[i]["payments"]]
    refused(events, rf"line {i + 1} \(round_end\): payments should be")
    events = copy.deepcopy(GAMES[0])
    del events[2]["n"]
    refused(events, r"line 3 \(turn\): lacks n")


def test_forced_announcement_outcomes_are_checked():
    # seat 1 has forget 0: it cannot forget; seat 2 has forget 1: it cannot announce
    events = copy.deepcopy(GAMES[0])
    i = first(events, lambda ev: ev["e"] == "announce" and ev["seat"] == 1)
    events[i] = {"e": "forgot", "seat": 1}
    refused(events, rf"line {i + 1} \(forgot\): seat 1 cannot forget: its forget is 0")
    events = copy.deepcopy(GAMES[0])
    i = first(events, lambda ev: ev["e"] == "forgot" and ev["seat"] == 2)
    events[i] = {"e": "announce", "seat": 2}
    refused(events, rf"line {i + 1} \(announce\): seat 2 cannot announce")
    events = record_game(2, Rules(max_rounds=1, max_turns=40), seed=5, forget=[1.0, 1.0])
    i = first(events, lambda ev: ev["e"] == "noticed")
    events[i]["noticed"] = False
    refused(events, rf"line {i + 1} \(noticed\): must be noticed: notice is 1.0")


def test_a_reshuffle_must_order_the_discards():
    for events in GAMES:
        if any(ev["e"] == "reshuffle" for ev in events):
            break
    events = copy.deepcopy(events)
    i = first(events, lambda ev: ev["e"] == "reshuffle")
    events[i]["pile"] = events[i]["pile"][:-1]
    refused(events, rf"line {i + 1} \(reshuffle\): pile .* is not an order of the discards under the top")


def test_a_bonus_without_the_variant_is_refused():
    events = record_game(2, Rules(), seed=6)
    i = first(events, lambda ev: ev["e"] == "play")
    bonus = dict(events[i], **{"from": "bonus"})
    events.insert(i + 1, bonus)
    refused(events, rf"line {i + 2} \(play\): the rules give")


def test_lines_after_the_end_and_a_truncated_record():
    events = copy.deepcopy(GAMES[1])
    refused(events + [{"e": "turn", "seat": 0, "n": 1}], rf"line {len(events) + 1} \(turn\): comes after")
    refused(events[:-5], r"the record ends after line")


def test_a_bad_start_line_is_refused():
    events = copy.deepcopy(GAMES[1])
    events[0]["rules"]["hand_size"] = 99
    refused(events, r"line 1 \(start\): rule hand_size=99 is out of range")
    events = copy.deepcopy(GAMES[1])
    events[0]["forget"] = [2]
    refused(events, r"line 1 \(start\): forget must be one number in 0..1 per seat")
    events = copy.deepcopy(GAMES[1])
    events[0]["name"] = "zahltag"
    refused(events, r"line 1 \(start\): name should be 'zahlemann'")
    events = copy.deepcopy(GAMES[1])
    events[0]["coins"][0] = [1, 1, 1, 1, 1, 1]
    refused(events, r"line 1 \(start\): coins should be")


def test_line_numbers_count_from_first_line_and_bad_json():
    events = copy.deepcopy(GAMES[0])
    events[1]["deck"][3] = events[1]["deck"][4]
    with pytest.raises(ZsimError, match=r"games\.jsonl: line 101 \(round\)"):
        check_record(events, name="games.jsonl", first_line=100)
    with pytest.raises(ZsimError, match=r"line 2: not a JSON event"):
        check_record([json.dumps(GAMES[0][0]), "{nope"])
    with pytest.raises(ZsimError, match="takes one game"):
        check_record(GAMES[0] + GAMES[1])
    with pytest.raises(ReplayError):
        replay_game([{"e": "turn"}])
