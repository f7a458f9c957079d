"""`zsim bench` reports what it promises (its figures are not asserted: speed
is measured by the benchmark, never by a test)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from zsim.cli import cli


def test_bench_json_rows():
    result = CliRunner().invoke(cli, ["bench", "--json", "--games", "2000", "--repeat", "1",
                                      "--reference-games", "3", "--no-startup"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    for row in rows:
        assert {"engine", "players", "threads", "games_per_s"} <= set(row)
        assert row["engine"] in ("fast", "reference")
        assert row["games_per_s"] > 0
    combos = {(r["engine"], r["players"], r["threads"]) for r in rows}
    assert ("reference", 4, 1) in combos and ("fast", 4, 1) in combos and ("fast", 2, 1) in combos
    fast_one = [r for r in rows if r["engine"] == "fast" and r["threads"] == 1 and r["field"] == "simple"]
    assert len(fast_one) == 2 and all("vs_reference" in r for r in fast_one)
    mixed = [r for r in rows if r["field"].startswith("mixed")]
    assert len(mixed) == 1 and mixed[0]["vs_simple_field"] > 0 and mixed[0]["vs_own_fields"] > 0
    assert mixed[0]["default_through_mixed_kernel"] > 0
    for name in ("counter", "monopolist", "undercut", "handsize", "simple"):
        assert name in mixed[0]["field"]
    assert "oracle" not in mixed[0]["field"]


def test_bench_text_names_the_ratios():
    result = CliRunner().invoke(cli, ["bench", "--games", "2000", "--repeat", "1",
                                      "--reference-games", "3", "--no-startup"])
    assert result.exit_code == 0, result.output
    assert "x reference" in result.output and "games/s" in result.output
    assert "decisions/s" in result.output and "decisions a game" in result.output


def test_bench_scaling_rows():
    import numba

    result = CliRunner().invoke(cli, ["bench", "--scaling", "--json", "--games", "4000", "--repeat", "1",
                                      "--workers", "2"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    local = [r for r in rows if r["backend"] == "local"]
    dask = [r for r in rows if r["backend"] == "dask"]
    assert [r["units"] for r in local] == list(range(1, numba.config.NUMBA_NUM_THREADS + 1))
    assert [r["units"] for r in dask] == [1, 2]
    for group in (local, dask):
        one = group[0]["games_per_s"]
        assert group[0]["efficiency"] == 1.0
        for r in group:
            assert r["games_per_s"] > 0
            assert r["efficiency"] == r["games_per_s"] / (r["units"] * one)
    assert all(r["vs_local_same_cores"] > 0 for r in dask)


def test_bench_takes_a_game_and_reports_turns():
    from zsim.games import get_game

    game = get_game("zahlemann")
    result = CliRunner().invoke(cli, ["bench", "--game", "zahlemann", "--json", "--games", "2000",
                                      "--repeat", "1", "--reference-games", "3", "--no-startup"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {r["game"] for r in rows} == {"zahlemann"}
    assert {r["players"] for r in rows} == {game.min_players, game.max_players}
    for r in rows:
        assert r["turns_per_s"] > r["games_per_s"] > 0      # every game has several turns
    fast_one = [r for r in rows if r["engine"] == "fast" and r["threads"] == 1
                and r["field"] == game.strategies.default]
    assert len(fast_one) == 2 and all(r["vs_reference"] > 0 for r in fast_one)
    # decisions/s: every row of the default field, the reference's too, at its player count's
    # decisions a game (counted on the 3 reference games); the mixed field has none
    per_game = {}
    for r in rows:
        if r["field"] != game.strategies.default:
            assert "decisions_per_s" not in r
            continue
        assert r["decisions_per_game"] > 0
        assert r["decisions_per_s"] == r["games_per_s"] * r["decisions_per_game"]
        assert per_game.setdefault(r["players"], r["decisions_per_game"]) == r["decisions_per_game"]
    assert set(per_game) == {game.min_players, game.max_players}


def test_reference_ratio_is_the_median_of_alternating_rounds(monkeypatch):
    """Each round times the reference engine, then the fast one; the ratio
    reported is the median of the rounds' ratios, not the ratio of medians
    (which a slow minute on one side alone would move)."""
    from zsim.harness import bench as _bench

    order = []
    monkeypatch.setattr(_bench, "_fast_runner", lambda *a: (lambda: order.append("fast"), 1))
    monkeypatch.setattr(_bench, "_reference_runner", lambda *a: lambda: order.append("reference"))
    rates = {"reference": iter([100.0, 50.0, 200.0]), "fast": iter([3000.0, 2000.0, 1000.0])}

    def fake_rate(fn, games, repeat):
        fn()
        return next(rates[order[-1]])

    monkeypatch.setattr(_bench, "_median_rate", fake_rate)
    ref, fast, ratio = _bench.paired_rates(4, 1000, 10, 3)
    assert order == ["reference"] + ["reference", "fast"] * 3      # one warm-up, then alternating rounds
    assert (ref, fast) == (100.0, 2000.0)
    assert ratio == 30.0                   # rounds 30x, 40x, 5x; the ratio of the medians would be 20x


def test_the_mixed_field_is_timed_in_rounds_with_the_default_and_its_own_fields(monkeypatch):
    """Each round times the mixed field, the default field, the default field through the
    mixed field's kernel and each bot's own field; the figures are the medians of the
    rounds' own ratios. At no cost of mixing a turn of
    the tables would cost the mean over their seats of a turn of each seat's own field."""
    from zsim.harness import bench as _bench

    order = []

    def fake_runner(players, threads, games, tables, game, compile_for=None):
        assert threads == 1 and players == 2
        name = ("through" if compile_for else "default") if tables is None else \
            "mixed" if len(tables) > 1 else tables[0][0]
        if name == "through":
            assert compile_for == ("a", "b", "simple")      # the mixed field's bots and the default
        if tables is not None and len(tables) == 1:
            assert tables == [(name,) * players]              # a bot's own field
        return (lambda: order.append(name)), 1

    # per round: mixed, default, a, b (games/s); round 2 is a slow minute for everyone
    rates = {"mixed": iter([60.0, 30.0, 66.0]), "default": iter([100.0, 50.0, 60.0]),
             "through": iter([95.0, 40.0, 57.0]),
             "a": iter([100.0, 50.0, 100.0]), "b": iter([50.0, 25.0, 50.0])}
    turns = {("a", "b"): 8.0, ("a", "a"): 8.0, ("b", "b"): 4.0}

    def fake_rate(fn, games, repeat):
        assert repeat == 1
        fn()
        return next(rates[order[-1]])

    def fake_turns(players, game, tables):
        return sum(turns[t] for t in tables) / len(tables) if tables[0][0] != "b" else turns[("b", "b")]

    monkeypatch.setattr(_bench, "_fast_runner", fake_runner)
    monkeypatch.setattr(_bench, "_median_rate", fake_rate)
    monkeypatch.setattr(_bench, "turns_per_game", fake_turns)
    got = _bench.mixed_field_rounds(2, 1000, 3, [("a", "b"), ("a", "a")])
    assert order == ["mixed", "default", "through", "a", "b"] * 3
    assert got["games_per_s"] == 60.0 and got["turns_per_s"] == 60.0 * 8.0
    assert got["vs_simple_field"] == 0.6               # rounds 0.6, 0.6, 1.1: the median of the ratios
    # a round at full speed: a turn of a costs 1/800 s, of b 1/200 s; three seats of a, one of b
    alone = 4 / (3 / 800 + 1 / 200)
    assert abs(got["vs_own_fields"] - 60.0 * 8.0 / alone) < 1e-9
    assert got["default_through_mixed_kernel"] == 0.95  # rounds 0.95, 0.8, 0.95


