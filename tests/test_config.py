"""The configuration layer: rules, decks and strategy lists, validated.

Every bad value must raise :class:`ZsimError` (shown to users as one line)
with a message that names the problem; every good spelling must parse to the
right value.
"""
from __future__ import annotations

import json
from dataclasses import fields

import numpy as np
import pytest

from zsim.errors import ZsimError
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.deck import COLUMNS, DEFAULT_DECK_NAME, Deck, default_deck, load_deck, parse_deck
from zsim.games.zahltag.rules import RULE_SPECS, Rules, parse_rule_options
from zsim.harness.chunks import Matchup
from zsim.strategy_registry import DEFAULT_STRATEGY, parse_strategies, registry, strategy_arrays

HEADER = ",".join(COLUMNS)
INT_SPECS = [s for s in RULE_SPECS if s.kind == "int"]

# Companion overrides that keep the cross-checks quiet while one key sweeps its range.
COMPANIONS = {
    "paydays_to_end": {"payday_cards": 20},
    "payday_cards": {"paydays_to_end": 1},
    "card_cap": {"hand_size": 1},
    "hand_size": {"card_cap": 52},
}


def rules_with(key, value):
    return Rules().with_overrides({**COMPANIONS.get(key, {}), key: value})


# ================================================================= rules: defaults and specs
def test_defaults_are_the_rulebook_and_valid():
    r = Rules()
    r.validate()
    for players in (2, 3, 4):
        r.validate(players)
    assert (r.start_money, r.payday_cost, r.paydays_to_end, r.payday_cards) == (20, 1, 5, 6)
    assert (r.forced_payday_jobs, r.forced_payday_jobs_2p, r.card_cap, r.max_bid) == (9, 8, 12, 8)
    assert (r.setup_rounds, r.hand_size, r.tie_discount) == (3, 7, 2)
    assert r.over_cap == "forbid" and r.payday_counts_table is False
    assert r.supply == (14, 16, 10, 12) == K.DEFAULT_SUPPLY


def test_specs_match_the_dataclass():
    """One spec per field, same order, same default: `zsim rules` tells the truth."""
    assert [s.key for s in RULE_SPECS] == [f.name for f in fields(Rules)]
    for s in RULE_SPECS:
        assert getattr(Rules(), s.key) == s.default, s.key
        if s.kind == "int":
            assert s.low <= s.default <= s.high, s.key


def test_forced_threshold_depends_on_players():
    r = Rules().with_overrides({"forced_payday_jobs": 11, "forced_payday_jobs_2p": 4})
    assert r.forced_threshold(2) == 4
    assert r.forced_threshold(3) == 11
    assert r.forced_threshold(4) == 11


# ================================================================= rules: overrides
@pytest.mark.parametrize("spec", INT_SPECS, ids=[s.key for s in INT_SPECS])
def test_int_rule_parses_and_holds_its_bounds(spec):
    for value in (spec.low, spec.high):
        assert getattr(rules_with(spec.key, str(value)), spec.key) == value
        assert getattr(rules_with(spec.key, value), spec.key) == value
        assert getattr(rules_with(spec.key, f"  {value} "), spec.key) == value
    for bad in (spec.low - 1, spec.high + 1):
        with pytest.raises(ZsimError) as exc:
            rules_with(spec.key, str(bad))
        msg = str(exc.value)
        assert f"{spec.key}={bad}" in msg and f"{spec.low}..{spec.high}" in msg, msg


@pytest.mark.parametrize("spec", INT_SPECS, ids=[s.key for s in INT_SPECS])
@pytest.mark.parametrize("raw", ["abc", "", "2.5", "1e3", "0x10", True, False, 3.0, None, [3]])
def test_int_rule_refuses_non_integers(spec, raw):
    with pytest.raises(ZsimError) as exc:
        rules_with(spec.key, raw)
    msg = str(exc.value)
    assert spec.key in msg and "whole number" in msg and repr(raw) in msg, msg


def test_int_rule_value_has_python_int_type():
    r = Rules().with_overrides({"max_bid": "5", "start_money": 7})
    assert type(r.max_bid) is int and type(r.start_money) is int


@pytest.mark.parametrize("raw", ["1", "true", "True", "TRUE", "yes", "on", " On ", True])
def test_bool_rule_true_spellings(raw):
    r = Rules().with_overrides({"payday_counts_table": raw})
    assert r.payday_counts_table is True


