"""``zsim replay`` reads a record file as a stream and speaks in the file's lines.

A problem in a record of many games is named by the file's line and the
game's number in the file, for every game's checker and for ``--no-check``'s
telling; the file is read, checked and told game by game, holding one game
at a time, so the first game comes out before a bad line later on is read
(and before stdin has ended), and ``zsim replay FILE | head -1`` ends at once.
"""
from __future__ import annotations

import io
import json
import select
import subprocess
import sys
import weakref

import pytest

import zsim
from zsim import record_files as R
from zsim.cli import main

#: per game: the recording (cheap ones: the default strategies and rules), an
#: event kind to corrupt, how, and words the refusal must hold
GAMES = {
    "zahltag": (dict(players=2, seed=7), "bids",
                lambda ev: ev.update(bids=[None if b is None else 99 for b in ev["bids"]]), "cannot bid 99"),
    "zahlemann": (dict(players=2, seed=3), "play",
                  lambda ev: ev.update({"from": "drawn"}), 'from should be "hand"'),
    "baumeister": (dict(players=2, seed=5), "bid", lambda ev: ev.update(amount=999), "chose 999"),
}


def record_file(tmp_path, game: str, games: int = 3) -> tuple:
    """A record file of ``games`` games of ``game``: (path, its lines, the 0-based index of each start)."""
    path = tmp_path / f"{game}.jsonl"
    zsim.record(game=game, games=games, out=path, **GAMES[game][0])
    lines = path.read_text().splitlines()
    starts = [i for i, line in enumerate(lines) if json.loads(line)["e"] == "start"]
    assert len(starts) == games
    return path, lines, starts


def refusal(path, check: bool = True) -> tuple[str, int]:
    """The one-line refusal of replaying ``path`` in Python, and how many games came out first."""
    out = []
    with pytest.raises(zsim.ZsimError) as exc:
        for played in zsim.replay(path, check=check):
            out.append(played)
    message = str(exc.value)
    assert "\n" not in message
    return message, len(out)


