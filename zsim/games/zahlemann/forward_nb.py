"""Zahlemann & Söhne's forward model: the game one decision at a time (the
contract is ``zsim/harness/forward.py``).

The position and its log are ``position_nb.py``; what a seat knows and the
draw of a position from it are ``determinize_nb.py``. The rules are the
batch engine's own pieces (``engine_nb``: the turn's start, a play
resolved, a round dealt, the game's setup and end, the payments), called
here between decisions; what each piece did in public is written to the
round's log as it happens. No decision is sealed: every play is seen as it
is made (``sealed_nb`` is 0).

Options are the engine's answers: a card (0..35) or ``KEEP``/``STOP``
(-1, allowed when keeping a drawn match or declining a bonus play), in
ascending order.
"""
from __future__ import annotations

import numpy as np

from zsim.dispatch import dispatcher
from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.determinize_nb import determinize_nb, redraw_nb
from zsim.games.zahlemann.engine_nb import (BONUS, OUT, deal_round_nb, game_over_nb, new_game_nb, play_card_nb,
                                            round_void_nb, turn_head_nb)
from zsim.games.zahlemann.payment_nb import settle_nb
from zsim.games.zahlemann.position_nb import (C_DECIDER, C_KIND, C_N_LOG, C_OPTIONS, C_PENALTY, C_PLAYERS,
                                              C_REASON, C_ROUNDS, C_STARTER, C_TURN_LOG, EV_NOMATCH, EV_PLAY,
                                              MATCHING, NC, O_BATCH, O_CTRL, O_LOG, SIZE, ctrl_nb, event_nb, log_room_nb,
                                              new_round_log_nb, obj_of_nb, outs_nb, penalty_count_nb, push_nb,
                                              seen_draw_nb, seen_pass_nb, seen_reshuffle_nb, view_nb, views_nb)
from zsim.games.zahlemann.seat_view import describe
from zsim.jit import hot, hot_flat, lowest_bit_nb, seat_after_nb

__all__ = ["consts", "workspace", "size", "MAX_OPTIONS", "KINDS", "option_text", "new_nb", "decider_nb", "kind_nb",
           "sealed_nb", "options_nb", "apply_nb", "bot_nb", "determinize_nb", "redraw_nb", "view_nb",
           "outs_nb", "describe"]

decide_nb = dispatcher("zahlemann").decide_nb

KINDS = K.DECISION_KINDS
#: the record event (TRACE.md) that shows a decision of each kind (``decision_event`` finds it)
DECISION_EVENTS = ("play", "play", "play")
#: a decision's most options: the cards matching the top (10 at most) and KEEP
MAX_OPTIONS = 12


# ------------------------------------------------------------------ Python side
def consts(matchup) -> tuple:
    """(rules array, ``notice``, each seat's ``forget`` as a [P, 1] row)."""
    from zsim.games.zahlemann.batch import rules_array
    from zsim.strategy_registry import strategy_arrays

    _, params = strategy_arrays(matchup.game, list(matchup.strategies))
    return rules_array(matchup.rules), float(matchup.rules.notice), np.ascontiguousarray(params[:, :1])


def workspace(matchup) -> tuple:
    """(a payment's coins [2, 6], the round's payments [P], the determinisation's scratch)."""
    from zsim.games.zahlemann.determinize_nb import new_scratch

    return (np.zeros((2, K.N_DENOMINATIONS), np.int64), np.zeros(matchup.players, np.int64),
            new_scratch(matchup.players))


def size(matchup) -> int:
    return SIZE


def decision_event(events: list[dict], start: int, seat: int, kind: int, option: int) -> int | None:
    """The index of the record event (TRACE.md) that shows this decision of
    ``seat``, the first from ``start`` on: the ``play`` of the card, or for a
    drawn match kept its ``pass_turn``. A stop after a 1's bonus leaves no
    event of its own: it is shown on the seat's last event before the next
    turn (the 1's play, or what followed it)."""
    stop = kind == K.D_BONUS and option == K.KEEP
    last = start - 1 if stop and start > 0 else None      # the event just before: the 1's play
    for i in range(start, len(events)):
        e = events[i]
        if stop and e["e"] == "turn" and i > start:
            break
        if e.get("seat") != seat:
            continue
        last = i
        if stop:
            continue
        if e["e"] == "play" and e["from"] == ("hand", "drawn", "bonus")[kind]:
            return i
        if e["e"] == "pass_turn" and e.get("why") == "kept" and kind == K.D_DRAWN:
            return i
    return last if stop else None


