"""`zsim report` replaces a report folder only when it holds nothing but an
earlier report: the manifest, the refusals, a full disk, and the leftovers
of a killed run."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.figure
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest

import zsim
from analyses.report import (
    MANIFEST_NAME,
    check_target,
    report_files,
    write_manifest,
    write_report,
)
from analyses.result import AnalysisResult
from zsim.errors import OutputError, ZsimError
from zsim.output import tag_is_stale, temp_tag

EXAMPLE = Path(__file__).parents[1] / "reports" / "example"
META = {"zsim version": "0.test", "games per point": 100}
CLI_REPORT = ["report", "--players", "2", "--games", "2000", "--tournament-games", "50",
              "--strong", "undercut", "--out", "site", "--quiet"]


# ---------------------------------------------------------------- helpers
def _results(name: str = "win-share", figures: int = 2) -> list[AnalysisResult]:
    figs = {}
    for n in range(figures):
        fig, ax = plt.subplots(figsize=(2, 1.5))
        ax.plot([1, 2, 3], [n, n + 1, n * 2])
        figs[f"Plot {n + 1}"] = fig
    table = pl.DataFrame({"strategy": ["simple", "random"], "win_share": [0.6, 0.4]})
    return [AnalysisResult(name=name, title=f"Title of {name}", summary="A small result.",
                           tables={"Shares": table}, figures=figs)]


def _noise_result() -> list[AnalysisResult]:
    """One figure whose PNG is megabytes of noise that no compression shrinks."""
    fig, ax = plt.subplots(figsize=(8, 8))
    ax.imshow(np.random.default_rng(1).random((800, 800, 3)))
    return [AnalysisResult(name="noise", title="Noise", summary="", tables={}, figures={"Noise": fig})]


def _snapshot(folder: Path) -> dict[str, object]:
    """Every entry under `folder`, links not followed: a file's bytes, a
    link's target, "dir" for a folder."""
    out: dict[str, object] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            p = Path(root) / name
            rel = p.relative_to(folder).as_posix()
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = p.read_bytes()
    return out


def _hidden(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


def _manifest(folder: Path) -> dict:
    return json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))


def _assert_manifest_matches(folder: Path) -> None:
    """The manifest lists exactly the files present, each with its size and digest."""
    doc = _manifest(folder)
    assert doc["format"] == 1 and doc["zsim_version"] == zsim.__version__
    listed = {e["path"]: (e["size"], e["sha256"]) for e in doc["files"]}
    present = {p.relative_to(folder).as_posix(): p for p in folder.rglob("*") if p.is_file()}
    present.pop(MANIFEST_NAME)
    assert set(listed) == set(present)
    for rel, p in present.items():
        data = p.read_bytes()
        assert listed[rel] == (len(data), hashlib.sha256(data).hexdigest()), rel


def _refusal(out: Path) -> str:
    """check_target's one-line refusal of `out`; the folder is left as it was."""
    before = _snapshot(out)
    with pytest.raises(ZsimError) as err:
        write_report(_results("other"), META, "zsim report again", out)
    msg = str(err.value)
    assert "\n" not in msg and str(out) in msg
    assert not isinstance(err.value, OutputError)
    assert _snapshot(out) == before
    assert _hidden(out.parent) == []
    assert plt.get_fignums() == []
    return msg


pytestmark = pytest.mark.usefixtures("no_open_figures")


@pytest.fixture
def report(tmp_path) -> Path:
    out = tmp_path / "rep"
    write_report(_results(), META, "zsim report --out rep", out)
    return out


# ---------------------------------------------------------------- the manifest
def test_the_manifest_lists_every_file_the_report_wrote(report):
    _assert_manifest_matches(report)
    paths = [e["path"] for e in _manifest(report)["files"]]
    assert paths == sorted(paths)
    assert set(paths) == {"index.html", "report.md", "figures/win-share-1.png", "figures/win-share-2.png"}
    assert _hidden(report.parent) == []


def test_a_report_replaces_its_own_earlier_report(report):
    write_report(_results("hand-size", figures=1), META, "zsim report again", report)
    _assert_manifest_matches(report)
    assert sorted(p.name for p in (report / "figures").iterdir()) == ["hand-size-1.png"]
    assert "zsim report again" in (report / "index.html").read_text(encoding="utf-8")
    assert _hidden(report.parent) == []


