"""The report as one HTML page: inline CSS, no script.

The page fits its window from a 390 px phone to a wide screen without
scrolling sideways: each table sits in its own horizontally scrolling box
(``<div class="table-scroll" role="region" tabindex="0">``, labelled with the
caption, so that it can be scrolled from the keyboard), with its first column
as row headers that stay in view while it scrolls; the command wraps; long
words wrap anywhere. Figures sit in a grid of columns at least 34rem wide, so
that each is shown close to its natural size (the tick labels of a 110 dpi PNG
stay readable), one column on a phone; no figure is shrunk below the width at
which its smallest text reads at 10 CSS px (its ``min-width``; a phone
scrolls a wider one sideways in its own box, as it does a table). A figure of
panels side by side comes with a second PNG, its panels stacked
(:mod:`analyses.figure_phone`), which a ``<picture>`` shows below 40rem; each
figure links to its PNG, to see it whole. It renders the sections :mod:`analyses.report_sections` plans, as
:mod:`analyses.report_markdown` renders the same sections in Markdown.
"""
from __future__ import annotations

import html
import re
from collections.abc import Sequence

from analyses.report_format import meta_value
from analyses.report_sections import (CONTENTS_HEADING, FINDINGS_HEADING, RUN_HEADING, VERDICTS_HEADING, Figure,
                                      Section, Table)

