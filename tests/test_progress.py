"""Long runs: the progress bar, ``--quiet`` and Ctrl-C.

The bar must never reach a script: nothing is drawn when ``quiet`` is set or
stderr is not a terminal, and nothing ever goes to stdout.  On a terminal it
appears after a delay (a parameter, so these tests need not wait two seconds)
and is erased at the end.

Ctrl-C is tested twice over: in process, by making the engine's chunk call
raise KeyboardInterrupt at a chosen chunk (exact counts, no signals, fast),
and for real, by sending SIGINT to a ``python -m zsim.cli`` subprocess once
its ``--out`` temporary file shows that games are being played.
"""
from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import start_zsim
from rich.console import Console

from zsim.cli import cli
from zsim.progress import DELAY, INTERRUPTED_EXIT, Progress, progress

CHUNK = 1 << 16        # runner.DEFAULT_CHUNK: games per chunk of `zsim simulate`


class FakeTerminal(io.StringIO):
    """A stderr that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


def forced_terminal() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=True, width=120), buf


def wait_until_drawn(p: Progress, deadline: float = 30.0) -> None:
    """Poll (no timing assertion): the timer thread puts the bar up soon after the delay."""
    end = time.monotonic() + deadline
    while not p.drawn and time.monotonic() < end:
        time.sleep(0.01)
    assert p.drawn, "the bar never appeared"


# ----------------------------------------------------------------- the progress object
def test_counts_every_advance():
    with progress(1000, "simulate", quiet=True) as p:
        assert p.done == 0 and p.total == 1000
        for n in (300, 0, 65_536, 7):
            p.advance(n)
        assert p.done == 300 + 65_536 + 7
    assert p.done == 65_843          # still readable after the run, e.g. for an interrupt message


def test_quiet_draws_nothing_even_on_a_terminal():
    console, buf = forced_terminal()
    with progress(100, "simulate", quiet=True, delay=0.0, console=console) as p:
        p.advance(50)
        time.sleep(0.3)
        p.advance(50)
    assert buf.getvalue() == ""
    assert not p.drawn and p.done == 100


def test_a_console_that_is_not_a_terminal_gets_nothing():
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=False)
    with progress(100, "simulate", delay=0.0, console=console) as p:
        p.advance(100)
        time.sleep(0.3)
    assert buf.getvalue() == "" and not p.drawn


def test_stderr_not_a_terminal_gets_nothing(monkeypatch, capsys):
    """The default target is stderr, and a captured or piped stderr is not a terminal."""
    monkeypatch.setenv("TERM", "xterm")
    with progress(100, "simulate", delay=0.0) as p:
        p.advance(40)
        time.sleep(0.3)
        p.advance(60)
    out, err = capsys.readouterr()
    assert out == "" and err == ""
    assert not p.drawn and p.done == 100


def test_stderr_terminal_gets_the_bar_and_stdout_nothing(monkeypatch, capsys):
    """The same default path with a stderr that is a terminal: now it draws, on stderr only."""
    fake = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", fake)
    monkeypatch.setenv("TERM", "xterm")
    with progress(2_000, "simulate", delay=0.01) as p:
        p.advance(1_000)
        wait_until_drawn(p)
        p.advance(500)
    assert "simulate" in fake.getvalue() and "/2,000 games" in fake.getvalue()
    assert capsys.readouterr().out == ""


def test_dumb_terminal_gets_nothing(monkeypatch):
    fake = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", fake)
    monkeypatch.setenv("TERM", "dumb")
    with progress(100, "simulate", delay=0.0) as p:
        p.advance(100)
        time.sleep(0.3)
    assert fake.getvalue() == "" and not p.drawn


def test_draws_on_a_terminal_after_the_delay_and_erases_itself():
    console, buf = forced_terminal()
    with progress(1_000_000, "simulate", delay=0.01, console=console) as p:
        p.advance(250_000)
        wait_until_drawn(p)
        p.advance(250_000)
        console.file.flush()
        shown = buf.getvalue()
    assert "simulate" in shown
    assert "/1,000,000 games" in shown                   # done / total, with thousands separators
    assert "left" in shown                               # the time-left column
    # Transient: the last thing written erases the line the bar was on.
    assert buf.getvalue()[len(shown):] != "" and buf.getvalue().endswith("\x1b[2K")


def test_shows_the_rate_once_known():
    console, buf = forced_terminal()
    with progress(10_000, "tune fixed", delay=0.0, console=console) as p:
        wait_until_drawn(p)
        for _ in range(5):
            time.sleep(0.05)
            p.advance(1_000)
        p._bar.refresh()
        text = buf.getvalue()
    assert re.search(r"[\d,]+ games/s", text), text
    assert "tune fixed" in text and "5,000/10,000 games" in text


def test_a_short_run_draws_nothing_before_the_delay():
    console, buf = forced_terminal()
    with progress(100, "simulate", delay=60.0, console=console) as p:
        p.advance(100)
    assert buf.getvalue() == "" and not p.drawn
    assert DELAY == pytest.approx(2.0)                   # the documented default


def test_the_bar_is_erased_when_the_run_raises():
    console, buf = forced_terminal()
    with pytest.raises(KeyboardInterrupt):
        with progress(100, "simulate", delay=0.0, console=console) as p:
            wait_until_drawn(p)
            raise KeyboardInterrupt
    assert buf.getvalue().endswith("\x1b[2K")
    assert p._bar is None


# ----------------------------------------------------------------- Ctrl-C inside progress()
@pytest.fixture
def default_sigint():
    """Python's own SIGINT handler, whatever the test runner installed."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    hook = sys.unraisablehook           # a stop quiets it (zsim.signals.note); give it back
    yield
    signal.signal(signal.SIGINT, previous)
    sys.unraisablehook = hook


