"""Resolving a revealed card and the end of a game (numba kernels).

Paydays, sealed bids and their awards, cap penalties, eliminations and the
final ranking, exactly as docs/rules.md states them, for ``engine_nb``'s
turn loop. The bids with their award (every job) are inlined into it by
numba (``hot_inline``), so that the bots they ask are compiled into the
game once (a kernel of several bots asks each seat its bid at a call site
of its own, see :func:`bids_nb`); the payday (a few times a game, from one
call site) and the ranking are ``hot_flat``, typed once and inlined by
LLVM; the penalty and the elimination are rare and are kernels of their
own, compiled once instead of at every call site (docs/performance.md).
"""
from __future__ import annotations

import numpy as np
from numba.extending import overload

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.events_nb import (LOG_AWARD, LOG_BIDS, LOG_ELIM, LOG_PAYDAY, LOG_PENALTY, event_nb,
                                          log_award_nb, log_values_nb)
from zsim.games.zahltag.moves_nb import give_up_known_nb, hand_covers_nb, lanes_sum_nb
from zsim.jit import hot, hot_flat, hot_inline
from zsim.games.zahltag.lanes_nb import lanes_nb, set_lanes_nb
from zsim.roster import RosterType, seats_nb
from zsim.dispatch import dispatcher

bid_nb = dispatcher("zahltag").bid_nb


@hot
def eliminate_nb(seat, event, reason, hand, left, right, stacks, money, alive, elim, pub,
                  seat_out, log):
    pub[K.PUB_KNOWN + seat] = 0
    held = lanes_nb(hand, seat)
    pub[K.PUB_HANDS] -= held
    back = held + lanes_nb(left, seat) + lanes_nb(right, seat)
    set_lanes_nb(stacks, 0, lanes_nb(stacks, 0) + back)
    set_lanes_nb(hand, seat, np.int64(0))
    set_lanes_nb(left, seat, np.int64(0))
    set_lanes_nb(right, seat, np.int64(0))
    money[seat] = 0
    alive[seat] = 0
    elim[seat] = event
    seat_out[seat, K.S_ELIMINATED] = event
    pub[K.PUB_N_ALIVE] -= 1
    if log is not None:
        event_nb(log, LOG_ELIM, 2, seat, reason, 0)


@hot_flat
def end_reason_nb(pub, rules):
    if pub[K.PUB_PAYDAYS] >= rules[K.R_PAYDAYS_TO_END]:
        return K.END_FIFTH_PAYDAY
    return K.END_LAST_PLAYER


@hot_flat
def payday_nb(n_players, event, hand, left, right, stacks, money, alive, elim, pub, rules, seat_out,
               game_out, scratch, log):
    """Execute a payday; returns (event counter, game ended)."""
    counts = scratch[:n_players]
    paid = scratch[n_players:]
    fewest = 1 << 40
    for s in range(n_players):
        counts[s] = -1
        paid[s] = -1
        if alive[s] != 0:
            idle = lanes_nb(hand, s)
            if rules[K.R_PAYDAY_COUNTS_TABLE] != 0:
                idle += lanes_nb(left, s) + lanes_nb(right, s)
            c = lanes_sum_nb(idle)
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
    if log is not None:
        log_values_nb(log, LOG_PAYDAY, 1, pub[K.PUB_PAYDAYS], 0, scratch, 2 * n_players)
    if broke:
        event += 1
        for s in range(n_players):
            if counts[s] >= 0 and paid[s] < (counts[s] - fewest) * rules[K.R_PAYDAY_COST]:
                eliminate_nb(s, event, K.ELIM_PAYDAY, hand, left, right, stacks, money, alive,
                              elim, pub, seat_out, log)
    ended = pub[K.PUB_PAYDAYS] >= rules[K.R_PAYDAYS_TO_END] or pub[K.PUB_N_ALIVE] <= 1
    return event, ended


