"""The folder `zsim report` writes into: which folders it may replace, and
how a finished report takes an old one's place.

A report lists every file it wrote, with its size and SHA-256, in
``.zsim-report.json`` (the manifest, written last). A folder is replaced
only when it holds nothing but an earlier report: its manifest lists every
file and folder in it and no listed file was changed since (a hand-edited
index.html is not lost either). Any other non-empty folder, or a file, is
refused with a one-line ZsimError naming the first thing in the way.

A new report is built in a hidden sibling folder
(``.NAME.tmp-<host>-<pid>-<token>``, see :func:`zsim.output.temp_tag`) and
swapped into place with the stop signals held; the old one is moved aside
(``.NAME.old-...``) and deleted only once the new one is there.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from zsim.errors import ZsimError, describe_os_error
from zsim.install import __version__
from zsim.output import file_digest, signals_held, temp_tag

__all__ = ["MANIFEST_NAME", "check_target", "make_hidden_dir", "report_files", "swap_into_place",
           "write_manifest"]


# ---------------------------------------------------------------------------
# the manifest: what a report wrote, so that only a report is ever replaced

#: the file in a report folder that lists every other file zsim report wrote there
MANIFEST_NAME = ".zsim-report.json"
#: the manifest's layout number; a manifest of another number is refused
MANIFEST_FORMAT = 1
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: files a report writes, to tell an older report (no manifest) from a folder of other things
_REPORT_FILE = re.compile(r"index\.html|report\.md|figures/[^/]+\.png")
_HINT = "choose another --out or remove it"


def _entries(folder: Path, descend: Callable[[str], bool]) -> Iterator[tuple[str, str]]:
    """(relative POSIX path, "dir" | "file" | "other") of everything under
    `folder`, hidden entries included; a symbolic link is an "other" and is
    never followed; only the folders `descend` accepts are looked into."""
    stack = [""]
    while stack:
        prefix = stack.pop()
        with os.scandir(folder / prefix if prefix else folder) as it:
            for entry in it:
                rel = prefix + entry.name
                if entry.is_dir(follow_symlinks=False):
                    yield rel, "dir"
                    if descend(rel):
                        stack.append(rel + "/")
                elif entry.is_file(follow_symlinks=False):
                    yield rel, "file"
                else:
                    yield rel, "other"


def _shown(rel: str, kind: str) -> str:
    """A path for a one-line message: folders end in /, odd names are quoted."""
    text = rel + "/" if kind == "dir" else rel
    return text if text.isprintable() else ascii(text)


def report_files(folder: Path) -> list[str]:
    """Every plain file under `folder` but the manifest, as sorted relative
    POSIX paths."""
    return sorted(rel for rel, kind in _entries(Path(folder), lambda rel: True)
                  if kind == "file" and rel != MANIFEST_NAME)


def write_manifest(folder: str | Path, files: Iterable[str] | None = None) -> Path:
    """Write `folder`/.zsim-report.json listing `files` (relative POSIX paths;
    default: every file under `folder`) with their sizes and SHA-256."""
    folder = Path(folder)
    names = sorted(report_files(folder) if files is None else files)
    listed = []
    for rel in names:
        size, digest = file_digest(folder / rel)
        listed.append({"path": rel, "size": size, "sha256": digest})
    doc = {"format": MANIFEST_FORMAT, "zsim_version": __version__, "files": listed}
    path = folder / MANIFEST_NAME
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return path


def _plain_relative(rel: str) -> bool:
    parts = rel.split("/")
    return (rel != MANIFEST_NAME and "\0" not in rel
            and all(p not in ("", ".", "..") for p in parts))


class _BadManifest(Exception):
    """A manifest that is not the shape write_manifest gives it (the reason)."""


def _parse_manifest(doc: object) -> dict[str, tuple[int, str]]:
    """path -> (size, sha256) from a loaded manifest; _BadManifest(reason)
    when it has not the shape write_manifest gives it."""
    if not isinstance(doc, dict):
        raise _BadManifest(f"a JSON {type(doc).__name__}, not an object")
    missing = [k for k in ("format", "zsim_version", "files") if k not in doc]
    if missing:
        raise _BadManifest(f"no {missing[0]!r}")
    fmt = doc["format"]
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        raise _BadManifest("'format' is not a number")
    if fmt != MANIFEST_FORMAT:
        raise _BadManifest(f"format {fmt}, this zsim reads format {MANIFEST_FORMAT}")
    if not isinstance(doc["zsim_version"], str):
        raise _BadManifest("'zsim_version' is not text")
    if not isinstance(doc["files"], list):
        raise _BadManifest("'files' is not a list")
    listed: dict[str, tuple[int, str]] = {}
    for item in doc["files"]:
        if not isinstance(item, dict):
            raise _BadManifest("an entry of 'files' is not an object")
        rel, size, digest = item.get("path"), item.get("size"), item.get("sha256")
        if not isinstance(rel, str) or not _plain_relative(rel) or rel in listed:
            raise _BadManifest("an entry of 'files' has no usable 'path'")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise _BadManifest(f"{_shown(rel, 'file')} has no usable 'size'")
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise _BadManifest(f"{_shown(rel, 'file')} has no usable 'sha256'")
        listed[rel] = (size, digest)
    return listed


def _read_manifest(out_dir: Path) -> dict[str, tuple[int, str]]:
    def damaged(reason: str) -> ZsimError:
        return ZsimError(f"report folder {out_dir} has a damaged zsim report manifest "
                         f"({MANIFEST_NAME}: {reason}); {_HINT}")

    path = out_dir / MANIFEST_NAME
    if not stat.S_ISREG(path.lstat().st_mode):
        raise damaged("not a plain file")
    try:
        doc = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise damaged("not valid JSON") from None
    try:
        return _parse_manifest(doc)
    except _BadManifest as exc:
        raise damaged(str(exc)) from None


def _refuse_unlisted(out_dir: Path) -> ZsimError:
    """The error for a non-empty folder without a manifest: it names the
    first thing in it that a report never writes, if there is one."""
    foreign = sorted(_shown(rel, kind) for rel, kind in _entries(out_dir, lambda rel: rel == "figures")
                     if not (kind == "dir" and rel == "figures")
                     and not (kind == "file" and _REPORT_FILE.fullmatch(rel)))
    if foreign:
        return ZsimError(f"report folder {out_dir} has no zsim report manifest ({MANIFEST_NAME}) "
                         f"and holds {foreign[0]}, which zsim report did not write; {_HINT}")
    return ZsimError(f"report folder {out_dir} has no zsim report manifest ({MANIFEST_NAME}), "
                     f"so zsim cannot tell it holds only a report (an older one?); {_HINT}")


def _check_contents(out_dir: Path) -> None:
    """Refuse a non-empty folder unless its manifest lists everything in it
    and every listed file is as the report wrote it."""
    if not any(out_dir.iterdir()):
        return
    if not os.path.lexists(out_dir / MANIFEST_NAME):
        raise _refuse_unlisted(out_dir)
    listed = _read_manifest(out_dir)
    folders = {rel.rsplit("/", i)[0] for rel in listed for i in range(1, rel.count("/") + 1)}
    foreign, changed, present = [], [], []
    for rel, kind in _entries(out_dir, lambda rel: rel in folders):
        if rel == MANIFEST_NAME or (kind == "dir" and rel in folders):
            continue
        if rel not in listed:
            foreign.append(_shown(rel, kind))
        elif kind == "file":
            present.append(rel)
        else:
            changed.append(_shown(rel, kind))      # a link or a folder where a file was
    if foreign:
        raise ZsimError(f"report folder {out_dir} holds {min(foreign)}, which zsim report did not write; {_HINT}")
    for rel in sorted(present):
        path = out_dir / rel
        if path.stat().st_size != listed[rel][0] or file_digest(path) != listed[rel]:
            changed.append(_shown(rel, "file"))
            break
    if changed:
        raise ZsimError(f"report folder {out_dir} holds {min(changed)}, which was changed since "
                        f"zsim report wrote it; {_HINT}")


def check_target(out_dir: str | Path) -> None:
    """Refuse a report folder that holds anything zsim report did not write
    there (also called by ``zsim report`` before it plays a game): a missing
    or empty folder is fine, so is one whose manifest lists every file and
    folder in it, each unchanged."""
    out_dir = Path(out_dir)
    parent = out_dir.parent if str(out_dir.parent) else Path(".")
    if not parent.is_dir():
        raise ZsimError(f"report folder {str(parent)!r} does not exist; create it first")
    if out_dir.name in ("", ".", ".."):
        raise ZsimError(f"report folder {str(out_dir)!r} has no name; give a folder such as report/")
    if out_dir.is_symlink():
        # zsim report follows a link before it gets here (zsim.output.link_end)
        raise ZsimError(f"report folder {out_dir} is a symbolic link; give the folder it leads to")
    if not os.access(parent, os.W_OK | os.X_OK):
        # the report is made beside its folder and renamed into place: its parent must take both
        raise ZsimError(f"report folder {out_dir} cannot be written: its folder {str(parent)!r} is not writable")
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise ZsimError(f"report folder {out_dir} exists and is not a folder; choose another --out")
    try:
        _check_contents(out_dir)
    except OSError as exc:
        raise ZsimError(f"report folder {out_dir} cannot be checked: {describe_os_error(exc)}; "
                        f"{_HINT}") from None


# ---------------------------------------------------------------------------
# putting a finished report in place


def make_hidden_dir(parent: Path, name: str, kind: str) -> Path:
    """A fresh hidden folder ``.NAME.KIND-<host>-<pid>-<token>`` next to the
    report, named after this process so that a later run can tell it is a
    leftover (zsim.output.clean_stale). Unlike tempfile.mkdtemp (always mode
    0700) this honours the umask, so the renamed report has the permissions
    any folder the user creates would have."""
    for _ in range(100):
        p = parent / f".{name}.{kind}-{temp_tag()}"
        try:
            p.mkdir()
        except FileExistsError:
            continue
        return p
    raise FileExistsError(f"could not create a temporary folder in {parent}")


def swap_into_place(tmp: Path, out_dir: Path) -> None:
    """Rename the finished temp folder to out_dir; an old report there is
    first moved aside (inside its own hidden folder) and deleted only after
    the new one is in place, or moved back if the rename fails. Ctrl-C and
    the other stop signals wait until the renames are done."""
    with signals_held():
        if not out_dir.exists():
            os.rename(tmp, out_dir)
            return
        aside_holder = make_hidden_dir(out_dir.parent, out_dir.name, "old")
        aside = aside_holder / "report"
        try:
            os.rename(out_dir, aside)
        except BaseException:
            aside_holder.rmdir()
            raise
        try:
            os.rename(tmp, out_dir)
        except BaseException:
            os.rename(aside, out_dir)
            aside_holder.rmdir()
            raise
        shutil.rmtree(aside_holder, ignore_errors=True)
