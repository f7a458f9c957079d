"""The faults a real user hits in long runs: shards that are not the run's
own, SIGTERM and SIGHUP, a full disk, Ctrl-C while outputs are written,
arguments that would ask for absurd memory, and small slips (`--out ''`, a
deck given by another path, a manifest of the wrong shape).

Signals and full disks are real: real subprocesses get real signals, and a
real tmpfs fills up (see ``SmallFs`` in conftest.py for the stand-in where no
tmpfs can be mounted)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from conftest import default_stop_signals, start_zsim

from zsim.errors import OutputError, ZsimError
from zsim.harness.chunks import Matchup
from zsim.harness.runs import SUMS, Plan, RunFolder, run, simulate

M = Matchup(2, ("simple", "counter"))


def zsim(args, cwd, preexec=None, env=None):
    """The real command line in a subprocess: (returncode, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "zsim.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, preexec_fn=preexec,
                          env={**os.environ, **(env or {})})
    return proc.returncode, proc.stdout, proc.stderr


def one_error_line(err: str, *fragments: str) -> str:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: error: "), err
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    """zsim's temporaries anywhere under ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(".*")
                  if ".part" in p.name or ".tmp-" in p.name or ".old-" in p.name)


# ---------------------------------------------------------------- shards must prove they belong
def finished_run(path: Path, seed: int = 3, games: int = 6_000, chunk: int = 1_000) -> Plan:
    plan = Plan(M, seed, games, chunk)
    run(plan, folder=RunFolder.open(path, plan, resume=False))
    return plan


def check_resume(path: Path, plan: Plan):
    """What --resume finds in ``path``: the sums of the shards it would fold."""
    folder = RunFolder.open(path, plan, resume=True)
    try:
        return folder.done(plan)
    finally:
        folder.close()


def test_a_shard_of_another_run_is_refused_not_folded(tmp_path):
    plan = finished_run(tmp_path / "mine", seed=3)
    finished_run(tmp_path / "other", seed=4)
    shutil.copy(tmp_path / "other" / "chunk-00000002.parquet", tmp_path / "mine" / "chunk-00000002.parquet")
    with pytest.raises(ZsimError, match=r"shard chunk-00000002\.parquet is damaged"):
        run(plan, folder=RunFolder.open(tmp_path / "mine", plan, resume=True))
    # the copy brought its own SHA256SUMS line too: it still names another run
    other_line = next(line for line in (tmp_path / "other" / SUMS).read_text().splitlines()
                      if line.endswith("chunk-00000002.parquet"))
    sums = tmp_path / "mine" / SUMS
    sums.write_text(sums.read_text() + other_line + "\n")
    with pytest.raises(ZsimError, match=r"chunk-00000002\.parquet belongs to another run"):
        check_resume(tmp_path / "mine", plan)


def test_a_shard_with_flipped_bytes_is_refused(tmp_path):
    finished_run(tmp_path / "run")
    shard = tmp_path / "run" / "chunk-00000001.parquet"
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0x40
    shard.write_bytes(bytes(data))
    (tmp_path / "run" / "summary.json").unlink()
    code, out, err = zsim(["simulate", "-p", "2", "--strategies", "simple,counter", "--games", "6000",
                           "--chunk", "1000", "--seed", "3", "--out", "run", "--resume", "-q"], tmp_path)
    assert code == 2 and out == ""
    one_error_line(err, "chunk-00000001.parquet", "damaged", SUMS)
    assert not (tmp_path / "run" / "summary.json").exists()


def test_a_shard_zsim_never_listed_is_refused(tmp_path):
    plan = finished_run(tmp_path / "run")
    finished_run(tmp_path / "big", games=8_000)
    shutil.copy(tmp_path / "big" / "chunk-00000003.parquet", tmp_path / "run" / "chunk-00000007.parquet")
    with pytest.raises(ZsimError, match=r"chunk-00000007\.parquet is past this run's last chunk"):
        check_resume(tmp_path / "run", plan)
    (tmp_path / "run" / "chunk-00000007.parquet").unlink()
    (tmp_path / "run" / "chunk-00000004.parquet").rename(tmp_path / "run" / "chunk-00000004.keep")
    shutil.copy(tmp_path / "big" / "chunk-00000004.parquet", tmp_path / "run" / "chunk-00000004.parquet")
    sums = (tmp_path / "run" / SUMS).read_text()
    (tmp_path / "run" / SUMS).write_text("".join(
        line + "\n" for line in sums.splitlines() if not line.endswith("chunk-00000004.parquet")))
    with pytest.raises(ZsimError, match=r"chunk-00000004\.parquet is not listed in SHA256SUMS"):
        check_resume(tmp_path / "run", plan)


def test_resume_after_a_kill_between_listing_and_renaming_plays_the_chunk(tmp_path):
    """A shard listed in SHA256SUMS but missing (the kill came before the
    rename) is simply played again, and SHA256SUMS ends listing each shard once."""
    plan = finished_run(tmp_path / "run")
    (tmp_path / "run" / "chunk-00000005.parquet").unlink()
    (tmp_path / "run" / "summary.json").unlink()
    with open(tmp_path / "run" / SUMS, "a") as fh:
        fh.write("0123abcd")                       # a line cut short by the kill
    again = run(plan, folder=RunFolder.open(tmp_path / "run", plan, resume=True))
    assert again.resumed_games == 5_000 and again.summary.games == 6_000
    assert (again.summary.agg == simulate(M, 6_000, 3).agg).all()
    names = [line.split("  ")[1] for line in (tmp_path / "run" / SUMS).read_text().splitlines()]
    assert names == [f"chunk-{i:08d}.parquet" for i in range(6)]


def test_a_run_folder_is_locked_while_a_run_writes_it(tmp_path):
    plan = Plan(M, 1, 2_000, 1_000)
    folder = RunFolder.open(tmp_path / "run", plan, resume=False)
    with pytest.raises(ZsimError, match="in use by another zsim process"):
        RunFolder.open(tmp_path / "run", plan, resume=True)
    run(plan, folder=folder)                       # the run releases the lock when it ends
    assert check_resume(tmp_path / "run", plan).keys() == {0, 1}


# ---------------------------------------------------------------- SIGTERM and SIGHUP
def _written(folder: Path, pattern: str) -> bool:
    try:
        return any(p.stat().st_size > 0 for p in folder.glob(pattern))
    except FileNotFoundError:
        return False


def wait_for_temporary(proc, folder: Path, pattern: str, timeout: float = 300) -> None:
    """Until the run has written into its temporary (its first chunk is done)."""
    deadline = time.time() + timeout
    while not _written(folder, pattern):
        assert proc.poll() is None, proc.communicate()
        assert time.time() < deadline, "the run never began writing"
        time.sleep(0.02)


LONG = {
    "simulate": ["simulate", "-p", "2", "--games", "200000000", "--out", "t.parquet"],
    "tournament": ["tournament", "-p", "2", "--field", "simple,random", "--games", "100000000",
                   "--out", "t.parquet"],
    "record": ["record", "-p", "4", "--games", "2000000", "--out", "t.parquet"],
    "simulate-dask": ["simulate", "-p", "2", "--games", "200000000", "--out", "t.parquet",
                      "--backend", "dask", "--workers", "2"],
}


@pytest.mark.parametrize("sig, code, word", [(signal.SIGTERM, 143, "terminated (SIGTERM)"),
                                             (signal.SIGHUP, 129, "hung up (SIGHUP)")])
@pytest.mark.parametrize("command", sorted(LONG))
def test_sigterm_and_sighup_stop_like_ctrl_c(tmp_path, command, sig, code, word):
    proc = start_zsim(LONG[command] + ["-q"] * (command != "record"), tmp_path)
    wait_for_temporary(proc, tmp_path, ".t.parquet.*.part")
    time.sleep(0.3)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"zsim: {word}"), err
    if command.startswith("simulate"):    # stopped at a chunk's end, with the summary of the finished games
        assert "the summary covers the finished games; t.parquet was not written" in lines[0]
        assert out.splitlines()[0].endswith("deck default (jobs.csv)")
    assert sorted(os.listdir(tmp_path)) == []


def test_a_run_started_under_nohup_lives_through_a_hangup(tmp_path):
    """``nohup zsim simulate ... &`` and a closed terminal: SIGHUP was ignored when
    zsim started, so it stays ignored and the run goes on; SIGTERM still stops it."""
    def nohup():
        default_stop_signals()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    proc = start_zsim(LONG["simulate"] + ["-q"], tmp_path, preexec=nohup)
    wait_for_temporary(proc, tmp_path, ".t.parquet.*.part")
    proc.send_signal(signal.SIGHUP)
    time.sleep(1.0)
    assert proc.poll() is None                    # still playing
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: terminated (SIGTERM)"), err
    assert sorted(os.listdir(tmp_path)) == []


def test_a_killed_runs_leftover_is_cleaned_by_the_next_run(tmp_path):
    proc = start_zsim(LONG["simulate"] + ["-q"], tmp_path)
    wait_for_temporary(proc, tmp_path, ".t.parquet.*.part")
    proc.kill()
    proc.communicate()
    left = leftovers(tmp_path)
    assert len(left) == 1 and left[0].startswith(".t.parquet.")
    # a live run's temporary beside it is never touched
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        from zsim.output import temp_tag

        host = temp_tag().split("-")[0]
        live = tmp_path / f".t.parquet.{host}-{sleeper.pid}-0badcafe.part"
        live.write_bytes(b"someone else's")
        code, _, err = zsim(["simulate", "-p", "2", "--games", "2000", "--out", "t.parquet", "-q"], tmp_path)
        assert code == 0, err
        assert leftovers(tmp_path) == [live.name]
    finally:
        sleeper.kill()
        sleeper.wait()
    assert pl.read_parquet(tmp_path / "t.parquet").height == 4_000


# ---------------------------------------------------------------- a full disk
def test_full_disk_simulate_file_is_one_line_and_nothing_left(small_fs):
    code, out, err = zsim(["simulate", "-p", "2", "--games", "200000", "--out", "t.parquet", "-q"],
                          small_fs.path, small_fs.preexec())
    assert code == 74 and out == ""
    line = one_error_line(err, "cannot write t.parquet")
    assert any(e in line for e in small_fs.errors), line
    assert os.listdir(small_fs.path) == []


def test_full_disk_leaves_a_run_folder_that_resumes_exactly(small_fs):
    args = ["simulate", "-p", "2", "--strategies", "simple,counter", "--games", "60000", "--chunk", "5000",
            "--seed", "9", "--out", "run", "--json", "-q"]
    if not small_fs.mounted:
        small_fs.limit = 32 << 10       # room for the manifest, not for a shard
    code, out, err = zsim(args, small_fs.path, small_fs.preexec())
    assert code == 74 and out == ""
    line = one_error_line(err, "cannot write shard chunk-", "--resume")
    assert any(e in line for e in small_fs.errors), line
    run_dir = small_fs.path / "run"
    shards = sorted(p.name for p in run_dir.glob("chunk-*.parquet"))
    # a tmpfs fills after a few shards; the stand-in's limit is per file, so
    # there it is the first shard that does not fit
    assert (1 <= len(shards) < 12 if small_fs.mounted else shards == [])
    assert (run_dir / "manifest.json").is_file() and leftovers(run_dir) == []
    small_fs.grow()
    code, out, err = zsim(args + ["--resume"], small_fs.path, small_fs.preexec())
    assert code == 0, err
    whole = simulate(M, 60_000, 9)
    from zsim.harness.chunks import summary_json
    assert json.loads(out) == json.loads(json.dumps(summary_json(whole)))


def test_a_manifest_that_cannot_be_written_leaves_no_folder(tmp_path, monkeypatch):
    from zsim.harness import runs

    def full(self, name, doc):
        raise runs.output_error(OSError(28, os.strerror(28)), f"{name} in run folder")

    monkeypatch.setattr(runs.RunFolder, "write_json", full)
    plan = Plan(M, 1, 2_000, 1_000)
    with pytest.raises(OutputError, match="No space left on device"):
        RunFolder.open(tmp_path / "run", plan, resume=False)
    assert os.listdir(tmp_path) == []
    monkeypatch.undo()
    # an empty folder of the user's stays, and a retry into it works
    (tmp_path / "mine").mkdir()
    monkeypatch.setattr(runs.RunFolder, "write_json", full)
    with pytest.raises(OutputError):
        RunFolder.open(tmp_path / "mine", plan, resume=False)
    assert os.listdir(tmp_path / "mine") == []
    monkeypatch.undo()
    assert run(plan, folder=RunFolder.open(tmp_path / "mine", plan, resume=False)).summary.games == 2_000


def test_a_retry_ignores_what_a_killed_run_half_wrote(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / ".manifest.json.part").write_bytes(b"")     # a kill while writing the manifest
    plan = Plan(M, 1, 2_000, 1_000)
    assert run(plan, folder=RunFolder.open(tmp_path / "run", plan, resume=False)).summary.games == 2_000


ANALYZE = ["analyze", "hand-size", "-p", "2", "--targets", "6,8", "--games", "300", "-q",
           "--out", "hs.csv", "--plots", "figs"]


def test_full_disk_analyze_writes_no_part_of_its_output(small_fs):
    filler = small_fs.path / "filler"
    if small_fs.mounted:       # leave room for the CSV but not for the figures
        filler.write_bytes(b"\0" * (small_fs.size - (24 << 10)))
    else:
        small_fs.limit = 20 << 10
    code, out, err = zsim(ANALYZE, small_fs.path, small_fs.preexec())
    assert code == 74 and out == ""
    line = one_error_line(err, "cannot write")
    assert any(e in line for e in small_fs.errors), line
    assert sorted(os.listdir(small_fs.path)) == (["filler"] if small_fs.mounted else [])


def test_ctrl_c_while_analyze_writes_leaves_nothing(tmp_path, monkeypatch):
    from click.testing import CliRunner
    from matplotlib.figure import Figure

    from zsim.cli import cli, main

    real = Figure.savefig
    saved = []

    def second_is_cut(self, *a, **kw):
        saved.append(1)
        if len(saved) == 2:
            raise KeyboardInterrupt
        return real(self, *a, **kw)

    monkeypatch.setattr(Figure, "savefig", second_is_cut)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(ANALYZE)
    assert stop.value.code == 130
    assert len(saved) == 2 and os.listdir(tmp_path) == []        # no CSV, no figures folder, no temporaries
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ANALYZE).exit_code == 0
    assert sorted(os.listdir(tmp_path / "figs")) == ["hand-size-2p-1.png", "hand-size-2p-2.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figs", "hs.csv"]


# ---------------------------------------------------------------- memory from the arguments
def test_a_huge_cap_costs_nothing_until_it_is_played(tmp_path):
    """10**15 games with a precision target: the first chunk meets it, and
    nothing scaled with the cap (no list of chunks, no path checks)."""
    t0 = time.time()
    code, out, err = zsim(["simulate", "-p", "2", "--games", str(10 ** 15), "--precision", "0.02",
                           "--out", "run", "--json", "-q"], tmp_path)
    assert code == 0, err
    assert time.time() - t0 < 120
    assert [r["seat"] for r in json.loads(out)] == [0, 1]
    shards = list((tmp_path / "run").glob("chunk-*.parquet"))
    assert len(shards) == 1


def test_chunk_memory_estimate_covers_the_real_buffers():
    from zsim.harness.chunks import chunk_bytes, play_chunk

    seat_out, game_out = play_chunk(Matchup(4, ("simple",) * 4), 0, 0, 1_000)
    assert chunk_bytes(1_000, 4, rows=False) >= seat_out.nbytes + game_out.nbytes
    assert chunk_bytes(1_000, 4, rows=True) > chunk_bytes(1_000, 4, rows=False)


def test_a_chunk_that_does_not_fit_in_memory_is_refused(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from zsim.harness import chunks as runner
    from zsim.cli import cli

    monkeypatch.setattr(runner, "available_memory", lambda: 1 << 30)      # 1 GiB left
    result = CliRunner().invoke(cli, ["simulate", "--games", "10000000", "--chunk", "4000000", "-q"])
    assert isinstance(result.exception, ZsimError)
    msg = str(result.exception)
    assert "--chunk 4,000,000 needs about" in msg and "GiB" in msg and "1.0 GiB is available" in msg
    fits = int(msg.rsplit("--chunk ", 1)[1].split()[0].replace(",", ""))
    assert runner.chunk_bytes(fits, 4, rows=False) <= 0.8 * (1 << 30) < runner.chunk_bytes(4_000_000, 4, False)
    ok = CliRunner().invoke(cli, ["simulate", "-p", "2", "--games", "3000", "--chunk", "1000", "-q"])
    assert ok.exit_code == 0, ok.output


# ---------------------------------------------------------------- small slips
@pytest.mark.parametrize("args", [
    ["simulate", "-p", "2", "--games", "100", "--out", ""],
    ["record", "-p", "2", "--out", " "],
    ["tournament", "-p", "2", "--field", "simple,random", "--games", "10", "--out", ""],
    ["analyze", "players", "--players", "2", "--games", "100", "--out", ""],
    ["analyze", "players", "--players", "2", "--games", "100", "--plots", ""],
])
def test_an_empty_out_is_refused(tmp_path, args):
    code, out, err = zsim(args, tmp_path)
    assert code == 2 and out == ""
    one_error_line(err, "is empty")
    assert os.listdir(tmp_path) == []


def test_resume_compares_the_deck_by_its_jobs_not_its_path(tmp_path):
    from zsim.games.zahltag.deck import load_deck

    text = (Path(__file__).parent.parent / "zsim/games/zahltag/data/jobs.csv").read_text()
    (tmp_path / "a.csv").write_text(text)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.csv").write_text(text.replace("\n", "\r\n"))
    base = ["simulate", "-p", "2", "--games", "3000", "--chunk", "1000", "--json", "-q", "--out", "run"]
    plan = Plan(Matchup(2, ("simple",) * 2, deck=load_deck(tmp_path / "a.csv")), 0, 3_000, 1_000)
    run(plan, folder=RunFolder.open(tmp_path / "run", plan, resume=False))
    (tmp_path / "run" / "chunk-00000002.parquet").unlink()
    code, out, err = zsim(base + ["--deck", "sub/b.csv", "--resume"], tmp_path)
    assert code == 0, err
    (tmp_path / "c.csv").write_text(text.replace("1,1,1,0,0", "1,1,0,1,0", 1))
    code, out, err = zsim(base + ["--deck", "c.csv", "--resume"], tmp_path)
    assert code == 2
    one_error_line(err, "differs", "deck (its jobs)")


@pytest.mark.parametrize("manifest", ["[1, 2, 3]", '{"players": 2}', '"run"', "{not json",
                                      '{"format": 1, "players": 2, "seed": 0, "games": 3000}'])
def test_a_manifest_of_the_wrong_shape_is_one_line(tmp_path, manifest):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "manifest.json").write_text(manifest)
    code, out, err = zsim(["simulate", "-p", "2", "--games", "3000", "--out", "run", "--resume"], tmp_path)
    assert code == 2 and out == ""
    one_error_line(err, "manifest.json")


def test_sha256sums_checks_with_the_standard_tool(tmp_path):
    finished_run(tmp_path / "run")
    if shutil.which("sha256sum"):
        ok = subprocess.run(["sha256sum", "-c", "--quiet", SUMS], cwd=tmp_path / "run", capture_output=True)
        assert ok.returncode == 0, ok.stdout
    import hashlib

    for line in (tmp_path / "run" / SUMS).read_text().splitlines():
        digest, name = line.split("  ")
        assert hashlib.sha256((tmp_path / "run" / name).read_bytes()).hexdigest() == digest
    assert np.array_equal(json.loads((tmp_path / "run" / "summary.json").read_text())["agg"],
                          simulate(M, 6_000, 3).agg)


def test_replay_of_an_endless_line_is_refused_before_it_fills_memory(tmp_path):
    code, out, err = zsim(["replay", "/dev/zero"], tmp_path)
    assert code == 2 and out == ""
    one_error_line(err, "/dev/zero", "line 1 is longer than 16 MiB")


def _feed(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except BrokenPipeError:     # the command ended first, as a reader that stops early lets it
        try:
            pipe.close()
        except OSError:
            pass


def test_a_reader_that_stops_early_ends_a_stream_with_status_0(tmp_path):
    """``zsim record | head -1``: the broken pipe is the reader's choice, not an error."""
    for args in (["record", "-p", "2", "--games", "20000"], ["replay", "-"]):
        feed = subprocess.run([sys.executable, "-m", "zsim.cli", "record", "-p", "2", "--games", "200"],
                              capture_output=True, check=True).stdout if args[0] == "replay" else None
        proc = subprocess.Popen([sys.executable, "-m", "zsim.cli", *args], cwd=tmp_path,
                                stdin=subprocess.PIPE if feed else None, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        if feed:        # fed beside the reading: replay prints each game before its input ends
            threading.Thread(target=_feed, args=(proc.stdin, feed), daemon=True).start()
        first = proc.stdout.readline()
        proc.stdout.close()                      # the reader goes away
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=300) == 0, err
        assert first and err == "", err


@pytest.mark.parametrize("backend, scheduler, message", [
    ("local", None, "--workers needs --backend dask"),
    ("dask", "tcp://127.0.0.1:8786", "the cluster at --scheduler has its own workers"),
])
def test_workers_that_would_be_ignored_are_refused(backend, scheduler, message):
    from zsim.harness.backends import make_backend

    with pytest.raises(ZsimError, match=message):
        make_backend(backend, scheduler, 2)
