"""Large first builds in Baumeister's reference engine.

Whether a hand can still make a first build of up to ten cards is answered
by a search over the row's ends and the hand's count of each type
(``city.can_grow``), not over every order of the cards. Its answers are held
to a search over every card and position for small hands, and whole games
under large first builds are held to the fast engine, game by game. These
games used to take minutes each in the reference engine; that they finish
at all is part of what is tested.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_baumeister_fast import FIELDS, SEED, _differences

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.cards import default_deck
from zsim.games.baumeister.city import City
from zsim.games.baumeister.batch import reference_rows
from zsim.games.baumeister.reference import play_game
from zsim.games.baumeister.rules import Rules

DECK = default_deck()


# ---------------------------------------------------------------- the search, against every order
def every_order(city: City, hand: list[int], count: int, final_round: bool) -> bool:
    """Can ``count`` cards of ``hand`` be placed one after another? Every card at
    every legal position, in every order (small hands only)."""
    if count <= 0:
        return True
    for c, p in city.legal_placements(DECK, hand, final_round):
        nxt = city.copy()
        nxt.place(DECK, c, p)
        if every_order(nxt, [h for h in hand if h != c], count - 1, final_round):
            return True
    return False


@st.composite
def positions(draw):
    """A row built by legal placements (some removed again, as sabotage does, which
    may leave gaps), a small hand of other cards, a number of cards and the round."""
    final_round = draw(st.booleans())
    cards = draw(st.permutations(range(1, DECK.n + 1)))
    city, rest = City(), list(cards)
    for _ in range(draw(st.integers(0, 6))):
        options = city.legal_placements(DECK, rest[:6], final_round)
        if not options:
            break
        c, p = options[draw(st.integers(0, len(options) - 1))]
        city.place(DECK, c, p)
        rest.remove(c)
    for _ in range(draw(st.integers(0, 2))):
        if city.cards:
            city.remove(draw(st.sampled_from(sorted(city.cards))))
    hand = rest[:draw(st.integers(0, 6))]
    return city, hand, draw(st.integers(0, 6)), final_round


@settings(max_examples=50, deadline=None)
@given(positions())
def test_the_search_answers_as_every_order_does(case):
    city, hand, count, final_round = case
    assert city.can_place(DECK, hand, count, final_round) == every_order(city, hand, count, final_round)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from([1, 2, 7, 8, 9, 17, 18, 27, 28, 33, 34, 35]), min_size=2, max_size=6, unique=True),
       st.integers(2, 6), st.booleans())
def test_first_builds_of_few_types_answer_as_every_order_does(hand, count, final_round):
    # corner towers, towers, gates, town halls and churches, few of each: the hands
    # where kin and the one-corner and one-hall rules decide
    assert City().can_place(DECK, hand, count, final_round) == every_order(City(), hand, count, final_round)


def test_long_first_builds_are_found_or_ruled_out():
    towers, gates, churches = [7, 8, 9, 10, 11, 12], [17, 18, 19, 20], [33, 34, 35]
    assert City().can_place(DECK, towers + gates + [27], 10, False)       # tower, gate, ..., town hall
    assert not City().can_place(DECK, towers + gates, 10, False)          # two towers side by side
    # corner tower, gate, church, ..., gate, corner tower: the second corner only in the final round
    assert City().can_place(DECK, [1, 2] + gates + churches, 9, True)
    assert not City().can_place(DECK, [1, 2] + gates + churches, 9, False)
    assert City().can_place(DECK, [1, 2] + gates + churches, 8, False)


# ---------------------------------------------------------------- whole games, against the fast engine
LARGE = {
    "ten": {"first_build_min": 10, "max_cards_per_build": 10},
    "eight_of_nine": {"first_build_min": 8, "max_cards_per_build": 9, "saboteur": "any"},
    "six_of_ten": {"first_build_min": 6, "max_cards_per_build": 10, "overbid": "forbid"},
}
GAMES = 12


@pytest.mark.parametrize("name", list(LARGE))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_large_first_builds_play_the_fast_engines_games(players, name):
    from zsim.harness.chunks import Matchup, play_chunk

    rules = Rules().with_overrides(LARGE[name])
    fs, fg = play_chunk(Matchup(players, tuple(FIELDS[players]), rules, DECK, game="baumeister"), SEED, 0, GAMES)
    rows = [reference_rows(play_game(players, rules, FIELDS[players], SEED, g, DECK)) for g in range(GAMES)]
    rs, rg = np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows])
    assert fs.shape == rs.shape
    assert not _differences(fs, fg, rs, rg)
    first_builds = fs[:, :, K.SEAT_COLUMNS.index("cards_built")] >= rules.first_build_min
    assert first_builds.any()                      # some seat made its first build
