"""Rule scenarios for the Zahlemann reference engine (zsim/games/zahlemann/reference.py).

Each scenario stacks the deck (``scenario.stack_deck``), scripts the
announcements and decisions, and plays a few turns (``max_turns`` makes the
round stop where the scenario does), then reads the record. Payment
scenarios set the table directly and settle one round.
"""
from __future__ import annotations

import pytest

from zsim.errors import ZsimError
from zsim.games.zahlemann import cards as C
from zsim.games.zahlemann.payment import EMPTY
from zsim.games.zahlemann.reference import (
    Game, RuleError, SeededChance, fisher_yates, play_game, places_of, unit_draw)
from zsim.games.zahlemann.rules import Rules
from zsim.games.zahlemann.scenario import Script, Stacked, stack_deck
from zsim.games.zahlemann.reference_bots import StrategyDecider, make_strategy
from zsim.rng import PyStream, game_key

DEFAULT = (1, 1, 2, 2, 4, 4)


def setup(hands, discard, draw=(), answers=(), forgets=(), notices=(), piles=(), start=0, **rules):
    players = len(hands)
    rules.setdefault("max_rounds", 1)
    rule_set = Rules(hand_size=len(hands[0]), **rules)
    chance = Stacked([stack_deck(players, hands, discard, draw, start)], piles, forgets, notices)
    script = Script(answers)
    return Game(players, rule_set, chance, script, record=True), chance, script


def run(hands, discard, draw=(), answers=(), **kw):
    """Play the scenario; (turn events after the round line, the script, the game)."""
    game, _, script = setup(hands, discard, draw, answers, **kw)
    game.play()
    body = game.events[2:]
    return body, script, game


def ev(e, **fields):
    return {"e": e, **fields}


def play(seat, card, source="hand"):
    return {"e": "play", "seat": seat, "card": card, "from": source}


def draw(seat, card, why):
    return {"e": "draw", "seat": seat, "card": card, "why": why}


def turn(seat, n):
    return {"e": "turn", "seat": seat, "n": n}


def codes(cards):
    return C.hand_codes(cards)


# ------------------------------------------------------------------ cards
def test_cards_codes_order_and_matching():
    assert len(C.CARDS) == 36 and C.CODES[0] == "1R" and C.CODES[-1] == "50V"
    assert C.CODES[:7] == ("1R", "1B", "1Y", "1G", "1A", "1V", "2R")
    assert C.parse("10A") == C.card(10, "A") and C.value_of(C.parse("20G")) == 20
    assert C.hand_codes([C.parse(c) for c in ["50R", "1V", "10A", "1R"]]) == ["1R", "1V", "10A", "50R"]
    assert C.matches(C.parse("5G"), C.parse("5R")) and C.matches(C.parse("50G"), C.parse("1G"))
    assert not C.matches(C.parse("5G"), C.parse("10R"))
    assert C.hand_value(C.CARDS) == 6 * 88
    with pytest.raises(ValueError, match="no card"):
        C.parse("3R")


# ------------------------------------------------------------------ setup
def test_deal_one_at_a_time_from_the_starter_then_the_first_discard():
    rules = Rules(hand_size=5, max_turns=1, max_rounds=1)
    game = Game(3, rules, Stacked([list(range(36))]), Script(), record=True)
    game.starter = 1
    game.play_round()
    rnd = game.events[0]
    assert rnd["start"] == 1 and rnd["deck"] == list(C.CODES)
    assert rnd["hands"][1] == [C.CODES[k] for k in (0, 3, 6, 9, 12)]
    assert rnd["hands"][2] == [C.CODES[k] for k in (1, 4, 7, 10, 13)]
    assert rnd["hands"][0] == [C.CODES[k] for k in (2, 5, 8, 11, 14)]
    assert rnd["discard"] == C.CODES[15]
    assert game.events[1] == turn(1, 1)                 # the starter plays first


