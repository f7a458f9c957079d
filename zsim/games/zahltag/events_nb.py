"""The fast engine's event log: the int codes a recording game appends.

Each event is ``[code, length of payload, payload...]`` in an int64 array
whose slot 0 holds the next free position; ``records.py`` turns a log into
the JSON-lines game record.
"""
from __future__ import annotations

from zsim.games.zahltag import constants as K
from zsim.jit import hot, hot_flat, hot_inline

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

SHUFFLE_IN_A_ROW = 0
SHUFFLE_FORCED = 1


# Every writer below is a ``hot`` kernel of its own, called by the engine only
# under ``if log is not None:``. Inlined, the logging was most of the engine's
# numba IR and about 60% of its cold compile (docs/performance.md); out of line
# it is compiled once, and only for a game that records: the batch passes no
# log, and numba drops those blocks from its game before typing.
@hot_flat
def emit_nb(log, value):
    """Append one int to the log (slot 0 holds the next free position; past
    the end only the position moves, so the caller can see the log was short)."""
    pos = log[0]
    if pos < log.shape[0]:
        log[pos] = value
    log[0] = pos + 1


@hot
def event_nb(log, code, n, a, b, c):
    """Append a short event: ``code``, ``n`` and the first ``n`` (1..3) of ``a, b, c``."""
    emit_nb(log, code)
    emit_nb(log, n)
    emit_nb(log, a)
    if n > 1:
        emit_nb(log, b)
    if n > 2:
        emit_nb(log, c)


@hot
def log_deck_nb(log, code, reason, deck, lo, hi):
    """The deck from ``lo`` to ``hi``: a LOG_DECK, or a LOG_SHUFFLE with its reason."""
    emit_nb(log, code)
    if code == LOG_SHUFFLE:
        emit_nb(log, hi - lo + 1)
        emit_nb(log, reason)
    else:
        emit_nb(log, hi - lo)
    for i in range(lo, hi):
        emit_nb(log, deck[i])


@hot
def log_deal_nb(log, hand, stacks):
    """LOG_DEAL: every seat's dealt hand, then the stacks left."""
    n_players = hand.shape[0]
    emit_nb(log, LOG_DEAL)
    emit_nb(log, (n_players + 1) * K.N_TYPES)
    for s in range(n_players):
        for t in range(K.N_TYPES):
            emit_nb(log, hand[s, t])
    for t in range(K.N_TYPES):
        emit_nb(log, stacks[t])


@hot
def log_finish_nb(log, seat, right, left):
    """The seat's right area going to its hand and its left area moving right."""
    emit_nb(log, LOG_FINISH)
    emit_nb(log, 1 + 2 * K.N_TYPES)
    emit_nb(log, seat)
    for t in range(K.N_TYPES):
        emit_nb(log, right[seat, t])
    for t in range(K.N_TYPES):
        emit_nb(log, left[seat, t])


@hot
def log_values_nb(log, code, n_head, a, b, values, n):
    """``code``, then ``n_head`` (1 or 2) of ``a, b``, then ``values[:n]``:
    LOG_BIDS (job; bids), LOG_PENALTY (seat, excess; paid) and LOG_PAYDAY
    (number; counts and paid, side by side in the engine's scratch)."""
    emit_nb(log, code)
    emit_nb(log, n_head + n)
    emit_nb(log, a)
    if n_head > 1:
        emit_nb(log, b)
    for i in range(n):
        emit_nb(log, values[i])


@hot
def log_award_nb(log, job, amount, bids, low, n_win):
    """LOG_AWARD: the job, the amount each winner gets, and the winners (the seats bidding ``low``)."""
    emit_nb(log, LOG_AWARD)
    emit_nb(log, 2 + n_win)
    emit_nb(log, job)
    emit_nb(log, amount)
    for s in range(bids.shape[0]):
        if bids[s] == low:
            emit_nb(log, s)