@pytest.mark.parametrize("raw", ["0", "false", "False", "no", "NO", "off", " off ", False])
def test_bool_rule_false_spellings(raw):
    r = Rules(payday_counts_table=True).with_overrides({"payday_counts_table": raw})
    assert r.payday_counts_table is False


@pytest.mark.parametrize("raw", ["maybe", "", "2", "-1", "y", "t", "truth", None])
def test_bool_rule_refuses_other_words(raw):
    with pytest.raises(ZsimError) as exc:
        Rules().with_overrides({"payday_counts_table": raw})
    msg = str(exc.value)
    assert "payday_counts_table" in msg and "true or false" in msg and repr(raw) in msg, msg


@pytest.mark.parametrize("raw,want", [("forbid", "forbid"), ("penalize", "penalize"),
                                      (" penalize ", "penalize")])
def test_choice_rule(raw, want):
    assert Rules().with_overrides({"over_cap": raw}).over_cap == want


@pytest.mark.parametrize("raw", ["sometimes", "", "penalise", None, 1])
def test_choice_rule_refuses_others(raw):
    with pytest.raises(ZsimError) as exc:
        Rules().with_overrides({"over_cap": raw})
    msg = str(exc.value)
    assert "over_cap" in msg and "forbid, penalize" in msg and repr(raw) in msg, msg


@pytest.mark.parametrize("raw,want", [
    ("14,16,10,12", (14, 16, 10, 12)),
    ("20,21,22,23", (20, 21, 22, 23)),
    (" 1 , 2 , 3 , 4 ", (1, 2, 3, 4)),
    ("1/2/3/4", (1, 2, 3, 4)),
    ("0,60,0,60", (0, 60, 0, 60)),
    ([5, 6, 7, 8], (5, 6, 7, 8)),
    ((5, 6, 7, 8), (5, 6, 7, 8)),
    (["5", "6", "7", "8"], (5, 6, 7, 8)),
])
def test_supply_rule_parses(raw, want):
    r = Rules().with_overrides({"supply": raw})
    assert r.supply == want
    assert isinstance(r.supply, tuple)
    assert all(type(v) is int for v in r.supply)


@pytest.mark.parametrize("raw,fragment", [
    ("14,16,10", "four whole numbers"),
    ("14,16,10,12,1", "four whole numbers"),
    ("a,b,c,d", "four whole numbers"),
    ("14,16,ten,12", "four whole numbers"),
    ("", "four whole numbers"),
    ("14;16;10;12", "four whole numbers"),
    ([1, 2, 3], "four whole numbers"),
    ([True, 1, 1, 1], "four whole numbers"),
    ([1.5, 2, 3, 4], "four whole numbers"),
    ("14,16,10,61", "0..60"),
    ("-1,16,10,12", "0..60"),
])
def test_supply_rule_refuses(raw, fragment):
    with pytest.raises(ZsimError) as exc:
        Rules().with_overrides({"supply": raw})
    msg = str(exc.value)
    assert "supply" in msg and fragment in msg, msg


def test_unknown_rule_key_is_named():
    with pytest.raises(ZsimError) as exc:
        Rules().with_overrides({"max_bdi": 3})
    msg = str(exc.value)
    assert "unknown rule key 'max_bdi'" in msg
    assert "max_bid" in msg          # the known keys are listed


def test_with_overrides_makes_a_copy():
    base = Rules()
    new = base.with_overrides({"max_bid": 4})
    assert new.max_bid == 4 and base.max_bid == 8
    assert new.with_overrides({}) == new


def test_several_overrides_at_once_are_checked_together():
    # paydays_to_end=8 alone breaks the cross-check; with payday_cards=8 it is fine.
    r = Rules().with_overrides({"paydays_to_end": 8, "payday_cards": 8})
    assert (r.paydays_to_end, r.payday_cards) == (8, 8)


# ================================================================= rules: cross-checks
def test_paydays_to_end_needs_enough_payday_cards():
    assert Rules().with_overrides({"paydays_to_end": 6}).paydays_to_end == 6
    with pytest.raises(ZsimError) as exc:
        Rules().with_overrides({"paydays_to_end": 7})
    msg = str(exc.value)
    assert "paydays_to_end=7" in msg and "payday_cards" in msg and "6" in msg, msg
    with pytest.raises(ZsimError, match="paydays_to_end=5"):
        Rules().with_overrides({"payday_cards": 4})


