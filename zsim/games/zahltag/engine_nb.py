"""The fast Zahltag engine: numba kernels over flat integer arrays.

One call of :func:`play_game_nb` plays one complete game, from the deal to the
ranking, into preallocated outputs.  State (per seat and type):

=========  =============  ==============================================
array      shape          meaning
=========  =============  ==============================================
hand       [P, 4]         hidden hand cards
left       [P, 4]         left table area (jobs won this round)
right      [P, 4]         right table area (jobs finishing next turn)
stacks     [4]            face-up supply stacks
money      [P]            money in millions
alive      [P]            1 while the seat is in the game
elim       [P]            0, or the number of the event that eliminated it
deck       [n_cards]      job index 0..n_jobs-1 or ``PAYDAY``; ``top`` is
                          the next card, deck[top:] the remaining deck
demand     [4]            worker needs summed over jobs still in the deck
pub        [N_PUB]        public scalars (``constants.PUB_*``)
=========  =============  ==============================================

Chance and decision order follow ``docs/rules.md`` exactly; the reference
engine (``reference.py``) is written independently from the same page and
tests hold the two equal game by game.

With ``record`` set the kernel appends events to an int64 ``log`` (see
``LOG_*`` below); ``zsim/games/zahltag/records.py`` turns it into JSON lines.
"""
from __future__ import annotations

import numpy as np
from zsim.jit import cold, hot, hot_inline

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import is_legal_adjust_nb, owned_nb
from zsim.rng import below_nb, seed_streams_nb
from zsim.strategy_registry import dispatcher

# strategy dispatch: generated for the installed strategies (see strategy_registry)
adjust_nb = dispatcher().adjust_nb
bid_nb = dispatcher().bid_nb

# ------------------------------------------------------------------ log events
# Each event is [code, length of payload, payload...].
LOG_DEAL = 1      # hands [P*4], stacks [4]
LOG_DECK = 2      # deck [n_cards]
LOG_SETUP = 3     # seat, round, action
LOG_TURN = 4      # seat, turn
LOG_FINISH = 5    # seat, to_hand [4], to_right [4]
LOG_ADJUST = 6    # seat, action
LOG_PENALTY = 7   # seat, excess, paid [P]
LOG_REVEAL = 8    # card, forced
LOG_SHUFFLE = 9   # reason (0 in a row, 1 forced), deck [rest]
LOG_BIDS = 10     # job, bids [P] (-1 = eliminated)
LOG_AWARD = 11    # job, amount, winners...
LOG_PAYDAY = 12   # number, counts [P], paid [P] (-1 = already out)
LOG_ELIM = 13     # seat, reason
LOG_END = 14      # reason
LOG_OVERFLOW = 15

SHUFFLE_IN_A_ROW = 0
SHUFFLE_FORCED = 1

PILE_MAX = 4 * 60


@cold
def new_workspace_nb(n_players, n_cards):
    """Per-thread scratch arrays, reused game after game."""
    hand = np.zeros((n_players, K.N_TYPES), np.int64)
    left = np.zeros((n_players, K.N_TYPES), np.int64)
    right = np.zeros((n_players, K.N_TYPES), np.int64)
    stacks = np.zeros(K.N_TYPES, np.int64)
    money = np.zeros(n_players, np.int64)
    alive = np.zeros(n_players, np.int64)
    elim = np.zeros(n_players, np.int64)
    deck = np.zeros(n_cards, np.int64)
    demand = np.zeros(K.N_TYPES, np.int64)
    pub = np.zeros(K.N_PUB, np.int64)
    pile = np.zeros(PILE_MAX, np.int64)
    rng = np.zeros(n_players + 1, np.uint64)
    scratch = np.zeros(2 * n_players, np.int64)
    return hand, left, right, stacks, money, alive, elim, deck, demand, pub, pile, rng, scratch


# ------------------------------------------------------------------ helpers
@hot_inline
def _emit_nb(log, record, value):
    """Append one int to the log (a no-op when not recording)."""
    if record:
        pos = log[0]
        if pos < log.shape[0]:
            log[pos] = value
        log[0] = pos + 1