def test_every_round_is_set_up_afresh_from_the_seeded_deck_stream():
    result = play_game(2, Rules(max_turns=2, max_rounds=3), seed=5, record=True)
    stream = PyStream(game_key(5, 0), 0)
    decks = [e["deck"] for e in result.events if e["e"] == "round"]
    assert decks == [C.codes(fisher_yates(list(C.CARDS), stream)) for _ in range(3)]


# ------------------------------------------------------------------ a turn
def test_must_play_a_match_options_in_canonical_order():
    body, script, _ = run([["1B", "10R", "20G", "5Y", "50B"], ["2G", "5G", "20Y", "1A", "50A"]], "10B",
                          answers=["50B"], max_turns=1)
    assert script.asked == [(0, "play", ("1B", "10R", "50B"))]
    assert body[:2] == [turn(0, 1), play(0, "50B")]


def test_no_match_draws_one_and_may_play_the_drawn_match():
    hands = [["2G", "5G", "20Y", "1A", "50A"], ["2Y", "5Y", "20A", "1V", "50V"]]
    body, script, game = run(hands, "10B", draw=["20B"], max_turns=1)
    assert script.asked == [(0, "drawn", ("20B", "keep"))]
    assert body[:3] == [turn(0, 1), draw(0, "20B", "no_match"), play(0, "20B", "drawn")]
    assert game.events[-2] == ev("void_round", round=1, why="turn_cap")


def test_a_drawn_match_may_be_kept():
    hands = [["2G", "5G", "20Y", "1A", "50A"], ["2Y", "5Y", "20A", "1V", "50V"]]
    body, _, game = run(hands, "10B", draw=["20B"], answers=["keep"], max_turns=1)
    assert body[:3] == [turn(0, 1), draw(0, "20B", "no_match"), ev("pass_turn", seat=0, why="kept")]
    assert codes(game.hands[0]) == ["1A", "2G", "5G", "20B", "20Y", "50A"]


def test_a_drawn_card_that_does_not_match_ends_the_turn_without_a_decision():
    hands = [["2G", "5G", "20Y", "1A", "50A"], ["2Y", "5Y", "20A", "1V", "50V"]]
    body, script, _ = run(hands, "10B", draw=["20G"], max_turns=1)
    assert script.asked == []
    assert body[:3] == [turn(0, 1), draw(0, "20G", "no_match"), ev("pass_turn", seat=0, why="no_match")]


def test_reshuffle_all_discards_but_the_top_when_the_pile_is_empty():
    game, chance, _ = setup([["2G"], ["5Y"]], "10R", piles=[["20B", "1R"]])
    game.round_no = 1
    game.hands = [[C.parse("2G")], [C.parse("5Y")]]
    game.discards = [C.parse(c) for c in ["1R", "20B", "10R"]]      # bottom first, top 10R
    game.draw_pile = []
    assert game.take_turn(0) is False
    assert chance.calls == [("reshuffle", ["1R", "20B"])]         # bottom of the pile first
    assert game.events == [turn(0, 1), ev("reshuffle", pile=["20B", "1R"]), draw(0, "20B", "no_match"),
                           ev("pass_turn", seat=0, why="no_match")]
    assert C.codes(game.discards) == ["10R"] and C.codes(game.draw_pile) == ["1R"]
    assert game.reshuffles == 1


def test_nothing_to_draw_passes_and_counts_toward_deadlock():
    game, chance, _ = setup([["2G"], ["5Y"]], "10R")
    game.round_no = 1
    game.hands = [[C.parse("2G")], [C.parse("5Y")]]
    game.discards, game.draw_pile = [C.parse("10R")], []
    game.take_turn(0)
    assert game.events[1:] == [draw(0, None, "no_match"), ev("pass_turn", seat=0, why="no_card")]
    assert game.deadlock == 1 and chance.calls == []


class NothingToDraw(Game):
    """A table where no card can ever be drawn (impossible with 36 cards)."""

    def draw(self, seat, why):
        self.emit("draw", seat=seat, card=None, why=why)