@hot_flat
def _take_job_nb(s, need, gain, hand, left, money, pub, seat_out):
    """Seat ``s`` won the job: its workers go to its left area, ``gain`` to its purse."""
    job = lanes_nb(need, 0)      # read once: the stores below might alias it, as far as LLVM knows
    set_lanes_nb(hand, s, lanes_nb(hand, s) - job)
    set_lanes_nb(left, s, lanes_nb(left, s) + job)
    pub[K.PUB_HANDS] -= job
    give_up_known_nb(pub, s, job)
    seat_out[s, K.S_JOBS_WON] += 1
    money[s] += gain
    seat_out[s, K.S_JOB_INCOME] += gain


@hot_inline
def take_bid_nb(s, b, low, n_bidders, need, hand, seat_out, game_out, bids, max_bid):
    """Seat ``s``'s answer ``b`` checked (an illegal one is counted and played
    as a pass), counted and written to ``bids``; returns the lowest bid and
    the number of bidders so far."""
    # a bid is legal when it passes, or is 1..max_bid with the hand covering
    # the job; checked and counted without a branch on the bid itself
    short = np.int64(b < 1) | np.int64(b > max_bid) | np.int64(not hand_covers_nb(s, need, hand))
    if b != K.PASS and short != 0:
        game_out[K.G_ILLEGAL] += 1
        b = K.PASS
    bids[s] = b
    bid = np.int64(b != K.PASS)
    n_bidders += bid
    seat_out[s, K.S_BIDS] += bid
    seat_out[s, K.S_BID_SUM] += b
    # a pass lands on the bid sum's column and adds nothing to it
    seat_out[s, K.S_BID_HIST - 1 + min(b, K.BID_BINS)] += bid
    low = min(low, b + (1 - bid) * (max_bid + 1))
    return low, n_bidders


def _seat_bid(s, low, n_bidders, need, roster, strat_ids, strat_params, hand, left, right, stacks, money,
              alive, demand, pub, rules, rng, seat_out, game_out, bids, max_bid):
    """Seat ``s``'s sealed bid, checked, counted and written to ``bids``;
    returns the lowest bid and the number of bidders so far."""
    bids[s] = -1
    if alive[s] != 0:
        b = bid_nb(roster, strat_ids[s], s, need, strat_params[s], hand, left, right, stacks, money,
                   alive, demand, pub, rules, rng)
        low, n_bidders = take_bid_nb(s, b, low, n_bidders, need, hand, seat_out, game_out, bids, max_bid)
    return low, n_bidders


# one seat's bid, compiled two ways (see bids_nb): copied into the caller's
# numba IR, or typed once and copied in by LLVM at each of its call sites
_seat_bid_nb = hot_inline(_seat_bid)
_seat_flat_bid_nb = hot_flat(_seat_bid)


def bids_nb(n_players, need, roster, strat_ids, strat_params, hand, left, right, stacks, money, alive, demand,
            pub, rules, rng, seat_out, game_out, bids, max_bid):
    """Every seat's sealed bid for a job, written to ``bids``; returns the
    lowest bid and the number of bidders.

    Compiled for the roster. A roster of one strategy asks the seats in a
    loop. A roster of several, compiled for its number of players, asks each
    seat at a call site of its own: in each copy the seat is a constant, so
    the branch over the strategies at that site always goes the same way for
    a table (one loop's branch sees the seats' strategies take turns) and the
    strategy's code reads its rows at fixed offsets. The copies are LLVM's
    (``hot_flat``): numba types the branch over every strategy once, where
    copying it into the game's IR at each seat made a cold compile of the
    eight bots' kernel twice as long (docs/performance.md, twelfth round)."""
    raise TypeError("bids_nb runs inside a numba kernel")


