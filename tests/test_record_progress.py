"""``zsim record`` and ``zsim replay`` show their progress as the other commands do.

Record counts games of the total it was asked for; replay counts kB of the
file read, when the file is a regular one (a pipe has no known end). The bar
is :mod:`zsim.progress`'s: on stderr, only on a terminal, after its delay
(set to 0 here so no test waits), and nothing anywhere else.
"""
from __future__ import annotations

import io
import sys
import time

import pytest
from click.testing import CliRunner

import zsim
import zsim.progress as P
from zsim.cli import cli


class FakeTerminal(io.StringIO):
    """A stderr that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def bars(monkeypatch):
    """Every progress display opened, as ``(total, label, unit, Progress)``, and the ``done``
    of each after every advance."""
    opened: list[tuple] = []
    real = P.progress

    def spy(total, label, *args, **kwargs):
        ctx = real(total, label, *args, **kwargs)
        bar = ctx.__enter__()
        steps: list[int] = []
        advance = bar.advance

        def counted(n):
            advance(n)
            steps.append(bar.done)

        bar.advance = counted
        opened.append((total, label, kwargs.get("unit", "games"), bar, steps))

        class Ctx:
            def __enter__(self):
                return bar

            def __exit__(self, *exc):
                return ctx.__exit__(*exc)

        return Ctx()

    monkeypatch.setattr(P, "progress", spy)
    return opened


def test_record_advances_a_bar_of_its_games(bars):
    games = list(zsim.record(game="zahlemann", players=2, seed=1, games=3))
    assert len(games) == 3
    [(total, label, unit, bar, steps)] = bars
    assert (total, label, unit) == (3, "record", "games")
    assert steps == [1, 2, 3]


def test_replay_advances_a_bar_of_the_files_kb(bars, tmp_path):
    path = tmp_path / "g.jsonl"
    zsim.record(game="baumeister", players=2, seed=2, games=4, out=path)
    bars.clear()                                   # the recording's own bar
    played = list(zsim.replay(path))
    assert len(played) == 4
    [(total, label, unit, bar, steps)] = bars
    size = path.stat().st_size
    assert (total, label, unit) == (-(-size // 1000), "replay", "kB")
    assert len(steps) == 4 and steps == sorted(steps) and steps[0] < total and steps[-1] == total


def test_replay_of_a_pipe_has_no_bar(bars, tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    zsim.record(game="zahlemann", players=2, seed=1, games=2, out=path)
    bars.clear()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    assert len(list(zsim.replay("-"))) == 2
    assert bars == []                              # no size to measure against


def _wait_until_drawn(bar, deadline: float = 30.0) -> None:
    """Poll (no timing assertion): the bar's timer thread puts it up soon after the delay."""
    end = time.monotonic() + deadline
    while not bar.drawn and time.monotonic() < end:
        time.sleep(0.01)
    assert bar.drawn, "the bar never appeared"


def test_record_draws_its_bar_on_a_terminal(bars, monkeypatch, capsys):
    fake = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", fake)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(P, "DELAY", 0.0)
    games = iter(zsim.record(game="zahlemann", players=2, seed=1, games=3))
    next(games)
    _wait_until_drawn(bars[0][3])
    rest = list(games)
    assert len(rest) == 2
    assert "record" in fake.getvalue() and "/3 games" in fake.getvalue()
    assert capsys.readouterr().out == ""


def test_replay_draws_its_bar_on_a_terminal(bars, tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    zsim.record(game="zahlemann", players=2, seed=1, games=3, out=path)
    bars.clear()
    fake = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", fake)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(P, "DELAY", 0.0)
    played = iter(zsim.replay(path))
    next(played)
    _wait_until_drawn(bars[0][3])
    assert len(list(played)) == 2
    assert "replay" in fake.getvalue() and f"/{-(-path.stat().st_size // 1000)} kB" in fake.getvalue()


@pytest.mark.parametrize("command", ["record", "replay"])
def test_nothing_changes_when_stderr_is_not_a_terminal(command, tmp_path, monkeypatch):
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(P, "DELAY", 0.0)           # the bar would be due at once, were it allowed
    path = tmp_path / "g.jsonl"
    zsim.record(game="zahlemann", players=2, seed=1, games=3, out=path)
    args = ["record", "--game", "zahlemann", "-p", "2", "--seed", "1", "--games", "3"] \
        if command == "record" else ["replay", str(path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    if command == "record":
        assert result.stdout == path.read_text()
    else:
        assert result.stdout == zsim.replay(path).text()


@pytest.mark.parametrize("command", ["record", "replay"])
def test_quiet_draws_no_bar_even_on_a_terminal(command, bars, tmp_path, monkeypatch):
    """``progress=False`` (``--quiet``): the bar is opened quiet and never drawn."""
    path = tmp_path / "g.jsonl"
    zsim.record(game="zahlemann", players=2, seed=1, games=3, out=path, progress=False)
    bars.clear()
    fake = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", fake)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(P, "DELAY", 0.0)
    played = iter(zsim.record(game="zahlemann", players=2, seed=1, games=3, progress=False)
                  if command == "record" else zsim.replay(path, progress=False))
    next(played)
    time.sleep(0.2)                                # long past the bar's delay, were it allowed
    assert len(list(played)) == 2
    [(total, label, unit, bar, steps)] = bars
    assert label == command and steps[-1] == total and not bar.drawn
    assert fake.getvalue() == ""
    args = ["record", "--game", "zahlemann", "-p", "2", "--seed", "1", "--games", "3", "--quiet"] \
        if command == "record" else ["replay", str(path), "--quiet"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0 and result.stderr == "", result.output
