"""`zsim sweep` and `zsim.sweep`: any rule of any game, measured alike,
on the same deals, with its bad input refused before a game is played."""
from __future__ import annotations

import json

import matplotlib.pyplot as plt
import polars as pl
import pytest
from click.testing import CliRunner

import browser
import zsim
from analyses import sweep
from zsim.cli import cli
from zsim.errors import ZsimError
from zsim.game_registry import get_game

GAMES = 600


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=True)


@pytest.fixture
def refused(capsys, tmp_path, monkeypatch):
    """The command's one line on stderr, its exit code 2, and nothing written."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> str:
        from zsim.cli import main

        with pytest.raises(SystemExit) as exc:
            main(list(args))
        err = capsys.readouterr().err
        assert exc.value.code == 2, err
        lines = [x for x in err.splitlines() if x.strip()]
        assert len(lines) == 1 and "Traceback" not in err, err
        assert not list(tmp_path.iterdir())
        return lines[0].removeprefix("zsim: error: ")
    return run


# ---------------------------------------------------------------- reading what to sweep
def test_values_are_read_as_ranges_lists_and_yes_no_against_the_rule_specs():
    a = sweep.parse_axis("zahltag", "hand_size=5..9")
    assert a.values == (5, 6, 7, 8, 9) and a.printed == 7 and a.printed_label == "7"
    assert sweep.parse_axis("zahltag", "payday_cost=0..12:4").values == (0, 4, 8, 12)
    assert sweep.parse_axis("zahltag", "tie_discount=2,0,1").values == (2, 0, 1)     # the order given
    assert sweep.parse_axis("zahltag", "payday_counts_table=both").values == (False, True)
    assert sweep.parse_axis("zahltag", "over_cap=forbid,penalize").labels == ("forbid", "penalize")
    supply = sweep.parse_axis("zahltag", "supply=14,16,10,12;10,10,10,10")
    assert supply.values == ((14, 16, 10, 12), (10, 10, 10, 10)) and supply.printed_label == "14,16,10,12"
    assert sweep.parse_axis("zahltag", "payday_cost=2,3").printed_label is None    # the printed 1 is not swept


@pytest.mark.parametrize("text, message", [
    ("handsize=5..9", "unknown rule key 'handsize' for zahltag (valid keys: start_money, payday_cost,"),
    ("hand_size=0..3", "rule hand_size=0 is out of range 1..26"),
    ("hand_size=5,5", "--rule hand_size=5,5 gives the value 5 twice"),
    ("hand_size=9..5", "--rule hand_size=9..5: a range runs from low to high in steps above 0"),
    ("hand_size=5..x", "--rule hand_size=5..x: a range is LOW..HIGH or LOW..HIGH:STEP"),
    ("hand_size", "--rule 'hand_size' is not of the form KEY=VALUES"),
    ("hand_size=5,,6", "--rule hand_size=5,,6 has an empty value"),
])
def test_a_bad_axis_is_one_line_naming_it(text, message):
    with pytest.raises(ZsimError) as e:
        sweep.parse_axis("zahltag", text)
    assert str(e.value).startswith(message), str(e.value)


def test_a_grid_over_the_cap_a_key_swept_and_fixed_and_an_unplayable_point_are_refused_before_play(refused):
    too_big = refused("sweep", "--rule", "hand_size=1..26", "--rule", "payday_cost=0..20", "--games", "1000",
                      "--out", "t.parquet", "--report", "page")
    assert too_big == ("the sweep has 1638 points (3 player counts × 26 × 21), over --max-points 400: "
                       "1,638,000 games of the field alone; narrow a range, or raise --max-points")
    assert refused("sweep", "--rule", "hand_size=5..7", "--fix", "hand_size=6") == \
        "--fix hand_size is also swept by --rule hand_size; fix it or sweep it, not both"
    assert refused("sweep", "--rule", "a=1", "--rule", "b=2", "--rule", "c=3") == \
        "a sweep takes one or two --rule keys, got 3"
    # a hand the supply cannot deal: the game's own check, naming the point
    line = refused("sweep", "--rule", "hand_size=20,26", "--players", "4", "--games", "10")
    assert line.startswith("the point hand_size=20 at 4 players cannot be played: "), line
    assert refused("sweep", "--game", "zahlemann", "--rule", "payday_cost=1,2") .startswith(
        "unknown rule key 'payday_cost' for zahlemann (valid keys: hand_size, coins,")
    assert refused("sweep", "--rule", "payday_cost=0,1", "--strong", "oracle") == \
        "--strong oracle reads hidden cards: the strong player must be a fair one"


# ---------------------------------------------------------------- what a point measures
def test_a_rule_with_an_exact_effect_is_found_and_points_share_their_deals():
    s = zsim.sweep({"payday_cost": [0, 1], "forced_payday_jobs_2p": [7, 8]}, players=4, games=GAMES,
                   strong="none", progress=False)
    t = s.main.sort("payday_cost", "forced_payday_jobs_2p")
    assert t.height == 4 and set(t["games"]) == {GAMES}
    assert t.schema["payday_cost"] == pl.Int64          # the swept keys keep the rules' own types
    # payday_cost=0 zeroes every payday payment; the printed cost does not
    assert t.filter(pl.col("payday_cost") == 0)["payday_paid"].to_list() == [0.0, 0.0]
    assert t.filter(pl.col("payday_cost") == 0)["payday_paid_ci95"].to_list() == [0.0, 0.0]
    assert min(t.filter(pl.col("payday_cost") == 1)["payday_paid"]) > 1
    # the 2-player rule changes nothing at 4 players: on common deals the rows are equal to the last digit
    for cost in (0, 1):
        pair = t.filter(pl.col("payday_cost") == cost).drop("forced_payday_jobs_2p")
        assert pair.row(0) == pair.row(1)
    assert {"seat_gap_pp", "seat_p", "game_length", "winner_margin", "knockout_rate", "lead_changes",
            "end_fifth_payday", "end_last_player", "jobs_won", "eliminated_share"} <= set(t.columns)
    plt.close("all")


def test_a_seat_handicap_reads_uneven_and_the_skill_edge_sees_the_strong_player():
    s = zsim.sweep(["payday_cost=1,2"], players=2, games=4000, field="random,simple", strong="simple",
                   strong_games=800, progress=False)
    t = s.main
    assert t["seats"].to_list() == ["uneven", "uneven"]
    assert t["seat_gap_seat"].to_list() == [0, 0] and (t["seat_gap_signed_pp"] < -5).all()
    seats = s.tables["Win share per seat"].filter(pl.col("seat") == 0)
    assert (seats["win_share"] < 0.45).all()
    # simple in one seat against a field of random and simple, every seat in turn, wins above par
    assert (t["skill_edge_pp"] - t["skill_edge_pp_ci95"] > 0).all() and set(t["strong_games"]) == {800}
    assert any("uneven at 2" in f for f in s.findings), s.findings
    assert s.meta["strong"] == "simple" and s.meta["swept"] == {"payday_cost": ["1", "2"]}
    plt.close("all")


def test_the_same_seed_gives_the_same_sweep_whatever_the_threads_and_a_different_seed_does_not():
    def run(seed, threads=None):
        s = zsim.sweep({"tie_discount": [1, 2]}, players=3, games=300, seed=seed, strong="random",
                       strong_games=60, threads=threads, progress=False)
        plt.close("all")
        return s.main
    a, b, c, one = run(5), run(5), run(6), run(5, threads=1)
    assert a.equals(b) and a.equals(one) and not a.equals(c)


# ---------------------------------------------------------------- outputs
def test_the_command_writes_its_tables_figures_and_page(tmp_path):
    out, plots, page = tmp_path / "sweep.parquet", tmp_path / "plots", tmp_path / "page"
    r = invoke("sweep", "--rule", "payday_cost=0..2", "--rule", "hand_size=6,7", "--players", "3,4",
               "--games", "300", "--strong", "none", "--out", str(out), "--plots", str(plots),
               "--report", str(page), "--json", "-q")
    assert r.exit_code == 0, (r.output, r.exception)
    doc = json.loads(r.output)
    assert doc["analysis"] == "sweep" and len(doc["tables"]["Per point"]) == 12
    assert pl.read_parquet(out).height == 12
    assert pl.read_parquet(tmp_path / "sweep-win-share-per-seat.parquet").height == 2 * 3 * 3 + 2 * 3 * 4
    # two keys: a heatmap per metric, a panel per player count
    assert len(list(plots.glob("sweep-*.png"))) == len(sweep.drawn_metrics(get_game("zahltag"), pl.read_parquet(out)))
    html = (page / "index.html").read_text(encoding="utf-8")
    assert "(the printed rules)" in html and "zsim sweep --game zahltag --rule payday_cost=0,1,2" in html
    assert html.count("<picture>") >= 1
    # the heatmaps fit a laptop and a phone, every label readable (tests/browser.py)
    measured = browser.measure_page(page / "index.html")
    for width, m in measured.items():
        assert browser.problems(m) == [], width
        assert len(m["images"]) == len(list(plots.glob("sweep-*.png")))


def test_one_key_draws_lines_with_bands_and_marks_the_printed_rules():
    s = zsim.sweep({"payday_cost": "0..2"}, players=[2, 4], games=300, strong="none", progress=False)
    (fig,) = s.figures.values()
    axes = [ax for ax in fig.axes if ax.get_visible() and ax.lines]
    assert len(axes) >= 4
    ax = axes[0]
    assert [line.get_label() for line in ax.lines][:2] == ["2 players", "4 players"]
    assert any(p.get_label() == "printed rules" for p in ax.patches)
    assert ax.get_xlabel() == "payday_cost"
    plt.close("all")


def test_every_game_sweeps_alike_plugins_included():
    for game, rule in (("zahlemann", "hand_size=6,7"), ("baumeister", "max_bid=8,10"), ("geier", "carry_over=both")):
        s = zsim.sweep([rule], game=game, players=2, games=200, strong="none", progress=False)
        assert s.main.height == 2 and {"seats", "seat_gap_pp", "winner_margin"} <= set(s.main.columns), game
        if game != "geier":                            # the plugin names no knock-out column
            assert {"game_length", "knockout_rate"} <= set(s.main.columns)
        plt.close("all")
