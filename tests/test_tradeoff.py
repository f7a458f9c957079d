"""`zsim analyze tradeoff`: its grids, its tables and words on hand-made
numbers, the heatmap helper, and small real runs through the CLI."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from PIL import Image

from analyses import common, heatmap, play
from analyses.zahltag import tradeoff
from analyses.play import Collector
from zsim.cli import cli
from zsim.errors import ZsimError
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
SMALL = {"targets": (2, 8), "costs": (0, 2), "hand_sizes": (5, 7)}


# ---------------------------------------------------------------- the grids

def test_strategy_points_cover_the_grid_and_rotate_the_tested_seat():
    pts = tradeoff.strategy_points([2, 3], None, 600, Rules(), default_deck(), targets=(2, 8), costs=(0, 2))
    assert len(pts) == (2 + 3) * 2 * 2
    seen = {}
    for pt in pts:
        p, c, k = pt.key["players"], pt.key["payday_cost"], pt.key["target"]
        assert pt.matchup.rules.payday_cost == c and pt.matchup.rules.hand_size == Rules().hand_size
        assert pt.games == 600 // p
        tested = pt.matchup.strategies[pt.tested_seat]
        assert tested == ("handsize" if k == 8 else f"handsize:target={k}")   # 8 is the default, left out
        assert [s for i, s in enumerate(pt.matchup.strategies) if i != pt.tested_seat] == ["simple"] * (p - 1)
        seen.setdefault((p, c, k), []).append(pt.tested_seat)
    assert sorted(seen) == [(p, c, k) for p in (2, 3) for c in (0, 2) for k in (2, 8)]
    assert all(sorted(s) == list(range(key[0])) for key, s in seen.items())


def test_rule_points_set_both_rules_and_the_total_counts_every_game():
    rules = Rules().with_overrides({"start_money": 25})
    pts = tradeoff.rule_points([2, 4], "simple,counter", 500, rules, default_deck(), hand_sizes=(3, 11),
                               costs=(1, 3))
    assert [(pt.key["players"], pt.key["hand_size"], pt.key["payday_cost"]) for pt in pts] == \
        [(p, h, c) for p in (2, 4) for h in (3, 11) for c in (1, 3)]
    for pt in pts:
        r = pt.matchup.rules
        assert (r.hand_size, r.payday_cost, r.start_money) == (pt.key["hand_size"], pt.key["payday_cost"], 25)
        assert pt.games == 500 and pt.tested_seat is None
    assert pts[-1].matchup.strategies == ("simple", "counter", "simple", "counter")
    total = tradeoff.total_games([2, 4], None, 500, Rules(), default_deck(), (2, 8), (1, 3), (3, 11))
    assert total == (2 * 2 + 2 * 2) * 500 + 2 * 2 * 2 * 500   # strategy grid (per-seat shares) + rule grid


@pytest.mark.parametrize("kw, message", [
    ({"targets": (1, 13)}, "--targets 13 is outside handsize's target range 0..12"),
    ({"costs": (-1,)}, "--costs -1 is outside payday_cost's range"),
    ({"hand_sizes": (13,)}, "--hand-sizes 13 at 2 players: rule card_cap=12 is below hand_size=13"),
    ({"targets": ()}, "--targets is empty"),
    ({"hand_sizes": ()}, "--hand-sizes is empty"),
])
def test_points_refuse_bad_grids(kw, message):
    with pytest.raises(ZsimError) as e:
        tradeoff.points([2], None, 100, Rules(), default_deck(), **{**SMALL, **kw})
    assert message in str(e.value) and "\n" not in str(e.value)


def test_points_refuse_a_player_count_outside_the_game():
    with pytest.raises(ZsimError, match=r"^--players 5 is outside the player counts 2\.\.4$"):
        tradeoff.points([2, 5], None, 100, Rules(), default_deck(), **SMALL)


def test_a_hand_the_supply_cannot_deal_is_refused_at_that_player_count():
    rules = Rules().with_overrides({"supply": "10,10,10,10"})    # 40 cards: 4 x 11 = 44 is too many
    tradeoff.rule_points([2, 3], None, 100, rules, default_deck(), hand_sizes=(11,), costs=(1,))
    with pytest.raises(ZsimError, match=r"--hand-sizes 11 at 4 players: 4 players x hand_size 11"):
        tradeoff.rule_points([2, 4], None, 100, rules, default_deck(), hand_sizes=(11,), costs=(1,))


def test_rules_the_sweep_sets_are_refused():
    tradeoff.check_rule_keys(["start_money", "card_cap"])
    for key, option in (("payday_cost", "--costs"), ("hand_size", "--hand-sizes")):
        with pytest.raises(ZsimError, match=f"--rule {key} is swept by tradeoff; choose its values with {option}"):
            tradeoff.check_rule_keys(["start_money", key])


def test_defaults_come_from_the_rules_and_the_strategy():
    assert tradeoff.default_target() == 8 and tradeoff.default_cost() == 1 and tradeoff.default_hand_size() == 7
    assert tradeoff.target_limits() == (0, 12)
    assert tradeoff.TARGETS == tuple(range(0, 13))


# ---------------------------------------------------------------- tables on hand-made numbers

def grid(rows: dict[tuple[int, int], list[float]], targets=(2, 3, 4, 5, 6), ci=0.01) -> pl.DataFrame:
    out = []
    for (p, c), shares in rows.items():
        for k, w in zip(targets, shares):
            out.append({"players": p, "payday_cost": c, "target": k, "games": 1000, "win_share": w,
                        "win_share_ci95": ci})
    return pl.DataFrame(out)


def test_best_table_finds_the_best_its_noise_range_and_the_edges():
    g = grid({(3, 0): [0.40, 0.385, 0.30, 0.20, 0.10],    # best at the smallest target
              (3, 1): [0.10, 0.20, 0.35, 0.345, 0.20],    # inside; 5 within noise
              (3, 2): [0.10, 0.20, 0.30, 0.385, 0.40],    # best at the largest
              (3, 3): [0.40, 0.20, 0.395, 0.10, 0.40]})   # a tie: the smaller wins; 4 is within noise
    b = tradeoff.best_table(g, default=4)
    assert b["best_target"].to_list() == [2, 4, 6, 2]
    assert b["win_share"].to_list() == [0.40, 0.35, 0.40, 0.40]
    assert b["best_at_edge"].to_list() == ["smallest", "no", "largest", "smallest"]
    assert b["within_noise"].to_list() == ["2..3", "4..5", "5..6", "2, 4, 6"]
    assert b["noise_low"].to_list() == [2, 4, 5, 2] and b["noise_high"].to_list() == [3, 5, 6, 6]
    assert b["default_win_share"].to_list() == [0.30, 0.35, 0.30, 0.395]
    # a default target that was not tried leaves its win share empty
    assert tradeoff.best_table(g, default=9)["default_win_share"].null_count() == 4


def test_span_text_and_trend():
    assert tradeoff.span_text([7, 2, 3, 4, 9, 10]) == "2..4, 7, 9..10"
    assert tradeoff.trend([0, 1, 2, 3], [7, 6, 5, 4]) == "falls from 7 at payday cost 0 to 4 at cost 3"
    assert tradeoff.trend([0, 1], [4, 4]) == "stays at 4 at every payday cost tried"
    assert tradeoff.trend([0, 1, 2], [4, 6, 5]).startswith("moves between 4 and 6")


def rule_rows(players=3) -> pl.DataFrame:
    out = []
    for h, c, inc, rate in [(5, 1, 10.0, 0.01), (7, 1, 12.5, 0.02), (9, 1, 11.0, 0.03),
                            (5, 2, 6.0, 0.052), (7, 2, 7.0, 0.08), (9, 2, 6.5, 0.12)]:
        out.append({"players": players, "hand_size": h, "payday_cost": c, "games": 1000,
                    "income_less_payday_per_seat": inc, "income_less_payday_per_seat_ci95": 0.1,
                    "elimination_rate": rate, "elimination_rate_lo": rate - 0.005,
                    "elimination_rate_hi": rate + 0.005})
    return pl.DataFrame(out)


def test_findings_say_when_the_best_sits_at_the_edge_and_quote_the_table():
    g = grid({(3, 0): [0.40, 0.385, 0.30, 0.20, 0.10], (3, 1): [0.10, 0.20, 0.35, 0.345, 0.20]})
    b = tradeoff.best_table(g, default=4)
    text = tradeoff.findings(b, rule_rows(), default=4, cost0=1, limits=(2, 12))
    first = text[0]
    assert first.startswith("At 3 players the best target hand rises from 2 at payday cost 0 to 4 at cost 1")
    assert "2 at payday cost 0 (win share 0.400 ± 0.010; within noise: 2..3)" in first
    assert "4 at payday cost 1 (win share 0.350 ± 0.010; within noise: 4..5)" in first
    assert "The default, target 4 at payday cost 1, wins 0.350 ± 0.010" in first
    edge = text[1]
    assert "payday cost 0" in edge and "edge of the range tried" in edge and "payday cost 1" not in edge
    assert "handsize takes no target below 2" in edge           # 2 is the strategy's own limit
    # with room below the smallest target tried, the text says a smaller hand might do better
    wider = tradeoff.findings(b, None, default=4, cost0=1, limits=(1, 12))
    assert wider[1].endswith("a smaller hand might do better.") and len(wider) == 2
    # target 0 (never take a card) is the least a hand can aim for: the text says what it means
    g0 = grid({(3, 0): [0.40, 0.385, 0.30, 0.20, 0.10]}, targets=(0, 1, 2, 3, 4))
    zero = tradeoff.findings(tradeoff.best_table(g0, default=4), None, default=4, cost0=1, limits=(0, 12))
    assert "the best target, 0, sits at the edge" in zero[1] and "never takes a card" in zero[1]
    assert "might do better" not in zero[1]
    rule = text[-1]
    assert "dealing 7 cards gives the most income less payday per seat (12.50 ± 0.10" in rule
    assert "dealing 5 the least (10.00 ± 0.10)" in rule
    # dealing 5 at cost 2: 5.2% of games, but its interval reaches below 5%: not counted
    assert "pass 5.0% (the whole 95% interval above it) at payday cost 2 (dealing 7, 9)" in rule and "dealing 9 at payday cost 2: 12.0%" in rule


def test_findings_when_eliminations_stay_rare_and_the_best_is_the_largest():
    g = grid({(4, 1): [0.10, 0.20, 0.30, 0.38, 0.40]})
    rare = rule_rows(4).with_columns(pl.col("elimination_rate") / 10, pl.col("elimination_rate_lo") / 10,
                                     pl.col("elimination_rate_hi") / 10)
    text = tradeoff.findings(tradeoff.best_table(g, default=8), rare, cost0=1, limits=(2, 12))
    assert "The default" not in text[0]                         # target 8 was not tried
    assert "(the largest target): a larger hand might do better." in text[1]
    assert "eliminations stay below 5.0% of games everywhere (the most dealing 9 at payday cost 2: 1.2%" in text[2]


def seat_rows(games: list[list[dict]], **keys) -> pl.DataFrame:
    """Per-game rows in the shape of zsim.harness.chunks.rows_frame (the columns the analyses read)."""
    out = []
    for g, seats in enumerate(games):
        for s, r in enumerate(seats):
            base = dict(game=g, seat=s, strategy="simple", place=s + 1, money=0, job_income=0, payday_paid=0,
                        bids=0, bid_sum=0, turns=20, paydays=5, jobs_revealed=10, jobs_no_bid=2, jobs_one_bid=3,
                        jobs_tied=1, eliminations=0, lead_changes=0, **keys)
            base.update(r)
            out.append(base)
    return pl.DataFrame(out)


def test_rule_table_income_per_seat_is_the_mean_over_games_with_its_interval():
    games = [[{"job_income": 10, "payday_paid": 2}, {"job_income": 4, "payday_paid": 6}],
             [{"job_income": 8, "payday_paid": 0}, {"job_income": 6, "payday_paid": 1}],
             [{"job_income": 3, "payday_paid": 3}, {"job_income": 9, "payday_paid": 0, "eliminations": 1}]]
    col = Collector(tradeoff.RULE_KEYS, [], [], tradeoff.RULE_GAME_METRICS)
    col.add(seat_rows(games, players=2, hand_size=7, payday_cost=1), 2)
    t = tradeoff.rule_table(col.out.game, 2)
    per_game = np.array([(10 - 2 + 4 - 6) / 2, (8 + 6 - 1) / 2, (3 - 3 + 9) / 2])
    assert t["income_less_payday_per_seat"][0] == pytest.approx(per_game.mean())
    assert t["income_less_payday_per_seat_ci95"][0] == pytest.approx(1.96 * per_game.std(ddof=1) / math.sqrt(3))
    assert t.columns[:6] == ["players", "hand_size", "payday_cost", "games", "income_less_payday_per_seat",
                             "income_less_payday_per_seat_ci95"]
    for c in ("elimination_rate", "elimination_rate_lo", "elimination_rate_hi", "game_turns",
              "payday_share_of_income", "winner_margin", "seat_chi2", "seat_p", "seat_spread_pp"):
        assert c in t.columns, c
    assert t["games"][0] == 3 and t["game_turns"][0] == 20


def test_every_column_of_the_tables_has_a_definition(small_run):
    result, _ = small_run
    missing = set()
    for caption, t in result.tables.items():
        for c in t.columns:
            base = c
            for suffix in ("_ci95", "_lo", "_hi"):
                base = base.removesuffix(suffix)
            if base not in common.DEFINITIONS:
                missing.add(f"{caption}: {c}")
    assert not missing, sorted(missing)


# ---------------------------------------------------------------- the heatmap helper
def test_outline_draws_the_border_of_a_region_of_cells():
    fig, axes = common.figure()
    ax = axes[0][0]
    before = len(ax.lines)
    # [[T, F], [T, T]]: 3 edges around the top left, 2 around the bottom left, 3 around the bottom right
    assert heatmap.outline(ax, [[True, False], [True, True]]) == 8
    assert len(ax.lines) - before == 8
    assert heatmap.outline(ax, [[False, False], [False, False]]) == 0
    assert heatmap.outline(ax, [[True]]) == 4
    import matplotlib.pyplot as plt
    plt.close(fig)


def test_text_colour_stands_out_against_the_cell():
    assert heatmap.text_colour((1.0, 1.0, 0.0, 1.0)) == "black"      # yellow
    assert heatmap.text_colour((1.0, 1.0, 1.0)) == "black"
    assert heatmap.text_colour((0.0, 0.13, 0.3, 1.0)) == "white"     # the dark end of cividis
    assert heatmap.text_colour((0.0, 0.0, 0.0)) == "white"


def test_norm_is_symmetric_around_a_centre_and_cells_round_to_their_interval():
    m = heatmap.as_matrix([[10.0, None], [40.0, 20.0]])
    assert math.isnan(m[0, 1])
    n = heatmap.norm(m, center=25.0)
    assert (n.vmin, n.vmax) == (10.0, 40.0)
    n = heatmap.norm(m, center=30.0)
    assert (n.vmin, n.vmax) == (10.0, 50.0)
    n = heatmap.norm(m)
    assert (n.vmin, n.vmax) == (10.0, 40.0)
    assert heatmap.cell_text(0.3523, 0.0047, scale=100) == "35.2\n±0.5"
    assert heatmap.cell_text(7.004, 0.12) == "7.0\n±0.1"
    assert heatmap.cell_text(-10.604, 0.08, max_places=1) == "-10.6\n±0.08"   # narrow cells
    assert heatmap.cell_text(12.3, 0.004, max_places=1) == "12.3\n±0.01"    # rounded up, never a false 0
    assert heatmap.cell_text(0.0, 0.0, max_places=3) == "0.000\n±0"          # no spread at all
    assert heatmap.cell_text(None, 0.1) == heatmap.MISSING
    assert heatmap.interval_text(0.5, 0.45, 0.56) == "0.50\n[0.45, 0.56]"


def test_draw_marks_cells_and_refuses_bad_shapes():
    fig, axes = common.figure()
    ax = axes[0][0]
    heatmap.draw(ax, [[1.0, 2.0, None], [4.0, 5.0, 6.0]], ["a", "b"], [1, 2, 3], stars=[(1, 2)],
                 boxes=[(0, 0)], cbar_label="units")
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["1", "2", heatmap.MISSING, "4", "5", "6"]
    assert sum(1 for p in ax.patches if not p.get_fill()) == 2          # the box: outer and inner outline
    assert [ln.get_marker() for ln in ax.lines] == ["*"]
    assert len(fig.axes) == 2 and fig.axes[1].get_ylabel() == "units"    # the colour bar
    assert heatmap.marks_legend(fig, "best", "default") is not None
    assert heatmap.marks_legend(fig) is None
    with pytest.raises(ValueError, match="outside"):
        heatmap.draw(ax, [[1.0]], ["a"], ["b"], stars=[(0, 1)])
    with pytest.raises(ValueError, match="labels"):
        heatmap.draw(ax, [[1.0, 2.0]], ["a"], ["b"])


# ---------------------------------------------------------------- real runs

@pytest.fixture(scope="module")
def small_run():
    played = [0]

    def advance(n):
        played[0] += n
    result = tradeoff.run([2, 3], None, 240, 5, Rules(), default_deck(), advance, **SMALL)
    total = tradeoff.total_games([2, 3], None, 240, Rules(), default_deck(), **SMALL)
    return result, (played[0], total)


def test_run_plays_what_it_announces_and_fills_every_part(small_run):
    result, (played, total) = small_run
    assert played == total == 2 * 2 * 240 * 2 + 2 * 2 * 2 * 240
    best, grid_t, rule_t = result.tables.values()
    assert [(r["players"], r["payday_cost"]) for r in best.iter_rows(named=True)] == [(2, 0), (2, 2), (3, 0), (3, 2)]
    assert grid_t.height == 8 and set(grid_t["games"]) == {240}
    assert rule_t.height == 8 and set(rule_t["games"]) == {240}
    assert set(result.details) == {list(result.tables)[1], list(result.tables)[2]}
    # paying nothing at paydays: income less payday is the job income
    zero = grid_t.filter(pl.col("payday_cost") == 0)
    assert zero["income_less_payday"].to_list() == zero["job_income"].to_list()
    # the best row is the grid's maximum
    for r in best.iter_rows(named=True):
        part = grid_t.filter((pl.col("players") == r["players"]) & (pl.col("payday_cost") == r["payday_cost"]))
        assert r["win_share"] == part["win_share"].max()
    assert len(result.figures) == 2 + 2 + 1 + 2 and set(result.alts) == set(result.figures)
    for cap, fig in result.figures.items():
        titles = [a.get_title() for a in fig.axes if a.get_title()]
        assert titles and all("players)" in t or t.endswith(" players") for t in titles), cap
    # the rules' axes come first, every player count on one colour scale
    spread = [c for c in result.figures if c.startswith("Seat spread")]
    assert list(result.figures)[:2] == spread
    limits = {tuple(a.images[0].get_clim()) for c in spread for a in result.figures[c].axes if a.images}
    assert len(limits) == 1 and min(limits)[0] == 0.0
    assert max(limits)[1] >= max(x for x in rule_t["seat_spread_pp"].to_list() if x is not None)
    assert any("At 2 players" in a for a in result.alts.values())
    assert len(result.findings) >= 4
    assert "240 games per point" in result.summary and "seed 5" in result.summary.lower()
    assert "common random numbers" in result.summary


def test_tables_do_not_depend_on_chunks_or_threads():
    args = ([2, 3], "counter", 600, Rules(), default_deck())
    spts, rpts = tradeoff.points(*args, targets=(3, 9), costs=(0, 2), hand_sizes=(4, 8))

    def sums(chunk, threads):
        numba.set_num_threads(threads)
        return tradeoff.play(spts, rpts, 17, chunk=chunk)
    try:
        a, b = sums(65536, numba.config.NUMBA_NUM_THREADS), sums(97, 1)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert a.seat.equals(b.seat)
    assert a.game.keys() == b.game.keys() == {2, 3}
    assert all(a.game[p].equals(b.game[p]) for p in (2, 3))
    assert tradeoff.grid_table(a.seat).equals(tradeoff.grid_table(b.seat))
    assert a.seat.filter(pl.col("tested"))["n"].to_list() == [600] * 8


def assert_png(path: Path) -> None:
    with Image.open(path) as im:
        im.verify()
    with Image.open(path) as im:
        assert im.format == "PNG" and 400 < im.size[0] < 1400 and im.size[1] > 300   # up to a full-width figure


def test_cli_writes_tables_and_plots(tmp_path):
    out = tmp_path / "t.csv"
    r = CliRunner().invoke(cli, ["analyze", "tradeoff", "--players", "2,3", "--targets", "2,8", "--costs", "0,2",
                                 "--hand-sizes", "5,7", "--games", "240", "--seed", "5", "--out", str(out),
                                 "--plots", str(tmp_path / "plots"), "-q"])
    assert r.exit_code == 0, (r.output, r.exception)
    best = pl.read_csv(out)
    assert best.columns[:4] == ["players", "payday_cost", "best_target", "win_share"]
    assert best.height == 4
    grid_t = pl.read_csv(tmp_path / "t-tested-seat-per-target-hand-and-payday-cost.csv")
    rule_t = pl.read_csv(tmp_path / "t-the-field-per-dealt-hand-size-and-payday-cost.csv")
    assert grid_t.height == 8 and rule_t.height == 8
    pngs = sorted((tmp_path / "plots").glob("tradeoff-*.png"))
    assert len(pngs) == 7          # per player count: the seat spread, the strategy grid, the rule grid; and one
    for p in pngs:
        assert_png(p)
    assert "Best target hand per payday cost" in r.output and "±" in r.output


def test_cli_json_matches_the_python_run(small_run):
    result, _ = small_run
    r = CliRunner().invoke(cli, ["analyze", "tradeoff", "--players", "2,3", "--targets", "2,8", "--costs", "0,2",
                                 "--hand-sizes", "5,7", "--games", "240", "--seed", "5", "--json", "-q",
                                 "--threads", "1"])
    assert r.exit_code == 0, (r.output, r.exception)
    doc = json.loads(r.output)
    assert doc["analysis"] == "tradeoff"
    best = doc["tables"]["Best target hand per payday cost"]
    assert [row["best_target"] for row in best] == result.main["best_target"].to_list()
    assert [row["win_share"] for row in best] == result.main["win_share"].to_list()


@pytest.mark.parametrize("args, message", [
    (["--targets", "11..14"], "--targets 13 is outside 0..12"),
    (["--targets", "2,-1"], "--targets -1 is outside 0..12"),
    (["--costs", "-1..2"], "--costs -1 is outside 0..100"),
    (["--hand-sizes", "3..13"], "--hand-sizes 13 at 2 players: rule card_cap=12 is below hand_size=13"),
    (["--players", "4", "--rule", "supply=10,10,10,10", "--hand-sizes", "9..11"],
     "--hand-sizes 11 at 4 players: 4 players x hand_size 11"),
    (["--rule", "payday_cost=2"], "--rule payday_cost is swept by tradeoff"),
    (["--rule", "hand_size=5"], "--rule hand_size is swept by tradeoff"),
    (["--players", "2,5"], "--players 5 is outside 2..4"),
    (["--hand-sizes", "x"], "not a comma list"),
    (["--field", "nosuch"], "unknown strategy"),
])
def test_cli_refuses_bad_input_before_any_game(args, message, monkeypatch, tmp_path):
    def no_games(*a, **k):
        raise AssertionError("a game was played")
    monkeypatch.setattr(play, "simulate", no_games)
    r = CliRunner().invoke(cli, ["analyze", "tradeoff", "--games", "240", *args, "--out", str(tmp_path / "t.csv"),
                                 "-q"])
    assert isinstance(r.exception, ZsimError), (r.output, r.exception)
    assert message in str(r.exception) and "\n" not in str(r.exception)
    assert list(tmp_path.iterdir()) == []


def test_the_real_entry_point_says_one_line_and_exits_2():
    proc = subprocess.run([sys.executable, "-m", "zsim.cli", "analyze", "tradeoff", "--rule", "payday_cost=2",
                           "-q"], check=False, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "zsim: error: --rule payday_cost is swept by tradeoff; choose its values with --costs"]
