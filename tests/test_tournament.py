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

from zsim.harness import tournament as tournament_module
from zsim.cli import cli, main
from zsim.games.zahltag.records import record_game
from zsim.harness.chunks import Matchup
from zsim.strategy_registry import registry
from zsim.harness.seatings import order_bounds, parse_field, seating_orders, seatings
from zsim.harness.tournament import (CHECK_DEALS, WIN_UNITS, Z95, Tournament, compare_independent, identical_pairs,
                                     run_tournament, tournament_json, variance_reduction)

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


@pytest.mark.parametrize("entries,players", [(3, 3), (4, 3), (5, 3), (4, 4), (5, 4), (7, 4), (3, 2)])
def test_rotation_orders_seat_everyone_after_everyone_equally(entries, players):
    """Over the (P-1)! orders, b sits k seats after a (round the table) equally
    often for every a != b and every k: one fixed cyclic order would not."""
    orders, used = seating_orders(entries, players, "rotations")
    assert used == "rotations" and orders.shape == (math.factorial(players - 1),
                                                    math.comb(entries, players) * players, players)
    follows = np.zeros((entries, entries, players), int)          # a, b, seats from a to b
    for order in orders:
        for r in order.tolist():
            for i, j in itertools.permutations(range(players), 2):
                follows[r[i], r[j], (j - i) % players] += 1
    live = follows[~np.eye(entries, dtype=bool)][:, 1:]
    assert (live == live[0, 0]).all(), follows
    if players >= 3:   # a single order (the old design) puts b after a at one distance only
        one = np.zeros((entries, entries, players), int)
        for r in orders[0].tolist():
            for i, j in itertools.permutations(range(players), 2):
                one[r[i], r[j], (j - i) % players] += 1
        assert not (one[~np.eye(entries, dtype=bool)][:, 1:] == one[0, 1, 1]).all()
    # each order is balanced on its own: every entry at every seat, every pair as often
    for order in orders:
        counts = np.zeros((entries, players), int)
        for r in order.tolist():
            for seat, e in enumerate(r):
                counts[e, seat] += 1
        assert (counts == counts[0, 0]).all()
    assert (orders[0] == seatings(entries, players, "rotations")[0]).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rotation_orders_of_a_full_table_are_every_permutation(players):
    orders, _ = seating_orders(players, players, "rotations")
    played = [tuple(r) for r in orders.reshape(-1, players).tolist()]
    assert sorted(played) == sorted(itertools.permutations(range(players)))   # each exactly once
    every, _ = seating_orders(players, players, "all")
    assert every.shape == (1, math.factorial(players), players)


@pytest.mark.parametrize("deals,orders,expected", [(12, 6, [2] * 6), (13, 6, [2, 2, 2, 2, 2, 3]),
                                                   (4, 6, [0, 1, 1, 0, 1, 1]), (7, 1, [7]), (5, 2, [2, 3])])
def test_order_blocks_are_equal_or_one_deal_apart(deals, orders, expected):
    b = order_bounds(deals, orders)
    assert b[0] == 0 and b[-1] == deals and np.diff(b).tolist() == expected


