"""Every registered strategy plays legal games under every rules variant.

The engine counts any decision a strategy gets wrong (an illegal take, a bid
its hand cannot cover, a bid out of range) in the game's ``G_ILLEGAL``; here
every strategy sits at every seat against a mixed field for thousands of
games and that count must stay 0, with the games ending properly.
"""
from __future__ import annotations

import numpy as np
import pytest

from conftest import VARIANTS
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.rules import Rules
from zsim.harness.chunks import Matchup, play_chunk
from zsim.strategy_registry import bots

OPPONENTS = ("random", "simple", "random")


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", sorted(s.name for s in bots()))
def test_strategy_plays_legal_complete_games(name, variant):
    rules = Rules().with_overrides(VARIANTS[variant])
    for seat in range(4):
        field = list(OPPONENTS)
        field.insert(seat, name)
        m = Matchup(4, tuple(field), rules)
        seats, games = play_chunk(m, 1234 + seat, 0, 2_000)
        assert games[:, K.G_ILLEGAL].sum() == 0
        fifth = games[:, K.G_END_REASON] == K.END_FIFTH_PAYDAY
        assert (games[fifth, K.G_PAYDAYS] == rules.paydays_to_end).all()
        survivors = (seats[:, :, K.S_ELIMINATED] == 0).sum(axis=1)
        assert (survivors[~fifth] <= 1).all()
        money = (rules.start_money + seats[:, :, K.S_JOB_INCOME] + seats[:, :, K.S_PENALTY_RECEIVED]
                 - seats[:, :, K.S_PAYDAY_PAID] - seats[:, :, K.S_PENALTY_PAID])
        np.testing.assert_array_equal(seats[:, :, K.S_MONEY], money)
        if rules.over_cap == "forbid":
            assert (seats[:, :, K.S_FINAL_CARDS] <= rules.card_cap).all()
