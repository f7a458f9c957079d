"""Wettstreit der Baumeister's analyses: what each measures, its bad input, its
determinism, and the committed example report (reports/baumeister/)."""
from __future__ import annotations

import html
import re
import shlex
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from analyses.baumeister import measure, prices, questions
from analyses.baumeister import report_run as baumeister_report
from conftest import warm_game
from zsim.cli import cli
from zsim.games.baumeister import constants as K
from zsim.games.baumeister.cards import default_deck
from zsim.games.baumeister.rules import Rules

EXAMPLE = Path(__file__).parents[1] / "reports" / "baumeister"


def analyze(*args: str):
    return CliRunner().invoke(cli, ["analyze", "--game", "baumeister", *args])


def test_a_bonus_decides_only_the_games_its_winner_would_lose_without_it():
    total = np.array([[20, 18], [20, 5], [15, 15], [30, 10]])
    place = np.array([[1, 2], [1, 2], [1, 1], [1, 2]])
    bonus = np.array([[5, 0], [5, 0], [5, 0], [0, 10]])
    # 20 - 5 < 18: decided; 20 - 5 >= 5: not; a shared first that falls below the other: decided;
    # the loser's bonus decides nothing
    assert measure.decided_by(total, place, bonus).tolist() == [1, 0, 1, 0]


def test_the_card_frame_worth_and_bonus_shares():
    deck = default_deck()
    n = deck.n
    cards = np.zeros((1, n + 1, K.N_CARD_LOG), np.int64)
    cards[0, 1:, K.CL_BUYER] = cards[0, 1:, K.CL_OWNER] = -1
    seat_out = np.zeros((1, 2, K.N_SEAT_STATS), np.int64)
    game_out = np.zeros((1, K.N_GAME_STATS), np.int64)
    game_out[0, K.G_TURNS] = 20

    def sell(c, price, turn, end, owner):
        cards[0, c, [K.CL_PRICE, K.CL_TURN, K.CL_BUYER, K.CL_TIMES, K.CL_END, K.CL_OWNER]] = \
            (price, turn, owner, 1, end, owner if end != K.CE_STACK else -1)
    hall, churches, corners = 27, (33, 34), (1, 2)          # a town hall of 5, churches of 4 and 5, corners of 1
    for c in (hall, *churches, *corners):
        sell(c, 3, 1, K.CE_CITY, 0)
    sell(40, 7, 20, K.CE_HAND, 1)                            # a church of 9 left in hand
    sell(28, 2, 10, K.CE_STACK, -1)                          # a town hall bought and destroyed
    seat_out[0, 0, K.S_MIDDLE], seat_out[0, 0, K.S_CHURCHES], seat_out[0, 0, K.S_CORNERS] = 10, 5, 5
    f = measure.card_frame(deck, seat_out, game_out, cards, 0)
    row = f.rows(named=True)                                 # card c is row c - 1
    u = measure.BONUS_UNITS
    assert row[hall - 1]["bonus"] == 10 * u + 5 * u // 3     # the middle, and a third of the churches
    assert row[churches[0] - 1]["bonus"] == 5 * u // 3 and row[hall - 1]["worth"] == 5
    assert row[corners[0] - 1]["bonus"] == 5 * u // 2
    assert f.filter(pl.col("sold") > 0)["bonus"].sum() == 20 * u          # every bonus point handed out once
    assert row[39]["worth"] == -9 and row[39]["tenth"] == 9 and row[39]["in_hand"] == 1
    assert row[27]["worth"] == 0 and row[27]["tenth"] == 4 and row[27]["lost"] == 1 and row[27]["bonus"] == 0
    assert row[2]["sold"] == 0 and row[2]["tenth"] == -1
    assert f["sold"].sum() == 7


def test_a_gate_deck_changes_only_the_gates_coins():
    deck = default_deck()
    none, double = questions.gate_deck(deck, 0, "none"), questions.gate_deck(deck, 2, "double")
    for a, b, c in zip(deck.cards, none.cards, double.cards):
        if a.type_name == "city_gate":
            assert (b.coins, c.coins) == (0, 2 * a.coins)
        else:
            assert a == b == c
    assert sum(c.coins for c in deck.cards) > 0