def test_a_report_without_figures_replaces_itself(tmp_path):
    out = tmp_path / "rep"
    write_report([], {}, "zsim report", out)
    assert not (out / "figures").exists()       # no empty folder the manifest cannot account for
    write_report([], {}, "zsim report again", out)
    _assert_manifest_matches(out)


def test_a_listed_file_that_was_deleted_does_not_stop_a_new_report(report):
    (report / "figures" / "win-share-2.png").unlink()
    check_target(report)
    write_report(_results("other", figures=1), META, "zsim report again", report)
    _assert_manifest_matches(report)


def test_empty_and_missing_folders_are_accepted(tmp_path):
    check_target(tmp_path / "new")
    (tmp_path / "empty").mkdir()
    check_target(tmp_path / "empty")
    write_report(_results(), META, "zsim report", tmp_path / "empty")
    _assert_manifest_matches(tmp_path / "empty")


def test_the_committed_example_report_can_be_replaced():
    check_target(EXAMPLE)
    listed = [e["path"] for e in _manifest(EXAMPLE)["files"]]
    assert listed == report_files(EXAMPLE)
    assert {"index.html", "report.md"} <= set(listed) and len(listed) > 10


def test_write_manifest_of_a_folder_lists_its_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "sub" / "b.bin").write_bytes(b"\0" * 5)
    write_manifest(tmp_path)
    _assert_manifest_matches(tmp_path)
    check_target(tmp_path)


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("added, named", [
    ("precious.txt", "precious.txt"),
    (".DS_Store", ".DS_Store"),
    ("figures/extra.png", "figures/extra.png"),
    ("photos/a.jpg", "photos/"),
    ("photos/", "photos/"),
])
def test_a_file_added_after_the_report_is_refused(report, added, named):
    path = report / added
    if added.endswith("/"):
        path.mkdir()
    else:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"the user's own")
    msg = _refusal(report)
    assert f"holds {named}, which zsim report did not write" in msg
    assert "choose another --out or remove it" in msg


def test_the_first_foreign_path_is_named(report):
    for name in ("zz.txt", "b.txt", "photos/a.jpg"):
        (report / name).parent.mkdir(exist_ok=True)
        (report / name).write_text("mine")
    assert "holds b.txt," in _refusal(report)


def test_links_are_foreign_and_never_followed(report, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "index.html").write_text("not the report's")
    (report / "shortcut").symlink_to(elsewhere, target_is_directory=True)
    msg = _refusal(report)
    assert "holds shortcut," in msg and "shortcut/" not in msg
    assert (elsewhere / "index.html").read_text() == "not the report's"


def test_a_link_in_place_of_a_listed_file_is_a_change(report, tmp_path):
    png = report / "figures" / "win-share-1.png"
    copy = tmp_path / "copy.png"
    shutil.copyfile(png, copy)
    png.unlink()
    png.symlink_to(copy)                        # same bytes behind it, but not the file it wrote
    assert "holds figures/win-share-1.png, which was changed since zsim report wrote it" in _refusal(report)


def test_an_edited_file_is_refused(report):
    index = report / "index.html"
    index.write_text(index.read_text(encoding="utf-8") + "<p>my notes</p>", encoding="utf-8")
    assert "holds index.html, which was changed since zsim report wrote it" in _refusal(report)


def test_an_edit_that_keeps_the_size_is_refused(report):
    md = report / "report.md"
    data = bytearray(md.read_bytes())
    data[2] = ord("Z") if data[2] != ord("Z") else ord("Y")
    md.write_bytes(bytes(data))
    assert "holds report.md, which was changed since" in _refusal(report)


def test_an_older_report_without_a_manifest_is_refused(report):
    (report / MANIFEST_NAME).unlink()
    msg = _refusal(report)
    assert f"has no zsim report manifest ({MANIFEST_NAME})" in msg
    assert "index.html" not in msg and "figures" not in msg


def test_a_folder_without_a_manifest_names_what_is_not_a_report_file(tmp_path):
    out = tmp_path / "site"
    (out / "photos").mkdir(parents=True)
    for name in ("index.html", "report.md", "precious.txt", "photos/a.jpg"):
        (out / name).write_text(name)
    msg = _refusal(out)
    assert "has no zsim report manifest" in msg and "holds photos/, which zsim report did not write" in msg


