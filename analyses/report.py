"""Renders a list of AnalysisResults as the folder `zsim report` writes.

One call to :func:`write_report` produces::

    out_dir/index.html          the report as one HTML page (inline CSS, no script)
    out_dir/report.md           the same content as GitHub Markdown
    out_dir/figures/*.png       one PNG per figure, <result name>-<n>.png, n from 1
    out_dir/.zsim-report.json   the manifest: every other file, its size and SHA-256

Both documents open with the title, the report's key findings when the
caller gives any, the run metadata (zsim version, rules, deck, seeds,
field, games per point... whatever the caller put in ``meta``), the command
that reproduces the report, and a table of contents, followed by one section
per analysis in the order given: its title, summary, key findings (a bullet
list), tables and figures. Tables a result names in ``details`` are folded
under their caption (``<details>``, in both documents); figures named in
``wide``, and any figure whose PNG is wider than :data:`WIDE_PX`, span the
whole row of the figure grid; a figure's alt text is ``alts[caption]`` or
else the caption.

Every heading and every caption is unique in the document, so that a
reader (or a screen reader's list of tables) can tell them apart: a table
or figure caption used more than once is followed by " — <section title>",
and whatever still repeats (a repeated section title, say) gets " (2)",
" (3)"... in order.

The HTML page fits its window from a 390 px phone to a wide screen without
scrolling sideways: each table sits in its own horizontally scrolling box
(``<div class="table-scroll" role="region" tabindex="0">``, labelled with the
caption, so that it can be scrolled from the keyboard), with its first
column as row headers that stay in view while it scrolls; the command
wraps; long words wrap anywhere. Figures sit in a grid of columns at least
34rem wide, so that each is shown close to its natural size (the tick labels
of a 110 dpi PNG stay readable), one column on a phone; each figure links to
its PNG, to see it whole.

Numbers and cells are printed by :mod:`analyses.report_format` (the same in
HTML, Markdown and the CLI's tables).

Writing is all-or-nothing, and only an earlier report is ever replaced
(:mod:`analyses.report_folder`): a folder holding anything else is refused
with a one-line ZsimError, and a write that fails (disk full, no
permission) is one OutputError line that leaves an old report as it was.
Every figure handed in is closed afterwards, also when writing fails, so a
long `zsim report` run does not keep hundreds of figures alive.
"""
from __future__ import annotations

import html
import os
import re
import shlex
import shutil
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl
from PIL import Image

from analyses.report_format import display_table, meta_value
from analyses.report_folder import (MANIFEST_NAME, check_target, make_hidden_dir, report_files,
                                    swap_into_place, write_manifest)
from analyses.result import AnalysisResult
from zsim.errors import output_error
from zsim.output import clean_stale

__all__ = ["MANIFEST_NAME", "check_target", "report_files", "write_manifest", "write_report"]

#: resolution of the PNGs; ~110 dpi keeps a 6x4 inch figure around 660x440 px
FIGURE_DPI = 110
#: a figure whose PNG is wider than this many pixels spans the figure grid's
#: whole row even when its result does not list it in ``wide`` (two panels or
#: more side by side: in one grid column it would shrink to unreadable labels)
WIDE_PX = 900
#: what joins a repeated caption and the title of its section
CAPTION_JOIN = " \u2014 "

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


def _numbered(labels: Sequence[str], taken: Iterable[str] = ()) -> list[str]:
    """The labels made unique in order: the first of a kind stays as it is,
    a later one gets " (2)", " (3)"... (skipping any label already in use,
    `taken` included)."""
    used = set(taken)
    out = []
    for label in labels:
        new, n = label, 1
        while new in used:
            n += 1
            new = f"{label} ({n})"
        used.add(new)
        out.append(new)
    return out


def _unique_captions(captions: Sequence[tuple[str, str]]) -> list[str]:
    """(caption, section title) pairs -> captions unique in the document: a
    caption given more than once is followed by its section's title, and
    whatever still repeats is numbered."""
    counts = Counter(c for c, _ in captions)
    named = [f"{c}{CAPTION_JOIN}{title}" if counts[c] > 1 else c for c, title in captions]
    return _numbered(named)


def _command_text(command: str | list[str] | tuple[str, ...]) -> str:
    if isinstance(command, (list, tuple)):
        return shlex.join(str(c) for c in command)
    return str(command)


# ---------------------------------------------------------------------------
# what both documents show: the results with unique headings and captions

