"""Game records: written by the fast engine, re-checked by the reference engine."""
from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import VARIANTS, field
from record_tracker import follow
from zsim.cli import cli, main
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.records import record_game
from zsim.games.zahltag.reference_replay import replay_record
from zsim.games.zahltag.replay import check_record, play_by_play, read_records
from zsim.games.zahltag.rules import Rules
from zsim.harness.chunks import Matchup, play_chunk

TRACE_FIELDS = {
    "start": {"name", "players", "seed", "game", "rules", "jobs", "hands", "stacks", "money", "deck", "strategies"},
    "setup": {"seat", "round", "action"}, "turn": {"seat", "turn"},
    "finish": {"seat", "to_hand", "to_right"}, "adjust": {"seat", "action"},
    "penalty": {"seat", "excess", "paid"}, "reveal": {"card", "forced"},
    "shuffle": {"reason", "deck"}, "bids": {"job", "bids"},
    "award": {"job", "winners", "amount", "left"}, "payday": {"number", "counts", "paid"},
    "eliminated": {"seat", "reason"}, "end": {"money", "places", "reason"},
}


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_records_replay_through_the_reference_engine(players, variant):
    rules = Rules().with_overrides(dict(VARIANTS[variant], start_money=8))
    m = Matchup(players, tuple(field(players)), rules)
    seats, games = play_chunk(m, 99, 0, 40)
    kinds = set()
    for g in range(40):
        events = record_game(m, 99, g)
        events = [json.loads(json.dumps(ev)) for ev in events]  # as a reader sees them
        assert replay_record(events) == events
        follow(events)
        end = events[-1]
        assert end["money"] == seats[g, :, K.S_MONEY].tolist()
        assert end["places"] == seats[g, :, K.S_PLACE].tolist()
        assert end["reason"] == K.END_REASONS[games[g, K.G_END_REASON]]
        for ev in events:
            assert set(ev) - {"e"} == TRACE_FIELDS[ev["e"]], ev
            kinds.add(ev["e"])
    assert {"start", "setup", "turn", "finish", "adjust", "reveal", "bids", "award", "payday",
            "end", "shuffle"} <= kinds


def test_record_cli_writes_the_same_games_as_simulate(tmp_path):
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(cli, ["record", "--players", "4", "--seed", "7", "--games", "3",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    games = read_records(str(out))
    assert len(games) == 3
    stdout = CliRunner().invoke(cli, ["record", "--players", "4", "--seed", "7", "--games", "3"])
    assert stdout.output == out.read_text()
    m = Matchup(4, ("simple",) * 4)
    seats, _ = play_chunk(m, 7, 0, 3)
    for g, events in enumerate(games):
        assert events[0]["game"] == g and events[0]["seed"] == 7
        assert events[-1]["money"] == seats[g, :, K.S_MONEY].tolist()
        check_record(events)


def test_replay_prints_a_play_by_play(tmp_path):
    out = tmp_path / "g.jsonl"
    CliRunner().invoke(cli, ["record", "--players", "3", "--seed", "3", "--strategies",
                             "simple,random,simple", "--out", str(out)])
    result = CliRunner().invoke(cli, ["replay", str(out)])
    assert result.exit_code == 0, result.output
    text = result.output
    events = read_records(str(out))[0]
    assert text.count("\nTurn ") == sum(ev["e"] == "turn" for ev in events)
    assert text.count("PAYDAY ") == sum(ev["e"] == "payday" for ev in events)
    assert "seat 1 (random)" in text
    assert f"places {events[-1]['places']}" in text
    assert text == play_by_play(events)


def test_replay_refuses_a_record_that_breaks_the_rules(tmp_path, capsys):
    m = Matchup(4, ("simple",) * 4)
    events = record_game(m, 5, 0)
    award = next(i for i, ev in enumerate(events) if ev["e"] == "award" and ev["winners"])
    events[award]["amount"] += 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(ev) + "\n" for ev in events))
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(bad)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "award" in err and "Traceback" not in err


def test_a_game_is_the_same_alone_or_in_a_batch():
    m = Matchup(3, ("random", "simple", "random"))
    seats, games = play_chunk(m, 11, 0, 200)
    for g in (0, 57, 199):
        s1, g1 = play_chunk(m, 11, g, 1)
        np.testing.assert_array_equal(s1[0], seats[g])
        np.testing.assert_array_equal(g1[0], games[g])


#: a fresh kernel cache: the batch compiles the game, then a record compiles it again with its log;
#: prints the log argument's type of each compile of the game and the event kernel's compiles
_LOG_PROBE = """
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.engine_nb import play_game_nb
from zsim.games.zahltag.events_nb import event_nb
from zsim.games.zahltag.records import record_game
from zsim.harness.chunks import Matchup, play_chunk

m = Matchup(2, ("passive", "passive"))
seats, games = play_chunk(m, 11, 0, 5)
print("batch", [str(sig[-1]) for sig in play_game_nb.signatures], len(event_nb.signatures))
events = record_game(m, 11, 4)
print("record", [str(sig[-1]) for sig in play_game_nb.signatures], len(event_nb.signatures) > 0)
print("same", events[-1]["money"] == [int(x) for x in seats[4][:, K.S_MONEY]])
"""


def _log_probe(background):
    env = dict(os.environ, ZSIM_ROSTER="exact",
               ZSIM_CACHE_DIR=str(background.tmp_path_factory.mktemp("log-probe-cache")))
    return background.run([sys.executable, "-c", _LOG_PROBE], env=env)


def start_in_background(background, items):
    if any(item.originalname == "test_the_batch_compiles_the_game_without_its_event_log" for item in items):
        background.start(("log-probe",), lambda: _log_probe(background))


def test_the_batch_compiles_the_game_without_its_event_log(background):
    """The batch passes no log (None), so numba drops every logging block of the game before
    typing (a block left in would not type: nothing is appended to None) and compiles none of
    the event kernels; a record compiles the game again, with its log, and plays the same game."""
    done = background.result(("log-probe",), lambda: _log_probe(background))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["batch ['none'] 0",
                                        "record ['none', 'array(int64, 1d, C)'] True",
                                        "same True"]


def test_a_record_without_the_games_name_is_zahltags(tmp_path):
    """Records written before zsim had a second game have no ``name`` in their
    start line; they still replay, as Zahltag games."""
    m = Matchup(3, tuple(field(3)))
    events = record_game(m, 5, 2)
    assert events[0]["name"] == "zahltag"
    old = [{k: v for k, v in ev.items() if k != "name"} for ev in events]
    check_record(old)                                   # no difference reported
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(ev) + "\n" for ev in old))
    r = CliRunner().invoke(cli, ["replay", str(path)])
    assert r.exit_code == 0 and r.output.startswith("Game 2 of seed 5"), r.output
    # a start line naming a game zsim does not know is refused in one line
    path.write_text("".join(json.dumps(dict(ev, name="schach") if ev["e"] == "start" else ev) + "\n"
                            for ev in old))
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(path)])
    assert exc.value.code == 2
