"""Paying a round's debts in the fast engine: coins, change, the bank.

Written from docs/rules.md ("Round end and payment") alone, like the rest of
the fast engine; ``payment.py`` is the reference engine's own. A money row is
``constants.M_COLUMNS`` ints: the coins of 50, 20, 10, 5, 2, 1, then the total
value (under ``money=total`` only the total).

Whenever the rules pick one combination of coins among several, they take
the one with the fewest coins, then more 50s, then more 20s, ... down to 1s.
:func:`best_combo_nb` finds it for the payment (exact, else the least
overpayment) and for the winner's change.

The round's settlement (:func:`settle_nb`), a payment (:func:`pay_coins_nb`),
the search and a hand's value are ``hot_flat``: LLVM copies them into the
game, which calls the settlement once a round. The cuts leave a search little
to do (over the payments of 600 reference games of the `first` field, about
one and a quarter trials of the 5s and smaller coins a call), so the calls and
their arrays were much of a payment's cost: copied in, the search and the
payment made a game 1.03x as fast at two players and 1.04x at four, and the
settlement and the hand's value after them 1.03x to 1.09x more
(docs/performance.md, tenth round).
"""
from __future__ import annotations

from zsim.games.zahlemann import constants as K
from zsim.jit import bit_count_nb, hot, hot_flat, seat_after_nb

#: PAY: the cheapest combination worth at least the target; CHANGE: the
#: largest worth at most the target (see best_combo_nb)
PAY, CHANGE = 0, 1


@hot_flat
def hand_value_nb(hand):
    """What a hand owes at the round's end: its card values summed."""
    total = 0
    for v in range(K.N_VALUES):
        total += bit_count_nb(hand & K.VALUE_MASK[v]) * K.VALUES[v]
    return total


