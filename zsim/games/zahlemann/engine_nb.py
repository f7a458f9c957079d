"""The fast Zahlemann & Söhne engine: numba kernels over flat integer arrays.

One call of :func:`play_game_nb` plays one complete game, from the first deal
to the places, into preallocated outputs. It is written from docs/rules.md
(Zahlemann part) alone and shares no rule code with the reference engine
(``reference.py``); tests hold the two equal game by game, and the chance
layout (which stream draws what, in which order) is the one fixed in
``reference.py``'s docstring. State (constants.py has every slot):

==========  ============  ================================================
array       shape         meaning
==========  ============  ================================================
hands       [P]           each hand as a bitmask over the 36 card ints
passed      [P]           the hand each seat last passed on this round
discards    [36]          the discard pile, bottom first (pub: its size, top)
pile        [36]          the draw pile as a stack: pile[size - 1] is the top
money       [P, 7]        coins of 50, 20, 10, 5, 2, 1, then the total value
pub         [N_PUB]       public scalars (``constants.PUB_*``)
rng         [6] uint64    streams: 0 deck, 1 + seat strategies, 5 announcements
combo       [2, 6]        scratch for one payment's coins (handed over, change)
paid        [P]           this round's payments, for the next starting player
==========  ============  ================================================

The round's payments are in ``payment_nb.py``. Every decision goes through
:func:`ask_nb`, called at one place in :func:`turn_nb` (so the dispatch over
the installed strategies is compiled once), where the answer is checked: an
illegal answer stops the game with ``game_out[G_ILLEGAL] = 1 + seat`` and
end reason ``END_ILLEGAL``; the other columns then hold the state at that
moment. The turn and its decision are inlined into :func:`round_nb`: a call
passing a dozen arrays costs more than a simple turn (inlining the decision
made the engine 1.6 times as fast). The small helpers are plain ``hot``
kernels: inlining them too cost compile time and gained nothing measurable.

The turn, the round's deal and the game's setup and end are ``hot_inline``
pieces (:func:`turn_head_nb`, :func:`play_card_nb`, :func:`deal_round_nb`,
:func:`round_void_nb`, :func:`new_game_nb`, :func:`game_over_nb`) that the
forward model (``forward_nb.py``) calls between decisions too, so the rules
are written once; cut this way the engine plays the same games at the same
speed.
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.payment_nb import settle_nb
from zsim.jit import cold, hot, hot_inline, index_nb, recast_nb, seat_after_nb
from zsim.rng import draw_nb, seed_streams_nb, swap_partners_nb
from zsim.dispatch import dispatcher

# strategy dispatch: generated for the installed strategies (see zsim.dispatch)
decide_nb = dispatcher("zahlemann").decide_nb

TWO_53 = 2.0 ** -53
_S11 = np.uint64(11)
ILLEGAL = -2


def new_workspace(n_players):
    """One thread's scratch arrays, reused game after game; made by numpy and
    passed to the batch kernel (``zsim.blocks.play_in_blocks``'s ``workspace``),
    whose own allocation of them compiled for each array's type
    (docs/performance.md, seventeenth round)."""
    hands = np.zeros(n_players, np.int64)
    passed = np.zeros(n_players, np.int64)
    discards = np.zeros(K.N_CARDS, np.int64)
    pile = np.zeros(2 * K.N_CARDS, np.int64)     # the draw pile, then room for a shuffle's draws
    money = np.zeros((n_players, K.M_COLUMNS), np.int64)
    pub = np.zeros(K.N_PUB, np.int64)
    rng = np.zeros(K.N_STREAMS, np.uint64)
    combo = np.zeros((2, K.N_DENOMINATIONS), np.int64)
    paid = np.zeros(n_players, np.int64)
    return hands, passed, discards, pile, money, pub, rng, combo, paid


# ------------------------------------------------------------------ cards
@hot_inline
def matching_nb(top):
    """The cards that may go on ``top``: its value or its colour."""
    return K.MATCHING[top]


@hot_inline
def shuffle_nb(pile, n, rng):
    """Fisher-Yates from the bottom over the n cards of a stack (position p,
    0 = top, lives at pile[n - 1 - p]): for i = n-1 .. 1 swap positions i and
    below(i + 1) of the deck stream. Every draw is taken first, into the
    second half of ``pile`` (``zsim.rng.swap_partners_nb``)."""
    partners = recast_nb(pile, K.N_CARDS, 1, 2 * K.N_CARDS, np.uint32(0))[0]
    swap_partners_nb(rng, K.DECK_STREAM, n, partners)
    for k in range(n - 1):
        a = k                                # position i = n - 1 - k
        b = index_nb(n - 1 - np.int64(partners[k]))
        tmp = pile[a]
        pile[a] = pile[b]
        pile[b] = tmp


@hot
def chance_nb(rng, p):
    """One draw of the announcement stream: True with probability p."""
    return np.float64(draw_nb(rng, K.ANNOUNCE_STREAM) >> _S11) * TWO_53 < p


# ------------------------------------------------------------------ drawing and deciding
@hot
def reshuffle_nb(discards, pile, pub, rng):
    """The draw pile is empty: every discard but the top, bottom first, shuffled into a new one."""
    m = pub[K.PUB_N_DISCARDS] - 1
    for p in range(m):                   # the discards, bottom first, are positions 0..m-1
        pile[m - 1 - p] = discards[p]
    shuffle_nb(pile, m, rng)
    discards[0] = discards[m]
    pub[K.PUB_N_DISCARDS] = 1
    pub[K.PUB_DISCARDED] = np.int64(1) << discards[0]
    pub[K.PUB_DRAW_SIZE] = m
    pub[K.PUB_RESHUFFLES] += 1


@hot
def draw_card_nb(seat, hands, discards, pile, pub, rng, seat_out):
    """Draw the top card into ``seat``'s hand, reshuffling the discards under
    the top first if the pile is empty; the card, or -1 when there is none."""
    if pub[K.PUB_DRAW_SIZE] == 0 and pub[K.PUB_N_DISCARDS] > 1:
        reshuffle_nb(discards, pile, pub, rng)
    size = pub[K.PUB_DRAW_SIZE]
    if size == 0:
        return -1
    seat = index_nb(seat)
    card = pile[index_nb(size - 1)]
    pub[K.PUB_DRAW_SIZE] = size - 1
    hands[seat] |= np.int64(1) << card
    pub[K.PUB_DEADLOCK] = 0
    pub[K.PUB_DRAWN] += 1
    seat_out[seat, K.S_CARDS_DRAWN] += 1
    return card


@hot_inline
def ask_nb(seat, kind, options, roster, strat_ids, strat_params, hands, passed, discards, money, pub,
           rules, rng, game_out):
    """The seat's strategy answers a decision; an illegal answer is ILLEGAL
    (and marked in ``game_out``)."""
    answer = decide_nb(roster, strat_ids[seat], seat, kind, options, strat_params[seat], hands, passed,
                       discards, money, pub, rules, rng)
    if answer == K.KEEP and kind != K.D_PLAY:
        return answer
    if 0 <= answer < K.N_CARDS and (options >> answer) & 1 != 0:
        return answer
    game_out[K.G_ILLEGAL] = 1 + seat
    return ILLEGAL


# ------------------------------------------------------------------ a turn, in pieces
# The turn and the game are cut into ``hot_inline`` pieces that the batch
# engine and the forward model (``forward_nb.py``) both call, so the rules
# are written once: the turn's start up to its first decision, one play
# resolved, a round dealt, the game's setup and its last rows.
TURN_OVER = 0          # play_card_nb: the turn ends
OUT = 1                # the player emptied their hand and won the round
BONUS = 2              # one_plays_again: a bonus decision follows


@hot_inline
def turn_head_nb(seat, hands, discards, pile, pub, rng, seat_out, game_out):
    """The turn of ``seat`` up to its first decision: (kind, options), or
    kind -1 when the turn ends without one (a skipped turn, no card to draw,
    a drawn card that does not match)."""
    pub[K.PUB_TURN] += 1
    pub[K.PUB_CUR] = seat
    pub[K.PUB_DRAWN] = 0
    pub[K.PUB_PLAYED] = 0
    game_out[K.G_TURNS] += 1
    if pub[K.PUB_SKIP] != 0:             # fifty_skips: the whole turn is one draw
        pub[K.PUB_SKIP] = 0
        game_out[K.G_SKIPS] += 1
        draw_card_nb(seat, hands, discards, pile, pub, rng, seat_out)
        return -1, np.int64(0)
    match = matching_nb(pub[K.PUB_TOP])
    options = hands[seat] & match
    if options != 0:                     # 1. must play a matching card
        return K.D_PLAY, options
    drawn = draw_card_nb(seat, hands, discards, pile, pub, rng, seat_out)   # 2. else one draw
    if drawn < 0:                        # nothing played, nothing drawn
        pub[K.PUB_DEADLOCK] += 1
        return -1, np.int64(0)
    if (match >> drawn) & 1 == 0:
        return -1, np.int64(0)
    return K.D_DRAWN, np.int64(1) << drawn


@hot_inline
def play_card_nb(seat, card, kind, penalty_cards, notice, strat_params, hands, passed, discards, pile, pub, rng,
                 seat_out, game_out, one_again, fifty_skips, two_passes):
    """``seat`` plays ``card`` (a legal answer of a ``kind`` decision),
    resolved in the ruling's order: (OUT, TURN_OVER or BONUS, the bonus
    decision's options, the penalty cards drawn this turn so far)."""
    hands[seat] &= ~(np.int64(1) << card)
    discards[index_nb(pub[K.PUB_N_DISCARDS])] = card
    pub[K.PUB_N_DISCARDS] += 1
    pub[K.PUB_DISCARDED] |= np.int64(1) << card
    pub[K.PUB_TOP] = card
    pub[K.PUB_DEADLOCK] = 0
    pub[K.PUB_PLAYED] += 1
    seat_out[seat, K.S_CARDS_PLAYED] += 1
    if kind == K.D_BONUS:
        game_out[K.G_BONUS_PLAYS] += 1
    hand = hands[seat]
    if hand == 0:                        # 1. out: the round is won, no effect
        return OUT, np.int64(0), penalty_cards
    penalty = False
    if hand & (hand - 1) == 0:           # 2. one card left: the announcement check
        if chance_nb(rng, strat_params[seat, 0]):
            seat_out[seat, K.S_FORGOTTEN] += 1
            if chance_nb(rng, notice):
                seat_out[seat, K.S_NOTICED] += 1
                penalty = True
    value = card // K.N_COLOURS
    passes = two_passes and value == K.V2
    if penalty and not passes:
        drawn = draw_card_nb(seat, hands, discards, pile, pub, rng, seat_out)
        if drawn >= 0:
            seat_out[seat, K.S_PENALTY_DRAWS] += 1
            penalty_cards |= np.int64(1) << drawn
    # 3. the card's variant effect
    if one_again and value == K.V1:
        options = hands[seat] & matching_nb(card) & ~penalty_cards
        if options != 0:
            return BONUS, options, penalty_cards
    elif passes:
        n = hands.shape[0]
        last = hands[n - 1]
        for s in range(n - 1, 0, -1):
            passed[s] = hands[s]
            hands[s] = hands[s - 1]
        passed[0] = hands[0]
        hands[0] = last
        pub[K.PUB_PASSES] += 1
        game_out[K.G_HAND_PASSES] += 1
        if penalty:                      # drawn once the hands have moved
            if draw_card_nb(seat, hands, discards, pile, pub, rng, seat_out) >= 0:
                seat_out[seat, K.S_PENALTY_DRAWS] += 1
    elif fifty_skips and value == K.V50:
        pub[K.PUB_SKIP] = 1
    return TURN_OVER, np.int64(0), penalty_cards    # 4. the turn ends


@hot_inline
def turn_nb(seat, rules, notice, roster, strat_ids, strat_params, hands, passed, discards, pile, money,
            pub, rng, seat_out, game_out, one_again, fifty_skips, two_passes):
    """One turn of ``seat``: 1 if they emptied their hand, 0 if not, ILLEGAL.

    After the turn's start (its one draw if nothing matches) come its
    decisions, each answered at the one call of the seat's strategy below;
    each play is resolved in the ruling's order and may call for a bonus
    decision.

    ``one_again``, ``fifty_skips``, ``two_passes``: the variant rules, read
    once a round and tested before the card's value. Tested after it, as the
    rules read, each was a branch on the card played that the CPU could not
    learn (together about ten mispredictions a round of the default rules,
    which have all three off); tested first, each is a branch that never
    changes within a game."""
    seat = index_nb(seat)                # rows indexed by the seat skip numba's wraparound
    kind, options = turn_head_nb(seat, hands, discards, pile, pub, rng, seat_out, game_out)
    if kind < 0:
        return 0
    penalty_cards = np.int64(0)          # penalty cards drawn this turn
    while True:
        card = ask_nb(seat, kind, options, roster, strat_ids, strat_params, hands, passed, discards,
                      money, pub, rules, rng, game_out)
        if card == ILLEGAL:
            return ILLEGAL
        if card == K.KEEP:               # keeps the drawn card, or stops the bonus plays
            return 0
        status, options, penalty_cards = play_card_nb(seat, card, kind, penalty_cards, notice, strat_params,
                                                      hands, passed, discards, pile, pub, rng, seat_out,
                                                      game_out, one_again, fifty_skips, two_passes)
        if status != BONUS:
            return status
        kind = K.D_BONUS


# ------------------------------------------------------------------ a round
@hot_inline
def deal_round_nb(round_no, starter, rules, hands, passed, discards, pile, pub, rng):
    """A round's setup: the 36 cards shuffled, dealt from the starter
    clockwise, the next one turned up, the rest the draw pile."""
    n = hands.shape[0]
    for p in range(K.N_CARDS):           # the 36 cards in canonical order, position 0 on top
        pile[K.N_CARDS - 1 - p] = p
    shuffle_nb(pile, K.N_CARDS, rng)
    dealt = n * rules[K.R_HAND_SIZE]
    for s in range(n):
        hands[s] = 0
        passed[s] = 0
    s = starter
    for k in range(dealt):               # one at a time, from the starter, clockwise
        hands[s] |= np.int64(1) << pile[K.N_CARDS - 1 - k]
        s = seat_after_nb(s, n)
    discards[0] = pile[K.N_CARDS - 1 - dealt]
    pub[K.PUB_TOP] = discards[0]
    pub[K.PUB_N_DISCARDS] = 1
    pub[K.PUB_DISCARDED] = np.int64(1) << discards[0]
    pub[K.PUB_DRAW_SIZE] = K.N_CARDS - 1 - dealt   # pile[0 .. size-1], top last
    pub[K.PUB_ROUND] = round_no
    pub[K.PUB_TURN] = 0
    pub[K.PUB_STARTER] = starter
    pub[K.PUB_SKIP] = 0
    pub[K.PUB_DEADLOCK] = 0
    pub[K.PUB_PASSES] = 0


@hot_inline
def round_void_nb(n, pub, rules):
    """Whether the turn just ended voids the round (deadlock or turn cap)."""
    return pub[K.PUB_DEADLOCK] >= n or pub[K.PUB_TURN] >= rules[K.R_MAX_TURNS]


@hot
def round_nb(round_no, starter, rules, notice, roster, strat_ids, strat_params, hands, passed, discards,
             pile, money, pub, rng, seat_out, game_out):
    """Deal afresh and play turns: the winner, -1 for a void round, ILLEGAL."""
    n = hands.shape[0]
    deal_round_nb(round_no, starter, rules, hands, passed, discards, pile, pub, rng)
    one_again = rules[K.R_ONE_PLAYS_AGAIN] != 0
    fifty_skips = rules[K.R_FIFTY_SKIPS] != 0
    two_passes = rules[K.R_TWO_PASSES_HANDS] != 0
    seat = starter
    while True:
        done = turn_nb(seat, rules, notice, roster, strat_ids, strat_params, hands, passed, discards, pile,
                       money, pub, rng, seat_out, game_out, one_again, fifty_skips, two_passes)
        if done == 1:
            return seat
        if done == ILLEGAL:
            return ILLEGAL
        if round_void_nb(n, pub, rules):
            return -1
        seat = seat_after_nb(seat, n)


# ------------------------------------------------------------------ one game
@hot_inline
def new_game_nb(key, rules, money, pub, rng):
    """The game's setup: its streams, the public facts, everyone's coins."""
    n = money.shape[0]
    seed_streams_nb(key, rng)
    for i in range(K.N_PUB):
        pub[i] = 0
    pub[K.PUB_PLAYERS] = n
    start_value = 0
    for i in range(K.N_DENOMINATIONS):
        start_value += rules[K.R_COINS + i] * K.DENOMINATIONS[i]
    for s in range(n):
        for i in range(K.N_DENOMINATIONS):
            money[s, i] = rules[K.R_COINS + i] if rules[K.R_MONEY] == K.MONEY_COINS else 0
        money[s, K.M_TOTAL] = start_value


@hot_inline
def game_over_nb(rounds, reason, money, pub, seat_out, game_out):
    """The game's last rows: places by the value of each seat's money."""
    n = money.shape[0]
    for s in range(n):
        seat_out[s, K.S_TOTAL] = money[s, K.M_TOTAL]
        above = 0
        for o in range(n):
            if money[o, K.M_TOTAL] > money[s, K.M_TOTAL]:
                above += 1
        seat_out[s, K.S_PLACE] = 1 + above
        for i in range(K.N_DENOMINATIONS):
            seat_out[s, K.S_COINS + i] = money[s, i]
        game_out[K.G_CHANGE_SHORTFALL] += seat_out[s, K.S_SHORTFALL]
    game_out[K.G_ROUNDS] = rounds
    game_out[K.G_RESHUFFLES] = pub[K.PUB_RESHUFFLES]
    game_out[K.G_END_REASON] = reason


@hot
def play_game_nb(key, rules, notice, roster, strat_ids, strat_params, ws, seat_out, game_out):
    """Play the game with 64-bit ``key`` into ``seat_out`` [P, N_SEAT_STATS]
    and ``game_out`` [N_GAME_STATS]; ``ws`` comes from :func:`new_workspace`."""
    hands, passed, discards, pile, money, pub, rng, combo, paid = ws
    seat_out[:, :] = 0
    game_out[:] = 0
    new_game_nb(key, rules, money, pub, rng)
    starter = 0                          # seat 0, "the youngest", starts round 1
    rounds = 0
    reason = K.END_ROUND_CAP
    while rounds < rules[K.R_MAX_ROUNDS]:
        rounds += 1
        winner = round_nb(rounds, starter, rules, notice, roster, strat_ids, strat_params, hands, passed,
                          discards, pile, money, pub, rng, seat_out, game_out)
        if winner == ILLEGAL:
            reason = K.END_ILLEGAL
            break
        if winner < 0:                   # void: nobody pays, the same player starts
            game_out[K.G_VOID_ROUNDS] += 1
            continue
        broke, nxt = settle_nb(winner, rules, hands, money, combo, paid, seat_out, game_out)
        if broke:                        # checked before the round cap: bankrupt wins
            reason = K.END_BANKRUPT
            break
        starter = nxt
    game_over_nb(rounds, reason, money, pub, seat_out, game_out)


# ------------------------------------------------------------------ one decision, from Python
@cold
def decide_one_nb(roster, sid, seat, kind, options, params, hands, passed, discards, money, pub, rules,
                  rng):
    """The strategy ``sid``'s answer to one decision (the reference engine's
    KernelDecider asks the compiled strategies through this)."""
    return decide_nb(roster, sid, seat, kind, options, params, hands, passed, discards, money, pub, rules,
                     rng)