@pytest.fixture(scope="module", autouse=True)
def _engine(background):
    """The first Baumeister tests of a run: the engine comes from the session's background compile."""
    warm_game(background, "baumeister")


@pytest.fixture(scope="module")
def small():
    """Every analysis at a small size (a few hundred games a point)."""
    r, d = Rules(), default_deck()
    return {f.__name__: f([2, 4], None, 240, 5, r, d) for f in
            (questions.players_run, questions.gates_run, questions.bonuses_run, questions.sabotage_run,
             questions.auctioneer_run, prices.run)}


def test_every_analysis_reports_the_caps_and_names_them(small):
    for res in small.values():
        caps = [t for t in res.tables.values() if "max_turns_rate" in t.columns]
        assert caps, res.name
        for t in caps:
            assert {"max_turns_rate_hi", "max_bid_hits", "max_bid_rate"} <= set(t.columns)
        assert any(line.startswith("Caps") or line.startswith("No game reached") for line in res.findings), res.name
        assert res.findings and res.figures


def test_a_cap_that_is_hit_is_named_in_the_findings():
    rules = Rules().with_overrides({"max_turns": 12, "max_bid": 3})
    res = questions.bonuses_run([2], None, 120, 3, rules, default_deck())
    t = res.main
    assert t["max_turns_rate"][0] > 0.5 and t["max_bid_hits"][0] > 0
    line = res.findings[-1]
    assert "max_turns ended" in line and "bids reached max_bid" in line


def test_the_figures_agree_with_the_engine_columns(small):
    """The field's balance row is the engine's columns averaged: turns, and the score per seat."""
    from zsim.harness.chunks import Matchup, rows_frame
    from zsim.harness.runs import simulate

    m = Matchup(2, (measure.FIELD, measure.FIELD), Rules(), default_deck(), game="baumeister")
    rows = []
    simulate(m, 240, 5, on_chunk=lambda so, go, first: rows.append(rows_frame(m, so, go, first)))
    rows = pl.concat(rows)
    bal = small["players_run"].main.filter(pl.col("players") == 2).row(0, named=True)
    assert bal["mean_score"] == pytest.approx(rows["total"].mean())
    assert bal["game_turns"] == pytest.approx(rows.gather_every(2)["turns"].mean())
    seats = small["players_run"].tables["Win share per seat"].filter(pl.col("players") == 2)
    assert seats["win_share"].sum() == pytest.approx(1.0)
    # sold_share of each type counts every card of the deck once a game
    by_type = small["run"].main.filter(pl.col("players") == 2)
    sold = sum(r["sold_share"] * sum(1 for c in default_deck().cards if c.type_name == r["card_type"])
               for r in by_type.iter_rows(named=True))
    all_sold = sum(rows.gather_every(2)[f"sold_{t}"].sum() for t in K.TYPES) / 240
    destroyed = rows.gather_every(2)["cards_destroyed"].sum() / 240
    # the log counts a card sold twice once, and only a destroyed card comes back to be sold again
    assert all_sold - destroyed - 1e-9 <= sold <= all_sold + 1e-9


def test_the_insolvency_table_has_every_fair_builtin_bot(small):
    b = small["auctioneer_run"].tables["Insolvency per bot"]
    assert set(b["strategy"].to_list()) == set(questions.fair_bots())
    assert len(questions.fair_bots()) >= 2


def test_an_analysis_is_the_same_whatever_the_threads_and_chunks():
    import numba

    r, d = Rules(), default_deck()
    a = prices.run([3], None, 300, 9, r, d, chunk=300)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = prices.run([3], None, 300, 9, r, d, chunk=77)
    finally:
        numba.set_num_threads(before)
    for key in a.tables:
        assert a.tables[key].equals(b.tables[key]), key
    pts = measure.points([2], [measure.Setting({}, r, d)], None, 300)
    x = measure.field_table(measure.play(pts, ["players"], 9, chunk=300), ["players"])
    y = measure.field_table(measure.play(pts, ["players"], 9, chunk=64), ["players"])
    assert x.equals(y)


