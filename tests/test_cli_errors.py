"""Bad input on the command line: one clear line on stderr, exit code 2.

Every case runs the entry point in a process of its own and checks the whole
contract: exit code 2, exactly one ``zsim: error: ...`` line on stderr that
names the problem, no traceback, nothing on stdout, and no output file (nor a
temporary ``.part`` file) left behind. The refused runs are forks of a server
that has imported ``zsim.cli`` once (tests/cli_forks.py); a sample of them is
also started afresh with ``python -m zsim.cli``, which must end the same way.
The good runs at the end start afresh too, and check that ``--out`` leaves
exactly the one file, readable and complete.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from cli_forks import CommandForks

from zsim.harness.chunks import game_column_names, seat_column_names

HEADER = "job,foreman,worker,crane,excavator\n"

# Deck files the cases refer to by name: contents as bytes, or a marker.
DECKS: dict[str, object] = {
    "missing": None,                                   # never written
    "folder": "DIR",                                   # a directory, not a file
    "unreadable": b"\xff\xfe\x00\x81not utf-8\n",      # cannot be decoded
    "empty": b"",
    "wrong_columns": b"job,foreman,worker,crane\n1,1,1,0\n",
    "renamed_column": b"job,foreman,worker,crane,digger\n1,1,1,0,0\n",
    "short_row": (HEADER + "1,1,1,0,0\n2,1,1,0\n").encode(),
    "non_integer": (HEADER + "1,1,x,0,0\n").encode(),
    "fraction": (HEADER + "1,1.5,0,0,0\n").encode(),
    "negative": (HEADER + "1,1,1,0,0\n2,0,0,-1,2\n").encode(),
    "over_supply": (HEADER + "1,1,1,0,0\n2,0,0,11,0\n").encode(),   # default supply: 10 cranes
    "no_jobs": HEADER.encode(),
    "no_workers": (HEADER + "1,0,0,0,0\n").encode(),
    "huge_count": (HEADER + "1,99999999999999999999,0,0,0\n").encode(),
}

# (id, arguments, fragments the error line must contain).  "{deck}" is the
# deck file's path, "{tmp}" the test's temporary folder.
CASES = [
    ("players_1", ["--players", "1"], ["--players", "2..4", "got 1"]),
    ("players_5", ["-p", "5"], ["--players", "2..4", "got 5"]),
    ("players_not_int", ["--players", "two"], ["--players", "'two'"]),
    ("games_0", ["--games", "0"], ["--games", "got 0"]),
    ("games_negative", ["-n", "-3"], ["--games", "got -3"]),
    ("seed_negative", ["--seed", "-1"], ["--seed", "got -1"]),
    ("seed_too_big", ["--seed", str(1 << 64)], ["--seed", str(1 << 64)]),
    ("unknown_strategy", ["--strategies", "bogus"], ["unknown strategy", "'bogus'"]),
    ("unknown_strategy_in_list", ["--strategies", "simple,nope,simple,simple"],
     ["unknown strategy", "'nope'"]),
    ("too_few_strategies", ["--strategies", "simple,random"], ["2 strategies", "4 players"]),
    ("too_many_strategies", ["-p", "2", "--strategies", "simple,random,simple"],
     ["3 strategies", "2 players"]),
    ("unknown_rule_key", ["--rule", "bogus_key=3"], ["unknown rule key", "'bogus_key'"]),
    ("rule_not_key_value", ["--rule", "max_bid"], ["'max_bid'", "key=value"]),
    ("rule_not_int", ["--rule", "max_bid=abc"], ["max_bid", "whole number", "'abc'"]),
    ("rule_fraction", ["--rule", "start_money=2.5"], ["start_money", "whole number", "'2.5'"]),
    ("rule_empty_value", ["--rule", "hand_size="], ["hand_size", "whole number"]),
    ("rule_too_high", ["--rule", "max_bid=100"], ["max_bid=100", "1..99"]),
    ("rule_too_low", ["--rule", "paydays_to_end=0"], ["paydays_to_end=0", "1..20"]),
    ("rule_negative", ["--rule", "start_money=-5"], ["start_money=-5", "0..10000"]),
    ("rule_bad_bool", ["--rule", "payday_counts_table=maybe"],
     ["payday_counts_table", "true or false", "'maybe'"]),
    ("rule_bad_choice", ["--rule", "over_cap=sometimes"], ["over_cap", "forbid, penalize", "'sometimes'"]),
    ("rule_supply_three", ["--rule", "supply=14,16,10"], ["supply", "'14,16,10'"]),
    ("rule_supply_word", ["--rule", "supply=14,16,ten,12"], ["supply", "'14,16,ten,12'"]),
    ("rule_supply_out_of_range", ["--rule", "supply=14,16,10,61"], ["supply", "0..60", "61"]),
    ("rule_paydays_over_cards", ["--rule", "paydays_to_end=7"], ["paydays_to_end=7", "payday_cards"]),
    ("rule_cap_below_hand", ["--rule", "card_cap=6"], ["card_cap=6", "hand_size=7"]),
    ("rule_hands_exceed_supply", ["--rule", "hand_size=14", "--rule", "card_cap=14"],
     ["4 players", "hand_size 14", "52"]),
    ("rule_supply_below_deck", ["--rule", "supply=14,16,1,12"],
     ["job 21", "2 crane", "only 1"]),
    ("deck_missing", ["--deck", "{deck}"], ["{deck}", "does not exist"]),
    ("deck_folder", ["--deck", "{deck}"], ["{deck}", "folder"]),
    ("deck_unreadable", ["--deck", "{deck}"], ["{deck}", "cannot be read"]),
    ("deck_empty", ["--deck", "{deck}"], ["{deck}", "empty"]),
    ("deck_wrong_columns", ["--deck", "{deck}"], ["{deck}", "columns", "found job,foreman,worker,crane"]),
    ("deck_renamed_column", ["--deck", "{deck}"], ["{deck}", "columns", "digger"]),
    ("deck_short_row", ["--deck", "{deck}"], ["{deck}", "line 3", "4 fields"]),
    ("deck_non_integer", ["--deck", "{deck}"], ["{deck}", "line 2", "worker", "'x'"]),
    ("deck_fraction", ["--deck", "{deck}"], ["{deck}", "line 2", "foreman", "'1.5'"]),
    ("deck_negative", ["--deck", "{deck}"], ["{deck}", "line 3", "crane", "negative", "-1"]),
    ("deck_over_supply", ["--deck", "{deck}"], ["{deck}", "job 2", "11 crane", "only 10"]),
    ("deck_no_jobs", ["--deck", "{deck}"], ["{deck}", "no jobs"]),
    ("deck_no_workers", ["--deck", "{deck}"], ["{deck}", "line 2", "no workers"]),
    ("deck_huge_count", ["--deck", "{deck}"], ["{deck}", "line 2", "foreman", "more than any supply"]),
    ("unknown_option", ["--bogus-option"], ["--bogus-option"]),
]

COMMANDS = ("simulate", "record")
OUT_NAME = {"simulate": "games.parquet", "record": "games.jsonl"}
RECORD_ONLY = [
    ("first_negative", ["--first", "-1"], ["--first", "got -1"]),
    ("first_past_the_index_range", ["--first", str((1 << 63) - 1), "--games", "2"], ["--first", "2**62"]),
]


def zsim(*args: str, cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    """Run the console entry point exactly as a user would."""
    return subprocess.run([sys.executable, "-m", "zsim.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ))


@pytest.fixture(scope="module")
def refused():
    """``zsim(...)`` for a run that is to be refused: a fork of the module's command server."""
    forks = CommandForks()
    yield lambda *args, cwd: forks.run(list(args), cwd)
    forks.close()


