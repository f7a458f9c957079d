"""What every analysis hands back: tables, figures and a few words.

The CLI prints ``tables``, writes them with ``--out`` and ``--json``; the
report renders every table as HTML and Markdown and every figure as a PNG.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl
from matplotlib.figure import Figure


@dataclass
class AnalysisResult:
    name: str                                   # short id, e.g. "hand-size" (used in file names)
    title: str                                  # heading, e.g. "Hand size against payday cost"
    summary: str                                # one paragraph: what was played and how to read it
    tables: dict[str, pl.DataFrame]             # caption -> table; the first is the main one
    figures: dict[str, Figure] = field(default_factory=dict)   # caption -> figure
    meta: dict[str, object] = field(default_factory=dict)      # games, seed, field, rules, deck...
    #: figure caption -> alt text that states what the figure shows (default: the caption)
    alts: dict[str, str] = field(default_factory=dict)
    #: captions of tables the report folds away under their caption (long grids
    #: the figures already show); the CLI still prints and writes them
    details: tuple[str, ...] = ()
    #: captions of figures shown across the page's full width (wide heatmaps)
    wide: tuple[str, ...] = ()
    #: the analysis's key findings, one sentence each, written from its numbers
    findings: list[str] = field(default_factory=list)
    #: what its own columns mean, name -> meaning, where the game's glossary
    #: does not say (a part every game's report shares); shown on hover of a
    #: header and added to the report's glossary
    definitions: dict[str, str] = field(default_factory=dict)
    #: pages written beside the report (a path under its folder -> the page's
    #: HTML): games to step through, as ``zsim view`` draws them
    pages: dict[str, str] = field(default_factory=dict)
    #: what the report lists under the findings: (link text, path of one of ``pages``, words after the link)
    links: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def main(self) -> pl.DataFrame:
        return next(iter(self.tables.values()))
