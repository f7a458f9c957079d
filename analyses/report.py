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

Writing is all-or-nothing, and only an earlier report is ever replaced
(:mod:`analyses.report_folder`): a folder holding anything else is refused
with a one-line ZsimError, and a write that fails (disk full, no
permission) is one OutputError line that leaves an old report as it was.
Every figure handed in is closed afterwards, also when writing fails, so a
long `zsim report` run does not keep hundreds of figures alive.
"""
from __future__ import annotations

import html
import math
import os
import re
import shlex
import shutil
from decimal import Decimal
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from analyses.report_folder import (MANIFEST_NAME, check_target, make_hidden_dir, report_files,
                                    swap_into_place, write_manifest)
from analyses.result import AnalysisResult
from zsim.errors import output_error
from zsim.output import clean_stale

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


def _close_all(results: list[AnalysisResult]) -> None:
    for r in results:
        for fig in r.figures.values():
            plt.close(fig)


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
            tmp = make_hidden_dir(out_dir.parent, out_dir.name, "tmp")
        except OSError as exc:
            raise output_error(exc, str(out_dir)) from None
        try:
            written = _render(results, meta, command_text, tmp)
            write_manifest(tmp, written)                  # last: it lists the others
            check_target(out_dir)     # the folder may have changed while we rendered
            swap_into_place(tmp, out_dir)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise output_error(exc, str(out_dir)) from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    finally:
        _close_all(results)
    return out_dir / "index.html", out_dir / "report.md"
