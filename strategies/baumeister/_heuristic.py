"""The judgement the heuristic Baumeister bots share (not a strategy: the underscore hides it).

Every heuristic bot is one call of :func:`heuristic_nb` with its own
:data:`Weights`, each number named. numba compiles it once for the whole
family, and LLVM copies it into each bot that calls it (``hot_flat``), where
the bot's weights are constants and the branches they rule out fall away:
the bots' fields ran
about 1.07x as fast and a mixed field 1.18x, for an 8-bot kernel that
compiles in about 29 s instead of 23 (docs/performance.md). The pieces,
in the words the docstrings use:

- the *outlook*: what a seat's city can still take (a bit per card type
  that fits somewhere in the row now), the town halls and corner towers it
  has built or is known to hold, the values of those corner towers (a
  bitmask, for the corner bonus), its built value, and the normal turns
  likely left (the game ends when a stack runs out: about twice the smaller
  stack, at most both stacks);
- a card's *worth* to a seat: its value; a gate's coins for every turn of
  that seat's left, times ``gate_income``; a share of the bonuses the card
  serves (a first town hall, a church, a corner tower matching another);
  less as the end nears when it fits nowhere (a card left in hand counts
  against); nothing but its penalty when it can never be built (a second
  town hall, a third corner tower);
- the *rate*: Thaler per point. A fixed ``rate``, or (``adaptive_rate``) the
  money the seat expects to have, its purse plus income for its turns left,
  spread over the points it expects to buy, the cards left to it times the
  deck's mean value, scaled by ``spend``;
- a *limit*: worth times rate, in whole Thaler, never above the purse less
  ``reserve`` (the bots never overbid, so never go insolvent).

A fair bot reads a card's identity only where ``known[seat, c]`` is 1: the
card on auction when it auctioned it or it is open, otherwise the expected
worth over the cards it does not know (of the announced type, once
announced). Other seats' outlooks count only the cards this seat knows they
hold. ``reads_hidden`` = 1 reads the hidden card (the labelled oracle).

No helper writes to the engine's arrays or allocates. The helpers a money
decision runs on every bid (the outlook, the worths, the rate, the limit)
are inlined into :func:`heuristic_nb`: as calls, each passed a dozen arrays
word by word, and the pushing cost more than the judgement
(docs/performance.md). The rest stay kernels of their own.
"""
from __future__ import annotations

import collections

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.rows_nb import reach_nb
from zsim.jit import hot, hot_flat, hot_inline

#: a die's mean income (faces 1..5, S pays nothing)
DIE_MEAN = 15.0 / 6.0

#: A heuristic bot's weights, how :func:`heuristic_nb` weighs a decision (made by :func:`weights_nb`).
Weights = collections.namedtuple("Weights", (
    "rate",             # Thaler per point of worth: the fixed rate, read while adaptive_rate is 0
    "adaptive_rate",    # int; 1: the rate from the money the seat expects to have (the *rate*), 0: the fixed rate
    "spend",            # share of its expected money the adaptive rate plans to spend on cards
    "reserve",          # int; Thaler it never bids away (held back to pay for keeping a card)
    "gate_income",      # points per coin of a gate's income for every turn left to the seat
    "early_income",     # extra points per coin of a gate on auction while 4+ of its turns are left (a share
                        # with fewer); a gate it places counts its income 1 + early_income times
    "open_share",       # its opening bid as a share of its limit
    "sell",             # 0..1: weight of the keenest rival's wish against its own when it picks a stack, and
                        # the share of that rival's limit it pushes to once outbid on its own card (0: neither)
    "hurry_lead",       # built-value lead at which it auctions from the smaller stack, to end sooner (0: never)
    "aggression",       # weight of an attack's expected damage against a delay's cost (0: none while it can build)
    "keep",             # weight of an attacked card's worth against the price of keeping it
    "offer_share",      # share of its expected loss it offers to keep an attacked card (saboteur=any)
    "reads_hidden",     # int; 1: reads the hidden card on auction (the labelled oracle, not fair), 0: fair
))


