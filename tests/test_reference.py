"""Rule scenarios for the reference engine (zsim/games/zahltag/reference.py).

Most tests play a scripted game: a :class:`Script` is both the chance object
(a fixed deal, a stacked deck, chosen reshuffles) and the decider (scripted
adjustments and bids), so each test pins one rule with numbers worked out by
hand.  The last part plays seeded games with the built-in strategies and
checks conservation and record replay.
"""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.deck import Deck, default_deck
from zsim.games.zahltag.reference import DeckStream, Game, card_code, play_reference
from zsim.games.zahltag.reference_replay import ReplayError, replay_game, replay_record
from zsim.games.zahltag.reference_bots import SeatView, SimpleStrategy, StrategyDecider, make_strategy
from zsim.games.zahltag.rules import Rules
from zsim.rng import GAMMA, MASK64, PyStream, game_key, stream_start

SUPPLY = K.DEFAULT_SUPPLY
JOBS = [[1, 1, 0, 0], [0, 0, 1, 1], [2, 0, 0, 0], [0, 2, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1],
        [1, 1, 1, 0], [0, 1, 1, 1], [1, 0, 0, 1], [0, 0, 2, 0], [0, 0, 0, 2], [1, 1, 0, 1]]
TEST_DECK = Deck("test", np.asarray(JOBS, dtype=np.int64))
SEVEN = [2, 2, 2, 1]          # a 7-card hand
ONE_PAYDAY = dict(setup_rounds=0, paydays_to_end=1, payday_cards=1)


def take(t: str) -> int:
    return K.ACT_TAKE + "FWCE".index(t)


def discard(t: str) -> int:
    return K.ACT_DISCARD + "FWCE".index(t)


def exchange(give: str, get: str) -> int:
    return K.ACT_EXCHANGE + 4 * "FWCE".index(give) + "FWCE".index(get)


def parse(code: str) -> int:
    return K.PAYDAY if code == "P" else int(code[1:]) - 1


def stack_deck(top: list[str], rules: Rules, n_jobs: int = len(JOBS)) -> list[str]:
    """``top`` on top, then the other jobs in order, then the other paydays."""
    rest = [f"J{n}" for n in range(1, n_jobs + 1) if f"J{n}" not in top]
    return list(top) + rest + ["P"] * (rules.payday_cards - top.count("P"))


class Script:
    """Chance and decider for a scenario: fixed deal and deck, scripted decisions.

    Adjustments are one code per turn in order (default: nothing); bids are one
    ``{seat: bid}`` per job (default: pass; eliminated seats get None);
    reshuffles return the next of ``shuffles`` (default: the order unchanged).
    """

    def __init__(self, hands, deck, *, setups=(), adjusts=(), bids=(), shuffles=()):
        self.hands = [list(h) for h in hands]
        self.stacks = [SUPPLY[t] - sum(h[t] for h in hands) for t in range(4)]
        self.deck = list(deck)
        self.setups, self.adjusts, self.bid_script = list(setups), list(adjusts), list(bids)
        self.shuffles = [list(s) for s in shuffles]
        self.reshuffle_calls: list[tuple[str, list[str]]] = []

    def deal(self, players, rules):
        assert len(self.hands) == players
        return [list(h) for h in self.hands], list(self.stacks)

    def setup_deck(self, cards):
        assert sorted(card_code(c) for c in cards) == sorted(self.deck)
        return [parse(c) for c in self.deck]

    def reshuffle(self, cards, reason):
        codes = [card_code(c) for c in cards]
        self.reshuffle_calls.append((reason, codes))
        assert len(self.reshuffle_calls) < 20, "the deck keeps being reshuffled"
        order = self.shuffles.pop(0) if self.shuffles else codes
        assert sorted(order) == sorted(codes)
        return [parse(c) for c in order]

    def setup_action(self, game, seat, round_no):
        return self.setups.pop(0) if self.setups else K.ACT_NONE

    def adjust_action(self, game, seat):
        return self.adjusts.pop(0) if self.adjusts else K.ACT_NONE

    def bids(self, game, job):
        wanted = self.bid_script.pop(0) if self.bid_script else {}
        return [wanted.get(p.seat, 0) if p.in_game else None for p in game.players]


def play(script: Script, rules: Rules, money=None, deck: Deck = TEST_DECK):
    game = Game(len(script.hands), rules, deck, script, script, money=money, record=True)
    return game, game.play()


def of(events, kind):
    return [{k: v for k, v in ev.items() if k != "e"} for ev in events if ev["e"] == kind]


def kinds(events):
    return [ev["e"] for ev in events]


def stat(result, slot):
    return result.seat_stats[:, slot].tolist()


def owned_by_type(game):
    return [sum(p.hand[t] + p.left[t] + p.right[t] for p in game.players) for t in range(4)]


