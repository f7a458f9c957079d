"""Long runs: run folders, --resume after a crash, --precision, and the dask backend."""
from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from conftest import start_zsim

from zsim.errors import ZsimError
from zsim.harness.chunks import Matchup, play_chunk, rows_frame
from zsim.harness.backends import LocalBackend
from zsim.harness.runs import Plan, RunFolder, precise_enough, read_rows, run, simulate

M = Matchup(3, ("simple", "counter", "random"))


def rows_of(folder: Path) -> pl.DataFrame:
    return pl.from_arrow(pa.concat_tables(list(read_rows(folder))))


class StopAfter(LocalBackend):
    """The local backend, with a Ctrl-C after ``k`` chunks."""

    def __init__(self, k: int):
        self.k = k

    def results(self, plan, indices, rows):
        for j, res in enumerate(super().results(plan, indices, rows)):
            if j == self.k:
                raise KeyboardInterrupt
            yield res


def test_a_run_folder_holds_every_game_once(tmp_path):
    plan = Plan(M, seed=5, games=10_000, chunk=3_000)
    res = run(plan, folder=RunFolder.open(tmp_path / "run", plan, resume=False))
    whole = simulate(M, 10_000, 5)
    assert (res.summary.agg == whole.agg).all() and res.summary.games == 10_000
    names = sorted(p.name for p in (tmp_path / "run").iterdir())
    assert names == ["SHA256SUMS", "chunk-00000000.parquet", "chunk-00000001.parquet", "chunk-00000002.parquet",
                     "chunk-00000003.parquet", "manifest.json", "summary.json"]
    sums = (tmp_path / "run" / "SHA256SUMS").read_text().splitlines()      # sha256sum -c reads it
    assert [line.split("  ")[1] for line in sums] == names[1:5]
    so, go = play_chunk(M, 5, 0, 10_000)
    assert rows_of(tmp_path / "run").equals(rows_frame(M, so, go, 0))
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["seed"] == 5 and manifest["chunk"] == 3_000 and manifest["strategies"] == list(M.strategies)


def test_resume_finishes_exactly_the_planned_games(tmp_path):
    plan = Plan(M, seed=8, games=9_000, chunk=1_000)
    folder = RunFolder.open(tmp_path / "run", plan, resume=False)
    first = run(plan, StopAfter(4), folder)
    assert first.interrupted and first.summary.games == 4_000
    assert not (tmp_path / "run" / "summary.json").exists()
    (tmp_path / "run" / ".chunk-00000004.parquet.part").write_bytes(b"half a shard")   # a crash's leftover
    again = run(plan, folder=RunFolder.open(tmp_path / "run", plan, resume=True))
    assert again.resumed_games == 4_000 and not again.interrupted
    whole = simulate(M, 9_000, 8)
    assert (again.summary.agg == whole.agg).all() and again.summary.games == 9_000
    rows = rows_of(tmp_path / "run")
    assert rows["game"].n_unique() == 9_000 and rows.height == 9_000 * 3
    assert not list((tmp_path / "run").glob(".*"))


def test_resume_refuses_another_config(tmp_path):
    plan = Plan(M, seed=1, games=2_000, chunk=1_000)
    run(plan, StopAfter(1), RunFolder.open(tmp_path / "run", plan, resume=False))
    other = Plan(M, seed=2, games=2_000, chunk=1_000)
    with pytest.raises(ZsimError, match="differs .* in seed"):
        RunFolder.open(tmp_path / "run", other, resume=True)
    with pytest.raises(ZsimError, match="add --resume"):
        RunFolder.open(tmp_path / "run", plan, resume=False)
    with pytest.raises(ZsimError, match="no manifest.json"):
        RunFolder.open(tmp_path / "empty", plan, resume=True)


def test_precision_stops_at_the_first_chunk_that_meets_it(tmp_path):
    target = 0.03
    plan = Plan(M, seed=3, games=1_000_000, chunk=500, precision=target)
    res = run(plan)
    n = res.summary.games
    assert res.stopped_at_precision and 500 <= n < 1_000_000 and n % 500 == 0
    assert precise_enough(res.summary.agg, target)
    before = simulate(M, n - 500, 3) if n > 500 else None
    assert before is None or not precise_enough(before.agg, target)
    assert (simulate(M, n, 3).agg == res.summary.agg).all()
    # the stop does not move with threads or with the backend's order
    assert run(plan, StopAfter(10 ** 9)).summary.games == n


