"""How a report shows a table to a person: readable headers, no column that
never changes, and no table wider than it needs to be.

The CLI and ``--json`` keep a result's columns as they are (``win_share``,
``seat_spread_pp``): they are names a program reads. A report's reader gets
the same cells (:func:`analyses.report_format.display_table`), reshaped by
:func:`shape` for both of its documents:

* every header is a label in plain words (``win_share`` reads "Win share",
  ``seat_spread_pp`` "Seat spread (pp)", ``seat_p`` "Seat p-value"), and
  carries the column's definition, which the HTML page shows on hover (the
  report's glossary lists the same definitions for a phone);
* a column that shows the same text in every row is dropped, and a note
  under the table says what it held ("Same in every row: Max bid hits 0");
* a wide table of few rows (a column per metric, a row per player count) is
  turned, so that its metrics are rows and its rows columns: it then fits a
  phone instead of scrolling across 1,400 px.

Why not great_tables: it was tried (1.1.0) for the HTML page. It renders
HTML only, while a report is also Markdown and the CLI prints the same
cells; every table carries its own 9 KB stylesheet, and the ids it writes
(``title``, ``stub-1``, one per column name) repeat in every table of a page
of twenty, which a page must not do. The cells here are already formatted
to zsim's rules (intervals, "< bound"), so a table library would only lay
them out, which the report's own 40 lines of HTML do.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from analyses.report_format import display_table

#: a table with at least this many columns (after dropping constant ones)
#: and at most TURN_ROWS rows is turned: metrics as rows
TURN_COLUMNS, TURN_ROWS = 7, 4

#: labels that word rules cannot make
_LABELS = {
    "seat_p": "Seat p-value",
    "seat_chi2": "Seat \u03c7\u00b2",
    "sd": "SD",
    "p10": "10th percentile",
    "p90": "90th percentile",
    "par": "Par",
}
#: words shown otherwise inside a label
_WORDS = {"pp": "(pp)", "ci95": "95% half-width", "pct": "(%)", "vs": "vs", "per": "per"}


def label(name: str) -> str:
    """A column name as a header a person reads: ``win_share`` -> "Win
    share", ``seat_spread_pp`` -> "Seat spread (pp)", ``seat0_win_share`` ->
    "Seat 0 win share". A name without an underscore stays as it is (a
    strategy spec such as ``handsize:target=4``, a label already);
    :func:`shape` gives single words a capital where they are not strategy
    names."""
    if name in _LABELS:
        return _LABELS[name]
    if "_" not in name:
        return name
    words = [_WORDS.get(w, re.sub(r"^([a-z]+)(\d+)$", r"\1 \2", w)) for w in name.split("_") if w]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


@dataclass
class Shaped:
    """A table as a report shows it."""
    headers: list[str]               # labels; headers[0] heads the row-header column
    definitions: list[str]           # per header, "" when none is known
    numeric: list[bool]              # per column: right-aligned
    rows: list[list[str]]
    row_definitions: list[str]       # per row, the definition of its row header ("" when none)
    note: str = ""                   # what the dropped columns held
    turned: bool = False


def _header(name: str) -> str:
    text = label(name)
    return text[:1].upper() + text[1:] if text.isalpha() or "_" in name else text


def shape(frame: pl.DataFrame, definitions: Mapping[str, str] | None = None) -> Shaped:
    """The frame's cells (:func:`display_table`) as a report shows them (see
    the module docstring): labelled, constant columns dropped, turned when
    wide and short. ``definitions`` maps column names to their meaning. In
    a table whose rows are strategies (first column ``strategy``), a column
    named after one of them (a head-to-head matrix) keeps the name a user
    types."""
    definitions = definitions or {}
    names, numeric, rows = display_table(frame)
    if not names:
        return Shaped([], [], [], [], [])
    strategies = {row[0] for row in rows} if names[0] == "strategy" else set()

    def head(n: str) -> str:
        return n if n in strategies else _header(n)

    keep = list(range(len(names)))
    held = []
    if len(rows) >= 2 and len(names) > 2:
        for i in range(1, len(names)):
            values = {row[i] for row in rows}
            if len(values) == 1:
                held.append(f"{head(names[i])} {next(iter(values))}")
                keep.remove(i)
    note = ("Same in every row: " + "; ".join(held) + ".") if held else ""
    names = [names[i] for i in keep]
    numeric = [numeric[i] for i in keep]
    rows = [[row[i] for i in keep] for row in rows]
    defs = [definitions.get(n, "") for n in names]

    if len(names) >= TURN_COLUMNS and 1 <= len(rows) <= TURN_ROWS:
        first = names[0]
        heads = [_turned_head(first, row[0]) for row in rows]
        turned_rows = [[head(n), *(row[j] for row in rows)] for j, n in enumerate(names) if j > 0]
        return Shaped(["Measure", *heads], ["", *([defs[0]] * len(heads))],
                      [False, *([True] * len(heads))], turned_rows, defs[1:], note, True)
    return Shaped([head(n) for n in names], defs, numeric, rows, [""] * len(rows), note)


def _turned_head(column: str, value: str) -> str:
    """The header of a turned table's column: the row it was ("3 players",
    "Seat 0"; a name such as a strategy's, as it is)."""
    if column == "players":
        return f"{value} players"
    if not re.fullmatch(r"[-+]?[\d.]+", value):
        return value
    return f"{_header(column)} {value}"