def test_card_cap_not_below_hand_size():
    assert Rules().with_overrides({"card_cap": 7}).card_cap == 7
    with pytest.raises(ZsimError) as exc:
        Rules().with_overrides({"card_cap": 6})
    msg = str(exc.value)
    assert "card_cap=6" in msg and "hand_size=7" in msg, msg
    with pytest.raises(ZsimError, match="card_cap=12.*hand_size=13"):
        Rules().with_overrides({"hand_size": 13})


def test_hands_must_fit_in_the_supply():
    r = Rules().with_overrides({"hand_size": 13, "card_cap": 13})
    r.validate(4)                               # 4 x 13 = 52 = the whole supply
    big = Rules().with_overrides({"hand_size": 14, "card_cap": 14})
    big.validate(3)                             # 42 <= 52
    with pytest.raises(ZsimError) as exc:
        big.validate(4)                         # 56 > 52
    msg = str(exc.value)
    assert "4 players" in msg and "hand_size 14" in msg and "52" in msg, msg

    small = Rules().with_overrides({"supply": "5,5,5,5"})   # 20 cards
    small.validate(2)
    with pytest.raises(ZsimError, match="3 players x hand_size 7.*20"):
        small.validate(3)


def test_validate_catches_a_hand_built_rules_object():
    with pytest.raises(ZsimError, match="max_bid=0"):
        Rules(max_bid=0).validate()
    with pytest.raises(ZsimError, match="payday_counts_table"):
        Rules(payday_counts_table="yes").validate()
    with pytest.raises(ZsimError, match="over_cap"):
        Rules(over_cap="never").validate()
    with pytest.raises(ZsimError, match="supply"):
        Rules(supply=(1, 2, 3)).validate()
    with pytest.raises(ZsimError, match="start_money"):
        Rules(start_money=True).validate()


# ================================================================= rules: command-line form
def test_parse_rule_options():
    r = parse_rule_options(["max_bid=5", " hand_size = 6 ", "over_cap=penalize",
                            "payday_counts_table=yes", "supply=20/20/20/20"])
    assert (r.max_bid, r.hand_size, r.over_cap, r.payday_counts_table, r.supply) == \
        (5, 6, "penalize", True, (20, 20, 20, 20))
    assert parse_rule_options([]) == Rules()
    assert parse_rule_options(()) == Rules()


def test_parse_rule_options_refuses_a_repeated_key():
    # a repeated key is a mistake to report, not a last-one-wins override
    with pytest.raises(ZsimError) as exc:
        parse_rule_options(["max_bid=3", " max_bid = 4 "])
    msg = str(exc.value)
    assert "max_bid" in msg and "max_bid=3" in msg and "max_bid=4" in msg and "twice" in msg, msg


def test_parse_rule_options_with_a_base():
    base = Rules(start_money=50)
    r = parse_rule_options(["max_bid=3"], base=base)
    assert (r.start_money, r.max_bid) == (50, 3)


@pytest.mark.parametrize("item", ["max_bid", "=5", " =5", ""])
def test_parse_rule_options_refuses_non_pairs(item):
    with pytest.raises(ZsimError) as exc:
        parse_rule_options([item])
    msg = str(exc.value)
    assert repr(item) in msg and "key=value" in msg, msg


@pytest.mark.parametrize("item,fragment", [
    ("nope=1", "unknown rule key 'nope'"),
    ("max_bid=many", "'many'"),
    ("max_bid=0", "max_bid=0"),
    ("over_cap=forbid=yes", "'forbid=yes'"),
    ("payday_counts_table=perhaps", "'perhaps'"),
    ("supply=1,2", "'1,2'"),
])
def test_parse_rule_options_errors_name_the_problem(item, fragment):
    with pytest.raises(ZsimError) as exc:
        parse_rule_options([item])
    assert fragment in str(exc.value), str(exc.value)


# ================================================================= rules: views
CUSTOM = dict(start_money=101, payday_cost=2, paydays_to_end=3, payday_cards=4,
              forced_payday_jobs=10, forced_payday_jobs_2p=11, card_cap=13, max_bid=9,
              setup_rounds=5, hand_size=6, tie_discount=7, over_cap="penalize",
              payday_counts_table=True, supply=(20, 21, 22, 23))


