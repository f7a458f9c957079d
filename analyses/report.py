"""Renders a list of AnalysisResults as the folder `zsim report` writes.

One call to :func:`write_report` produces::

    out_dir/index.html          the report as one HTML page (inline CSS, no script)
    out_dir/report.md           the same content as GitHub Markdown
    out_dir/figures/*.png       one PNG per figure, <result name>-<n>.png, n from 1
    out_dir/.zsim-report.json   the manifest: every other file, its size and SHA-256

Both documents open with the run metadata (zsim version, rules, deck, seeds,
field, games per point... whatever the caller put in ``meta``), the command
that reproduces the report, and a table of contents, followed by one section
per analysis: its title, summary, tables and figures, in the order given.

How numbers are printed (the same in HTML and Markdown):

* floats get 4 significant digits in plain decimal notation (0.25 -> 0.2500,
  12.3456 -> 12.35, 123456.7 -> 123457); only magnitudes below 1e-5 or from
  1e15 up fall back to scientific notation; exactly zero prints as ``0``;
* integers print as they are, booleans as true/false;
* None and NaN print as an en dash, infinities as ``inf`` / ``-inf``;
* a column ``X`` followed anywhere by ``X_ci95`` (both numeric) becomes one
  column ``X`` holding "value ± ci": the half-width is rounded to 2
  significant digits and the value to the same number of decimals, so a win
  share of 0.25 with a half-width of 0.003 reads ``0.2500 ± 0.0030``.

Writing is all-or-nothing: everything is built in a hidden sibling folder
(``.NAME.tmp-<host>-<pid>-<token>``) and renamed into place at the end; one
that a killed run left behind is removed by the next report written there.
A folder at ``out_dir`` is replaced only when it holds nothing but an
earlier report: its manifest lists every file and folder in it and no listed
file was changed since (a hand-edited index.html is not lost either). Any
other non-empty folder, or a file, is refused with a one-line ZsimError; a
write that fails (disk full, no permission) is one OutputError line and
leaves an old report as it was.
Every figure handed in is closed afterwards, also when writing fails, so a
long `zsim report` run does not keep hundreds of figures alive.
"""
from __future__ import annotations

import hashlib
import html
import json
import math
import os
import re
import shlex
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

import zsim
from analyses.result import AnalysisResult
from zsim.errors import ZsimError, describe_os_error, output_error
from zsim.output import clean_stale, signals_held, temp_tag

__all__ = ["MANIFEST_NAME", "check_target", "display_table", "format_cell", "format_ci", "format_float",
           "report_files", "write_manifest", "write_report"]

#: resolution of the PNGs; ~110 dpi keeps a 6x4 inch figure around 660x440 px
FIGURE_DPI = 110
#: significant digits of plain floats
SIG_DIGITS = 4
#: significant digits of a 95% half-width (the value gets as many decimals)
CI_DIGITS = 2
#: suffix that pairs a confidence half-width column with its value column
CI_SUFFIX = "_ci95"
#: what an empty cell (None / NaN) shows
MISSING = "\u2013"
#: more decimals than this never help a reader of simulation output
MAX_DECIMALS = 12

# ---------------------------------------------------------------------------
# numbers and cells


def _decimals_for(x: float, sig: int) -> int:
    """Decimals that show |x| (finite, non-zero) with `sig` significant digits.

    Rounding can carry into a new leading digit (9.99996 -> 10.000), so the
    exponent is taken again after rounding; the result is never negative
    (integer digits are not rounded away)."""
    e = math.floor(math.log10(abs(x)))
    decimals = max(0, sig - 1 - e)
    rounded = round(abs(x), decimals)
    if rounded != 0 and math.floor(math.log10(rounded)) > e:
        decimals = max(0, decimals - 1)
    return min(decimals, MAX_DECIMALS)


def format_float(x: float | None, sig: int = SIG_DIGITS) -> str:
    """A float with `sig` significant digits, without scientific notation for
    ordinary magnitudes (1e-5 <= |x| < 1e15)."""
    if x is None:
        return MISSING
    x = float(x)
    if math.isnan(x):
        return MISSING
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    if abs(x) < 1e-5 or abs(x) >= 1e15:
        return f"{x:.{sig - 1}e}"
    return f"{x:.{_decimals_for(x, sig)}f}"