@hot_inline
def weights_nb(rate=1.0, adaptive_rate=0, spend=1.0, reserve=0, gate_income=0.5, early_income=0.0, open_share=0.6,
               sell=0.0, hurry_lead=0.0, aggression=0.0, keep=1.0, offer_share=0.0, reads_hidden=0):
    """The :data:`Weights` of the fields given, the others as ``value`` plays at a rate of 1. A float
    field takes a float and an int field an int: every bot's Weights one type, one compile of
    :func:`heuristic_nb` (a literal ``0`` for a float field would be a second)."""
    return Weights(rate=rate, adaptive_rate=adaptive_rate, spend=spend, reserve=reserve, gate_income=gate_income,
                   early_income=early_income, open_share=open_share, sell=sell, hurry_lead=hurry_lead,
                   aggression=aggression, keep=keep, offer_share=offer_share, reads_hidden=reads_hidden)


@hot_inline
def turns_left_nb(pub):
    """Normal turns likely left: about twice the smaller stack, at most both stacks."""
    a, b = pub[K.PUB_SIZE_OPEN], pub[K.PUB_SIZE_HIDDEN]
    if pub[K.PUB_FINAL] != 0:
        return 0.0
    return float(min(a + b, 2 * min(a, b) + 1))


@hot_inline
def mean_value_nb(deck, n_cards):
    total = 0
    for c in range(1, n_cards + 1):
        total += deck[c, K.D_VALUE]
    return total / max(1, n_cards)


@hot_inline
def built_value_nb(s, rows, city, deck):
    """The values of the cards in seat ``s``'s row."""
    total = 0
    if city[s, K.C_COUNT] == 0:
        return 0
    for p in range(city[s, K.C_LEFT], city[s, K.C_RIGHT] + 1):
        c = rows[s, p]
        if c != 0:
            total += deck[c, K.D_VALUE]
    return total


@hot_inline
def room_nb(s, final, rows, city, deck):
    """Bit t set where a card of type t fits somewhere in seat ``s``'s row now (only the bits of
    types a card has are ever read, so types the deck lacks need no masking)."""
    return reach_nb(s, final, rows, city, deck)


@hot_inline
def corner_bit_nb(c, deck):
    """Corner tower ``c``'s bit in an outlook's corner values (bit = its value)."""
    return 1 << min(deck[c, K.D_VALUE], 62)


@hot_inline
def outlook_nb(s, viewer, loc, known, rows, city, st, pub, deck):
    """(room, halls, corners, corner values, turns left for ``s``) as ``viewer`` sees them.

    A seat's own outlook reads its hand list and the corner towers closing its row's ends
    (the only places a built one can stand); a rival's walks the cards and counts those
    ``viewer`` knows to be in that rival's hand or row, since a fair bot reads no other
    seat's hand list."""
    halls = city[s, K.C_HALLS]
    corners = city[s, K.C_CORNERS]
    cvals = 0
    if viewer == s:
        for j in range(K.ST_CARDS, K.ST_CARDS + st[s, K.ST_HAND]):
            c = st[s, j]
            t = deck[c, K.D_TYPE]
            if t == K.CORNER:
                cvals |= corner_bit_nb(c, deck)
                corners += 1
            elif t == K.HALL:
                halls += 1
        # a built corner tower closes an end of the row, and only one can stand there
        if city[s, K.C_CLOSED_L] != 0:
            cvals |= corner_bit_nb(rows[s, city[s, K.C_CLOSED_L]], deck)
        if city[s, K.C_CLOSED_R] != 0:
            cvals |= corner_bit_nb(rows[s, city[s, K.C_CLOSED_R]], deck)
    else:
        hand = K.L_HAND + s
        cty = K.L_CITY + s
        for c in range(1, pub[K.PUB_N] + 1):
            if known[viewer, c] == 0:
                continue
            at = loc[c]
            if at != hand and at != cty:
                continue
            t = deck[c, K.D_TYPE]
            if t == K.CORNER:
                cvals |= corner_bit_nb(c, deck)
                if at == hand:
                    corners += 1
            elif t == K.HALL and at == hand:
                halls += 1
    room = room_nb(s, pub[K.PUB_FINAL], rows, city, deck)
    mine = turns_left_nb(pub) / pub[K.PUB_PLAYERS]
    return room, halls, corners, cvals, mine