@hot_flat
def best_combo_nb(h, target, mode, out):
    """The preferred combination of holding ``h`` (coins of 50 .. 1) into
    ``out``, and its value. PAY: the least value at least ``target`` (exact
    if possible, else the least overpayment; ``h`` must be worth ``target``);
    CHANGE: the largest value at most ``target``. Among combinations of that
    value: the fewest coins, then more 50s, then more 20s, ... down to 1s.

    The 50s, 20s, 10s and 5s are enumerated, larger counts first (so the
    first of equal value and count is the preferred one); the rest is made of
    2s and 1s, as many 2s as possible. A PAY value exceeds the target by less
    than the smallest coin in it (drop any coin and it would not pay), so
    nothing above target + 50 is looked at. Two cuts keep the enumeration
    short (each cut only skips combinations that cannot win):

    - a payment looks for an exact combination first, with no coin taking
      the value past the target; only if there is none does it search again,
      from scratch, up to target + 50;
    - once a combination worth the target itself is found, a prefix of coins
      is skipped when it and the fewest coins that could make up the rest
      (the rest divided by the next coin, rounded up) are no fewer coins.
    """
    h0, h1, h2, h3, h4, h5 = h[0], h[1], h[2], h[3], h[4], h[5]
    r4 = 2 * h4 + h5                     # what the 2s and 1s are worth
    r3 = 5 * h3 + r4
    r2 = 10 * h2 + r3
    r1 = 20 * h1 + r2
    pay = mode == PAY
    lo = target if pay else 0
    best_v = -1
    best_count = 0
    # an exact payment beats any other: look for one first (no value above
    # the target), then, if there is none, up to target + 50 (change: once)
    for attempt in range(2 if pay else 1):
        hi = target if attempt == 0 else target + 50
        if attempt == 1:
            if best_v == target:
                break
            best_v = -1                  # the full search, from scratch
        a0 = min(h0, hi // 50)
        while a0 >= 0:
            s0 = 50 * a0
            if s0 + r1 < lo:
                break
            if not (best_v == target and a0 + (target - s0 + 19) // 20 >= best_count):
                a1 = min(h1, (hi - s0) // 20)
                while a1 >= 0:
                    s1 = s0 + 20 * a1
                    if s1 + r2 < lo:
                        break
                    n1 = a0 + a1
                    if not (best_v == target and n1 + (target - s1 + 9) // 10 >= best_count):
                        a2 = min(h2, (hi - s1) // 10)
                        while a2 >= 0:
                            s2 = s1 + 10 * a2
                            if s2 + r3 < lo:
                                break
                            n2 = n1 + a2
                            if not (best_v == target and n2 + (target - s2 + 4) // 5 >= best_count):
                                a3 = min(h3, (hi - s2) // 5) + 1
                                while a3 > 0:
                                    a3 -= 1
                                    s3 = s2 + 5 * a3
                                    if pay:
                                        if best_v >= 0 and s3 > best_v:
                                            continue
                                        t = lo - s3 if lo > s3 else 0
                                        if h5 == 0:
                                            t += t & 1
                                        if t > r4:
                                            break
                                    else:
                                        t = hi - s3 if hi - s3 < r4 else r4
                                        if h5 == 0:
                                            t -= t & 1
                                    b = min(h4, t >> 1)
                                    c = t - 2 * b
                                    v = s3 + t
                                    count = n2 + a3 + b + c
                                    if best_v < 0 or (v < best_v if pay else v > best_v) or (
                                            v == best_v and count < best_count):
                                        best_v = v
                                        best_count = count
                                        out[0] = a0
                                        out[1] = a1
                                        out[2] = a2
                                        out[3] = a3
                                        out[4] = b
                                        out[5] = c
                            a2 -= 1
                    a1 -= 1
            a0 -= 1
    return best_v


@hot
def greedy_nb(amount, out):
    """``amount`` in the fewest coins from an unlimited supply (the bank)."""
    for i in range(K.N_DENOMINATIONS):
        out[i] = amount // K.DENOMINATIONS[i]
        amount -= out[i] * K.DENOMINATIONS[i]


@hot_flat
def pay_coins_nb(payer, winner, debt, change, combo, game_out):
    """One payment in coins, change included: (paid, shortfall, bankrupt).
    ``payer`` and ``winner`` are money rows, updated in place."""
    if payer[K.M_TOTAL] < debt:          # bankrupt: everything, no change
        for i in range(K.M_COLUMNS):
            winner[i] += payer[i]
        worth = payer[K.M_TOTAL]
        payer[:] = 0
        return worth, 0, True
    given = combo[0]
    back = combo[1]
    v = best_combo_nb(payer, debt, PAY, given)
    for i in range(K.N_DENOMINATIONS):
        payer[i] -= given[i]
    payer[K.M_TOTAL] -= v
    excess = v - debt
    if excess == 0 or change == K.CHANGE_NONE:
        for i in range(K.N_DENOMINATIONS):
            winner[i] += given[i]
        winner[K.M_TOTAL] += v
        return v, excess, False
    if change == K.CHANGE_RECEIVER:      # from all the winner's coins, these included
        for i in range(K.N_DENOMINATIONS):
            winner[i] += given[i]
        winner[K.M_TOTAL] += v
        returned = best_combo_nb(winner, excess, CHANGE, back)
        for i in range(K.N_DENOMINATIONS):
            winner[i] -= back[i]
            payer[i] += back[i]
        winner[K.M_TOTAL] -= returned
        payer[K.M_TOTAL] += returned
        return v - returned, excess - returned, False
    # the bank takes what was handed over, gives the winner the debt, the payer the excess
    for i in range(K.N_DENOMINATIONS):
        game_out[K.G_BANK + i] += given[i]
    greedy_nb(excess, back)
    for i in range(K.N_DENOMINATIONS):
        payer[i] += back[i]
        game_out[K.G_BANK + i] -= back[i]
    payer[K.M_TOTAL] += excess
    greedy_nb(debt, back)
    for i in range(K.N_DENOMINATIONS):
        winner[i] += back[i]
        game_out[K.G_BANK + i] -= back[i]
    winner[K.M_TOTAL] += debt
    return debt, 0, False


@hot_flat
def settle_nb(winner, rules, hands, money, combo, paid, seat_out, game_out):
    """The round's payments, clockwise from the winner's left: (anyone
    bankrupt, the next round's starting player)."""
    n = hands.shape[0]
    broke = False
    s = winner
    for k in range(1, n):
        s = seat_after_nb(s, n)
        debt = hand_value_nb(hands[s])
        if rules[K.R_MONEY] == K.MONEY_TOTAL:
            have = money[s, K.M_TOTAL]
            given = debt if debt < have else have
            money[s, K.M_TOTAL] -= given
            money[winner, K.M_TOTAL] += given
            paid[s] = given
            short = 0
            bust = have < debt
        else:
            paid[s], short, bust = pay_coins_nb(money[s], money[winner], debt, rules[K.R_CHANGE],
                                                combo, game_out)
        seat_out[s, K.S_PAID] += paid[s]
        seat_out[winner, K.S_RECEIVED] += paid[s]
        seat_out[s, K.S_SHORTFALL] += short
        if bust:
            seat_out[s, K.S_BANKRUPT] = 1
            broke = True
    seat_out[winner, K.S_ROUNDS_WON] += 1
    nxt = -1
    s = winner
    for k in range(1, n):                # the largest payment; ties to the first clockwise
        s = seat_after_nb(s, n)
        if nxt < 0 or paid[s] > paid[nxt]:
            nxt = s
    return broke, nxt