def format_ci(value: float | None, ci: float | None) -> str:
    """``value ± ci`` with the half-width at 2 significant digits and the
    value at the same decimals; a missing or unusable half-width leaves the
    value alone, a missing value leaves the cell empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if ci is None:
        return format_float(value)
    ci = float(ci)
    if not math.isfinite(ci) or ci < 0:
        return format_float(value)
    value = float(value)
    if not math.isfinite(value):
        return f"{format_float(value)} ± {format_float(ci)}"
    if ci == 0:
        return f"{format_float(value)} ± 0"
    if ci < 1e-5 or ci >= 1e15 or abs(value) >= 1e15:
        return f"{format_float(value)} ± {format_float(ci, CI_DIGITS)}"
    decimals = _decimals_for(ci, CI_DIGITS)
    return f"{value:.{decimals}f} ± {ci:.{decimals}f}"


def format_cell(v: object) -> str:
    """Any value polars hands back from a row, as table text."""
    if v is None:
        return MISSING
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (float, Decimal)):
        return format_float(float(v))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(format_cell(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {format_cell(x)}" for k, x in v.items()) + "}"
    return str(v)


def _meta_value(v: object) -> str:
    """Metadata values are shown compactly: lists as 'a, b, c', mappings as
    'k=v, k=v', floats like table floats, everything else via str()."""
    if v is None:
        return MISSING
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, (list, tuple, set, frozenset)):
        items = sorted(v, key=str) if isinstance(v, (set, frozenset)) else v
        return ", ".join(_meta_value(x) for x in items)
    if isinstance(v, dict):
        return ", ".join(f"{k}={_meta_value(x)}" for k, x in v.items())
    return str(v)


def display_table(df: pl.DataFrame) -> tuple[list[str], list[bool], list[list[str]]]:
    """The frame as (headers, numeric flags, rows of strings).

    ``X`` and ``X_ci95`` (both numeric) merge into one column ``X`` at the
    place of ``X``; the ``_ci95`` column disappears. Other columns keep their
    order and name."""
    schema = df.schema
    cols = list(df.columns)
    numeric = {c: schema[c].is_numeric() for c in cols}
    merged: dict[str, str] = {}                      # value column -> ci column
    for c in cols:
        ci = c + CI_SUFFIX
        if ci in schema and numeric[c] and numeric[ci]:
            merged[c] = ci
    dropped = set(merged.values())
    shown = [c for c in cols if c not in dropped]
    index = {c: i for i, c in enumerate(cols)}

    rows: list[list[str]] = []
    for row in df.iter_rows():
        out = []
        for c in shown:
            v = row[index[c]]
            if c in merged:
                out.append(format_ci(v, row[index[merged[c]]]))
            else:
                out.append(format_cell(v))
        rows.append(out)
    return shown, [numeric[c] for c in shown], rows


# ---------------------------------------------------------------------------
# names


def _slug(name: str) -> str:
    """A file-name-safe form of a result name (letters, digits, . _ -)."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return s or "analysis"


def _unique_slugs(results: list[AnalysisResult]) -> list[str]:
    """One slug per result; a repeated name gets -2, -3... so that two
    results never write the same PNG."""
    seen: dict[str, int] = {}
    out = []
    for r in results:
        base = _slug(r.name)
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def _command_text(command: str | list[str] | tuple[str, ...]) -> str:
    if isinstance(command, (list, tuple)):
        return shlex.join(str(c) for c in command)
    return str(command)


