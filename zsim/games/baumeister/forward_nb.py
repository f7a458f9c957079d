"""Wettstreit der Baumeister's forward model: the game one decision at a time
(the contract is ``zsim/harness/forward.py``).

A position is one int64 array whose layout, and the views that hand the
bots and the rule kernels the batch engine's very arrays, are in
``position_nb.py``; ``consts`` and the workspace are one array each too.

The turn is the batch engine's (``engine_nb``, ``auction_nb``,
``sabotage_nb``), cut at its decisions into ``hot_flat`` pieces that both
call: ``forward_turn_nb.turn_nb`` goes from piece to piece and stops where the engine would
ask a bot about more than one option (a single option is played without
asking, as there), noting the decision and the engine's list of options in
the position. Most decisions are the auction's (the stack, the opening bid,
the raises: three in four at four seats), and ``apply_nb`` plays those on to
the next one without entering ``turn_nb``.

Decisions (``kind_nb``) are the engine's ``D_*`` (``KINDS`` names them), and
an option is what the engine lists for its bots: a seat (TAKE, TARGET), a
stack (STACK, UNDER), an action ``A_*``, a placement ``card * W + row
index`` or PLACE_STOP, a row index (CARD), KEEP/LOSE, ACCEPT/REFUSE; for an
amount the amount itself, the engine's range of it spelt out (OPEN 1..high,
BID 0 to pass then low..high, OFFER 0..purse). An option outside the list
ends the game as the engine ends it for an illegal answer. No decision is
sealed: bids and offers are made in turn, in the open (``sealed_nb`` is 0).

What a seat knows, how ``determinize_nb`` draws the rest, and how
``redraw_nb`` draws what no seat has seen, is in ``forward_know_nb.py``.
"""
from __future__ import annotations

import numpy as np

from zsim.dispatch import dispatcher
from zsim.games.baumeister import constants as K
from zsim.games.baumeister.engine_nb import deal_nb
# the contract's rest
from zsim.games.baumeister.forward_know_nb import determinize_nb, redraw_nb, view_nb  # noqa: F401
from zsim.games.baumeister.forward_turn_nb import (P_ANSWER, P_TURN, bidding_nb, end_nb, opening_turn_nb,
                                                   put_up_turn_nb, turn_nb)
from zsim.games.baumeister.position_nb import (C_DECIDER, C_KIND, C_N, C_N_CARDS, C_PLAYERS, C_REASON, C_SEAT, O_CTRL,
                                               const_views, consts_array, opts_at, pos_ctrl, pos_marks, pos_outs,
                                               pos_views, size_for, workspace_words, ws_views)
from zsim.games.baumeister.seat_view import describe  # noqa: F401  (what a seat sees, in words)
from zsim.jit import hot, hot_flat
from zsim.rng import seed_streams_nb

decide_nb = dispatcher("baumeister").decide_nb

KINDS = ("take", "stack", "open", "bid", "action", "place", "target", "card", "keep", "offer", "accept", "under")
#: the most options of one decision: a bid's (pass and up to max_bid amounts) or a build's placements
MAX_OPTIONS = K.MAX_OPTS
#: what bot_nb returns for a bot's index outside its options (apply_nb plays it as illegal)
NOT_AN_OPTION = -(1 << 62)
#: C_KIND of a new game's position before its first turn (new_nb plays it through apply_nb)
START = -2


# ------------------------------------------------------------------ Python side
def consts(matchup) -> tuple:
    """(the rules array and the deck in one array: ``position_nb.const_views``)."""
    from zsim.games.baumeister.batch import rules_array

    return (consts_array(rules_array(matchup.rules), matchup.deck.arrays()),)


def workspace(matchup) -> tuple:
    """(one array: ``position_nb.ws_views``)."""
    return (np.zeros(workspace_words(matchup.deck.n), np.int64),)


def size(matchup) -> int:
    return size_for(matchup.deck.n)


#: the record events (TRACE.md) that can show a decision of each kind (``decision_event`` finds the one)
DECISION_EVENTS = (("roll",), ("auction",), ("bid",), ("bid", "pass"), ("build", "sabotage"), ("build",),
                   ("sabotage",), ("sabotage",), ("sabotage",), ("sabotage",), ("sabotage",), ("award",))