#: the headings of the report's own parts, in the order they appear
FINDINGS_HEADING, RUN_HEADING, CONTENTS_HEADING = "Key findings", "Run", "Contents"


@dataclass
class _Table:
    caption: str                     # unique in the document
    frame: pl.DataFrame
    folded: bool                     # shown under <details>


@dataclass
class _Figure:
    caption: str                     # unique in the document
    alt: str
    src: str                         # figures/<slug>-<n>.png
    width: int                       # of the PNG, in pixels
    height: int
    wide: bool                       # spans the figure grid's row


@dataclass
class _Section:
    result: AnalysisResult
    title: str                       # unique among the document's headings
    anchor: str
    tables: list[_Table] = field(default_factory=list)
    figures: list[_Figure] = field(default_factory=list)


def _plan(results: list[AnalysisResult], slugs: list[str], figure_files: list[list[tuple[str, int, int]]],
          with_findings: bool) -> list[_Section]:
    """The sections, with headings unique among the document's headings and
    captions (tables and figures together) unique in the document.
    `figure_files` holds, per result, (src, width, height) of each figure."""
    own = ([FINDINGS_HEADING] if with_findings else []) + [RUN_HEADING, CONTENTS_HEADING]
    titles = _numbered([r.title for r in results], taken=own)
    pairs = [(c, t) for r, t in zip(results, titles) for c in [*r.tables, *r.figures]]
    captions = iter(_unique_captions(pairs))
    sections = []
    for i, (r, slug, title, files) in enumerate(zip(results, slugs, titles, figure_files), 1):
        s = _Section(result=r, title=title, anchor=f"sec-{i}-{slug}")
        for caption, frame in r.tables.items():
            s.tables.append(_Table(next(captions), frame, caption in r.details))
        for caption, (src, width, height) in zip(r.figures, files):
            shown = next(captions)
            s.figures.append(_Figure(shown, str(r.alts.get(caption) or shown), src, width, height,
                                     caption in r.wide or width > WIDE_PX))
        sections.append(s)
    return sections


# ---------------------------------------------------------------------------
# HTML