# ---------------------------------------------------------------------------
# HTML

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1 { margin-bottom: .3rem; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.5rem; }
table { border-collapse: collapse; margin: .8rem 0 1.4rem; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { border: 1px solid #d0d0d0; padding: .25rem .6rem; }
th { background: #f2f2f2; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.meta th { width: 12rem; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: .6rem .8rem; overflow-x: auto; }
figure { margin: 1rem 0 2rem; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .9rem; color: #444; margin-top: .3rem; }
p.result-meta { font-size: .85rem; color: #555; }
p.empty { font-style: italic; color: #666; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _html_table(df: pl.DataFrame, caption: str) -> str:
    headers, numeric, rows = display_table(df)
    if not headers:
        return f'<p class="empty">{_e(caption)}: (empty table)</p>'
    head = "".join(f'<th class="num">{_e(h)}</th>' if num else f"<th>{_e(h)}</th>"
                   for h, num in zip(headers, numeric))
    parts = ["<table>", f"<caption>{_e(caption)}</caption>",
             f"<thead><tr>{head}</tr></thead>", "<tbody>"]
    for row in rows:
        cells = "".join(
            f'<td class="num">{_e(v)}</td>' if num else f"<td>{_e(v)}</td>"
            for v, num in zip(row, numeric)
        )
        parts.append(f"<tr>{cells}</tr>")
    parts.append("</tbody></table>")
    if not rows:
        parts.append('<p class="empty">(no rows)</p>')
    return "\n".join(parts)


def _html_document(meta: dict, command: str, sections: list[dict]) -> str:
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>zsim report</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        "<h1>zsim report</h1>",
        '<h2 id="run">Run</h2>',
    ]
    if meta:
        out.append('<table class="meta"><tbody>')
        for k, v in meta.items():
            out.append(f"<tr><th>{_e(k)}</th><td>{_e(_meta_value(v))}</td></tr>")
        out.append("</tbody></table>")
    else:
        out.append('<p class="empty">(no run metadata)</p>')
    out.append("<p>Reproduce this report with:</p>")
    out.append(f"<pre><code>{_e(command)}</code></pre>")

    out.append('<h2 id="contents">Contents</h2>')
    if sections:
        out.append("<ol>")
        for s in sections:
            out.append(f'<li><a href="#{s["anchor"]}">{_e(s["title"])}</a></li>')
        out.append("</ol>")
    else:
        out.append('<p class="empty">(no analyses)</p>')

    for s in sections:
        r: AnalysisResult = s["result"]
        out.append(f'<section id="{s["anchor"]}">')
        out.append(f"<h2>{_e(r.title)}</h2>")
        if r.summary:
            out.append(f"<p>{_e(r.summary)}</p>")
        if r.meta:
            line = " · ".join(f"{k}: {_meta_value(v)}" for k, v in r.meta.items())
            out.append(f'<p class="result-meta">{_e(line)}</p>')
        for caption, df in r.tables.items():
            out.append(_html_table(df, caption))
        for caption, rel in s["figures"]:
            out.append("<figure>")
            out.append(f'<img src="{_e(rel)}" alt="{_e(caption)}">')
            out.append(f"<figcaption>{_e(caption)}</figcaption>")
            out.append("</figure>")
        out.append("</section>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Markdown


def _md_text(text: object) -> str:
    """Plain text for Markdown: HTML-escaped (Markdown passes raw tags
    through), on one line, with backslash, * and ` escaped so that text from
    an analysis never turns into emphasis or code."""
    text = html.escape(" ".join(str(text).split()), quote=False)
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`")


def _md_cell(text: object) -> str:
    return _md_text(text).replace("|", "\\|")


def _md_link_text(text: object) -> str:
    return _md_text(text).replace("[", "\\[").replace("]", "\\]")


def _md_table(headers: list[str], numeric: list[bool], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(_md_cell(h) for h in headers) + " |",
             "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _fence(code: str) -> str:
    """A code fence longer than any run of backticks inside the command."""
    longest = max((len(m) for m in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


def _md_document(meta: dict, command: str, sections: list[dict]) -> str:
    out = ["# zsim report", "", '<a name="run"></a>', "## Run", ""]
    if meta:
        out.append(_md_table(["key", "value"], [False, False],
                             [[str(k), _meta_value(v)] for k, v in meta.items()]))
    else:
        out.append("*(no run metadata)*")
    fence = _fence(command)
    out += ["", "Reproduce this report with:", "", f"{fence}sh", command, fence, "",
            '<a name="contents"></a>', "## Contents", ""]
    if sections:
        for i, s in enumerate(sections, 1):
            out.append(f"{i}. [{_md_link_text(s['title'])}](#{s['anchor']})")
    else:
        out.append("*(no analyses)*")
    for s in sections:
        r: AnalysisResult = s["result"]
        if out[-1] != "":
            out.append("")
        out += [f'<a name="{s["anchor"]}"></a>', f"## {_md_text(r.title)}", ""]
        if r.summary:
            out += [_md_text(r.summary), ""]
        if r.meta:
            line = " · ".join(f"{k}: {_meta_value(v)}" for k, v in r.meta.items())
            out += [f"*{_md_text(line)}*", ""]
        for caption, df in r.tables.items():
            headers, numeric, rows = display_table(df)
            out += [f"**{_md_text(caption)}**", ""]
            if not headers:
                out += ["*(empty table)*", ""]
                continue
            out += [_md_table(headers, numeric, rows), ""]
            if not rows:
                out += ["*(no rows)*", ""]
        for caption, rel in s["figures"]:
            out += [f"![{_md_link_text(caption)}]({rel})", "", f"*{_md_text(caption)}*", ""]
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


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


def _file_digest(path: Path) -> tuple[int, str]:
    """(size in bytes, SHA-256 in hex) of a file."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


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
        size, digest = _file_digest(folder / rel)
        listed.append({"path": rel, "size": size, "sha256": digest})
    doc = {"format": MANIFEST_FORMAT, "zsim_version": zsim.__version__, "files": listed}
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
        if path.stat().st_size != listed[rel][0] or _file_digest(path) != listed[rel]:
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
        raise ZsimError(f"report folder {out_dir} is a symbolic link; give a plain folder")
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
# writing


def _close_all(results: list[AnalysisResult]) -> None:
    for r in results:
        for fig in r.figures.values():
            plt.close(fig)


def _make_hidden_dir(parent: Path, name: str, kind: str) -> Path:
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


def _swap_into_place(tmp: Path, out_dir: Path) -> None:
    """Rename the finished temp folder to out_dir; an old report there is
    first moved aside (inside its own hidden folder) and deleted only after
    the new one is in place, or moved back if the rename fails. Ctrl-C and
    the other stop signals wait until the renames are done."""
    with signals_held():
        if not out_dir.exists():
            os.rename(tmp, out_dir)
            return
        aside_holder = _make_hidden_dir(out_dir.parent, out_dir.name, "old")
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


def _render(results: list[AnalysisResult], meta: dict, command_text: str, folder: Path) -> list[str]:
    """Write the figures and both documents into `folder`; returns the
    relative paths written."""
    written = []
    sections = []
    for i, (r, slug) in enumerate(zip(results, _unique_slugs(results)), 1):
        figures = []
        for n, (caption, fig) in enumerate(r.figures.items(), 1):
            rel = f"figures/{slug}-{n}.png"
            (folder / "figures").mkdir(exist_ok=True)
            try:
                fig.savefig(folder / rel, dpi=FIGURE_DPI, bbox_inches="tight", format="png")
            finally:
                plt.close(fig)
            written.append(rel)
            figures.append((caption, rel))
        sections.append({"result": r, "title": r.title, "anchor": f"sec-{i}-{slug}",
                         "figures": figures})
    (folder / "index.html").write_text(_html_document(meta, command_text, sections), encoding="utf-8")
    (folder / "report.md").write_text(_md_document(meta, command_text, sections), encoding="utf-8")
    return written + ["index.html", "report.md"]


def write_report(results: list[AnalysisResult], meta: dict, command: str,
                 out_dir: str | Path) -> tuple[Path, Path]:
    """Write index.html, report.md, figures/*.png and the manifest
    .zsim-report.json to `out_dir`.

    `meta` is a flat mapping shown as the run table (values may be lists or
    dicts, shown compactly); `command` is the command line that reproduces
    the report (a list is shell-quoted). Returns (html path, markdown path).
    Raises ZsimError, and writes nothing, when `out_dir` holds anything an
    earlier report did not write (see check_target), and OutputError when a
    file cannot be written (the old report, if any, is then left as it was).
    All figures of `results` are closed when this returns or raises."""
    out_dir = Path(os.path.abspath(os.fspath(out_dir)))
    try:
        check_target(out_dir)
        command_text = _command_text(command)
        try:
            clean_stale(out_dir.parent, out_dir.name)
            tmp = _make_hidden_dir(out_dir.parent, out_dir.name, "tmp")
        except OSError as exc:
            raise output_error(exc, str(out_dir)) from None
        try:
            written = _render(results, meta, command_text, tmp)
            write_manifest(tmp, written)                  # last: it lists the others
            check_target(out_dir)     # the folder may have changed while we rendered
            _swap_into_place(tmp, out_dir)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise output_error(exc, str(out_dir)) from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    finally:
        _close_all(results)
    return out_dir / "index.html", out_dir / "report.md"
