"""Alt text that carries a figure's numbers, read off the drawn figure.

An analysis that writes its own alt text (the heatmaps, the head-to-head
matrix, the skill figure) says best what its figure shows. For the others, a
report reads the points back from each panel once it is drawn, so that a
reader who cannot see the image still gets the data: per panel its title or
y label and x label, per series its label, per point the x (its tick label
on a categorical axis) and the y at 3 significant digits, e.g. ``rounds per
game against cards dealt — 2 players: 3: 11.8, 4: 13.2; 3 players: ...``. A panel drawn as an image
(a heatmap) has no points to read, and says nothing here.
"""
from __future__ import annotations

import math

from matplotlib.container import ErrorbarContainer
from matplotlib.lines import Line2D

#: an alt text longer than this is cut at a series boundary and says so
LIMIT = 2400


def _num(y: float) -> str:
    if y is None or not math.isfinite(y):
        return "none"
    return f"{y:.3g}"


def _x_names(ax) -> dict[float, str] | None:
    """The tick labels of a categorical x axis, position -> text; None when
    its ticks are plain numbers."""
    names = {}
    for pos, tick in zip(ax.get_xticks(), ax.get_xticklabels()):
        text = " ".join(tick.get_text().split())
        if not text:
            return None
        names[float(pos)] = text
    if not names or all(_is_number(t) for t in names.values()):
        return None
    return names


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", "").replace("\u2212", "-"))
    except ValueError:
        return False
    return True


def _series(ax) -> list[tuple[str, list[tuple[float, float]]]]:
    """(label, points) of each labelled series of a panel: an error bar's
    data line, or a plain line; helper lines (par, printed rules) carry no
    label and are left out."""
    out, seen = [], set()
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer) and c.lines and c.lines[0] is not None:
            line = c.lines[0]
            seen.add(id(line))
            label = c.get_label()
            out.append((label if label and not label.startswith("_") else "", _points(line)))
    for line in ax.get_lines():
        if id(line) in seen or not isinstance(line, Line2D):
            continue
        label = line.get_label()
        if label and not label.startswith("_"):
            out.append((label, _points(line)))
    return [(label, pts) for label, pts in out if pts]


def _points(line: Line2D) -> list[tuple[float, float]]:
    try:
        xs, ys = line.get_xdata(), line.get_ydata()
        return [(float(x), float(y)) for x, y in zip(xs, ys)]
    except (TypeError, ValueError):
        return []


def describe(fig) -> str:
    """The figure's points as text ("" when no panel has any): see the module docstring."""
    panels = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        series = _series(ax)
        if not series:
            continue
        names = _x_names(ax)
        title, ylabel, xlabel = (" ".join(t.split()) for t in (ax.get_title(), ax.get_ylabel(), ax.get_xlabel()))
        name = f"{title}: {ylabel}" if title and ylabel else title or ylabel
        if xlabel:
            name = f"{name} against {xlabel}" if name else f"against {xlabel}"
        parts = []
        for label, pts in series:
            def x_text(x: float) -> str:
                if names:
                    near = min(names, key=lambda p: abs(p - x))
                    return names[near]
                return _num(x)
            values = ", ".join(f"{x_text(x)}: {_num(y)}" for x, y in pts)
            parts.append(f"{label}: {values}" if label else values)
        panels.append((f"{name} \u2014 " if name else "") + "; ".join(parts))
    text = ". ".join(panels)
    if len(text) > LIMIT:
        cut = text.rfind("; ", 0, LIMIT)
        text = text[:cut if cut > 0 else LIMIT] + " (and more: see the tables)"
    return text
