"""`zsim compare` and `zsim.compare`: two rule sets on the same deals, every
measure's change with a paired interval, and bad input refused before play."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest

import zsim

ROOT = Path(__file__).parents[1]


def _row(t: pl.DataFrame, players: int, measure: str) -> dict:
    return t.filter(pl.col("players") == players, pl.col("measure") == measure).row(0, named=True)


def test_a_rule_with_an_exact_effect_is_found():
    c = zsim.compare({"payday_cost": 0}, players=[2, 4], games=1000, strong="none", progress=False)
    t = c.main
    for players in (2, 4):
        paid = _row(t, players, "payday_paid")
        assert paid["a"] == 0 and paid["a_ci95"] == 0 and paid["b"] > 1
        assert paid["change"] == pytest.approx(-paid["b"]) and paid["verdict"] == "changes"
        assert _row(t, players, "eliminated_share")["a"] == 0
    assert any("payday_paid" in f for f in c.findings)
    assert c.meta["a"] == ["payday_cost=0"] and c.meta["b"] == []
    plt.close("all")


def test_a_rule_that_changes_nothing_shows_no_change_to_the_last_game():
    # the 2-player forced payday does nothing at 4 players: on the same deals every game is the same
    c = zsim.compare({"forced_payday_jobs_2p": 7}, players=4, games=800, strong="random", strong_games=200,
                     progress=False)
    t = c.main
    assert (t["change"] == 0).all() and (t["change_ci95"] == 0).all()
    assert set(t["verdict"]) == {"no practical change"}
    # two independent runs would have seen noise where the pairing sees none
    assert (t.filter(pl.col("measure") == "win_share_seat_0")["independent_ci95"] > 1).all()
    assert "skill_edge_pp" in t["measure"].to_list()
    plt.close("all")


def test_the_paired_interval_is_as_wide_as_the_change_really_varies():
    """Over 24 seeds the change of job income scatters as its paired
    interval says, and far less than two independent runs would scatter."""
    changes, paired, independent = [], [], []
    for seed in range(24):
        c = zsim.compare({"payday_cost": 2}, players=4, games=600, seed=seed, strong="none", progress=False)
        plt.close("all")
        r = _row(c.main, 4, "job_income")
        changes.append(r["change"])
        paired.append(r["change_ci95"] / 1.96)
        independent.append(r["independent_ci95"] / 1.96)
    seen = float(np.std(changes, ddof=1))
    assert 0.6 < seen / float(np.mean(paired)) < 1.5
    assert float(np.mean(independent)) > 2 * seen


def test_two_decks_compare_like_two_rule_sets(tmp_path):
    deck = tmp_path / "heavy.csv"
    lines = (ROOT / "zsim/games/zahltag/data/jobs.csv").read_text().splitlines()
    lines[1] = "1,2,2,0,0"                      # the first job needs more workers
    deck.write_text("\n".join(lines) + "\n")
    c = zsim.compare(deck=deck, players=2, games=400, strong="none", progress=False)
    assert c.title == "deck heavy.csv against the printed rules"
    assert c.main.height > 5


@pytest.mark.parametrize("kwargs, message", [
    ({}, "the two sides are the same rules and deck: give --rule KEY=VALUE (side A) or --against KEY=VALUE"),
    ({"rules": {"payday_cost": 1}}, "the two sides are the same rules and deck"),
    ({"rules": {"paydaycost": 1}}, "unknown rule key 'paydaycost'"),
    ({"rules": {"payday_cost": 0}, "relative_margin": 0}, "--relative-margin must be above 0 and at most 100"),
    ({"rules": {"payday_cost": 0}, "games": 1}, "--games must be 2..2**62, got 1"),
    ({"rules": {"hand_size": 26}, "players": 4}, "--rule: rule card_cap=12 is below hand_size=26"),
    ({"against": {"hand_size": 14, "card_cap": 14}, "players": 4},
     "--against at 4 players cannot be played: 4 players x hand_size 14 needs more than the 52 worker cards"),
])
def test_bad_input_is_one_line_before_any_game(kwargs, message):
    with pytest.raises(zsim.ZsimError) as e:
        zsim.compare(**{"players": 2, "games": 100, "strong": "none", "progress": False, **kwargs})
    assert message in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_the_command_prints_writes_and_draws(tmp_path):
    from click.testing import CliRunner

    from zsim.cli import cli

    out, plots = tmp_path / "c.csv", tmp_path / "plots"
    r = CliRunner().invoke(cli, ["compare", "--rule", "tie_discount=0", "--against", "tie_discount=3",
                                 "--players", "3", "--games", "500", "--strong", "none", "--out", str(out),
                                 "--plots", str(plots), "-q"])
    assert r.exit_code == 0, (r.output, r.exception)
    assert r.output.startswith("tie_discount=0 against tie_discount=3\n")
    t = pl.read_csv(out)
    assert {"measure", "change", "change_ci95", "independent_ci95", "sharper", "verdict"} <= set(t.columns)
    assert [p.name for p in plots.iterdir()] == ["compare-1.png"]