_CSS = """
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       max-width: 77rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1, h2, h3, p, li, summary, caption, figcaption { overflow-wrap: anywhere; }
h1 { margin-bottom: .3rem; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.5rem; }
ul.findings li { margin: .25rem 0; }
section > ul.findings { background: #f5f8fc; border-left: 3px solid #0072b2; padding: .5rem 1rem .5rem 2rem; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: .8rem 0 1.4rem; }
.table-scroll:focus-visible { outline: 2px solid #0072b2; outline-offset: 2px; }
table { border-collapse: separate; border-spacing: 0; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { border: solid #d0d0d0; border-width: 0 1px 1px 0; padding: .25rem .6rem; vertical-align: top; }
tr > :first-child { border-left-width: 1px; }
thead tr > *, table.meta tbody tr:first-child > * { border-top-width: 1px; }
th { background: #f2f2f2; text-align: left; }
tbody th { font-weight: 600; background: #f7f7f7; }
tbody tr:nth-child(even) td { background: #fbfbfb; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.table-scroll tr > :first-child { position: sticky; left: 0; z-index: 1; }
table.meta th { width: 12rem; }
table.meta td { overflow-wrap: anywhere; }
details { margin: .8rem 0 1.4rem; }
summary { font-weight: 600; cursor: pointer; }
details > .table-scroll { margin-top: .4rem; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: .6rem .8rem;
      white-space: pre-wrap; overflow-wrap: anywhere; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 34rem), 1fr));
           gap: 1.2rem 1.5rem; margin: 1rem 0 2rem; }
figure { margin: 0; min-width: 0; }
figure.wide { grid-column: 1 / -1; }
figure img { display: block; max-width: 100%; height: auto; outline: 1px solid #eee; }
figcaption { font-size: .9rem; color: #444; margin-top: .3rem; }
p.result-meta { font-size: .85rem; color: #555; }
p.empty { font-style: italic; color: #666; }
@media (max-width: 40rem) {
  body { margin: 1rem auto; padding: 0 .75rem; }
  table.meta th { width: auto; }
}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _cell(tag: str, text: str, num: bool, scope: str | None = None) -> str:
    attrs = (f' scope="{scope}"' if scope else "") + (' class="num"' if num else "")
    return f"<{tag}{attrs}>{_e(text)}</{tag}>"


def _scroll_box(caption: str, table: str) -> str:
    return (f'<div class="table-scroll" role="region" aria-label="{_e(caption)}" tabindex="0">\n'
            f"{table}\n</div>")


def _html_table(t: _Table) -> str:
    """One table in its scroll box (under <details> when folded): header
    cells scope the columns, the first cell of each row heads its row."""
    headers, numeric, rows = display_table(t.frame)
    if not headers:
        return f'<p class="empty">{_e(t.caption)}: (empty table)</p>'
    head = "".join(_cell("th", h, num, "col") for h, num in zip(headers, numeric))
    parts = ["<table>"]
    if not t.folded:                 # a folded table's caption is its <summary>
        parts.append(f"<caption>{_e(t.caption)}</caption>")
    parts += [f"<thead><tr>{head}</tr></thead>", "<tbody>"]
    for row in rows:
        cells = [_cell("th", row[0], numeric[0], "row")]
        cells += [_cell("td", v, num) for v, num in zip(row[1:], numeric[1:])]
        parts.append(f"<tr>{''.join(cells)}</tr>")
    parts.append("</tbody></table>")
    out = _scroll_box(t.caption, "\n".join(parts))
    if not rows:
        out += '\n<p class="empty">(no rows)</p>'
    if t.folded:
        out = f"<details>\n<summary>{_e(t.caption)}</summary>\n{out}\n</details>"
    return out


def _html_figures(figures: list[_Figure]) -> list[str]:
    out = ['<div class="figures">']
    for f in figures:
        out.append('<figure class="wide">' if f.wide else "<figure>")
        out.append(f'<a href="{_e(f.src)}"><img src="{_e(f.src)}" width="{f.width}" '
                   f'height="{f.height}" alt="{_e(f.alt)}"></a>')
        out.append(f"<figcaption>{_e(f.caption)}</figcaption>")
        out.append("</figure>")
    out.append("</div>")
    return out


def _html_findings(findings: Sequence[str]) -> list[str]:
    return ['<ul class="findings">', *(f"<li>{_e(x)}</li>" for x in findings), "</ul>"]


def _html_document(meta: dict, command: str, sections: list[_Section], findings: Sequence[str],
                   title: str = "zsim report") -> str:
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{_e(title)}</h1>",
    ]
    if findings:
        out.append(f'<h2 id="findings">{FINDINGS_HEADING}</h2>')
        out += _html_findings(findings)
    out.append(f'<h2 id="run">{RUN_HEADING}</h2>')
    if meta:
        rows = "\n".join(f'<tr><th scope="row">{_e(k)}</th><td>{_e(meta_value(v))}</td></tr>'
                         for k, v in meta.items())
        out.append(_scroll_box("Run metadata", f'<table class="meta"><tbody>\n{rows}\n</tbody></table>'))
    else:
        out.append('<p class="empty">(no run metadata)</p>')
    out.append("<p>Reproduce this report with:</p>")
    out.append(f"<pre><code>{_e(command)}</code></pre>")

    out.append(f'<h2 id="contents">{CONTENTS_HEADING}</h2>')
    if sections:
        out.append("<ol>")
        for s in sections:
            out.append(f'<li><a href="#{s.anchor}">{_e(s.title)}</a></li>')
        out.append("</ol>")
    else:
        out.append('<p class="empty">(no analyses)</p>')

    for s in sections:
        r = s.result
        out.append(f'<section id="{s.anchor}">')
        out.append(f"<h2>{_e(s.title)}</h2>")
        if r.summary:
            out.append(f"<p>{_e(r.summary)}</p>")
        if r.findings:
            out += _html_findings(r.findings)
        if r.meta:
            line = " · ".join(f"{k}: {meta_value(v)}" for k, v in r.meta.items())
            out.append(f'<p class="result-meta">{_e(line)}</p>')
        for t in s.tables:
            out.append(_html_table(t))
        if s.figures:
            out += _html_figures(s.figures)
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


def _md_line(text: object) -> str:
    """Text that starts a Markdown line (a paragraph, a list item): as
    _md_text, and a leading "#", ">", "+", "-", "=", "|" or "1." is escaped so
    that it never starts a heading, a quote or a list of its own."""
    text = _md_text(text)
    m = re.match(r"(\d+)([.)])", text)
    if m:
        return f"{m.group(1)}\\{m.group(2)}{text[m.end():]}"
    return "\\" + text if text[:1] in ("#", ">", "+", "-", "=", "|") else text


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


def _md_findings(findings: Sequence[str]) -> list[str]:
    return [f"- {_md_line(x)}" for x in findings] + [""]


def _md_tables(t: _Table) -> list[str]:
    """A table under its bold caption; a folded one inside <details>, its
    caption the <summary> (GitHub renders Markdown there between blank lines)."""
    headers, numeric, rows = display_table(t.frame)
    if not headers:
        body = ["*(empty table)*", ""]
    else:
        body = [_md_table(headers, numeric, rows), ""] + (["*(no rows)*", ""] if not rows else [])
    if t.folded:
        return ["<details>", f"<summary>{html.escape(' '.join(t.caption.split()), quote=False)}</summary>",
                "", *body, "</details>", ""]
    return [f"**{_md_text(t.caption)}**", "", *body]


def _fence(code: str) -> str:
    """A code fence longer than any run of backticks inside the command."""
    longest = max((len(m) for m in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


def _md_document(meta: dict, command: str, sections: list[_Section], findings: Sequence[str],
                 title: str = "zsim report") -> str:
    out = [f"# {title}", ""]
    if findings:
        out += ['<a name="findings"></a>', f"## {FINDINGS_HEADING}", "", *_md_findings(findings)]
    out += ['<a name="run"></a>', f"## {RUN_HEADING}", ""]
    if meta:
        out.append(_md_table(["key", "value"], [False, False],
                             [[str(k), meta_value(v)] for k, v in meta.items()]))
    else:
        out.append("*(no run metadata)*")
    fence = _fence(command)
    out += ["", "Reproduce this report with:", "", f"{fence}sh", command, fence, "",
            '<a name="contents"></a>', f"## {CONTENTS_HEADING}", ""]
    if sections:
        for i, s in enumerate(sections, 1):
            out.append(f"{i}. [{_md_link_text(s.title)}](#{s.anchor})")
    else:
        out.append("*(no analyses)*")
    for s in sections:
        r = s.result
        if out[-1] != "":
            out.append("")
        out += [f'<a name="{s.anchor}"></a>', f"## {_md_text(s.title)}", ""]
        if r.summary:
            out += [_md_line(r.summary), ""]
        if r.findings:
            out += _md_findings(r.findings)
        if r.meta:
            line = " · ".join(f"{k}: {meta_value(v)}" for k, v in r.meta.items())
            out += [f"*{_md_text(line)}*", ""]
        for t in s.tables:
            out += _md_tables(t)
        for f in s.figures:
            out += [f"![{_md_link_text(f.alt)}]({f.src})", "", f"*{_md_text(f.caption)}*", ""]
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _close_all(results: list[AnalysisResult]) -> None:
    for r in results:
        for fig in r.figures.values():
            plt.close(fig)


def _render(results: list[AnalysisResult], meta: dict, command_text: str, findings: Sequence[str],
            folder: Path, title: str = "zsim report") -> list[str]:
    """Write the figures and both documents into `folder`; returns the
    relative paths written."""
    written = []
    slugs = _unique_slugs(results)
    figure_files = []
    for r, slug in zip(results, slugs):
        files = []
        for n, fig in enumerate(r.figures.values(), 1):
            rel = f"figures/{slug}-{n}.png"
            (folder / "figures").mkdir(exist_ok=True)
            try:
                fig.savefig(folder / rel, dpi=FIGURE_DPI, bbox_inches="tight", format="png")
            finally:
                plt.close(fig)
            with Image.open(folder / rel) as im:
                width, height = im.size
            written.append(rel)
            files.append((rel, width, height))
        figure_files.append(files)
    findings = [str(x) for x in findings]
    sections = _plan(results, slugs, figure_files, bool(findings))
    (folder / "index.html").write_text(_html_document(meta, command_text, sections, findings, title),
                                       encoding="utf-8")
    (folder / "report.md").write_text(_md_document(meta, command_text, sections, findings, title),
                                      encoding="utf-8")
    return written + ["index.html", "report.md"]


def write_report(results: list[AnalysisResult], meta: dict, command: str | list[str] | tuple[str, ...],
                 out_dir: str | Path, findings: Sequence[str] = (), title: str = "zsim report"
                 ) -> tuple[Path, Path]:
    """Write index.html, report.md, figures/*.png and the manifest
    .zsim-report.json to `out_dir`.

    `meta` is a flat mapping shown as the run table (values may be lists or
    dicts, shown compactly); `command` is the command line that reproduces
    the report (a list is shell-quoted); `findings`, plain sentences, open
    the report as its "Key findings" (before the run table; none, no such
    part); `title` heads both documents. Returns (html path, markdown path).
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
            written = _render(results, meta, command_text, findings, tmp, title)
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
