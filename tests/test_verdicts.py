"""Verdicts against a practical margin (analyses/verdicts.py): planted even
and uneven seats, can't-tell-yet with the games that would decide it, and
sentences a designer reads (no p-value, the margin and interval in each)."""
from __future__ import annotations

import re
from itertools import combinations

import numpy as np
import pytest

from analyses import stats, verdicts
from analyses.verdicts import BEYOND, UNSURE, WITHIN


def _seat_row(win_prob: list[float], games: int, seed: int = 1) -> dict:
    """The summed seat win columns of ``games`` planted games: one winner a
    game, seat s with probability ``win_prob[s]`` (a seat handicap the test
    controls)."""
    rng = np.random.default_rng(seed)
    players = len(win_prob)
    winner = rng.choice(players, size=games, p=win_prob)
    w = np.zeros((games, players), np.int64)
    w[np.arange(games), winner] = stats.WIN_UNITS
    row = {"n": games}
    for s in range(players):
        row[f"w{s}:s"], row[f"w{s}:q"] = int(w[:, s].sum()), int((w[:, s] ** 2).sum())
    for i, j in combinations(range(players), 2):
        d = w[:, i] - w[:, j]
        row[f"d{i}{j}:s"], row[f"d{i}{j}:q"] = int(d.sum()), int((d * d).sum())
    return row


def _reads_well(v: verdicts.Verdict) -> None:
    assert v.sentence == f"{v.headline}: {v.detail}" and v.label in v.headline
    assert "p =" not in v.sentence and "p <" not in v.sentence and "e-" not in v.sentence
    assert "±" in v.sentence and f"{v.margin_pp:g} pp" in v.sentence
    assert v.lo_pp <= v.estimate_pp <= v.hi_pp


def test_an_even_game_is_balanced_and_an_uneven_one_uneven():
    even = verdicts.seats(_seat_row([0.25] * 4, 200_000), 4)
    assert (even.outcome, even.label) == (WITHIN, "balanced"), even.sentence
    assert even.sentence.startswith("Seats: balanced at 4 players")
    uneven = verdicts.seats(_seat_row([0.53, 0.47], 40_000), 2)
    assert (uneven.outcome, uneven.label) == (BEYOND, "uneven"), uneven.sentence
    assert "first player +3.0" in uneven.sentence or "first player +2.9" in uneven.sentence \
        or "first player +3.1" in uneven.sentence, uneven.sentence
    assert uneven.lo_pp > 1.0
    for v in (even, uneven):
        _reads_well(v)
        assert v.games_needed is None


def test_too_few_games_cannot_tell_and_says_how_many_would():
    v = verdicts.seats(_seat_row([0.5, 0.5], 2_000), 2)
    assert v.outcome == UNSURE and v.label == "can't tell yet"
    _reads_well(v)
    assert v.games_needed > 2_000
    number = int(re.search(r"about ([\d,]+) games", v.sentence).group(1).replace(",", ""))
    assert number >= v.games_needed
    # the claim holds: at that many games the same seats are balanced (the gap was noise)
    again = verdicts.seats(_seat_row([0.5, 0.5], 4 * number, seed=2), 2)
    assert again.outcome == WITHIN, again.sentence


def test_a_seat_table_gives_the_verdict_its_sums_give():
    row = _seat_row([0.36, 0.32, 0.32], 20_000)
    n, share, cov = stats.seat_moments(row, 3)
    from_table = verdicts.seats_from_shares(share, 1.96 * np.sqrt(np.diag(cov) / n), 20_000)
    assert from_table == verdicts.seats(row, 3)
    assert from_table.label == "uneven" and from_table.headline == "Seats: uneven at 3 players"


def test_the_margin_is_the_designers_choice():
    row = _seat_row([0.515, 0.485], 100_000)
    assert verdicts.seats(row, 2, margin_pp=1.0).outcome == BEYOND
    assert verdicts.seats(row, 2, margin_pp=3.0).outcome == WITHIN


@pytest.mark.parametrize("lo, hi, outcome", [(-0.4, 0.6, WITHIN), (1.2, 2.0, BEYOND), (-3.0, -1.5, BEYOND),
                                             (0.5, 1.5, UNSURE), (-2.0, 2.0, UNSURE), (-1.0, 1.0, WITHIN)])
def test_decide_reads_the_interval_against_the_margin(lo, hi, outcome):
    assert verdicts.decide(lo, hi, 1.0) == outcome


def test_games_to_decide_scales_the_half_width():
    # half-width 1 pp at 1,000 games, 0.5 pp from the margin: 4x the games
    assert verdicts.games_to_decide(0.5, 1.0, 1.0, 1_000) == 4_000
    assert verdicts.games_to_decide(1.5, 1.0, 1.0, 1_000) == 4_000
    assert verdicts.games_to_decide(1.0, 1.0, 1.0, 1_000) is None
    assert verdicts.games_to_decide(0.999999, 1.0, 1.0, 10) == verdicts.MOST_GAMES


def test_an_edge_reads_as_its_question_says():
    skill = verdicts.edge("Skill", 27.0, 2.1, 3_000, subject="the strong player against par 25%",
                          effect="skill decides", no_effect="skill barely matters")
    assert (skill.outcome, skill.label) == (BEYOND, "skill decides")
    assert skill.sentence == ("Skill: skill decides: the strong player against par 25% +27.0 ± 2.1 pp "
                              "(margin ±1 pp).")
    flat = verdicts.edge("Skill", 0.3, 0.4, 3_000, subject="the strong player against par 25%",
                         effect="skill decides", no_effect="skill barely matters")
    assert flat.label == "skill barely matters" and "within ±1 pp" in flat.sentence
    unsure = verdicts.edge("Skill", 0.8, 0.6, 3_000, subject="x", effect="e", no_effect="n")
    assert unsure.outcome == UNSURE and unsure.games_needed == pytest.approx(27_000, abs=1)
    assert unsure.headline == "Skill: can't tell yet"
    # a verdict of one player count says which, whatever it reads
    at4 = verdicts.edge("Skill", 0.8, 0.6, 3_000, subject="x", effect="e", no_effect="n", players=4)
    assert at4.headline == "Skill: can't tell yet at 4 players"
    for v in (skill, flat, unsure):
        _reads_well(v)
        assert set(v.to_dict()) >= {"question", "outcome", "label", "headline", "detail", "sentence", "estimate_pp", "lo_pp", "hi_pp",
                                    "margin_pp", "games", "games_needed"}
