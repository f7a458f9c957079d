"""The fast engine's per-card log (``batch.play_cards``) against the reference engine's record.

For every game the reference engine plays with the compiled strategies
(``reference_kernels.play_reference_game(record=True)``), the record is read
card by card: its last ``award`` with a winner gives the price, the buyer,
the turn (the ``turn`` event before it) and the stack (the ``auction``
event before it), the awards with a winner how often it was sold; builds
move it into a city, a destroying ``sabotage`` back to a stack. The fast
log must agree on every card of every game, and its seat and game rows must
be those of the plain batch (``play_into``) for the same games.
"""
from __future__ import annotations

import numpy as np
import pytest

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.cards import default_deck
from zsim.games.baumeister.rules import Rules

SEED = 20261203
CASES = {  # name -> (rule overrides, players, strategies, games)
    "default": ({}, 4, ["first", "random", "random", "first"], 150),
    "any": ({"saboteur": "any"}, 3, ["random", "first", "random"], 150),
    "tight": ({"start_money": 0, "max_bid": 6, "saboteurs": 2, "max_turns": 30}, 2, ["random", "random"], 100),
}


def _from_record(events, n_cards: int) -> np.ndarray:
    """The log the record implies, in the fast engine's columns."""
    out = np.zeros((n_cards + 1, K.N_CARD_LOG), np.int64)
    out[1:, K.CL_BUYER] = out[1:, K.CL_STACK] = out[1:, K.CL_OWNER] = -1
    where = {c: (K.CE_STACK, -1) for c in range(1, n_cards + 1)}
    turn, stack = 0, -1
    for e in events:
        kind = e["e"]
        if kind == "turn":
            turn = e["turn"]
        elif kind == "auction":
            stack = K.STACK_OPEN if e["stack"] == "open" else K.STACK_HIDDEN
        elif kind == "award" and e["winner"] is not None:
            c = e["card"]
            out[c, K.CL_PRICE], out[c, K.CL_TURN], out[c, K.CL_BUYER] = e["price"], turn, e["winner"]
            out[c, K.CL_STACK] = stack
            out[c, K.CL_TIMES] += 1
            where[c] = (K.CE_HAND, e["winner"])
        elif kind == "build":
            for _, c in e["placed"]:
                where[c] = (K.CE_CITY, e["seat"])
        elif kind == "sabotage" and e["outcome"] == "destroyed":
            where[e["card"]] = (K.CE_STACK, -1)
    for c, (end, owner) in where.items():
        out[c, K.CL_END], out[c, K.CL_OWNER] = end, owner
    out[0] = 0
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_the_card_log_agrees_with_the_reference_record(name):
    from zsim.games.baumeister.batch import play_cards, play_into
    from zsim.games.baumeister.reference_kernels import play_reference_game
    from zsim.strategy_registry import strategy_arrays

    over, players, specs, games = CASES[name]
    rules, deck = Rules().with_overrides(over), default_deck()
    ids, params = strategy_arrays("baumeister", specs)
    seat, game, cards = play_cards(rules, deck, SEED, 0, games, ids, params, block=7)
    assert cards.shape == (games, deck.n + 1, K.N_CARD_LOG)
    for g in range(games):
        r = play_reference_game(players, rules, deck, specs, SEED, g, record=True)
        want = _from_record(r.events, deck.n)
        assert np.array_equal(cards[g], want), f"{name} game {g}: card log differs"
        # the log says what the seat rows say
        sold = want[1:, K.CL_TIMES] > 0
        assert int(sold.sum()) <= int(seat[g, :, K.S_CARDS_WON].sum())
        built = want[1:, K.CL_END] == K.CE_CITY
        for s in range(players):
            mine = built & (want[1:, K.CL_OWNER] == s)
            assert int(deck.arrays()[1:, K.D_VALUE][mine].sum()) == seat[g, s, K.S_BUILT]
    # the same games as the plain batch, whatever the block
    so, go = np.zeros_like(seat), np.zeros_like(game)
    play_into(rules, deck, SEED, 0, games, ids, params, so, go)
    assert np.array_equal(so, seat) and np.array_equal(go, game)
    # what the case is meant to exercise happened
    assert (cards[:, 1:, K.CL_TIMES] > 1).any() or name == "tight", "no card was sold twice"
    assert (cards[:, 1:, K.CL_END] == K.CE_HAND).any()
    if name == "tight":
        assert (game[:, K.G_END_REASON] == K.END_TURNS).any()
        assert game[:, K.G_INSOLVENCIES].sum() > 0
