"""The fast engine's event log: the int codes a recording game appends.

Each event is ``[code, length of payload, payload...]`` in an int64 array
whose slot 0 holds the next free position; ``records.py`` turns a log into
the JSON-lines game record.
"""
from __future__ import annotations

from zsim.jit import hot_inline

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


@hot_inline
def emit_nb(log, record, value):
    """Append one int to the log (a no-op when not recording)."""
    if record:
        pos = log[0]
        if pos < log.shape[0]:
            log[pos] = value
        log[0] = pos + 1


@hot_inline
def event_nb(log, record, code, n, a, b, c):
    """Append a whole short event: ``code``, ``n`` and the first ``n`` (1..3)
    of ``a, b, c``."""
    if record:
        emit_nb(log, record, code)
        emit_nb(log, record, n)
        emit_nb(log, record, a)
        if n > 1:
            emit_nb(log, record, b)
        if n > 2:
            emit_nb(log, record, c)


@hot_inline
def log_deck_nb(log, record, code, reason, deck, lo, hi):
    if record:
        if code == LOG_SHUFFLE:
            emit_nb(log, record, code)
            emit_nb(log, record, hi - lo + 1)
            emit_nb(log, record, reason)
        else:
            emit_nb(log, record, code)
            emit_nb(log, record, hi - lo)
        for i in range(lo, hi):
            emit_nb(log, record, deck[i])