def test_deadlock_voids_the_round_after_a_turn_by_each_player():
    rules = Rules(hand_size=2, max_rounds=1)
    deck = stack_deck(2, [["2G", "5G"], ["20Y", "50Y"]], "10R")
    game = NothingToDraw(2, rules, Stacked([deck]), Script(), record=True)
    result = game.play()
    kinds = [e["e"] for e in game.events]
    assert kinds == ["start", "round", "turn", "draw", "pass_turn", "turn", "draw", "pass_turn",
                     "void_round", "end"]
    assert game.events[-2] == ev("void_round", round=1, why="deadlock")
    assert result.void_rounds == 1 and result.end_reason == "round_cap"


# ------------------------------------------------------------------ announcing
def test_announcement_after_a_play_leaving_one_card():
    body, _, _ = run([["5B", "20G"], ["1Y", "2Y"]], "10B", max_turns=1)
    assert body[:3] == [turn(0, 1), play(0, "5B"), ev("announce", seat=0)]


def test_forgotten_and_noticed_draws_a_penalty():
    body, _, game = run([["5B", "20G"], ["1Y", "2Y"]], "10B", draw=["1B"], forgets=[True],
                                    notices=[True], max_turns=1, notice=0.7)
    assert body[1:5] == [play(0, "5B"), ev("forgot", seat=0), ev("noticed", seat=0, noticed=True),
                         draw(0, "1B", "penalty")]
    assert codes(game.hands[0]) == ["1B", "20G"]


def test_forgotten_but_not_noticed():
    body, _, _ = run([["5B", "20G"], ["1Y", "2Y"]], "10B", draw=["1B"], forgets=[True],
                     notices=[False], max_turns=1)
    assert body[1:4] == [play(0, "5B"), ev("forgot", seat=0), ev("noticed", seat=0, noticed=False)]
    assert body[4] == ev("void_round", round=1, why="turn_cap")


def test_the_chance_sees_the_seats_forget_and_the_rules_notice():
    game, chance, _ = setup([["5B", "20G"], ["1Y", "2Y"]], "10B", forgets=[True], notices=[True],
                            notice=0.25, max_turns=1)
    game.forget = [0.75, 0.0]
    game.play()
    assert ("forgot", 0, 0.75) in chance.calls and ("noticed", 0, 0.25) in chance.calls


def test_penalty_card_is_not_playable_this_turn_double_check_and_later_playable():
    # seat 0 plays 1R, forgets, is noticed and draws 1B: 1B matches the 1 but is a
    # penalty card, so the bonus options are 1G or stop; 1G leaves one card: a second check
    hands = [["1R", "1G"], ["2Y", "20Y"]]
    body, script, _ = run(hands, "10R", draw=["1B", "50Y"], forgets=[True, False], notices=[True],
                          one_plays_again=True, max_turns=3)
    assert script.asked[:2] == [(0, "play", ("1R",)), (0, "bonus", ("1G", "stop"))]
    assert body[:8] == [turn(0, 1), play(0, "1R"), ev("forgot", seat=0), ev("noticed", seat=0, noticed=True),
                        draw(0, "1B", "penalty"), play(0, "1G", "bonus"), ev("announce", seat=0),
                        turn(1, 2)]
    assert body[8:10] == [draw(1, "50Y", "no_match"), ev("pass_turn", seat=1, why="no_match")]
    # next turn the penalty card is an ordinary card: it matches 1G and goes out
    assert script.asked[2] == (0, "play", ("1B",))
    assert body[10:12] == [turn(0, 3), play(0, "1B")]
    assert body[12]["e"] == "round_end" and body[12]["winner"] == 0


def test_penalty_after_a_two_is_drawn_once_the_hands_have_moved():
    hands = [["2R", "5G"], ["10Y", "20Y"]]
    body, _, game = run(hands, "10R", draw=["50A"], forgets=[True], notices=[True],
                        two_passes_hands=True, max_turns=1)
    assert body[1:6] == [play(0, "2R"), ev("forgot", seat=0), ev("noticed", seat=0, noticed=True),
                         ev("pass_hands", hands=[["10Y", "20Y"], ["5G"]]), draw(0, "50A", "penalty")]
    assert codes(game.hands[0]) == ["10Y", "20Y", "50A"] and codes(game.hands[1]) == ["5G"]


