"""The public-fact helpers strategies share (zsim/games/zahltag/facts_nb.py)."""
from __future__ import annotations

import numpy as np
import pytest

from record_tracker import Tracker
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.facts_nb import payday_chance_nb
from zsim.games.zahltag.moves_nb import lanes_of
from zsim.games.zahltag.records import record_game
from zsim.harness.chunks import Matchup


def _pub(jobs_since=0, jobs_left=20, paydays_left=4, last_payday=0, forced_at=9):
    pub = np.zeros(K.N_PUB, np.int64)
    pub[K.PUB_JOBS_SINCE] = jobs_since
    pub[K.PUB_JOBS_LEFT] = jobs_left
    pub[K.PUB_PAYDAYS_LEFT] = paydays_left
    pub[K.PUB_LAST_PAYDAY] = last_payday
    pub[K.PUB_FORCED_AT] = forced_at
    return pub


@pytest.mark.parametrize("kwargs,chance", [
    (dict(), 4 / 24),                                  # paydays among the cards left
    (dict(jobs_since=9), 1.0),                         # forced
    (dict(jobs_since=8, forced_at=8), 1.0),            # forced (two players)
    (dict(last_payday=1), 0.0),                        # would be put back
    (dict(last_payday=1, jobs_left=0), 1.0),           # ... unless only paydays remain
    (dict(jobs_left=0, paydays_left=0), 0.0),
    (dict(jobs_left=30, paydays_left=1), 1 / 31),
])
def test_payday_chance(kwargs, chance):
    assert payday_chance_nb(_pub(**kwargs)) == pytest.approx(chance)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_who_could_cover_is_never_wrong_about_a_rival(players):
    """A seat that bids on a job holds its requirement; so whenever
    ``monopolist`` bids the maximum (it believes no rival could cover), no
    other seat may have bid. ``random`` opponents bid on most jobs they can."""
    seats = ["monopolist:level=2"] + ["random"] * (players - 1)
    m = Matchup(players, tuple(seats))
    max_bid = m.rules.max_bid
    lone = contested = 0
    for g in range(60):
        for ev in record_game(m, 5, g):
            if ev["e"] != "bids" or ev["bids"][0] in (0, None):
                continue
            others = [b for b in ev["bids"][1:] if b]
            if ev["bids"][0] == max_bid:
                assert not others, (g, ev)
                lone += 1
            else:
                contested += 1
    assert lone > 20 and contested > 20


def test_counting_is_exact_with_two_players():
    """With two players ``counter`` knows the opponent's hand: it bids the
    maximum exactly when the opponent cannot cover the job."""
    m = Matchup(2, ("counter:duel=2", "random"))
    jobs = m.deck.job_dict()
    checked = 0
    for g in range(40):
        events = record_game(m, 9, g)
        tracker = Tracker(events[0])
        for ev in events[1:]:
            if ev["e"] == "bids" and ev["bids"][0]:
                need = jobs[ev["job"]]
                opponent_covers = all(tracker.hand[1][t] >= need[t] for t in range(4))
                assert (ev["bids"][0] == m.rules.max_bid) == (not opponent_covers), (g, ev)
                checked += 1
            tracker.apply(ev)
    assert checked > 50


def test_with_two_players_counting_is_as_good_as_seeing():
    """counter's knowledge is exact with two players, so it plays exactly the
    games the hand-reading oracle plays with the same parameters."""
    import numpy as np

    from zsim.harness.chunks import play_chunk

    for opponent in ("random", "simple"):
        a, _ = play_chunk(Matchup(2, ("counter:duel=2", opponent)), 3, 0, 3_000)
        b, _ = play_chunk(Matchup(2, ("oracle:duel=2", opponent)), 3, 0, 3_000)
        np.testing.assert_array_equal(a, b)
    c, _ = play_chunk(Matchup(3, ("counter:duel=2", "random", "random")), 3, 0, 3_000)
    d, _ = play_chunk(Matchup(3, ("oracle:duel=2", "random", "random")), 3, 0, 3_000)
    assert (c != d).any()  # with three players the bounds are not exact