def option_text(kind: int, option: int) -> str:
    from zsim.games.zahlemann.cards import CODES

    if option == K.KEEP:
        return "stop" if kind == K.D_BONUS else "keep"
    return f"play {CODES[option]}"


# ------------------------------------------------------------------ the contract
@hot
def new_nb(key, n_players, consts, ws, pos):
    rules = consts[0]
    for i in range(O_LOG):               # the log needs no clearing: only its first C_N_LOG words count
        pos[i] = 0
    ctrl = ctrl_nb(pos)
    ctrl[C_PLAYERS] = n_players
    hands, passed, discards, pile, money, pub, rng = views_nb(pos)
    new_game_nb(key, rules, money, pub, rng)
    ctrl[C_STARTER] = 0                  # seat 0, "the youngest", starts round 1
    if _next_round(pos, rules):
        _run(pos, consts, ws, 0, True)


@hot_flat
def decider_nb(pos):
    return pos[O_CTRL + C_DECIDER]


@hot_flat
def kind_nb(pos):
    return pos[O_CTRL + C_KIND]


@hot_flat
def sealed_nb(pos):
    return 0


@hot
def options_nb(pos, consts, out):
    ctrl = ctrl_nb(pos)
    n = 0
    if ctrl[C_KIND] != K.D_PLAY:
        out[0] = K.KEEP
        n = 1
    x = ctrl[C_OPTIONS]
    while x != 0:
        out[n] = lowest_bit_nb(x)
        x &= x - 1
        n += 1
    return n


@hot_flat
def bot_nb(roster, strat_ids, strat_params, pos, consts):
    hands, passed, discards, pile, money, pub, rng = views_nb(pos)
    ctrl = ctrl_nb(pos)
    return _ask_nb(roster, strat_ids, strat_params, ctrl[C_DECIDER], ctrl[C_KIND], ctrl[C_OPTIONS], hands, passed,
                   discards, money, pub, consts[0], rng)


@hot_flat
def _ask_nb(roster, strat_ids, strat_params, seat, kind, options, hands, passed, discards, money, pub, rules, rng):
    # a kernel of its own, called with the position's views as arguments: the
    # strategy dispatch (an overload numba copies into its caller) lost the
    # bots' draws when it was copied into the function that made the views
    return decide_nb(roster, strat_ids[seat], seat, kind, options, strat_params[seat], hands, passed, discards,
                     money, pub, rules, rng)


@hot_flat
def apply_nb(pos, option, consts, ws):
    rules, notice, forget = consts
    ctrl = ctrl_nb(pos)
    seat = ctrl[C_DECIDER]
    kind = ctrl[C_KIND]
    _, game_out = outs_nb(pos)
    legal = option == K.KEEP and kind != K.D_PLAY
    legal = legal or (0 <= option < NC and (ctrl[C_OPTIONS] >> option) & 1 != 0)
    if not legal:                        # the engine's ask_nb: the game stops there
        game_out[K.G_ILLEGAL] = 1 + seat
        _end(pos, K.END_ILLEGAL)
        return
    if option == K.KEEP:                 # keeps the drawn card, or stops the bonus plays
        _run(pos, consts, ws, 0, False)
        return
    status, options = _play(pos, seat, option, kind, notice, forget, rules)
    if status == BONUS:
        ctrl[C_KIND] = K.D_BONUS
        ctrl[C_OPTIONS] = options
        return
    _run(pos, consts, ws, status, False)


# ------------------------------------------------------------------ the game, step by step
@hot_flat
def _play(pos, seat, card, kind, notice, forget, rules):
    """``seat`` plays ``card``, logged as the table sees it: (status, bonus options)."""
    hands, passed, discards, pile, money, pub, rng = views_nb(pos)
    seat_out, game_out = outs_nb(pos)
    ctrl = ctrl_nb(pos)
    n = ctrl[C_PLAYERS]
    obj = obj_of_nb(seat, pub[K.PUB_PASSES], n)
    if kind == K.D_DRAWN:                # the drawn card, now public: its draw hid nothing
        ctrl[C_N_LOG] -= 1
    else:
        batch = pos[O_BATCH + card]
        push_nb(pos, event_nb(EV_PLAY, obj, card, batch, penalty_count_nb(pos, ctrl[C_PENALTY], batch)))
    resh = pub[K.PUB_RESHUFFLES]
    passes = pub[K.PUB_PASSES]
    penalties = seat_out[seat, K.S_PENALTY_DRAWS]
    discarded = pub[K.PUB_DISCARDED] | (np.int64(1) << card)
    status, options, penalty = play_card_nb(seat, card, kind, ctrl[C_PENALTY], notice, forget, hands, passed,
                                            discards, pile, pub, rng, seat_out, game_out,
                                            rules[K.R_ONE_PLAYS_AGAIN] != 0, rules[K.R_FIFTY_SKIPS] != 0,
                                            rules[K.R_TWO_PASSES_HANDS] != 0)
    ctrl[C_PENALTY] = penalty
    if pub[K.PUB_PASSES] != passes:
        seen_pass_nb(pos)
    if seat_out[seat, K.S_PENALTY_DRAWS] != penalties:
        seen_reshuffle_nb(pos, resh, discarded, card)
        seen_draw_nb(pos, obj_of_nb(seat, pub[K.PUB_PASSES], n))
    return status, options


