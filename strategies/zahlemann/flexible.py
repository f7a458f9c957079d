"""``flexible``: keep the hand able to answer whatever comes.

A player who cannot match draws, and every drawn card is one more to shed
and to pay for. ``flexible`` plays the card whose loss costs the hand least
*cover*: the most unknown cards (the tops it may face) that the hand left
still matches by value or colour. Each value point of the card played is
worth ``value_weight`` cards of cover, so by default value only breaks ties.
"""
from __future__ import annotations

from strategies.zahlemann._card_odds import best_shed_nb, unknown_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "flexible"
DESCRIPTION = "plays the card that leaves its hand matching the most unknown cards; value breaks ties"
PARAMS = (
    Param("value_weight", 0.01, 0.0, 1.0,
          "cards of cover one value point of the card played is worth (0.01: a tie-break)"),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng):
    """The best of ``live cover + value_weight * value``; never keeps, never stops."""
    hand = hands[seat]
    return best_shed_nb(options, hand, unknown_nb(seat, hands, discards, pub), params[1], 1.0)