@hot_inline
def shuffle_nb(arr, lo, hi, rng):
    """Fisher-Yates over arr[lo:hi] on the deck stream (docs/rules.md)."""
    for i in range(hi - lo - 1, 0, -1):
        j = below_nb(rng, 0, i + 1)
        tmp = arr[lo + i]
        arr[lo + i] = arr[lo + j]
        arr[lo + j] = tmp


@hot_inline
def _apply_adjust_nb(seat, act, hand, stacks):
    if act == K.ACT_NONE:
        return
    if act < K.ACT_DISCARD:
        t = act - K.ACT_TAKE
        stacks[t] -= 1
        hand[seat, t] += 1
    elif act < K.ACT_EXCHANGE:
        g = act - K.ACT_DISCARD
        hand[seat, g] -= 1
        stacks[g] += 1
    else:
        g = (act - K.ACT_EXCHANGE) // 4
        t = (act - K.ACT_EXCHANGE) % 4
        hand[seat, g] -= 1
        stacks[g] += 1
        stacks[t] -= 1
        hand[seat, t] += 1


@hot_inline
def _adjust_step_nb(seat, in_setup, strat_ids, strat_params, hand, left, right, stacks, money,
                    alive, demand, pub, rules, rng, game_out):
    """The seat's strategy picks an adjustment; an illegal one is counted and
    played as nothing.  Returns the action carried out."""
    act = adjust_nb(strat_ids[seat], seat, strat_params[seat], hand, left, right, stacks, money,
                    alive, demand, pub, rules, rng)
    if not is_legal_adjust_nb(seat, act, hand, left, right, stacks, rules, in_setup):
        game_out[K.G_ILLEGAL] += 1
        act = K.ACT_NONE
    _apply_adjust_nb(seat, act, hand, stacks)
    return act


@hot_inline
def _eliminate_nb(seat, event, reason, hand, left, right, stacks, money, alive, elim, pub,
                  seat_out, log, record):
    for t in range(K.N_TYPES):
        stacks[t] += hand[seat, t] + left[seat, t] + right[seat, t]
        hand[seat, t] = 0
        left[seat, t] = 0
        right[seat, t] = 0
    money[seat] = 0
    alive[seat] = 0
    elim[seat] = event
    seat_out[seat, K.S_ELIMINATED] = event
    pub[K.PUB_N_ALIVE] -= 1
    _emit_nb(log, record, LOG_ELIM)
    _emit_nb(log, record, 2)
    _emit_nb(log, record, seat)
    _emit_nb(log, record, reason)


@hot_inline
def _log_deck_nb(log, record, code, reason, deck, lo, hi):
    if record:
        if code == LOG_SHUFFLE:
            _emit_nb(log, record, code)
            _emit_nb(log, record, hi - lo + 1)
            _emit_nb(log, record, reason)
        else:
            _emit_nb(log, record, code)
            _emit_nb(log, record, hi - lo)
        for i in range(lo, hi):
            _emit_nb(log, record, deck[i])


