"""``random``: every decision uniform over its options (a noise floor)."""
from __future__ import annotations

from strategies.zahlemann._card_odds import card_of_nb, popcount_nb
from zsim.games.zahlemann import constants as K
from zsim.jit import hot_inline
from zsim.rng import below_nb


NAME = "random"
DESCRIPTION = "uniform over the options: any matching card, keep or play a drawn match, any bonus or stop"
PARAMS = ()
FAIR = True


@hot_inline
def decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng):
    """One ``below(n)`` from the seat's stream over the n options: the option
    cards in ascending order, then keep/stop where allowed."""
    n_cards = popcount_nb(options)
    pick = below_nb(rng, 1 + seat, n_cards if kind == K.D_PLAY else n_cards + 1)
    if pick == n_cards:
        return K.KEEP
    x = options
    for _ in range(pick):                # drop the pick lowest cards
        x &= x - 1
    return card_of_nb(x & -x)       # the index of the lowest card left
