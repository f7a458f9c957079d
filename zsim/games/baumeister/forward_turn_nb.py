"""Baumeister's turn for its forward model (``forward_nb.py``), from one decision
to the next: the batch engine's turn (``engine_nb``, ``auction_nb``,
``sabotage_nb``) cut at its decisions, its ``hot_flat`` pieces called one
after another as the engine's loops call them. ``turn_nb`` goes from a phase
(where the engine's turn stands between two decisions) to the next decision
of more than one option, which it notes in the position (``C_DECIDER``,
``C_KIND``, the engine's options in ``opts``), or to the end of the game.
"""
from __future__ import annotations

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.auction_nb import (award_nb, count_unsold_nb, next_bidder_nb, open_bid_nb,
                                              opening_options_nb, put_up_nb, raise_options_nb, stack_options_nb,
                                              take_bid_nb)
from zsim.games.baumeister.engine_nb import (actions_nb, after_auction_nb, build_done_nb, game_over_nb, income_roll_nb,
                                             need_of_nb, place_card_nb, placements_nb, take_saboteur_nb, turn_over_nb)
from zsim.games.baumeister.position_nb import (C_ACTIVE, C_ANNOUNCE, C_AT, C_ATTACK, C_DECIDER, C_FINAL, C_KIND,
                                               C_LEFT, C_N, C_PLACED, C_PLAYERS, C_REASON, C_SEAT, C_UNDER_AFTER,
                                               C_UNDER_CARD, const_views, pos_ctrl, pos_marks, pos_outs, pos_views,
                                               ws_views)
from zsim.games.baumeister.sabotage_nb import (ROLL_DESTROYS, ROLL_KEEP, answer_options_nb, any_roll_nb,
                                               attack_begin_nb, building_targets_nb, card_spots_nb,
                                               count_destroyed_nb, hand_pick_nb, hand_targets_nb, offer_options_nb,
                                               settle_attack_nb, weakest_roll_nb)
from zsim.games.baumeister.table_nb import put_under_at_nb, under_options_nb, under_stack_nb
from zsim.jit import grid_nb, hot, hot_flat, seat_after_nb

# where turn_nb goes on (the engine's turn between its decisions)
# (in three groups, as turn_nb hands them on: the income and the auction, step 3 and the build, the attacks)
(P_TURN, P_AUCTION, P_STACK, P_AWARD, P_UNDER, P_AFTER_AUCTION, P_STEP3, P_BUILD, P_BUILD_LOOP, P_BUILDING,
 P_TARGET, P_CARD, P_OFFER, P_SETTLE, P_HAND, P_HAND_TARGET, P_AFTER_STEP3, P_ANSWER) = range(18)
#: what a phase piece returns when it has asked a decision
ASKED = -1


@hot_flat
def _ask(ctrl, seat, kind, n):
    """``seat``'s decision of ``kind`` with its ``n`` options listed is pending: (ASKED, 0)."""
    ctrl[C_DECIDER] = seat
    ctrl[C_KIND] = kind
    ctrl[C_N] = n
    return ASKED, 0


@hot
def end_nb(pos, consts):
    """The game is over where it stands (its last turn, or an illegal answer): its rows."""
    rules, deck = const_views(consts)
    ctrl = pos_ctrl(pos)
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    seat_out, game_out = pos_outs(pos)
    game_over_nb(ctrl[C_PLAYERS], ctrl[C_REASON], rows, city, st, pub, deck, rules, seat_out, game_out)
    ctrl[C_DECIDER] = -1
    ctrl[C_KIND] = -1
    ctrl[C_N] = 0


