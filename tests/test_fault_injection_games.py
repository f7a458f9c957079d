"""Kill Zahlemann and Baumeister runs at random moments: --resume must end
exactly where an unbroken run does, and a killed record or tournament leaves
no file behind.

For each game a ``zsim simulate --game G --out DIR`` run of 80 shards is cut
by six signals, SIGKILL, SIGTERM and SIGINT, in three chains of two: a run is
cut, its ``--resume`` is cut in turn, and a last ``--resume`` finishes it. The
run is split into six slices, measured in shards written (so the slices hold
however fast the machine runs at the moment); each signal's moment is drawn
inside its own slice: it waits for the slice's last whole shard, then a drawn
part of the time a shard has been taking. Each chain's first signal lands in
the first half of the run and its second, in the resume, in the second half
(the last one possibly after the end), and each signal cuts once early and
once late. After each chain the finished run must print the summary of an
unbroken run, its shards must hold exactly that run's rows, SHA256SUMS must
list each shard once with its true digest, and no temporary may be left.

``zsim record`` killed outright leaves no file, only its temporary, which the
next zsim writing to the same place removes; ``zsim tournament`` stopped by
SIGTERM exits 143 with one line and no file. The moments come from seeded
generators, so a failing case can be replayed."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from conftest import check_finished_run_folder, start_zsim

GAMES = ("zahlemann", "baumeister")
SHARDS = 80                 # 160,000 games in chunks of 2,000
KILLS = 6                   # per game: three chains of two
SIGNALS = (signal.SIGKILL, signal.SIGTERM, signal.SIGINT)
#: how each signal may end the run: killed outright, or stopped cleanly at a chunk's end
EXPECTED = {signal.SIGKILL: -signal.SIGKILL, signal.SIGTERM: 143, signal.SIGINT: 130}
WORD = {signal.SIGTERM: "zsim: terminated (SIGTERM)", signal.SIGINT: "zsim: interrupted"}


def simulate_args(game: str, games: int = SHARDS * 2_000) -> list[str]:
    # three players and the game's default strategies and rules: kernels the suite compiles anyway
    return ["simulate", "--game", game, "-p", "3", "--games", str(games), "--chunk", "2000",
            "--threads", "1", "--seed", "11", "--json", "-q"]


def shards(folder: Path) -> int:
    return len(list(folder.glob("chunk-*.parquet")))


def rows(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(sorted(folder.glob("chunk-*.parquet"))).sort("game", "seat")


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module", params=GAMES)
def unbroken(request, tmp_path_factory):
    """A game's run played through: (game, summary JSON, rows, seconds from
    the folder's appearance to the end)."""
    game = request.param
    cwd = tmp_path_factory.mktemp(f"unbroken-{game}")
    warm = start_zsim(simulate_args(game, 10), cwd)          # compiles, if the cache is cold
    assert warm.wait(timeout=600) == 0
    proc = start_zsim(simulate_args(game) + ["--out", "run"], cwd)
    while not (cwd / "run" / "manifest.json").exists() and proc.poll() is None:
        time.sleep(0.005)
    began = time.time()
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return game, json.loads(out), rows(cwd / "run"), time.time() - began


def cut(proc, folder: Path, target: float, sig: signal.Signals, span: float, present: int) -> tuple[int, str]:
    """Send ``sig`` to ``proc`` (writing into ``folder``, which held
    ``present`` shards when it started) once ``target`` shards are written:
    after its last whole shard, the fraction of the time a shard has been
    taking in this process. Returns (exit status, stderr)."""
    whole = min(int(target), SHARDS)
    if present:      # a resume: from its first new shard on (its start-up is not the run's)
        while shards(folder) <= present and proc.poll() is None:
            time.sleep(0.002)
    else:            # a new run: from the folder's manifest on
        while not (folder / "manifest.json").exists():
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.002)
    began, seen = time.time(), shards(folder)
    while shards(folder) < whole and proc.poll() is None:
        time.sleep(0.002)
    now = shards(folder)
    per_shard = (time.time() - began) / (now - seen) if now > seen else span / SHARDS
    time.sleep((target - int(target)) * per_shard)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=600)
    return proc.returncode, err


def check_finished(folder: Path, what: str) -> None:
    """The run folder of a finished run: every shard listed once with its true
    digest, and nothing half-written left (temporaries named in the message)."""
    assert temporaries(folder) == [], f"{what}: temporaries left: {temporaries(folder)}"
    check_finished_run_folder(folder, what, SHARDS, SHARDS * 2_000)


