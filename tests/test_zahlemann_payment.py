"""Zahlemann payments (zsim/games/zahlemann/payment.py): worked by hand, then
cross-checked against brute force over every combination of random holdings."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zsim.games.zahlemann import payment as pay
from zsim.games.zahlemann.payment import (
    EMPTY, choose_payment, coin_list, exact_payment, from_coin_list, greedy, least_overpayment,
    make_change, next_starter, preference_key, settle, settle_total, value)

DEFAULT = (1, 1, 2, 2, 4, 4)      # 1x50, 1x20, 2x10, 2x5, 4x2, 4x1 = 112


def h(**coins) -> tuple:
    """A holding from keywords c50=, c20=, ... c1=."""
    return tuple(coins.get(f"c{d}", 0) for d in pay.DENOMINATIONS)


# ------------------------------------------------------------------ holdings
def test_holdings_values_and_coin_lists():
    assert value(DEFAULT) == 112 and pay.coin_count(DEFAULT) == 14
    assert coin_list(h(c5=1, c2=1)) == [5, 2]
    assert coin_list(h(c50=1, c1=2)) == [50, 1, 1]
    assert coin_list(EMPTY) == []
    assert from_coin_list([1, 50, 1]) == h(c50=1, c1=2)
    with pytest.raises(ValueError, match="no coin"):
        from_coin_list([3])


# ------------------------------------------------------------------ exact
def test_exact_payment_takes_the_fewest_coins():
    assert exact_payment(DEFAULT, 7) == h(c5=1, c2=1)            # not 5+1+1, 2+2+2+1, ...
    assert exact_payment(DEFAULT, 4) == h(c2=2)                  # not 2+1+1 or 1+1+1+1
    assert exact_payment(DEFAULT, 30) == h(c20=1, c10=1)
    assert exact_payment(DEFAULT, 112) == DEFAULT
    assert exact_payment(DEFAULT, 0) == EMPTY
    assert exact_payment(h(c50=1), 7) is None


def test_exact_payment_ties_go_to_larger_denominations():
    # 60 = 20+20+20 = 50+5+5: three coins each; more 50s wins
    holding = h(c50=1, c20=3, c5=2)
    assert exact_payment(holding, 60) == h(c50=1, c5=2)
    assert exact_payment(h(c20=3, c5=2), 60) == h(c20=3)         # without the 50, the 20s


def test_least_overpayment_by_excess_then_coins_then_denominations():
    assert least_overpayment(h(c50=1), 7) == h(c50=1)
    # 15 from 20 + 10 + 10: 20 and 10+10 both exceed by 5; 20 is one coin
    assert least_overpayment(h(c20=1, c10=2), 15) == h(c20=1)
    # 58 from 50, 20x3, 5x2: 60 exceeds least, as 20+20+20 or 50+5+5: more 50s
    assert least_overpayment(h(c50=1, c20=3, c5=2), 58) == h(c50=1, c5=2)
    # 23 from 50, 20, 5: 20+5 (25) beats 50
    assert least_overpayment(h(c50=1, c20=1, c5=1), 23) == h(c20=1, c5=1)
    assert least_overpayment(h(c5=1), 5) is None                 # nothing exceeds


def test_choose_payment_is_exact_if_possible():
    assert choose_payment(DEFAULT, 37) == h(c20=1, c10=1, c5=1, c2=1)
    assert choose_payment(h(c10=2, c5=1), 12) == h(c10=1, c5=1)  # 15: the least excess
    assert choose_payment(h(c10=1), 11) is None                  # worth less: bankrupt


# ------------------------------------------------------------------ settlements
def test_exact_settlement_moves_the_coins():
    s = settle(DEFAULT, DEFAULT, 7)
    assert (s.given, s.change, s.paid, s.excess, s.shortfall, s.bankrupt) == (
        h(c5=1, c2=1), EMPTY, 7, 0, 0, False)
    assert s.payer_after == (1, 1, 2, 1, 3, 4) and s.winner_after == (1, 1, 2, 3, 5, 4)
    assert s.as_json() == {"given": [5, 2], "change": [], "paid": 7}


def test_overpay_with_receiver_change_from_all_coins_including_the_payment():
    # the payer owes 7 and holds only a 50; the winner holds 20, 2, 1 before
    winner = h(c20=1, c2=1, c1=1)
    s = settle(h(c50=1), winner, 7, "receiver")
    # 43 back: the winner has 50+20+2+1 now; 20+2+1 = 23 is the most <= 43 they can make
    assert s.given == h(c50=1) and s.change == h(c20=1, c2=1, c1=1)
    assert (s.paid, s.excess, s.shortfall) == (27, 43, 20)
    assert s.payer_after == h(c20=1, c2=1, c1=1) and s.winner_after == h(c50=1)
    assert s.as_json() == {"given": [50], "change": [20, 2, 1], "paid": 27}


def test_overpay_with_full_receiver_change():
    s = settle(h(c50=1), DEFAULT, 7, "receiver")
    assert s.change == h(c20=1, c10=2, c2=1, c1=1)                # 43 in the fewest coins
    assert (s.paid, s.shortfall) == (7, 0)


def test_change_can_use_the_coins_just_received():
    # owes 15, pays 10+10 (the least excess, 5); the winner has no 5 but now two 10s
    s = settle(h(c10=2), h(c1=0), 15, "receiver")
    assert s.given == h(c10=2) and s.change == EMPTY and s.shortfall == 5
    s = settle(h(c20=1), h(c5=1), 12, "receiver")               # 8 back: 5 only (no 2s, 1s)
    assert s.change == h(c5=1) and (s.paid, s.shortfall) == (15, 3)


def test_overpay_where_no_change_can_be_made():
    s = settle(h(c50=1), h(c50=1), 7, "receiver")                # the winner holds two 50s
    assert s.change == EMPTY and (s.paid, s.excess, s.shortfall) == (50, 43, 43)
    assert s.winner_after == h(c50=2) and s.payer_after == EMPTY


def test_change_none_returns_nothing():
    s = settle(h(c50=1), DEFAULT, 7, "none")
    assert s.change == EMPTY and (s.paid, s.shortfall) == (50, 43)
    assert s.winner_after == pay.add(DEFAULT, h(c50=1))


def test_change_bank_settles_overpayments_greedily():
    s = settle(h(c50=1, c1=1), EMPTY, 7, "bank")
    assert s.given == h(c50=1) and s.received == h(c5=1, c2=1) and s.change == h(c20=2, c2=1, c1=1)
    assert (s.paid, s.shortfall) == (7, 0)
    assert s.payer_after == h(c20=2, c2=1, c1=2) and s.winner_after == h(c5=1, c2=1)
    assert s.bank == (1, -2, 0, -1, -2, -1) and value(s.bank) == 0
    assert s.as_json() == {"given": [50], "change": [20, 20, 2, 1], "paid": 7, "received": [5, 2]}
    exact = settle(DEFAULT, EMPTY, 7, "bank")                    # exact: straight to the winner
    assert exact.received is None and exact.bank == EMPTY and "received" not in exact.as_json()


def test_bankrupt_payer_hands_over_everything_and_gets_no_change():
    for mode in ("receiver", "none", "bank"):
        s = settle(h(c20=1, c5=1), DEFAULT, 30, mode)
        assert s.bankrupt and s.given == h(c20=1, c5=1) and s.change == EMPTY
        assert (s.paid, s.shortfall, s.payer_after) == (25, 0, EMPTY)
        assert s.received is None and s.bank == EMPTY
    s = settle(h(c10=3), DEFAULT, 30)                            # worth the debt: not bankrupt
    assert not s.bankrupt and s.payer_after == EMPTY
    s = settle(EMPTY, DEFAULT, 5)
    assert s.bankrupt and s.given == EMPTY and s.as_json() == {"given": [], "change": [], "paid": 0}


def test_money_total_is_plain_integers():
    s = settle_total(112, 50, 37)
    assert (s.given, s.change, s.paid, s.payer_after, s.winner_after, s.bankrupt) == (37, 0, 37, 75, 87, False)
    assert s.as_json() == {"given": 37, "change": 0, "paid": 37}
    s = settle_total(20, 0, 37)
    assert (s.paid, s.payer_after, s.winner_after, s.bankrupt) == (20, 0, 20, True)


def test_next_starter_is_the_largest_net_payment_ties_clockwise_from_winners_left():
    assert next_starter(1, 4, [10, None, 10, 5]) == 2             # order 2, 3, 0: 2 first
    assert next_starter(1, 4, [12, None, 10, 12]) == 3            # 3 comes before 0
    assert next_starter(3, 4, [7, 7, 7, None]) == 0
    assert next_starter(0, 2, [None, 3]) == 1
    # net value decides: 50 handed over with 43 back is a payment of 7, below an exact 8
    a, b = settle(h(c50=1), DEFAULT, 7), settle(DEFAULT, DEFAULT, 8)
    assert next_starter(0, 3, [None, a.paid, b.paid]) == 2


def test_greedy_is_fewest_coins():
    assert greedy(88) == (1, 1, 1, 1, 1, 1)
    assert greedy(0) == EMPTY and greedy(99) == (1, 2, 0, 1, 2, 0)
    for amount in range(250):
        unlimited = (amount // 50 + 1, 4, 4, 4, 4, 4)      # more of a small coin never helps
        assert sum(greedy(amount)) == sum(exact_payment(unlimited, amount))


def test_large_holdings_build_only_the_table_a_payment_needs():
    big = (5, 5, 5, 5, 10, 10)                                  # 40 coins, 455
    pay._keys.cache_clear()
    for debt in (1, 37, 263, 454):
        paid = choose_payment(big, debt)
        assert value(paid) == debt                              # 1s and 2s make every amount
        change = make_change(pay.add(big, big), debt)
        assert value(change) == debt
    # every table built was cut at the debt (exact) or the change asked for
    assert pay._keys.cache_info().currsize == 8
    assert max(len(pay.makeable(big, d)) for d in (1, 37, 263, 454)) <= 455
    assert value(choose_payment(big, 454)) == 454


# ------------------------------------------------------------------ brute force
def combinations(holding):
    return itertools.product(*(range(n + 1) for n in holding))


def brute_best(holding, ok, excess_of):
    """The combination ``ok`` accepts minimising (excess_of, preference_key)."""
    cands = [c for c in combinations(holding) if ok(value(c))]
    if not cands:
        return None
    return min(cands, key=lambda c: (excess_of(value(c)), preference_key(c)))


holdings = st.tuples(*(st.integers(0, k) for k in (2, 3, 3, 3, 4, 4)))


@settings(max_examples=200, deadline=None)
@given(holding=holdings, debt=st.integers(0, 160))
def test_payment_choices_match_brute_force(holding, debt):
    assert exact_payment(holding, debt) == brute_best(holding, lambda v: v == debt, lambda v: 0)
    assert least_overpayment(holding, debt) == brute_best(holding, lambda v: v > debt, lambda v: v - debt)
    assert choose_payment(holding, debt) == brute_best(holding, lambda v: v >= debt, lambda v: v - debt)
    assert make_change(holding, debt) == brute_best(holding, lambda v: v <= debt, lambda v: debt - v)


@settings(max_examples=200, deadline=None)
@given(payer=holdings, winner=holdings, debt=st.integers(0, 160),
       mode=st.sampled_from(["receiver", "none", "bank"]))
def test_settlements_conserve_coins_and_value(payer, winner, debt, mode):
    s = settle(payer, winner, debt, mode)
    before = pay.add(payer, winner)
    after = pay.add(pay.add(s.payer_after, s.winner_after), s.bank)
    assert after == before                                     # coins, the bank's counted
    assert value(s.bank) == 0
    assert value(s.payer_after) == value(payer) - s.paid
    assert value(s.winner_after) == value(winner) + s.paid
    assert s.bankrupt == (value(payer) < debt)
    if s.bankrupt:
        assert s.paid == value(payer) and s.payer_after == EMPTY
    else:
        assert debt <= s.paid <= value(s.given) and s.shortfall == s.paid - debt
        assert s.excess == value(s.given) - debt
        if mode == "bank":
            assert s.paid == debt


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=6, max_size=6), st.integers(0, 400))
def test_a_table_cut_at_a_limit_holds_the_same_combinations(counts, limit):
    """``makeable(h, limit)`` drops only the values above ``limit``, never
    changes a combination (what payments and change read from it)."""
    holding = tuple(counts)
    full = pay.makeable(holding)
    assert pay.makeable(holding, limit) == {v: c for v, c in full.items() if v <= limit}