def test_as_array_slots_match_constants():
    r = Rules().with_overrides(CUSTOM)
    a = r.as_array()
    assert a.dtype == np.int64 and a.shape == (K.N_RULES,)
    assert a[K.R_START_MONEY] == 101
    assert a[K.R_PAYDAY_COST] == 2
    assert a[K.R_PAYDAYS_TO_END] == 3
    assert a[K.R_PAYDAY_CARDS] == 4
    assert a[K.R_FORCED_JOBS] == 10
    assert a[K.R_FORCED_JOBS_2P] == 11
    assert a[K.R_CARD_CAP] == 13
    assert a[K.R_MAX_BID] == 9
    assert a[K.R_SETUP_ROUNDS] == 5
    assert a[K.R_HAND_SIZE] == 6
    assert a[K.R_TIE_DISCOUNT] == 7
    assert a[K.R_OVER_CAP_PENALIZE] == 1
    assert a[K.R_PAYDAY_COUNTS_TABLE] == 1
    assert a[K.R_SUPPLY:K.R_SUPPLY + 4].tolist() == [20, 21, 22, 23]
    assert K.R_SUPPLY + 4 == K.N_RULES
    assert (a != 0).all()                    # every slot is written


def test_as_array_defaults():
    a = Rules().as_array()
    assert a[K.R_OVER_CAP_PENALIZE] == 0
    assert a[K.R_PAYDAY_COUNTS_TABLE] == 0
    assert a[K.R_SUPPLY:K.R_SUPPLY + 4].tolist() == list(K.DEFAULT_SUPPLY)
    assert a[K.R_HAND_SIZE] == 7 and a[K.R_MAX_BID] == 8 and a[K.R_START_MONEY] == 20


def test_slot_constants_are_distinct():
    slots = [K.R_START_MONEY, K.R_PAYDAY_COST, K.R_PAYDAYS_TO_END, K.R_PAYDAY_CARDS,
             K.R_FORCED_JOBS, K.R_FORCED_JOBS_2P, K.R_CARD_CAP, K.R_MAX_BID, K.R_SETUP_ROUNDS,
             K.R_HAND_SIZE, K.R_TIE_DISCOUNT, K.R_OVER_CAP_PENALIZE, K.R_PAYDAY_COUNTS_TABLE,
             K.R_SUPPLY, K.R_SUPPLY + 1, K.R_SUPPLY + 2, K.R_SUPPLY + 3]
    assert sorted(slots) == list(range(K.N_RULES))


@pytest.mark.parametrize("rules", [Rules(), Rules().with_overrides(CUSTOM)], ids=["default", "custom"])
def test_dict_round_trip(rules):
    d = rules.as_dict()
    assert list(d) == [s.key for s in RULE_SPECS]
    assert isinstance(d["supply"], list)
    assert Rules.from_dict(d) == rules
    assert Rules.from_dict(json.loads(json.dumps(d))) == rules     # as in a game record
    assert Rules.from_dict(d).as_array().tolist() == rules.as_array().tolist()


def test_from_dict_refuses_unknown_and_bad_keys():
    d = Rules().as_dict()
    with pytest.raises(ZsimError, match="unknown rule key 'colour'"):
        Rules.from_dict({**d, "colour": "red"})
    with pytest.raises(ZsimError, match="max_bid"):
        Rules.from_dict({**d, "max_bid": "eight"})
    with pytest.raises(ZsimError, match="payday_counts_table"):
        Rules.from_dict({**d, "payday_counts_table": "sometimes"})


def test_from_dict_partial_fills_defaults():
    assert Rules.from_dict({"max_bid": 3}) == Rules(max_bid=3)
    assert Rules.from_dict({}) == Rules()


# ================================================================= deck: the default
def test_default_deck():
    d = default_deck()
    assert d.name == DEFAULT_DECK_NAME
    assert d.n_jobs == 32
    assert d.needs.shape == (32, K.N_TYPES) and d.needs.dtype == np.int64
    assert int(d.needs.sum()) == 98
    rows = [tuple(r) for r in d.needs.tolist()]
    assert (0, 0, 1, 2) in rows              # 1 crane + 2 excavators
    assert (2, 2, 0, 0) in rows              # 2 foremen + 2 workers
    assert rows[0] == (1, 1, 0, 0)           # J1 is the first row of jobs.csv
    assert all(sum(r) >= 1 for r in rows)
    assert (d.needs >= 0).all()
    d.check_supply(K.DEFAULT_SUPPLY)


def test_load_deck_none_is_the_default():
    a, b = load_deck(None), default_deck()
    assert a.name == b.name
    assert np.array_equal(a.needs, b.needs)


def test_job_dict():
    jd = default_deck().job_dict()
    assert list(jd) == [f"J{i}" for i in range(1, 33)]
    assert jd["J1"] == [1, 1, 0, 0]
    assert all(type(v) is int for row in jd.values() for v in row)


