"""Zahlemann's analyses: their per-game figures, their points, what they find
on small runs, and `zsim analyze --game zahlemann` / `zsim report --game zahlemann`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from analyses.zahlemann import forget, measure, questions, report_run
from zsim.cli import cli
from zsim.errors import ZsimError
from zsim.games.zahlemann.rules import Rules
from zsim.harness.chunks import Matchup, rows_frame
from zsim.harness.runs import simulate

pytestmark = pytest.mark.usefixtures("no_open_figures")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=True)


def ok(*args: str):
    r = invoke(*args)
    assert r.exit_code == 0, (r.output, r.exception)
    return r


def refused(*args: str) -> str:
    """The one-line ZsimError the command raises (zsim's entry point prints it
    and exits 2: see test_refusal_through_the_entry_point)."""
    r = invoke(*args)
    assert isinstance(r.exception, ZsimError), (r.output, r.exception)
    assert "\n" not in str(r.exception)
    return str(r.exception)


def test_refusal_through_the_entry_point(tmp_path):
    p = subprocess.run([sys.executable, "-m", "zsim.cli", "analyze", "--game", "zahlemann", "payday-cost"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines() == ["zsim: error: zahlemann has no analysis 'payday-cost' ('payday-cost' is an "
                                     "analysis of zahltag); its analyses: drama, forget, hand-size, ladder, money, "
                                     "players, variants"]
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------- per-game figures
def _rows(players: int, totals: list[list[int]], shortfall: list[int], end: list[str]) -> pl.DataFrame:
    n = len(totals)
    places = [list(np.argsort(np.argsort([-t for t in g])) + 1) for g in totals]
    return pl.DataFrame({
        "game": np.repeat(np.arange(n), players), "seat": np.tile(np.arange(players), n),
        "total": [t for g in totals for t in g], "place": [int(p) for g in places for p in g],
        "paid": [10] * (n * players), "penalty_draws": [1] * (n * players),
        "rounds": np.repeat([3] * n, players), "void_rounds": np.repeat([0] * n, players),
        "turns": np.repeat([30] * n, players), "reshuffles": np.repeat([0] * n, players),
        "change_shortfall": np.repeat(shortfall, players), "bonus_plays": np.repeat([0] * n, players),
        "skips": np.repeat([0] * n, players), "hand_passes": np.repeat([0] * n, players),
        "end_reason": np.repeat(end, players)})


def test_game_frame_reduces_each_game_to_its_own_figures():
    rows = _rows(3, [[100, 50, 0], [20, 80, 75]], [0, 4], ["bankrupt", "round_cap"])
    g = measure.game_frame(rows, [], 3)
    assert g["margin"].to_list() == [50, 5]
    assert g["money_range"].to_list() == [100, 60]
    assert g["any_shortfall"].to_list() == [0, 1]
    assert g["ended_cap"].to_list() == [0, 1]
    assert g["all_paid"].to_list() == [30, 30] and g["all_penalty_draws"].to_list() == [3, 3]
    assert g["w0"].to_list() == [12, 0] and g["w1"].to_list() == [0, 12]
    assert g["d01"].to_list() == [12, -12]


def test_the_field_figures_equal_a_direct_reduction_of_the_rows():
    rules = Rules()
    m = measure.play(questions.players_points([3], None, 900, rules), ["players"], 5)
    t = measure.field_table(m, ["players"]).row(0, named=True)
    rows = []
    simulate(Matchup(3, ("shedder",) * 3, rules, game="zahlemann"), 900, 5,
             on_chunk=lambda s, g, first: rows.append(rows_frame(Matchup(3, ("shedder",) * 3, rules,
                                                                          game="zahlemann"), s, g, first)))
    r = pl.concat(rows).gather_every(3)
    assert t["games"] == 900
    assert t["rounds"] == pytest.approx(r["rounds"].mean())
    assert t["turns_per_round"] == pytest.approx(r["turns"].sum() / r["rounds"].sum())
    assert t["shortfall_rate"] == pytest.approx((r["change_shortfall"] > 0).mean())


def test_sums_are_the_same_whatever_the_chunk_size():
    pts = questions.variants_points([2], None, 600, Rules(), questions.BOTS)
    a = measure.play(pts, ["players", "variant"], 3)
    b = measure.play(pts, ["players", "variant"], 3, chunk=97)
    assert a.seat[2].equals(b.seat[2]) and a.game[2].equals(b.game[2])


# ---------------------------------------------------------------- the points
def test_bot_edge_points_put_the_bot_in_every_seat_once():
    pts = measure.points([3], [measure.Setting({}, Rules())], None, 900)
    field, bot = pts[0], pts[1:]
    assert field.key["part"] == "field" and field.matchup.strategies == ("shedder",) * 3
    assert [p.tested_seat for p in bot] == [0, 1, 2] and all(p.key["part"] == "bot" for p in bot)
    for p in bot:
        assert p.matchup.strategies[p.tested_seat] == "counter" and p.games == 300
        assert sorted(p.matchup.strategies).count("random") == 2


def test_with_forget_changes_forget_only():
    assert forget.with_forget("counter", 0.3) == "counter:forget=0.3"
    assert forget.with_forget("shedder:forget=0.2", 0.0) == "shedder"
    pts = forget.points([2], "flexible", 400, Rules(), [0.0, 0.5])
    tested = [p.matchup.strategies[p.tested_seat] for p in pts]
    assert tested == ["flexible", "flexible", "flexible:forget=0.5", "flexible:forget=0.5"]
    assert all(s == "flexible" for p in pts for i, s in enumerate(p.matchup.strategies) if i != p.tested_seat)


# ---------------------------------------------------------------- what they find
def test_players_finds_a_bot_edge_over_random_and_none_between_equals():
    r = questions.players_run([2, 4], None, 2000, 1, Rules())
    t = r.main
    assert "skill_edge" not in t.columns
    for row in t.iter_rows(named=True):
        assert row["bot_edge"] - row["bot_edge_ci95"] > 0.05, row     # counter beats random clearly
    same = questions.players_run([2], None, 2000, 1, Rules(), bots=("random", "random")).main.row(0, named=True)
    assert abs(same["bot_edge"]) < 2 * same["bot_edge_ci95"]          # a bot against itself is at par
    edge = r.findings[2]           # the finding names the figure for what it is: a heuristic's edge, not skill
    assert edge.startswith("counter in one seat among random wins ") and "skill itself is measured" in edge
    for row in t.iter_rows(named=True):
        assert f"{row['bot_edge']:+.3f} ± {row['bot_edge_ci95']:.3f} above par at {row['players']} players" in edge
    seats = r.tables["Win share per seat"]
    assert seats.group_by("players").agg(pl.col("win_share").sum())["win_share"].to_list() == \
        pytest.approx([1.0, 1.0])
    assert len(r.figures) == 2 and len(r.findings) == 3


def test_each_variant_shows_in_its_own_counts_and_rows_keep_their_order():
    t = questions.variants_run([4], None, 800, 2, Rules()).main
    assert t["variant"].to_list() == [name for name, _ in questions.VARIANTS]
    by = {r["variant"]: r for r in t.iter_rows(named=True)}
    assert by["none"]["bonus_plays"] == by["none"]["skips"] == by["none"]["hand_passes"] == 0
    assert by["one_plays_again"]["bonus_plays"] > 0 and by["one_plays_again"]["skips"] == 0
    assert by["fifty_skips"]["skips"] > 0 and by["fifty_skips"]["hand_passes"] == 0
    assert by["two_passes_hands"]["hand_passes"] > 0 and by["two_passes_hands"]["bonus_plays"] == 0
    assert min(by["all three"][c] for c in ("bonus_plays", "skips", "hand_passes")) > 0
    assert by["all three"]["rounds"] < by["none"]["rounds"] - 3 * by["none"]["rounds_ci95"]


def test_money_settings_separate_missing_change():
    t = questions.money_run([4], None, 1500, 3, Rules()).main
    by = {r["money"]: r for r in t.iter_rows(named=True)}
    receiver, none, bank, totals = (by[name] for name, _ in questions.MONEY_SETTINGS)
    assert totals["shortfall_rate"] == 0 and totals["shortfall_when_short"] is None
    assert bank["shortfall_rate"] == 0
    assert none["shortfall_rate_lo"] > receiver["shortfall_rate_hi"]
    assert 0 < receiver["shortfall_rate"] and none["shortfall_when_short"] > 0


def test_forgetting_costs_win_share_and_penalty_cards():
    t = forget.run([2], None, 1200, 4, Rules(), forgets=[0.0, 0.5]).main
    lo, hi = t.row(0, named=True), t.row(1, named=True)
    assert lo["forgotten"] == 0 and hi["forgotten"] > 0
    assert abs(lo["win_share"] - 0.5) < 2 * lo["win_share_ci95"]      # equals at par
    assert hi["win_change"] + hi["win_change_ci95"] < 0
    assert hi["penalty_draws"] > lo["penalty_draws"]


def test_more_cards_make_longer_rounds():
    t = questions.hand_run([2], None, 800, 5, Rules(), sizes=(3, 8)).main
    assert t["hand_size"].to_list() == [3, 8]
    small, big = t.row(0, named=True), t.row(1, named=True)
    assert big["turns_per_round"] > small["turns_per_round"] + 3 * small["turns_per_round_ci95"]


# ---------------------------------------------------------------- the command line
def test_analyze_variants_json_and_files(tmp_path):
    out, plots = tmp_path / "v.csv", tmp_path / "plots"
    r = ok("analyze", "--game", "zahlemann", "variants", "--players", "2", "-n", "300", "--json", "-q",
           "--out", str(out), "--plots", str(plots))
    doc = json.loads(r.output)
    rows = doc["tables"]["Per variant"]
    assert [x["variant"] for x in rows] == [name for name, _ in questions.VARIANTS]
    assert all(x["games"] == 300 and x["rounds_ci95"] > 0 for x in rows)
    assert pl.read_csv(out).height == 5 and len(list(plots.glob("*.png"))) == 1


@pytest.mark.parametrize("cmd", ["players", "hand-size", "money", "forget"])
def test_every_zahlemann_analysis_runs_from_the_command_line(cmd):
    r = ok("analyze", "-g", "zahlemann", cmd, "--players", "2", "-n", "200", "-q")
    assert r.output.splitlines()[1] and "players" in r.output


def test_zahlemann_analyses_refuse_bad_input(tmp_path):
    assert "'payday-cost' is an analysis of zahltag" in refused("analyze", "-g", "zahlemann", "payday-cost")
    assert "zahltag has no analysis 'variants'" in refused("analyze", "variants")
    assert "unknown game 'nope'" in refused("analyze", "-g", "nope", "players")
    assert "--rule fifty_skips is swept by the variants analysis" in refused(
        "analyze", "-g", "zahlemann", "variants", "--rule", "fifty_skips=true")
    assert "belongs to zahltag" in refused("analyze", "-g", "zahlemann", "money", "--rule", "payday_cost=2")
    assert "--forgets 2 is outside 0..1" in refused("analyze", "-g", "zahlemann", "forget", "--forgets", "0,2")
    line = refused("analyze", "-g", "zahlemann", "hand-size", "--players", "4", "--hand-sizes", "9..10")
    assert "hand_size" in line
    assert "--players 5 is outside 2..4" in refused("analyze", "-g", "zahlemann", "players", "-p", "5")
    assert "zahltag" in refused("analyze", "-g", "zahlemann", "players", "--skilled", "simple")
    assert not list(tmp_path.iterdir())


def test_report_for_zahlemann_writes_every_section(tmp_path):
    out = tmp_path / "rep"
    r = ok("report", "--game", "zahlemann", "--players", "2,4", "-n", "400", "--tournament-games", "4",
           "--strong", "counter", "--out", str(out), "-q")
    assert r.output.startswith("Verdicts\n- Seats: ")
    assert "Key findings" in r.output
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# Zahlemann & Söhne: zsim report\n\n<a name=\"verdicts\"></a>\n## Verdicts")
    for title in ("Seats and player counts", "The variants", "What forgetting 'Zahlemann' costs",
                  "Real coins against plain totals", "The dealt hand size", "Tournament of the built-in field",
                  "What the rules do", "How games unfold", "What the columns and strategies mean"):
        assert f"## {title}" in md, title
    assert "zsim report --game zahlemann --players 2,4 --games 400 --tournament-games 4" in md
    figures = {p.name for p in (out / "figures").glob("*.png")}
    drawn = {n for n in figures if not n.endswith("-phone.png")}
    # the strong player's section has one, "What the rules do" one per main rule, "How games unfold" two
    assert len(drawn) == 13
    # and "How games unfold" links three games per player count, each a page in games/
    pages = sorted(p.name for p in (out / "games").iterdir())
    assert len(pages) == 6 and all(f"](games/{p})" in md for p in pages)
    # every figure of several panels has a stacked twin for a phone
    assert {n.removesuffix("-phone.png") + ".png" for n in figures - drawn} < drawn
    assert "zahlemann-variants-1.png" in {n.removesuffix("-phone.png") + ".png" for n in figures - drawn}
    assert "Coins: with change from the round's winner, change is missing in" in md


def test_a_report_whose_field_handicaps_a_seat_says_uneven_in_its_verdicts_and_json(tmp_path):
    """The seat handicap the test controls: ``counter`` in the first seat,
    ``random`` in the second. The verdicts open the page and the JSON, at
    the margin asked for, which the report's command carries."""
    out = tmp_path / "rep"
    r = ok("report", "--game", "zahlemann", "--players", "2", "-n", "400", "--tournament-games", "2",
           "--field", "counter,random", "--margin", "2.5", "--strong", "counter", "--json", "--out",
           str(out), "-q")
    doc = json.loads(r.output)
    seats = [v for v in doc["verdicts"] if v["question"] == "seats"]
    assert len(seats) == 1 and seats[0]["label"] == "uneven" and seats[0]["outcome"] == "beyond"
    assert seats[0]["margin_pp"] == 2.5 and seats[0]["lo_pp"] > 2.5 and seats[0]["games"] == 400
    assert seats[0]["sentence"].startswith("Seats: uneven at 2 players: first player +")
    assert doc["findings"] and doc["html"].endswith("index.html")
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.index('<section class="verdicts"') < page.index('id="contents"') < page.index('id="run"')
    assert "<strong>Seats: uneven at 2 players</strong>" in page
    assert "--margin 2.5" in page        # the command that plays it again


