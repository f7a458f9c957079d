"""Wettstreit der Baumeister's reference engine: the rulebook's scoring
examples, the building rules, every auction and sabotage path by hand, the
end, invariants over random games, and records that replay to themselves."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zsim.errors import ZsimError
from zsim.games.baumeister import reference_bots as S
from zsim.games.baumeister.cards import CORNER, HALL, default_deck, kin, parse_deck
from zsim.games.baumeister.city import LEFT, RIGHT, City
from zsim.games.baumeister.records import check_record, record_game, to_jsonl
from zsim.games.baumeister.reference import Game, play_game
from zsim.games.baumeister.rules import Rules, parse_rule_options
from zsim.games.baumeister.scenario import Script, Stacked

DECK = default_deck()


def build_row(cards: list[int], final_round: bool = True) -> City:
    """A row built left to right from position 0, each placement checked."""
    city = City()
    for i, c in enumerate(cards):
        assert city.why_not(DECK, c, i, final_round) is None, (c, i, city.why_not(DECK, c, i, final_round))
        city.place(DECK, c, i)
    return city


def total(city: City, hand: list[int], rules=Rules()) -> int:
    sc = city.score(DECK, rules)
    return sc["built"] + sc["middle"] + sc["churches"] + sc["corners"] - sum(DECK.card(c).value for c in hand)


# ---------------------------------------------------------------- the rulebook's scoring examples
def test_example_1_churches_and_corners_but_no_middle():
    # corner 2, church 8, town hall 7, tower 3, church 6, tower 2, gate 4, tower 2, gate 3, corner 2
    city = build_row([3, 39, 31, 14, 36, 10, 22, 11, 19, 4])
    sc = city.score(DECK, Rules())
    assert sc == {"built": 39, "complete": True, "middle": 0, "churches": 5, "corners": 5}
    assert total(city, [7, 10]) == 46             # hand: values 1 and 2


def test_example_2_every_bonus():
    city = build_row([5, 38, 27, 40, 6])            # corner 3, church 7, town hall 5, church 9, corner 3
    assert city.score(DECK, Rules()) == {"built": 27, "complete": True, "middle": 10, "churches": 5,
                                         "corners": 5}
    assert total(city, []) == 47


def test_example_3_a_gap_forfeits_every_bonus():
    city = build_row([1, 40, 17, 33, 23, 31, 36, 19, 3])
    city.remove(4)                                   # sabotage leaves a gap at 4
    assert city.gaps() == [4] and not city.complete()
    assert total(city, []) == 34


def test_example_4_no_right_corner_and_the_hand_counts_against():
    city = build_row([3, 19, 7, 20, 31, 39, 10, 22, 36, 8])
    assert not city.complete() and city.score(DECK, Rules())["built"] == 37
    assert total(city, [27, 32]) == 25               # 37 - (5 + 7): our ruling, not the printed 30


def test_bonuses_follow_the_rules_options():
    city = build_row([5, 38, 27, 40, 6])
    assert total(city, [], Rules(bonus_middle=0, bonus_churches=1, bonus_corners=2)) == 27 + 3


# ---------------------------------------------------------------- building rules
def test_neighbours_of_one_type_are_illegal_and_towers_count_as_one():
    city = build_row([17], final_round=False)        # a gate at 0
    assert "side by side" in city.why_not(DECK, 18, 1, False)
    city.place(DECK, 7, 1)                            # a tower at 1
    assert "side by side" in city.why_not(DECK, 2, 2, False)   # a corner tower next to a tower
    assert city.why_not(DECK, 2, -1, False) is None


def test_one_town_hall_and_one_corner_tower_before_the_final_round():
    city = build_row([27, 33], final_round=False)
    assert "one town hall" in city.why_not(DECK, 28, 2, False)
    city.place(DECK, 1, -1)
    assert city.closed(LEFT) and not city.closed(RIGHT)
    assert "only one corner tower" in city.why_not(DECK, 2, 2, False)
    assert city.why_not(DECK, 2, 2, True) is None    # the final round allows the second
    assert "not an open end" in city.why_not(DECK, 17, -2, True)   # nothing beyond a closed end


def test_corner_tower_into_an_empty_row_closes_the_left_and_keeps_closing_it():
    city = City()
    city.place(DECK, 1, 0)
    assert city.closes == {0: LEFT}
    city.place(DECK, 33, 1)
    city.remove(1)                                    # sabotage leaves it alone
    assert city.closes == {0: LEFT} and city.open_positions() == [1]


def test_corner_towers_only_at_ends_and_gaps_are_open():
    city = build_row([17, 7, 33, 8, 18], final_round=False)
    city.remove(2)
    assert city.gaps() == [2] and 2 in city.open_positions()
    assert "only at an end" in city.why_not(DECK, 1, 2, False)


# ---------------------------------------------------------------- auctions, by hand
def stacks(open_top=(), hidden_top=(), deck=DECK):
    """Stacks with the given cards on top and the rest in card order."""
    rest = [c for c in range(1, deck.n + 1) if c not in open_top and c not in hidden_top]
    n_open = (deck.n + 1) // 2
    o = list(open_top) + rest[:n_open - len(open_top)]
    return o, list(hidden_top) + rest[n_open - len(open_top):]


def table(players=3, rules=Rules(), open_top=(), hidden_top=(), rolls=(), picks=(), **answers):
    o, h = stacks(open_top, hidden_top)
    game = Game(players, rules, DECK, Stacked(o, h, rolls, picks), Script(**answers), record=True)
    game.setup()
    return game


def lines(game, kind=None):
    return [e for e in game.events[1:] if kind is None or e["e"] == kind]


def test_open_auction_won_by_the_auctioneer_pays_the_bank():
    g = table(open_top=[31], rolls=[2], stack=["open"], open=[3], bid=[5, 0, 6, 0])
    g.income(0)
    g.auction(0)
    assert [(e["e"], e["seat"]) for e in lines(g) if e["e"] in ("bid", "pass")] == [
        ("bid", 0), ("bid", 1), ("pass", 2), ("bid", 0), ("pass", 1)]
    award = lines(g, "award")[0]
    assert award == {"e": "award", "card": 31, "winner": 0, "price": 6, "to_bank": 6, "to_auctioneer": 0,
                     "insolvent": [], "under": None}
    assert g.money == [12 - 6, 10, 10] and g.hands[0] == [31] and 31 in g.public


def test_hidden_card_nobody_outbid_stays_secret():
    g = table(hidden_top=[29], stack=["hidden"], open=[2])
    g.income(0)
    g.auction(0)
    assert not lines(g, "announce_type")
    assert 29 not in g.public and g.knows(0, 29) and not g.knows(1, 29) and not g.knows(2, 29)


def test_hidden_card_outbid_is_announced_before_the_auctioneer_moves():
    g = table(hidden_top=[29], stack=["hidden"], open=[2], bid=[4, 0, 0])
    g.income(0)
    g.auction(0)
    kinds = [e["e"] for e in lines(g)][2:]
    assert kinds == ["bid", "bid", "pass", "announce_type", "pass", "award"]
    assert lines(g, "announce_type")[0]["type"] == "town_hall"
    award = lines(g, "award")[0]
    assert (award["winner"], award["price"], award["to_auctioneer"], award["to_bank"]) == (1, 4, 2, 2)
    assert g.money == [11 + 2, 6, 10] and g.knows(1, 29) and not g.knows(2, 29)


def test_insolvency_goes_down_the_chain_of_last_bids():
    g = table(open_top=[40], rolls=[1], stack=["open"], open=[2], bid=[4, 50, 0, 0])
    g.income(0)
    g.auction(0)
    award = lines(g, "award")[0]
    assert award["insolvent"] == [[2, 50, 10]]
    assert (award["winner"], award["price"], award["to_auctioneer"], award["to_bank"]) == (1, 4, 2, 2)
    assert g.money == [11 + 2, 6, 0] and g.st["insolvent"] == [0, 0, 1]


def test_an_insolvent_auctioneer_gets_no_share_of_the_next_price():
    g = table(open_top=[40], rolls=[1], stack=["open"], open=[3], bid=[4, 0, 30, 0])
    g.income(0)
    g.auction(0)
    award = lines(g, "award")[0]
    assert award["insolvent"] == [[0, 30, 11]]
    assert (award["winner"], award["price"], award["to_auctioneer"], award["to_bank"]) == (1, 4, 0, 4)
    assert g.money == [0, 6, 10]


def test_when_nobody_can_pay_the_card_goes_under_the_smaller_stack():
    g = table(open_top=[40], rolls=[1], stack=["open"], open=[30], bid=[0, 0])
    g.income(0)
    g.auction(0)
    award = lines(g, "award")[0]
    assert award["winner"] is None and award["insolvent"] == [[0, 30, 11]]
    assert award["under"] == "open" and g.stacks["open"][-1] == 40     # 19 open, 20 hidden
    assert g.money == [0, 10, 10] and 40 in g.public


def test_forbid_caps_bids_at_the_purse_and_an_empty_purse_cannot_open():
    g = table(rules=Rules(overbid="forbid"), open_top=[40, 39], rolls=[1, "S"], stack=["open", "open"],
              open=[5], bid=[lambda o: o[1], 0])
    g.income(0)
    g.auction(0)
    asked = [a for a in g.decider.asked if a[1] == S.BID]
    assert asked[0] == (1, S.BID, (6, 10))           # seat 1 may bid up to its purse
    g.money[2] = 0
    g.income(2)                                       # an S: no Thaler
    g.auction(2)
    award = lines(g, "award")[-1]
    assert award["winner"] is None and award["insolvent"] == [] and award["under"] is not None


def test_a_bid_of_max_bid_ends_the_raising():
    g = table(rules=Rules(max_bid=5), open_top=[40], stack=["open"], open=[5])
    g.income(0)
    g.auction(0)
    assert not [a for a in g.decider.asked if a[1] == S.BID]       # nobody may raise 5
    assert [e["e"] for e in lines(g)][-3:] == ["pass", "pass", "award"]


# ---------------------------------------------------------------- sabotage, by hand
def attack_table(rules=Rules(), rolls=(), picks=(), **answers):
    g = table(rules=rules, rolls=rolls, picks=picks, **answers)
    g.cities[1] = build_row([17, 7, 33], final_round=False)      # gate, tower, church: 1 shield
    g.cities[2] = build_row([14, 18, 11], final_round=False)     # tower, gate, tower: 2 shields
    g.has_built[1] = g.has_built[2] = True
    g.saboteurs[0] = 1
    g.reserve -= 1
    return g


def sab(g):
    return lines(g, "sabotage")[-1]


def test_the_weakest_city_is_the_only_target_and_S_destroys():
    g = attack_table(rolls=["S"], card=[1])
    g.attack_building(0)
    e = sab(g)
    assert (e["target"], e["pos"], e["card"], e["roll"], e["outcome"]) == (1, 1, 7, "S", "destroyed")
    assert e["row"] == [[0, 17], [2, 33]] and e["under"] == "open"       # an inner card leaves a gap
    assert g.saboteurs[0] == 0 and g.reserve == 5
    assert not [a for a in g.decider.asked if a[1] == S.TARGET]


@pytest.mark.parametrize("face", [1, 2])
def test_a_roll_of_one_or_two_fails(face):
    g = attack_table(rolls=[face])
    g.attack_building(0)
    assert sab(g)["outcome"] == "failed" and len(g.cities[1].cards) == 3


def test_three_to_five_the_owner_may_pay_to_keep():
    g = attack_table(rolls=[4], card=[2], keep=["keep"])
    g.attack_building(0)
    e = sab(g)
    assert (e["outcome"], e["paid"]) == ("kept", 4) and g.money[:2] == [14, 6]


def test_three_to_five_an_owner_who_cannot_pay_loses_the_card():
    g = attack_table(rolls=[5], card=[2])
    g.money[1] = 3
    g.attack_building(0)
    assert sab(g)["outcome"] == "destroyed" and g.cities[1].row() == [[0, 17], [1, 7]]
    assert not [a for a in g.decider.asked if a[1] == S.KEEP]


def test_variant_any_an_accepted_offer_ends_the_attack_without_a_roll():
    g = attack_table(rules=Rules(saboteur="any"), target=[2], card=[0], offer=[3], accept=["accept"])
    g.attack_building(0)
    e = sab(g)
    assert (e["target"], e["offer"], e["accepted"], e["roll"], e["outcome"], e["paid"]) == (
        2, 3, True, None, "bought_off", 3)
    assert ("roll", "attack") not in g.chance.calls


@pytest.mark.parametrize("face, outcome", [(3, "destroyed"), (2, "failed"), ("S", "destroyed")])
def test_variant_any_a_roll_above_the_city_shields_destroys(face, outcome):
    g = attack_table(rules=Rules(saboteur="any"), rolls=[face], target=[2], card=[0], offer=[1],
                     accept=["refuse"])
    g.attack_building(0)
    assert sab(g)["outcome"] == outcome                    # city 2 has 2 shields


def test_a_hand_attack_destroys_the_picked_card_of_the_sorted_hand():
    g = attack_table(picks=[2])
    g.hands[2] = [40, 3, 27, 9, 18]
    g.attack_hand(0)
    e = sab(g)
    assert (e["target"], e["kind"], e["index"], e["card"], e["roll"]) == (2, "hand", 2, 18, None)
    assert sorted(g.hands[2]) == [3, 9, 27, 40] and 18 in g.public


def test_step3_offers_only_what_is_possible():
    g = attack_table()
    g.hands[0] = [1, 2]                                  # two cards: no first build of three
    g.step3(0)

    def offered():
        return [a for a in g.decider.asked if a[1] == S.ACTION][-1][2]
    assert offered() == ("building", "nothing")
    g.hands[0] = [17, 7, 33]
    g.hands[1] = [1, 2, 3, 4, 5]
    g.saboteurs[0] = 1
    g.step3(0)
    assert offered() == ("build", "building", "hand", "nothing")
    assert lines(g, "build")[-1]["placed"] == [[0, 7], [-1, 17], [-2, 33]]   # by card, then position
    g.saboteurs[0] = 0
    g.hands[0] = [18]                  # after the first build one card is a build
    g.step3(0)
    assert offered() == ("build", "nothing")
    assert lines(g, "build")[-1]["placed"] == [[-3, 18]]


# ---------------------------------------------------------------- the end
SMALL = parse_deck("card,type,value,shields,coins\n1,corner_tower,1,1,0\n2,tower,2,1,0\n3,city_gate,3,0,2\n"
                   "4,church,4,0,0\n", "small")


def test_an_empty_stack_triggers_one_final_round_from_the_left():
    game = Game(3, Rules(), SMALL, Stacked([1, 2], [3, 4]), Script(stack=["hidden", "hidden"]), record=True)
    game.play()
    final = [e for e in game.events if e["e"] == "final_round"][0]
    assert final == {"e": "final_round", "seat": 1, "reason": "stack_empty", "order": [2, 0, 1]}
    after = game.events[game.events.index(final) + 1:]
    assert [e["e"] for e in after] == ["build", "build", "build", "end"]
    assert [e["seat"] for e in after[:3]] == [2, 0, 1]


def test_the_turn_cap_starts_the_final_round():
    game = Game(2, Rules(max_turns=3), DECK, Stacked(*stacks()), Script(), record=True)
    result = game.play()
    assert result.game["turns"] == 3 and result.game["end_reason"] == "max_turns"
    final = [e for e in game.events if e["e"] == "final_round"][0]
    assert final["seat"] == 0 and final["order"] == [1, 0]


# ---------------------------------------------------------------- invariants over random games
class Referee:
    """Checks the table after every event of a game."""

    def __init__(self, players: int, rules: Rules):
        self.players, self.rules, self.events = players, rules, 0

    def observe(self, game, i, event):
        self.events += 1
        where = (game.stacks["open"] + game.stacks["hidden"] + [c for h in game.hands for c in h]
                 + [c for city in game.cities for c in city.cards.values()]
                 + ([game.in_auction] if game.in_auction is not None else []))
        assert sorted(where) == list(range(1, DECK.n + 1)), event          # each card in one place
        start = self.players * self.rules.start_money
        assert sum(game.money) == start + sum(game.st["income"]) - game.to_bank, event
        assert min(game.money) >= 0
        assert game.reserve + sum(game.saboteurs) == self.rules.saboteurs
        for city in game.cities:
            cards = city.cards
            for p in cards:
                if p + 1 in cards:
                    assert kin(DECK.card(cards[p]).type) != kin(DECK.card(cards[p + 1]).type), event
            assert city.count(DECK, HALL) <= 1
            for p, end in city.closes.items():
                assert DECK.card(cards[p]).type == CORNER and p == (city.left if end == LEFT else city.right)
            if not game.final_round:
                assert city.count(DECK, CORNER) <= 1


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2 ** 32), variant=st.sampled_from(["weakest", "any"]),
       overbid=st.sampled_from(["allow", "forbid"]), mix=st.integers(0, 15))
def test_random_games_keep_every_invariant(players, seed, variant, overbid, mix):
    from zsim.rng import game_key
    from zsim.games.baumeister.reference import SeededChance

    rules = Rules(saboteur=variant, overbid=overbid)
    names = [("random", "first")[(mix >> s) & 1] for s in range(players)]
    key = game_key(seed, 0)
    decider = S.StrategyDecider([S.make_strategy(n, key, s) for s, n in enumerate(names)])
    referee = Referee(players, rules)
    game = Game(players, rules, DECK, SeededChance(key), decider, strategies=names, referee=referee)
    result = game.play()
    assert referee.events == len(game.events) > 10
    end = game.events[-1]
    for s in range(players):                                   # scores recomputed from the final cities
        sc = game.cities[s].score(DECK, rules)
        assert end["built"][s] == sum(DECK.card(c).value for c in game.cities[s].cards.values()) == sc["built"]
        assert end["total"][s] == sc["built"] + sc["middle"] + sc["churches"] + sc["corners"] - end["hand"][s]
    assert result.game["end_reason"] in ("stack_empty", "max_turns")
    if overbid == "forbid":
        assert result.game["insolvencies"] == 0


# ---------------------------------------------------------------- records
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rules", [Rules(), Rules(saboteur="any"), Rules(overbid="forbid")],
                         ids=["default", "any", "forbid"])
def test_records_replay_to_themselves(players, rules):
    for g in range(15):
        events = record_game(players, rules, (["random", "first"] * 2)[:players], 11, g)
        parsed = [json.loads(x) for x in to_jsonl(events).splitlines()]
        assert check_record(parsed).events == events


def test_the_referee_names_the_line_that_breaks_a_rule():
    events = record_game(3, Rules(), ["random"] * 3, 2, 0)
    i = next(k for k, e in enumerate(events) if e["e"] == "bid" and k > 5)
    bad = [dict(e) for e in events]
    bad[i]["amount"] = 0
    with pytest.raises(ZsimError, match=rf"line {i + 1}: seat \d chose 0 for "):
        check_record(bad)
    j = next(k for k, e in enumerate(events) if e["e"] == "award")
    bad = [dict(e) for e in events]
    bad[j]["to_bank"] += 1
    with pytest.raises(ZsimError, match=rf"line {j + 1} \(award\): to_bank should be"):
        check_record(bad)
    with pytest.raises(ZsimError, match="comes after the game's end"):
        check_record(events + [{"e": "turn", "seat": 0, "turn": 99}])


def test_same_seed_same_game_and_games_differ():
    a = play_game(4, Rules(), ["random"] * 4, 5, 3, record=True).events
    assert a == play_game(4, Rules(), ["random"] * 4, 5, 3, record=True).events
    assert a != play_game(4, Rules(), ["random"] * 4, 5, 4, record=True).events


# ---------------------------------------------------------------- bad rules and decks
@pytest.mark.parametrize("options, fragment", [
    (["first_build_min=4"], "first_build_min=4 is above max_cards_per_build=3"),
    (["saboteur=all"], "must be one of weakest, any"),
    (["max_bid=0"], "max_bid=0 is out of range 1..10000"),
    (["overbid=never"], "must be one of allow, forbid"),
    (["hand_size=3"], "unknown rule key 'hand_size'"),
])
def test_bad_rules_are_one_line(options, fragment):
    with pytest.raises(ZsimError, match=fragment.replace(".", r"\.")):
        parse_rule_options(options)


@pytest.mark.parametrize("text, fragment", [
    ("card,type,value,shields\n1,tower,1,1\n", "columns must be card,type,value,shields,coins"),
    ("card,type,value,shields,coins\n1,castle,1,1,0\n2,tower,1,1,0\n", "unknown type 'castle'"),
    ("card,type,value,shields,coins\n1,tower,-1,1,0\n2,tower,1,1,0\n", "value is negative: -1"),
    ("card,type,value,shields,coins\n1,tower,1,1,0\n", "the open and the hidden stack need at least 2"),
    ("card,type,value,shields,coins\n1,tower,1,1,0\n3,tower,1,1,0\n", "2 is missing"),
    ("card,type,value,shields,coins\n1,tower,x,1,0\n2,tower,1,1,0\n", "value is not a whole number"),
])
def test_bad_building_files_are_one_line(text, fragment):
    with pytest.raises(ZsimError, match=fragment):
        parse_deck(text, "mine.csv")
