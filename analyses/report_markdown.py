"""The report as GitHub Markdown: the HTML page's twin.

The same sections as :mod:`analyses.report_html` shows, planned by
:mod:`analyses.report_sections`: every piece of text from an analysis is
escaped so that it never turns into a tag, emphasis, code, a heading or a list
of its own; folded tables sit in ``<details>`` as on the page, and the figures
are images under their captions.
"""
from __future__ import annotations

import html
import re
from collections.abc import Sequence

from analyses.report_format import meta_value
from analyses.report_sections import CONTENTS_HEADING, FINDINGS_HEADING, RUN_HEADING, VERDICTS_HEADING, Section, Table


def _md_text(text: object) -> str:
    """Plain text for Markdown: HTML-escaped (Markdown passes raw tags
    through), on one line, with backslash, * and a lone ` escaped so that text
    from an analysis never turns into emphasis; a `name` in paired backticks
    stays code, as the HTML page sets it."""
    parts = re.split(r"(`[^`\n]+`)", " ".join(str(text).split()))
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part)              # a code span: Markdown shows its text as it is
        else:
            part = html.escape(part, quote=False)
            out.append(part.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`"))
    return "".join(out)


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


def _md_tables(t: Table) -> list[str]:
    """A table under its bold caption; a folded one inside <details>, its
    caption the <summary> (GitHub renders Markdown there between blank lines)."""
    sh = t.shaped
    if not sh.headers:
        body = ["*(empty table)*", ""]
    else:
        body = [_md_table(sh.headers, sh.numeric, sh.rows), ""] + (["*(no rows)*", ""] if not sh.rows else [])
        if sh.note:
            body += [f"*{_md_text(sh.note)}*", ""]
    if t.folded:
        return ["<details>", f"<summary>{html.escape(' '.join(t.caption.split()), quote=False)}</summary>",
                "", *body, "</details>", ""]
    return [f"**{_md_text(t.caption)}**", "", *body]


def _fence(code: str) -> str:
    """A code fence longer than any run of backticks inside the command."""
    longest = max((len(m) for m in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


_MARKS = {"within": "=", "beyond": "≠", "unsure": "?"}


def md_document(meta: dict, command: str, sections: list[Section], findings: Sequence[str],
                title: str = "zsim report", verdicts: Sequence = ()) -> str:
    out = [f"# {title}", ""]
    if verdicts:
        out += ['<a name="verdicts"></a>', f"## {VERDICTS_HEADING}", ""]
        out += [f"- {_MARKS.get(v.outcome, '')} **{_md_text(v.headline)}**: {_md_text(v.detail)}" for v in verdicts]
        out.append("")
    if findings:
        out += ['<a name="findings"></a>', f"## {FINDINGS_HEADING}", "", *_md_findings(findings)]
    out += ['<a name="contents"></a>', f"## {CONTENTS_HEADING}", ""]
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
        if r.links:
            out += [f"- [{_md_link_text(text)}]({href})" + (f": {_md_line(after)}" if after else "")
                    for text, href, after in r.links] + [""]
        if r.meta:
            line = " · ".join(f"{str(k).replace('_', ' ')}: {meta_value(v)}" for k, v in r.meta.items())
            out += [f"*{_md_text(line)}*", ""]
        for f in s.figures:          # the picture first, its numbers after
            out += [f"![{_md_link_text(f.alt)}]({f.src})", "", f"*{_md_text(f.caption)}*", ""]
        for t in s.tables:
            out += _md_tables(t)
    if out[-1] != "":
        out.append("")
    out += ['<a name="run"></a>', f"## {RUN_HEADING}", ""]
    if meta:
        out.append(_md_table(["key", "value"], [False, False],
                             [[str(k), meta_value(v)] for k, v in meta.items()]))
    else:
        out.append("*(no run metadata)*")
    fence = _fence(command)
    out += ["", "Reproduce this report with:", "", f"{fence}sh", command, fence, ""]
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"