def zsim(*args):
    return start_zsim(args, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_a_run_killed_with_sigkill_resumes_to_the_same_result(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "--players", "3", "--strategies", "simple,counter,random", "--games", "400000",
            "--seed", "6", "--chunk", "5000", "--threads", "1", "--out", str(out), "--json", "-q"]
    proc = zsim(*args)
    deadline = time.time() + 300
    while len(list(out.glob("chunk-*.parquet"))) < 3:
        assert proc.poll() is None, proc.communicate()
        assert time.time() < deadline, "no shard appeared"
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    shards = len(list(out.glob("chunk-*.parquet")))
    assert 3 <= shards < 80 and not (out / "summary.json").exists()
    done = zsim(*args, "--resume")
    stdout, stderr = done.communicate(timeout=600)
    assert done.returncode == 0, stderr
    whole = simulate(Matchup(3, ("simple", "counter", "random")), 400_000, 6)
    from zsim.harness.chunks import summary_json
    assert json.loads(stdout) == json.loads(json.dumps(summary_json(whole)))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 400_000 and np.array_equal(summary["agg"], whole.agg)
    assert len(list(out.glob("chunk-*.parquet"))) == 80


# ---------------------------------------------------------------- dask
@pytest.fixture(scope="module")
def dask_backend():
    from zsim.harness.backends import DaskBackend

    backend = DaskBackend(workers=2)
    yield backend
    backend.close()


def test_dask_plays_the_same_games_as_the_local_backend(tmp_path, dask_backend):
    plan = Plan(M, seed=12, games=20_000, chunk=2_500)
    local = run(plan, folder=RunFolder.open(tmp_path / "local", plan, resume=False))
    remote = run(plan, dask_backend, RunFolder.open(tmp_path / "dask", plan, resume=False))
    assert (local.summary.agg == remote.summary.agg).all() and remote.summary.games == 20_000
    assert rows_of(tmp_path / "dask").equals(rows_of(tmp_path / "local"))
    precise = Plan(M, seed=12, games=500_000, chunk=1_000, precision=0.04)
    assert (run(precise, dask_backend).summary.agg == run(precise).summary.agg).all()


def test_dask_survives_a_killed_worker(dask_backend):
    pids = list(dask_backend.client.run(os.getpid).values())
    assert len(pids) == 2
    plan = Plan(M, seed=13, games=60_000, chunk=1_000)
    killed = []

    def kill_one(n):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    res = run(plan, dask_backend, on_games=kill_one)
    assert killed and res.summary.games == 60_000
    assert (res.summary.agg == simulate(M, 60_000, 13).agg).all()


# ---------------------------------------------------------------- through the CLI
def cli(*args):
    from click.testing import CliRunner

    from zsim.cli import cli as group

    return CliRunner().invoke(group, list(args))


def test_cli_dask_backend_prints_the_local_summary():
    args = ["simulate", "-p", "2", "--strategies", "counter,simple", "--games", "30000", "--seed", "4",
            "--chunk", "4000", "--json", "-q"]
    local = cli(*args)
    remote = cli(*args, "--backend", "dask", "--workers", "2")
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_cli_precision_says_when_it_stopped():
    r = cli("simulate", "-p", "2", "--games", "1000000", "--chunk", "2000", "--precision", "0.02", "-q")
    assert r.exit_code == 0, r.output
    head = r.stdout.splitlines()[0]
    games = int(head.split(" games")[0].replace(",", ""))
    assert "within ±0.02; cap 1,000,000" in head and games < 1_000_000 and games % 2000 == 0


@pytest.mark.parametrize("args, message", [
    (["--resume"], "--resume needs --out DIR"),
    (["--resume", "--out", "x.parquet"], "--resume needs a run folder"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    (["--precision", "2"], "--precision must be between 0 and 1"),
    (["--chunk", "0"], "--chunk must be"),
    (["--backend", "dask", "--workers", "0"], "--workers must be at least 1"),
])
def test_cli_refuses_bad_run_options(args, message, tmp_path):
    r = cli("simulate", "--games", "100", *args)
    assert isinstance(r.exception, ZsimError), r.output
    assert message in str(r.exception)
    assert not list(tmp_path.iterdir())


def test_precision_run_resumed_stops_where_an_unbroken_one_does(tmp_path):
    plan = Plan(M, seed=21, games=400_000, chunk=400, precision=0.015)
    whole = run(plan)
    assert whole.stopped_at_precision and whole.summary.games > 1_200
    folder = RunFolder.open(tmp_path / "run", plan, resume=False)
    assert run(plan, StopAfter(3), folder).interrupted
    again = run(plan, folder=RunFolder.open(tmp_path / "run", plan, resume=True))
    assert again.resumed_games == 1_200 and again.stopped_at_precision
    assert (again.summary.agg == whole.summary.agg).all()
    assert len(list((tmp_path / "run").glob("chunk-*.parquet"))) == whole.summary.games // 400


def test_cli_ctrl_c_keeps_the_run_folder_for_resume(monkeypatch, tmp_path):
    from zsim.harness import backends
    from zsim.harness import chunks as runner

    real = runner.play_chunk
    calls = []

    def third_is_cut(m, seed, first, n, *a, **kw):
        calls.append(first)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(m, seed, first, n, *a, **kw)

    args = ["simulate", "-p", "2", "--games", "10000", "--chunk", "2000", "--seed", "2", "--json", "-q",
            "--out", str(tmp_path / "run")]
    monkeypatch.setattr(backends, "play_chunk", third_is_cut)
    cut = cli(*args)
    assert cut.exit_code == 130
    assert "interrupted after 4,000 of 10,000 games" in cut.stderr and "--resume" in cut.stderr
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == [
        "SHA256SUMS", "chunk-00000000.parquet", "chunk-00000001.parquet", "manifest.json"]
    monkeypatch.undo()
    done = cli(*args, "--resume")
    assert done.exit_code == 0, done.output
    fresh = cli(*args[:-1], str(tmp_path / "fresh"))
    assert json.loads(done.stdout) == json.loads(fresh.stdout)
