"""``counter``: play what the next player is least likely to match.

From the public discard pile and its own hand it knows which cards are still
unknown (in the other hands or the draw pile); the player who answers a card
(the next one, or the one after a skipping 50) holds as many of them as
their hand size says, and what the seat passed them this round
(``two_passes_hands``) if it has not come back. Every option is scored
``value + weight * block chance``, the chance that they cannot match it and
must draw. The weight is ``block`` value points when that player holds at
most ``alert`` cards (about to go out), ``block * calm`` otherwise.
"""
from __future__ import annotations

from strategies.zahlemann._card_odds import (
    block_chance_nb,
    card_of_nb,
    next_seat_nb,
    popcount_nb,
    unknown_nb,
    value_nb,
)
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "counter"
DESCRIPTION = "tracks the discards and hand sizes; plays what the next player is least likely to match"
PARAMS = (
    Param("alert", 2.0, 0.0, 10.0, "the next player's hand size at which blocking counts in full"),
    Param("block", 40.0, 0.0, 200.0, "value points of a sure block when the next player is on alert"),
    Param("calm", 0.25, 0.0, 1.0, "the share of `block` that counts when they hold more cards"),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng):
    """The best of ``value + weight * block chance``; never keeps, never stops."""
    hand = hands[seat]
    unknown = unknown_nb(seat, hands, discards, pub)
    best = -1
    best_score = -1e300
    x = options
    while x != 0:
        bit = x & -x
        x ^= bit
        card = card_of_nb(bit)
        weight = params[2]
        if popcount_nb(hands[next_seat_nb(seat, card, pub, rules)]) > params[1]:
            weight *= params[3]
        score = value_nb(card) + weight * block_chance_nb(seat, card, hand & ~bit, hands, passed,
                                                           unknown, pub, rules)
        if score > best_score:
            best, best_score = card, score
    return best