def test_the_numba_floor_is_timed_on_a_kernel_from_its_cache():
    """The floor under a warm start: the script's first run compiles its kernel, every
    timed run loads it from the script's own cache (a compile would not be a floor)."""
    import os

    from zsim.harness.bench import NumbaFloor

    floor = NumbaFloor()
    try:
        assert floor.run() == "cached"
        assert floor.time() > 0
        floor.env["NUMBA_CACHE_DIR"] = os.path.join(os.path.dirname(floor.script), "empty")
        with pytest.raises(RuntimeError, match="compiled"):     # an empty cache: not a floor
            floor.time()
    finally:
        floor.close()
    assert not os.path.exists(floor.script)


def test_warm_start_alternates_with_the_floor(monkeypatch):
    """Warm `zsim simulate` runs and floor runs alternate, so their medians share minutes."""
    from zsim.harness import bench as _bench

    order = []
    warm = iter([1.0, 1.0, 5.0, 1.2, 0.9])   # cold start, the untimed warm-up, then 3 timed runs

    def fake_zsim(args, env=None):
        order.append("cold" if env else "zsim")
        return next(warm)

    class FakeFloor:
        def __init__(self):
            self.times = iter([0.5, 0.7, 0.6])

        def time(self):
            order.append("floor")
            return next(self.times)

        def close(self):
            order.append("closed")

    monkeypatch.setattr(_bench, "_zsim", fake_zsim)
    monkeypatch.setattr(_bench, "NumbaFloor", FakeFloor)
    got = _bench.startup_times(3, "zahltag")
    assert order == ["cold", "zsim"] + ["zsim", "floor"] * 3 + ["closed"]
    assert got == {"cold_start_s": 1.0, "warm_simulate_1000_s": 1.2, "numba_floor_s": 0.6}


