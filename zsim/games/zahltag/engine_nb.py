"""The fast Zahltag engine: numba kernels over flat integer arrays.

One call of :func:`play_game_nb` plays one complete game, from the deal to the
ranking, into preallocated outputs.  State (per seat and type; card counts are
int16, four to a row of eight bytes that ``lanes_nb`` reads and writes as one
int64, the rest int64):

=========  =============  ==============================================
array      shape          meaning
=========  =============  ==============================================
hand       [P, 4] int16   hidden hand cards
left       [P, 4] int16   left table area (jobs won this round)
right      [P, 4] int16   right table area (jobs finishing next turn)
stacks     [4] int16      face-up supply stacks
money      [P]            money in millions
alive      [P]            1 while the seat is in the game
elim       [P]            0, or the number of the event that eliminated it
deck       [n_cards]      job index 0..n_jobs-1 or ``PAYDAY``; ``top`` is
                          the next card, deck[top:] the remaining deck
demand     [4]            worker needs summed over jobs still in the deck
pub        [N_PUB]        public scalars (``constants.PUB_*``)
=========  =============  ==============================================

Much of a game's time went to mispredicted branches on card counts, so the
code that runs at every turn and bid (the leader check, the bid checks and
counts, the award) is written as arithmetic on 0/1 flags where that is
cheaper than a branch (docs/performance.md).

Chance and decision order follow ``docs/rules.md`` exactly; the reference
engine (``reference.py``) is written independently from the same page and
tests hold the two equal game by game.

Given an int64 ``log`` the kernel appends events to it (``events_nb.py``);
``records.py`` turns it into JSON lines. The batch passes ``log=None``:
numba then drops every ``if log is not None:`` block before typing, so the
batch kernel carries no logging branches and a first ``zsim simulate``
compiles none of the event kernels; ``zsim record`` compiles the game a
second time, with them (docs/performance.md). Paydays, bids,
penalties and the ranking live in ``resolve_nb.py``.
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.events_nb import (LOG_ADJUST, LOG_DECK, LOG_END, LOG_REVEAL, LOG_SETUP,
                                          LOG_SHUFFLE, LOG_TURN, SHUFFLE_FORCED, SHUFFLE_IN_A_ROW,
                                          event_nb, log_deal_nb, log_deck_nb, log_finish_nb)
from zsim.games.zahltag.moves_nb import give_up_known_nb, is_legal_adjust_nb, lane_unit_nb, owned_nb
from zsim.games.zahltag.resolve_nb import (end_reason_nb, job_nb, lead_nb, payday_nb, penalty_nb,
                                           rank_nb)
from zsim.jit import hot, hot_flat, hot_inline, index_nb, seat_after_nb
from zsim.games.zahltag.lanes_nb import lanes_nb, set_lanes_nb
from zsim.roster import seats_nb
from zsim.rng import DECK_STREAM, seed_streams_nb, shuffle_nb
from zsim.dispatch import dispatcher

# strategy dispatch: generated for the installed strategies (see zsim.dispatch)
adjust_nb = dispatcher("zahltag").adjust_nb

PILE_MAX = 4 * 60  # the supply rule allows at most 60 cards of a type


def new_workspace(n_players, needs, rules):
    """One thread's scratch arrays, reused game after game, and the whole
    deck's demand of each type, which every game starts from (``needs``: the
    jobs' lanes, ``rules``: the rules' array, whose payday cards join the jobs
    in the deck); made by numpy and passed to the batch kernel
    (``zsim.blocks.play_in_blocks``'s ``workspace``) and the record kernel,
    whose own allocation of them compiled for each array's type
    (docs/performance.md, seventeenth round)."""
    n_cards = needs.shape[0] + int(rules[K.R_PAYDAY_CARDS])
    hand = np.zeros((n_players, K.N_TYPES), np.int16)     # four counts to a row: see moves_nb
    left = np.zeros((n_players, K.N_TYPES), np.int16)
    right = np.zeros((n_players, K.N_TYPES), np.int16)
    stacks = np.zeros(K.N_TYPES, np.int16)
    money = np.zeros(n_players, np.int64)
    alive = np.zeros(n_players, np.int64)
    elim = np.zeros(n_players, np.int64)
    deck = np.zeros(n_cards, np.int64)
    demand = np.zeros(K.N_TYPES, np.int64)
    pub = np.zeros(K.N_PUB, np.int64)
    pile = np.zeros(PILE_MAX, np.int64)
    rng = np.zeros(n_players + 1, np.uint64)
    scratch = np.zeros(2 * n_players, np.int64)
    deck_demand = np.zeros(K.N_TYPES, np.int64)
    partners = np.zeros(max(PILE_MAX, n_cards), np.uint32)   # a shuffle's draws
    deck_demand[:] = needs[:, :K.N_TYPES].sum(axis=0)
    return (hand, left, right, stacks, money, alive, elim, deck, demand, pub, pile, rng, scratch, deck_demand,
            partners)


# ------------------------------------------------------------------ helpers
@hot_flat
def apply_adjust_nb(seat, act, hand, stacks, pub):
    if act == K.ACT_NONE:
        return
    # the counts move as whole lanes: a store of one count read back soon
    # after as part of all four would stall the CPU's store forwarding
    if act < K.ACT_DISCARD:
        t = act - K.ACT_TAKE
        move = lane_unit_nb(t)
        pub[K.PUB_KNOWN + seat] += move
    elif act < K.ACT_EXCHANGE:
        g = act - K.ACT_DISCARD
        move = -lane_unit_nb(g)
        give_up_known_nb(pub, seat, lane_unit_nb(g))
    else:
        g = (act - K.ACT_EXCHANGE) // 4
        t = (act - K.ACT_EXCHANGE) % 4
        move = lane_unit_nb(t) - lane_unit_nb(g)
        give_up_known_nb(pub, seat, lane_unit_nb(g))
        pub[K.PUB_KNOWN + seat] += lane_unit_nb(t)
    set_lanes_nb(hand, seat, lanes_nb(hand, seat) + move)
    set_lanes_nb(stacks, 0, lanes_nb(stacks, 0) - move)
    pub[K.PUB_HANDS] += move


@hot_inline
def _adjust_step_nb(seat, in_setup, roster, strat_ids, strat_params, hand, left, right, stacks, money,
                    alive, demand, pub, rules, rng, game_out):
    """The seat's strategy picks an adjustment; an illegal one is counted and
    played as nothing.  Returns the action carried out."""
    act = adjust_nb(roster, strat_ids[seat], seat, strat_params[seat], hand, left, right, stacks, money,
                    alive, demand, pub, rules, rng)
    if not is_legal_adjust_nb(seat, act, hand, left, right, stacks, rules, in_setup):
        game_out[K.G_ILLEGAL] += 1
        act = K.ACT_NONE
    apply_adjust_nb(seat, act, hand, stacks, pub)
    return act


@hot_inline
def deal_nb(n_players, rules, n_jobs, n_cards, hand, left, right, stacks, money, alive, elim, deck, demand,
            deck_demand, pub, pile, rng, partners):
    """Setup steps 1 and 2: shuffle the worker pile and deal it, the rest
    forming the stacks; shuffle the deck; the public facts of a new game."""
    hand_size = rules[K.R_HAND_SIZE]
    n_pile = 0
    for t in range(K.N_TYPES):
        for _ in range(rules[K.R_SUPPLY + t]):
            pile[n_pile] = t
            n_pile += 1
    shuffle_nb(pile, 0, n_pile, rng, DECK_STREAM, partners)
    stock = np.int64(0)                  # the supply as lanes, built in a register: four counts
    for t in range(K.N_TYPES):           # stored one by one and read back as a row would stall
        stock += rules[K.R_SUPPLY + t] * lane_unit_nb(t)
    dealt_all = np.int64(0)
    for s in range(n_players):
        dealt = np.int64(0)
        for i in range(s * hand_size, (s + 1) * hand_size):
            dealt += lane_unit_nb(pile[i])
        set_lanes_nb(hand, s, dealt)
        set_lanes_nb(left, s, np.int64(0))
        set_lanes_nb(right, s, np.int64(0))
        stock -= dealt
        dealt_all += dealt
        money[s] = rules[K.R_START_MONEY]
        alive[s] = 1
        elim[s] = 0
    set_lanes_nb(stacks, 0, stock)
    for j in range(n_jobs):
        deck[j] = j
    for j in range(n_jobs, n_cards):
        deck[j] = K.PAYDAY
    shuffle_nb(deck, 0, n_cards, rng, DECK_STREAM, partners)
    for t in range(K.N_TYPES):
        demand[t] = deck_demand[t]
    for i in range(K.N_PUB):
        pub[i] = 0
    pub[K.PUB_JOBS_LEFT] = n_jobs
    pub[K.PUB_PAYDAYS_LEFT] = rules[K.R_PAYDAY_CARDS]
    pub[K.PUB_FORCED_AT] = rules[K.R_FORCED_JOBS_2P] if n_players == 2 else rules[K.R_FORCED_JOBS]
    pub[K.PUB_N_ALIVE] = n_players
    pub[K.PUB_PLAYERS] = n_players
    pub[K.PUB_HANDS] = dealt_all


@hot_inline
def finish_jobs_nb(cur, hand, left, right, pub, log):
    """Turn step 1: the right area back to hand, the left area to the right."""
    # done whether or not anything moves: whether it does is a coin
    # flip to the CPU, and moving nothing costs a dozen instructions
    back = lanes_nb(right, cur)
    won = lanes_nb(left, cur)
    if log is not None and (back | won) != 0:
        log_finish_nb(log, cur, right, left)
    pub[K.PUB_KNOWN + cur] += back                      # seen coming back
    set_lanes_nb(hand, cur, lanes_nb(hand, cur) + back)
    pub[K.PUB_HANDS] += back
    set_lanes_nb(right, cur, won)
    set_lanes_nb(left, cur, np.int64(0))


@hot_inline
def reveal_nb(deck, top, n_cards, pub, rng, partners, game_out, log):
    """Turn step 3: the card revealed (a forced payday is taken out of the
    deck; a payday right after one goes back and the deck is reshuffled);
    returns (card, the new top, whether the payday was forced)."""
    forced = pub[K.PUB_JOBS_SINCE] >= pub[K.PUB_FORCED_AT]
    if forced:
        k = top
        while deck[k] != K.PAYDAY:
            k += 1
        for i in range(k, top, -1):
            deck[i] = deck[i - 1]
        deck[top] = K.PAYDAY
        top += 1
        card = K.PAYDAY
        if log is not None:
            event_nb(log, LOG_REVEAL, 2, K.PAYDAY, 1, 0)
    else:
        while True:
            card = deck[index_nb(top)]
            top += 1
            if log is not None:
                event_nb(log, LOG_REVEAL, 2, card, 0, 0)
            if card == K.PAYDAY and pub[K.PUB_LAST_PAYDAY] != 0 and pub[K.PUB_JOBS_LEFT] > 0:
                top -= 1
                shuffle_nb(deck, top, n_cards, rng, DECK_STREAM, partners)
                game_out[K.G_RESHUFFLES] += 1
                if log is not None:
                    log_deck_nb(log, LOG_SHUFFLE, SHUFFLE_IN_A_ROW, deck, top, n_cards)
                continue
            break
    return card, top, forced


@hot_inline
def game_over_nb(n_players, end_reason, leader, hand, left, right, money, alive, elim, pub, seat_out, game_out,
                 scratch):
    """The game's last rows: the last lead check, its totals and the places."""
    lead_nb(n_players, money, alive, leader, game_out)
    game_out[K.G_TURNS] = pub[K.PUB_TURN]
    game_out[K.G_PAYDAYS] = pub[K.PUB_PAYDAYS]
    game_out[K.G_END_REASON] = end_reason
    rank_nb(n_players, hand, left, right, money, alive, elim, seat_out, scratch)
    for s in range(n_players):
        if elim[s] != 0:
            game_out[K.G_ELIMINATIONS] += 1


# ------------------------------------------------------------------ one game
@hot
def play_game_nb(key, rules, needs, roster, strat_ids, strat_params, ws, seat_out, game_out, log):
    """Play the game with 64-bit ``key`` into ``seat_out`` [P, N_SEAT_STATS]
    and ``game_out`` [N_GAME_STATS]; ``ws`` comes from :func:`new_workspace`;
    ``log``: the event log to append to, or None."""
    (hand, left, right, stacks, money, alive, elim, deck, demand, pub, pile, rng, scratch, deck_demand,
     partners) = ws
    n_players = seats_nb(roster, hand.shape[0])     # a constant when the roster is for a table size
    n_jobs = needs.shape[0]
    n_cards = n_jobs + rules[K.R_PAYDAY_CARDS]
    max_bid = rules[K.R_MAX_BID]
    for s in range(n_players):           # constant lengths: stores in line, not calls of memset
        for c in range(K.N_SEAT_STATS):
            seat_out[s, c] = 0
    for c in range(K.N_GAME_STATS):
        game_out[c] = 0
    seed_streams_nb(key, rng)

    # ---- setup 1 and 2: the workers dealt, the stacks, the deck
    deal_nb(n_players, rules, n_jobs, n_cards, hand, left, right, stacks, money, alive, elim, deck, demand,
            deck_demand, pub, pile, rng, partners)
    if log is not None:
        log_deal_nb(log, hand, stacks)
        log_deck_nb(log, LOG_DECK, 0, deck, 0, n_cards)

    # ---- setup 3 (the adjustment rounds) and play, in one loop: the setup's
    # adjustments and the turns' go through one call of the strategy dispatch,
    # so the bots are inlined into this kernel once for adjusting, not twice
    # (docs/performance.md: the copies at the decision sites are most of the compile)
    setup_left = rules[K.R_SETUP_ROUNDS] * n_players
    setup_done = 0
    s = 0                                # the setup's seat and round, counted on
    rnd = 1                              # step by step (no division a step)
    top = 0
    event = 0
    ended = False
    end_reason = K.END_FIFTH_PAYDAY
    cur = 0
    leader = -1
    while not ended:
        in_setup = setup_done < setup_left
        if in_setup:
            pub[K.PUB_ROUND] = rnd
        else:
            if setup_done == setup_left:
                pub[K.PUB_ROUND] = 0
                setup_done += 1
            # a seat, never negative: no wraparound on the rows it indexes (told
            # here, where the turn starts: a hint where it is stepped on does not
            # survive the loop's phi)
            cur = index_nb(cur)
            if alive[cur] == 0:
                cur = seat_after_nb(cur, n_players)
                continue
            leader = lead_nb(n_players, money, alive, leader, game_out)   # after the last turn's money moved
            pub[K.PUB_TURN] += 1
            if log is not None:
                event_nb(log, LOG_TURN, 2, cur, pub[K.PUB_TURN], 0)

            # 1. finish jobs: right -> hand, left -> right
            finish_jobs_nb(cur, hand, left, right, pub, log)
            s = cur

        # 2. adjust workers (in the setup: that round's adjustment)
        act = _adjust_step_nb(s, in_setup, roster, strat_ids, strat_params, hand, left, right, stacks,
                              money, alive, demand, pub, rules, rng, game_out)
        if in_setup:
            if log is not None:
                event_nb(log, LOG_SETUP, 3, s, rnd, act)
            setup_done += 1
            s = seat_after_nb(s, n_players)
            if s == 0:
                rnd += 1
            continue
        if log is not None:
            event_nb(log, LOG_ADJUST, 2, cur, act, 0)
        if rules[K.R_OVER_CAP_PENALIZE] != 0:
            excess = owned_nb(cur, hand, left, right) - rules[K.R_CARD_CAP]
            if excess > 0:
                event = penalty_nb(cur, excess, event, hand, left, right, stacks, money, alive,
                                    elim, pub, seat_out, scratch, log)
                if pub[K.PUB_N_ALIVE] <= 1:
                    ended = True
                    end_reason = K.END_LAST_PLAYER
                    break

        # 3. reveal (a forced payday is taken out of the deck, which is reshuffled after it)
        card, top, forced = reveal_nb(deck, top, n_cards, pub, rng, partners, game_out, log)

        # 4. payday or job (one call site of the payday, so its code is inlined once)
        if card == K.PAYDAY:
            pub[K.PUB_PAYDAYS_LEFT] -= 1
            event, ended = payday_nb(n_players, event, hand, left, right, stacks, money, alive, elim, pub,
                                      rules, seat_out, game_out, scratch, log)
            if ended:
                end_reason = end_reason_nb(pub, rules)
                break
            if forced:
                shuffle_nb(deck, top, n_cards, rng, DECK_STREAM, partners)
                game_out[K.G_RESHUFFLES] += 1
                if log is not None:
                    log_deck_nb(log, LOG_SHUFFLE, SHUFFLE_FORCED, deck, top, n_cards)
        else:
            pub[K.PUB_JOBS_LEFT] -= 1
            job = index_nb(card)                 # not a payday: a row of needs
            for t in range(K.N_TYPES):
                demand[t] -= needs[job, t]
            game_out[K.G_JOBS_REVEALED] += 1
            event = job_nb(job, needs[job], event, roster, strat_ids, strat_params, hand, left, right,
                            stacks, money, alive, elim, demand, pub, rules, rng, seat_out,
                            game_out, scratch, log, max_bid)
            if pub[K.PUB_N_ALIVE] <= 1:
                ended = True
                end_reason = K.END_LAST_PLAYER
                break
        cur = seat_after_nb(cur, n_players)

    # ---- the end: results and ranking
    game_over_nb(n_players, end_reason, leader, hand, left, right, money, alive, elim, pub, seat_out, game_out,
                 scratch)
    if log is not None:
        event_nb(log, LOG_END, 1, end_reason, 0, 0)