@hot_inline
def worth_nb(t, v, coins, room, halls, corners, cvals, mine, gate, rules):
    """What a card of type ``t``, value ``v``, ``coins`` is worth to a city with this outlook."""
    if t == K.HALL and halls >= 1:
        return -float(v)
    if t == K.CORNER and corners >= 2:
        return -float(v)
    w = float(v)
    if (room >> t) & 1 == 0:        # fits nowhere now: a gamble that turns into a penalty near the end
        f = min(1.0, max(0.0, (mine - 1.0) / 3.0))
        w = v * (2.0 * f - 1.0)
    if t == K.GATE:
        w += coins * mine * gate
    elif t == K.HALL:
        w += 0.25 * rules[K.R_BONUS_MIDDLE] + 0.1 * rules[K.R_BONUS_CHURCHES]
    elif t == K.CHURCH:
        w += (0.1 if halls >= 1 else 0.05) * rules[K.R_BONUS_CHURCHES]
    elif t == K.CORNER:
        w += 1.0
        if (cvals >> min(v, 62)) & 1:
            w += 0.5 * rules[K.R_BONUS_CORNERS]
    return w


@hot_inline
def card_worth_nb(c, room, halls, corners, cvals, mine, gate, rules, deck):
    return worth_nb(deck[c, K.D_TYPE], deck[c, K.D_VALUE], deck[c, K.D_COINS], room, halls, corners, cvals,
                    mine, gate, rules)


@hot_inline
def unknown_worth_nb(viewer, kind, room, halls, corners, cvals, mine, gate, known, rules, deck, n_cards):
    """The mean worth of the cards ``viewer`` does not know, of type ``kind`` (-1: any type)."""
    total = 0.0
    count = 0
    for c in range(1, n_cards + 1):
        if kind >= 0 and deck[c, K.D_TYPE] != kind:
            continue
        w = card_worth_nb(c, room, halls, corners, cvals, mine, gate, rules, deck)
        # a known card adds 0.0, which leaves the float sum as skipping it would, without a
        # branch on which cards the seat happens to know
        unseen = known[viewer, c] == 0
        total += w if unseen else 0.0
        count += np.int64(unseen)
    if count == 0:
        return 0.0
    return total / count


@hot_inline
def rate_nb(s, rate, adaptive, spend, city, st, pub, deck):
    """Thaler per point: ``rate``, or the seat's expected money over the points it expects to buy."""
    if adaptive == 0:
        return rate
    players = pub[K.PUB_PLAYERS]
    mine = turns_left_nb(pub) / players
    money = st[s, K.ST_MONEY] + mine * (DIE_MEAN + city[s, K.C_COINS])
    cards = max(0.5, mine)
    return spend * money / (cards * mean_value_nb(deck, pub[K.PUB_N]))


@hot_inline
def limit_nb(s, worth, r, reserve, st):
    """The most the seat bids for ``worth`` points: whole Thaler, within its purse less ``reserve``."""
    if worth <= 0.0:
        return 0
    return int(min(worth * r, float(st[s, K.ST_MONEY] - reserve)))


@hot_inline
def auction_worth_nb(s, oracle, gate, loc, known, rows, city, st, pub, deck, rules):
    """The card on auction's worth to seat ``s``: the card itself when it may know it, else the
    expectation over the cards it does not know (of the announced type once announced)."""
    room, halls, corners, cvals, mine = outlook_nb(s, s, loc, known, rows, city, st, pub, deck)
    c = pub[K.PUB_CARD]
    if oracle != 0 or known[s, c] != 0:
        return card_worth_nb(c, room, halls, corners, cvals, mine, gate, rules, deck)
    return unknown_worth_nb(s, pub[K.PUB_ANNOUNCED], room, halls, corners, cvals, mine, gate, known, rules, deck,
                            pub[K.PUB_N])


