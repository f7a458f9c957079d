"""Shared fixtures: the default deck and a few matchups every test can reuse."""
from __future__ import annotations

import pytest

from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules

#: the rule sets every game-by-game comparison runs under
VARIANTS = {
    "default": {},
    "penalize": {"over_cap": "penalize"},
    "counts_table": {"payday_counts_table": True},
}


def field(players: int) -> list[str]:
    """A mixed field: simple and random alternate, so both bidders and the
    penalty (which only random walks into) are exercised."""
    return [("simple", "random")[s % 2] for s in range(players)]


@pytest.fixture(scope="session")
def deck():
    return default_deck()


@pytest.fixture(scope="session")
def rules():
    return Rules()