def test_going_out_needs_no_call_and_receiving_a_hand_none():
    # seat 0 plays its last card: round_end follows the play at once
    body, _, _ = run([["5B"], ["1Y"]], "10B")
    assert body[:3] == [turn(0, 1), play(0, "5B"), body[2]] and body[2]["e"] == "round_end"
    # a pass gives seat 1 a single card: no announcement for it
    body, _, _ = run([["2R", "5G"], ["10Y", "20Y"]], "10R", two_passes_hands=True, max_turns=1)
    assert [e["e"] for e in body[:5]] == ["turn", "play", "announce", "pass_hands", "void_round"]


# ------------------------------------------------------------------ variants
def test_one_plays_again_chain_of_ones():
    hands = [["1R", "1B", "1Y", "5G", "20A"], ["2Y", "5Y", "20Y", "2V", "50V"]]
    body, script, _ = run(hands, "10R", one_plays_again=True, max_turns=1)
    assert script.asked == [(0, "play", ("1R",)), (0, "bonus", ("1B", "1Y", "stop")),
                            (0, "bonus", ("1Y", "stop"))]
    assert body[1:4] == [play(0, "1R"), play(0, "1B", "bonus"), play(0, "1Y", "bonus")]
    assert body[4] == ev("void_round", round=1, why="turn_cap")   # 5G, 20A do not match 1Y


def test_one_plays_again_may_stop_holding_a_match_and_nothing_is_written():
    hands = [["1R", "5R", "20A"], ["2Y", "5Y", "20Y"]]
    body, script, _ = run(hands, "10R", answers=["1R", "stop"], one_plays_again=True, max_turns=2)
    assert script.asked[1] == (0, "bonus", ("5R", "stop"))
    assert body[:3] == [turn(0, 1), play(0, "1R"), turn(1, 2)]


def test_a_bonus_card_has_its_own_effect_but_only_a_one_continues():
    hands = [["1R", "5R", "2R", "20A"], ["2Y", "5Y", "20Y", "10Y"]]
    body, _, _ = run(hands, "10R", answers=["1R", "5R"], one_plays_again=True, max_turns=1)
    assert body[1:3] == [play(0, "1R"), play(0, "5R", "bonus")] and body[3]["e"] == "void_round"
    body, _, _ = run(hands, "10R", answers=["1R", "2R"], one_plays_again=True, two_passes_hands=True,
                     max_turns=1)
    assert body[1:4] == [play(0, "1R"), play(0, "2R", "bonus"),
                         ev("pass_hands", hands=[["2Y", "5Y", "10Y", "20Y"], ["5R", "20A"]])]


def test_without_the_variant_a_one_is_an_ordinary_card():
    body, script, _ = run([["1R", "1B", "5G"], ["2Y", "5Y", "20Y"]], "10R", max_turns=1)
    assert [k for _, k, _ in script.asked] == ["play"] and body[2]["e"] == "void_round"


def test_fifty_skips_with_two_players_comes_back_to_the_fifty():
    hands = [["50R", "5G"], ["20R", "10Y"]]                    # seat 1 holds a match, but is skipped
    body, script, _ = run(hands, "10R", draw=["20G", "2A"], fifty_skips=True, max_turns=3)
    assert body[:8] == [turn(0, 1), play(0, "50R"), ev("announce", seat=0), turn(1, 2), ev("skip", seat=1),
                        draw(1, "20G", "fifty"), turn(0, 3), draw(0, "2A", "no_match")]
    assert [s for s, _, _ in script.asked] == [0]              # the skipped seat decides nothing


def test_fifty_skips_the_next_of_three():
    hands = [["50R", "5G", "1A"], ["20R", "10Y", "2A"], ["50B", "5V", "1Y"]]
    body, _, _ = run(hands, "10R", draw=["20G"], fifty_skips=True, max_turns=3)
    assert body[1:6] == [play(0, "50R"), turn(1, 2), ev("skip", seat=1), draw(1, "20G", "fifty"), turn(2, 3)]
    assert body[6] == play(2, "50B")