# ----------------------------------------------------------------- the file's line numbers
@pytest.mark.parametrize("game", list(GAMES))
def test_an_illegal_event_late_in_a_file_names_the_files_line(game, tmp_path):
    path, lines, starts = record_file(tmp_path, game)
    _, kind, corrupt, words = GAMES[game]
    late = [i for i in range(starts[2], len(lines)) if json.loads(lines[i])["e"] == kind]
    i = late[len(late) // 2]                      # well inside the third game
    ev = json.loads(lines[i])
    corrupt(ev)
    lines[i] = json.dumps(ev)
    path.write_text("\n".join(lines) + "\n")
    message, told = refusal(path)
    assert message.startswith(f"{path} line {i + 1} (game 3, {kind}): "), message
    assert words in message, message
    assert told == 2                               # the games before it were told first


@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_cut_short_names_its_last_line_in_the_file(game, tmp_path):
    path, lines, starts = record_file(tmp_path, game)
    cut = starts[2] - 4                            # game 2 loses its last four lines; game 3 follows whole
    path.write_text("\n".join(lines[:cut] + lines[starts[2]:]) + "\n")
    message, told = refusal(path)
    assert message.startswith(f"{path} line {cut} (game 2"), message
    assert "the game's record ends here, but the rules" in message, message
    assert told == 1


def test_a_file_that_ends_inside_a_game_names_its_last_line(tmp_path, capsys):
    path, lines, starts = record_file(tmp_path, "zahltag")
    keep = len(lines) - 7
    path.write_text("\n".join(lines[:keep]) + "\n")
    message, _ = refusal(path)
    assert message.startswith(f"{path} line {keep} (game 3"), message
    with pytest.raises(SystemExit) as stop:        # the command says the same line
        main(["replay", str(path)])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert err == f"zsim: error: {message}\n"
    assert out.count("Game ") == 2                 # printed before the refusal


def test_no_check_names_the_line_a_telling_cannot_read(tmp_path):
    path, lines, starts = record_file(tmp_path, "zahltag")
    i = next(i for i in range(starts[1], starts[2]) if json.loads(lines[i])["e"] == "award")
    ev = json.loads(lines[i])
    del ev["winners"]
    lines[i] = json.dumps(ev)
    path.write_text("\n".join(lines) + "\n")
    message, told = refusal(path, check=False)
    assert message == f"{path} line {i + 1} (game 2, award): malformed record (KeyError: 'winners')"
    assert told == 1


def test_a_start_line_of_another_game_names_its_line(tmp_path):
    path, lines, starts = record_file(tmp_path, "zahlemann")
    with pytest.raises(zsim.ZsimError) as exc:
        list(zsim.replay(path, game="baumeister"))
    assert str(exc.value).startswith(f"{path} line 1 (game 1, start): the record is a zahlemann game, "
                                     f"not baumeister")
    ev = json.loads(lines[starts[1]])
    ev["name"] = "chess"
    lines[starts[1]] = json.dumps(ev)
    path.write_text("\n".join(lines) + "\n")
    message, told = refusal(path)
    assert message.startswith(f"{path} line {starts[1] + 1} (game 2, start): unknown game 'chess'"), message
    assert told == 1


# ----------------------------------------------------------------- streaming
def test_the_first_game_comes_out_before_a_later_bad_line_is_read(tmp_path):
    path, lines, starts = record_file(tmp_path, "zahltag", games=2)
    head = "".join(line + "\n" for line in lines)
    path.write_text(head + "{this is not JSON\n" + "".join(line + "\n" for line in lines))
    games = iter(zsim.replay(path, check=False))
    first = next(games)                            # told once the second game's start is read
    assert first.game == "zahltag" and first.events[0]["game"] == 0
    with pytest.raises(zsim.ZsimError, match=rf"line {len(lines) + 1}: not JSON"):
        next(games)                                # the second game ends at the bad line
    # and at the reader's level: the first game is handed on before the bad line is read
    source = R.RecordFile(str(path))
    with source.reading() as read:
        next(read)
        assert source.done <= len(head.encode())   # bytes read so far end before the bad line


def test_one_game_is_held_at_a_time(tmp_path, monkeypatch):
    path, lines, _ = record_file(tmp_path, "zahlemann", games=2)
    path.write_text("".join(line + "\n" for line in lines) * 20)       # 40 games
    made: list[weakref.ref] = []

    class Counted(R.GameRecord):
        __slots__ = ()

        def __init__(self, *args):
            super().__init__(*args)
            made.append(weakref.ref(self))

    monkeypatch.setattr(R, "GameRecord", Counted)
    held = []
    for played in zsim.replay(path, check=False):
        held.append(sum(ref() is not None for ref in made))
        assert played.text
    assert len(held) == 40 and len(made) == 40
    assert set(held) == {1}                        # the game being told, and no other


def test_len_counts_the_games_in_a_pass_of_its_own(tmp_path):
    path, lines, _ = record_file(tmp_path, "baumeister", games=2)
    path.write_text("".join(line + "\n" for line in lines) * 3)
    replay = zsim.replay(path)
    assert len(replay) == 6
    assert len(list(replay)) == 6 and len(list(replay)) == 6      # a file replays again
    assert replay.text() == "".join(g.text for g in replay)


def test_stdin_is_replayed_once(tmp_path, monkeypatch):
    path, lines, _ = record_file(tmp_path, "zahltag", games=2)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    replay = zsim.replay("-")
    with pytest.raises(zsim.ZsimError, match="cannot be counted"):
        len(replay)
    assert [g.events[0]["game"] for g in replay] == [0, 1]
    with pytest.raises(zsim.ZsimError, match=r"stdin \(-\) has been read already"):
        list(replay)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    assert len(list(zsim.replay("-"))) == 2        # list() does without the length


def _zsim(*args, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "zsim.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kwargs)


def test_replay_of_stdin_prints_a_game_before_the_input_ends(tmp_path):
    path, lines, starts = record_file(tmp_path, "zahltag", games=2)
    proc = _zsim("replay", "-", "--no-check", stdin=subprocess.PIPE)
    try:
        proc.stdin.write("".join(line + "\n" for line in lines).encode())   # game 1 and game 2
        proc.stdin.flush()                         # ... and the input stays open
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "nothing printed while stdin was still open"
        assert proc.stdout.readline().startswith(b"Game 0 of seed 7")
    finally:
        proc.stdin.close()
        proc.stdout.close()
        proc.wait(timeout=120)
        proc.stderr.close()


def test_replay_into_head_ends_quietly(tmp_path):
    path, lines, _ = record_file(tmp_path, "zahltag", games=2)
    path.write_text("".join(line + "\n" for line in lines) * 100)     # far more than a pipe holds
    proc = _zsim("replay", str(path), "--no-check")
    first = proc.stdout.readline()
    proc.stdout.close()                            # `| head -1` goes away
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0, err
    assert first.startswith(b"Game 0 of seed 7") and err == ""
