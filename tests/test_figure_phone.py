"""A multi-panel figure laid out again as one column for a phone
(analyses.figure_phone), and the report that shows it on narrow screens."""
from __future__ import annotations

import json

import matplotlib
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from analyses import common
from analyses.figure_phone import stack_for_phone
from analyses.report import write_report
from analyses.result import AnalysisResult

matplotlib.use("Agg")


def _row_of_panels(n: int = 3, sharey: bool = True):
    fig, axes = common.figure(ncols=n, width=4.5, height=3.4, sharey=sharey)
    for i, ax in enumerate(axes[0]):
        for p, marker in ((2, "o"), (3, "s"), (4, "^"), (5, "D")):
            ax.errorbar([0, 1, 2], [p + i, p + i + 1, p], yerr=[0.1] * 3, marker=marker, label=f"{p} players")
        ax.set_title(f"panel {i}")
        ax.set_xlabel("payday cost")
    axes[0][0].set_ylabel("win share")
    common.legend_below(fig, axes[0][0], ncols=4)
    fig.suptitle("What payday cost does")
    return fig, list(axes[0])


def _places(axes) -> list[tuple[float, float]]:
    return [(round(ax.get_position().x0, 3), round(ax.get_position().y0, 3)) for ax in axes]


def _kinds(legend) -> list[str]:
    return [type(h).__name__ for h in legend.legend_handles]


def test_panels_side_by_side_become_one_column_that_keeps_every_label():
    fig, axes = _row_of_panels()
    drawn = _kinds(fig.legends[0])
    assert stack_for_phone(fig, max_width_in=4.0)
    fig.draw_without_rendering()
    xs = {x for x, _ in _places(axes)}
    ys = [y for _, y in _places(axes)]
    assert len(xs) == 1 and ys == sorted(ys, reverse=True)            # one column, in reading order
    assert [ax.get_title() for ax in axes] == ["panel 0", "panel 1", "panel 2"]
    for ax in axes:                                                     # a shared axis no longer lines up
        assert ax.get_ylabel() == "win share"
        assert any(t.get_visible() and t.get_text() for t in ax.get_yticklabels())
    width, height = fig.get_size_inches()
    assert width == 4.0 and height == 3 * 3.4
    legend = fig.legends[0]                                             # folded in two, markers kept
    assert legend._ncols == 2 and [t.get_text() for t in legend.get_texts()][:2] == ["2 players", "3 players"]
    assert len(fig.legends) == 1 and _kinds(legend) == drawn           # the error bars' own handles


def test_a_panel_is_never_drawn_narrower_than_a_phone_can_read_or_wider_than_it_was():
    fig, _ = _row_of_panels(sharey=False)
    assert stack_for_phone(fig, max_width_in=1.0)
    assert fig.get_size_inches()[0] == 3.0                              # PANEL_MIN_IN
    fig, _ = _row_of_panels(sharey=False)
    assert stack_for_phone(fig, max_width_in=20.0)
    assert fig.get_size_inches()[0] == 4.5                              # its own width


def test_nothing_to_stack_leaves_the_figure_as_it_was():
    heat, axes = common.figure(width=6)
    axes[0][0].imshow(np.arange(12).reshape(3, 4))          # a heatmap's one panel scrolls instead
    narrow, axes = common.figure(width=3.5)
    axes[0][0].plot([1, 2], [3, 4])                            # already as narrow as a phone
    column, _ = common.figure(nrows=3)
    for fig in (heat, narrow, column):
        size = tuple(fig.get_size_inches())
        assert not stack_for_phone(fig, 4.0)
        assert tuple(fig.get_size_inches()) == size


def test_a_single_wide_panel_of_lines_is_drawn_at_the_phone_width():
    fig, axes = common.figure(width=6, height=3)
    for i in range(4):
        axes[0][0].plot([1, 2, 3], [3, 4, i], label=f"line {i}")
    fig.legend(loc="outside lower center", ncols=4)
    assert stack_for_phone(fig, 4.0)
    assert tuple(fig.get_size_inches()) == (4.0, 3.0)
    assert fig.legends[0]._ncols == 2                               # the legend folds as for a stack


def test_an_empty_slot_of_the_grid_is_left_out_and_colour_bars_follow_their_panels():
    fig, axes = common.figure(ncols=2, nrows=2, width=4, height=3)
    for ax in axes.flat[:3]:
        image = ax.imshow(np.arange(12).reshape(3, 4))
        fig.colorbar(image, ax=ax)
    axes[1][1].axis("off")
    assert stack_for_phone(fig, 4.0)
    fig.draw_without_rendering()
    assert not axes[1][1].get_visible()
    assert fig.get_size_inches()[1] == 3 * 3
    shown = [axes[0][0], axes[0][1], axes[1][0]]
    ys = [ax.get_position().y0 for ax in shown]
    assert ys == sorted(ys, reverse=True) and len({round(ax.get_position().x0, 3) for ax in shown}) == 1
    bars = [ax for ax in fig.axes if ax not in axes.flat]
    assert len(bars) == 3
    for bar, ax in zip(bars, shown):                                   # each bar beside its own panel
        middle = (ax.get_position().y0 + ax.get_position().y1) / 2
        assert bar.get_position().y0 < middle < bar.get_position().y1
        assert bar.get_position().x0 > ax.get_position().x1


def test_a_plugin_figure_without_a_layout_engine_is_stacked_too():
    fig = Figure(figsize=(12, 3))
    fig.subplots(1, 3)
    assert stack_for_phone(fig, 4.0)
    assert fig.get_layout_engine() is not None


def test_the_report_writes_a_stacked_png_and_shows_it_on_a_phone(tmp_path):
    fig, _ = _row_of_panels()
    single, ax = common.figure()
    ax[0][0].plot([1, 2], [3, 4])
    r = AnalysisResult("cost", "Payday cost", "What it does.", {"t": pl.DataFrame({"a": [1]})},
                       {"Three panels": fig, "One panel": single})
    write_report([r], {"seed": 1}, "zsim report", tmp_path / "rep")
    figures = sorted(p.name for p in (tmp_path / "rep" / "figures").iterdir())
    assert figures == ["cost-1-phone.png", "cost-1.png", "cost-2-phone.png", "cost-2.png"]
    html = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert html.count("<picture>") == 2
    assert '<source media="(max-width: 40rem)" srcset="figures/cost-1-phone.png"' in html
    assert "--phone-min-width:" in html and "data-phone" in html
    assert "phone" not in (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    manifest = json.loads((tmp_path / "rep" / ".zsim-report.json").read_text(encoding="utf-8"))
    assert "figures/cost-1-phone.png" in json.dumps(manifest)