def _bids_in_a_loop(n_players, need, roster, strat_ids, strat_params, hand, left, right, stacks, money, alive,
                    demand, pub, rules, rng, seat_out, game_out, bids, max_bid):
    low = max_bid + 1
    n_bidders = 0
    for s in range(n_players):
        low, n_bidders = _seat_bid_nb(s, low, n_bidders, need, roster, strat_ids, strat_params, hand, left,
                                      right, stacks, money, alive, demand, pub, rules, rng, seat_out, game_out,
                                      bids, max_bid)
    return low, n_bidders


def _bids_seat_by_seat(n_players, need, roster, strat_ids, strat_params, hand, left, right, stacks, money,
                       alive, demand, pub, rules, rng, seat_out, game_out, bids, max_bid):
    # n_players is a constant here (seats_nb of a roster for a table size)
    low, n_bidders = _seat_flat_bid_nb(0, max_bid + 1, 0, need, roster, strat_ids, strat_params, hand, left,
                                       right, stacks, money, alive, demand, pub, rules, rng, seat_out,
                                       game_out, bids, max_bid)
    low, n_bidders = _seat_flat_bid_nb(1, low, n_bidders, need, roster, strat_ids, strat_params, hand, left,
                                       right, stacks, money, alive, demand, pub, rules, rng, seat_out,
                                       game_out, bids, max_bid)
    if n_players > 2:
        low, n_bidders = _seat_flat_bid_nb(2, low, n_bidders, need, roster, strat_ids, strat_params, hand,
                                           left, right, stacks, money, alive, demand, pub, rules, rng,
                                           seat_out, game_out, bids, max_bid)
    if n_players > 3:
        low, n_bidders = _seat_flat_bid_nb(3, low, n_bidders, need, roster, strat_ids, strat_params, hand,
                                           left, right, stacks, money, alive, demand, pub, rules, rng,
                                           seat_out, game_out, bids, max_bid)
    return low, n_bidders


@overload(bids_nb, inline="always")
def _bids_for(n_players, need, roster, strat_ids, strat_params, hand, left, right, stacks, money, alive,
              demand, pub, rules, rng, seat_out, game_out, bids, max_bid):
    if not isinstance(roster, RosterType):
        return None
    # a roster that calls its dispatch (the suite's kernel of every strategy,
    # built to compile fast) or plays any number of seats keeps the loop
    if len(roster.sids) == 1 or roster.calls or not roster.seats:
        return _bids_in_a_loop
    return _bids_seat_by_seat


@hot_inline
def job_nb(job, need, event, roster, strat_ids, strat_params, hand, left, right, stacks, money, alive,
            elim, demand, pub, rules, rng, seat_out, game_out, scratch, log, max_bid):
    """Sealed bids for ``job``, the award and its payments; returns the event counter."""
    n_players = seats_nb(roster, hand.shape[0])
    bids = scratch[:n_players]
    low, n_bidders = bids_nb(n_players, need, roster, strat_ids, strat_params, hand, left, right, stacks, money,
                             alive, demand, pub, rules, rng, seat_out, game_out, bids, max_bid)
    return award_nb(n_players, job, need, bids, low, n_bidders, event, hand, left, right, stacks, money, alive,
                    elim, pub, rules, seat_out, game_out, log)


