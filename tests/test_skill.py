"""Skill against luck and the seats under strong play (analyses/skill.py),
the part of every report that asks the strongest fair player."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyses import skill, verdicts
from zsim.cli import cli
from zsim.errors import ZsimError
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules

pytestmark = pytest.mark.usefixtures("no_open_figures")


def test_a_strong_player_among_weak_ones_makes_skill_decide():
    """``simple`` against a ``random`` field at 2 players is the planted
    skill; ``random`` in the same seats is no skill at all."""
    r = skill.run("zahltag", [2], "random", 400, 1, Rules(), default_deck(), strong="simple")
    edge = r.tables["Skill: win share above par"]
    assert edge["role"].to_list() == ["strong", "weak"] and edge["games"].to_list() == [400, 400]
    strong, weak = edge.row(0, named=True), edge.row(1, named=True)
    assert strong["player"] == "simple" and strong["field"] == "random"
    assert strong["edge_pp"] - strong["edge_pp_ci95"] > 1.0
    assert abs(weak["edge_pp"]) < weak["edge_pp_ci95"] + 1.0          # random among random: par
    seats = r.tables["Win share per seat under strong play"]
    assert seats["seat"].to_list() == [0, 1] and abs(sum(seats["win_share"].to_list()) - 1) < 1e-9
    found = skill.verdicts_of(r, [], "zahltag", "random", 1.0)
    assert [v.question for v in found] == ["skill", "seats under strong play"]
    assert found[0].label == "matters at 2 players" and found[0].players == 2
    assert found[0].sentence.startswith("Skill: matters at 2 players: simple against the random field wins")
    assert r.findings == [found[0].sentence]


def test_the_field_and_the_strong_play_verdicts_are_compared_only_when_decided():
    r = skill.run("zahltag", [2], "random", 40, 1, Rules(), default_deck(), strong="simple")
    field = verdicts.seats_from_shares([0.6, 0.4], [0.01, 0.01], 10_000)
    strong = skill.verdicts_of(r, [field], "zahltag", "random", 1.0)[1]
    assert strong.outcome == verdicts.UNSURE           # 40 games cannot tell
    assert strong.detail.endswith("The heuristic field: uneven.") and "agrees" not in strong.detail
    assert strong.headline.startswith("Seats under strong play: can't tell yet at 2 players")


def test_a_game_whose_search_is_not_strong_says_so_instead_of_measuring_a_heuristic():
    assert skill.strong_spec("zahltag") == "ismcts" and skill.strong_spec("baumeister") == ""
    assert skill.run("baumeister", [2], None, 40, 1, None) is None and skill.total_games("baumeister", [2], 40) == 0
    v = skill.not_measured("baumeister")
    assert v.headline == "Skill: not measured" and "builder" in v.detail and v.outcome == verdicts.UNSURE


def _cli(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=True)


def test_a_report_opens_with_skill_and_strong_play_verdicts(tmp_path):
    out = tmp_path / "rep"
    r = _cli("report", "--players", "2", "-n", "200", "--tournament-games", "2", "--strong", "ismcts:iterations=16",
             "--strong-games", "4", "--json", "--out", str(out), "-q")
    assert r.exit_code == 0, (r.output, r.exception)
    doc = json.loads(r.output)
    questions = [v["question"] for v in doc["verdicts"]]
    assert questions == ["seats", "skill", "seats under strong play"]
    assert doc["verdicts"][1]["games"] == 4 and "ismcts:iterations=16 against the simple field" in \
        doc["verdicts"][1]["sentence"]
    md = (out / "report.md").read_text(encoding="utf-8")
    first = md.index("## Skill against luck, and the seats under strong play")
    assert md.index("## Contents") < first < md.index("## Hand size against payday cost")
    assert "--strong ismcts:iterations=16 --strong-games 4" in md
    # the skill curve: the search (its budget left to the curve) at every budget, beside the bots
    curve = md.index("## The skill curve: strength against search budget")
    assert first < curve < md.index("## Hand size against payday cost")
    assert "ismcts:iterations=256" in md[curve:] and "At 2 players the search at 256 iterations" in md[curve:]


@pytest.mark.parametrize("args, line", [
    (["--strong", "seer"], "--strong seer reads hidden cards: the strong player must be a fair one"),
    (["--strong-games", "1"], "--games must be at least 2 here (one per seat or point), got 1"),
])
def test_a_report_refuses_a_strong_player_it_cannot_use(tmp_path, args, line):
    r = _cli("report", "--players", "2", "-n", "200", *args, "--out", str(tmp_path / "r"))
    assert isinstance(r.exception, ZsimError) and str(r.exception) == line
    assert not (tmp_path / "r").exists()