@pytest.mark.parametrize("args, fragment", [
    (["sabotage", "--rule", "saboteur=any"], "swept by the sabotage analysis"),
    (["gates", "--field", "nosuch"], "unknown baumeister strategy"),
    (["players", "--players", "5"], "outside 2..4"),
    (["bonuses", "--rule", "hand_size=3"], "hand_size"),
    (["prices", "--deck", "/nonexistent/cards.csv"], "cards.csv"),
    (["prices", "--games", "0"], "games"),
    (["auctioneer", "--out", "table.txt"], ".parquet or .csv"),
    (["nosuch"], "no analysis 'nosuch'"),
])
def test_bad_input_is_one_line_exit_2(args, fragment, capsys):
    from zsim.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["analyze", "--game", "baumeister", *args])
    err = capsys.readouterr().err
    assert exc.value.code == 2, err
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in err, err


def test_the_cli_writes_tables_and_plots(tmp_path):
    result = analyze("bonuses", "--players", "2", "-n", "60", "--out", str(tmp_path / "b.csv"), "--plots",
                     str(tmp_path / "p"), "-q")
    assert result.exit_code == 0, result.output
    t = pl.read_csv(tmp_path / "b.csv")
    assert t["games"].to_list() == [60] and "bonus_decides" in t.columns
    assert len(list((tmp_path / "p").glob("*.png"))) == 1
    result = analyze("prices", "--players", "2", "-n", "40", "--json", "-q")
    assert result.exit_code == 0 and '"baumeister-prices"' in result.output


def test_the_glossary_defines_every_column_of_the_report(small):
    known = set(baumeister_report.DEFINITIONS)
    for res in small.values():
        for caption, t in res.tables.items():
            for c in t.columns:
                base = re.sub(r"_(ci95|lo|hi)$", "", c)
                assert base in known, f"{res.name} / {caption}: {c}"


def test_the_report_refuses_a_swept_rule(capsys, tmp_path):
    from zsim.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["report", "--game", "baumeister", "--rule", "saboteurs=1", "--out", str(tmp_path / "r")])
    assert exc.value.code == 2 and "swept by the report" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_the_committed_baumeister_report_reproduces_its_players_tables():
    from analyses.report_tables import shape

    md = (EXAMPLE / "report.md").read_text(encoding="utf-8")
    line = next(x for x in md.splitlines() if x.startswith("zsim report "))
    args = shlex.split(line)[2:]
    opts = dict(zip(args[::2], args[1::2]))
    assert opts["--game"] == "baumeister" and "--rule" not in opts and "--deck" not in opts
    plist = [int(p) for p in opts["--players"].split(",")]
    result = questions.players_run(plist, opts.get("--field"), int(opts["--games"]), int(opts["--seed"]), Rules(),
                                   default_deck())
    checked = 0
    for table in result.tables.values():
        for row in shape(table).rows:          # as the report shows it: labelled, perhaps turned
            cells = [re.escape(html.escape(c, quote=False).replace("|", "\\|")) for c in row]
            assert re.search(r"^\| " + r" \| ".join(cells) + r" \|$", md, flags=re.M), row
            checked += 1
    assert checked >= 6
    html_text = (EXAMPLE / "index.html").read_text(encoding="utf-8")
    assert "Wettstreit der Baumeister" in html_text and "score_mean" in html_text


def test_the_help_names_the_analyses_own_defaults():
    from click.testing import CliRunner

    from analyses.baumeister import measure
    from zsim.cli import cli

    result = CliRunner().invoke(cli, ["analyze", "--game", "baumeister", "sabotage", "--help"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"[default: {measure.SKILLED}]" in text and f"the weak bots it plays against [default: {measure.WEAK}]" in text
    assert f"[default: {measure.FIELD} in every seat]" in text
    # the bot edge is a heuristic's edge over weaker bots, and the help does not call it skill
    assert "the bot whose edge over weak players the edge figure measures" in text
    assert "skill" not in text.lower().replace("--skilled", "")
