"""The Zahlemann rules options (zsim/games/zahlemann/rules.py)."""
from __future__ import annotations

import pytest

from zsim.errors import ZsimError
from zsim.games.zahlemann.rules import RULE_SPECS, Rules, parse_rule_options

KEYS = ["hand_size", "coins", "money", "change", "notice", "max_rounds", "max_turns",
        "one_plays_again", "fifty_skips", "two_passes_hands"]


def test_defaults_are_the_rulebook_and_keys_are_the_table():
    rules = Rules()
    assert [s.key for s in RULE_SPECS] == KEYS
    assert rules.as_dict() == {"hand_size": 5, "coins": [1, 1, 2, 2, 4, 4], "money": "coins",
                               "change": "receiver", "notice": 1.0, "max_rounds": 200, "max_turns": 1000,
                               "one_plays_again": False, "fifty_skips": False, "two_passes_hands": False}
    assert rules.start_value == 112
    for players in (2, 3, 4):
        rules.validate(players)


def test_parse_rule_options():
    rules = parse_rule_options(["hand_size=7", "coins=0,2,2,2,4,4", "money=total", "change=bank",
                                "notice=0.25", "max_rounds=9", "max_turns=50", "one_plays_again=true",
                                "fifty_skips=yes", "two_passes_hands=1"])
    assert rules == Rules(7, (0, 2, 2, 2, 4, 4), "total", "bank", 0.25, 9, 50, True, True, True)
    assert parse_rule_options(["coins=[1,1,2,2,4,4]"]).coins == (1, 1, 2, 2, 4, 4)
    assert Rules.from_dict(Rules().as_dict()) == Rules()
    assert Rules.from_dict({"notice": 1}).notice == 1.0


@pytest.mark.parametrize("options, players, message", [
    (["hand_size=18"], None, r"rule hand_size=18 is out of range 1\.\.17"),
    (["hand_size=9"], 4, r"hand_size=9 is too large for 4 players: at most 8"),
    (["hand_size=12"], 3, r"at most 11"),
    (["hand_size=0"], None, r"hand_size=0 is out of range"),
    (["coins=0,0,0,0,0,0"], None, r"coins=\[0, 0, 0, 0, 0, 0\] gives no coin"),
    (["coins=1,2,3"], None, r"coins needs six whole numbers"),
    (["coins=1,1,2,2,4,x"], None, r"coins needs six whole numbers"),
    (["coins=1,1,2,2,4,100"], None, r"each count must be in 0\.\.99"),
    (["coins=-1,1,2,2,4,4"], None, r"each count must be in"),
    (["money=euros"], None, r"money must be one of coins, total"),
    (["change=winner"], None, r"change must be one of receiver, none, bank"),
    (["notice=1.5"], None, r"notice=1\.5 is out of range 0\.\.1"),
    (["notice=-0.1"], None, r"out of range 0\.\.1"),
    (["notice=nan"], None, r"out of range 0\.\.1"),
    (["notice=often"], None, r"notice needs a number in 0\.\.1"),
    (["max_rounds=0"], None, r"max_rounds=0 is out of range 1\.\."),
    (["max_turns=ten"], None, r"max_turns needs a whole number"),
    (["fifty_skips=maybe"], None, r"fifty_skips needs true or false"),
    (["colour=red"], None, r"unknown rule key 'colour' \(valid keys: hand_size, coins, money"),
    (["hand_size"], None, r"not of the form key=value"),
    (["hand_size=5", "hand_size=6"], None, r"given twice"),
    ([], 5, r"Zahlemann takes 2\.\.4 players, not 5"),
    ([], 1, r"2\.\.4 players"),
])
def test_bad_options_are_refused_in_one_line(options, players, message):
    with pytest.raises(ZsimError, match=message) as info:
        parse_rule_options(options, players=players)
    assert "\n" not in str(info.value)


def test_validate_checks_directly_built_rules():
    with pytest.raises(ZsimError, match="hand_size=9 is too large for 4 players"):
        Rules(hand_size=9).validate(4)
    Rules(hand_size=17).validate(2)
    with pytest.raises(ZsimError, match="money must be one of"):
        Rules(money="gold").validate()
    with pytest.raises(ZsimError, match="gives no coin"):
        Rules(coins=(0,) * 6).validate()
    with pytest.raises(ZsimError, match="rules must be an object"):
        Rules.from_dict([1, 2])