def test_ctrl_c_waits_for_the_next_advance(default_sigint):
    with pytest.raises(KeyboardInterrupt):
        with progress(300, "simulate", quiet=True) as p:
            p.advance(100)
            signal.raise_signal(signal.SIGINT)           # noted, not raised here...
            reached = True
            p.advance(100)                               # ...but at the end of the chunk
    assert reached and p.done == 200
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # handed back


def test_ctrl_c_survives_a_library_that_swallows_keyboard_interrupt(default_sigint):
    """polars runs Python's signal handlers during its work and drops the
    KeyboardInterrupt they raise; the noted Ctrl-C must still stop the run."""
    with pytest.raises(KeyboardInterrupt):
        with progress(300, "simulate", quiet=True) as p:
            p.advance(100)
            try:                                         # what such a library does
                signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
            except KeyboardInterrupt:
                pass
            p.advance(100)


def test_a_swallowed_ctrl_c_before_any_chunk_still_stops_at_the_first(default_sigint):
    """Before the first chunk a Ctrl-C raises at once; if a library drops that
    raise, the first advance must still stop the run, and with SIGTERM's status."""
    from zsim import signals

    with pytest.raises(KeyboardInterrupt) as stop:
        with progress(300, "simulate", quiet=True) as p:
            try:
                signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)
            except KeyboardInterrupt:
                pass                                     # what polars does
            p.advance(100)
    assert isinstance(stop.value, signals.Stopped) and signals.exit_code() == 143
    signals.note(signal.SIGINT)                          # leave the status as other tests expect


def test_ctrl_c_twice_or_before_any_chunk_raises_at_once(default_sigint):
    with pytest.raises(KeyboardInterrupt):
        with progress(300, "simulate", quiet=True) as p:
            signal.raise_signal(signal.SIGINT)           # nothing finished yet: nothing to keep
            pytest.fail("not interrupted")
    with pytest.raises(KeyboardInterrupt):
        with progress(300, "simulate", quiet=True) as p:
            p.advance(100)
            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)           # the impatient second press
            pytest.fail("not interrupted")
    assert p.done == 100


def test_someone_elses_sigint_handler_is_left_alone(default_sigint):
    seen = []

    def mine(signum, frame):
        seen.append(signum)

    previous = signal.signal(signal.SIGINT, mine)
    try:
        with progress(10, "simulate", quiet=True) as p:
            assert signal.getsignal(signal.SIGINT) is mine
            p.advance(5)
            signal.raise_signal(signal.SIGINT)
            p.advance(5)                                 # no KeyboardInterrupt: not ours to raise
        assert seen == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)


def test_no_deferral_when_not_asked(default_sigint):
    with progress(10, "simulate", quiet=True, defer_ctrl_c=False):
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# ----------------------------------------------------------------- --quiet on the commands
QUIET_CASES = {
    "simulate": ["simulate", "--games", "300", "--players", "3", "--seed", "5", "--json"],
    "tournament": ["tournament", "--field", "simple,random", "-p", "2", "--games", "20", "--json"],
    "tune": ["tune", "fixed", "-p", "2", "--budget", "80", "--eval-games", "40", "--json"],
}