# ================================================================= deck: files
def test_load_deck_from_file(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text(f"{HEADER}\n1,1,0,0,0\n2,0,2,1,0\n")
    d = load_deck(path)
    assert d.name == str(path)
    assert d.needs.tolist() == [[1, 0, 0, 0], [0, 2, 1, 0]]
    assert load_deck(str(path)).needs.tolist() == d.needs.tolist()


def test_parse_deck_tolerates_layout():
    text = "Job, Foreman ,WORKER,crane,excavator\r\n\r\n1, 1 ,1,0,0\r\n\n  \n7,0,0,0,3\r\n"
    d = parse_deck(text, "t")
    assert d.needs.tolist() == [[1, 1, 0, 0], [0, 0, 0, 3]]


@pytest.mark.parametrize("text,fragments", [
    ("", ["empty"]),
    ("\n \n", ["empty"]),
    (f"{HEADER}\n", ["no jobs"]),
    (f"{HEADER}\n\n\n", ["no jobs"]),
    ("job,foreman,worker,crane\n1,1,1,0\n", ["columns must be", "found job,foreman,worker,crane"]),
    ("job,foreman,worker,crane,excavator,extra\n1,1,1,0,0,0\n", ["columns must be", "extra"]),
    ("job,worker,foreman,crane,excavator\n1,1,1,0,0\n", ["columns must be", "found job,worker,foreman"]),
    ("1,1,1,0,0\n2,0,1,1,0\n", ["columns must be", "found 1,1,1,0,0"]),
    (f"{HEADER}\n1,1,1,0\n", ["line 2", "4 fields", "expected 5"]),
    (f"{HEADER}\n1,1,1,0,0\n2,1,1,0,0,0\n", ["line 3", "6 fields"]),
    (f"{HEADER}\n1,1,x,0,0\n", ["line 2", "worker", "not a whole number", "'x'"]),
    (f"{HEADER}\n1,1,,0,0\n", ["line 2", "worker", "not a whole number", "''"]),
    (f"{HEADER}\n1,1.5,0,0,0\n", ["line 2", "foreman", "'1.5'"]),
    (f"{HEADER}\n1,1,1,0,0\n2,0,0,-1,2\n", ["line 3", "crane", "negative", "-1"]),
    (f"{HEADER}\n1,0,0,0,-2\n", ["line 2", "excavator", "negative"]),
    (f"{HEADER}\n1,0,0,0,0\n", ["line 2", "needs no workers"]),
])
def test_parse_deck_errors(text, fragments):
    with pytest.raises(ZsimError) as exc:
        parse_deck(text, "my-deck")
    msg = str(exc.value)
    assert "my-deck" in msg, msg
    for f in fragments:
        assert f in msg, (f, msg)
    assert "\n" not in msg


def test_load_deck_missing(tmp_path):
    path = tmp_path / "nope.csv"
    with pytest.raises(ZsimError) as exc:
        load_deck(path)
    assert str(path) in str(exc.value) and "does not exist" in str(exc.value)


def test_load_deck_folder(tmp_path):
    with pytest.raises(ZsimError) as exc:
        load_deck(tmp_path)
    assert str(tmp_path) in str(exc.value) and "folder" in str(exc.value)


def test_load_deck_unreadable(tmp_path):
    path = tmp_path / "binary.csv"
    path.write_bytes(b"\xff\xfe\x00\x81garbage")
    with pytest.raises(ZsimError) as exc:
        load_deck(path)
    assert str(path) in str(exc.value) and "cannot be read" in str(exc.value)


def test_load_deck_errors_name_the_file(tmp_path):
    path = tmp_path / "neg.csv"
    path.write_text(f"{HEADER}\n1,0,-3,0,0\n")
    with pytest.raises(ZsimError) as exc:
        load_deck(path)
    assert str(path) in str(exc.value) and "negative" in str(exc.value)


# ================================================================= deck: supply
def test_check_supply():
    d = Deck("t", np.array([[1, 0, 0, 0], [0, 0, 3, 0], [2, 0, 0, 4]], dtype=np.int64))
    d.check_supply((2, 0, 3, 4))                     # exactly enough of each
    with pytest.raises(ZsimError) as exc:
        d.check_supply((2, 0, 2, 4))
    msg = str(exc.value)
    assert "deck t" in msg and "job 2" in msg and "3 crane" in msg and "only 2" in msg, msg
    with pytest.raises(ZsimError, match="job 3 needs 4 excavator but the supply holds only 3"):
        d.check_supply((2, 0, 3, 3))
    with pytest.raises(ZsimError, match="job 1 needs 1 foreman .*only 0"):
        d.check_supply((0, 0, 3, 4))


def test_default_deck_against_small_supplies():
    d = default_deck()
    d.check_supply((2, 2, 2, 2))                     # no job needs more than 2 of a type
    with pytest.raises(ZsimError, match="needs 2 crane"):
        d.check_supply((2, 2, 1, 2))


# ================================================================= matchups
def test_matchup_validates_everything():
    Matchup(2, ("simple", "random"))
    with pytest.raises(ZsimError, match="players must be 2..4, got 5"):
        Matchup(5, ("simple",) * 5)
    with pytest.raises(ZsimError, match="players must be 2..4, got 1"):
        Matchup(1, ("simple",))
    with pytest.raises(ZsimError, match="3 strategies for 2 players"):
        Matchup(2, ("simple",) * 3)
    with pytest.raises(ZsimError, match="4 players x hand_size 14"):
        Matchup(4, ("simple",) * 4, Rules(hand_size=14, card_cap=14))
    with pytest.raises(ZsimError, match="job 21 needs 2 crane"):
        Matchup(4, ("simple",) * 4, Rules(supply=(14, 16, 1, 12)))


# ================================================================= strategies
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("spec", [None, "", "   "])
def test_parse_strategies_default(spec, players):
    assert parse_strategies(spec, players) == [DEFAULT_STRATEGY] * players
    assert DEFAULT_STRATEGY in registry()


def test_parse_strategies_one_name_fills_every_seat():
    assert parse_strategies("random", 3) == ["random"] * 3
    assert parse_strategies(" simple ", 2) == ["simple"] * 2


def test_parse_strategies_one_per_seat():
    assert parse_strategies("random,simple", 2) == ["random", "simple"]
    assert parse_strategies(" simple , random ,simple,random", 4) == ["simple", "random", "simple", "random"]


@pytest.mark.parametrize("spec,players,fragments", [
    ("bogus", 4, ["unknown strategy 'bogus'", "random", "simple"]),
    ("simple,bogus", 2, ["unknown strategy 'bogus'"]),
    ("Simple", 2, ["unknown strategy 'Simple'"]),
    ("simple,,random", 3, ["unknown strategy ''"]),
    ("simple,random", 4, ["2 strategies", "4 players"]),
    ("simple,random,simple", 2, ["3 strategies", "2 players"]),
    ("random,random,random", 4, ["3 strategies", "4 players"]),
])
def test_parse_strategies_errors(spec, players, fragments):
    with pytest.raises(ZsimError) as exc:
        parse_strategies(spec, players)
    for f in fragments:
        assert f in str(exc.value), (f, str(exc.value))


def test_strategy_arrays():
    ids, params = strategy_arrays("zahltag", ["random", "simple", "simple"])
    reg = registry()
    assert ids.dtype == np.int64 and ids.tolist() == [reg["random"].sid, reg["simple"].sid,
                                                      reg["simple"].sid]
    assert ids[0] != ids[1]
    assert params.shape[0] == 3 and params.dtype == np.float64


# ================================================================= strategy parameters
def test_strategy_parameters_are_parsed_checked_and_canonical():
    assert parse_strategies("fixed:k=5", 2) == ["fixed:k=5"] * 2
    assert parse_strategies("fixed:k=3,fixed", 2) == ["fixed", "fixed"]  # the default is left out
    assert parse_strategies(" fixed : k = 7 ,simple", 2) == ["fixed:k=7", "simple"]
    ids, params = strategy_arrays("zahltag", ["fixed:k=5", "fixed", "simple"])
    assert params[0, 0] == 5.0 and params[1, 0] == 3.0
    assert ids[0] == ids[1] == registry()["fixed"].sid


@pytest.mark.parametrize("spec,fragments", [
    ("fixed:k=0", ["fixed:k=0", "out of range", "1..99"]),
    ("fixed:k=abc", ["fixed:k", "number", "'abc'"]),
    ("fixed:x=2", ["no parameter 'x'", "k"]),
    ("simple:k=2", ["simple has no parameter 'k'", "none"]),
    ("fixed:k", ["'k'", "key=value"]),
])
def test_strategy_parameter_errors(spec, fragments):
    with pytest.raises(ZsimError) as exc:
        parse_strategies(spec, 2)
    for f in fragments:
        assert f in str(exc.value), (f, str(exc.value))