#: the page's stylesheet, inline in its <head>
_CSS = """
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       max-width: 77rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1, h2, h3, p, li, summary, caption, figcaption { overflow-wrap: anywhere; }
h1 { margin-bottom: .3rem; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.5rem; }
ul.findings li, ul.links li { margin: .25rem 0; }
section > ul.findings { background: #f5f8fc; border-left: 3px solid #0072b2; padding: .5rem 1rem .5rem 2rem; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: .8rem 0 1.4rem; }
.table-scroll:focus-visible { outline: 2px solid #0072b2; outline-offset: 2px; }
table { border-collapse: separate; border-spacing: 0; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { border: solid #d0d0d0; border-width: 0 1px 1px 0; padding: .25rem .6rem; vertical-align: top; }
tr > :first-child { border-left-width: 1px; }
thead tr > *, table.meta tbody tr:first-child > * { border-top-width: 1px; }
th { background: #f2f2f2; text-align: left; }
th[title] { text-decoration: underline dotted #888; text-underline-offset: 3px; cursor: help; }
p.table-note { font-size: .85rem; color: #555; margin: -1rem 0 1.4rem; }
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
p code, li code, td code { background: #f3f3f3; padding: 0 .2em; border-radius: 3px; overflow-wrap: anywhere; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 34rem), 1fr));
           gap: 1.2rem 1.5rem; margin: 1rem 0 2rem; }
figure { margin: 0; min-width: 0; }
figure.wide { grid-column: 1 / -1; }
figure img { display: block; max-width: 100%; height: auto; outline: 1px solid #eee; }
.figure-scroll { max-width: 100%; overflow-x: auto; }
.figure-scroll img { min-width: var(--min-width, 0); }
.figure-scroll:focus-visible { outline: 2px solid #0072b2; outline-offset: 2px; }
figcaption { font-size: .9rem; color: #444; margin-top: .3rem; }
p.result-meta { font-size: .85rem; color: #555; }
p.empty { font-style: italic; color: #666; }
section.verdicts { border: 2px solid #0072b2; border-radius: 6px; padding: .2rem 1.2rem .6rem; margin: 1rem 0 2rem; }
section.verdicts h2 { margin-top: .6rem; border: 0; }
ul.verdicts { list-style: none; padding: 0; margin: 0; font-size: 1.05rem; }
ul.verdicts li { margin: .55rem 0; padding-left: 1.6rem; text-indent: -1.6rem; }
ul.verdicts li::before { display: inline-block; width: 1.6rem; text-indent: 0; font-weight: 700; }
ul.verdicts li.within::before { content: "="; color: #009e73; }
ul.verdicts li.beyond::before { content: "≠"; color: #d55e00; }
ul.verdicts li.unsure::before { content: "?"; color: #666; }
@media (max-width: 40rem) {
  body { margin: 1rem auto; padding: 0 .75rem; }
  table.meta th { width: auto; }
  .figure-scroll img[data-phone] { min-width: var(--phone-min-width, 0); }
}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _prose(text: object) -> str:
    """Words a person reads, escaped, with a `command` or `name` in backticks
    set as code (as the Markdown twin shows it)."""
    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", _e(text))


def _cell(tag: str, text: str, num: bool, scope: str | None = None, title: str = "") -> str:
    attrs = (f' scope="{scope}"' if scope else "") + (' class="num"' if num else "") + (
        f' title="{_e(title)}"' if title else "")
    return f"<{tag}{attrs}>{_prose(text)}</{tag}>"


def _scroll_box(caption: str, table: str) -> str:
    return (f'<div class="table-scroll" role="region" aria-label="{_e(caption)}" tabindex="0">\n'
            f"{table}\n</div>")


def _html_table(t: Table) -> str:
    """One table in its scroll box (under <details> when folded), as
    :mod:`analyses.report_tables` shaped it: header cells scope the columns
    and carry their definitions (shown on hover), the first cell of each row
    heads its row, a note on the columns dropped follows."""
    sh = t.shaped
    headers, numeric, rows = sh.headers, sh.numeric, sh.rows
    if not headers:
        return f'<p class="empty">{_e(t.caption)}: (empty table)</p>'
    head = "".join(_cell("th", h, num, "col", d) for h, num, d in zip(headers, numeric, sh.definitions))
    parts = ["<table>"]
    if not t.folded:                 # a folded table's caption is its <summary>
        parts.append(f"<caption>{_e(t.caption)}</caption>")
    parts += [f"<thead><tr>{head}</tr></thead>", "<tbody>"]
    for row, definition in zip(rows, sh.row_definitions):
        cells = [_cell("th", row[0], numeric[0], "row", definition)]
        cells += [_cell("td", v, num) for v, num in zip(row[1:], numeric[1:])]
        parts.append(f"<tr>{''.join(cells)}</tr>")
    parts.append("</tbody></table>")
    out = _scroll_box(t.caption, "\n".join(parts))
    if not rows:
        out += '\n<p class="empty">(no rows)</p>'
    if sh.note:
        out += f'\n<p class="table-note">{_e(sh.note)}</p>'
    if t.folded:
        out = f"<details>\n<summary>{_e(t.caption)}</summary>\n{out}\n</details>"
    return out


def _html_figures(figures: list[Figure]) -> list[str]:
    out = ['<div class="figures">']
    for f in figures:
        out.append('<figure class="wide">' if f.wide else "<figure>")
        style = f"--min-width: {f.min_width}px"
        if f.phone:
            style += f"; --phone-min-width: {f.phone_min_width}px"
        floor = f' style="{style}" data-text-px="{f.text_px:g}"' if f.min_width else ""
        img = (f'<img src="{_e(f.src)}" width="{f.width}" height="{f.height}" alt="{_e(f.alt)}"'
               f'{" data-phone" if f.phone else ""}{floor}>')
        if f.phone:                  # the panels stacked, on a narrow screen
            src, width, height = f.phone
            img = (f'<picture><source media="(max-width: 40rem)" srcset="{_e(src)}" width="{width}" '
                   f'height="{height}">{img}</picture>')
        img = f'<a href="{_e(f.src)}">{img}</a>'
        out.append(f'<div class="figure-scroll" role="region" aria-label="{_e(f.caption)}" tabindex="0">'
                   f"{img}</div>")
        out.append(f"<figcaption>{_e(f.caption)}</figcaption>")
        out.append("</figure>")
    out.append("</div>")
    return out


def _html_findings(findings: Sequence[str]) -> list[str]:
    return ['<ul class="findings">', *(f"<li>{_prose(x)}</li>" for x in findings), "</ul>"]


def _html_verdicts(verdicts: Sequence) -> list[str]:
    """The box that opens the report: a verdict per question, its headline in bold."""
    items = [f'<li class="{_e(v.outcome)}"><strong>{_e(v.headline)}</strong>: {_e(v.detail)}</li>' for v in verdicts]
    return ['<section class="verdicts" aria-labelledby="verdicts">',
            f'<h2 id="verdicts">{VERDICTS_HEADING}</h2>', '<ul class="verdicts">', *items, "</ul>", "</section>"]


def html_document(meta: dict, command: str, sections: list[Section], findings: Sequence[str],
                  title: str = "zsim report", verdicts: Sequence = ()) -> str:
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
    if verdicts:
        out += _html_verdicts(verdicts)
    if findings:
        out.append(f'<h2 id="findings">{FINDINGS_HEADING}</h2>')
        out += _html_findings(findings)

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
            out.append(f"<p>{_prose(r.summary)}</p>")
        if r.findings:
            out += _html_findings(r.findings)
        if r.links:
            out.append('<ul class="links">')
            out += [f'<li><a href="{_e(href)}">{_e(text)}</a>{_e(": " + after if after else "")}</li>'
                    for text, href, after in r.links]
            out.append("</ul>")
        if r.meta:
            line = " · ".join(f"{str(k).replace('_', ' ')}: {meta_value(v)}" for k, v in r.meta.items())
            out.append(f'<p class="result-meta">{_e(line)}</p>')
        if s.figures:                # the picture first, its numbers after
            out += _html_figures(s.figures)
        for t in s.tables:
            out.append(_html_table(t))
        out.append("</section>")

    out.append(f'<h2 id="run">{RUN_HEADING}</h2>')
    if meta:
        rows = "\n".join(f'<tr><th scope="row">{_e(k)}</th><td>{_e(meta_value(v))}</td></tr>'
                         for k, v in meta.items())
        out.append(_scroll_box("Run metadata", f'<table class="meta"><tbody>\n{rows}\n</tbody></table>'))
    else:
        out.append('<p class="empty">(no run metadata)</p>')
    out.append("<p>Reproduce this report with:</p>")
    out.append(f"<pre><code>{_e(command)}</code></pre>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)