@pytest.mark.parametrize("margin", ["0", "-1", "50.5"])
def test_a_report_refuses_a_margin_outside_0_to_50(tmp_path, margin):
    assert refused("report", "-g", "zahlemann", "--margin", margin, "--out", str(tmp_path / "r")) == \
        f"--margin must be above 0 and at most 50 percentage points, got {float(margin):g}"
    assert not (tmp_path / "r").exists()


def test_report_for_zahlemann_refuses_what_it_sweeps_or_lacks(tmp_path):
    assert "is swept by the report analysis" in refused(
        "report", "-g", "zahlemann", "--rule", "hand_size=6", "--out", str(tmp_path / "r"))
    assert "zahlemann has no --deck" in refused(
        "report", "-g", "zahlemann", "--deck", "x.csv", "--out", str(tmp_path / "r"))
    assert not (tmp_path / "r").exists()


def test_report_plan_counts_every_game_it_plays():
    plan = report_run.Plan([2], None, 100, 3, 0, Rules())
    played = []
    report_run.run(plan, played.append)
    assert sum(played) == plan.total_games()


EXAMPLE = Path(__file__).parents[1] / "reports" / "zahlemann"


def test_the_committed_zahlemann_report_reproduces_its_players_tables():
    import html
    import re
    import shlex

    from analyses.report_tables import shape

    md = (EXAMPLE / "report.md").read_text(encoding="utf-8")
    line = next(x for x in md.splitlines() if x.startswith("zsim report "))
    assert line in (Path(__file__).parents[1] / "docs" / "zahlemann.md").read_text(encoding="utf-8")
    args = shlex.split(line)[2:]
    opts = dict(zip(args[::2], args[1::2]))
    assert opts["--game"] == "zahlemann" and "--rule" not in opts and "--field" not in opts
    plist = [int(p) for p in opts["--players"].split(",")]
    result = questions.players_run(plist, None, int(opts["--games"]), int(opts["--seed"]), Rules())
    checked = 0
    for table in result.tables.values():
        for row in shape(table).rows:          # as the report shows it: labelled, perhaps turned
            # the Markdown escapes | and the HTML specials, as report.md does
            cells = [re.escape(html.escape(c, quote=False).replace("|", "\\|")) for c in row]
            assert re.search(r"^\| " + r" \| ".join(cells) + r" \|$", md, flags=re.M), row
            checked += 1
    assert checked >= 10
