"""What an ``--out`` already is decides how zsim writes it, and nothing that is
not zsim's own is renamed over.

A symbolic link is followed (the file it leads to is replaced, the link kept);
a named pipe, a device or a socket is written through as a stream by ``zsim
record`` (JSON lines) and refused before a game is played by every output that
must be a whole file (Parquet, CSV, a run folder, a report). A folder that
cannot take new files is refused before the first game too, with exit status 2,
for every verb that writes. Writing standard output into a full device names
standard output; a stop of ``zsim record`` is one line; a ``NUMBA_NUM_THREADS``
numba cannot use is one line.

Every case runs the real entry point: refusals and short runs in forks of one
server that has imported ``zsim.cli`` (tests/cli_forks.py), runs that need a
pipe, a signal or an environment of their own in a fresh ``python -m zsim.cli``.
"""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from cli_forks import CommandForks
from conftest import start_zsim

ROOT = os.geteuid() == 0

RECORD = ["record", "--players", "2", "--seed", "5", "--games", "2"]
SIMULATE = ["simulate", "--players", "2", "--seed", "5", "--games", "300", "--quiet"]

#: every verb's file --out that must be written whole, with the name it is given
WHOLE_FILES = [
    ("simulate", SIMULATE, "games.parquet", "Parquet"),
    ("tournament", ["tournament", "--players", "2", "--field", "simple,random", "--games", "4", "--quiet"],
     "t.parquet", "Parquet"),
    ("analyze-csv", ["analyze", "payday-cost", "--players", "2", "--games", "100", "--quiet"], "a.csv", "CSV"),
    ("analyze-parquet", ["analyze", "payday-cost", "--players", "2", "--games", "100", "--quiet"], "a.parquet",
     "Parquet"),
]


@pytest.fixture(scope="module")
def zsim_fork():
    forks = CommandForks()
    yield lambda args, cwd: forks.run(list(args), cwd, timeout=300)
    forks.close()


def one_error_line(proc: subprocess.CompletedProcess, code: int = 2) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: error: "), proc.stderr
    return lines[0]


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    """Every name in ``folder`` with its kind and size, links not followed."""
    out = {}
    for p in folder.iterdir():
        st = os.lstat(p)
        out[p.name] = (stat.S_IFMT(st.st_mode), st.st_size if stat.S_ISREG(st.st_mode) else 0)
    return out


# ---------------------------------------------------------------- special files
def make_special(path: Path, kind: str) -> None:
    """A named pipe, or (as root) a character device node like /dev/null or /dev/full."""
    if kind == "fifo":
        os.mkfifo(path)
    else:
        minor = {"null-device": 3, "full-device": 7}[kind]
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))


#: the special files this process can make: a device node needs root
SPECIALS = ["fifo"] + (["null-device"] if ROOT else [])


@pytest.mark.parametrize("kind", SPECIALS)
@pytest.mark.parametrize("verb,args,name,form", WHOLE_FILES, ids=[w[0] for w in WHOLE_FILES])
def test_a_whole_file_output_refuses_a_special_file_before_playing(zsim_fork, tmp_path, verb, args, name, form,
                                                                   kind):
    make_special(tmp_path / name, kind)
    before = listing(tmp_path)
    line = one_error_line(zsim_fork([*args, "--out", name], tmp_path))
    assert f"--out '{name}' is a" in line and "not a regular file" in line and form in line, line
    assert listing(tmp_path) == before            # the pipe or device is still there, nothing beside it


@pytest.mark.parametrize("kind", SPECIALS)
def test_a_run_folder_and_a_report_refuse_a_special_file(zsim_fork, tmp_path, kind):
    make_special(tmp_path / "run", kind)
    before = listing(tmp_path)
    line = one_error_line(zsim_fork([*SIMULATE, "--out", "run"], tmp_path))
    assert "'run' is a" in line and "a run folder must be a folder" in line, line
    line = one_error_line(zsim_fork(["report", "--players", "2", "--games", "100", "--out", "run"], tmp_path))
    assert "report folder run exists and is not a folder" in line, line
    assert listing(tmp_path) == before


def test_a_record_streams_through_a_named_pipe(zsim_fork, tmp_path):
    whole = zsim_fork([*RECORD, "--out", "whole.jsonl"], tmp_path)
    assert whole.returncode == 0, whole.stderr
    os.mkfifo(tmp_path / "pipe")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append((tmp_path / "pipe").read_bytes()))
    reader.start()
    done = zsim_fork([*RECORD, "--out", "pipe"], tmp_path)
    reader.join(timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert got == [(tmp_path / "whole.jsonl").read_bytes()]      # the same games, byte for byte
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)
    assert sorted(os.listdir(tmp_path)) == ["pipe", "whole.jsonl"]