# ------------------------------------------------------------------ one game
@hot
def play_game_nb(key, rules, needs, strat_ids, strat_params, ws, seat_out, game_out, log, record):
    """Play the game with 64-bit ``key`` into ``seat_out`` [P, N_SEAT_STATS]
    and ``game_out`` [N_GAME_STATS]; ``ws`` comes from :func:`new_workspace_nb`."""
    hand, left, right, stacks, money, alive, elim, deck, demand, pub, pile, rng, scratch = ws
    n_players = hand.shape[0]
    n_jobs = needs.shape[0]
    n_cards = n_jobs + rules[K.R_PAYDAY_CARDS]
    hand_size = rules[K.R_HAND_SIZE]
    max_bid = rules[K.R_MAX_BID]
    seat_out[:, :] = 0
    game_out[:] = 0
    seed_streams_nb(key, rng)

    # ---- setup 1: shuffle the worker pile, deal, the rest form the stacks
    n_pile = 0
    for t in range(K.N_TYPES):
        for _ in range(rules[K.R_SUPPLY + t]):
            pile[n_pile] = t
            n_pile += 1
    shuffle_nb(pile, 0, n_pile, rng)
    hand[:, :] = 0
    left[:, :] = 0
    right[:, :] = 0
    for t in range(K.N_TYPES):
        stacks[t] = rules[K.R_SUPPLY + t]
    for s in range(n_players):
        for i in range(s * hand_size, (s + 1) * hand_size):
            hand[s, pile[i]] += 1
            stacks[pile[i]] -= 1
        money[s] = rules[K.R_START_MONEY]
        alive[s] = 1
        elim[s] = 0
    # ---- setup 2: the deck
    for j in range(n_jobs):
        deck[j] = j
    for j in range(n_jobs, n_cards):
        deck[j] = K.PAYDAY
    shuffle_nb(deck, 0, n_cards, rng)
    for t in range(K.N_TYPES):
        demand[t] = 0
        for j in range(n_jobs):
            demand[t] += needs[j, t]
    pub[:] = 0
    pub[K.PUB_JOBS_LEFT] = n_jobs
    pub[K.PUB_PAYDAYS_LEFT] = rules[K.R_PAYDAY_CARDS]
    pub[K.PUB_FORCED_AT] = rules[K.R_FORCED_JOBS_2P] if n_players == 2 else rules[K.R_FORCED_JOBS]
    pub[K.PUB_N_ALIVE] = n_players
    pub[K.PUB_PLAYERS] = n_players
    if record:
        _emit_nb(log, record, LOG_DEAL)
        _emit_nb(log, record, n_players * 4 + 4)
        for s in range(n_players):
            for t in range(K.N_TYPES):
                _emit_nb(log, record, hand[s, t])
        for t in range(K.N_TYPES):
            _emit_nb(log, record, stacks[t])
        _log_deck_nb(log, record, LOG_DECK, 0, deck, 0, n_cards)

    # ---- setup 3: adjustment rounds
    for rnd in range(1, rules[K.R_SETUP_ROUNDS] + 1):
        pub[K.PUB_ROUND] = rnd
        for s in range(n_players):
            act = _adjust_step_nb(s, True, strat_ids, strat_params, hand, left, right, stacks,
                                  money, alive, demand, pub, rules, rng, game_out)
            _emit_nb(log, record, LOG_SETUP)
            _emit_nb(log, record, 3)
            _emit_nb(log, record, s)
            _emit_nb(log, record, rnd)
            _emit_nb(log, record, act)
    pub[K.PUB_ROUND] = 0

    # ---- play
    top = 0
    event = 0
    ended = False
    end_reason = K.END_FIFTH_PAYDAY
    cur = 0
    while not ended:
        if alive[cur] == 0:
            cur = (cur + 1) % n_players
            continue
        pub[K.PUB_TURN] += 1
        _emit_nb(log, record, LOG_TURN)
        _emit_nb(log, record, 2)
        _emit_nb(log, record, cur)
        _emit_nb(log, record, pub[K.PUB_TURN])

        # 1. finish jobs: right -> hand, left -> right
        moved = 0
        for t in range(K.N_TYPES):
            moved += right[cur, t] + left[cur, t]
        if moved > 0:
            if record:
                _emit_nb(log, record, LOG_FINISH)
                _emit_nb(log, record, 9)
                _emit_nb(log, record, cur)
                for t in range(K.N_TYPES):
                    _emit_nb(log, record, right[cur, t])
                for t in range(K.N_TYPES):
                    _emit_nb(log, record, left[cur, t])
            for t in range(K.N_TYPES):
                hand[cur, t] += right[cur, t]
                right[cur, t] = left[cur, t]
                left[cur, t] = 0

        # 2. adjust workers
        act = _adjust_step_nb(cur, False, strat_ids, strat_params, hand, left, right, stacks,
                              money, alive, demand, pub, rules, rng, game_out)
        _emit_nb(log, record, LOG_ADJUST)
        _emit_nb(log, record, 2)
        _emit_nb(log, record, cur)
        _emit_nb(log, record, act)
        if rules[K.R_OVER_CAP_PENALIZE] != 0:
            excess = owned_nb(cur, hand, left, right) - rules[K.R_CARD_CAP]
            if excess > 0:
                event = _penalty_nb(cur, excess, event, hand, left, right, stacks, money, alive,
                                    elim, pub, seat_out, scratch, log, record)
                if pub[K.PUB_N_ALIVE] <= 1:
                    ended = True
                    end_reason = K.END_LAST_PLAYER
                    break

        # 3. reveal
        card = K.PAYDAY
        if pub[K.PUB_JOBS_SINCE] >= pub[K.PUB_FORCED_AT]:
            k = top
            while deck[k] != K.PAYDAY:
                k += 1
            for i in range(k, top, -1):
                deck[i] = deck[i - 1]
            deck[top] = K.PAYDAY
            top += 1
            pub[K.PUB_PAYDAYS_LEFT] -= 1
            _emit_nb(log, record, LOG_REVEAL)
            _emit_nb(log, record, 2)
            _emit_nb(log, record, K.PAYDAY)
            _emit_nb(log, record, 1)
            event, ended = _payday_nb(event, hand, left, right, stacks, money, alive, elim, pub,
                                      rules, seat_out, game_out, scratch, log, record)
            if ended:
                end_reason = _end_reason_nb(pub, rules)
                break
            shuffle_nb(deck, top, n_cards, rng)
            game_out[K.G_RESHUFFLES] += 1
            _log_deck_nb(log, record, LOG_SHUFFLE, SHUFFLE_FORCED, deck, top, n_cards)
            cur = (cur + 1) % n_players
            continue
        while True:
            card = deck[top]
            top += 1
            _emit_nb(log, record, LOG_REVEAL)
            _emit_nb(log, record, 2)
            _emit_nb(log, record, card)
            _emit_nb(log, record, 0)
            if card == K.PAYDAY and pub[K.PUB_LAST_PAYDAY] != 0 and pub[K.PUB_JOBS_LEFT] > 0:
                top -= 1
                shuffle_nb(deck, top, n_cards, rng)
                game_out[K.G_RESHUFFLES] += 1
                _log_deck_nb(log, record, LOG_SHUFFLE, SHUFFLE_IN_A_ROW, deck, top, n_cards)
                continue
            break

        # 4. payday or job
        if card == K.PAYDAY:
            pub[K.PUB_PAYDAYS_LEFT] -= 1
            event, ended = _payday_nb(event, hand, left, right, stacks, money, alive, elim, pub,
                                      rules, seat_out, game_out, scratch, log, record)
            if ended:
                end_reason = _end_reason_nb(pub, rules)
                break
        else:
            pub[K.PUB_JOBS_LEFT] -= 1
            for t in range(K.N_TYPES):
                demand[t] -= needs[card, t]
            game_out[K.G_JOBS_REVEALED] += 1
            event = _job_nb(card, needs[card], event, strat_ids, strat_params, hand, left, right,
                            stacks, money, alive, elim, demand, pub, rules, rng, seat_out,
                            game_out, scratch, log, record, max_bid)
            if pub[K.PUB_N_ALIVE] <= 1:
                ended = True
                end_reason = K.END_LAST_PLAYER
                break
        cur = (cur + 1) % n_players

    # ---- the end: results and ranking
    game_out[K.G_TURNS] = pub[K.PUB_TURN]
    game_out[K.G_PAYDAYS] = pub[K.PUB_PAYDAYS]
    game_out[K.G_END_REASON] = end_reason
    _rank_nb(hand, left, right, money, alive, elim, seat_out)
    for s in range(n_players):
        if elim[s] != 0:
            game_out[K.G_ELIMINATIONS] += 1
    _emit_nb(log, record, LOG_END)
    _emit_nb(log, record, 1)
    _emit_nb(log, record, end_reason)


