"""Tables as a report's reader sees them (analyses.report_tables): labels in
plain words with their definitions, constant columns dropped with a note,
wide short tables turned, p-values that stop at 0.001."""
from __future__ import annotations

import re

import polars as pl

from analyses.report import write_report
from analyses.report_format import display_table, format_p
from analyses.report_sections import definitions
from analyses.report_tables import TURN_COLUMNS, label, shape
from analyses.result import AnalysisResult


def test_labels_are_plain_words():
    assert label("win_share") == "Win share"
    assert label("seat_spread_pp") == "Seat spread (pp)"
    assert label("seat0_win_share") == "Seat 0 win share"
    assert label("seat_p") == "Seat p-value"
    assert label("handsize:target=4") == "handsize:target=4"        # a spec stays as typed
    for name in ("max_bid_hits", "income_less_payday_per_seat", "one_bidder_share"):
        assert "_" not in label(name) and label(name)[0].isupper()


def test_p_values_stop_at_a_thousandth():
    assert format_p(1.428e-12) == "< 0.001"
    assert format_p(0.30214) == "0.302"
    assert format_p(None) == "\u2013"
    _, _, rows = display_table(pl.DataFrame({"players": [2, 4], "seat_p": [1.4e-12, 0.3021]}))
    assert [r[1] for r in rows] == ["< 0.001", "0.302"]


def test_a_column_that_never_changes_is_dropped_with_a_note():
    t = pl.DataFrame({"strategy": ["simple", "counter", "random"], "games": [3000] * 3,
                      "win_share": [0.3, 0.5, 0.2], "win_share_ci95": [0.01, 0.02, 0.01],
                      "max_bid_hits": [0.0] * 3, "max_bid_hits_ci95": [0.0] * 3})
    sh = shape(t)
    assert sh.headers == ["Strategy", "Win share"]
    assert sh.note == "Same in every row: Games 3000; Max bid hits always 0."
    assert not sh.turned and [r[0] for r in sh.rows] == ["simple", "counter", "random"]
    # one row: nothing can be told constant, every column stays
    assert shape(t.head(1)).headers == ["Strategy", "Games", "Win share", "Max bid hits"]


def test_a_wide_short_table_is_turned_so_metrics_are_rows():
    cols = {f"metric_{i}": [float(i), i + 0.5, i + 0.25] for i in range(TURN_COLUMNS)}
    t = pl.DataFrame({"players": [2, 3, 4], **cols})
    sh = shape(t, {"metric_1": "what metric 1 counts"})
    assert sh.turned
    assert sh.headers == ["Measure", "2 players", "3 players", "4 players"]
    assert [r[0] for r in sh.rows] == [f"Metric {i}" for i in range(TURN_COLUMNS)]
    assert sh.rows[1][1:] == ["1.000", "1.500", "1.250"]
    assert sh.row_definitions[1] == "what metric 1 counts"
    # many rows: stays as it is (rows of settings are read down a column)
    long = pl.DataFrame({"players": list(range(2, 12)),
                         **{f"metric_{i}": [float(i + r) for r in range(10)] for i in range(TURN_COLUMNS)}})
    assert not shape(long).turned and shape(long).headers[0] == "Players"


def test_a_head_to_head_matrix_keeps_the_strategy_names():
    m = pl.DataFrame({"strategy": ["random", "counter"], "random": [0.5, 0.6], "counter": [0.4, 0.5]})
    assert shape(m).headers == ["Strategy", "random", "counter"]


def test_headers_carry_the_glossary_definitions_in_the_page(tmp_path):
    table = pl.DataFrame({"strategy": ["a", "b"], "win_share": [0.4, 0.6], "win_share_ci95": [0.01, 0.01],
                          "seat_p": [1e-9, 0.2]})
    glossary = AnalysisResult("glossary", "What the columns mean", "", {
        "Columns": pl.DataFrame({"column": ["win_share", "seat_p"],
                                 "meaning": ["share of games won", "p-value of the seat test"]})})
    results = [AnalysisResult("r", "R", "", {"Shares": table}), glossary]
    assert definitions(results) == {"win_share": "share of games won", "seat_p": "p-value of the seat test"}
    html_path, md_path = write_report(results, {}, "zsim report", tmp_path / "rep")
    text = html_path.read_text(encoding="utf-8")
    assert '<th scope="col" class="num" title="share of games won">Win share</th>' in text
    assert '<td class="num">&lt; 0.001</td>' in text
    md = md_path.read_text(encoding="utf-8")
    assert "| Strategy | Win share | Seat p-value |" in md
    for header in re.findall(r"<th scope=\"col\"[^>]*>([^<]*)</th>", text):
        assert "_" not in header, header


def test_a_head_to_head_cell_never_seen_reads_as_its_bound():
    m = pl.DataFrame({"strategy": ["passive", "simple"], "passive": [None, 1.0], "passive_ci95": [None, 0.0],
                      "passive_games": [None, 400], "simple": [0.0, None], "simple_ci95": [0.0, None],
                      "simple_games": [400, None]})
    headers, _, rows = display_table(m)
    assert headers == ["strategy", "passive", "simple"]
    assert rows[0][2].startswith("< 0.0") and rows[1][1].startswith("> 0.9")
    assert not any("± 0" in cell for row in rows for cell in row)


def test_a_turned_table_heads_its_columns_with_the_rows_it_had():
    t = pl.DataFrame({"strategy": ["counter", "simple"], **{f"m_{i}": [1.0 * i, 2.0 * i] for i in range(8)}})
    assert shape(t).headers == ["Measure", "counter", "simple"]
    s = pl.DataFrame({"seat": [0, 1], **{f"m_{i}": [1.0 * i, 2.0 * i] for i in range(8)}})
    assert shape(s).headers == ["Measure", "Seat 0", "Seat 1"]


def test_a_figure_without_its_own_alt_text_carries_its_points(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from analyses import common

    fig, axes = common.figure(ncols=2)
    common.errorbar(axes[0][0], [2, 3, 4], [0.5, 0.33, 0.25], [0.01, 0.01, 0.01], label="first seat")
    axes[0][0].axhline(0.3, label="_par")                         # a helper line: not data
    axes[0][0].set_ylabel("win share")
    axes[0][1].errorbar([0, 1], [13.5, 9.06], yerr=[0.2, 0.2], label="2 players")
    axes[0][1].set_xticks([0, 1], ["none", "fifty skips"])
    axes[0][1].set_ylabel("rounds per game")
    axes[0][1].set_xlabel("variant")
    r = AnalysisResult("f", "F", "", {}, {"Shares and rounds": fig})
    html_path, _ = write_report([r], {}, "zsim report", tmp_path / "rep")
    alt = re.search(r'alt="([^"]*)"', html_path.read_text(encoding="utf-8")).group(1)
    assert alt == ("Shares and rounds. win share \u2014 first seat: 2: 0.5, 3: 0.33, 4: 0.25. "
                   "rounds per game against variant \u2014 2 players: none: 13.5, fifty skips: 9.06")
