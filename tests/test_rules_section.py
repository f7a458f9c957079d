"""The report's "What the rules do": every game's main rules swept by the
generic sweep, a rule only at the player counts it applies to, and the
words written from the table."""
from __future__ import annotations

import polars as pl
import pytest

from analyses import rules_section
from analyses.report_parts import ReportPlan
from analyses.result import AnalysisResult
from analyses.sweep import parse_axis
from zsim.game_registry import get_game


def _plan(game: str, players, games=200, options=()):
    g = get_game(game)
    return ReportPlan(list(players), None, games, 10, 7, g.parse_rules(list(options)))


@pytest.mark.parametrize("game", ["zahltag", "zahlemann", "baumeister"])
def test_every_game_names_main_rules_that_parse_and_include_the_printed_value(game):
    g = get_game(game)
    assert g.main_rules
    for main in g.main_rules:
        axis = parse_axis(game, main.sweep)
        assert len(axis.values) >= 2
        assert axis.printed_label is not None, main.sweep      # the printed value is shaded in its figure


def test_a_rule_is_swept_only_at_the_player_counts_it_applies_to():
    sweeps = {p.axes[0].key: p.players for p in rules_section.plans("zahltag", _plan("zahltag", [2, 3, 4]))}
    assert sweeps["forced_payday_jobs"] == [3, 4]
    assert sweeps["forced_payday_jobs_2p"] == [2]
    assert sweeps["payday_cost"] == [2, 3, 4]
    only_two = {p.axes[0].key for p in rules_section.plans("zahltag", _plan("zahltag", [2]))}
    assert "forced_payday_jobs" not in only_two and "forced_payday_jobs_2p" in only_two


def test_the_report_rules_stay_fixed_except_the_swept_key():
    plan = _plan("zahltag", [4], options=("payday_cost=2", "tie_discount=1"))
    assert rules_section.rule_texts(plan.rules, get_game("zahltag").default_rules()) == \
        ("payday_cost=2", "tie_discount=1")
    sweeps = {p.axes[0].key: p for p in rules_section.plans("zahltag", plan)}
    assert sweeps["payday_cost"].fixed == ("tie_discount=1",)
    assert sweeps["start_money"].fixed == ("payday_cost=2", "tie_discount=1")
    assert rules_section.configured(plan, "payday_cost") == "2"


def test_the_section_finds_a_rule_with_an_exact_effect():
    """payday_cost=0 makes every payday free: its row pays nothing, every
    other value pays; the table keeps each rule's values in sweep order."""
    plan = _plan("zahltag", [2, 4], games=150)
    total = rules_section.total_games("zahltag", plan)
    seen = []
    r = rules_section.run("zahltag", plan, lambda n: seen.append(n))
    assert sum(seen) == total
    t = r.tables[rules_section.TABLE]
    cost = t.filter(pl.col("rule") == "payday_cost")
    assert cost.filter(pl.col("players") == 4)["value"].to_list() == ["0", "1", "2", "3"]
    free = cost.filter(pl.col("value") == "0")
    assert free["payday_paid"].to_list() == [0.0, 0.0]
    assert all(v > 0 for v in cost.filter(pl.col("value") != "0")["payday_paid"].to_list())
    assert cost.filter(pl.col("configured"))["value"].to_list() == ["1", "1"]
    assert set(t.filter(pl.col("rule") == "forced_payday_jobs")["players"].to_list()) == {4}
    assert len(r.figures) == len(r.findings) == 6
    assert r.findings[0].startswith("payday_cost (0, 1, 2, 3, printed 1): seats balanced within ±1 pp at ")
    assert "game length from " in r.findings[0]


def _rows(rule, players, values, gaps, ci):
    return [{"rule": rule, "players": players, "value": str(v), "seat_gap_pp": g, "seat_gap_pp_ci95": ci}
            for v, g in zip(values, gaps)]


def test_the_key_line_names_the_rule_that_moves_the_seats_most_beyond_the_noise():
    t = pl.DataFrame(_rows("a", 2, [1, 2], [0.5, 9.0], 20.0)          # the widest, but inside the noise
                     + _rows("b", 4, [1, 2, 3], [0.4, 1.0, 3.0], 0.3)
                     + _rows("c", 2, [1, 2], [1.0, 2.0], 0.2))
    line = rules_section.key_line(AnalysisResult("rules", "t", "", {rules_section.TABLE: t}), "zahltag")
    assert line == ("What the rules do, the rule that moves each most: the largest seat gap (pp) with b, "
                    "from 0.40 ± 0.30 at 1 to 3.00 ± 0.30 at 3 (4 players).")
    flat = pl.DataFrame(_rows("a", 2, [1, 2], [0.5, 9.0], 20.0))
    line = rules_section.key_line(AnalysisResult("rules", "t", "", {rules_section.TABLE: flat}), "zahltag")
    assert line.startswith("What the rules do: no main rule moves")