@hot_inline
def award_nb(n_players, job, need, bids, low, n_bidders, event, hand, left, right, stacks, money, alive, elim,
             pub, rules, seat_out, game_out, log):
    """The award of ``job`` once every bid is in ``bids`` (``low``: the
    lowest, ``n_bidders``: how many did not pass), with its payments;
    returns the event counter."""
    pub[K.PUB_JOBS_SINCE] += 1
    pub[K.PUB_LAST_PAYDAY] = 0
    if log is not None:
        log_values_nb(log, LOG_BIDS, 1, job, 0, bids, n_players)
    if n_bidders == 0:
        game_out[K.G_JOBS_NO_BID] += 1
        if log is not None:
            event_nb(log, LOG_AWARD, 2, job, 0, 0)
        return event
    if n_bidders == 1:
        game_out[K.G_JOBS_ONE_BID] += 1
    n_win = 0
    winner = 0
    for s in range(n_players):
        won = np.int64(bids[s] == low)
        n_win += won
        winner += won * (s - winner)      # the last seat with the lowest bid
    amount = low if n_win == 1 else low - rules[K.R_TIE_DISCOUNT]
    if n_win > 1:
        game_out[K.G_JOBS_TIED] += 1
    if log is not None:
        log_award_nb(log, job, amount, bids, low, n_win)
    if n_win == 1:
        # almost every award: one winner, and no loop whose branch on
        # "did this seat win?" the CPU would mispredict
        _take_job_nb(winner, need, amount, hand, left, money, pub, seat_out)
        return event
    for s in range(n_players):
        if bids[s] == low:
            _take_job_nb(s, need, amount if amount >= 0 else 0, hand, left, money, pub, seat_out)
    if amount >= 0:
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
                eliminate_nb(s, event, K.ELIM_TIE_BID, hand, left, right, stacks, money, alive,
                              elim, pub, seat_out, log)
    return event


@hot
def penalty_nb(seat, excess, event, hand, left, right, stacks, money, alive, elim, pub,
                seat_out, scratch, log):
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
    if log is not None:
        log_values_nb(log, LOG_PENALTY, 2, seat, excess, paid, n_players)
    if -paid[seat] < due:
        event += 1
        eliminate_nb(seat, event, K.ELIM_PENALTY, hand, left, right, stacks, money, alive, elim,
                      pub, seat_out, log)
    return event


@hot_inline
def rank_key_nb(in_game, eliminated, money, owned, table):
    """A number that orders the seats as the ranking does, the higher the
    better: a seat still in above every seat out; among those in, more
    money, then fewer cards owned, then fewer of them on the table; among
    those out, the later elimination. (Money stays far below 2**29 and a
    seat owns fewer than 1024 cards, so the fields never overlap.)"""
    playing = (np.int64(1) << 50) + (money << 20) + ((1023 - owned) << 10) + (1023 - table)
    a = np.int64(in_game != 0)
    return a * playing + (1 - a) * eliminated


@hot_flat
def rank_nb(n_players, hand, left, right, money, alive, elim, seat_out, keys):
    """Each seat's place, one plus the seats that rank strictly above it,
    counted without a branch (which of two seats ranks higher is a coin
    flip to the CPU); ``keys`` is scratch room for a key per seat."""
    for s in range(n_players):
        table = lanes_sum_nb(lanes_nb(left, s) + lanes_nb(right, s))
        owned = table + lanes_sum_nb(lanes_nb(hand, s))
        seat_out[s, K.S_MONEY] = money[s]
        seat_out[s, K.S_FINAL_CARDS] = owned
        seat_out[s, K.S_FINAL_TABLE] = table
        keys[s] = rank_key_nb(alive[s], elim[s], money[s], owned, table)
    for s in range(n_players):
        above = 0
        for o in range(n_players):
            above += np.int64(keys[o] > keys[s])
        seat_out[s, K.S_PLACE] = 1 + above


@hot_flat
def lead_nb(n_players, money, alive, leader, game_out):
    """The sole money leader among the seats still in (``leader`` if there is
    none); counts a lead change when it differs from the previous one.

    Called every turn, so it is written without data-dependent branches: a
    mispredicted branch per seat was a sixth of a game's time."""
    best = -1
    top = -1
    ties = 0
    for s in range(n_players):
        a = alive[s]
        v = money[s] * a + a - 1       # money is never negative; a seat out counts -1
        gt = np.int64(v > top)
        top += gt * (v - top)
        best += gt * (s - best)
        ties = (1 - gt) * (ties + np.int64(v == top))   # seats level with the top, reset by a new one
    if ties != 0 or best < 0 or best == leader:
        return leader
    if leader >= 0:
        game_out[K.G_LEAD_CHANGES] += 1
    return best