def test_thread_scaling_is_the_median_of_alternating_rounds(monkeypatch):
    """One thread, then all, in each round; the scaling reported is the median of the
    rounds' own ratios (a neighbour on a core for a minute moves one round, not a side)."""
    from zsim.harness import bench as _bench

    order = []
    monkeypatch.setattr(_bench, "_fast_runner",
                        lambda players, threads, *a: (lambda: order.append(threads), 1))
    rates = {1: iter([100.0, 50.0, 100.0]), 2: iter([190.0, 180.0, 120.0])}

    def fake_rate(fn, games, repeat):
        fn()
        return next(rates[order[-1]])

    monkeypatch.setattr(_bench, "_median_rate", fake_rate)
    many, ratio = _bench.thread_scaling(4, 2, 1000, 3)
    assert order == [1, 2] * 3
    assert many == 180.0
    assert ratio == 1.9            # rounds 1.9x, 3.6x, 1.2x; the ratio of the medians would be 1.8x


def test_the_search_bench_measures_its_figures_from_positions_of_real_games():
    """Rates differ from run to run; what is measured and printed does not."""
    import zsim

    b = zsim.bench(game="zahltag", strategy="ismcts:iterations=8", players=2, positions=3, repeat=2, games=200)
    assert [r["round"] for r in b.rows] == [1, 2, "median"]
    last = b.rows[-1]
    for key in ("batch_games_s", "model_games_s", "playouts_s", "iterations_s", "iterations_s_all", "decision_ms"):
        assert last[key] > 0, key
    for r in b.rows[:2]:       # a round's ratio is of its own two figures; the last row's the median of those
        assert r["model_vs_batch"] == r["model_games_s"] / r["batch_games_s"]
        assert r["search_vs_playouts"] == r["iterations_s"] / r["playouts_s"]
    assert last["model_vs_batch"] == pytest.approx((b.rows[0]["model_vs_batch"] + b.rows[1]["model_vs_batch"]) / 2)
    assert last["iterations"] == 8
    assert "target >= 0.5x" in b.text() and "one decision" in b.text()
    with pytest.raises(zsim.ZsimError, match="--strategy must be a search of zahltag"):
        zsim.bench(game="zahltag", strategy="simple", repeat=1)