#: the kinds that continue a step already begun: their event is the one the step's first decision found
_CONTINUING = (K.D_PLACE, K.D_TARGET, K.D_CARD, K.D_KEEP, K.D_OFFER, K.D_ACCEPT)


def decision_event(events: list[dict], start: int, seat: int, kind: int, option: int) -> int | None:
    """The index of the record event that shows this decision of ``seat``,
    from ``start`` on: its ``roll``, ``auction``, ``bid`` or ``pass``, the
    ``build`` or ``sabotage`` of its step 3 (every placement and every answer
    of a sabotage, the target's included, shows on that one event), or the
    ``award`` of an unsold card it put under a stack."""
    names = DECISION_EVENTS[kind]

    def involves(e):
        return "seat" not in e or e["seat"] == seat or e.get("target") == seat

    if kind in _CONTINUING and start > 0 and events[start - 1]["e"] in names and involves(events[start - 1]):
        return start - 1
    for i in range(start, len(events)):
        if events[i]["e"] in names and involves(events[i]):
            return i
    return None


def option_text(kind: int, option: int) -> str:
    if kind in (K.D_TAKE, K.D_TARGET):
        return f"seat {option}"
    if kind in (K.D_STACK, K.D_UNDER):
        return ("open stack", "hidden stack")[option]
    if kind == K.D_OPEN:
        return f"open at {option}"
    if kind in (K.D_BID, K.D_OFFER):
        return ("pass" if kind == K.D_BID else "no offer") if option == 0 else f"{KINDS[kind]} {option}"
    if kind == K.D_ACTION:
        return ("build", "attack a building", "attack a hand", "nothing")[option]
    if kind == K.D_PLACE:
        return "stop" if option == K.PLACE_STOP else f"card {option // K.W} at {option % K.W - K.OFF}"
    if kind == K.D_CARD:
        return f"the card at {option - K.OFF}"
    if kind == K.D_KEEP:
        return ("keep", "lose")[option]
    return ("accept", "refuse")[option]


# ------------------------------------------------------------------ the contract
@hot
def new_nb(key, n_players, consts, ws, pos):
    rules, deck = const_views(consts)
    pos[:opts_at(deck.shape[0] - 1)] = 0           # the options' tail is scratch (see position_nb)
    ctrl = pos_ctrl(pos)
    ctrl[C_PLAYERS] = n_players
    ctrl[C_N_CARDS] = deck.shape[0] - 1
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    types = pos_marks(pos)[2]
    for c in range(1, deck.shape[0]):
        types[c] = deck[c, K.D_TYPE]
    seed_streams_nb(key, rng)
    deal_nb(n_players, deck.shape[0] - 1, rules, loc, st, pub, opts, stacks, rng, ws_views(ws, deck.shape[0] - 1)[3])
    ctrl[C_REASON] = -1
    ctrl[C_KIND] = START
    apply_nb(pos, 0, consts, ws)


@hot_flat
def decider_nb(pos):
    return pos[O_CTRL + C_DECIDER]


@hot_flat
def kind_nb(pos):
    return pos[O_CTRL + C_KIND]


@hot_flat
def sealed_nb(pos):
    return 0                       # every decision is made in the open, in turn


@hot_flat
def _amount(kind):
    return kind == K.D_OPEN or kind == K.D_BID or kind == K.D_OFFER


@hot
def options_nb(pos, consts, out):
    ctrl = pos_ctrl(pos)
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    kind = ctrl[C_KIND]
    if not _amount(kind):
        for i in range(ctrl[C_N]):
            out[i] = opts[i]
        return ctrl[C_N]
    n = 0
    if kind == K.D_BID:            # pass, then every raise (an offer's range starts at none, 0)
        out[0] = 0
        n = 1
    for amount in range(opts[0], opts[1] + 1):
        out[n] = amount
        n += 1
    return n