def test_a_record_streams_into_a_process_substitution(tmp_path):
    """``--out >(gzip > f)``: the shell passes /dev/fd/N, a link to a pipe."""
    script = (f"{sys.executable} -m zsim.cli {' '.join(RECORD)} --out >(cat > {tmp_path}/got.jsonl); "
              f"echo $? > {tmp_path}/status")
    proc = subprocess.run(["bash", "-c", script + "; wait"], capture_output=True, text=True, timeout=120)
    assert proc.stderr == "", proc.stderr
    for _ in range(100):          # the substituted process may finish just after bash
        if (tmp_path / "got.jsonl").exists() and (tmp_path / "got.jsonl").stat().st_size:
            break
        time.sleep(0.05)
    assert (tmp_path / "status").read_text().strip() == "0"
    events = [json.loads(line) for line in (tmp_path / "got.jsonl").read_text().splitlines()]
    assert [e["game"] for e in events if e["e"] == "start"] == [0, 1]


def test_a_record_into_devices_writes_through_and_keeps_them(zsim_fork, tmp_path):
    """As root, on device nodes made for the test (a rename over them would
    harm nothing of the machine's); otherwise on /dev/null and /dev/full."""
    if ROOT:
        make_special(tmp_path / "null", "null-device")
        make_special(tmp_path / "full", "full-device")
        null, full = tmp_path / "null", tmp_path / "full"
    else:
        null, full = Path("/dev/null"), Path("/dev/full")
    ok = zsim_fork([*RECORD, "--out", str(null)], tmp_path)
    assert ok.returncode == 0 and ok.stderr == "", ok.stderr
    line = one_error_line(zsim_fork([*RECORD, "--out", str(full)], tmp_path), code=74)
    assert line == f"zsim: error: cannot write {full}: No space left on device", line
    for device in (null, full):
        assert stat.S_ISCHR(os.lstat(device).st_mode), device
    assert sorted(os.listdir(tmp_path)) == (["full", "null"] if ROOT else [])


# ---------------------------------------------------------------- symbolic links
def test_simulate_follows_a_link_to_a_file_and_keeps_the_link(zsim_fork, tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "games.parquet").write_bytes(b"old, stale contents")
    (tmp_path / "link.parquet").symlink_to("data/games.parquet")
    done = zsim_fork([*SIMULATE, "--out", "link.parquet"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "link.parquet").is_symlink()
    assert os.readlink(tmp_path / "link.parquet") == "data/games.parquet"
    rows = pl.read_parquet(tmp_path / "data" / "games.parquet")
    assert rows.height == 600 and rows["game"].n_unique() == 300
    assert sorted(os.listdir(tmp_path / "data")) == ["games.parquet"]      # no temporary left beside it


@pytest.mark.parametrize("verb,args,name,form", WHOLE_FILES[1:3], ids=[w[0] for w in WHOLE_FILES[1:3]])
def test_every_whole_file_output_follows_a_link(zsim_fork, tmp_path, verb, args, name, form):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / name).write_bytes(b"old, stale contents")
    (tmp_path / name).symlink_to(f"data/{name}")
    done = zsim_fork([*args, "--out", name], tmp_path)
    assert done.returncode == 0, done.stderr
    assert os.readlink(tmp_path / name) == f"data/{name}"
    table = (pl.read_csv if form == "CSV" else pl.read_parquet)(tmp_path / "data" / name)
    assert table.height > 0
    # the analysis's further tables go beside the file the link leads to, nothing else is left there
    assert all(p.name.startswith(Path(name).stem) and not p.name.startswith(".")
               for p in (tmp_path / "data").iterdir())


