"""What the report's two documents show, planned once for both.

:mod:`analyses.report` hands its results here before it writes either
document: each result becomes a :class:`Section` with its tables and figures,
every heading and every caption unique in the document, so that a reader (or a
screen reader's list of tables) can tell them apart. A table or figure caption
used more than once is followed by " — <section title>", and whatever still
repeats (a repeated section title, say) gets " (2)", " (3)"... in order. Each
result also gets a file-name-safe slug, unique in the report, that names its
PNGs. :mod:`analyses.report_html` and :mod:`analyses.report_markdown` render
the same plan.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import polars as pl

from analyses.report_tables import Shaped, shape
from analyses.result import AnalysisResult

#: a figure whose PNG is wider than this many pixels spans the figure grid's
#: whole row even when its result does not list it in ``wide`` (two panels or
#: more side by side: in one grid column it would shrink to unreadable labels)
WIDE_PX = 900
#: the smallest text a reader is asked to read, in CSS px: no figure is shown
#: so small that its smallest label (tick, annotation, legend) falls below it
READABLE_PX = 10
#: what joins a repeated caption and the title of its section
CAPTION_JOIN = " \u2014 "

# ---------------------------------------------------------------------------
# names


def _slug(name: str) -> str:
    """A file-name-safe form of a result name (letters, digits, . _ -)."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return s or "analysis"


def unique_slugs(results: list[AnalysisResult]) -> list[str]:
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


# ---------------------------------------------------------------------------
# what both documents show: the results with unique headings and captions

#: the headings of the report's own parts: the verdicts and the key findings
#: open it, then the contents and the analyses, and the run closes it
VERDICTS_HEADING, FINDINGS_HEADING, RUN_HEADING, CONTENTS_HEADING = "Verdicts", "Key findings", "Run", "Contents"


@dataclass
class Table:
    caption: str                     # unique in the document
    frame: pl.DataFrame
    folded: bool                     # shown under <details>
    shaped: Shaped | None = None     # as a person reads it (analyses.report_tables); None: shape(frame)

    def __post_init__(self) -> None:
        if self.shaped is None:
            self.shaped = shape(self.frame)


@dataclass
class Figure:
    caption: str                     # unique in the document
    alt: str
    src: str                         # figures/<slug>-<n>.png
    width: int                       # of the PNG, in pixels
    height: int
    wide: bool                       # spans the figure grid's row
    text_px: float = 0.0             # its smallest text, in PNG pixels (0: unknown / no text)
    phone: tuple[str, int, int] | None = None    # its panels stacked for a phone: src, width, height

    @property
    def min_width(self) -> int:
        """The narrowest it may be shown (CSS px) with its smallest text at
        READABLE_PX or more; a phone scrolls it sideways in its box instead
        of shrinking it further. 0 when it has no text."""
        return _floor(self.width, self.text_px)

    @property
    def phone_min_width(self) -> int:
        """The same floor for the stacked version a phone shows."""
        return _floor(self.phone[1], self.text_px) if self.phone else 0


def _floor(width: int, text_px: float) -> int:
    if text_px <= 0:
        return 0
    return min(math.ceil(width * READABLE_PX / text_px), 4 * width)


@dataclass
class Section:
    result: AnalysisResult
    title: str                       # unique among the document's headings
    anchor: str
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)


def definitions(results: list[AnalysisResult]) -> dict[str, str]:
    """What each column means, name -> meaning: what each result defines
    itself (``AnalysisResult.definitions``), and the report's glossary, any
    table with the columns ``meaning`` and ``name`` (or ``column``)."""
    out: dict[str, str] = {}
    for r in results:
        out.update(r.definitions)
    for r in results:
        for t in r.tables.values():
            key = "name" if "name" in t.columns else "column"
            if "meaning" in t.columns and key in t.columns:
                out.update(zip(t[key].cast(pl.String).to_list(), t["meaning"].cast(pl.String).to_list()))
    return out


def plan(results: list[AnalysisResult], slugs: list[str], figure_files: list[list[tuple[str, int, int]]],
         with_findings: bool, with_verdicts: bool = False) -> list[Section]:
    """The sections, with headings unique among the document's headings and
    captions (tables and figures together) unique in the document, and each
    table shaped for a reader (:func:`analyses.report_tables.shape`, its
    headers defined by the report's glossary, :func:`definitions`).
    `figure_files` holds, per result, (src, width, height[, smallest text
    px[, its points as text]]) of each figure: a figure whose result gives
    no alt text of its own (or only its caption) is described by its caption
    and its points."""
    meanings = definitions(results)
    own = (([VERDICTS_HEADING] if with_verdicts else []) + ([FINDINGS_HEADING] if with_findings else [])
           + [RUN_HEADING, CONTENTS_HEADING])
    titles = _numbered([r.title for r in results], taken=own)
    pairs = [(c, t) for r, t in zip(results, titles) for c in [*r.tables, *r.figures]]
    captions = iter(_unique_captions(pairs))
    sections = []
    for i, (r, slug, title, files) in enumerate(zip(results, slugs, titles, figure_files), 1):
        s = Section(result=r, title=title, anchor=f"sec-{i}-{slug}")
        for caption, frame in r.tables.items():
            s.tables.append(Table(next(captions), frame, caption in r.details, shape(frame, meanings)))
        for caption, (src, width, height, *drawn) in zip(r.figures, files):
            shown = next(captions)
            text_px, data, phone = (list(drawn) + [0.0, "", None])[:3]
            own = r.alts.get(caption)
            alt = str(own) if own and own != caption else (f"{shown}. {data}" if data else shown)
            s.figures.append(Figure(shown, alt, src, width, height, caption in r.wide or width > WIDE_PX, text_px,
                                     phone))
        sections.append(s)
    return sections