@pytest.mark.parametrize("content, reason", [
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe{}", "not valid JSON"),
    (b"", "not valid JSON"),
    (b"[]", "a JSON list, not an object"),
    (b"[" * 100_000, "not valid JSON"),
    (b'{"format": 1, "zsim_version": "0.1.0"}', "no 'files'"),
    (b'{"format": "1", "zsim_version": "0.1.0", "files": []}', "'format' is not a number"),
    (b'{"format": true, "zsim_version": "0.1.0", "files": []}', "'format' is not a number"),
    (b'{"format": 7, "zsim_version": "0.1.0", "files": []}', "format 7"),
    (b'{"format": 1, "zsim_version": 1, "files": []}', "'zsim_version' is not text"),
    (b'{"format": 1, "zsim_version": "0.1.0", "files": {}}', "'files' is not a list"),
    (b'{"format": 1, "zsim_version": "0.1.0", "files": ["index.html"]}', "an entry of 'files' is not an object"),
    (b'{"format": 1, "zsim_version": "0.1.0", "files": [{"path": "../x", "size": 1, "sha256": "'
     + b"0" * 64 + b'"}]}', "an entry of 'files' has no usable 'path'"),
    (b'{"format": 1, "zsim_version": "0.1.0", "files": [{"path": "index.html", "size": "9", "sha256": "'
     + b"0" * 64 + b'"}]}', "index.html has no usable 'size'"),
    (b'{"format": 1, "zsim_version": "0.1.0", "files": [{"path": "index.html", "size": 9, "sha256": "x"}]}',
     "index.html has no usable 'sha256'"),
])
def test_a_damaged_manifest_is_one_line(report, content, reason):
    (report / MANIFEST_NAME).write_bytes(content)
    msg = _refusal(report)
    assert f"has a damaged zsim report manifest ({MANIFEST_NAME}: {reason}" in msg


def test_a_manifest_that_is_a_link_is_refused(report, tmp_path):
    real = tmp_path / "real.json"
    shutil.move(report / MANIFEST_NAME, real)
    (report / MANIFEST_NAME).symlink_to(real)
    assert "damaged zsim report manifest" in _refusal(report) and real.is_file()


# ---------------------------------------------------------------- temporaries and leftovers
def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temporaries_are_named_after_this_process(report, monkeypatch):
    host = temp_tag().split("-")[0]
    renames = []
    real_rename = os.rename

    def rename(src, dst):
        renames.append((Path(src), Path(dst)))
        return real_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    write_report(_results("other", figures=1), META, "zsim report again", report)
    (old, aside), (tmp, target) = renames
    assert old == report and target == report
    tag = rf"{host}-{os.getpid()}-[0-9a-f]{{8}}"
    assert re.fullmatch(rf"\.rep\.old-{tag}", aside.parent.name) and aside.name == "report"
    assert re.fullmatch(rf"\.rep\.tmp-{tag}", tmp.name)
    assert not tag_is_stale(tmp.name.split("tmp-")[1])
    assert _hidden(report.parent) == []


def test_a_killed_runs_leftovers_go_and_a_live_runs_stay(tmp_path):
    host = temp_tag().split("-")[0]
    dead = _dead_pid()
    live = subprocess.Popen(["sleep", "30"])
    try:
        stale_tmp = tmp_path / f".rep.tmp-{host}-{dead}-0123abcd"
        stale_old = tmp_path / f".rep.old-{host}-{dead}-89abcdef"
        live_tmp = tmp_path / f".rep.tmp-{host}-{live.pid}-deadbeef"
        other_name = tmp_path / f".notes.tmp-{host}-{dead}-0123abcd"
        for folder in (stale_tmp, stale_old / "report", live_tmp, other_name):
            folder.mkdir(parents=True)
            (folder / "index.html").write_text("half written")
        check_target(tmp_path / "rep")          # only a write tidies up
        assert stale_tmp.is_dir() and stale_old.is_dir()
        write_report(_results(), META, "zsim report", tmp_path / "rep")
        assert not stale_tmp.exists() and not stale_old.exists()
        assert _hidden(tmp_path) == sorted([live_tmp.name, other_name.name])
        assert (live_tmp / "index.html").read_text() == "half written"
        _assert_manifest_matches(tmp_path / "rep")
    finally:
        live.kill()
        live.wait()