def test_the_first_discard_never_has_an_effect():
    # seat 0 is not skipped by the 50 turned up, nor are hands passed for a 2
    body, _, _ = run([["5R", "5G"], ["20R", "10Y"]], "50R", fifty_skips=True, max_turns=1)
    assert body[:3] == [turn(0, 1), play(0, "5R"), ev("announce", seat=0)]
    body, _, _ = run([["5R", "5G"], ["20R", "10Y"]], "2R", two_passes_hands=True, max_turns=1)
    assert body[:3] == [turn(0, 1), play(0, "5R"), ev("announce", seat=0)]


def test_two_passes_every_hand_to_the_left_neighbour():
    hands = [["2R", "5G", "20A"], ["10Y", "1Y", "5A"], ["20B", "50V", "5V"]]
    body, _, game = run(hands, "10R", two_passes_hands=True, max_turns=1)
    assert body[2] == ev("pass_hands", hands=[["5V", "20B", "50V"], ["5G", "20A"], ["1Y", "5A", "10Y"]])
    view = game.seat_view(0, "play", ())
    assert view.passed_on == ((C.parse("5G"), C.parse("20A")),)
    assert view.hand == tuple(sorted(C.parse(c) for c in ["5V", "20B", "50V"]))


# ------------------------------------------------------------------ void rounds, caps
def test_turn_cap_voids_rounds_same_starter_and_counts_toward_the_round_cap():
    result = play_game(3, Rules(max_turns=2, max_rounds=3), seed=1, record=True)
    rounds = [e for e in result.events if e["e"] == "round"]
    voids = [e for e in result.events if e["e"] == "void_round"]
    assert [r["start"] for r in rounds] == [0, 0, 0]
    assert voids == [ev("void_round", round=r, why="turn_cap") for r in (1, 2, 3)]
    assert [e["n"] for e in result.events if e["e"] == "turn"] == [1, 2] * 3
    assert result.end_reason == "round_cap" and result.rounds == result.void_rounds == 3
    assert result.totals == [112] * 3 and result.places == [1, 1, 1]
    assert result.win_share == pytest.approx([1 / 3] * 3)


def test_round_cap_end_after_a_won_round():
    _, _, game = run([["5B", "20G"], ["1Y", "2Y"]], "10B", max_rounds=1)
    assert game.events[-1]["reason"] == "round_cap" and game.events[-1]["rounds"] == 1


def test_bankruptcy_ends_the_game_later_payments_still_made_beats_the_round_cap():
    hands = [["5R"], ["50B"], ["2G"]]
    body, _, _ = run(hands, "10R", coins=(0, 0, 0, 0, 0, 3), max_rounds=1)
    end_round = body[2]
    assert end_round == ev("round_end", round=1, winner=0, owed=[0, 50, 2], payments=[
        None, {"given": [1, 1, 1], "change": [], "paid": 3}, {"given": [1, 1], "change": [], "paid": 2}],
        coins=[[0, 0, 0, 0, 0, 8], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]])
    assert body[3] == ev("bankrupt", seat=1)
    assert body[4] == ev("end", coins=[[0, 0, 0, 0, 0, 8], [0] * 6, [0, 0, 0, 0, 0, 1]], totals=[8, 0, 1],
                         places=[1, 3, 2], reason="bankrupt", rounds=1)


def test_bankrupt_round_ends_the_game_before_the_round_cap():
    result = play_game(2, Rules(coins=(0, 0, 0, 0, 0, 1), max_rounds=50), seed=3, record=True)
    assert result.end_reason == "bankrupt" and result.rounds < 50
    assert sum(result.bankrupt) >= 1 and result.events[-2]["e"] == "bankrupt"