@hot_flat
def _answer(ctrl, kind, option, rows, st, pub, deck, seat_out, loc, known, city, stacks, holds):
    """The pending decision's answer ``option`` (legal) played; returns where the turn goes on."""
    s = ctrl[C_SEAT]
    if kind == K.D_TAKE:
        take_saboteur_nb(s, option, st, seat_out)
        return P_AUCTION, 0
    if kind == K.D_UNDER:
        put_under_at_nb(ctrl[C_UNDER_CARD], option, loc, known, pub, stacks)
        return ctrl[C_UNDER_AFTER], 0
    if kind == K.D_ACTION:
        if option == K.A_BUILD:
            return P_BUILD, 0
        if option == K.A_BUILDING:
            return P_BUILDING, 0
        if option == K.A_HAND:
            return P_HAND, 0
        return P_AFTER_STEP3, 0
    if kind == K.D_PLACE:
        if option == K.PLACE_STOP:
            build_done_nb(s, ctrl[C_PLACED], st, seat_out)
            return P_AFTER_STEP3, 0
        place_card_nb(s, option, loc, known, rows, city, st, deck, holds)
        ctrl[C_PLACED] += 1
        return P_BUILD_LOOP, 0
    if kind == K.D_TARGET:
        return (P_TARGET if ctrl[C_ATTACK] == K.A_BUILDING else P_HAND_TARGET), option
    if kind == K.D_CARD:
        return P_CARD, option
    if kind == K.D_OFFER:
        return P_OFFER, option
    if kind == K.D_ACCEPT:         # an accepted offer is paid; a refused one leaves the roll
        return (P_SETTLE, pub[K.PUB_OFFER] * 4 + 2) if option == K.ACCEPT else (P_OFFER, 0)
    # D_KEEP: the owner pays the card's value, or loses it
    value = deck[rows[pub[K.PUB_TARGET], pub[K.PUB_ATTACK_POS]], K.D_VALUE]
    return P_SETTLE, (value * 4 if option == K.KEEP else 1)


@hot_flat
def _under(ctrl, card, after):
    """A card goes under a stack, chosen by the seat on turn on equal sizes; then ``after``."""
    ctrl[C_UNDER_CARD] = card
    ctrl[C_UNDER_AFTER] = after
    return P_UNDER


@hot_flat
def turn_nb(pos, phase, arg, consts, ws):
    """The turn from ``phase`` on (``arg``: what it goes on with) to the next decision of
    more than one option (its phase piece returns ASKED), or the end."""
    rules, deck = const_views(consts)
    saved, fit, memo, partners, scratch, counts = ws_views(ws, deck.shape[0] - 1)
    ctrl = pos_ctrl(pos)
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    seat_out, game_out = pos_outs(pos)
    ann, paid, types = pos_marks(pos)
    sold = grid_nb(pos, 0, 0, K.N_SOLD)          # no per-card log
    while phase != ASKED:
        if phase == P_ANSWER:
            phase, arg = _answer(ctrl, ctrl[C_KIND], arg, rows, st, pub, deck, seat_out, loc, known, city, stacks,
                                 holds)
        elif phase <= P_AFTER_AUCTION:
            phase, arg = _auction_phase(ctrl, phase, arg, loc, known, city, st, pub, opts, stacks, rng, deck, rules,
                                        seat_out, game_out, sold, holds, ann, paid)
        elif phase <= P_BUILD_LOOP:
            phase = _build_phase(ctrl, phase, loc, known, rows, city, st, pub, opts, deck, rules, saved, fit, memo,
                                 holds, seat_out)
        elif phase < P_AFTER_STEP3:
            phase, arg = _attack_phase(ctrl, phase, arg, rows, city, st, pub, opts, rng, deck, rules, holds, seat_out,
                                       game_out)
        else:                                    # P_AFTER_STEP3
            players = ctrl[C_PLAYERS]
            final, left, reason, over = turn_over_nb(ctrl[C_FINAL], ctrl[C_LEFT], ctrl[C_REASON], players, pub, rules)
            ctrl[C_FINAL] = final
            ctrl[C_LEFT] = left
            ctrl[C_REASON] = reason
            if over:
                end_nb(pos, consts)
                return
            ctrl[C_SEAT] = seat_after_nb(ctrl[C_SEAT], players)
            phase = P_TURN