@pytest.mark.parametrize("name", list(QUIET_CASES))
@pytest.mark.parametrize("flag", ["--quiet", "-q"])
def test_quiet_is_accepted_and_changes_nothing_on_stdout(name, flag):
    args = QUIET_CASES[name]
    loud = CliRunner().invoke(cli, args)
    quiet = CliRunner().invoke(cli, [*args, flag])
    assert loud.exit_code == 0, loud.output
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stdout == loud.stdout
    json.loads(quiet.stdout)                             # the result itself, intact
    assert quiet.stderr == ""


@pytest.mark.parametrize("name", list(QUIET_CASES))
def test_quiet_is_in_the_help(name):
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0
    assert "-q, --quiet" in result.stdout


# ----------------------------------------------------------------- Ctrl-C, in process
def interrupt_at(monkeypatch, module, call: int) -> list[int]:
    """Make ``module.play_chunk`` raise KeyboardInterrupt on its ``call``-th
    call (1-based), as a Ctrl-C surfacing when that chunk returns would; the
    returned list holds the games of each chunk that did complete."""
    from zsim.harness import chunks as runner

    real = runner.play_chunk
    played: list[int] = []

    def fake(m, seed, first_game, n_games, *args, **kwargs):
        if len(played) + 1 == call:
            raise KeyboardInterrupt
        out = real(m, seed, first_game, n_games, *args, **kwargs)
        played.append(n_games)
        return out

    monkeypatch.setattr(module, "play_chunk", fake)
    return played


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_simulate_interrupted_prints_the_finished_games(monkeypatch, tmp_path):
    from zsim.harness import backends

    interrupt_at(monkeypatch, backends, 3)                 # two chunks finish, the third is cut
    target = tmp_path / "games.parquet"
    result = CliRunner().invoke(cli, ["simulate", "--games", "1000000", "--seed", "3", "--json",
                                      "--out", str(target), "--quiet"])
    assert result.exit_code == INTERRUPTED_EXIT, result.output
    finished = 2 * CHUNK
    assert result.stderr.splitlines() == [
        f"zsim: interrupted after {finished:,} of 1,000,000 games; the summary covers the "
        f"finished games; {target} was not written"]
    assert files_in(tmp_path) == []                      # neither the target nor a .part file
    monkeypatch.undo()
    # The summary is exactly that of a run of the finished games (game i is always the same game).
    full = CliRunner().invoke(cli, ["simulate", "--games", str(finished), "--seed", "3", "--json"])
    assert full.exit_code == 0
    assert json.loads(result.stdout) == json.loads(full.stdout)


def test_simulate_interrupted_table_names_the_finished_games(monkeypatch):
    from zsim.harness import backends

    interrupt_at(monkeypatch, backends, 2)
    result = CliRunner().invoke(cli, ["simulate", "--games", "500000", "-p", "2"])
    assert result.exit_code == INTERRUPTED_EXIT
    assert result.stdout.splitlines()[0].startswith(f"{CHUNK:,} games, 2 players")
    assert "seat" in result.stdout and "win_share" in result.stdout
    assert "Traceback" not in result.output


def test_simulate_interrupted_while_writing_counts_the_folded_chunks(monkeypatch, tmp_path):
    """A Ctrl-C may surface after a chunk was folded into the sums but before
    the run noted it (here: while the chunk's rows are written): the summary
    counts what the sums hold."""
    from zsim.output import ParquetChunks

    real = ParquetChunks.write
    calls = []

    def write(self, frame):
        calls.append(frame)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real(self, frame)

    monkeypatch.setattr(ParquetChunks, "write", write)
    result = CliRunner().invoke(cli, ["simulate", "--games", "1000000", "-p", "2", "--json",
                                      "--out", str(tmp_path / "g.parquet")])
    assert result.exit_code == INTERRUPTED_EXIT
    assert f"interrupted after {2 * CHUNK:,} of 1,000,000 games" in result.stderr
    rows = json.loads(result.stdout)
    assert len(rows) == 2 and all(0 <= r["win_share"] <= 1 for r in rows)
    assert files_in(tmp_path) == []