# ------------------------------------------------------------------ payments at the table
def settled(holdings, hands, winner, **rules):
    players = len(holdings)
    game = Game(players, Rules(**rules), Stacked([list(C.CARDS)]), Script(), record=True)
    game.round_no = 1
    game.money = list(holdings)
    game.hands = [[C.parse(c) for c in h] for h in hands]
    broke, starter = game.settle_round(winner)
    return game, game.events[-1 - len(broke)], broke, starter


def test_next_starter_is_the_net_payment_not_the_coins_handed_over():
    # seat 1 owes 7 and hands over a 50 (43 back: paid 7); seat 2 pays 8 exactly
    _, end, broke, starter = settled([DEFAULT, (1, 0, 0, 0, 0, 0), DEFAULT],
                                     [[], ["5B", "2G"], ["5G", "1B", "2B"]], 0)
    assert end["payments"][1] == {"given": [50], "change": [20, 10, 10, 2, 1], "paid": 7}
    assert end["payments"][2] == {"given": [5, 2, 1], "change": [], "paid": 8}
    assert starter == 2 and broke == []
    # the same 7 from both: the tie goes to the winner's left
    _, _, _, starter = settled([DEFAULT, (1, 0, 0, 0, 0, 0), DEFAULT], [[], ["5B", "2G"], ["5G", "2B"]], 0)
    assert starter == 1
    _, _, _, starter = settled([DEFAULT, DEFAULT, DEFAULT], [["5B", "2G"], [], ["5G", "2B"]], 1)
    assert starter == 2                                         # order 2, 0 from winner 1


def test_value_not_number_of_coins_decides_the_starter():
    _, end, _, starter = settled([DEFAULT] * 3, [[], ["20B"], ["5G", "2B", "1A"]], 0)
    assert [p and len(p["given"]) for p in end["payments"]] == [None, 1, 3]
    assert starter == 1


def test_a_bankrupt_payers_coins_serve_as_change_for_the_next_payer():
    game, end, broke, _ = settled([EMPTY, (0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0)],
                                  [[], ["10B"], ["20B", "20G", "5A"]], 0)
    assert broke == [1] and game.events[-1] == ev("bankrupt", seat=1)
    assert end["payments"][1] == {"given": [5], "change": [], "paid": 5}
    assert end["payments"][2] == {"given": [50], "change": [5], "paid": 45}
    assert end["coins"] == [[1, 0, 0, 0, 0, 0], [0] * 6, [0, 0, 0, 1, 0, 0]]


def test_change_modes_at_the_table():
    hands = [[], ["5B", "2G"]]
    _, end, _, _ = settled([DEFAULT, (1, 0, 0, 0, 0, 0)], hands, 0, change="none")
    assert end["payments"][1] == {"given": [50], "change": [], "paid": 50}
    game, end, _, _ = settled([EMPTY, (1, 0, 0, 0, 0, 0)], hands, 0, change="bank")
    assert end["payments"][1] == {"given": [50], "change": [20, 20, 2, 1], "paid": 7, "received": [5, 2]}
    assert game.bank == (1, -2, 0, -1, -2, -1)
    game, end, _, _ = settled([EMPTY, (1, 0, 0, 0, 0, 0)], hands, 0, change="receiver")
    assert end["payments"][1] == {"given": [50], "change": [], "paid": 50}
    assert game.st["shortfall"] == [0, 43]


def test_money_total_settles_integers():
    _, end, broke, starter = settled([112, 10, 112], [[], ["20B", "5G"], ["1R"]], 0, money="total")
    assert end["payments"] == [None, {"given": 10, "change": 0, "paid": 10},
                               {"given": 1, "change": 0, "paid": 1}]
    assert end["coins"] == [123, 0, 111] and broke == [1] and starter == 1
    result = play_game(3, Rules(money="total"), seed=4, record=True)
    assert all(isinstance(c, int) for c in result.coins) and sum(result.totals) == 3 * 112


# ------------------------------------------------------------------ places
def test_places_share_and_skip():
    assert places_of([10, 30, 30, 5]) == [3, 1, 1, 4]
    assert places_of([7, 7]) == [1, 1]


