"""Kill a run folder's writer at random moments; --resume must always end
exactly where an unbroken run does.

Eighteen trials, each a real ``zsim simulate --out DIR`` in a subprocess
that gets SIGKILL, SIGTERM or SIGINT at a random moment after its run folder
appears: while it plays, while it writes a shard, lists it in SHA256SUMS or
renames it, or after it is done. The run is cut into one slice per trial,
measured in shards written (so the slices hold however fast the machine runs
at the moment), and each trial's moment is drawn inside its own slice: it
waits for the slice's last whole shard, then a drawn part of the time a shard
has been taking in that trial. The signals take the slices in turn, so every
stretch of the run is hit and each signal lands early, midway and late.
Every time, the same command with ``--resume`` must succeed with the summary
of an unbroken run, the shards must hold exactly the unbroken run's rows,
SHA256SUMS must list each shard once with its true digest, and no temporary
may be left. The moments come from a seeded generator, so a failing trial
can be replayed."""
from __future__ import annotations

import json
import random
import signal
import time
from pathlib import Path

import polars as pl
import pytest
from conftest import check_finished_run_folder, start_zsim

TRIALS = 9
SHARDS = 40                 # 80,000 games in chunks of 2,000
ARGS = ["simulate", "-p", "4", "--strategies", "simple,counter,random,undercut", "--games", "80000",
        "--chunk", "2000", "--threads", "1", "--seed", "5", "--json", "-q"]
SIGNALS = (signal.SIGKILL, signal.SIGTERM, signal.SIGINT)
#: how each signal may end the run: killed outright, or stopped cleanly at a chunk's end
EXPECTED = {signal.SIGKILL: -signal.SIGKILL, signal.SIGTERM: 143, signal.SIGINT: 130}


def rows(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(sorted(folder.glob("chunk-*.parquet"))).sort("game", "seat")


@pytest.fixture(scope="module")
def unbroken(tmp_path_factory):
    """The run played through: (summary JSON, rows, seconds from the folder's
    appearance to the end)."""
    cwd = tmp_path_factory.mktemp("unbroken")
    warm = start_zsim(ARGS[:ARGS.index("--games")] + ["--games", "10"], cwd)   # compiles, if the cache is cold
    assert warm.wait(timeout=600) == 0
    proc = start_zsim(ARGS + ["--out", "run"], cwd)
    while not (cwd / "run" / "manifest.json").exists() and proc.poll() is None:
        time.sleep(0.005)
    began = time.time()
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return json.loads(out), rows(cwd / "run"), time.time() - began


def test_resume_after_a_kill_at_a_random_moment_is_an_unbroken_run(tmp_path, unbroken):
    summary, expected_rows, span = unbroken
    rng = random.Random(20261201)
    outcomes = []
    for trial in range(TRIALS):
        sig = SIGNALS[trial % len(SIGNALS)]
        # this trial's slice of the run in shards (a little past its end, for a signal after it is done)
        target = SHARDS * 1.1 * (trial + rng.random()) / TRIALS
        whole = int(target)
        wait_for = min(whole, SHARDS)                 # shards to see written before the drawn part of one
        cwd = tmp_path / f"trial-{trial}"
        cwd.mkdir()
        folder = cwd / "run"
        proc = start_zsim(ARGS + ["--out", "run"], cwd)
        while not (folder / "manifest.json").exists():
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.002)
        began = time.time()
        while len(list(folder.glob("chunk-*.parquet"))) < wait_for and proc.poll() is None:
            time.sleep(0.002)
        per_shard = (time.time() - began) / wait_for if wait_for else span / SHARDS
        delay = (target - whole) * per_shard
        time.sleep(delay)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=600)
        what = f"trial {trial}: {sig.name} at shard {target:.2f}"
        # a signal that lands while the finished process shuts down (its
        # handlers gone) kills it outright: fine once everything is written
        finished = (folder / "summary.json").exists()
        assert proc.returncode in (EXPECTED[sig], 0) or (proc.returncode == -sig and finished), \
            f"{what}: exit {proc.returncode}: {err}"
        assert "Traceback" not in err and len(err.strip().splitlines()) <= 1, f"{what}: {err}"
        shards_before = len(list(folder.glob("chunk-*.parquet")))
        outcomes.append((sig.name, proc.returncode, shards_before))

        done = start_zsim(ARGS + ["--out", "run", "--resume"], cwd)
        out, err = done.communicate(timeout=600)
        assert done.returncode == 0, f"{what}: resume failed: {err}"
        assert json.loads(out) == summary, what
        assert rows(folder).equals(expected_rows), what
        check_finished_run_folder(folder, what, SHARDS, 80_000)
    # the trials did cut runs short, in every way (not all after the end)
    for name in ("SIGKILL", "SIGTERM", "SIGINT"):
        cut = [o for o in outcomes if o[0] == name and o[1] == EXPECTED[getattr(signal, name)]]
        assert len(cut) >= 2, outcomes     # 3 trials a signal; one may land after the run is done
    assert any(0 < o[2] < SHARDS for o in outcomes), outcomes
