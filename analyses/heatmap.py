"""An annotated heatmap: a matrix of values as coloured cells, each with its
own text, optional marks and a labelled colour bar.

Made for the analyses' grids (rows and columns of two swept knobs, a
head-to-head matrix of strategies...) and kept free of any one of them::

    fig, axes = common.figure()
    heatmap.draw(axes[0][0], values, ["0", "1", "2"], ["4", "5", "6"],
                 text=[[heatmap.cell_text(v, ci) for v, ci in zip(r, c)] for r, c in zip(values, cis)],
                 stars=[(0, 2)], boxes=[(1, 0)], cbar_label="win share (%)",
                 center=25.0, cmap="PuOr")
    heatmap.marks_legend(fig, "best in its row", "the default")

Colours: the default maps are colour-blind safe ('cividis' sequential; a
diverging map such as 'PuOr' or 'RdBu' when ``center`` is given, with limits
symmetric around it so that equal distances from the centre get equal
strength of colour). Every cell's text is black or white, whichever stands out
more against that cell. Missing values (None, NaN) are drawn light grey with
the text :data:`MISSING`. Marks are drawn in black and white so that they
show on any colour: a star (say, "best in this row") in the cell's upper
right corner, in the colour of the cell's text, and a box (say, "the default"), a
black outline lined with white, around the cell.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
from matplotlib import colormaps
from matplotlib.colors import Normalize
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

SEQUENTIAL = "cividis"
DIVERGING = "PuOr"
MISSING = "\u2013"
MISSING_COLOUR = "#d9d9d9"
#: relative luminance above which a cell takes black text
LIGHT = 0.4
FONT = 9            # points: the smallest text the figures use


def as_matrix(values) -> np.ndarray:
    """A float matrix with NaN where a value is missing (None)."""
    rows = [[math.nan if v is None else float(v) for v in row] for row in values]
    if not rows or any(len(r) != len(rows[0]) for r in rows) or not rows[0]:
        raise ValueError("a heatmap needs a non-empty matrix with rows of equal length")
    return np.array(rows, dtype=float)


def luminance(rgba) -> float:
    """Relative luminance (WCAG 2) of an RGB(A) colour with channels in 0..1."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(float(c)) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_colour(rgba) -> str:
    """'black' on a light cell, 'white' on a dark one: the one whose contrast
    ratio against the cell is the larger."""
    lum = luminance(rgba)
    # contrast ratios (L1 + 0.05) / (L2 + 0.05) against black (L = 0) and white (L = 1)
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


def norm(values: np.ndarray, center: float | None = None, vmin: float | None = None,
         vmax: float | None = None) -> Normalize:
    """The colour scale: the finite values' range, or, around ``center``, a
    range symmetric about it (a diverging map then puts ``center`` at its
    middle colour)."""
    finite = values[np.isfinite(values)]
    lo = float(finite.min()) if vmin is None and finite.size else vmin
    hi = float(finite.max()) if vmax is None and finite.size else vmax
    if lo is None or hi is None:         # nothing to show: any scale will do
        lo, hi = (0.0, 1.0) if center is None else (center - 1.0, center + 1.0)
    if center is not None:
        half = max(abs(hi - center), abs(lo - center)) or 1.0
        return Normalize(center - half, center + half)
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    return Normalize(lo, hi)


def decimals(ci: float | None, default: int = 2) -> int:
    """Decimals that show a 95% half-width to one significant digit (and its
    value to the same): 0.47 -> 1, 0.012 -> 2, 3.2 -> 0."""
    if ci is None or not math.isfinite(ci) or ci <= 0:
        return default
    return max(0, -math.floor(math.log10(ci)))


def cell_text(value: float | None, ci: float | None = None, scale: float = 1.0,
              places: int | None = None, max_places: int | None = None) -> str:
    """A cell's text: the value, and below it ``±`` its 95% half-width, both
    times ``scale``. The half-width shows one significant digit; the value
    as many decimals (or ``places``), at most ``max_places`` (to keep a
    narrow cell's text inside it)."""
    if value is None or not math.isfinite(value):
        return MISSING
    ci = None if ci is None or not math.isfinite(ci) else ci * abs(scale)
    if ci == 0:        # no spread at all (a pair that never beat the other): say so plainly
        d = places if places is not None else (max_places if max_places is not None else 2)
        return f"{value * scale:.{d}f}\n±0"
    d_ci = decimals(ci)
    d = d_ci if places is None else places
    if max_places is not None:        # a narrow cell: the value gets no more decimals, the ± one more
        d = min(d, max_places)
        if d_ci > max_places + 1:     # too fine to show: round the half-width up, never to a false 0
            d_ci = max_places + 1
            ci = math.ceil(ci * 10 ** d_ci) / 10 ** d_ci
    out = f"{value * scale:.{d}f}"
    return out if ci is None else f"{out}\n±{ci:.{d_ci}f}"


def interval_text(value: float | None, lo: float | None, hi: float | None, scale: float = 1.0,
                  places: int = 2) -> str:
    """A cell's text for an asymmetric interval: the value and ``[lo, hi]`` below."""
    if value is None or not math.isfinite(value):
        return MISSING
    out = f"{value * scale:.{places}f}"
    if lo is None or hi is None:
        return out
    return f"{out}\n[{lo * scale:.{places}f}, {hi * scale:.{places}f}]"