# ---------------------------------------------------------------- a full disk
@pytest.fixture
def small_disk(tmp_path):
    """A 300 kB tmpfs (the tests run as root); None where it cannot be mounted."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(disk)],
                             capture_output=True, check=False).returncode == 0
    try:
        yield disk if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", str(disk)], check=True)


def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("how", ["tmpfs", "patched"])
@pytest.mark.parametrize("old_report", [True, False])
def test_a_full_disk_is_one_output_error_and_keeps_the_old_report(small_disk, tmp_path, monkeypatch,
                                                                  how, old_report):
    parent = small_disk if how == "tmpfs" and small_disk is not None else tmp_path / "plain"
    parent.mkdir(exist_ok=True)
    out = parent / "rep"
    if old_report:
        write_report(_results(), META, "zsim report --out rep", out)
    (parent / "notes.txt").write_text("the user's")
    before_parent = sorted(p.name for p in parent.iterdir())
    before = _snapshot(out)
    if parent == small_disk:
        results = _noise_result()               # a PNG many times the size of the disk
    else:
        monkeypatch.setattr(matplotlib.figure.Figure, "savefig", _no_space)
        results = _results("other")
    with pytest.raises(OutputError) as err:
        write_report(results, META, "zsim report again", out)
    msg = str(err.value)
    assert msg == f"cannot write {out}: No space left on device"
    assert err.value.exit_code == 74
    assert sorted(p.name for p in parent.iterdir()) == before_parent
    assert _snapshot(out) == before
    if old_report:
        _assert_manifest_matches(out)
    assert plt.get_fignums() == []


def test_a_failing_document_write_is_an_output_error(report, monkeypatch):
    before = _snapshot(report)
    monkeypatch.setattr(Path, "write_text", _no_space)
    with pytest.raises(OutputError, match="No space left on device"):
        write_report(_results("other"), META, "zsim report again", report)
    assert _snapshot(report) == before
    assert _hidden(report.parent) == []


# ---------------------------------------------------------------- the real command
def _zsim(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zsim.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600, check=False)


def _assert_one_error_line(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: error: "), run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""
    return lines[0]


@pytest.fixture(scope="module")
def cli_report(tmp_path_factory):
    """`zsim report` run over an earlier report in site/: (folder, the run,
    what site/ held before)."""
    cwd = tmp_path_factory.mktemp("cli")
    write_report(_results("earlier"), META, "zsim report --out site", cwd / "site")
    plt.close("all")
    before = _snapshot(cwd / "site")
    return cwd, _zsim(cwd, *CLI_REPORT), before


def test_the_command_replaces_its_own_earlier_report(cli_report):
    cwd, run, before = cli_report
    assert run.returncode == 0, run.stderr
    site = cwd / "site"
    assert "figures/earlier-1.png" in before and not (site / "figures" / "earlier-1.png").exists()
    _assert_manifest_matches(site)
    assert "zsim report --players 2 --games 2000" in (site / "report.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in cwd.iterdir()) == ["site"]


@pytest.mark.parametrize("with_manifest", [True, False])
def test_the_command_never_deletes_the_users_files(cli_report, tmp_path, with_manifest):
    site = tmp_path / "site"
    if with_manifest:                           # a real report, then the user's files beside it
        shutil.copytree(cli_report[0] / "site", site)
    else:                                       # a site of the user's own
        site.mkdir()
        (site / "index.html").write_text("<p>my page</p>")
        (site / "report.md").write_text("# my notes\n")
    (site / "precious.txt").write_bytes(b"irreplaceable\n")
    (site / "photos").mkdir()
    (site / "photos" / "a.jpg").write_bytes(bytes(range(256)))
    before = _snapshot(site)
    line = _assert_one_error_line(_zsim(tmp_path, *CLI_REPORT))
    assert "report folder site " in line and "holds photos/, which zsim report did not write" in line
    assert ("no zsim report manifest" in line) is not with_manifest
    assert _snapshot(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_the_command_refuses_a_damaged_manifest_in_one_line(cli_report, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(cli_report[0] / "site", site)
    (site / MANIFEST_NAME).write_text("{truncated")
    before = _snapshot(site)
    line = _assert_one_error_line(_zsim(tmp_path, *CLI_REPORT))
    assert f"damaged zsim report manifest ({MANIFEST_NAME}: not valid JSON)" in line
    assert _snapshot(site) == before
