"""The report's key findings: written from the numbers of each analysis, in
the order a designer asks the questions."""
from __future__ import annotations

import polars as pl

from analyses import common
from analyses.zahltag import payday_cost, players, report_run
from analyses.result import AnalysisResult


def test_key_findings_answer_the_questions_in_order_from_the_tables():
    best = pl.DataFrame({"players": [2, 2], "payday_cost": [0, 1], "best_target": [8, 0],
                         "win_share": [0.52, 0.56], "win_share_ci95": [0.003, 0.003],
                         "default_win_share": [0.52, 0.523], "default_win_share_ci95": [0.003, 0.003],
                         "best_at_edge": ["no", "smallest"]})
    trade = AnalysisResult("tradeoff", "t", "", {"Best target hand per payday cost": best})
    bal = pl.DataFrame({"players": [2], "seat_p": [0.5], "seat_spread_pp": [0.0], "seat_spread_pp_lo": [0.0],
                        "seat_spread_pp_hi": [0.4]})
    seats = pl.DataFrame({"players": [2, 2], "seat": [0, 1], "win_share": [0.5, 0.5], "win_share_ci95": [0.003] * 2})
    know = pl.DataFrame({"players": [2], "edge": [0.22], "edge_ci95": [0.004]})
    pl_r = AnalysisResult("players", "p", "", {"Balance per player count": bal, "Win share per seat": seats,
                                              "What counting is worth: x": know})
    pc = AnalysisResult("rules", "c", "", {"Per rule and value": pl.DataFrame(
        {"rule": ["payday_cost", "payday_cost"], "players": [2, 2], "value": ["1", "3"], "configured": [True, False],
         "knockout_rate": [0.0, 0.07], "knockout_rate_lo": [0.0, 0.06], "knockout_rate_hi": [0.0004, 0.08]})})
    tour = AnalysisResult("tournament-2p", "x", "", {"Per strategy": pl.DataFrame(
        {"strategy": ["undercut", "simple"], "win_share": [0.7, 0.3], "win_share_ci95": [0.01, 0.01]})})
    glossary = report_run.glossary(report_run.DEFINITIONS, "zahltag", "such as games with an elimination")
    lines = report_run.key_findings([tour, pc, pl_r, trade, glossary])
    assert len(lines) == 5               # the seats have their verdicts (tests/test_verdicts.py)
    assert lines[0].startswith("Hand size × payday cost, 2 players: the best target hand is 8 / 0 cards at "
                               "payday cost 0 / 1; at the printed cost 1, target 0 wins 0.5600 ± 0.0030 against "
                               "0.5230 ± 0.0030 for the default 8")
    assert "never taking a card" in lines[0]
    assert not any(line.startswith("Seat") for line in lines)
    assert lines[1].startswith("Eliminations at the rules played: none (< 0.040%) at 2 players") \
        and "payday_cost=3 at 2 players" in lines[1]
    assert lines[2] == ("What the rules do, the rule that moves each most: games with an elimination with "
                        "payday_cost, from none (< 0.040%) at 1 to 7.0% [6.0%, 8.0%] at 3 (2 players).")
    assert lines[3] == ("Counting cards (counter against counter:blind=1, win share above par): "
                        "+0.2200 ± 0.0040 at 2 players.")
    assert lines[4] == "Tournament of the built-in field, most wins: undercut at 2 players (0.700 ± 0.010)."


def _balance(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows)


def test_seat_finding_gives_the_verdict_against_the_margin_not_a_p_value():
    bal = _balance([{"players": 2, "games": 100_000, "seat_p": 0.0004, "seat_spread_pp": 2.0},
                    {"players": 4, "games": 100_000, "seat_p": 0.41, "seat_spread_pp": 0.0}])
    seats = pl.DataFrame({"players": [2, 2, 4, 4, 4, 4], "seat": [0, 1, 0, 1, 2, 3],
                          "win_share": [0.48, 0.52, 0.25, 0.251, 0.249, 0.25],
                          "win_share_ci95": [0.003] * 6})
    text = players.seat_finding(bal, seats)
    assert "at 2 players seat 1 wins 0.5200 ± 0.0030 and seat 0 0.4800 ± 0.0030 against a par of 0.500; uneven: " \
           "second player +2.0 ± 0.3 pp against par 50.0% (margin ±1 pp)" in text
    assert "at 4 players seat 1 wins 0.2510 ± 0.0030 and seat 2 0.2490 ± 0.0030 against a par of 0.250; balanced: " \
           "every seat within ±1 pp of par" in text
    assert "p =" not in text and "p <" not in text


def test_eliminations_finding_reads_the_wilson_ends():
    t = pl.DataFrame({"players": [4, 4, 4], "rule": ["payday_cost", "payday_cost", "start_money"],
                      "value": [1, 3, 10], "default": [True, False, False],
                      "elimination_rate": [0.0, 0.9, 0.02], "elimination_rate_lo": [0.0, 0.89, 0.015],
                      "elimination_rate_hi": [0.0004, 0.91, 0.025]})
    text = payday_cost.eliminations_finding(t, [4])
    assert "as configured none (< 0.040%) of games" in text
    assert "become common (≥ 5% of games) at payday_cost=3 (90% [89%, 91%])" in text
    assert "start_money" not in text            # 2% of games is not common


def test_rate_text_prints_percentages_with_their_interval():
    assert common.rate_text(0.0123, 0.0101, 0.0150) == "1.2% [1.0%, 1.5%]"
    assert common.rate_text(0.0113, 0.0107, 0.0120) == "1.13% [1.07%, 1.20%]"   # never two equal ends
    assert common.rate_text(0.0, 0.0, 0.000192) == "none (< 0.019%)"
    assert common.share_text(0.5123, 0.0031) == "0.5123 ± 0.0031"
    assert common.share_text(0.998, 0.0002) == "0.99800 ± 0.00020"    # rounding never hides the interval


def test_the_trade_off_says_its_seat_verdict_beside_the_map():
    from analyses.zahltag.tradeoff_words import spread_sentence

    part = pl.DataFrame({"players": [4] * 3, "hand_size": [7, 5, 9], "payday_cost": [1, 1, 2],
                         "seat_spread_pp": [0.4, 0.1, 3.0], "seat_spread_pp_lo": [0.1, 0.0, 2.5],
                         "seat_spread_pp_hi": [0.7, 0.3, 3.5],
                         "elimination_rate_hi": [0.01, 0.2, 0.02]})
    text = spread_sentence(4, part, 7, 1)
    assert text.startswith("At 4 players the printed rules (deal 7, payday cost 1) spread the seats 0.4 pp "
                           "[0.1, 0.7] around par: balanced against a margin of 1 pp")
    # deal 5 is more even but eliminates too often: the most even calm setting is the printed one
    assert text.endswith("deals 7 at payday cost 1 (0.4 pp).")
    uneven = spread_sentence(4, part, 9, 2)
    assert ": uneven against a margin of 1 pp" in uneven
    assert ": can't tell yet against a margin of 0.5 pp" in spread_sentence(4, part, 7, 1, margin_pp=0.5)
