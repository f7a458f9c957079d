"""The fast engine and the reference engine play the same games.

10,000 games per player count and rule variant go through both engines with
the same seeds and strategies; every seat's outcome (money, place, jobs,
payments, elimination) and every game's figures must agree game by game.
The reference engine is slow, so the games are spread over the cores and
start with the session, in the background (conftest.Background).
"""
from __future__ import annotations

import numpy as np
import pytest

from conftest import VARIANTS, field
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules
from zsim.harness.chunks import Matchup, play_chunk

GAMES = 10_000
SEED = 20261129
STEP = 500


def _reference_block(args):
    players, overrides, first, n = args
    from zsim.games.zahltag.reference import play_reference

    rules, deck = Rules().with_overrides(overrides), default_deck()
    seats, games = [], []
    for g in range(first, first + n):
        r = play_reference(players, rules, deck, field(players), SEED, g)
        seats.append(r.seat_stats)
        games.append(r.game_stats)
    return np.stack(seats), np.stack(games)


def _blocks(players, variant):
    """The reference games of one test: (key, block function, its arguments)."""
    return (("zahltag-equivalence", players, variant), _reference_block,
            [(players, VARIANTS[variant], first, STEP) for first in range(0, GAMES, STEP)])


def start_in_background(background, items):
    for item in items:
        if item.originalname == "test_fast_engine_equals_reference":
            background.submit_blocks(*_blocks(item.callspec.params["players"], item.callspec.params["variant"]))


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_engine_equals_reference(players, variant, background):
    overrides = VARIANTS[variant]
    m = Matchup(players, tuple(field(players)), Rules().with_overrides(overrides))
    fast_seats, fast_games = play_chunk(m, SEED, 0, GAMES)
    blocks = background.blocks(*_blocks(players, variant))
    ref_seats = np.concatenate([b[0] for b in blocks])
    ref_games = np.concatenate([b[1] for b in blocks])
    bad = np.flatnonzero((fast_seats != ref_seats).any(axis=(1, 2)) | (fast_games != ref_games).any(axis=1))
    assert bad.size == 0, f"games {bad[:10].tolist()} differ (seed {SEED})"
    # the comparison must have covered the rules it is meant to cover
    assert fast_games[:, 1].min() >= 1  # paydays happen
    assert (fast_seats[:, :, 7] > 0).any() or variant != "penalize"  # someone goes out
    if variant == "penalize":
        assert fast_seats[:, :, 5].sum() > 0  # penalties were paid