def _cells(marks: Iterable[tuple[int, int]] | None, shape: tuple[int, int]) -> list[tuple[int, int]]:
    out = []
    for r, c in marks or ():
        if not (0 <= r < shape[0] and 0 <= c < shape[1]):
            raise ValueError(f"mark ({r}, {c}) lies outside the {shape[0]}x{shape[1]} matrix")
        out.append((int(r), int(c)))
    return out


def draw(ax, values, row_labels: Sequence, col_labels: Sequence, *, text=None,
         stars: Iterable[tuple[int, int]] | None = None, boxes: Iterable[tuple[int, int]] | None = None,
         cmap: str | None = None, center: float | None = None, vmin: float | None = None,
         vmax: float | None = None, cbar_label: str | None = None, colorbar: bool = True,
         xlabel: str | None = None, ylabel: str | None = None, title: str | None = None,
         fontsize: float = FONT):
    """Draw ``values`` (rows x columns; None or NaN = missing) on ``ax``.

    ``text``: a matrix of strings, one per cell (default: the value to 3
    significant digits); ``stars`` and ``boxes``: (row, column) cells to
    mark (:func:`marks_legend` says what they mean). Rows run top to bottom
    in the order given. Returns
    the image (and draws its colour bar, labelled ``cbar_label``, unless
    ``colorbar`` is False)."""
    m = as_matrix(values)
    rows, cols = m.shape
    if len(row_labels) != rows or len(col_labels) != cols:
        raise ValueError(f"{len(row_labels)} row and {len(col_labels)} column labels for a "
                         f"{rows}x{cols} matrix")
    if text is not None and (len(text) != rows or any(len(t) != cols for t in text)):
        raise ValueError("the cell text must have the matrix's shape")
    cm = colormaps[cmap or (DIVERGING if center is not None else SEQUENTIAL)].with_extremes(bad=MISSING_COLOUR)
    nm = norm(m, center, vmin, vmax)
    image = ax.imshow(np.ma.masked_invalid(m), cmap=cm, norm=nm, aspect="auto", interpolation="nearest")
    for r in range(rows):
        for c in range(cols):
            v = m[r, c]
            if text is not None:
                label = text[r][c]
            else:
                label = MISSING if not math.isfinite(v) else f"{v:.3g}"
            colour = "black" if not math.isfinite(v) else text_colour(cm(nm(v)))
            ax.text(c, r, label, ha="center", va="center", color=colour, fontsize=fontsize,
                    linespacing=1.1)
    star_cells, box_cells = _cells(stars, m.shape), _cells(boxes, m.shape)
    for r, c in star_cells:
        # in the cell's text colour: black on a light cell, white on a dark one
        ink = "black" if not math.isfinite(m[r, c]) else text_colour(cm(nm(m[r, c])))
        ax.plot(c + 0.35, r - 0.37, marker="*", markersize=9.5, color=ink, markeredgewidth=0.6,
                linestyle="none")
    for r, c in box_cells:
        ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=3.2))
        ax.add_patch(Rectangle((c - 0.45, r - 0.45), 0.9, 0.9, fill=False, edgecolor="white", linewidth=1.2))
    ax.set_xticks(range(cols), [str(x) for x in col_labels], fontsize=fontsize)
    ax.set_yticks(range(rows), [str(x) for x in row_labels], fontsize=fontsize)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    if xlabel:
        ax.set_xlabel(xlabel, fontsize=fontsize + 1)
    if ylabel:
        ax.set_ylabel(ylabel, fontsize=fontsize + 1)
    if title:
        ax.set_title(title, fontsize=fontsize + 2)
    if colorbar:
        bar = ax.figure.colorbar(image, ax=ax, fraction=0.05, pad=0.02)
        bar.ax.tick_params(labelsize=fontsize)
        if cbar_label:
            bar.set_label(cbar_label, fontsize=fontsize)
    return image


def outline(ax, mask, colour: str = "#d55e00", linewidth: float = 2.6):
    """Draw the border of the cells where ``mask`` (rows x columns of
    bools) is true: every cell edge between such a cell and one that is not,
    or the edge of the grid. A contour on a grid of swept values (say,
    where eliminations pass 5%). Returns the number of edges drawn."""
    m = np.asarray(mask, dtype=bool)
    rows, cols = m.shape
    drawn = 0
    for r in range(rows):
        for c in range(cols):
            if not m[r, c]:
                continue
            for dr, dc, xs, ys in ((-1, 0, (c - 0.5, c + 0.5), (r - 0.5, r - 0.5)),
                                   (1, 0, (c - 0.5, c + 0.5), (r + 0.5, r + 0.5)),
                                   (0, -1, (c - 0.5, c - 0.5), (r - 0.5, r + 0.5)),
                                   (0, 1, (c + 0.5, c + 0.5), (r - 0.5, r + 0.5))):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < rows and 0 <= cc < cols) or not m[rr, cc]:
                    ax.plot(xs, ys, color=colour, linewidth=linewidth, solid_capstyle="projecting")
                    drawn += 1
    return drawn


def marks_legend(fig, star_label: str | None = None, box_label: str | None = None,
                 fontsize: float = FONT):
    """One legend at the foot of ``fig`` saying what the star and the box mean
    (either may be left out; nothing is drawn without a label)."""
    handles = []
    if star_label:
        handles.append(Line2D([], [], marker="*", markersize=9.5, color="black", linestyle="none",
                              label=star_label))
    if box_label:
        handles.append(Rectangle((0, 0), 1, 1, fill=False, edgecolor="black", linewidth=2.5, label=box_label))
    if not handles:
        return None
    return fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=fontsize,
                      frameon=False)