@hot_flat
def _auction_phase(ctrl, phase, arg, loc, known, city, st, pub, opts, stacks, rng, deck, rules, seat_out, game_out,
                   sold, holds, ann, paid):
    """Income and the auction (or a card going under a stack) from ``phase``, one step."""
    s = ctrl[C_SEAT]
    if phase == P_TURN:
        pub[K.PUB_SEAT] = s
        if ctrl[C_FINAL] != 0:
            return P_STEP3, 0
        pub[K.PUB_TURN] += 1
        n = income_roll_nb(s, city, st, pub, opts, rng, seat_out)
        if n > 1:
            return _ask(ctrl, s, K.D_TAKE, n)
        if n == 1:
            take_saboteur_nb(s, opts[0], st, seat_out)
        return P_AUCTION, 0
    if phase == P_AUCTION:
        n = stack_options_nb(pub, opts)
        if n > 1:
            return _ask(ctrl, s, K.D_STACK, n)
        return P_STACK, opts[0]
    if phase == P_STACK:
        return put_up_turn_nb(ctrl, s, arg, loc, known, st, pub, stacks, deck, rules, opts, game_out), 0
    if phase == P_AWARD:
        return _award(ctrl, s, loc, known, st, pub, deck, seat_out, game_out, sold, holds, ann, paid), 0
    if phase == P_UNDER:
        k = under_stack_nb(pub)
        if k < 0:
            return _ask(ctrl, s, K.D_UNDER, under_options_nb(opts))
        put_under_at_nb(ctrl[C_UNDER_CARD], k, loc, known, pub, stacks)
        return ctrl[C_UNDER_AFTER], 0
    after_auction_nb(pub)                        # P_AFTER_AUCTION
    return P_STEP3, 0


@hot_flat
def _build_phase(ctrl, phase, loc, known, rows, city, st, pub, opts, deck, rules, saved, fit, memo, holds, seat_out):
    """Step 3's choice, or the build from ``phase``, to its next decision or its end."""
    s = ctrl[C_SEAT]
    if phase == P_STEP3:
        n = actions_nb(s, ctrl[C_FINAL], loc, rows, city, st, deck, rules, opts, saved, fit, memo, holds)[0]
        if n > 1:
            return _ask(ctrl, s, K.D_ACTION, n)[0]
        return P_AFTER_STEP3
    if phase == P_BUILD:
        pub[K.PUB_NEED] = need_of_nb(s, st, rules)
        ctrl[C_PLACED] = 0
    while ctrl[C_PLACED] < rules[K.R_MAX_BUILD] and st[s, K.ST_HAND] > 0:
        n = placements_nb(s, ctrl[C_FINAL], pub[K.PUB_NEED], ctrl[C_PLACED], -1, loc, rows, city, st, pub, deck,
                          opts, saved, fit, memo, holds)
        if n > 1:
            return _ask(ctrl, s, K.D_PLACE, n)[0]
        if n == 0 or opts[0] == K.PLACE_STOP:
            break
        place_card_nb(s, opts[0], loc, known, rows, city, st, deck, holds)   # the one placement there is
        ctrl[C_PLACED] += 1
    build_done_nb(s, ctrl[C_PLACED], st, seat_out)
    return P_AFTER_STEP3


@hot_flat
def _attack_phase(ctrl, phase, arg, rows, city, st, pub, opts, rng, deck, rules, holds, seat_out, game_out):
    """An attack from ``phase``, one step."""
    s = ctrl[C_SEAT]
    if phase == P_BUILDING or phase == P_HAND:
        building = phase == P_BUILDING
        attack_begin_nb(s, K.G_BUILDING_ATTACKS if building else K.G_HAND_ATTACKS, st, pub, seat_out, game_out)
        ctrl[C_ATTACK] = K.A_BUILDING if building else K.A_HAND
        n = building_targets_nb(s, city, rules, opts) if building else hand_targets_nb(s, st, rules, opts)
        if n > 1:
            return _ask(ctrl, s, K.D_TARGET, n)
        return (P_TARGET if building else P_HAND_TARGET), opts[0]
    if phase == P_TARGET:
        pub[K.PUB_TARGET] = arg
        n = card_spots_nb(arg, rows, city, opts)
        if n > 1:
            return _ask(ctrl, s, K.D_CARD, n)
        return P_CARD, opts[0]
    t = pub[K.PUB_TARGET]
    if phase == P_CARD:
        pub[K.PUB_ATTACK_POS] = arg
        if rules[K.R_ANY] != 0:
            if offer_options_nb(t, st, opts):
                return _ask(ctrl, t, K.D_OFFER, 2)
            return P_OFFER, 0
        roll = weakest_roll_nb(t, arg, rows, st, deck, rng)
        if roll == ROLL_KEEP:
            return _ask(ctrl, t, K.D_KEEP, answer_options_nb(K.KEEP, K.LOSE, opts))
        return P_SETTLE, np.int64(roll == ROLL_DESTROYS)
    if phase == P_OFFER:
        if arg > 0:
            pub[K.PUB_OFFER] = arg
            return _ask(ctrl, s, K.D_ACCEPT, answer_options_nb(K.ACCEPT, K.REFUSE, opts))
        return P_SETTLE, np.int64(any_roll_nb(t, city, rng))
    if phase == P_SETTLE:                        # arg: paid * 4, + 2 for an offer, + 1 when destroyed
        destroyed = (arg & 1) != 0
        card = settle_attack_nb(s, t, pub[K.PUB_ATTACK_POS], arg >> 2, K.S_OFFER_PAID if arg & 2 else K.S_KEPT_PAID,
                                destroyed, rows, city, st, deck, seat_out, game_out)
        return (_under(ctrl, card, P_AFTER_STEP3) if destroyed else P_AFTER_STEP3), 0
    card = hand_pick_nb(arg, st, holds, deck, rng)      # P_HAND_TARGET
    pub[K.PUB_TARGET] = arg
    count_destroyed_nb(arg, seat_out, game_out)
    return _under(ctrl, card, P_AFTER_STEP3), 0


