"""``first``: always the first option, the lowest playable card (deterministic)."""
from __future__ import annotations

from strategies.zahlemann._card_odds import card_of_nb
from zsim.jit import hot_inline

NAME = "first"
DESCRIPTION = "always the lowest playable card; plays every drawn match and every bonus"
PARAMS = ()
FAIR = True


@hot_inline
def decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng):
    """The lowest card of ``options`` (never keep or stop); draws nothing."""
    return card_of_nb(options & -options)
