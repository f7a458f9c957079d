"""The analyses' arithmetic on tiny hand-made frames with answers worked out by hand."""
from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from analyses import common, deck, hand_size, payday_cost, players, stats
from analyses.stats import Mean, Ratio
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules


def rows(games: list[list[dict]], **keys) -> pl.DataFrame:
    """Per-game rows in the shape of ``zsim.runner.rows_frame`` (only the
    columns the analyses read), one dict per seat."""
    out = []
    for g, seats in enumerate(games):
        for s, r in enumerate(seats):
            base = dict(game=g, seat=s, strategy="simple", place=1, money=0, job_income=0, payday_paid=0,
                        bids=0, bid_sum=0, turns=20, paydays=5, jobs_revealed=10, jobs_no_bid=2,
                        jobs_one_bid=3, jobs_tied=1, eliminations=0, lead_changes=0, **keys)
            base.update(r)
            out.append(base)
    return pl.DataFrame(out)


def test_win_units_split_a_shared_first_place():
    f = rows([[{"place": 1}, {"place": 1}, {"place": 3}], [{"place": 2}, {"place": 1}, {"place": 3}]])
    w = stats.with_win_units(f, 3)["win_units"].to_list()
    assert w == [6, 6, 0, 0, 12, 0]


def test_mean_and_its_interval():
    f = pl.DataFrame({"g": [0, 0, 0, 0], "x": [1, 2, 3, 4]})
    est = stats.estimates(stats.sums(f, ["g"], ["x"]), ["g"], [Mean("m", "x")])
    sd = math.sqrt(sum((v - 2.5) ** 2 for v in (1, 2, 3, 4)) / 3)
    assert est["m"][0] == 2.5
    assert est["m_ci95"][0] == pytest.approx(1.96 * sd / 2)
    assert est["games"][0] == 4


def test_ratio_and_its_delta_method_interval():
    f = pl.DataFrame({"g": [0, 0], "x": [1, 2], "y": [2, 2]})
    m = Ratio("r", "x", "y")
    est = stats.estimates(stats.sums(f, ["g"], ["x", "y"], [("x", "y")]), ["g"], [m])
    # R = 3/4; residuals x - R y = -0.5, 0.5; their variance 0.5; mean y = 2
    assert est["r"][0] == 0.75
    assert est["r_ci95"][0] == pytest.approx(1.96 * math.sqrt(0.5 / 2) / 2)


def test_sums_merge_to_the_same_totals_however_the_rows_are_cut():
    rng = np.random.default_rng(5)
    f = pl.DataFrame({"k": rng.integers(0, 3, 500), "x": rng.integers(-20, 50, 500),
                      "y": rng.integers(1, 9, 500)})
    whole = stats.sums(f, ["k"], ["x", "y"], [("x", "y")])
    merged = None
    for start in range(0, 500, 77):
        merged = stats.merge(merged, stats.sums(f[start:start + 77], ["k"], ["x", "y"], [("x", "y")]), ["k"])
    assert merged.equals(whole)
    assert whole["n"].sum() == 500 and whole["x:s"].sum() == f["x"].sum()


def test_game_frame_margin_and_seat_wins():
    f = rows([[{"money": 10, "place": 1}, {"money": 7, "place": 2}, {"money": 7, "place": 2}],
              [{"money": 9, "place": 1}, {"money": 9, "place": 1}, {"money": 0, "place": 3,
                                                                     "eliminated": 1}]])
    g = stats.game_frame(f, [], 3).sort("game")
    assert g["margin"].to_list() == [3, 0]
    assert g["w0"].to_list() == [12, 6] and g["w1"].to_list() == [0, 6] and g["w2"].to_list() == [0, 0]
    assert g["d01"].to_list() == [12, 0]
    assert g["jobs_awarded"].to_list() == [8, 8]


def test_seat_advantage_is_one_less_the_widest_gap():
    # seat 0 wins 3 of 4 games, seat 1 the other: shares 0.75 / 0.25, gap 0.5
    f = rows([[{"place": 1}, {"place": 2}]] * 3 + [[{"place": 2}, {"place": 1}]])
    g = stats.game_frame(f, [], 2)
    s = stats.sums(g.with_columns(pl.lit(0).alias("k")), ["k"], stats.seat_win_columns(2))
    adv = stats.seat_advantage(s, ["k"], 2)
    assert adv["seat_advantage"][0] == pytest.approx(0.5)
    assert (adv["best_seat"][0], adv["worst_seat"][0]) == (0, 1)
    d = np.array([1, 1, 1, -1.0])   # per-game gap in win shares
    assert adv["seat_advantage_ci95"][0] == pytest.approx(1.96 * d.std(ddof=1) / 2)


