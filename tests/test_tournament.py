"""zsim tournament: balanced seatings, duplicate deals, statistics over deals,
head to head, variance reduction, output and bad input."""
from __future__ import annotations

import dataclasses
import itertools
import json
import math
import subprocess
import sys

import numba
import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from zsim.cli import cli, main
from zsim.games.zahltag.records import record_game
from zsim.runner import Matchup
from zsim.strategy_registry import registry
from zsim.tournament import (WIN_UNITS, Z95, compare_independent, parse_field, run_tournament,
                             seatings, tournament_json, variance_reduction)

FIELD = ("simple", "random", "passive", "fixed")


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, ["tournament", *args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def invoke_json(*args: str) -> dict:
    return json.loads(invoke(*args, "--json"))


def collect_rows(*args, **kwargs) -> tuple[object, pl.DataFrame]:
    frames: list[pl.DataFrame] = []
    t = run_tournament(*args, on_rows=frames.append, **kwargs)
    return t, pl.concat(frames)


# ---------------------------------------------------------------- seatings
@pytest.mark.parametrize("design", ["all", "rotations"])
@pytest.mark.parametrize("entries,players", [(1, 4), (2, 4), (3, 4), (4, 4), (5, 4), (7, 4),
                                             (2, 2), (3, 2), (2, 3), (3, 3), (5, 3)])
def test_seatings_are_balanced(entries, players, design):
    rows, used = seatings(entries, players, design)
    assert rows.shape[1] == players
    assert len({tuple(r) for r in rows.tolist()}) == len(rows)          # no seating twice
    counts = np.zeros((entries, players), int)                            # entry x seat
    for r in rows:
        for s, e in enumerate(r):
            counts[e, s] += 1
    assert (counts == counts[0, 0]).all(), counts                          # every entry, every seat, equally
    if entries >= players:                                                 # every pair meets equally often
        meets = {pair: 0 for pair in itertools.combinations(range(entries), 2)}
        for r in rows.tolist():
            for pair in itertools.combinations(sorted(r), 2):
                meets[pair] += 1
        assert len(set(meets.values())) == 1, meets
    if entries == players and design == "all":
        assert len(rows) == math.factorial(players) and used == "all"     # every permutation
    if design == "rotations" and entries >= players:
        assert used == "rotations" and len(rows) == math.comb(entries, players) * players


def test_large_field_falls_back_to_rotations():
    rows, used = seatings(7, 4)                       # 7*6*5*4 = 840 > 720 seatings
    assert used == "rotations" and len(rows) == 35 * 4
    rows, used = seatings(6, 4)
    assert used == "all" and len(rows) == 360


# ---------------------------------------------------------------- duplicate deals
def test_duplicate_deals_replay_the_same_cards_under_every_seating():
    t, rows = collect_rows(FIELD, 4, 3, 11)
    assert t.games == 3 * 24 and rows.height == 3 * 24 * 4
    assert (rows["game"] == rows["deal"]).all()        # deal d is game d under every seating
    starts = {}
    for perm in (0, 9, 23):
        seating = tuple(FIELD[e] for e in t.seatings[perm])
        events = record_game(Matchup(4, seating), 11, 1)
        start = events[0]
        assert start["strategies"] == list(seating)
        starts[perm] = (start["hands"], start["stacks"], start["deck"])
        # the row table of that game is the recorded game, seat by seat
        game = rows.filter((pl.col("deal") == 1) & (pl.col("permutation") == perm)).sort("seat")
        assert game["strategy"].cast(pl.String).to_list() == list(seating)
        assert game["place"].to_list() == events[-1]["places"]
        assert game["money"].to_list() == events[-1]["money"]
    assert starts[0] == starts[9] == starts[23]
    other = record_game(Matchup(4, tuple(FIELD[e] for e in t.seatings[0])), 11, 2)[0]
    assert (other["hands"], other["deck"]) != (starts[0][0], starts[0][2])   # another deal differs


def test_independent_deals_use_distinct_games():
    t, rows = collect_rows(FIELD, 4, 5, 3, independent=True)
    per_game = rows.group_by("game").agg(pl.col("permutation").n_unique(), pl.len())
    assert per_game.height == t.games == 5 * 24                # every game index once
    assert (per_game["permutation"] == 1).all() and (per_game["len"] == 4).all()
    assert not rows["game"].is_in(list(range(5))).any()       # none of the duplicate run's deals


# ---------------------------------------------------------------- statistics
def test_strategy_table_is_the_mean_over_deals_of_per_deal_means():
    t, rows = collect_rows(("simple", "fixed:k=5", "random"), 3, 30, 4)
    per_deal = rows.group_by("deal", "strategy").agg(pl.col("win").mean(), pl.col("money").mean(),
                                                      pl.col("place").mean())
    table = t.strategies()
    for rec in table.iter_rows(named=True):
        d = per_deal.filter(pl.col("strategy").cast(pl.String) == rec["strategy"])
        assert d.height == 30
        for col, mean, ci in (("win", "win_share", "win_ci95"), ("money", "money_mean", "money_ci95"),
                              ("place", "mean_place", "place_ci95")):
            x = d[col].to_numpy()
            assert rec[mean] == pytest.approx(x.mean(), rel=1e-12, abs=1e-12)
            assert rec[ci] == pytest.approx(Z95 * x.std(ddof=1) / math.sqrt(30), rel=1e-9, abs=1e-12)
        assert rec["games"] == 30 * 6 and rec["fair"] is True
    # win units: a shared first place is split, so every game hands out exactly one win
    assert rows.group_by("deal", "permutation").agg(pl.col("win").sum())["win"].to_list() == \
        pytest.approx([1.0] * t.games)
    seats = t.seats()
    assert seats.height == 3 and seats["win_share"].sum() == pytest.approx(1.0)


def test_confidence_intervals_shrink_with_more_deals():
    small = run_tournament(FIELD, 4, 20, 8).strategies()
    large = run_tournament(FIELD, 4, 320, 8).strategies()
    for col in ("win_ci95", "money_ci95", "place_ci95"):
        s, l = small[col].to_numpy(), large[col].to_numpy()
        live = s > 0
        assert live.sum() >= 3
        assert (l[live] < 0.6 * s[live]).all(), (col, s, l)   # about 1/4 expected


def test_head_to_head_shares():
    t = run_tournament(FIELD, 3, 40, 2)                      # 4 entries, 3 seats: 24 seatings
    h2h = t.head_to_head()
    assert h2h.height == 12
    for r in h2h.iter_rows(named=True):
        for col in ("above", "tie", "below"):
            assert 0.0 <= r[col] <= 1.0
        assert r["above"] + r["tie"] + r["below"] == pytest.approx(1.0)
        back = h2h.filter((pl.col("row") == r["column"]) & (pl.col("column") == r["row"])).row(0, named=True)
        assert back["above"] == pytest.approx(r["below"]) and back["tie"] == pytest.approx(r["tie"])
        assert r["games"] == 40 * 12                         # each pair shares 12 of the 24 seatings
    wide = t.head_to_head_matrix()
    assert wide["strategy"].to_list() == list(FIELD)
    for i, a in enumerate(FIELD):
        assert wide[a][i] is None                            # no diagonal
    simple_vs_passive = h2h.filter((pl.col("row") == "simple") & (pl.col("column") == "passive"))
    assert wide["passive"][0] == pytest.approx(simple_vs_passive["above"][0])
    assert simple_vs_passive["above"][0] > 0.8               # a bidder beats the floor


def test_results_do_not_depend_on_chunks_or_threads():
    a = tournament_json(run_tournament(FIELD, 4, 50, 21))
    b = tournament_json(run_tournament(FIELD, 4, 50, 21, chunk=7))
    assert a == b
    old = numba.get_num_threads()
    try:
        one = invoke("--field", "simple,random,fixed", "-p", "3", "--games", "60", "--threads", "1", "--json")
        many = invoke("--field", "simple,random,fixed", "-p", "3", "--games", "60",
                      "--threads", str(numba.config.NUMBA_NUM_THREADS), "--json")
    finally:
        numba.set_num_threads(old)
    assert one == many and json.loads(one)["games"] == 360


# ---------------------------------------------------------------- variance reduction
def test_variance_reduction_factor():
    dup, ind, frame = compare_independent(FIELD, 4, 60, 5)
    assert dup.games == ind.games == 60 * 24 and ind.independent and not dup.independent
    assert frame["strategy"].to_list() == [*FIELD, "all (pooled)"]
    pooled = frame.row(4, named=True)
    for stat in ("win", "money"):
        assert pooled[f"{stat}_variance_factor"] > 0
        assert pooled[f"{stat}_variance_factor"] == pytest.approx(pooled[f"{stat}_ci_ratio"] ** 2)
    simple = frame.row(0, named=True)
    assert simple["win_ci95_duplicate"] == dup.strategies()["win_ci95"][0]
    assert simple["win_ci_ratio"] == pytest.approx(simple["win_ci95_independent"] / simple["win_ci95_duplicate"])
    assert variance_reduction(dup, dup)["win_variance_factor"][0] == pytest.approx(1.0)


def test_cli_compare_independent():
    out = invoke("--field", "simple,random", "-p", "2", "--games", "40", "--compare-independent")
    assert "independent deals" in out and "all (pooled)" in out and "variance_factor" in out
    data = invoke_json("--field", "simple,random", "-p", "2", "--games", "40", "--compare-independent")
    assert data["independent_games"] == data["games"] == 80
    assert data["variance_reduction"][-1]["win_variance_factor"] > 0


# ---------------------------------------------------------------- the command
def test_cli_report():
    out = invoke("--field", "simple,random,passive,fixed:k=5", "--games", "20", "--seed", "3")
    assert "20 deals x 24 seatings (every permutation) = 480 games played" in out
    for word in ("Per strategy", "Head to head", "Per seat", "fixed:k=5", "win_ci95", "money_ci95"):
        assert word in out, word
    data = invoke_json("--field", "simple,random,passive,fixed:k=5", "--games", "20", "--seed", "3")
    assert [r["strategy"] for r in data["strategies"]] == ["simple", "random", "passive", "fixed:k=5"]
    assert data["games"] == 480 and data["deals"] == 20 and data["seatings"] == 24
    assert len(data["head_to_head"]) == 12 and len(data["seats"]) == 4


def test_self_play_reports_seats():
    data = invoke_json("--field", "simple", "-p", "3", "--games", "200", "--seed", "1")
    assert data["seatings"] == 1 and data["games"] == 200 and data["head_to_head"] == []
    (row,) = data["strategies"]
    assert row["win_share"] == pytest.approx(1 / 3) and row["games"] == 200
    seats = data["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert sum(s["win_share"] for s in seats) == pytest.approx(1.0)
    assert all(s["win_ci95"] > 0 for s in seats)
    assert len({s["win_share"] for s in seats}) > 1          # seats differ: a real per-seat table
    out = invoke("--field", "simple", "-p", "3", "--games", "200", "--seed", "1")
    assert "Per seat" in out and "copies in every seat" in out and "Head to head" not in out


def test_rotations_design_from_the_cli():
    data = invoke_json("--field", "simple,random,passive,fixed,fixed:k=6", "--games", "5",
                       "--seatings", "rotations")
    assert data["design"] == "rotations" and data["seatings"] == 20 and data["games"] == 100
    assert all(r["games"] == 5 * 16 for r in data["strategies"])


def test_unfair_strategy_is_labelled(monkeypatch):
    reg = registry()
    monkeypatch.setitem(reg, "passive", dataclasses.replace(reg["passive"], fair=False))
    out = invoke("--field", "simple,passive", "-p", "2", "--games", "5")
    line = next(ln for ln in out.splitlines() if "passive" in ln and "│" in ln)
    assert "upper bound" in line
    assert "passive: reads hidden information" in out
    simple_line = next(ln for ln in out.splitlines() if "simple" in ln and "│" in ln)
    assert "upper bound" not in simple_line
    data = invoke_json("--field", "simple,passive", "-p", "2", "--games", "5")
    assert [r["fair"] for r in data["strategies"]] == [True, False]


def test_out_writes_per_game_rows(tmp_path):
    target = tmp_path / "t.parquet"
    invoke("--field", "simple,fixed:k=2,random", "-p", "3", "--games", "7", "--out", str(target))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.parquet"]      # nothing half-written left
    rows = pl.read_parquet(target)
    assert rows.columns[:8] == ["deal", "permutation", "game", "seat", "strategy", "place", "money", "win"]
    assert rows.height == 7 * 6 * 3
    assert sorted(rows["strategy"].cast(pl.String).unique().to_list()) == ["fixed:k=2", "random", "simple"]
    per_game = rows.group_by("deal", "permutation").agg(pl.col("seat").sort(), pl.col("win").sum())
    assert per_game.height == 42 and all(s.to_list() == [0, 1, 2] for s in per_game["seat"])
    assert per_game["win"].to_list() == pytest.approx([1.0] * 42)


def test_parse_field():
    assert parse_field("simple, fixed:k=3 ,fixed:k=5") == ("simple", "fixed", "fixed:k=5")


# ---------------------------------------------------------------- bad input
BAD = [
    (["--field", "simple,bogus"], ["unknown strategy", "'bogus'"]),
    (["--field", ""], ["--field is empty"]),
    (["--field", " , "], ["--field is empty"]),
    (["--field", "fixed,fixed:k=3"], ["'fixed' twice"]),
    (["--field", "simple", "--games", "0"], ["--games", "got 0"]),
    (["--field", "simple", "--games", "-4"], ["--games", "got -4"]),
    (["--field", "simple", "--players", "5"], ["--players", "2..4", "got 5"]),
    (["--field", "fixed:k=0"], ["fixed:k=0", "out of range"]),
    (["--field", "simple", "--seatings", "some"], ["--seatings", "'some'"]),
    (["--field", "simple", "--rule", "bogus=1"], ["unknown rule key"]),
    ([], ["--field"]),
]


@pytest.mark.parametrize("args,fragments", BAD, ids=[" ".join(a) or "no_field" for a, _ in BAD])
def test_bad_input_is_one_line_exit_2(args, fragments, capsys, tmp_path):
    target = tmp_path / "x.parquet"
    with pytest.raises(SystemExit) as exc:
        main(["tournament", *args, "--out", str(target)])
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: error: "), captured.err
    for frag in fragments:
        assert frag in lines[0], (frag, lines[0])
    assert list(tmp_path.iterdir()) == []


def test_python_m_entry_point_knows_the_command():
    proc = subprocess.run([sys.executable, "-m", "zsim.cli", "tournament", "--field", "simple,random",
                           "-p", "2", "--games", "3", "--json"], capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 6
    bad = subprocess.run([sys.executable, "-m", "zsim.cli", "tournament", "--field", "nope"],
                         capture_output=True, text=True, timeout=600, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("zsim: error: unknown strategy")


def test_win_units_split_evenly():
    assert all(WIN_UNITS % n == 0 for n in range(1, 5))