@hot_inline
def _end_reason_nb(pub, rules):
    if pub[K.PUB_PAYDAYS] >= rules[K.R_PAYDAYS_TO_END]:
        return K.END_FIFTH_PAYDAY
    return K.END_LAST_PLAYER


@hot_inline
def _payday_nb(event, hand, left, right, stacks, money, alive, elim, pub, rules, seat_out,
               game_out, scratch, log, record):
    """Execute a payday; returns (event counter, game ended)."""
    n_players = hand.shape[0]
    counts = scratch[:n_players]
    paid = scratch[n_players:]
    fewest = 1 << 40
    for s in range(n_players):
        counts[s] = -1
        paid[s] = -1
        if alive[s] != 0:
            c = 0
            for t in range(K.N_TYPES):
                c += hand[s, t]
                if rules[K.R_PAYDAY_COUNTS_TABLE] != 0:
                    c += left[s, t] + right[s, t]
            counts[s] = c
            seat_out[s, K.S_IDLE_AT_PAYDAY] += c
            if c < fewest:
                fewest = c
    pub[K.PUB_PAYDAYS] += 1
    pub[K.PUB_JOBS_SINCE] = 0
    pub[K.PUB_LAST_PAYDAY] = 1
    broke = False
    for s in range(n_players):
        if counts[s] >= 0:
            due = (counts[s] - fewest) * rules[K.R_PAYDAY_COST]
            pay = due if due <= money[s] else money[s]
            money[s] -= pay
            paid[s] = pay
            seat_out[s, K.S_PAYDAY_PAID] += pay
            if pay < due:
                broke = True
    if record:
        _emit_nb(log, record, LOG_PAYDAY)
        _emit_nb(log, record, 1 + 2 * n_players)
        _emit_nb(log, record, pub[K.PUB_PAYDAYS])
        for s in range(n_players):
            _emit_nb(log, record, counts[s])
        for s in range(n_players):
            _emit_nb(log, record, paid[s])
    if broke:
        event += 1
        for s in range(n_players):
            if counts[s] >= 0 and paid[s] < (counts[s] - fewest) * rules[K.R_PAYDAY_COST]:
                _eliminate_nb(s, event, K.ELIM_PAYDAY, hand, left, right, stacks, money, alive,
                              elim, pub, seat_out, log, record)
    ended = pub[K.PUB_PAYDAYS] >= rules[K.R_PAYDAYS_TO_END] or pub[K.PUB_N_ALIVE] <= 1
    return event, ended