def test_balance_table_rates():
    f = rows([[{"place": 1, "payday_paid": 3, "job_income": 6}, {"place": 2, "payday_paid": 1, "job_income": 2}],
              [{"place": 2}, {"place": 1, "job_income": 4}]], k=1)
    g = stats.game_frame(f, ["k"], 2)
    cols = stats.metric_columns(common.GAME_METRICS) + stats.seat_win_columns(2)
    s = stats.sums(g, ["k"], cols, stats.ratio_products(common.GAME_METRICS))
    t = common.balance_table(s, ["k"], 2)
    assert t["one_bidder_share"][0] == pytest.approx(6 / 20)
    assert t["tie_rate"][0] == pytest.approx(2 / 16)
    assert t["payday_share_of_income"][0] == pytest.approx(4 / 12)
    assert t["seat_advantage"][0] == pytest.approx(1.0)
    assert t.columns[:2] == ["k", "games"]


def test_hand_size_table_reads_only_the_tested_seat():
    f = rows([[{"money": 30, "place": 1}, {"money": 10, "place": 2}],
              [{"money": 20, "place": 2}, {"money": 40, "place": 1}]], target=6)
    f = f.with_columns((pl.col("seat") == 0).alias("tested"),
                       (pl.col("job_income") - pl.col("payday_paid")).alias("net_income"),
                       pl.lit(0).alias("jobs_won"), pl.lit(0).alias("idle_at_payday"))
    col = hand_size.collector()
    col.add(f, 2)
    t = hand_size.table(col.out.seat)
    assert t["target"].to_list() == [6]
    assert t["money"][0] == 25 and t["win_share"][0] == 0.5 and t["games"][0] == 2


def test_hand_size_points_rotate_the_tested_seat():
    pts = hand_size.points(3, "simple", 900, Rules(), default_deck(), targets=(5,))
    assert [p.tested_seat for p in pts] == [0, 1, 2]
    for p in pts:
        assert p.matchup.strategies[p.tested_seat] == "handsize:target=5"
        assert sum(s == "simple" for s in p.matchup.strategies) == 2
        assert p.games == 300


def test_payday_cost_points_change_one_rule_each():
    pts = payday_cost.points(2, None, 10, Rules(), default_deck())
    base = Rules().as_dict()
    assert len(pts) == sum(len(v) for v in payday_cost.SWEEPS.values())
    for p in pts:
        changed = {k: v for k, v in p.matchup.rules.as_dict().items() if v != base[k]}
        rule = payday_cost._rule_key(p.key["rule"], 2)
        assert set(changed) <= {rule}
        assert int(p.matchup.rules.as_dict()[rule]) == p.key["value"]


def test_money_distribution_and_quantiles():
    hist = pl.DataFrame({"players": [2, 2, 2, 2], "money": [0, 1, 5, 9], "count": [1, 1, 2, 6]})
    d = players.money_distribution(hist)
    assert d["money_from"].to_list() == [0, 4, 8]
    assert d["share"].to_list() == pytest.approx([0.2, 0.2, 0.6])
    assert d["share_ci95"][2] == pytest.approx(1.96 * math.sqrt(0.6 * 0.4 / 10))
    q = players.money_quantiles(hist).row(0, named=True)
    assert (q["p10"], q["median"], q["p90"]) == (0, 9, 9)
    assert q["mean"] == pytest.approx((0 + 1 + 10 + 54) / 10)
    assert q["zero_share"] == pytest.approx(0.1)


def test_perturbed_decks_keep_job_sizes_and_supply():
    base = default_deck()
    supply = Rules().supply
    a = deck.decks([], 4, seed=3, supply=supply)
    b = deck.decks([], 4, seed=3, supply=supply)
    c = deck.decks([], 4, seed=4, supply=supply)
    assert [d.name for d in a] == ["default", "perturbed-1", "perturbed-2", "perturbed-3", "perturbed-4"]
    assert all((x.needs == y.needs).all() for x, y in zip(a, b))          # seeded
    assert any((x.needs != y.needs).any() for x, y in zip(a[1:], c[1:]))  # and by the seed
    for d in a[1:]:
        assert (d.needs.sum(axis=1) == base.needs.sum(axis=1)).all()
        moved = np.abs(d.needs - base.needs).sum(axis=1)
        assert set(moved.tolist()) <= {0, 2} and (moved > 0).any()
        assert (d.needs <= np.array(supply)).all() and (d.needs >= 0).all()
        d.check_supply(supply)


def test_field_specs_fill_the_seats_in_turn():
    assert common.field_specs(None, 3) == ["simple"] * 3
    assert common.field_specs("random,fixed:k=5", 3) == ["random", "fixed:k=5", "random"]