def test_simulate_interrupted_before_any_game(monkeypatch, tmp_path):
    from zsim.harness import backends

    interrupt_at(monkeypatch, backends, 1)
    result = CliRunner().invoke(cli, ["simulate", "--games", "1000", "--out",
                                      str(tmp_path / "g.parquet")])
    assert result.exit_code == INTERRUPTED_EXIT
    assert result.stdout == ""
    assert result.stderr == "zsim: interrupted before any of the 1,000 games finished\n"
    assert files_in(tmp_path) == []


def test_simulate_interrupt_keeps_an_existing_out_file(monkeypatch, tmp_path):
    from zsim.harness import backends

    interrupt_at(monkeypatch, backends, 2)
    target = tmp_path / "games.parquet"
    target.write_bytes(b"precious")
    result = CliRunner().invoke(cli, ["simulate", "--games", "200000", "--out", str(target)])
    assert result.exit_code == INTERRUPTED_EXIT
    assert files_in(tmp_path) == ["games.parquet"] and target.read_bytes() == b"precious"


def test_tournament_interrupted(monkeypatch, tmp_path):
    from zsim.harness import tournament

    # 10 deals x 2 seatings, one chunk per seating: the second seating is cut
    played = interrupt_at(monkeypatch, tournament, 2)
    target = tmp_path / "t.parquet"
    result = CliRunner().invoke(cli, ["tournament", "--field", "simple,random", "-p", "2",
                                      "--games", "10", "--out", str(target)])
    assert played == [10]
    assert result.exit_code == INTERRUPTED_EXIT, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"zsim: interrupted after 10 of 20 games; no results; {target} was not written"]
    assert files_in(tmp_path) == []


def test_tournament_compare_independent_interrupted_writes_no_file(monkeypatch, tmp_path):
    """The --out rows of the duplicate run are complete before the independent
    run starts, but the command was not: nothing is written."""
    from zsim.harness import tournament

    interrupt_at(monkeypatch, tournament, 3)             # the first seating of the independent run
    target = tmp_path / "t.parquet"
    result = CliRunner().invoke(cli, ["tournament", "--field", "simple,random", "-p", "2",
                                      "--games", "10", "--compare-independent", "--out", str(target)])
    assert result.exit_code == INTERRUPTED_EXIT
    assert "interrupted after 20 of 40 games" in result.stderr
    assert files_in(tmp_path) == []


def test_tune_interrupted(monkeypatch):
    from zsim.harness import tune
    from zsim.harness.tune import planned_games

    played = interrupt_at(monkeypatch, tune, 5)
    result = CliRunner().invoke(cli, ["tune", "fixed", "-p", "2", "--budget", "400",
                                      "--eval-games", "40"])
    assert result.exit_code == INTERRUPTED_EXIT, result.output
    assert result.stdout == ""
    total = planned_games(2, 400, None, 40)
    assert result.stderr.splitlines() == [
        f"zsim: interrupted after {sum(played):,} of {total:,} games; no result"]
    assert len(played) == 4 and sum(played) > 0


# ----------------------------------------------------------------- progress callbacks of the libraries
def test_tournament_reports_every_game():
    from zsim.harness.seatings import seatings
    from zsim.harness.tournament import run_tournament

    seen: list[int] = []
    t = run_tournament(("simple", "random", "passive"), 3, 25, 1, chunk=10, on_games=seen.append)
    assert sum(seen) == t.games == 25 * len(seatings(3, 3)[0])
    assert set(seen) == {10, 5}                         # once per seating per chunk


def test_tune_reports_its_games_within_the_plan():
    from zsim.harness.tune import parse_field, planned_games, tune

    seen: list[int] = []
    r = tune("fixed", parse_field("simple", 2), budget=400, seed=2, eval_games=40,
             on_games=seen.append)
    evaluated = r.best.games * (1 if r.best_spec == r.default_spec else 2)
    assert sum(seen) == r.tuning_games + evaluated
    assert sum(seen) <= planned_games(2, 400, None, 40)


def test_simulate_callback_without_interrupt_behaves_as_before():
    """stop_on_interrupt changes nothing for a run that is not interrupted,
    and without it an interrupt still propagates."""
    from zsim.harness.chunks import Matchup
    from zsim.harness.runs import simulate

    m = Matchup(2, ("simple", "random"))
    a = simulate(m, 500, 4)
    b = simulate(m, 500, 4, stop_on_interrupt=True)
    assert not a.interrupted and not b.interrupted and a.games == b.games == 500
    assert (a.agg == b.agg).all()

    def stop(so, go, first):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(m, 500, 4, chunk=100, on_chunk=stop)
    c = simulate(m, 500, 4, chunk=100, on_chunk=stop, stop_on_interrupt=True)
    assert c.interrupted and c.games == 100             # the chunk was folded before on_chunk ran