def test_rotations_play_each_order_on_its_own_block_of_deals():
    field = ("simple", "random", "fixed", "passive", "fixed:k=5")
    t, rows = collect_rows(field, 4, 13, 6, design="rotations", chunk=4)
    assert len(t.orders) == 6 and t.per_deal == 20 and t.games == 13 * 20
    assert t.order_deals().tolist() == [2, 2, 2, 2, 2, 3] and len(t.all_seatings) == 120
    assert len(t.seatings) == 20 and (t.seatings == t.all_seatings[:20]).all()
    bounds = order_bounds(13, 6)
    games = rows.group_by("deal", "permutation").agg(pl.col("strategy").sort_by("seat"),
                                                      pl.col("game").first())
    assert games.height == 13 * 20 and (games["game"] == games["deal"]).all()
    for rec in games.iter_rows(named=True):
        perm, deal = rec["permutation"], rec["deal"]
        order = perm // 20
        assert bounds[order] <= deal < bounds[order + 1]           # the deal's own order
        assert [str(s) for s in rec["strategy"]] == [field[e] for e in t.all_seatings[perm]]
    per_deal = games.group_by("deal").agg(pl.col("permutation").n_unique().alias("seatings"),
                                          (pl.col("permutation") // 20).n_unique().alias("orders"))
    assert (per_deal["seatings"] == 20).all() and (per_deal["orders"] == 1).all()   # one order a deal
    # every one of the 120 seatings is played, over a multiple of 6 deals equally often
    _, rows12 = collect_rows(field, 4, 12, 6, design="rotations")
    counts = rows12.filter(pl.col("seat") == 0).group_by("permutation").len()
    assert counts.height == 120 and (counts["len"] == 2).all()


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


def test_head_to_head_intervals_over_deals():
    """above_ci95 is the 95% half-width of the per-deal shares, computed here
    from the per-game rows: per deal and ordered pair, the seat pairs in which
    the row placed better over those compared in that deal's games."""
    field = ("simple", "random", "fixed", "passive", "fixed:k=6")
    t, rows = collect_rows(field, 3, 31, 9, design="rotations", chunk=8)
    h2h = t.head_to_head()
    ci = t.head_to_head_matrix(ci=True)
    places = {}
    for rec in rows.select("deal", "permutation", "seat", "strategy", "place").iter_rows():
        places.setdefault((rec[0], rec[1]), {})[rec[2]] = (str(rec[3]), rec[4])
    for a, b in itertools.permutations(range(len(field)), 2):
        won = np.zeros(31)
        compared = np.zeros(31)
        for (deal, _), seats in places.items():
            for i, j in itertools.permutations(seats, 2):
                (sa, pa), (sb, pb) = seats[i], seats[j]
                if sa == field[a] and sb == field[b]:
                    won[deal] += pa < pb
                    compared[deal] += 1
        assert len(set(compared)) == 1 and compared[0] == t.per_deal_pairs()[a, b] == 9   # C(3, 1) subsets x 3 rotations
        x = won / compared
        rec = h2h.filter((pl.col("row") == field[a]) & (pl.col("column") == field[b])).row(0, named=True)
        assert rec["above"] == pytest.approx(x.mean(), rel=1e-12)
        assert rec["above_ci95"] == pytest.approx(Z95 * x.std(ddof=1) / math.sqrt(31), rel=1e-9, abs=1e-15)
        assert ci[field[b]][a] == rec["above_ci95"]
    assert all(ci[e][i] is None for i, e in enumerate(field))
    assert h2h["above_ci95"].min() >= 0 and h2h.filter(pl.col("column") == "random")["above_ci95"].min() > 0


def test_head_to_head_interval_by_hand():
    """Two entries, two seats, seatings (0, 1) and (1, 0): two compared seat
    pairs a deal. Entry 0 placed above in 1, 0, 2, 1 of them over 4 deals:
    per-deal shares 0.5, 0, 1, 0.5, mean 0.5, sd sqrt(0.5 / 3)."""
    z = np.zeros((3, 2), np.int64)
    t = Tournament(("simple", "random"), 2, np.array([[[0, 1], [1, 0]]]), "all", 4, 0, False,
                   z, z, z, z, np.array([[0, 4], [3, 0]]), np.array([[0, 6], [3, 0]]),
                   np.array([[0, 1], [1, 0]]), np.array([[0, 8], [8, 0]]), np.array([[0, 8], [8, 0]]))
    half = Z95 * math.sqrt(0.5 / 3) / 2
    assert t.above_ci95()[0, 1] == pytest.approx(half, rel=1e-12)
    # entry 1 placed above in 1, 1, 0, 1 (sum 3, squares 3): shares 0.5, 0.5, 0, 0.5, sd 0.25
    assert t.above_ci95()[1, 0] == pytest.approx(Z95 * 0.25 / 2, rel=1e-12)
    wide = t.head_to_head_matrix(ci=True)
    assert wide["random"].to_list() == [pytest.approx(half), None]
    assert t.head_to_head()["above_ci95"][0] == pytest.approx(half)
    assert t.head_to_head_matrix()["random"][0] == 0.5


def test_results_do_not_depend_on_chunks_or_threads():
    a = tournament_json(run_tournament(FIELD, 4, 50, 21))
    b = tournament_json(run_tournament(FIELD, 4, 50, 21, chunk=7))
    assert a == b
    five = ("simple", "random", "passive", "fixed", "fixed:k=6")
    c = run_tournament(five, 4, 50, 21, design="rotations")          # 6 orders, blocks of 8 and 9 deals
    d = run_tournament(five, 4, 50, 21, design="rotations", chunk=5)
    e = run_tournament(five, 4, 50, 21, design="rotations", chunk=1)
    assert tournament_json(c) == tournament_json(d) == tournament_json(e)
    for name in ("ent_sum", "ent_sq", "seat_sum", "seat_sq", "above", "above_sq", "tie", "pairs", "shared"):
        assert (getattr(c, name) == getattr(d, name)).all() and (getattr(c, name) == getattr(e, name)).all()
    assert c.above_sq.sum() > c.above.sum() > 0          # several compared pairs a deal: squares exceed
    old = numba.get_num_threads()
    try:
        one = invoke("--field", "simple,random,fixed", "-p", "3", "--games", "60", "--threads", "1", "--json")
        many = invoke("--field", "simple,random,fixed", "-p", "3", "--games", "60",
                      "--threads", str(numba.config.NUMBA_NUM_THREADS), "--json")
        rot = ["--field", "simple,random,fixed,passive,fixed:k=6", "-p", "4", "--games", "40",
               "--seatings", "rotations", "--json"]
        rot_one = invoke(*rot, "--threads", "1")
        rot_many = invoke(*rot, "--threads", str(numba.config.NUMBA_NUM_THREADS))
    finally:
        numba.set_num_threads(old)
    assert one == many and json.loads(one)["games"] == 360
    assert rot_one == rot_many and json.loads(rot_one)["orders"] == 6


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
    assert data["orders"] == 6 and data["order_deals"] == [0, 1, 1, 1, 1, 1]
    assert all(r["games"] == 5 * 16 for r in data["strategies"])
    out = invoke("--field", "simple,random,passive,fixed,fixed:k=6", "--games", "12", "--seatings", "rotations")
    assert ("12 deals x 20 seatings (each 4-subset of the field in its 4 rotations, in one of its 6 cyclic "
            "orders a deal; the orders take blocks of 2 deals (equal)) = 240 games played") in out


# ---------------------------------------------------------------- identical play
SAME = [("counter", "counter:blind=0.4"),                  # blind counts from 0.5 on
        ("fixed:k=8", "fixed:k=40"),                       # bids are capped at max_bid = 8
        ("counter", "undercut:margin=1:floor=3:target=8")]  # undercut's old defaults: counter's bids


@pytest.mark.parametrize("pair", SAME, ids=[" = ".join(p) for p in SAME])
def test_identical_entries_are_flagged(pair):
    field = parse_field(",".join(("simple",) + pair + ("random",)))
    t = run_tournament(field, 4, 20, 3, design="rotations")
    assert t.identical == ((field[1], field[2]),) and t.identical_deals == CHECK_DEALS
    data = tournament_json(t)
    assert data["identical"] == [[field[1], field[2]]] and data["identical_deals_checked"] == CHECK_DEALS


def test_identical_entries_in_all_seatings_have_equal_rows():
    field = parse_field("simple,counter,counter:blind=0.4")
    t = run_tournament(field, 3, 30, 5)          # every permutation on every deal
    assert t.identical == (("counter", "counter:blind=0.4"),)
    table = t.strategies()
    assert table.row(1)[2:] == table.row(2)[2:]    # the same games, hence the same figures


def test_different_entries_are_not_flagged():
    t = run_tournament(("simple", "counter", "undercut", "fixed", "fixed:k=4", "monopolist"), 4, 20, 3,
                       design="rotations")
    assert t.identical == () and t.identical_deals == CHECK_DEALS
    two = run_tournament(("counter", "counter:blind=1"), 2, 10, 1)
    assert two.identical == ()
    assert run_tournament(("simple",), 3, 10, 1).identical == ()
    assert run_tournament(FIELD, 4, 5, 1, check_identical=False).identical_deals == 0


def test_identical_check_compares_every_game(monkeypatch):
    """A difference in one statistic of the last game checked, in one seating
    only, is enough to tell a pair apart."""
    field = ("simple", "counter", "counter:blind=0.4")
    orders, _ = seating_orders(3, 3)
    assert identical_pairs(field, orders, 2) == (("counter", "counter:blind=0.4"),)
    real = tournament_module.play_chunk
    target = (field[0], field[2], field[1])                       # a seating only the swaps play

    def fake(m, seed, first, n, *args, **kwargs):
        so, go = real(m, seed, first, n, *args, **kwargs)
        if m.strategies == target and first + n == CHECK_DEALS:
            so = so.copy()
            so[-1, 2, -1] += 1
        return so, go

    monkeypatch.setattr(tournament_module, "play_chunk", fake)
    assert identical_pairs(field, orders, 2) == ()
    assert identical_pairs(field, orders, 2, deals=CHECK_DEALS - 1) != ()   # that game is not checked


def test_cli_warns_of_identical_entries():
    args = ["tournament", "--field", "simple,counter,counter:blind=0.4", "-p", "3", "--games", "10"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [(
        f"warning: counter and counter:blind=0.4 played identical games in every one of the {CHECK_DEALS} "
        "deals checked: they are one strategy here; their rows differ only by the seatings each drew "
        "(keep one of them)")]
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)
    assert data["identical"] == [["counter", "counter:blind=0.4"]]
    quiet = CliRunner().invoke(cli, [*args, "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
    other = CliRunner().invoke(cli, ["tournament", "--field", "simple,counter", "-p", "2", "--games", "10"])
    assert other.exit_code == 0 and other.stderr == ""


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


def test_the_score_columns_carry_the_games_score_name():
    """Baumeister's score is its total of points, not money: the tables say ``score_mean``; Zahltag's and
    Zahlemann's keep ``money_mean``. The mean is each seat's score column, averaged."""
    t = run_tournament(("first", "random"), 2, 6, 11, game="baumeister", check_identical=False)
    frame, seats = t.strategies(), t.seats()
    assert {"score_mean", "score_ci95"} <= set(frame.columns) and "money_mean" not in frame.columns
    assert {"score_mean", "score_ci95"} <= set(seats.columns)
    rows = []
    run_tournament(("first", "random"), 2, 6, 11, game="baumeister", check_identical=False,
                   on_rows=rows.append)
    rows = pl.concat(rows)
    by = dict(rows.group_by("strategy").agg(pl.col("total").mean()).iter_rows())
    for r in frame.iter_rows(named=True):
        assert r["score_mean"] == pytest.approx(by[r["strategy"]])
    assert "score_ci95_duplicate" in variance_reduction(t, t).columns
    for game, spec in (("zahltag", "simple"), ("zahlemann", "shedder")):
        z = run_tournament((spec, "random"), 2, 4, 11, game=game, check_identical=False)
        assert "money_mean" in z.strategies().columns and "score_mean" not in z.strategies().columns