@hot_flat
def put_up_turn_nb(ctrl, a, k, loc, known, st, pub, stacks, deck, rules, opts, game_out):
    """Auctioneer ``a`` puts up the top card of stack ``k``: returns where the turn goes on,
    -1 when the opening bid is asked."""
    card, top = put_up_nb(a, k, loc, known, st, pub, stacks, rules, game_out)
    if top < 1:                          # overbid=forbid and an empty purse: unsold at once
        count_unsold_nb(game_out)
        return _under(ctrl, card, P_AFTER_AUCTION)
    if top > 1:
        opening_options_nb(top, opts)
        return _ask(ctrl, a, K.D_OPEN, 2)[0]
    return opening_turn_nb(ctrl, a, 1, st, pub, deck, rules, opts, game_out)


@hot_flat
def opening_turn_nb(ctrl, a, opening, st, pub, deck, rules, opts, game_out):
    """``a``'s opening bid stands; the bidding goes round (see :func:`bidding_nb`)."""
    open_bid_nb(a, opening, st, pub)
    ctrl[C_AT] = a
    ctrl[C_ANNOUNCE] = a if pub[K.PUB_STACK] == K.STACK_HIDDEN else -1   # a hidden card's type is told at a's turn
    ctrl[C_ACTIVE] = st.shape[0]
    return bidding_nb(ctrl, -1, st, pub, deck, rules, opts, game_out)


@hot_flat
def bidding_nb(ctrl, answer, st, pub, deck, rules, opts, game_out):
    """The bidding from the last answer (``answer``: a raise, 0 a pass, -1 none yet) to the
    next bidder who may raise (then asked: returns -1), or to its end (returns P_AWARD)."""
    max_bid = rules[K.R_MAX_BID]
    active = ctrl[C_ACTIVE]
    if answer >= 0:
        active = take_bid_nb(ctrl[C_AT], answer, pub[K.PUB_HIGH], pub[K.PUB_HIGH_SEAT], active, st, pub, max_bid,
                             game_out)[2]
    while active > 1:
        at, announce = next_bidder_nb(ctrl[C_AT], pub[K.PUB_HIGH_SEAT], ctrl[C_ANNOUNCE], pub[K.PUB_CARD], st, pub,
                                      deck, game_out)
        ctrl[C_AT] = at
        ctrl[C_ANNOUNCE] = announce
        if raise_options_nb(at, pub[K.PUB_HIGH], st, max_bid, rules[K.R_FORBID] != 0, opts):
            ctrl[C_ACTIVE] = active
            return _ask(ctrl, at, K.D_BID, 2)[0]
        active = take_bid_nb(at, 0, pub[K.PUB_HIGH], pub[K.PUB_HIGH_SEAT], active, st, pub, max_bid, game_out)[2]
    ctrl[C_ACTIVE] = active
    return P_AWARD


@hot_flat
def _award(ctrl, a, loc, known, st, pub, deck, seat_out, game_out, sold, holds, ann, paid):
    """The auction's end: the card sold (its announced type and price noted with it), or unsold."""
    card = pub[K.PUB_CARD]
    price = award_nb(card, a, pub[K.PUB_HIGH], pub[K.PUB_HIGH_SEAT], loc, known, st, pub, deck, seat_out, game_out,
                     sold, holds)
    if price > 0:
        ann[card] = pub[K.PUB_ANNOUNCED] + 1
        paid[card] = price
        return P_AFTER_AUCTION
    count_unsold_nb(game_out)
    return _under(ctrl, card, P_AFTER_AUCTION)
