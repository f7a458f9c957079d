"""Renders a list of AnalysisResults as the folder `zsim report` writes.

One call to :func:`write_report` produces::

    out_dir/index.html          the report as one HTML page (inline CSS, no script)
    out_dir/report.md           the same content as GitHub Markdown
    out_dir/figures/*.png       one PNG per figure, <result name>-<n>.png, n from 1,
                                and <result name>-<n>-phone.png for one of several panels
    out_dir/games/*.html        the games a result links (its ``pages``: zsim view's pages)
    out_dir/.zsim-report.json   the manifest: every other file, its size and SHA-256

Both documents open with the title and the verdicts (a box of one plain
sentence per designer question, :mod:`analyses.verdicts`), then the
report's key findings when the caller gives any and a table of contents,
followed by one section per analysis in the order given: its title,
summary, key findings (a bullet list), figures and tables. The run closes
them: its metadata (zsim version, rules, deck, seeds, field, games per
point... whatever the caller put in ``meta``) and the command that
reproduces the report. Tables a result names in ``details`` are folded
under their caption (``<details>``, in both documents); figures named in
``wide``, and any figure whose PNG is wider than
:data:`analyses.report_sections.WIDE_PX`, span the
whole row of the figure grid; a figure's alt text is ``alts[caption]``, or
else the caption followed by the points read off the drawn figure
(:mod:`analyses.figure_alt`).

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
of a 110 dpi PNG stay readable), one column on a phone, and never shrunk
below the width at which its smallest text reads at 10 CSS px
(:func:`smallest_text_px`; a phone scrolls a wider one sideways in its own
box). A figure of panels side by side is also written with its panels
stacked (``<slug>-<n>-phone.png``, :mod:`analyses.figure_phone`), at a width
where a phone shows its smallest text at 10 CSS px; the page shows that one
on narrow screens. Each figure links to its PNG, to see it whole.

Numbers and cells are printed by :mod:`analyses.report_format` (the same in
HTML, Markdown and the CLI's tables). This module writes the folder; the
sections both documents show are planned by :mod:`analyses.report_sections`,
and rendered by :mod:`analyses.report_html` (the page and its CSS) and
:mod:`analyses.report_markdown` (its Markdown twin).

Writing is all-or-nothing, and only an earlier report is ever replaced
(:mod:`analyses.report_folder`): a folder holding anything else is refused
with a one-line ZsimError, and a write that fails (disk full, no
permission) is one OutputError line that leaves an old report as it was.
Every figure handed in is closed afterwards, also when writing fails, so a
long `zsim report` run does not keep hundreds of figures alive.
"""
from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.text import Text
from PIL import Image

from analyses.figure_alt import describe
from analyses.figure_phone import stack_for_phone
from analyses.report_folder import (MANIFEST_NAME, check_target, make_hidden_dir, report_files,
                                    swap_into_place, write_manifest)
from analyses.report_html import html_document
from analyses.report_markdown import md_document
from analyses.report_sections import READABLE_PX, plan, unique_slugs
from analyses.result import AnalysisResult
from zsim.errors import output_error
from zsim.output import clean_stale

__all__ = ["MANIFEST_NAME", "check_target", "report_files", "write_manifest", "write_report"]

#: resolution of the PNGs; ~110 dpi keeps a 6x4 inch figure around 660x440 px
FIGURE_DPI = 110
#: the width a stacked figure's panels are drawn for (CSS px): a 390 px phone
#: shows 366 px between the page's margins, less a little for what sticks out
#: of the panels (a legend under them, a long tick label)
PHONE_PX = 340


def smallest_text_px(fig) -> float:
    """The size of the figure's smallest visible text (tick labels, cell
    annotations, legend, titles) in pixels of its PNG, once drawn; 0 when it
    has none. ``bbox_inches="tight"`` crops a figure and never scales it, so
    a point is FIGURE_DPI / 72 pixels."""
    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and t.get_figure() is fig]
    return round(min(sizes) * FIGURE_DPI / 72, 2) if sizes else 0.0


def _command_text(command: str | list[str] | tuple[str, ...]) -> str:
    if isinstance(command, (list, tuple)):
        return shlex.join(str(c) for c in command)
    return str(command)


def _close_all(results: list[AnalysisResult]) -> None:
    for r in results:
        for fig in r.figures.values():
            plt.close(fig)


def _render(results: list[AnalysisResult], meta: dict, command_text: str, findings: Sequence[str],
            folder: Path, title: str = "zsim report", verdicts: Sequence = ()) -> list[str]:
    """Write the figures and both documents into `folder`; returns the
    relative paths written."""
    written = []
    slugs = unique_slugs(results)
    figure_files = []
    for r, slug in zip(results, slugs):
        files = []
        for n, fig in enumerate(r.figures.values(), 1):
            rel = f"figures/{slug}-{n}.png"
            (folder / "figures").mkdir(exist_ok=True)
            phone = None
            try:
                fig.savefig(folder / rel, dpi=FIGURE_DPI, bbox_inches="tight", format="png")
                text_px = smallest_text_px(fig)
                data = describe(fig)
                if text_px > 0 and stack_for_phone(fig, PHONE_PX * text_px / READABLE_PX / FIGURE_DPI):
                    phone = rel.removesuffix(".png") + "-phone.png"
                    fig.savefig(folder / phone, dpi=FIGURE_DPI, bbox_inches="tight", format="png")
            finally:
                plt.close(fig)
            with Image.open(folder / rel) as im:
                width, height = im.size
            written.append(rel)
            if phone:
                with Image.open(folder / phone) as im:
                    phone = (phone, *im.size)
                written.append(phone[0])
            files.append((rel, width, height, text_px, data, phone))
        figure_files.append(files)
    for r in results:                     # games to step through (zsim view's pages)
        for rel, page in r.pages.items():
            if rel.startswith(("/", "..")) or "/../" in rel or not rel.endswith(".html"):
                raise ValueError(f"a report page must be an .html path inside the report, got {rel!r}")
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(page, encoding="utf-8")
            written.append(rel)
    findings = [str(x) for x in findings]
    sections = plan(results, slugs, figure_files, bool(findings), bool(verdicts))
    (folder / "index.html").write_text(html_document(meta, command_text, sections, findings, title, verdicts),
                                       encoding="utf-8")
    (folder / "report.md").write_text(md_document(meta, command_text, sections, findings, title, verdicts),
                                      encoding="utf-8")
    return written + ["index.html", "report.md"]


def write_report(results: list[AnalysisResult], meta: dict, command: str | list[str] | tuple[str, ...],
                 out_dir: str | Path, findings: Sequence[str] = (), title: str = "zsim report",
                 verdicts: Sequence = ()) -> tuple[Path, Path]:
    """Write index.html, report.md, figures/*.png and the manifest
    .zsim-report.json to `out_dir`.

    `meta` is a flat mapping shown as the run table (values may be lists or
    dicts, shown compactly); `command` is the command line that reproduces
    the report (a list is shell-quoted); `findings`, plain sentences, open
    the report as its "Key findings" (before the run table; none, no such
    part); `verdicts` (:class:`analyses.verdicts.Verdict`) open it above
    them, in a box; `title` heads both documents. Returns (html path,
    markdown path).
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
            written = _render(results, meta, command_text, findings, tmp, title, verdicts)
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
