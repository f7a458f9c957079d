"""A figure of panels side by side, laid out again as one column for a phone.

A report's multi-panel figures (a panel per player count, per rule, per
measure) are drawn for a laptop: three or four panels in a row, 12 to 17
inches wide. Shrunk to a 390 px phone their tick labels would fall to 4 px;
scrolled sideways, a reader sees one panel at a time and loses the others.
So the report draws each such figure a second time with its panels stacked,
one under the other, each about as wide as a phone, and the page's
``<picture>`` shows that version on narrow screens.

The re-layout works on the figure that was drawn, not on the analysis code:
every panel keeps its data, titles, colours and colour bars; only its place
changes. It needs what every zsim figure has: panels from one grid
(:func:`analyses.common.figure`, ``Figure.subplots``) laid out by
matplotlib's constrained layout (a figure without a layout engine, a
plugin's, gets it for its phone version), which then places the colour bars
and the legend under the figure again.
Panels that shared an axis get their tick labels back (the shared axis no
longer lines up), a shared y label is repeated beside every panel, a legend
under the figure folds into two columns and a long title wraps.
"""
from __future__ import annotations

#: widest a figure may be drawn for a phone (inches at the report's dpi),
#: chosen by the caller so that its smallest text stays readable
PANEL_MIN_IN = 3.0


def stack_for_phone(fig, max_width_in: float) -> bool:
    """Lay `fig`'s panels out as one column, each at most `max_width_in`
    wide (and no wider than it was); a single panel of lines wider than
    that is drawn narrower. False, leaving the figure untouched, when there
    is nothing to change (a panel that fits, a heatmap's single panel, a
    single column, or panels from more than one grid)."""
    axes = [ax for ax in fig.axes if ax.get_subplotspec() is not None]
    if len(axes) == 1:
        return _narrower(fig, axes[0], max_width_in)
    if len(axes) < 2:
        return False
    grids = {id(ax.get_subplotspec().get_gridspec()) for ax in axes}
    if len(grids) != 1:
        return False
    nrows, ncols = axes[0].get_subplotspec().get_gridspec().get_geometry()
    if ncols < 2:
        return False
    shown = [ax for ax in axes if ax.get_visible() and (ax.axison or ax.has_data() or ax.texts)]
    if len(shown) < 2:
        return False
    for ax in axes:
        if ax not in shown:           # an empty slot of the grid: nothing to stack
            ax.set_visible(False)
    shown.sort(key=lambda ax: (ax.get_subplotspec().rowspan.start, ax.get_subplotspec().colspan.start))
    row_label = {}
    for ax in shown:
        row = ax.get_subplotspec().rowspan.start
        if ax.get_ylabel() and row not in row_label:
            row_label[row] = ax.get_ylabel()
    width, height = fig.get_size_inches()
    if fig.get_layout_engine() is None:   # a plugin's figure placed by hand: let matplotlib place the column
        fig.set_layout_engine("constrained")
    column = fig.add_gridspec(len(shown), 1)
    for i, ax in enumerate(shown):
        row = ax.get_subplotspec().rowspan.start
        ax.set_subplotspec(column[i, 0])
        ax.tick_params(labelleft=True, labelbottom=True)
        if not ax.get_ylabel() and row in row_label:
            ax.set_ylabel(row_label[row])
    panel_w = max(PANEL_MIN_IN, min(width / ncols, max_width_in))
    panel_h = height / nrows
    _fold_legends(fig)
    if fig._suptitle is not None:
        fig._suptitle.set_wrap(True)
    fig.set_size_inches(panel_w, panel_h * len(shown))
    return True


def _fold_legends(fig) -> None:
    """A legend placed outside the panels in one long row (as wide as the
    laptop figure) is drawn again in two columns; a legend matplotlib placed
    any other way stays as it is."""
    for old in list(fig.legends):
        side = getattr(old, "_outside_loc", None)
        where = {code: name for name, code in old.codes.items()}.get(old._loc, "")
        if not side or not where.startswith(side) or getattr(old, "_ncols", 1) <= 2:
            continue
        labels = [t.get_text() for t in old.get_texts()]
        fontsize = old.get_texts()[0].get_fontsize() if labels else None
        drawn = {}                    # the artists the panels drew (an error bar keeps its marker)
        for ax in fig.axes:
            for handle, label in zip(*ax.get_legend_handles_labels()):
                drawn.setdefault(label, handle)
        handles = [drawn.get(label) for label in labels]
        if None in handles:
            handles = old.legend_handles
        old.remove()
        fig.legend(handles, labels, loc=f"outside {where}", ncols=2, fontsize=fontsize,
                   frameon=old.get_frame_on())


def _narrower(fig, ax, max_width_in: float) -> bool:
    """A single panel of lines and points wider than a phone, drawn at the
    phone's width (its height kept); False for one that writes text in its
    cells (a heatmap, whose annotations would run together: it scrolls)."""
    width, height = fig.get_size_inches()
    if ax.texts or ax.images or width <= max(max_width_in, PANEL_MIN_IN) * 1.05:
        return False
    if fig.get_layout_engine() is None:
        fig.set_layout_engine("constrained")
    _fold_legends(fig)
    if fig._suptitle is not None:
        fig._suptitle.set_wrap(True)
    fig.set_size_inches(max(PANEL_MIN_IN, max_width_in), height)
    return True
