"""`zsim analyze ...` and `zsim report` through click's CliRunner, on small runs."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numba
import polars as pl
import pytest
from click.testing import CliRunner
from PIL import Image

from analyses import common
from analyses.zahltag import hand_size
from analyses.play import Collector, play_points
from zsim.cli import cli
from zsim.errors import ZsimError
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules

GAMES = "600"


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=True)
    return result


def ok(*args: str):
    r = invoke(*args)
    assert r.exit_code == 0, (r.output, r.exception)
    return r


def assert_png(path: Path) -> None:
    with Image.open(path) as im:
        im.verify()
        assert im.format == "PNG"
    with Image.open(path) as im:
        assert im.size[0] > 100 and im.size[1] > 100


def test_hand_size_json_has_a_row_per_target_with_intervals():
    r = ok("analyze", "hand-size", "--players", "2", "--targets", "4,7,12", "--games", GAMES, "--json", "-q")
    doc = json.loads(r.output)
    t = doc["tables"]["Tested seat per target hand size"]
    assert [row["target"] for row in t] == [4, 7, 12]
    for row in t:
        assert row["games"] == 600
        assert 0 <= row["win_share"] <= 1 and row["win_share_ci95"] > 0
        assert row["income_less_payday"] == pytest.approx(row["job_income"] - row["payday_paid"])


def test_hand_size_writes_tables_and_plots(tmp_path):
    out = tmp_path / "hs.csv"
    ok("analyze", "hand-size", "--players", "3", "--targets", "4..6", "--games", GAMES, "--seed", "9",
       "--out", str(out), "--plots", str(tmp_path / "plots"), "-q")
    t = pl.read_csv(out)
    assert t["target"].to_list() == [4, 5, 6]
    pngs = sorted((tmp_path / "plots").glob("*.png"))
    assert len(pngs) == 2
    for p in pngs:
        assert_png(p)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["hs.csv", "plots"]   # no temp files left


def test_payday_cost_sweeps_each_rule_at_each_player_count_side_by_side(tmp_path):
    out = tmp_path / "pc.parquet"
    r = ok("analyze", "payday-cost", "--players", "2,3", "--games", "300", "--out", str(out),
           "--plots", str(tmp_path / "plots"), "-q")
    t = pl.read_parquet(out)
    two, three = t.filter(pl.col("players") == 2), t.filter(pl.col("players") == 3)
    # two players sweep their own forced-payday rule, its printed 8 included
    assert set(two["rule"]) == {"payday_cost", "paydays_to_end", "forced_payday_jobs_2p", "start_money",
                                "payday_counts_table"}
    assert sorted(two.filter(pl.col("rule") == "forced_payday_jobs_2p")["value"]) == [5, 7, 8, 9, 11, 13]
    assert "forced_payday_jobs" in set(three["rule"]) and three.height == 20 and two.height == 21
    assert two.filter(pl.col("default")).height == 5 and three.filter(pl.col("default")).height == 5
    # paying nothing at paydays means nobody ever pays, and no one is eliminated
    zero = t.filter((pl.col("rule") == "payday_cost") & (pl.col("value") == 0))
    assert zero["payday_share_of_income"].to_list() == [0, 0] and zero["elimination_rate"].to_list() == [0, 0]
    assert zero["elimination_rate_hi"][0] == pytest.approx(1.96 ** 2 / (300 + 1.96 ** 2), rel=1e-3)
    # the text shows the seat test and a zero count as its Wilson bound, never "0 ± 0"
    assert "seat_p" in r.output and "seat_spread_pp" in r.output and "< 0.01" in r.output
    assert "seat_advantage" not in r.output
    # one figure per rule, each with a series per player count
    assert len(list((tmp_path / "plots").glob("*.png"))) == 5


def test_players_compares_player_counts_and_prices_counting():
    r = ok("analyze", "players", "--players", "2,3", "--games", GAMES, "--json", "-q")
    doc = json.loads(r.output)
    bal = doc["tables"]["Balance per player count"]
    assert [row["players"] for row in bal] == [2, 3]
    seats = doc["tables"]["Win share per seat"]
    assert [(row["players"], row["seat"]) for row in seats] == [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
    for p in (2, 3):   # win shares of one table add up to one
        assert sum(row["win_share"] for row in seats if row["players"] == p) == pytest.approx(1.0)
    bids = [row for row in doc["tables"]["Bids"] if row["players"] == 2]
    assert sum(row["share"] for row in bids) == pytest.approx(1.0)
    know = next(v for k, v in doc["tables"].items() if k.startswith("What counting is worth"))
    assert [row["players"] for row in know] == [2, 3]
    assert all(row["edge"] == pytest.approx(row["win_share"] - 1 / row["players"]) for row in know)


def test_deck_compares_user_and_perturbed_decks(tmp_path):
    user = tmp_path / "mine.csv"
    user.write_text((Path(__file__).parents[1] / "zsim/games/zahltag/data/jobs.csv").read_text())
    r = ok("analyze", "deck", "--players", "2", "--deck", str(user), "--perturb", "2", "--games", "400",
           "--json", "-q")
    doc = json.loads(r.output)
    t = doc["tables"]["Headline figures per deck (2 players)"]
    assert [row["deck"] for row in t] == ["default", str(user), "perturbed-1", "perturbed-2"]
    assert {row["players"] for row in t} == {2}
    # the user's copy of the default deck plays exactly the default deck's games
    strip = lambda row: {k: v for k, v in row.items() if k != "deck"}  # noqa: E731
    assert strip(t[0]) == strip(t[1])


@pytest.mark.parametrize("args, message", [
    (["analyze", "hand-size", "--targets", "3..13"], "outside 0..12"),
    (["analyze", "hand-size", "--targets", "x"], "not a comma list"),
    (["analyze", "players", "--players", "2,5"], "outside 2..4"),
    (["analyze", "payday-cost", "--out", "table.txt"], "must end in .parquet or .csv"),
    (["analyze", "deck", "--perturb", "99"], "--perturb must be 0..50"),
    (["analyze", "payday-cost", "--field", "nosuch"], "unknown strategy"),
    (["analyze", "payday-cost", "--games", "0"], "--games must be at least 1"),
    (["analyze", "payday-cost", "--rule", "paydays_to_end=9"], "paydays_to_end"),
])
def test_bad_input_is_refused_before_any_game(args, message):
    r = invoke(*args, "-q")
    assert isinstance(r.exception, ZsimError), r.output
    assert message in str(r.exception)


def test_analysis_tables_do_not_depend_on_chunks_or_threads():
    def run(chunk, threads):
        numba.set_num_threads(threads)
        pts = hand_size.points(2, "counter", 3000, Rules(), default_deck(), targets=(5, 9))
        col = Collector(["target"], ["tested"], hand_size.SEAT_METRICS, common.GAME_METRICS)
        play_points(pts, 11, [col], chunk=chunk)
        return col.out
    try:
        a, b = run(65536, numba.config.NUMBA_NUM_THREADS), run(257, 1)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert a.seat.equals(b.seat) and a.game.equals(b.game)
    assert a.seat["n"].to_list() == [3000] * 4     # (target, tested) -> one row per game
    assert a.game["n"].to_list() == [3000] * 2


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("src", "href") and v:
                self.links.append(v)


def test_report_renders_with_only_existing_files(tmp_path):
    out = tmp_path / "rep"
    printed = ok("report", "--players", "2", "--games", "200", "--tournament-games", "3", "--seed", "4",
                 "--strong", "undercut", "--out", str(out), "-q").output
    html = (out / "index.html").read_text()
    md = (out / "report.md").read_text()
    parser = _Links()
    parser.feed(html)
    files = [x for x in parser.links if not x.startswith("#")]
    assert files, "the report shows no figures"
    for link in files:
        assert "://" not in link
        assert (out / link).is_file(), link
        if link.endswith(".png"):
            assert_png(out / link)
    for link in re.findall(r"\]\((figures/[^)]+)\)", md):
        assert (out / link).is_file()
    for section in ("Hand size against payday cost: the trade-off (2 players)", "What the rules do",
                    "Job deck sensitivity at 2 players", "Tournament of the built-in field (2 players)",
                    "The game at 2 players", "Key findings"):
        assert section in html and section in md
    # the findings open the page, before the run's metadata, and the terminal shows them too
    assert html.index("Key findings") < html.index("zsim version")
    assert "Key findings" in printed and "Hand size × payday cost, 2 players: the best target hand" in printed
    # the metadata names the command that plays the report again
    assert "zsim report --players 2 --games 200 --tournament-games 3 --seed 4 --out" in md
    assert "zsim version" in md


def test_report_refuses_a_folder_of_other_files(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    r = invoke("report", "--players", "2", "--games", "50", "--out", str(tmp_path), "-q")
    assert isinstance(r.exception, ZsimError) and "notes.txt" in str(r.exception)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_the_glossary_defines_every_column_the_report_shows():
    from analyses.zahltag import report_run
    from analyses.common import DEFINITIONS

    plan = report_run.Plan([2, 4], None, 100, 2, 1, Rules(), default_deck())
    played = [0]

    def advance(n):
        played[0] += n
    results = report_run.run(plan, advance)
    entries = set(report_run.builtin_field("zahltag"))
    undefined = set()
    assert results[-1].name == "glossary"
    for r in results[:-1]:
        for caption, t in r.tables.items():
            for c in t.columns:
                base = c.removesuffix("_ci95").removesuffix("_lo").removesuffix("_hi").removesuffix("_games")
                known = DEFINITIONS | r.definitions
                if c not in known and base not in known and base not in entries and not base.endswith("_needed"):
                    undefined.add(f"{r.name}: {c}")
    assert not undefined, sorted(undefined)
    # ...and every strategy it names, the field's simple among them
    named = set(results[-1].tables["Strategies"]["strategy"])
    assert "simple" in named and entries <= named
    assert played == [plan.total_games()]   # the progress bar's total is what gets played