def afresh_as_forked(refused, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``zsim(...)`` started afresh, after checking that its fork ends the same way, to the byte."""
    afresh, forked = zsim(*args, cwd=cwd), refused(*args, cwd=cwd)
    assert (afresh.returncode, afresh.stdout, afresh.stderr) == (forked.returncode, forked.stdout, forked.stderr)
    return afresh


def assert_one_error_line(proc: subprocess.CompletedProcess, fragments: list[str], code: int = 2) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert proc.stdout == "", proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert line.startswith("zsim: error: "), line
    assert line.strip() != "zsim: error:", line
    for frag in fragments:
        assert frag in line, (frag, line)
    return line


def all_files(folder: Path) -> list[str]:
    """Every file and folder under ``folder`` (hidden ones too), relative."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    """(input folder, output folder); the command runs in the output folder."""
    inp, out = tmp_path / "in", tmp_path / "out"
    inp.mkdir()
    out.mkdir()
    return inp, out


def make_deck(inp: Path, case_id: str) -> Path:
    kind = case_id.removeprefix("deck_")
    path = inp / f"{kind}.csv"
    content = DECKS[kind]
    if content == "DIR":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    return path


def fill(args: list[str], deck: Path | None, tmp: Path) -> list[str]:
    return [a.format(deck=deck, tmp=tmp) for a in args]


# ----------------------------------------------------------------- simulate / record
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case_id,args,fragments", CASES, ids=[c[0] for c in CASES])
def test_bad_input_one_line_exit_2_no_file(command, case_id, args, fragments, dirs, refused):
    inp, out = dirs
    deck = make_deck(inp, case_id) if case_id.startswith("deck_") else None
    target = out / OUT_NAME[command]
    proc = refused(command, "--games", "5", *fill(args, deck, inp), "--out", str(target), cwd=out)
    assert_one_error_line(proc, fill(fragments, deck, inp))
    assert all_files(out) == []


@pytest.mark.parametrize("case_id,args,fragments", RECORD_ONLY, ids=[c[0] for c in RECORD_ONLY])
def test_record_bad_input(case_id, args, fragments, dirs, refused):
    _, out = dirs
    proc = refused("record", *args, "--out", str(out / "games.jsonl"), cwd=out)
    assert_one_error_line(proc, fragments)
    assert all_files(out) == []


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case_id,args,fragments", [
    c for c in CASES if c[0] in ("players_5", "games_0", "unknown_strategy", "unknown_rule_key")
], ids=["players_5", "games_0", "unknown_strategy", "unknown_rule_key"])
def test_bad_input_without_out(command, case_id, args, fragments, dirs, refused):
    """The same contract when the result would go to stdout."""
    _, out = dirs
    proc = refused(command, "--games", "5", *args, cwd=out)
    assert_one_error_line(proc, fragments)
    assert all_files(out) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_out_in_missing_folder(command, dirs, refused):
    _, out = dirs
    missing = out / "no_such_folder"
    proc = refused(command, "--games", "5", "--out", str(missing / OUT_NAME[command]), cwd=out)
    assert_one_error_line(proc, ["--out", str(missing), "does not exist"])
    assert not missing.exists()
    assert all_files(out) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_out_in_missing_relative_folder(command, dirs, refused):
    _, out = dirs
    proc = refused(command, "--games", "5", "--out", f"nowhere/{OUT_NAME[command]}", cwd=out)
    assert_one_error_line(proc, ["--out", "'nowhere'", "does not exist"])
    assert all_files(out) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_out_is_a_folder(command, dirs, refused):
    _, out = dirs
    folder = out / "taken"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")   # simulate takes an empty folder as a run folder
    proc = refused(command, "--games", "5", "--out", str(folder), cwd=out)
    assert_one_error_line(proc, ["--out", str(folder), "folder"])
    assert all_files(out) == ["taken", "taken/notes.txt"]


@pytest.mark.parametrize("command", COMMANDS)
def test_bad_input_keeps_an_existing_out_file(command, dirs, refused):
    """A refused run must not clobber (or truncate) what ``--out`` points at."""
    _, out = dirs
    target = out / OUT_NAME[command]
    target.write_bytes(b"precious")
    proc = refused(command, "--games", "5", "--players", "9", "--out", str(target), cwd=out)
    assert_one_error_line(proc, ["--players", "got 9"])
    assert all_files(out) == [target.name]
    assert target.read_bytes() == b"precious"


#: refused runs also started afresh: an option, a rule, two decks, a deck's row and click's own refusal
AFRESH = ("players_5", "rule_bad_choice", "deck_missing", "deck_unreadable", "deck_negative", "unknown_option")


@pytest.mark.parametrize("command", COMMANDS)
def test_started_afresh_the_command_refuses_as_its_forks_do(command, dirs, refused):
    """The forks leave out Python's start and zsim's imports: started with
    ``python -m zsim.cli``, a sample of the cases ends the same way, to the byte."""
    inp, out = dirs
    for case_id, args, fragments in (c for c in CASES if c[0] in AFRESH):
        deck = make_deck(inp, case_id) if case_id.startswith("deck_") else None
        argv = [command, "--games", "5", *fill(args, deck, inp), "--out", str(out / OUT_NAME[command])]
        assert_one_error_line(afresh_as_forked(refused, *argv, cwd=out), fill(fragments, deck, inp))
        assert all_files(out) == []


# ----------------------------------------------------------------- replay
REPLAY_FILES: dict[str, object] = {
    "missing": None,
    "not_json": b'{"e":"start"\n',
    "not_json_later": b'{"e":"start","players":2}\nthis is not json\n',
    "no_start": b'{"e":"turn","turn":1,"seat":0}\n',
    "no_e_field": b'{"turn":1}\n',
    "not_an_object": b"[1, 2, 3]\n",
    "empty": b"",
    "blank_lines": b"\n\n   \n",
    "not_utf8": b"\xff\xfe\x81\n",
    "start_without_fields": b'{"e":"start"}\n',
}
REPLAY_CASES = [
    ("missing", ["{path}", "does not exist"]),
    ("not_json", ["{path}", "line 1", "not JSON"]),
    ("not_json_later", ["{path}", "line 2", "not JSON"]),
    ("no_start", ["{path}", "line 1", "start event"]),
    ("no_e_field", ["{path}", "line 1", '"e"']),
    ("not_an_object", ["{path}", "line 1", '"e"']),
    ("empty", ["{path}", "no games"]),
    ("blank_lines", ["{path}", "no games"]),
    ("not_utf8", ["{path}", "cannot be read"]),
    ("start_without_fields", ["game", "players"]),
]


@pytest.mark.parametrize("check", ["--check", "--no-check"])
@pytest.mark.parametrize("kind,fragments", REPLAY_CASES, ids=[c[0] for c in REPLAY_CASES])
def test_replay_bad_file(kind, fragments, check, dirs, refused):
    inp, out = dirs
    path = inp / f"{kind}.jsonl"
    if REPLAY_FILES[kind] is not None:
        path.write_bytes(REPLAY_FILES[kind])
    proc = refused("replay", check, str(path), cwd=out)
    assert_one_error_line(proc, [f.format(path=path) for f in fragments])
    assert all_files(out) == []


def test_started_afresh_replay_refuses_as_its_forks_do(dirs, refused):
    inp, out = dirs
    for kind in ("missing", "not_json_later", "not_utf8"):
        path = inp / f"{kind}.jsonl"
        if REPLAY_FILES[kind] is not None:
            path.write_bytes(REPLAY_FILES[kind])
        afresh = afresh_as_forked(refused, "replay", str(path), cwd=out)
        assert afresh.returncode == 2 and afresh.stderr.startswith("zsim: error: "), afresh.stderr


def test_replay_folder(dirs, refused):
    inp, out = dirs
    proc = refused("replay", str(inp), cwd=out)
    assert_one_error_line(proc, [str(inp)])


def test_replay_record_that_breaks_the_rules(dirs, refused):
    """A start event with nonsense in it is refused by the check, in one line."""
    inp, out = dirs
    path = inp / "bad.jsonl"
    path.write_text('{"e":"start","game":3,"players":7}\n')
    proc = refused("replay", str(path), cwd=out)
    assert_one_error_line(proc, [f"{path} line 1 (game 1, start)", "players"])


# ----------------------------------------------------------------- good runs
def test_simulate_out_writes_one_complete_parquet_file(dirs):
    _, out = dirs
    games, players = 5, 3
    target = out / "games.parquet"
    proc = zsim("simulate", "--games", str(games), "--players", str(players), "--seed", "7",
                "--strategies", "simple,random,simple", "--json", "--out", str(target), cwd=out)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert all_files(out) == ["games.parquet"]            # no .part file beside it

    summary = json.loads(proc.stdout)
    df = pl.read_parquet(target)
    assert df.height == games * players
    for col in ("game", "seat", "strategy", *seat_column_names(), *game_column_names()):
        assert col in df.columns, col
    assert sorted(df["seat"].unique().to_list()) == list(range(players))
    assert sorted(df["game"].unique().to_list()) == list(range(games))
    per_game = df.group_by("game").agg(pl.len().alias("n"), pl.col("seat").sort().alias("seats"))
    assert per_game["n"].to_list() == [players] * games
    assert all(s == list(range(players)) for s in per_game["seats"].to_list())

    by_seat = df.group_by("seat").agg(pl.col("money").mean().alias("mean"),
                                      (1.96 * pl.col("money").std() / pl.len().sqrt()).alias("ci"),
                                      pl.col("strategy").first().cast(pl.Utf8).alias("strategy"))
    by_seat = {r["seat"]: r for r in by_seat.to_dicts()}
    assert len(summary) == players
    for row in summary:
        seat = row["seat"]
        assert by_seat[seat]["mean"] == pytest.approx(row["money_mean"], abs=1e-9)
        assert by_seat[seat]["ci"] == pytest.approx(row["money_ci95"], rel=1e-9)   # printed too
        assert by_seat[seat]["strategy"] == row["strategy"]
        assert row["strategy"] == ["simple", "random", "simple"][seat]

    # The file changes nothing about the run: the summary alone is the same.
    again = zsim("simulate", "--games", str(games), "--players", str(players), "--seed", "7",
                 "--strategies", "simple,random,simple", "--json", cwd=out)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == summary
    assert all_files(out) == ["games.parquet"]


def test_simulate_out_replaces_an_existing_file(dirs):
    _, out = dirs
    target = out / "games.parquet"
    target.write_bytes(b"old contents")
    proc = zsim("simulate", "--games", "4", "--players", "2", "--out", str(target), cwd=out)
    assert proc.returncode == 0, proc.stderr
    assert all_files(out) == ["games.parquet"]
    assert pl.read_parquet(target).height == 4 * 2


def test_record_out_writes_one_complete_file(dirs):
    _, out = dirs
    games = 3
    target = out / "games.jsonl"
    proc = zsim("record", "--games", str(games), "--players", "2", "--first", "4",
                "--out", str(target), cwd=out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert all_files(out) == ["games.jsonl"]
    events = [json.loads(line) for line in target.read_text().splitlines()]
    starts = [e for e in events if e["e"] == "start"]
    assert [e["game"] for e in starts] == [4, 5, 6]
    assert events[0]["e"] == "start" and events[-1]["e"] == "end"

    # The file is a valid record: replay re-checks every rule and accepts it.
    rep = zsim("replay", str(target), cwd=out)
    assert rep.returncode == 0, rep.stderr
    assert rep.stdout.count("Game ") == games


# ----------------------------------------------------------------- interrupted writes
def test_atomic_path_failure_leaves_nothing(tmp_path):
    from zsim.output import atomic_path

    target = tmp_path / "result.parquet"
    with pytest.raises(RuntimeError, match="boom"):
        with atomic_path(target) as tmp:
            assert tmp.parent == tmp_path
            assert tmp != target
            tmp.write_bytes(b"half a file")
            assert tmp.exists()
            raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []


def test_atomic_path_ctrl_c_leaves_nothing(tmp_path):
    from zsim.output import atomic_path

    with pytest.raises(KeyboardInterrupt):
        with atomic_path(tmp_path / "result.jsonl") as tmp:
            tmp.write_text("partial\n")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_atomic_path_failure_keeps_the_old_target(tmp_path):
    from zsim.output import atomic_path

    target = tmp_path / "result.jsonl"
    target.write_text("old\n")
    with pytest.raises(ValueError):
        with atomic_path(target) as tmp:
            tmp.write_text("new but unfinished\n")
            raise ValueError
    assert [p.name for p in tmp_path.iterdir()] == ["result.jsonl"]
    assert target.read_text() == "old\n"


def test_atomic_path_success_leaves_only_the_target(tmp_path):
    from zsim.output import atomic_path

    target = tmp_path / "result.jsonl"
    with atomic_path(target) as tmp:
        tmp.write_text("done\n")
    assert [p.name for p in tmp_path.iterdir()] == ["result.jsonl"]
    assert target.read_text() == "done\n"


def test_parquet_output_failure_after_a_chunk_leaves_nothing(tmp_path):
    from zsim.output import parquet_output

    with pytest.raises(RuntimeError):
        with parquet_output(tmp_path / "games.parquet") as sink:
            sink.write(pl.DataFrame({"game": [0, 1], "money": [3, 4]}))
            raise RuntimeError("interrupted between chunks")
    assert list(tmp_path.iterdir()) == []


def test_simulate_interrupted_mid_write_leaves_nothing(tmp_path, monkeypatch, capsys):
    """Ctrl-C after the first chunk reached the file: exit 130, no file; the
    summary of the finished games still goes to stdout, after one line on stderr."""
    from zsim import cli, output

    real_write = output.ParquetChunks.write
    calls = []

    def write_then_interrupt(self, frame):
        real_write(self, frame)
        calls.append(frame.num_rows)
        raise KeyboardInterrupt

    monkeypatch.setattr(output.ParquetChunks, "write", write_then_interrupt)
    with pytest.raises(SystemExit) as exc:
        cli.main(["simulate", "--games", "5", "--players", "2",
                  "--out", str(tmp_path / "games.parquet")])
    assert exc.value.code == 130
    assert calls == [10]
    assert list(tmp_path.iterdir()) == []
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "zsim: interrupted after 5 of 5 games; the summary covers the finished games; "
        f"{tmp_path / 'games.parquet'} was not written"]
    assert out.startswith("5 games, 2 players")


@pytest.mark.parametrize("command", COMMANDS)
def test_out_in_a_folder_that_cannot_be_written(command, dirs, refused):
    inp, out = dirs
    target = "/proc/zsim-out"  # exists, but nothing can be created in it
    proc = refused(command, "--games", "2", "--out", target, cwd=out)
    assert_one_error_line(proc, ["/proc"], code=74)       # an output that cannot be written


def test_outputs_get_the_usual_file_mode(dirs):
    inp, out = dirs
    proc = zsim("record", "--games", "1", "--out", "g.jsonl", cwd=out)
    assert proc.returncode == 0, proc.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert (out / "g.jsonl").stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_deck_saved_with_a_byte_order_mark_loads(tmp_path):
    from zsim.games.zahltag.deck import load_deck

    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + "1,1,1,0,0\n").encode())
    assert load_deck(path).needs.tolist() == [[1, 1, 0, 0]]