@hot_inline
def _job_nb(job, need, event, strat_ids, strat_params, hand, left, right, stacks, money, alive,
            elim, demand, pub, rules, rng, seat_out, game_out, scratch, log, record, max_bid):
    """Sealed bids for ``job``, the award and its payments; returns the event counter."""
    n_players = hand.shape[0]
    bids = scratch[:n_players]
    low = max_bid + 1
    n_bidders = 0
    for s in range(n_players):
        bids[s] = -1
        if alive[s] != 0:
            b = bid_nb(strat_ids[s], s, need, strat_params[s], hand, left, right, stacks, money,
                       alive, demand, pub, rules, rng)
            if b != K.PASS:
                covers = b >= 1 and b <= max_bid
                for t in range(K.N_TYPES):
                    if hand[s, t] < need[t]:
                        covers = False
                if not covers:
                    game_out[K.G_ILLEGAL] += 1
                    b = K.PASS
            bids[s] = b
            if b != K.PASS:
                n_bidders += 1
                seat_out[s, K.S_BIDS] += 1
                if b < low:
                    low = b
    pub[K.PUB_JOBS_SINCE] += 1
    pub[K.PUB_LAST_PAYDAY] = 0
    if record:
        _emit_nb(log, record, LOG_BIDS)
        _emit_nb(log, record, 1 + n_players)
        _emit_nb(log, record, job)
        for s in range(n_players):
            _emit_nb(log, record, bids[s])
    if n_bidders == 0:
        game_out[K.G_JOBS_NO_BID] += 1
        if record:
            _emit_nb(log, record, LOG_AWARD)
            _emit_nb(log, record, 2)
            _emit_nb(log, record, job)
            _emit_nb(log, record, 0)
        return event
    if n_bidders == 1:
        game_out[K.G_JOBS_ONE_BID] += 1
    n_win = 0
    for s in range(n_players):
        if bids[s] == low:
            n_win += 1
    amount = low if n_win == 1 else low - rules[K.R_TIE_DISCOUNT]
    if n_win > 1:
        game_out[K.G_JOBS_TIED] += 1
    if record:
        _emit_nb(log, record, LOG_AWARD)
        _emit_nb(log, record, 2 + n_win)
        _emit_nb(log, record, job)
        _emit_nb(log, record, amount)
        for s in range(n_players):
            if bids[s] == low:
                _emit_nb(log, record, s)
    for s in range(n_players):
        if bids[s] == low:
            for t in range(K.N_TYPES):
                hand[s, t] -= need[t]
                left[s, t] += need[t]
            seat_out[s, K.S_JOBS_WON] += 1
    if amount >= 0:
        for s in range(n_players):
            if bids[s] == low:
                money[s] += amount
                seat_out[s, K.S_JOB_INCOME] += amount
        return event
    broke = False
    for s in range(n_players):
        if bids[s] == low:
            pay = -amount if -amount <= money[s] else money[s]
            money[s] -= pay
            seat_out[s, K.S_JOB_INCOME] -= pay
            if pay < -amount:
                broke = True
                bids[s] = -2  # marks "eliminated by this tie" below
    if broke:
        event += 1
        for s in range(n_players):
            if bids[s] == -2:
                _eliminate_nb(s, event, K.ELIM_TIE_BID, hand, left, right, stacks, money, alive,
                              elim, pub, seat_out, log, record)
    return event