@hot
def rivals_limit_nb(s, c, kind, gate, r, loc, known, rows, city, st, pub, deck, rules):
    """The most a rival would pay for card ``c`` at ``r`` Thaler per point within its purse, from
    what seat ``s`` knows of the rivals (``c`` <= 0: a card ``s`` does not know, of type ``kind``,
    -1 for any, on average)."""
    best = 0.0
    for o in range(pub[K.PUB_PLAYERS]):
        if o == s:
            continue
        room, halls, corners, cvals, mine = outlook_nb(o, s, loc, known, rows, city, st, pub, deck)
        if c > 0:
            w = card_worth_nb(c, room, halls, corners, cvals, mine, gate, rules, deck)
        else:
            w = unknown_worth_nb(s, kind, room, halls, corners, cvals, mine, gate, known, rules, deck, pub[K.PUB_N])
        best = max(best, min(w * r, float(st[o, K.ST_MONEY])))
    return best


@hot
def destroy_chance_nb(t, city, rules):
    """The chance a building attack on seat ``t`` costs it the card (the variant: no paying to keep)."""
    if rules[K.R_ANY] != 0:
        return (1.0 + max(0, min(5, 5 - city[t, K.C_SHIELDS]))) / 6.0
    return 1.0 / 6.0 + 0.5          # S destroys; 3..5 destroy or are paid for at the card's value


@hot
def best_card_nb(t, rows, city, deck):
    """(value, row index) of the most valuable card in seat ``t``'s row; inner cards win ties
    (destroying one leaves a gap, which also spoils the bonuses)."""
    best, at = -1, 0
    left, right = city[t, K.C_LEFT], city[t, K.C_RIGHT]
    for p in range(left, right + 1):
        c = rows[t, p]
        if c == 0:
            continue
        v = 2 * deck[c, K.D_VALUE] + (1 if left < p < right else 0)
        if v > best:
            best, at = v, p
    return best // 2, at


@hot
def building_damage_nb(s, rows, city, st, pub, rules, deck):
    """(expected points a building attack takes, its best target) among the seats the rules allow."""
    least = -1
    players = pub[K.PUB_PLAYERS]
    for t in range(players):
        if t != s and city[t, K.C_COUNT] > 0 and (least < 0 or city[t, K.C_SHIELDS] < least):
            least = city[t, K.C_SHIELDS]
    best, target = -1.0, -1
    for t in range(players):
        if t == s or city[t, K.C_COUNT] == 0:
            continue
        if rules[K.R_ANY] == 0 and city[t, K.C_SHIELDS] != least:
            continue
        v, _ = best_card_nb(t, rows, city, deck)
        d = destroy_chance_nb(t, city, rules) * v + 0.05 * built_value_nb(t, rows, city, deck)
        if d > best:
            best, target = d, t
    return best, target


@hot
def leader_index_nb(s, opts, n, rows, city, deck):
    """The option (a seat) with the most built value; the first on ties."""
    best, at = -1, 0
    for i in range(n):
        v = built_value_nb(opts[i], rows, city, deck)
        if v > best:
            best, at = v, i
    return at


@hot
def hall_of_nb(s, rows, city, deck):
    """Row index of seat ``s``'s town hall, 0 when it has none."""
    if city[s, K.C_HALLS] == 0:
        return 0
    for p in range(city[s, K.C_LEFT], city[s, K.C_RIGHT] + 1):
        c = rows[s, p]
        if c != 0 and deck[c, K.D_TYPE] == K.HALL:
            return p
    return 0