def test_resume_after_kills_at_random_moments_is_an_unbroken_run(tmp_path, unbroken):
    game, summary, expected_rows, span = unbroken
    args = simulate_args(game)
    rng = random.Random(f"{game}-20261206")
    # kill k lands in slice k of the run (the last a little past its end);
    # chain c is cut by kills c and c + 3, so each cuts first a run, then its resume
    targets = [SHARDS * 1.1 * (k + rng.random()) / KILLS for k in range(KILLS)]
    sigs = [SIGNALS[(k + k // 3) % 3] for k in range(KILLS)]
    outcomes = []
    for chain in range(KILLS // 2):
        cwd = tmp_path / f"chain-{chain}"
        cwd.mkdir()
        folder = cwd / "run"
        for step, k in enumerate((chain, chain + KILLS // 2)):
            sig, target = sigs[k], targets[k]
            what = (f"zsim {' '.join(args)} --out run{' --resume' * step}: "
                    f"{sig.name} at shard {target:.2f} (chain {chain})")
            present = shards(folder) if step else 0
            proc = start_zsim(args + ["--out", "run"] + ["--resume"] * step, cwd)
            code, err = cut(proc, folder, target, sig, span, present)
            # a signal that lands while the finished process shuts down (its
            # handlers gone) kills it outright: fine once everything is written
            finished = (folder / "summary.json").exists()
            assert code in (EXPECTED[sig], 0) or (code == -sig and finished), f"{what}: exit {code}: {err}"
            assert "Traceback" not in err and len(err.strip().splitlines()) <= 1, f"{what}: {err}"
            if code == EXPECTED[sig] and sig in WORD:
                assert err.startswith(WORD[sig]), f"{what}: {err}"
                # a clean stop takes its half-written shard with it
                assert temporaries(folder) == [], f"{what}: left {temporaries(folder)}"
            outcomes.append((sig.name, step, code == EXPECTED[sig], shards(folder)))

        done = start_zsim(args + ["--out", "run", "--resume"], cwd)
        out, err = done.communicate(timeout=600)
        what = f"{game} chain {chain} ({outcomes[-2:]})"
        assert done.returncode == 0, f"{what}: the last --resume failed: {err}"
        assert json.loads(out) == summary, f"{what}: the summary differs from an unbroken run's"
        assert rows(folder).equals(expected_rows), f"{what}: the rows differ from an unbroken run's"
        check_finished(folder, what)
    # the signals did cut runs short, each kind and in resumes too (not all after the end)
    cuts = [o for o in outcomes if o[2]]
    assert {o[0] for o in cuts} == {"SIGKILL", "SIGTERM", "SIGINT"}, outcomes
    assert len(cuts) >= 4 and any(o[1] == 1 for o in cuts), outcomes
    assert any(0 < o[3] < SHARDS for o in cuts), outcomes


# ---------------------------------------------------------------- record and tournament
def wait_for_temporary(proc, folder: Path, pattern: str) -> None:
    """Until ``proc`` has written into its temporary ``pattern`` in ``folder``."""
    def written():
        try:
            return any(p.stat().st_size > 0 for p in folder.glob(pattern))
        except FileNotFoundError:    # renamed or removed between the listing and the look
            return False

    while not written():
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.005)


@pytest.mark.parametrize("game", GAMES)
def test_a_killed_record_leaves_no_file_and_the_next_run_clears_its_temporary(tmp_path, game):
    rng = random.Random(f"record-{game}")
    args = ["record", "--game", game, "-p", "3", "--seed", "4"]
    proc = start_zsim(args + ["--games", "100000", "--out", "games.jsonl"], tmp_path)
    wait_for_temporary(proc, tmp_path, ".games.jsonl.*.part")
    time.sleep(rng.uniform(0, 0.3))
    proc.kill()
    proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL
    left = sorted(os.listdir(tmp_path))
    assert "games.jsonl" not in left, left
    assert len(left) == 1 and left[0].startswith(".games.jsonl.") and left[0].endswith(".part"), left
    # the next record to the same place writes its file whole and clears the dead run's temporary
    again = subprocess.run([sys.executable, "-m", "zsim.cli", *args, "--games", "3", "--out", "games.jsonl"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert sorted(os.listdir(tmp_path)) == ["games.jsonl"]
    printed = subprocess.run([sys.executable, "-m", "zsim.cli", *args, "--games", "3"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert printed.returncode == 0, printed.stderr
    assert (tmp_path / "games.jsonl").read_text() == printed.stdout


@pytest.mark.parametrize("game", GAMES)
def test_sigterm_stops_a_tournament_with_one_line_and_no_file(tmp_path, game):
    rng = random.Random(f"tournament-{game}")
    # first and random: the roster the suite's tournaments of these games compile
    proc = start_zsim(["tournament", "--game", game, "-p", "2", "--field", "first,random",
                       "--games", "100000000", "--threads", "1", "--out", "t.parquet", "-q"], tmp_path)
    wait_for_temporary(proc, tmp_path, ".t.parquet.*.part")
    time.sleep(rng.uniform(0, 0.3))
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: terminated (SIGTERM)"), err
    assert sorted(os.listdir(tmp_path)) == []
