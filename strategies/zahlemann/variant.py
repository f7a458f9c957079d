"""``variant``: plays the variants' effects on purpose, else sheds.

Every option is scored in value points saved, ``cost(hand now) - cost(hand
after)``, where a hand's cost is its value plus ``size_weight`` per card
(each card is a turn still to go); keeping a drawn match or stopping a bonus
scores 0. On top of a plain card's ``value + size_weight``:

- ``one_plays_again``: a 1 with a follow-up in hand (a card matching the 1)
  also counts the best follow-up it will play at once, plus ``chain``; a 1
  without one counts ``chain`` less, so it is kept for a double play later.
- ``fifty_skips``: a 50 counts 100 more when the player it skips holds at
  most ``skip_at`` cards (spent to stop a rival about to go out).
- ``two_passes_hands``: a 2 is worth ``cost(hand now) - cost(hand
  received)``; the hand received comes from the right neighbour, its size is
  public and its cards are guessed at the mean unknown value (with two
  players, the cards the seat passed them and has not seen again are known).
  A 2 that would hand the next player a single card matching it (so they go
  out at once) counts 100 less.

All three are off by default; with none on, ``variant`` is a shedder that
prefers cards by value alone.
"""
from __future__ import annotations

from strategies.zahlemann._card_odds import (
    card_of_nb,
    hand_value_nb,
    highest_nb,
    matching_nb,
    passes_nb,
    popcount_nb,
    unknown_nb,
    value_nb,
)
from zsim.games.zahlemann import constants as K
from zsim.jit import hot, hot_inline, seat_after_nb
from zsim.strategy import Param

NAME = "variant"
DESCRIPTION = ("uses the variants: saves a 1 for a double play, skips a rival about to go out, "
               "passes a dear hand")
PARAMS = (
    Param("chain", 5.0, 0.0, 50.0, "value points for a 1 that plays again (taken off a 1 that cannot)"),
    Param("skip_at", 2.0, 0.0, 10.0,
          "a 50 is spent first when the player it skips holds this many cards or fewer"),
    Param("size_weight", 10.0, 0.0, 50.0, "value points per card in a hand's cost (the 2-passes-hands sum)"),
    Param("hold50", 0.0, 0.0, 100.0,
          "value points taken off a 50 while the player it would skip holds more cards"),
)
FAIR = True


@hot
def _received_cost_nb(seat, hands, passed, unknown, n, size_weight):
    """The expected cost of the hand the right neighbour passes on."""
    prev = n - 1 if seat == 0 else seat - 1
    size = popcount_nb(hands[prev])
    known = passed[seat] & unknown if prev == seat_after_nb(seat, n) else 0
    rest = unknown & ~known
    guess = hand_value_nb(known)
    if rest != 0:
        guess += (size - popcount_nb(known)) * hand_value_nb(rest) / popcount_nb(rest)
    return guess + size_weight * size


@hot
def _score_nb(seat, card, bit, hand, hands, passed, unknown, pub, rules, params):
    size_weight = params[3]
    value = value_nb(card)
    rest = hand & ~bit
    if passes_nb(card, rules):
        if rest == 0:                    # going out: no pass
            return 1000.0
        score = hand_value_nb(hand) + size_weight * popcount_nb(hand) \
            - _received_cost_nb(seat, hands, passed, unknown, hands.shape[0], size_weight)
        if rest & (rest - 1) == 0 and rest & matching_nb(card) != 0:
            score -= 100.0
        return score
    score = value + size_weight
    if card // K.N_COLOURS == K.V1 and rules[K.R_ONE_PLAYS_AGAIN] != 0:
        follow = rest & matching_nb(card)
        if follow != 0:
            score += value_nb(highest_nb(follow)) + size_weight + params[1]
        else:
            score -= params[1]
    elif card // K.N_COLOURS == K.V50 and rules[K.R_FIFTY_SKIPS] != 0:
        if popcount_nb(hands[seat_after_nb(seat, hands.shape[0])]) <= params[2]:
            score += 100.0
        else:
            score -= params[4]
    return score


@hot_inline
def decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng):
    """The best-scored option; keep or stop when that beats every option."""
    if rules[K.R_ONE_PLAYS_AGAIN] == 0 and rules[K.R_FIFTY_SKIPS] == 0 and rules[K.R_TWO_PASSES_HANDS] == 0:
        # no variant on: every option scores value + size_weight (> 0, so a
        # drawn match is played), and the dearest, first in card order, wins
        return highest_nb(options)
    hand = hands[seat]
    # the unknown cards weigh only in a passing 2's score (two_passes_hands)
    unknown = unknown_nb(seat, hands, discards, pub) if rules[K.R_TWO_PASSES_HANDS] != 0 else 0
    best = -1
    best_score = 0.0 if kind != K.D_PLAY else -1e300
    x = options
    while x != 0:
        bit = x & -x
        x ^= bit
        card = card_of_nb(bit)
        score = _score_nb(seat, card, bit, hand, hands, passed, unknown, pub, rules, params)
        if score > best_score:
            best, best_score = card, score
    return best