# ------------------------------------------------------------------ deciders and views
class Peeker:
    name, fair = "peek", False

    def __init__(self):
        self.forget, self.saw = 0.0, []

    def decide(self, view, oracle=None):
        self.saw.append(oracle)
        return view.options[-1]


def test_views_show_a_seat_only_what_it_knows_and_the_oracle_is_separate():
    seen = []

    class Looker:                   # a strategy that reads its whole view
        name, fair, forget = "looker", True, 0.0

        def decide(self, view):
            seen.append(view)
            return view.options[0]

    peeker = Peeker()
    rules = Rules(max_rounds=1, max_turns=4)
    key = game_key(9, 0)
    game = Game(2, rules, SeededChance(key), StrategyDecider([Looker(), peeker]), record=True)
    game.play()
    assert seen and all(not hasattr(v, "hands") and not hasattr(v, "draw_pile") for v in seen)
    v = seen[0]
    assert v.seat == 0 and v.options and v.hand_sizes[0] == len(v.hand) and v.top == v.discards[0]
    assert v.money == (DEFAULT, DEFAULT) and v.round == 1 and v.turn == 1
    assert peeker.saw and all(o is not None and len(o.hands) == 2 for o in peeker.saw)


class Logged(StrategyDecider):
    def __init__(self, strategies):
        super().__init__(strategies)
        self.log = []

    def decide(self, game, seat, kind, options):
        choice = super().decide(game, seat, kind, options)
        self.log.append((seat, len(options), options.index(choice)))
        return choice


def test_random_strategy_draws_one_below_per_decision_from_its_seat_stream():
    key = game_key(3, 7)
    decider = Logged([make_strategy("random", key, 0), make_strategy("first", key, 1),
                      make_strategy("random", key, 2)])
    rules = Rules(one_plays_again=True, max_rounds=3)
    Game(3, rules, SeededChance(key), decider).play()
    for seat in (0, 2):
        stream = PyStream(key, 1 + seat)
        mine = [(n, i) for s, n, i in decider.log if s == seat]
        assert mine and all(i == stream.below(n) for n, i in mine)
    assert all(i == 0 for s, _, i in decider.log if s == 1)
    assert any(n == 1 for _, n, _ in decider.log)              # asked even with one option
    with pytest.raises(ValueError, match="unknown strategy"):
        make_strategy("best", key, 0)


def test_a_decider_choosing_outside_the_options_is_refused():
    class Bad:
        def decide(self, game, seat, kind, options):
            return "keep"

    deck = stack_deck(2, [["1R"], ["5Y"]], "10R")
    game = Game(2, Rules(hand_size=1), Stacked([deck]), Bad(), record=True)
    with pytest.raises(RuleError, match="seat 0 chose 'keep'"):
        game.play()


def test_players_and_hand_size_are_validated():
    with pytest.raises(ZsimError, match="2..4 players"):
        play_game(5)
    with pytest.raises(ZsimError, match="hand_size=9 is too large for 4 players"):
        play_game(4, Rules(hand_size=9))


def test_announcement_stream_one_draw_each_even_when_forced():
    result = play_game(3, Rules(notice=0.5), seed=11, forget=[0.0, 0.5, 1.0], record=True)
    stream = PyStream(game_key(11, 0), 5)
    forget = [0.0, 0.5, 1.0]
    checks = 0
    for e in result.events:
        if e["e"] in ("announce", "forgot"):
            checks += 1
            assert (e["e"] == "forgot") == (unit_draw(stream) < forget[e["seat"]])
        elif e["e"] == "noticed":
            assert e["noticed"] == (unit_draw(stream) < 0.5)
    assert checks > 3
    seats = {e["seat"] for e in result.events if e["e"] in ("announce", "forgot")}
    assert all(e["e"] == "forgot" for e in result.events if e["e"] in ("announce", "forgot")
               and e["seat"] == 2)
    assert all(e["e"] == "announce" for e in result.events if e["e"] in ("announce", "forgot")
               and e["seat"] == 0)
    assert len(seats) >= 2