@hot_flat
def _head(pos, seat):
    """The turn of ``seat`` up to its first decision, logged: (kind, options)."""
    hands, passed, discards, pile, money, pub, rng = views_nb(pos)
    seat_out, game_out = outs_nb(pos)
    ctrl = ctrl_nb(pos)
    log_room_nb(pos)
    ctrl[C_TURN_LOG] = ctrl[C_N_LOG]
    ctrl[C_PENALTY] = 0
    obj = obj_of_nb(seat, pub[K.PUB_PASSES], ctrl[C_PLAYERS])
    top = pub[K.PUB_TOP]
    skipped = pub[K.PUB_SKIP] != 0
    matched = hands[seat] & MATCHING[top] != 0
    resh = pub[K.PUB_RESHUFFLES]
    discarded = pub[K.PUB_DISCARDED]
    kind, options = turn_head_nb(seat, hands, discards, pile, pub, rng, seat_out, game_out)
    if not skipped and not matched:
        push_nb(pos, event_nb(EV_NOMATCH, obj, top, 0, 0))
    if pub[K.PUB_DRAWN] != 0:
        seen_reshuffle_nb(pos, resh, discarded, top)
        seen_draw_nb(pos, obj)
    return kind, options


@hot
def _next_round(pos, rules):
    """Deal the next round, or end the game at the round cap: whether a round began."""
    hands, passed, discards, pile, money, pub, rng = views_nb(pos)
    ctrl = ctrl_nb(pos)
    if ctrl[C_ROUNDS] >= rules[K.R_MAX_ROUNDS]:
        _end(pos, K.END_ROUND_CAP)
        return False
    ctrl[C_ROUNDS] += 1
    deal_round_nb(ctrl[C_ROUNDS], ctrl[C_STARTER], rules, hands, passed, discards, pile, pub, rng)
    new_round_log_nb(pos, rules[K.R_HAND_SIZE])
    return True


@hot_flat
def _run(pos, consts, ws, done, fresh):
    """From the end of a turn (``done``: 1 if its player went out), or the
    start of a round (``fresh``), to the next decision or the game's end."""
    rules = consts[0]
    combo, paid, _ = ws
    hands, passed, discards, pile, money, pub, rng = views_nb(pos)
    seat_out, game_out = outs_nb(pos)
    ctrl = ctrl_nb(pos)
    n = ctrl[C_PLAYERS]
    seat = ctrl[C_STARTER] if fresh else pub[K.PUB_CUR]
    while True:
        if not fresh:
            if done == OUT:
                broke, nxt = settle_nb(seat, rules, hands, money, combo, paid, seat_out, game_out)
                if broke:                # checked before the round cap: bankrupt wins
                    _end(pos, K.END_BANKRUPT)
                    return
                ctrl[C_STARTER] = nxt
                if not _next_round(pos, rules):
                    return
                seat = nxt
            elif round_void_nb(n, pub, rules):
                game_out[K.G_VOID_ROUNDS] += 1   # void: nobody pays, the same player starts
                if not _next_round(pos, rules):
                    return
                seat = ctrl[C_STARTER]
            else:
                seat = seat_after_nb(seat, n)
        fresh = False
        kind, options = _head(pos, seat)
        if kind >= 0:
            ctrl[C_DECIDER] = seat
            ctrl[C_KIND] = kind
            ctrl[C_OPTIONS] = options
            return
        done = 0


@hot
def _end(pos, reason):
    hands, passed, discards, pile, money, pub, rng = views_nb(pos)
    seat_out, game_out = outs_nb(pos)
    ctrl = ctrl_nb(pos)
    game_over_nb(ctrl[C_ROUNDS], reason, money, pub, seat_out, game_out)
    ctrl[C_DECIDER] = -1
    ctrl[C_REASON] = reason