@hot_inline
def _penalty_nb(seat, excess, event, hand, left, right, stacks, money, alive, elim, pub,
                seat_out, scratch, log, record):
    """Variant over_cap=penalize: ``seat`` pays ``excess`` to each other player still in."""
    n_players = hand.shape[0]
    paid = scratch[:n_players]
    paid[:] = 0
    others = 0
    for s in range(n_players):
        if s != seat and alive[s] != 0:
            others += 1
    due = excess * others
    left_to_pay = due if due <= money[seat] else money[seat]
    for k in range(1, n_players):
        s = (seat + k) % n_players
        if alive[s] != 0:
            give = excess if excess <= left_to_pay else left_to_pay
            left_to_pay -= give
            paid[s] = give
            paid[seat] -= give
            money[s] += give
            seat_out[s, K.S_PENALTY_RECEIVED] += give
    money[seat] += paid[seat]
    seat_out[seat, K.S_PENALTY_PAID] -= paid[seat]
    if record:
        _emit_nb(log, record, LOG_PENALTY)
        _emit_nb(log, record, 2 + n_players)
        _emit_nb(log, record, seat)
        _emit_nb(log, record, excess)
        for s in range(n_players):
            _emit_nb(log, record, paid[s])
    if -paid[seat] < due:
        event += 1
        _eliminate_nb(seat, event, K.ELIM_PENALTY, hand, left, right, stacks, money, alive, elim,
                      pub, seat_out, log, record)
    return event


@hot_inline
def _better_nb(a, b, hand, left, right, money, alive, elim):
    """Whether seat ``a`` ranks strictly above seat ``b`` at the end."""
    if alive[a] != 0 and alive[b] == 0:
        return True
    if alive[a] == 0:
        return alive[b] == 0 and elim[a] > elim[b]
    if money[a] != money[b]:
        return money[a] > money[b]
    owned_a = owned_nb(a, hand, left, right)
    owned_b = owned_nb(b, hand, left, right)
    if owned_a != owned_b:
        return owned_a < owned_b
    table_a = 0
    table_b = 0
    for t in range(K.N_TYPES):
        table_a += left[a, t] + right[a, t]
        table_b += left[b, t] + right[b, t]
    return table_a < table_b


@hot_inline
def _rank_nb(hand, left, right, money, alive, elim, seat_out):
    n_players = hand.shape[0]
    for s in range(n_players):
        place = 1
        for o in range(n_players):
            if o != s and _better_nb(o, s, hand, left, right, money, alive, elim):
                place += 1
        seat_out[s, K.S_PLACE] = place
        seat_out[s, K.S_MONEY] = money[s]
        owned = owned_nb(s, hand, left, right)
        seat_out[s, K.S_FINAL_CARDS] = owned
        table = 0
        for t in range(K.N_TYPES):
            table += left[s, t] + right[s, t]
        seat_out[s, K.S_FINAL_TABLE] = table
