"""``oracle`` (NOT FAIR, a labelled upper bound): ``counter`` with the hands open.

Every option scores ``value + block * calm * (counter's block chance)``
plus, reading the other hands, a weight for each rival in turn order from
the one who must answer the card who truly cannot match it, up to the first
who can: ``block`` for a rival holding at most ``alert`` cards, ``block *
calm`` otherwise (after a passing 2 it knows who then holds what). (The
certain blocks alone, without counter's chance, were no better than
``counter`` at four players in trial runs, probably because the chance also
rewards keeping live cards.) A drawn match
or a bonus card is declined when the next player is on alert, cannot match
the top in place, and the best card scores below ``block``. Same parameters
as ``counter``, so the distance between the two is what knowing the hands
is worth. Never mixed into fair results.
"""
from __future__ import annotations

from strategies.zahlemann._card_odds import (
    ONE,
    block_chance_nb,
    card_of_nb,
    matching_nb,
    next_seat_nb,
    passes_nb,
    popcount_nb,
    unknown_nb,
    value_nb,
)
from strategies.zahlemann import counter
from zsim.games.zahlemann import constants as K
from zsim.jit import hot_inline

NAME = "oracle"
DESCRIPTION = "counter reading the other hands: plays what the players after it cannot match"
PARAMS = counter.PARAMS            # the same knobs: the gap to counter is what the open hands are worth
FAIR = False


@hot_inline
def _block_score_nb(seat, card, rest, hands, pub, rules, params):
    """The weights of the rivals, in turn order from the one answering
    ``card``, who cannot match it, up to the first who can."""
    n = hands.shape[0]
    match = matching_nb(card)
    passing = passes_nb(card, rules)
    first = next_seat_nb(seat, card, pub, rules)
    score = 0.0
    for k in range(n - 1):
        s = (first + k) % n
        if s == seat:
            break
        if passing:                      # after the pass seat s holds its right neighbour's hand
            held = rest if s == (seat + 1) % n else hands[(s - 1 + n) % n]
        else:
            held = hands[s]
        if held & match != 0:
            break
        score += params[2] if popcount_nb(held) <= params[1] else params[2] * params[3]
    return score


@hot_inline
def decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng):
    """The best of ``value + block score``; keep / stop to leave a blocking top."""
    hand = hands[seat]
    n = hands.shape[0]
    unknown = unknown_nb(seat, hands, discards, pub)
    best = -1
    best_score = -1e300
    x = options
    while x != 0:
        bit = x & -x
        x ^= bit
        card = card_of_nb(bit)
        score = value_nb(card) + _block_score_nb(seat, card, hand & ~bit, hands, pub, rules, params) \
            + params[2] * params[3] * block_chance_nb(seat, card, hand & ~bit, hands, passed,
                                                      unknown, pub, rules)
        if score > best_score:
            best, best_score = card, score
    if kind != K.D_PLAY and hand & ~(ONE << best) != 0:
        nxt = (seat + 1) % n
        if (popcount_nb(hands[nxt]) <= params[1] and hands[nxt] & matching_nb(pub[K.PUB_TOP]) == 0
                and best_score < params[2]):
            return K.KEEP
    return best