# ----------------------------------------------------------------- Ctrl-C, for real
def wait_for_rows(proc: subprocess.Popen, folder: Path, timeout: float = 600) -> None:
    """Until the temporary --out file holds a chunk of rows: games are being
    played (the first run of a fresh kernel cache compiles for a while first)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        if any(p.name.endswith(".part") and p.stat().st_size > 0 for p in folder.iterdir()):
            return
        time.sleep(0.1)
    pytest.fail("no rows were written")


def interrupt(proc: subprocess.Popen) -> tuple[str, str]:
    try:
        proc.send_signal(signal.SIGINT)
        return proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_ctrl_c_stops_simulate_cleanly(tmp_path):
    planned = 200_000_000
    proc = start_zsim(["simulate", "--players", "4", "--games", str(planned), "--quiet",
                  "--out", "games.parquet"], tmp_path)
    wait_for_rows(proc, tmp_path)
    time.sleep(0.5)                                      # a few more chunks, not needed for the checks
    out, err = interrupt(proc)
    assert "Traceback" not in err, err
    assert proc.returncode == INTERRUPTED_EXIT, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    said = re.fullmatch(r"zsim: interrupted after ([\d,]+) of 200,000,000 games; the summary "
                        r"covers the finished games; games\.parquet was not written", lines[0])
    assert said, lines[0]
    header = re.match(r"([\d,]+) games, 4 players, seed 0", out)
    assert header, out
    games = int(header.group(1).replace(",", ""))
    assert games == int(said.group(1).replace(",", ""))
    assert 0 < games < planned and games % CHUNK == 0    # whole chunks only
    assert len([line for line in out.splitlines() if "simple" in line]) == 4   # a row per seat
    assert files_in(tmp_path) == []                      # no target, no .part file


def test_ctrl_c_stops_tournament_cleanly(tmp_path):
    proc = start_zsim(["tournament", "--field", "simple,random", "-p", "2", "--games", "100000000",
                  "--out", "t.parquet"], tmp_path)
    wait_for_rows(proc, tmp_path)
    time.sleep(0.5)
    out, err = interrupt(proc)
    assert "Traceback" not in err, err
    assert proc.returncode == INTERRUPTED_EXIT, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    said = re.fullmatch(r"zsim: interrupted after ([\d,]+) of 200,000,000 games; no results; "
                        r"t\.parquet was not written", lines[0])
    assert said, lines[0]
    # whole chunks of 8,192 deals under one seating; 0 if the Ctrl-C beat the first count
    assert int(said.group(1).replace(",", "")) % 8192 == 0
    assert files_in(tmp_path) == []


def _main_raising(monkeypatch, exc):
    """zsim.cli.main with a command that raises ``exc``; returns (status, stderr lines)."""
    import zsim.cli as cli_module
    from zsim import signals

    def command(*args, **kwargs):
        raise exc

    monkeypatch.setattr(cli_module.cli, "main", command)
    monkeypatch.setattr(signals, "install", lambda: None)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with pytest.raises(SystemExit) as stop:
        cli_module.main([])
    return stop.value.code, err.getvalue().splitlines()


def test_a_stop_that_comes_back_wrapped_from_c_code_is_still_a_stop(monkeypatch):
    """SIGTERM while numba unpickles a cached kernel: the stop is raised in a
    callback of C code, which hands it back as a SystemError caused by it."""
    from zsim import signals

    monkeypatch.setattr(signals, "_last", [])                          # what stop_now notes
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)

    def unpickle():
        try:
            signals.stop_now(signal.SIGTERM)
        except KeyboardInterrupt as stop:
            raise SystemError("_numba_unpickle returned a result with an exception set") from stop

    try:
        unpickle()
    except SystemError as wrapped:
        exc = wrapped
    status, lines = _main_raising(monkeypatch, exc)
    assert status == 128 + signal.SIGTERM
    assert lines == ["zsim: terminated (SIGTERM)"]


def test_a_system_error_without_a_stop_is_not_taken_for_one(monkeypatch):
    import zsim.cli as cli_module

    monkeypatch.setattr(cli_module.cli, "main", lambda *a, **k: (_ for _ in ()).throw(SystemError("a bug")))
    with pytest.raises(SystemError, match="a bug"):
        cli_module.main([])