def test_opponent_bounds_on_a_hand_made_state():
    """Three players, seat 0 deciding. Seat 1 holds 5 cards and is known to
    hold 2 F; seat 2 holds 3 cards, known 1 W. Hidden from seat 0: the
    opponents' combined hands, F 3, W 3, C 1, E 1 (supply minus stacks,
    tables and its own hand)."""
    from zsim.games.zahltag.facts_nb import could_cover_nb, opponent_max_nb, rivals_who_could_cover_nb
    from zsim.games.zahltag.rules import Rules

    rules = Rules().as_array()
    hand = np.array([[1, 1, 1, 1], [3, 1, 1, 0], [0, 2, 0, 1]], np.int16)
    left = np.zeros((3, 4), np.int16)
    right = np.zeros((3, 4), np.int16)
    supply = np.array(K.DEFAULT_SUPPLY)
    stacks = (supply - hand.sum(axis=0)).astype(np.int16)
    alive = np.ones(3, np.int64)
    pub = _pub()
    pub[K.PUB_KNOWN + 1] = lanes_of([2, 0, 0, 0])   # seat 1: at least 2 F
    pub[K.PUB_KNOWN + 2] = lanes_of([0, 1, 0, 0])   # seat 2: at least 1 W
    pub[K.PUB_HANDS] = lanes_of(hand.sum(axis=0))   # nothing on the tables: the supply less the stacks

    def most(o, t):
        return opponent_max_nb(0, o, t, hand, left, right, stacks, alive, pub, rules)

    # seat 1: by size 5 - 0 = 5 F, by pool 3 F (seat 2 need hold none): 3
    assert most(1, 0) == 3
    # seat 1 W: by size 5 - 2 (its known F) = 3, by pool 3 - 1 (seat 2's known W) = 2
    assert most(1, 1) == 2
    # seat 2 F: by size 3 - 1 = 2, by pool 3 - 2 = 1
    assert most(2, 0) == 1
    # every bound holds the truth
    for o in (1, 2):
        for t in range(4):
            assert most(o, t) >= hand[o, t]
    two_f = np.array([2, 0, 0, 0], np.int16)
    assert could_cover_nb(0, 1, two_f, hand, left, right, stacks, alive, pub, rules)
    assert not could_cover_nb(0, 2, two_f, hand, left, right, stacks, alive, pub, rules)
    assert rivals_who_could_cover_nb(0, two_f, hand, left, right, stacks, alive, pub, rules) == 1
    four_cards = np.array([1, 1, 1, 1], np.int16)  # seat 2 holds only 3 cards
    assert not could_cover_nb(0, 2, four_cards, hand, left, right, stacks, alive, pub, rules)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rival_count_is_could_cover_asked_of_each_rival(players):
    """``rivals_who_could_cover_nb`` reckons its count from shared sums of
    lanes, without asking ``could_cover_nb`` rival by rival: on
    random deals (hands and tables from the shuffled supply, what each seat
    must hold, seats out, needs) both give the same count."""
    from zsim.games.zahltag.facts_nb import could_cover_nb, rivals_who_could_cover_nb
    from zsim.games.zahltag.rules import Rules

    rules = Rules().as_array()
    supply = rules[K.R_SUPPLY:K.R_SUPPLY + 4]
    rng = np.random.default_rng(players)
    left = np.zeros((players, 4), np.int16)
    counts = np.zeros(players, np.int64)
    for _ in range(3_000):
        pile = rng.permutation(np.repeat(np.arange(4), supply))
        hand = np.zeros((players, 4), np.int16)
        right = np.zeros((players, 4), np.int16)
        dealt = 0
        for s in range(players):
            for area, most in ((hand, 9), (right, 3)):
                n = int(rng.integers(0, most))
                np.add.at(area[s], pile[dealt:dealt + n], 1)
                dealt += n
        stacks = (supply - hand.sum(axis=0) - right.sum(axis=0)).astype(np.int16)
        alive = (rng.random(players) < 0.85).astype(np.int64)
        seat = int(rng.integers(players))
        alive[seat] = 1
        pub = _pub()
        pub[K.PUB_HANDS] = lanes_of(hand.sum(axis=0))   # the supply less the stacks and the tables
        for s in range(players):
            pub[K.PUB_KNOWN + s] = lanes_of(rng.integers(0, hand[s] + 1))
        need = (rng.integers(0, 4, 4) * (rng.random(4) < 0.6)).astype(np.int16)
        asked = sum(bool(could_cover_nb(seat, o, need, hand, left, right, stacks, alive, pub, rules))
                    for o in range(players) if o != seat and alive[o])
        got = rivals_who_could_cover_nb(seat, need, hand, left, right, stacks, alive, pub, rules)
        assert got == asked, (hand, right, alive, seat, pub, need)
        counts[got] += 1
    assert (counts[:players] > 50).all(), counts     # every count from none to all the rivals