@hot
def placement_score_nb(s, c, p, mine, gate, early, rows, city, st, deck, rules):
    """How much a bot likes card ``c`` at row index ``p``: its value and income, a filled gap, a town
    hall kept central, churches balanced about it, a corner tower matching a built one."""
    t = deck[c, K.D_TYPE]
    v = deck[c, K.D_VALUE]
    score = float(v)
    if t == K.GATE:
        score += deck[c, K.D_COINS] * mine * gate * (1.0 + early)
    count = city[s, K.C_COUNT]
    left, right = city[s, K.C_LEFT], city[s, K.C_RIGHT]
    if count > 0 and left < p < right:
        score += 1.5
    h = hall_of_nb(s, rows, city, deck)
    if t == K.HALL:
        n_left, n_right = 0, 0
        if count > 0:
            for q in range(left, right + 1):
                if rows[s, q] != 0:
                    if q < p:
                        n_left += 1
                    else:
                        n_right += 1
        score -= 0.5 * abs(n_left - n_right)
    elif h != 0:
        n_left, n_right, ch_left, ch_right = 0, 0, 0, 0
        for q in range(left, right + 1):
            d = rows[s, q]
            if d != 0 and q != h:
                if q < h:
                    n_left += 1
                    ch_left += deck[d, K.D_TYPE] == K.CHURCH
                else:
                    n_right += 1
                    ch_right += deck[d, K.D_TYPE] == K.CHURCH
        side_left = p < h
        score += 0.3 if (side_left and n_left < n_right) or (not side_left and n_right < n_left) else 0.0
        if t == K.CHURCH:
            score += 1.0 if (side_left and ch_left < ch_right) or (not side_left and ch_right < ch_left) else 0.0
    if t == K.CORNER and count > 0:
        other = rows[s, left] if p > right else rows[s, right]
        if other != 0 and deck[other, K.D_TYPE] == K.CORNER and deck[other, K.D_VALUE] == v:
            score += rules[K.R_BONUS_CORNERS]
        if right - left + 1 == count:
            score += 0.5            # closes a row without gaps
    return score