def test_a_report_follows_a_link_to_its_folder(zsim_fork, tmp_path):
    (tmp_path / "reports" / "mine").mkdir(parents=True)
    (tmp_path / "latest").symlink_to("reports/mine", target_is_directory=True)
    done = zsim_fork(["report", "--players", "2", "--games", "200", "--tournament-games", "20", "--quiet",
                      "--strong", "undercut", "--out", "latest"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "latest").is_symlink() and os.readlink(tmp_path / "latest") == "reports/mine"
    assert (tmp_path / "reports" / "mine" / "index.html").is_file()
    assert sorted(os.listdir(tmp_path / "reports")) == ["mine"]          # no temporary folder left


def test_a_dangling_link_gets_its_file_made(zsim_fork, tmp_path):
    (tmp_path / "games.jsonl").symlink_to("made.jsonl")
    done = zsim_fork([*RECORD, "--out", "games.jsonl"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "games.jsonl").is_symlink() and (tmp_path / "made.jsonl").is_file()
    assert (tmp_path / "made.jsonl").read_text().count('"e":"start"') == 2


def test_links_to_folders(zsim_fork, tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "runs").symlink_to("real")
    done = zsim_fork([*SIMULATE, "--out", "runs"], tmp_path)      # a run folder behind a link: its folder
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "runs").is_symlink() and (tmp_path / "real" / "manifest.json").is_file()
    before = listing(tmp_path)
    line = one_error_line(zsim_fork([*RECORD, "--out", "runs"], tmp_path))
    assert line == "zsim: error: --out 'runs' is a folder, not a file", line
    (tmp_path / "loop").symlink_to("loop")
    line = one_error_line(zsim_fork([*RECORD, "--out", "loop"], tmp_path))
    assert "--out 'loop' cannot be used" in line and "symbolic links" in line, line
    assert listing(tmp_path) == {**before, "loop": (stat.S_IFLNK, 0)}


def test_an_analysis_refuses_a_link_whose_file_has_another_format(zsim_fork, tmp_path):
    (tmp_path / "table.parquet").write_bytes(b"x")
    (tmp_path / "a.csv").symlink_to("table.parquet")
    line = one_error_line(zsim_fork([*WHOLE_FILES[2][1], "--out", "a.csv"], tmp_path))
    assert "is a link to" in line and "does not end in .csv" in line, line
    assert (tmp_path / "table.parquet").read_bytes() == b"x"


# ---------------------------------------------------------------- folders that take no new files
@pytest.fixture
def read_only(tmp_path):
    """A folder no new file can be made in: a read-only tmpfs as root (whom
    permissions do not stop), a folder without write permission otherwise."""
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = ROOT and subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder)],
                                      capture_output=True).returncode == 0
    if not mounted:
        folder.chmod(0o555)
    yield folder
    if mounted:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)
    else:
        folder.chmod(0o755)


@pytest.mark.parametrize("args,out,what", [
    (SIMULATE, "ro/games.parquet", "--out folder 'ro' is not writable"),
    (SIMULATE, "ro/run", "--out folder 'ro' is not writable"),
    (RECORD, "ro/games.jsonl", "--out folder 'ro' is not writable"),
    (WHOLE_FILES[1][1], "ro/t.parquet", "--out folder 'ro' is not writable"),
    (WHOLE_FILES[2][1], "ro/a.csv", "--out folder 'ro' is not writable"),
    (["report", "--players", "2", "--games", "100"], "ro/report", "its folder 'ro' is not writable"),
], ids=["simulate-file", "simulate-folder", "record", "tournament", "analyze", "report"])
def test_a_folder_that_takes_no_files_is_refused_before_the_first_game(zsim_fork, tmp_path, read_only, args, out,
                                                                       what):
    line = one_error_line(zsim_fork([*args, "--out", out], tmp_path))
    assert what in line, line
    assert os.listdir(read_only) == []


def test_plots_into_a_folder_that_takes_no_files(zsim_fork, tmp_path, read_only):
    line = one_error_line(zsim_fork([*WHOLE_FILES[2][1], "--plots", "ro/figures"], tmp_path))
    assert "--plots folder 'ro' is not writable" in line, line


def test_an_existing_run_folder_that_takes_no_files(zsim_fork, tmp_path, read_only):
    line = one_error_line(zsim_fork([*SIMULATE, "--out", "ro"], tmp_path))
    assert "--out folder 'ro' is not writable" in line, line


# ---------------------------------------------------------------- standard output, stops, environment
@pytest.mark.parametrize("args", [RECORD, SIMULATE, ["rules"]], ids=["record", "simulate", "rules"])
def test_a_full_standard_output_is_named(args, tmp_path):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "zsim.cli", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 74, proc.stderr
    assert proc.stderr == "zsim: error: cannot write to standard output: No space left on device\n"


def test_sigterm_stops_a_record_with_one_line(tmp_path):
    proc = start_zsim(["record", "--players", "2", "--games", "100000000", "--out", "games.jsonl"], cwd=tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(p.name.endswith(".part") for p in tmp_path.iterdir()):
        time.sleep(0.05)       # the temporary exists: the games are being played
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err == "zsim: terminated (SIGTERM)\n", repr(err)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("value", ["0", "-2", "abc", "", "1.5"])
def test_an_unusable_numba_thread_count_is_one_line(value, tmp_path):
    env = dict(os.environ, NUMBA_NUM_THREADS=value)
    proc = subprocess.run([sys.executable, "-m", "zsim.cli", "games"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    line = one_error_line(proc)
    assert line == (f"zsim: error: NUMBA_NUM_THREADS={value!r} is not a number of threads: set it to a whole "
                    f"number from 1 (the threads zsim's runs may use), or unset it"), line
    assert proc.stdout == ""
    api = subprocess.run([sys.executable, "-c", "import zsim"], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)
    assert api.returncode == 1 and api.stderr.splitlines()[-1] == "zsim.errors.ZsimError: " + line[13:]