def test_legal_adjusts_holds_exactly_the_codes_is_legal_allows():
    """The mask ``random`` weighs its adjustments by holds exactly the codes
    the engine's ``is_legal_adjust_nb`` allows: on random states, in the
    setup and in play, with the card cap penalized or enforced."""
    from zsim.games.zahltag.moves_nb import is_legal_adjust_nb, legal_adjusts_nb
    from zsim.games.zahltag.rules import Rules

    rng = np.random.default_rng(7)
    seen = set()
    for penalize in (False, True):
        rules = Rules().with_overrides({"over_cap": "penalize" if penalize else "forbid",
                                        "card_cap": 12}).as_array()
        for _ in range(2_000):
            hand = (rng.integers(0, 4, (3, 4)) * (rng.random((3, 4)) < 0.7)).astype(np.int16)
            left = rng.integers(0, 3, (3, 4)).astype(np.int16)
            right = rng.integers(0, 3, (3, 4)).astype(np.int16)
            stacks = (rng.integers(0, 3, 4) * (rng.random(4) < 0.7)).astype(np.int16)
            seat, in_setup = int(rng.integers(3)), bool(rng.random() < 0.5)
            mask = legal_adjusts_nb(seat, hand, left, right, stacks, rules, in_setup)
            legal = [is_legal_adjust_nb(seat, act, hand, left, right, stacks, rules, in_setup)
                     for act in range(K.N_ACTIONS)]
            assert [bool((mask >> act) & 1) for act in range(K.N_ACTIONS)] == legal
            assert mask >> K.N_ACTIONS == 0
            seen.add(int(mask) & 0b11110)            # which takes the cap and the stacks allowed
    assert len(seen) == 16                          # every combination of takes allowed and refused


def test_lane_sums_and_covers_hold_the_count_by_count_answers():
    """A hand of four counts as lanes: its sum is the counts' sum, its
    nonzero lanes are the types it holds, and it covers a need exactly when
    every count is at least the need's, on random
    counts up to a full supply (60) and needs up to the largest (60)."""
    from zsim.games.zahltag.moves_nb import lanes_cover_nb, lanes_nonzero_nb, lanes_sum_nb

    rng = np.random.default_rng(11)
    covered = 0
    for _ in range(3_000):
        have = rng.integers(0, 61, 4) * (rng.random(4) < 0.8)
        need = rng.integers(0, 61, 4) * (rng.random(4) < 0.5)
        need = np.where(rng.random(4) < 0.5, np.minimum(need, have), need)   # many that fit
        h, n = lanes_of(have), lanes_of(need)
        assert lanes_sum_nb(h) == have.sum()
        assert lanes_nonzero_nb(h) == sum(1 << t for t in range(4) if have[t] > 0)
        fits = bool((have >= need).all())
        assert lanes_cover_nb(h, n) == fits, (have, need)
        covered += fits
    assert 500 < covered < 2_500                 # both answers often


def test_lanes_less_floored_is_each_count_less_the_other_but_never_below_zero():
    """What a seat must hold drops by what it gives up, type by type, never
    below 0: on random counts below 0x8000, often giving up more than known."""
    from zsim.games.zahltag.moves_nb import lanes_less_floored_nb

    rng = np.random.default_rng(4)
    floored = 0
    for _ in range(3_000):
        have = rng.integers(0, 0x8000, 4) * (rng.random(4) < 0.7)
        less = np.where(rng.random(4) < 0.5, rng.integers(0, 0x8000, 4), rng.integers(0, 4, 4))
        got = lanes_less_floored_nb(lanes_of(have), lanes_of(less))
        assert got == lanes_of(np.maximum(have - less, 0)), (have, less)
        floored += bool((less > have).any())
    assert 500 < floored < 2_900                  # and often not


def test_the_opponents_combined_hand_is_the_supply_less_stacks_tables_and_own_hand():
    """``opponents_hand_nb`` reads every hand's cards from ``pub[PUB_HANDS]``
    (as the engine keeps it) less the seat's own: on random deals into
    hands and table areas that is the supply less the stacks, every table
    area and the seat's hand, type by type. (That the engine keeps the slot
    right is the fast-against-reference test's: ``simple`` bids by it.)"""
    from zsim.games.zahltag.moves_nb import opponents_hand_nb
    from zsim.games.zahltag.rules import Rules

    rules = Rules().as_array()
    supply = rules[K.R_SUPPLY:K.R_SUPPLY + 4]
    rng = np.random.default_rng(2)
    for players in (2, 3, 4):
        for _ in range(200):
            hand = np.zeros((players, 4), np.int16)
            left = np.zeros((players, 4), np.int16)
            right = np.zeros((players, 4), np.int16)
            pile = rng.permutation(np.repeat(np.arange(4), supply))
            dealt = 0
            for s in range(players):
                for area, most in ((hand, 10), (left, 4), (right, 4)):
                    n = int(rng.integers(0, most))
                    np.add.at(area[s], pile[dealt:dealt + n], 1)
                    dealt += n
            stacks = (supply - hand.sum(axis=0) - left.sum(axis=0) - right.sum(axis=0)).astype(np.int16)
            pub = _pub()
            pub[K.PUB_HANDS] = lanes_of(hand.sum(axis=0))
            seat = int(rng.integers(players))
            for t in range(4):
                public = (supply[t] - stacks[t] - left[:, t].sum() - right[:, t].sum() - hand[seat, t])
                assert opponents_hand_nb(seat, t, hand, stacks, pub, rules) == public
