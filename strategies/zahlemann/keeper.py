"""``keeper``: a shedder that knows when not to play.

It plays its highest card when it must, but two plays are optional: a drawn
card that matches, and a bonus card after a 1 (``one_plays_again``). Either
leaves a new top for the next player; declining leaves the old one. When the
next player holds at most ``alert`` cards, ``keeper`` declines if the card is
cheap to keep (worth at most ``keep_max``) and the top it leaves blocks
them clearly better: the chance they cannot match it (as ``counter``
reckons it, from the unknown cards) is at least ``margin`` higher than for
the card. A card that empties the hand is always played.
"""
from __future__ import annotations

from strategies.zahlemann._card_odds import (
    ONE,
    block_chance_nb,
    highest_nb,
    known_next_nb,
    matching_nb,
    no_match_chance_nb,
    popcount_nb,
    unknown_nb,
    value_nb,
)
from zsim.games.zahlemann import constants as K
from zsim.jit import hot_inline, seat_after_nb
from zsim.strategy import Param

NAME = "keeper"
DESCRIPTION = ("sheds its highest card; keeps a cheap drawn match or stops a bonus when the old top "
               "blocks better")
PARAMS = (
    Param("keep_max", 5.0, 0.0, 50.0, "the dearest card it will keep (or not play as a bonus)"),
    Param("margin", 0.15, 0.0, 1.0, "how much better the old top must block the next player"),
    Param("alert", 3.0, 0.0, 10.0,
          "it declines only when the next player holds this many cards or fewer"),
)
FAIR = True


@hot_inline
def decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng):
    """Highest value; for a drawn match or a bonus, maybe keep / stop."""
    card = highest_nb(options)
    if kind == K.D_PLAY or value_nb(card) > params[1]:
        return card
    hand = hands[seat]
    rest = hand & ~(ONE << card)
    if rest == 0:
        return card
    # the old top stays if it declines: the player after it answers that
    top = pub[K.PUB_TOP]
    nxt = seat_after_nb(seat, hands.shape[0])
    if popcount_nb(hands[nxt]) > params[3]:
        return card
    unknown = unknown_nb(seat, hands, discards, pub)
    stay = no_match_chance_nb(matching_nb(top), popcount_nb(hands[nxt]),
                              known_next_nb(seat, nxt, passed, unknown), unknown)
    play = block_chance_nb(seat, card, rest, hands, passed, unknown, pub, rules)
    if stay - play >= params[2]:
        return K.KEEP
    return card