@hot
def bot_nb(roster, strat_ids, strat_params, pos, consts):
    rules, deck = const_views(consts)
    ctrl = pos_ctrl(pos)
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    kind = ctrl[C_KIND]
    n = ctrl[C_N]
    answer = _ask_nb(roster, strat_ids, strat_params, ctrl[C_DECIDER], kind, opts, n, loc, known, rows, city, st, pub,
                     deck, rules, rng)
    if _amount(kind):
        return answer
    return opts[answer] if 0 <= answer < n else NOT_AN_OPTION


@hot
def _ask_nb(roster, strat_ids, strat_params, seat, kind, opts, n, loc, known, rows, city, st, pub, deck, rules, rng):
    # a kernel of its own, given the views: numba's copy of the strategy dispatch lost
    # the bots' draws when it was copied into the function that made the views
    return decide_nb(roster, strat_ids[seat], seat, kind, opts, n, strat_params[seat], loc, known, rows, city, st, pub,
                     deck, rules, rng)


@hot
def answer_nb(pos, option):
    """The bot answer that chooses ``option``: an amount as it is, else its index among the options."""
    ctrl = pos_ctrl(pos)
    if _amount(ctrl[C_KIND]):
        return option
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    for i in range(ctrl[C_N]):
        if opts[i] == option:
            return i
    return np.int64(-1)


@hot
def apply_nb(pos, option, consts, ws):
    ctrl = pos_ctrl(pos)
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    kind = ctrl[C_KIND]
    phase, arg = P_ANSWER, option
    if kind == START:              # a new game: its first turn
        phase, arg = P_TURN, 0
    else:
        if _amount(kind):          # the engine's check of an amount (a bid or an offer may be 0: none)
            legal = opts[0] <= option <= opts[1] or (option == 0 and kind != K.D_OPEN)
        else:
            legal = False
            for i in range(ctrl[C_N]):
                if opts[i] == option:
                    legal = True
                    break
        if not legal:              # the engine stops the game where it stands
            pub[K.PUB_ILLEGAL] = 1 + ctrl[C_DECIDER]
            end_nb(pos, consts)
            return
        # most decisions are the auction's: played on to the next one of them without the turn's machine
        rules, deck = const_views(consts)
        game_out = pos_outs(pos)[1]
        if kind == K.D_STACK:
            phase = put_up_turn_nb(ctrl, ctrl[C_SEAT], option, loc, known, st, pub, stacks, deck, rules, opts, game_out)
        elif kind == K.D_OPEN:
            phase = opening_turn_nb(ctrl, ctrl[C_SEAT], option, st, pub, deck, rules, opts, game_out)
        elif kind == K.D_BID:
            phase = bidding_nb(ctrl, option, st, pub, deck, rules, opts, game_out)
        if phase < 0:
            return
    turn_nb(pos, phase, arg, consts, ws)


#: the position's (seat rows, game row): the end's places and the batch engine's rows
outs_nb = pos_outs


#: the value estimate (``value_nb``): a card in hand counts this share of its value
#: (most are built before the end), a Thaler this many points (it buys the cards
#: still to come), and a lead of TEMPER points makes first place e times likelier
HAND_SHARE = 0.7
THALER = 0.3
TEMPER = 6.0


@hot
def value_nb(pos, consts, out):
    """Each seat's estimated share of first place in a game not yet over: a
    softmax of its standing (the values built, a share of the hand's, its
    purse in points), the bonuses left out since a city earns them only once
    complete. Everything it reads is public or, in a search, determinised."""
    rules, deck = const_views(consts)
    loc, known, rows, city, st, pub, opts, stacks, rng, holds = pos_views(pos)
    p = out.shape[0]
    top = -1e300
    for s in range(p):
        built = 0
        for c in range(city[s, K.C_LEFT], city[s, K.C_RIGHT] + 1):
            card = rows[s, c]
            if card != 0:
                built += deck[card, K.D_VALUE]
        hand = 0
        for j in range(K.ST_CARDS, K.ST_CARDS + st[s, K.ST_HAND]):
            hand += deck[st[s, j], K.D_VALUE]
        out[s] = (built + HAND_SHARE * hand + THALER * st[s, K.ST_MONEY]) / TEMPER
        top = max(top, out[s])
    total = 0.0
    for s in range(p):
        out[s] = np.exp(out[s] - top)
        total += out[s]
    for s in range(p):
        out[s] /= total
