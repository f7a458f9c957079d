"""`zsim balance` and `zsim.balance`: a search over the free rules for the
targets, reproducible from its seed, resumable from its run folder, and its
bad input refused before play."""
from __future__ import annotations

import math

import polars as pl
import pytest

import zsim
from analyses import balance
from zsim.game_registry import get_game

SMALL = dict(players=4, budget=12_000, batch=300, strong="none", progress=False)


def test_a_rule_with_an_exact_effect_is_found():
    # only payday_cost=0 makes payday payments exactly 0, in every game
    b = zsim.balance({"payday_cost": "0..3"}, ["payday_paid<=0"], **SMALL)
    assert b.meta["best"] == {"payday_cost": "0"} and b.meta["best_meets_every_target"]
    settings = b.tables["Settings, best first"]
    assert settings.filter(pl.col("meets") == "every target")["payday_cost"].to_list() == [0]
    t = b.tables["Targets at the best setting and at the printed rules"].row(0, named=True)
    assert t["best_status"] == "met" and t["printed_status"] == "broken"
    assert b.findings[0].startswith("1 of the 4 settings measured meets every target; the best is payday_cost=0")
    steps = b.tables["One step from the best setting"]
    assert steps.row(0, named=True) == {"key": "payday_cost", "value": "1", "step": 1,
                                        "breaks": "payday_paid<=0 at 4", "still_open": ""}


def test_a_seat_handicap_no_rule_can_mend_is_reported_as_the_closest_setting():
    b = zsim.balance(["tie_discount=1,2"], ["seat_gap<=0.02"], field="random,simple", **{**SMALL, "players": 2})
    assert not b.meta["best_meets_every_target"]
    assert b.findings[0].startswith("No setting of the 2 measured meets every target; the closest is tie_discount=")
    assert "seat_gap<=0.02 at 2 players (broken)" in b.findings[0]


def test_the_same_seed_gives_the_same_search_whatever_the_threads_and_a_run_folder_resumes_it(tmp_path):
    args = (["payday_cost=0..2", "hand_size=6..8"], ["seat_gap<=0.03", "turns=20..40"])
    whole = zsim.balance(*args, **SMALL)
    again = zsim.balance(*args, threads=1, **SMALL)
    assert whole.tables["Settings, best first"].equals(again.tables["Settings, best first"])
    run = tmp_path / "run"
    first = zsim.balance(*args, run=run, **SMALL)
    assert first.tables["Settings, best first"].equals(whole.tables["Settings, best first"])
    # a stop part way: half the blocks kept, the last one cut short
    lines = (run / "blocks.jsonl").read_text().splitlines(keepends=True)
    kept = lines[:len(lines) // 2]
    (run / "blocks.jsonl").write_text("".join(kept) + lines[len(lines) // 2][:40])
    resumed = zsim.balance(*args, run=run, **SMALL)
    assert resumed.tables["Settings, best first"].equals(whole.tables["Settings, best first"])
    assert resumed.findings == whole.findings
    assert len((run / "blocks.jsonl").read_text().splitlines()) == len(lines)
    with pytest.raises(zsim.ZsimError) as e:            # the folder holds this search, not another
        zsim.balance(args[0], ["seat_gap<=0.05"], run=run, **SMALL)
    assert str(e.value) == f"--run {run} holds another search (its targets differ); give the same arguments " \
                           f"to resume it, or a new folder"


def test_a_dask_cluster_plays_the_blocks_side_by_side_with_the_same_answer():
    args = (["payday_cost=0..2"], ["seat_gap<=0.03", "turns=20..40"])
    small = {**SMALL, "players": "2,4", "budget": 6_000}
    here = zsim.balance(*args, **small)
    there = zsim.balance(*args, backend="dask", workers=2, **small)
    assert there.tables["Settings, best first"].equals(here.tables["Settings, best first"])
    assert there.findings == here.findings


@pytest.mark.parametrize("free, targets, kwargs, message", [
    (["payday_cost=0..2"], ["gap<=0.01"], {}, "--target gap<=0.01: unknown measure 'gap' (known: seat_gap, "),
    (["payday_cost=0..2"], ["seat_gap<0.01"], {}, "--target 'seat_gap<0.01' is not METRIC<=X, METRIC>=X or "),
    (["payday_cost=0..2"], ["turns=40..25"], {}, "--target turns=40..25: the range runs from low to high"),
    (["payday_cost=0..2"], ["turns<=20", "turns>=30"], {},
     "--target turns<=20 and --target turns>=30 contradict each other: no value of game_length meets both"),
    (["payday_cost=0..2"], ["skill_edge>=0.1"], {},
     "--target skill_edge>=0.1: the skill edge needs a strong player, and --strong is none"),
    (["payday_cost=0..2"], ["turns=20..40"], {"fixed": ["payday_cost=1"]},
     "--free payday_cost is also fixed with --rule payday_cost; fix it or free it, not both"),
    (["payday_cost=0..2"], ["turns=20..40"], {"budget": 500}, "--budget 500 is too small: one block of a setting "),
    (["payday_cost=0..2"], ["turns=20..40"], {"optimizer": "Nope"}, "unknown optimizer 'Nope'"),
    (["payday_cost=0..2"], ["turns=20..40"], {"workers": 2}, "--workers needs --backend dask"),
    (["payday_cost=0..2"], ["turns=20..40"], {"backend": "cloud"}, "--backend must be one of local, dask"),
    (["paydaycost=0..2"], ["turns=20..40"], {}, "unknown rule key 'paydaycost' for zahltag"),
    (["hand_size=12..14"], ["turns=20..40"], {"fixed": ["card_cap=14"]},
     "the setting hand_size=14 at 4 players cannot be played: "),
])
def test_bad_input_is_one_line_before_any_game(free, targets, kwargs, message, tmp_path):
    with pytest.raises(zsim.ZsimError) as e:
        zsim.balance(free, targets, **{**SMALL, "run": tmp_path / "run", **kwargs})
    assert str(e.value).startswith(message) and "\n" not in str(e.value), str(e.value)
    assert not (tmp_path / "run").exists()


def test_a_target_is_met_only_when_its_whole_interval_is_inside():
    t = balance.parse_target("turns=25..40", get_game("zahltag"), False)
    assert (t.metric, t.low, t.high) == ("game_length", 25.0, 40.0)
    assert t.status(26, 39) == "met" and t.status(20, 24) == "broken" and t.status(24, 26) == "open"
    assert t.violation(45) == pytest.approx(5 / 15) and t.violation(30) == 0
    up = balance.parse_target("skill_edge>=0.10", get_game("zahltag"), True)
    assert up.low == 0.1 and math.isinf(up.high) and up.violation(0.05) == pytest.approx(0.5)


def test_the_command_prints_the_answer_and_writes_the_settings(tmp_path):
    from click.testing import CliRunner

    from zsim.cli import cli

    out = tmp_path / "b.csv"
    r = CliRunner().invoke(cli, ["balance", "--free", "payday_cost=0..2", "--target", "knockout_rate<=0.05",
                                 "-p", "4", "--budget", "8000", "--batch", "200", "--out", str(out), "-q"])
    assert r.exit_code == 0, (r.output, r.exception)
    assert r.output.startswith("Rules that meet the targets\n")
    assert "One step from the best setting" in r.output
    assert pl.read_csv(out)["meets"].to_list()[0] == "every target"