@hot_flat
def heuristic_nb(seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules, weights):
    """One decision of a heuristic bot, as its ``weights`` weigh it (see the module's docstring)."""
    players = pub[K.PUB_PLAYERS]
    n_cards = pub[K.PUB_N]
    mine = turns_left_nb(pub) / players
    gate, sell, early = weights.gate_income, weights.sell, weights.early_income
    r = weights.rate
    if kind != K.D_ACTION and kind != K.D_PLACE and kind != K.D_TAKE and kind != K.D_TARGET \
            and kind != K.D_CARD and kind != K.D_UNDER:      # the kinds that weigh money against points
        r = rate_nb(seat, weights.rate, weights.adaptive_rate, weights.spend, city, st, pub, deck)
    if kind == K.D_BID or kind == K.D_OPEN:
        w = auction_worth_nb(seat, weights.reads_hidden, gate, loc, known, rows, city, st, pub, deck, rules)
        c = pub[K.PUB_CARD]
        if early > 0.0 and (weights.reads_hidden != 0 or known[seat, c] != 0) and deck[c, K.D_TYPE] == K.GATE:
            w += early * deck[c, K.D_COINS] * min(1.0, mine / 4.0)      # income sooner: worth most early
        top = limit_nb(seat, w, r, weights.reserve, st)
        if kind == K.D_OPEN:
            return max(opts[0], min(opts[1], int(weights.open_share * top), max(1, st[seat, K.ST_MONEY])))
        if sell > 0.0 and seat == pub[K.PUB_AUCTIONEER]:
            # outbid on its own card: push the price towards what the keenest rival would pay for
            # it as the rivals see it (the card if it is open, an unknown card of its type if hidden)
            c = pub[K.PUB_CARD] if pub[K.PUB_STACK] == K.STACK_OPEN else 0
            rl = rivals_limit_nb(seat, c, pub[K.PUB_ANNOUNCED], gate, r, loc, known, rows, city, st, pub, deck,
                                 rules)
            top = max(top, min(int(sell * rl), st[seat, K.ST_MONEY] - weights.reserve))
        return opts[0] if opts[0] <= top else 0
    if kind == K.D_STACK:
        if weights.hurry_lead > 0.0:
            own = built_value_nb(seat, rows, city, deck)
            lead = 1e9
            for t in range(players):
                if t != seat:
                    lead = min(lead, float(own - built_value_nb(t, rows, city, deck)))
            if lead >= weights.hurry_lead:
                return 0 if pub[K.PUB_SIZE_OPEN] <= pub[K.PUB_SIZE_HIDDEN] else 1
        room, halls, corners, cvals, _ = outlook_nb(seat, seat, loc, known, rows, city, st, pub, deck)
        top = pub[K.PUB_OPEN_TOP]
        own_open = card_worth_nb(top, room, halls, corners, cvals, mine, gate, rules, deck)
        own_hidden = unknown_worth_nb(seat, -1, room, halls, corners, cvals, mine, gate, known, rules, deck,
                                      n_cards)
        if sell > 0.0:              # in Thaler: what it would pay against what the keenest rival would
            own_open = (1.0 - sell) * own_open * r + sell * rivals_limit_nb(seat, top, -1, gate, r, loc, known, rows,
                                                                            city, st, pub, deck, rules)
            own_hidden = (1.0 - sell) * own_hidden * r + sell * rivals_limit_nb(seat, 0, -1, gate, r, loc, known,
                                                                                rows, city, st, pub, deck, rules)
        return 0 if own_open >= own_hidden else 1
    if kind == K.D_ACTION:
        can_build = opts[0] == K.A_BUILD
        hand_attack = -1
        building_attack = -1
        for i in range(n):
            if opts[i] == K.A_BUILDING:
                building_attack = i
            elif opts[i] == K.A_HAND:
                hand_attack = i
        damage_b = -1.0
        if building_attack >= 0:
            damage_b, _ = building_damage_nb(seat, rows, city, st, pub, rules, deck)
        damage_h = -1.0
        if hand_attack >= 0:
            damage_h = 0.8 * mean_value_nb(deck, n_cards)
        attack = building_attack if damage_b >= damage_h else hand_attack
        damage = max(damage_b, damage_h)
        if attack < 0:
            return 0                     # build, or nothing
        if not can_build:
            return attack
        if weights.aggression <= 0.0 or mine < 1.5:
            return 0
        delay = 1.0 + (3.0 if st[seat, K.ST_HAND] >= rules[K.R_HAND_MIN] - 1 else 0.0)
        return attack if weights.aggression * damage >= delay else 0
    if kind == K.D_PLACE:
        best, at = -1e9, n - 1
        for i in range(n):
            o = opts[i]
            if o == K.PLACE_STOP:
                continue
            c = o // K.W
            sc = placement_score_nb(seat, c, o - c * K.W, mine, gate, early, rows, city, st, deck, rules)
            if sc > best:
                best, at = sc, i
        return at
    if kind == K.D_TAKE or kind == K.D_TARGET:
        return leader_index_nb(seat, opts, n, rows, city, deck)
    if kind == K.D_CARD:
        t = pub[K.PUB_TARGET]
        best, at = -1, 0
        left, right = city[t, K.C_LEFT], city[t, K.C_RIGHT]
        for i in range(n):
            p = opts[i]
            v = 2 * deck[rows[t, p], K.D_VALUE] + (1 if left < p < right else 0)
            if v > best:
                best, at = v, i
        return at
    if kind == K.D_KEEP or kind == K.D_OFFER:
        c = rows[seat, pub[K.PUB_ATTACK_POS]]
        v = float(deck[c, K.D_VALUE])
        worth = weights.keep * (v + (1.5 if city[seat, K.C_COUNT] > 2 else 0.0))
        if kind == K.D_KEEP:
            return K.KEEP if worth * r >= v or mine < 1.0 else K.LOSE
        loss = destroy_chance_nb(seat, city, rules) * worth * r
        return max(0, min(opts[1], int(weights.offer_share * loss)))
    if kind == K.D_ACCEPT:
        t = pub[K.PUB_TARGET]
        c = rows[t, pub[K.PUB_ATTACK_POS]]
        damage = destroy_chance_nb(t, city, rules) * deck[c, K.D_VALUE]
        return 0 if 2.0 * pub[K.PUB_OFFER] >= damage * r else 1
    return 0