# ------------------------------------------------------------------ setup
def test_setup_three_rounds_seat_order_and_actions():
    rules = Rules(setup_rounds=3, paydays_to_end=1, payday_cards=1)
    script = Script([[2, 2, 2, 1], [1, 2, 2, 2]], stack_deck(["P"], rules),
                    setups=[take("F"), discard("W"), exchange("C", "E"), K.ACT_NONE, take("W"), take("C")])
    game, res = play(script, rules)
    setup = of(res.events, "setup")
    assert [(s["seat"], s["round"]) for s in setup] == [(0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    assert setup[2]["action"] == {"do": "exchange", "give": "C", "take": "E"}
    assert setup[3]["action"] == {"do": "none"}
    start = res.events[0]
    assert start["hands"] == [[2, 2, 2, 1], [1, 2, 2, 2]] and start["stacks"] == [11, 12, 6, 9]
    assert kinds(res.events)[:8] == ["start"] + ["setup"] * 6 + ["turn"]
    assert game.players[0].hand == [3, 3, 1, 2] and game.players[1].hand == [1, 1, 3, 2]
    assert game.stacks == [10, 12, 6, 8]
    assert of(res.events, "payday")[0]["counts"] == [9, 7]


def test_setup_cap_forbids_a_take_even_under_penalize():
    rules = Rules(setup_rounds=2, card_cap=8, over_cap="penalize", paydays_to_end=1, payday_cards=1)
    script = Script([SEVEN, SEVEN], stack_deck(["P"], rules), setups=[take("F"), K.ACT_NONE, take("F")])
    with pytest.raises(ValueError, match="own more than 8"):
        play(script, rules)


# ------------------------------------------------------------------ step 1 and payday counting
@pytest.mark.parametrize("counts_table", [False, True])
def test_finish_right_to_hand_then_left_to_right_and_payday_counts(counts_table):
    rules = Rules(payday_counts_table=counts_table, **ONE_PAYDAY)
    script = Script([[2, 2, 2, 1], [1, 2, 2, 2]], stack_deck(["J1", "J2", "J5", "J4", "P"], rules),
                    bids=[{0: 3}, {}, {0: 3}, {}])
    game, res = play(script, rules)
    assert of(res.events, "finish") == [
        {"seat": 0, "to_hand": [0, 0, 0, 0], "to_right": [1, 1, 0, 0]},
        {"seat": 0, "to_hand": [1, 1, 0, 0], "to_right": [1, 0, 1, 0]}]
    p0 = game.players[0]
    assert p0.hand == [1, 2, 1, 1] and p0.right == [1, 0, 1, 0] and p0.left == [0, 0, 0, 0]
    payday = of(res.events, "payday")[0]
    if counts_table:   # hand + table: 5 + 2 against 7
        assert payday["counts"] == [7, 7] and payday["paid"] == [0, 0]
    else:              # hand only: 5 against 7
        assert payday["counts"] == [5, 7] and payday["paid"] == [0, 2]
    assert stat(res, K.S_IDLE_AT_PAYDAY) == payday["counts"]
    assert stat(res, K.S_FINAL_CARDS) == [7, 7] and stat(res, K.S_FINAL_TABLE) == [2, 0]
    assert stat(res, K.S_MONEY)[0] == 26


# ------------------------------------------------------------------ step 2: the cap
def set_up_game(hands, rules):
    script = Script(hands, stack_deck(["P"], rules))
    game = Game(len(hands), rules, TEST_DECK, script, script)
    game.set_up()
    return game


@pytest.mark.parametrize("over_cap", ["forbid", "penalize"])
def test_cap_forbids_a_take_at_12(over_cap):
    game = set_up_game([[3, 3, 3, 3], [3, 3, 3, 2]], Rules(over_cap=over_cap, **ONE_PAYDAY))
    at_cap, below = game.players
    takes = {take(t) for t in "FWCE"}
    assert takes <= set(game.legal_adjustments(below, setup=False))       # 11 -> 12 is fine
    assert set(game.legal_adjustments(at_cap, setup=True)).isdisjoint(takes)
    legal = set(game.legal_adjustments(at_cap, setup=False))
    assert (takes <= legal) if over_cap == "penalize" else legal.isdisjoint(takes)
    assert {discard(t) for t in "FWCE"} | {exchange("F", "W")} <= legal
    below.hand, below.left = [3, 3, 2, 2], [1, 1, 0, 0]                   # table cards count
    assert set(game.legal_adjustments(below, setup=False)).isdisjoint(takes) == (over_cap == "forbid")


def test_take_over_the_cap_is_rejected_in_play():
    script = Script([[3, 3, 3, 3], SEVEN], stack_deck(["P"], Rules(**ONE_PAYDAY)), adjusts=[take("E")])
    with pytest.raises(ValueError, match="own more than 12"):
        play(script, Rules(**ONE_PAYDAY))


def test_exchange_needs_a_hand_card_and_another_nonempty_stack():
    game = set_up_game([[0, 4, 3, 0], [7, 0, 0, 0]], Rules(**ONE_PAYDAY))
    game.stacks[2] = 0  # pretend the crane stack ran out
    legal = set(game.legal_adjustments(game.players[0], setup=False))
    assert exchange("W", "F") in legal and exchange("C", "E") in legal
    assert exchange("F", "W") not in legal      # holds no foreman
    assert exchange("W", "C") not in legal      # crane stack empty
    assert discard("E") not in legal and take("C") not in legal


# ------------------------------------------------------------------ step 3: reveal
@pytest.mark.parametrize("players,threshold", [(2, 8), (3, 9), (4, 9)])
def test_forced_payday_takes_topmost_payday_and_reshuffles(players, threshold):
    rules = Rules(setup_rounds=0, paydays_to_end=2, payday_cards=2)
    top = [f"J{n}" for n in range(1, threshold + 1)] + ["J11", "P", "J12", "P"]
    script = Script([SEVEN] * players, stack_deck(top, rules))
    game, res = play(script, rules)
    reveals = of(res.events, "reveal")
    assert reveals[:threshold] == [{"card": f"J{n}", "forced": False} for n in range(1, threshold + 1)]
    assert reveals[threshold] == {"card": "P", "forced": True}
    rest = ["J11", "J12", "P"] + [f"J{n}" for n in range(threshold + 1, 11)]
    assert script.reshuffle_calls == [("forced_payday", rest)]   # the topmost payday left the deck
    i = kinds(res.events).index("payday")
    assert kinds(res.events)[i - 1:i + 3] == ["reveal", "payday", "shuffle", "turn"]
    assert res.events[i + 1] == {"e": "shuffle", "reason": "forced_payday", "deck": rest}
    assert reveals[threshold + 1] == {"card": "J11", "forced": False}
    g = res.game_stats
    assert g[K.G_RESHUFFLES] == 1 and g[K.G_PAYDAYS] == 2 and g[K.G_TURNS] == threshold + 4
    assert g[K.G_JOBS_REVEALED] == threshold + 2 == g[K.G_JOBS_NO_BID]   # passed jobs count too


def test_forced_payday_that_ends_the_game_is_not_followed_by_a_shuffle():
    rules = Rules(**ONE_PAYDAY)
    script = Script([SEVEN] * 3, stack_deck([f"J{n}" for n in range(1, 10)], rules))
    _, res = play(script, rules)
    assert kinds(res.events)[-4:] == ["adjust", "reveal", "payday", "end"]
    assert res.events[-3] == {"e": "reveal", "card": "P", "forced": True}
    assert script.reshuffle_calls == [] and res.game_stats[K.G_RESHUFFLES] == 0


def test_forced_payday_eliminations_come_before_its_shuffle():
    rules = Rules(setup_rounds=0, paydays_to_end=2, payday_cards=2)
    script = Script([SEVEN, [1, 1, 1, 1], [1, 1, 1, 1]], stack_deck([f"J{n}" for n in range(1, 10)], rules))
    _, res = play(script, rules, money=[2, 20, 20])
    i = kinds(res.events).index("payday")
    assert kinds(res.events)[i - 1:i + 3] == ["reveal", "payday", "eliminated", "shuffle"]
    assert res.events[i]["paid"] == [2, 0, 0]


@pytest.mark.parametrize("repeats", [1, 2])
def test_payday_in_a_row_goes_back_and_deck_is_reshuffled(repeats):
    rules = Rules(setup_rounds=0, paydays_to_end=3, payday_cards=3)
    deck = stack_deck(["P", "P", "J1", "J2", "P"], rules)
    after_put_back = deck[1:]                          # the payday back on top of the rest
    orders = [after_put_back[:]] * (repeats - 1) + [["J1", "P"] + after_put_back[2:]]
    script = Script([SEVEN, SEVEN], deck, shuffles=orders)
    game, res = play(script, rules)
    ev = res.events
    first_turn2 = [i for i, e in enumerate(ev) if e["e"] == "turn"][1]
    expected = ["turn", "adjust"] + ["reveal", "shuffle"] * repeats + ["reveal", "bids", "award"]
    assert kinds(ev)[first_turn2:first_turn2 + len(expected)] == expected
    assert ev[first_turn2 + 2] == {"e": "reveal", "card": "P", "forced": False}
    assert ev[first_turn2 + 3]["reason"] == "payday_in_a_row"
    assert [c for _, c in script.reshuffle_calls] == [after_put_back] * repeats
    assert of(ev, "payday")[0]["number"] == 1 and of(ev, "reveal")[0] == {"card": "P", "forced": False}
    assert res.game_stats[K.G_RESHUFFLES] == repeats and res.game_stats[K.G_PAYDAYS] == 3


def test_payday_right_after_a_forced_payday_is_put_back():
    rules = Rules(setup_rounds=0, paydays_to_end=2, payday_cards=2)
    deck = stack_deck([f"J{n}" for n in range(1, 10)] + ["P", "P"], rules)
    after_forced = ["P", "J10", "J11", "J12"]
    script = Script([SEVEN] * 3, deck, shuffles=[after_forced, ["J10", "P", "J11", "J12"]])
    _, res = play(script, rules)
    assert [r for r, _ in script.reshuffle_calls] == ["forced_payday", "payday_in_a_row"]
    assert script.reshuffle_calls[1][1] == after_forced
    assert of(res.events, "reveal")[9:] == [{"card": "P", "forced": True}, {"card": "P", "forced": False},
                                            {"card": "J10", "forced": False}, {"card": "P", "forced": False}]


def test_paydays_in_a_row_are_executed_when_no_job_is_left():
    rules = Rules(setup_rounds=0, paydays_to_end=3, payday_cards=3)
    small = Deck("two", np.asarray([[1, 1, 0, 0], [0, 0, 1, 1]], dtype=np.int64))
    script = Script([SEVEN, SEVEN], ["J1", "J2", "P", "P", "P"])
    _, res = play(script, rules, deck=small)
    assert [r["card"] for r in of(res.events, "reveal")] == ["J1", "J2", "P", "P", "P"]
    assert [p["number"] for p in of(res.events, "payday")] == [1, 2, 3]
    assert "shuffle" not in kinds(res.events) and script.reshuffle_calls == []


def test_first_card_payday_is_executed():
    script = Script([SEVEN, [1, 1, 1, 1]], stack_deck(["P"], Rules(**ONE_PAYDAY)))
    _, res = play(script, Rules(**ONE_PAYDAY))
    assert kinds(res.events) == ["start", "turn", "adjust", "reveal", "payday", "end"]
    assert of(res.events, "payday") == [{"number": 1, "counts": [7, 4], "paid": [3, 0]}]
    assert stat(res, K.S_PAYDAY_PAID) == [3, 0] and res.game_stats[K.G_PAYDAYS] == 1


# ------------------------------------------------------------------ step 4a: bidding
@pytest.mark.parametrize("bids,winners,amount,one_bid,tied", [
    ({0: 5, 1: 6}, [0], 5, 0, 0),        # single lowest bid, two bidders
    ({1: 8}, [1], 8, 1, 0),              # the only bidder
    ({0: 4, 2: 4, 1: 7}, [0, 2], 2, 0, 1),
    ({0: 2, 1: 2}, [0, 1], 0, 0, 1),     # a tie at 2 pays nothing
    ({0: 1, 1: 1, 2: 1}, [0, 1, 2], -1, 0, 1),
    ({}, [], 0, 0, 0),                   # everybody passed
])
def test_award(bids, winners, amount, one_bid, tied):
    rules = Rules(**ONE_PAYDAY)
    script = Script([SEVEN] * 3, stack_deck(["J1", "P"], rules), bids=[bids])
    game, res = play(script, rules)
    award = of(res.events, "award")[0]
    assert award == {"job": "J1", "winners": winners, "amount": amount, "left": [[1, 1, 0, 0]] * len(winners)}
    assert stat(res, K.S_JOB_INCOME) == [amount if s in winners else 0 for s in range(3)]
    assert stat(res, K.S_JOBS_WON) == [int(s in winners) for s in range(3)]
    assert stat(res, K.S_BIDS) == [int(s in bids) for s in range(3)]
    assert of(res.events, "payday")[0]["counts"] == [5 if s in winners else 7 for s in range(3)]
    g = res.game_stats
    assert (g[K.G_JOBS_ONE_BID], g[K.G_JOBS_TIED], g[K.G_JOBS_NO_BID]) == (one_bid, tied, int(not winners))
    tables = [[p.left[t] + p.right[t] for t in range(4)] for p in game.players]
    assert tables == [[1, 1, 0, 0] if s in winners else [0, 0, 0, 0] for s in range(3)]


def test_bid_needs_the_job_in_hand():
    rules = Rules(**ONE_PAYDAY)
    script = Script([[0, 4, 3, 0], SEVEN], stack_deck(["J1", "P"], rules), bids=[{0: 3}])
    with pytest.raises(ValueError, match="illegal bids"):
        play(script, rules)


def test_tie_at_1_eliminates_a_player_at_zero_money():
    rules = Rules(**ONE_PAYDAY)
    script = Script([SEVEN] * 3, stack_deck(["J1", "P"], rules), bids=[{0: 1, 1: 1}])
    game, res = play(script, rules, money=[0, 5, 5])
    assert kinds(res.events)[3:7] == ["reveal", "bids", "award", "eliminated"]
    assert of(res.events, "eliminated") == [{"seat": 0, "reason": "tie_bid"}]
    assert of(res.events, "turn")[1] == {"seat": 1, "turn": 2}
    assert of(res.events, "bids") == [{"job": "J1", "bids": [1, 1, 0]}]
    assert of(res.events, "payday")[0] == {"number": 1, "counts": [None, 5, 7], "paid": [None, 0, 2]}
    assert stat(res, K.S_JOB_INCOME) == [0, -1, 0] and stat(res, K.S_JOBS_WON) == [1, 1, 0]
    assert stat(res, K.S_ELIMINATED) == [1, 0, 0] and stat(res, K.S_MONEY) == [0, 4, 3]
    assert stat(res, K.S_FINAL_CARDS) == [0, 7, 7] and stat(res, K.S_FINAL_TABLE) == [0, 2, 0]
    assert stat(res, K.S_PLACE) == [3, 1, 2]
    assert game.stacks == [SUPPLY[t] - owned_by_type(game)[t] for t in range(4)]   # cards went back
    assert game.players[0].hand == [0, 0, 0, 0] and game.players[0].left == [0, 0, 0, 0]
    assert res.events[-1]["reason"] == "fifth_payday"


@pytest.mark.parametrize("money,places,eliminated", [([0, 5], [2, 1], [1, 0]), ([0, 0], [1, 1], [1, 1])])
def test_tie_at_1_ends_a_two_player_game(money, places, eliminated):
    rules = Rules(**ONE_PAYDAY)
    script = Script([SEVEN, SEVEN], stack_deck(["J1", "P"], rules), bids=[{0: 1, 1: 1}])
    _, res = play(script, rules, money=money)
    assert res.events[-1] == {"e": "end", "money": [0, money[1] - 1 if money[1] else 0], "places": places,
                              "reason": "last_player"}
    assert stat(res, K.S_ELIMINATED) == eliminated and res.game_stats[K.G_TURNS] == 1
    assert res.game_stats[K.G_END_REASON] == K.END_LAST_PLAYER
    assert res.game_stats[K.G_ELIMINATIONS] == sum(eliminated)


# ------------------------------------------------------------------ step 4b and eliminations
def test_payday_eliminations_share_one_event_and_return_cards():
    rules = Rules(setup_rounds=0, paydays_to_end=2, payday_cards=2)
    script = Script([SEVEN, SEVEN, [1, 1, 1, 1]], stack_deck(["P"], rules))
    game, res = play(script, rules, money=[2, 1, 20])
    assert of(res.events, "payday")[0] == {"number": 1, "counts": [7, 7, 4], "paid": [2, 1, 0]}
    assert of(res.events, "eliminated") == [{"seat": 0, "reason": "payday"}, {"seat": 1, "reason": "payday"}]
    assert stat(res, K.S_ELIMINATED) == [1, 1, 0] and stat(res, K.S_PLACE) == [2, 2, 1]
    assert res.events[-1]["reason"] == "last_player" and game.stacks == [13, 15, 9, 11]


def test_later_elimination_ranks_above_earlier():
    rules = Rules(setup_rounds=0, paydays_to_end=2, payday_cards=2)
    script = Script([SEVEN] * 4, stack_deck(["J1", "P", "J2", "P"], rules), bids=[{0: 1, 2: 1}])
    _, res = play(script, rules, money=[0, 1, 20, 20])
    assert [t["seat"] for t in of(res.events, "turn")] == [0, 1, 2, 3]
    assert of(res.events, "payday") == [{"number": 1, "counts": [None, 7, 5, 7], "paid": [None, 1, 0, 2]},
                                        {"number": 2, "counts": [None, None, 5, 7], "paid": [None, None, 0, 2]}]
    assert stat(res, K.S_ELIMINATED) == [1, 2, 0, 0]
    assert stat(res, K.S_MONEY) == [0, 0, 19, 16] and stat(res, K.S_PLACE) == [4, 3, 1, 2]
    assert of(res.events, "bids")[1]["bids"] == [None, None, 0, 0]


def test_game_ends_after_the_fifth_payday_even_if_it_eliminates():
    rules = Rules(setup_rounds=0)   # 5 paydays end the game; 6 payday cards
    top = ["J1", "P", "J2", "P", "J3", "P", "J4", "P", "J5", "P", "J6"]
    script = Script([[1, 1, 1, 1], SEVEN], stack_deck(top, rules))
    _, res = play(script, rules, money=[20, 12])
    assert [p["paid"] for p in of(res.events, "payday")] == [[0, 3]] * 4 + [[0, 0]]
    assert kinds(res.events)[-3:] == ["payday", "eliminated", "end"]
    assert res.events[-1] == {"e": "end", "money": [20, 0], "places": [1, 2], "reason": "fifth_payday"}
    assert res.game_stats[K.G_END_REASON] == K.END_FIFTH_PAYDAY and res.game_stats[K.G_TURNS] == 10
    assert stat(res, K.S_PAYDAY_PAID) == [0, 12]


# ------------------------------------------------------------------ the cap penalty variant
PENALIZE = Rules(over_cap="penalize", card_cap=8, **ONE_PAYDAY)


@pytest.mark.parametrize("money2,paid,out", [
    (20, [2, 2, -6, 2], False),     # pays 2 to each of the three others
    (6, [2, 2, -6, 2], False),      # exactly all the money: paid in full, not out
    (3, [1, 0, -3, 2], True),       # short: seat 3, then seat 0, then seat 1
])
def test_penalty_pays_each_other_player(money2, paid, out):
    script = Script([SEVEN, SEVEN, [3, 3, 2, 2], SEVEN], stack_deck(["J1", "J2", "J3", "P"], PENALIZE))
    _, res = play(script, PENALIZE, money=[20, 20, money2, 20])
    assert of(res.events, "penalty") == [{"seat": 2, "excess": 2, "paid": paid}]
    i = kinds(res.events).index("penalty")
    assert kinds(res.events)[i - 1] == "adjust" and res.events[i - 1]["action"] == {"do": "none"}
    assert stat(res, K.S_PENALTY_PAID) == [0, 0, -paid[2], 0]
    assert stat(res, K.S_PENALTY_RECEIVED) == [max(v, 0) for v in paid]
    if out:   # eliminated in its own step 2, the turn's card is still revealed without it
        assert kinds(res.events)[i + 1:i + 3] == ["eliminated", "reveal"]
        assert of(res.events, "bids")[2] == {"job": "J3", "bids": [0, 0, None, 0]}
        assert stat(res, K.S_PLACE) == [2, 3, 4, 1]
    else:
        assert kinds(res.events)[i + 1] == "reveal"
        payday = of(res.events, "payday")[0]
        assert payday["counts"] == [7, 7, 10, 7] and payday["paid"][2] == min(3, money2 - 6)
        assert stat(res, K.S_ELIMINATED)[2] == (1 if money2 == 6 else 0)


def test_penalty_after_a_take_and_again_each_turn_while_over():
    rules = Rules(over_cap="penalize", card_cap=8, setup_rounds=0, paydays_to_end=1, payday_cards=1)
    script = Script([[2, 2, 2, 2], SEVEN], stack_deck(["J1", "J2", "J3", "P"], rules), adjusts=[take("F")])
    _, res = play(script, rules)
    assert of(res.events, "penalty") == [{"seat": 0, "excess": 1, "paid": [-1, 1]}] * 2   # turns 1 and 3
    assert stat(res, K.S_PENALTY_PAID) == [2, 0] and stat(res, K.S_PENALTY_RECEIVED) == [0, 2]


def test_penalty_elimination_of_second_last_player_ends_at_once():
    script = Script([[3, 3, 2, 2], SEVEN], stack_deck(["J1", "P"], PENALIZE))
    _, res = play(script, PENALIZE, money=[0, 20])
    assert kinds(res.events) == ["start", "turn", "adjust", "penalty", "eliminated", "end"]
    assert res.events[-1] == {"e": "end", "money": [0, 20], "places": [2, 1], "reason": "last_player"}


# ------------------------------------------------------------------ ranking
@pytest.mark.parametrize("players,expected", [
    ([(30, 7, 0), (20, 7, 0), (25, 7, 0), (10, 7, 0)], [1, 3, 2, 4]),     # money
    ([(20, 5, 0), (20, 4, 0), (20, 6, 0)], [2, 1, 3]),                    # then fewer cards
    ([(20, 6, 2), (20, 6, 1), (20, 6, 0)], [3, 2, 1]),                    # then fewer on the table
    ([(20, 7, 1), (20, 7, 1), (15, 7, 1)], [1, 1, 3]),                    # shared, next skipped
    ([(0, 9, 3), ("out", 1)], [1, 2]),                                    # any survivor above
    ([(20, 7, 0), (10, 7, 0), ("out", 1), ("out", 2)], [1, 2, 4, 3]),     # later elimination above
    ([(20, 7, 0), ("out", 1), ("out", 1), (10, 7, 0)], [1, 3, 3, 2]),     # one event shares
    ([("out", 2), ("out", 2), ("out", 1)], [1, 1, 3]),                    # nobody left
])
def test_places(players, expected):
    game = set_up_game([SEVEN] * len(players), Rules(**ONE_PAYDAY))
    for p, spec in zip(game.players, players):
        if spec[0] == "out":
            p.in_game, p.elimination, p.money, p.hand = False, spec[1], 0, [0, 0, 0, 0]
        else:
            money, cards, table = spec
            p.money, p.hand, p.right = money, [cards - table, 0, 0, 0], [table, 0, 0, 0]
    assert game.places() == expected


# ------------------------------------------------------------------ the built-in strategies
def view(**kw) -> SeatView:
    base = dict(seat=0, hand=(2, 2, 2, 1), owned=7, stacks=(5, 5, 5, 5), other_hand_sizes=(7,),
                opponents_hands=(2, 2, 2, 2), unrevealed_jobs=((1, 2, 1, 0), (0, 1, 0, 2)),
                jobs_since_payday=0, legal_adjustments=(0,), card_cap=12, max_bid=8)
    base.update(kw)
    return SeatView(**base)


def test_simple_strategy():
    s = SimpleStrategy(PyStream(1, 1))
    assert s.setup(view()) == take("W")                               # demand W 3 > E 2
    assert s.setup(view(stacks=(5, 0, 5, 5))) == take("E")            # W stack empty
    assert s.setup(view(unrevealed_jobs=((1, 1, 1, 1),))) == take("F")  # ties go to F
    assert s.setup(view(hand=(2, 2, 2, 2), owned=8)) == K.ACT_NONE    # holds 8
    assert s.setup(view(owned=12)) == K.ACT_NONE                      # cap
    assert s.adjust(view(other_hand_sizes=(4, 9), jobs_since_payday=6)) == discard("F")  # F, C tie: F
    assert s.adjust(view(hand=(0, 3, 2, 2), other_hand_sizes=(4,), jobs_since_payday=6)) == discard("C")
    assert s.adjust(view(other_hand_sizes=(4, 9), jobs_since_payday=5)) == take("W")
    assert s.adjust(view(other_hand_sizes=(5,), jobs_since_payday=8)) == take("W")      # 7 > 5 + 2 fails
    assert s.bid(view(), (1, 1, 0, 0)) == 3
    assert s.bid(view(), (0, 0, 0, 1)) == 3
    assert s.bid(view(opponents_hands=(0, 5, 5, 5)), (1, 1, 0, 0)) == 8
    assert s.bid(view(max_bid=2), (1, 1, 0, 0)) == 2
    assert s.bid(view(), (3, 0, 0, 0)) == K.PASS


def test_unknown_strategy_and_bad_arguments():
    with pytest.raises(ValueError, match="unknown strategy"):
        play_reference(2, Rules(), default_deck(), ["random", "greedy"], 1, 0)
    with pytest.raises(ValueError):
        play_reference(3, Rules(), default_deck(), ["random"] * 2, 1, 0)
    with pytest.raises(ValueError):
        play_reference(5, Rules(), default_deck(), ["random"] * 5, 1, 0)


def test_chance_protocol_and_first_random_decision():
    rules, deck = Rules(), default_deck()
    res = play_reference(3, rules, deck, ["random"] * 3, 42, 7, record=True)
    start = res.events[0]
    stream = PyStream(game_key(42, 7), 0)
    pile = [t for t in range(4) for _ in range(SUPPLY[t])]
    for i in range(len(pile) - 1, 0, -1):
        j = stream.below(i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    assert start["hands"] == [[pile[7 * s:7 * s + 7].count(t) for t in range(4)] for s in range(3)]
    cards = [f"J{n}" for n in range(1, 33)] + ["P"] * 6
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    assert start["deck"] == cards
    assert start["seed"] == 42 and start["game"] == 7 and start["strategies"] == ["random"] * 3
    assert start["rules"] == rules.as_dict() and start["jobs"] == deck.job_dict()
    hand, stacks = start["hands"][0], start["stacks"]
    legal = [0] + [1 + t for t in range(4) if stacks[t]] + [5 + t for t in range(4) if hand[t]] + \
        [9 + 4 * g + t for g in range(4) for t in range(4) if g != t and hand[g] and stacks[t]]
    code = legal[PyStream(game_key(42, 7), 1).below(len(legal))]
    first = res.events[1]
    assert first["seat"] == 0 and first["round"] == 1
    assert first["action"] == _action_json(code)


def test_random_draws_once_per_decision_and_simple_never():
    names = ["random", "simple", "random"]
    for g in range(10):
        key = game_key(3, g)
        seats = [make_strategy(n, key, s) for s, n in enumerate(names)]
        res = Game(3, Rules(), default_deck(), DeckStream(key), StrategyDecider(seats), record=True).play()
        for s, strategy in enumerate(seats):
            decisions = sum(e["e"] in ("setup", "adjust") and e["seat"] == s for e in res.events) + \
                sum(e["e"] == "bids" and e["bids"][s] is not None for e in res.events)
            draws = decisions if names[s] == "random" else 0
            assert strategy.stream.state == (stream_start(key, 1 + s) + draws * GAMMA) & MASK64


def _action_json(code):
    if code == 0:
        return {"do": "none"}
    if code < 5:
        return {"do": "take", "type": "FWCE"[code - 1]}
    if code < 9:
        return {"do": "discard", "type": "FWCE"[code - 5]}
    g, t = divmod(code - 9, 4)
    return {"do": "exchange", "give": "FWCE"[g], "take": "FWCE"[t]}


# ------------------------------------------------------------------ many seeded games
class CheckedGame(Game):
    """Checks conservation of every card after every event."""

    def emit(self, e, **fields):
        super().emit(e, **fields)
        for t in range(4):
            assert self.stacks[t] + owned_by_type(self)[t] == self.rules.supply[t], (e, t)
        for p in self.players:
            assert min(p.hand + p.left + p.right) >= 0 and p.money >= 0
            assert p.in_game or p.owned() == 0
            assert self.rules.over_cap == "penalize" or p.owned() <= self.rules.card_cap
        assert min(self.stacks) >= 0
        if e != "reveal":   # between a reveal and its resolution the card is in nobody's hands
            jobs = sorted([c for c in self.draw_pile if c != K.PAYDAY] + self.revealed_jobs)
            assert jobs == list(range(len(self.job_needs)))
            assert self.draw_pile.count(K.PAYDAY) == self.rules.payday_cards - self.paydays
        self.checked += 1


RULE_SETS = {"default": Rules(), "penalize": Rules(over_cap="penalize"),
             "counts_table": Rules(payday_counts_table=True),
             "both": Rules(over_cap="penalize", payday_counts_table=True)}


@pytest.mark.parametrize("rules_name", list(RULE_SETS))
def test_cards_are_conserved_in_every_state(rules_name):
    rules, deck = RULE_SETS[rules_name], default_deck()
    for g in range(90):
        players = 2 + g % 3
        names = ["random"] * players if g % 2 else ["random", "simple"] * 2
        names = names[:players]
        key = game_key(11, g)
        decider = StrategyDecider([make_strategy(n, key, s) for s, n in enumerate(names)])
        game = CheckedGame(players, rules, deck, DeckStream(key), decider)
        game.checked = 0
        res = game.play()
        ref = play_reference(players, rules, deck, names, 11, g)
        assert game.checked > 50 and np.array_equal(res.seat_stats, ref.seat_stats)
        assert np.array_equal(res.game_stats, ref.game_stats) and ref.events == []


@pytest.mark.parametrize("strategy", ["random", "simple"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rules_name", list(RULE_SETS))
def test_replay_reproduces_the_record(strategy, players, rules_name):
    rules, deck = RULE_SETS[rules_name], default_deck()
    for g in range(4):
        res = play_reference(players, rules, deck, [strategy] * players, 2024, g, record=True)
        record = json.loads(json.dumps(res.events))
        assert record == res.events and record[-1]["e"] == "end"
        assert replay_record(record) == record
        again = replay_game(record)
        assert np.array_equal(again.seat_stats, res.seat_stats)
        assert np.array_equal(again.game_stats, res.game_stats)
        assert res.game_stats[K.G_TURNS] == [e for e in record if e["e"] == "turn"][-1]["turn"]


def test_record_consistency_with_stats():
    res = play_reference(4, Rules(over_cap="penalize"), default_deck(), ["random"] * 4, 5, 3, record=True)
    ev, g = res.events, res.game_stats
    assert g[K.G_RESHUFFLES] == kinds(ev).count("shuffle")
    assert g[K.G_JOBS_REVEALED] == kinds(ev).count("bids") == kinds(ev).count("award")
    assert g[K.G_PAYDAYS] == kinds(ev).count("payday") == 5
    assert stat(res, K.S_MONEY) == ev[-1]["money"] and stat(res, K.S_PLACE) == ev[-1]["places"]


# ------------------------------------------------------------------ replay errors
def scripted_record(**kw):
    rules = Rules(setup_rounds=1, paydays_to_end=2, payday_cards=2, **kw)
    script = Script([[2, 2, 2, 1], [1, 2, 2, 2], [3, 3, 1, 0]], stack_deck(["J1", "J2", "P", "J3", "P"], rules),
                    bids=[{0: 2}, {1: 4, 0: 5}])
    _, res = play(script, rules)
    return res.events


def index_of(events, kind, n=0):
    return [i for i, e in enumerate(events) if e["e"] == kind][n]


def test_scripted_record_replays():
    record = scripted_record()
    assert replay_record(record) == record


@pytest.mark.parametrize("tamper,message", [
    (lambda r: r[index_of(r, "adjust", 2)].update(action={"do": "discard", "type": "E"}), "holds no E"),
    (lambda r: r[index_of(r, "setup", 2)].update(action={"do": "exchange", "give": "E", "take": "F"}),
     "holds no E"),
    (lambda r: r[index_of(r, "adjust", 0)].update(action={"do": "exchange", "give": "F", "take": "F"}),
     "no action"),
    (lambda r: r[index_of(r, "adjust", 0)].update(seat=1), "seat 1"),
    (lambda r: r[index_of(r, "bids", 1)].update(bids=[0, 4, 3]), "seat 2 cannot bid 3"),
    (lambda r: r[index_of(r, "bids", 1)].update(bids=[0, 4, 9]), "cannot bid 9"),
    (lambda r: r[index_of(r, "bids", 1)].update(job="J7"), "rules reveal J2"),
    (lambda r: r.insert(index_of(r, "payday") + 1, {"e": "shuffle", "reason": "payday_in_a_row",
                                                    "deck": r[0]["deck"][3:]}), "rules call for the adjust"),
    (lambda r: r[0].update(deck=r[0]["deck"][1:] + ["J2"]), "not an order"),
    (lambda r: r[0]["hands"][0].__setitem__(0, 3), "supply"),
    (lambda r: r[0].update(rules={**r[0]["rules"], "card_cap": 0}), "card_cap"),
    (lambda r: r.__delitem__(slice(index_of(r, "bids", 1), None)), "record ends"),
    (lambda r: r.append({"e": "adjust", "seat": 0, "action": {"do": "none"}}), "after the game has ended"),
])
def test_replay_rejects_a_bad_record(tamper, message):
    record = copy.deepcopy(scripted_record())
    tamper(record)
    with pytest.raises(ReplayError, match=message):
        replay_record(record)


def test_replay_rejects_a_take_over_the_cap():
    record = copy.deepcopy(scripted_record(card_cap=8))
    record[index_of(record, "adjust", 0)]["action"] = {"do": "take", "type": "F"}   # 7 -> 8 is fine
    replay_record(record)
    record[index_of(record, "setup", 0)]["action"] = {"do": "take", "type": "F"}    # then 9 is not
    with pytest.raises(ReplayError, match="own more than 8"):
        replay_record(record)


def test_replay_checks_shuffles():
    rules = Rules(setup_rounds=0, paydays_to_end=2, payday_cards=2)
    script = Script([SEVEN] * 3, stack_deck([f"J{n}" for n in range(1, 10)], rules),
                    shuffles=[["P", "J12", "J11", "J10"], ["J12", "P", "J11", "J10"]])
    _, res = play(script, rules)
    record = res.events
    assert replay_record(record) == record
    i = index_of(record, "shuffle")
    for bad, message in [(["P", "J12", "J11"], "not an order"), (["P", "J12", "J11", "J10", "J1"], "not an order"),
                         (["P", "P", "J11", "J10"], "not an order")]:
        broken = copy.deepcopy(record)
        broken[i]["deck"] = bad
        with pytest.raises(ReplayError, match=message):
            replay_record(broken)
    broken = copy.deepcopy(record)
    broken[i]["reason"] = "payday_in_a_row"
    with pytest.raises(ReplayError, match="forced_payday"):
        replay_record(broken)
    broken = copy.deepcopy(record)
    del broken[i]
    with pytest.raises(ReplayError, match="shuffle"):
        replay_record(broken)


def test_replay_derives_and_does_not_trust_derived_fields():
    record = scripted_record()
    forged = copy.deepcopy(record)
    forged[index_of(forged, "payday")]["paid"] = [0, 0, 0]
    forged[index_of(forged, "award")]["amount"] = 8
    forged[index_of(forged, "reveal", 2)]["card"] = "J9"
    forged[-1]["places"] = [3, 2, 1]
    del forged[index_of(forged, "finish")]
    assert replay_record(forged) == record != forged
