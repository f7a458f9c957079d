"""The report page in a real browser: headless Chromium lays it out at a
laptop's 1280 px and a phone's 390 px, and nothing may make the page scroll
sideways (tables scroll in their own boxes), every figure must load and be
shown large enough to read, and every table must sit in its scroll box.

How the page is measured: tests/browser.py. Without Chromium at
/usr/bin/chromium these tests fail (they never skip): `make test` installs it
(tools/chromium.sh).
"""
from __future__ import annotations

import re

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest

import browser
from analyses.report import write_report
from analyses.result import AnalysisResult

EXAMPLE = Path(__file__).parents[1] / "reports" / "example" / "index.html"
ZAHLEMANN = Path(__file__).parents[1] / "reports" / "zahlemann" / "index.html"
BAUMEISTER = Path(__file__).parents[1] / "reports" / "baumeister" / "index.html"

pytestmark = pytest.mark.usefixtures("no_open_figures")


def _fig(width_in: float, height_in: float, panels: int = 1):
    fig, axes = plt.subplots(1, panels, figsize=(width_in, height_in), squeeze=False)
    for ax in axes[0]:
        ax.errorbar([2, 3, 4], [0.5, 0.33, 0.25], yerr=[0.02, 0.02, 0.02], marker="o")
        ax.set_xlabel("players")
    return fig


def _synthetic() -> list[AnalysisResult]:
    """A page made to overflow: a 30-column table, a folded wide grid, long
    unbroken text, and figures of every width, a wide one included."""
    # six rows: too many to turn (analyses.report_tables), so it must scroll
    wide = pl.DataFrame({"rule_value": [f"payday_cost={c}" for c in range(6)]}
                        | {f"metric_number_{i:02d}": [0.123456 * i * c for c in range(1, 7)] for i in range(1, 30)}
                        | {f"metric_number_{i:02d}_ci95": [0.0012] * 6 for i in range(1, 30)})
    rates = pl.DataFrame({"players": [2, 3, 4], "elimination_rate": [0.0, 0.00001, 0.25],
                          "elimination_rate_lo": [0.0, 0.0000018, 0.2467],
                          "elimination_rate_hi": [0.00019, 0.000057, 0.2533]})
    grid = pl.DataFrame({"row": [f"{'x' * 10}{r}" for r in range(6)]}
                        | {f"column_{i}": [i * 1.5 + r for r in range(6)] for i in range(40)})
    r1 = AnalysisResult(
        name="wide", title="A very wide table and " + "unbroken" * 20,
        summary="Words " * 80 + "and one " + "verylongunbrokenword" * 10 + ".",
        tables={"Thirty columns": wide, "Rates": rates, "Forty columns, folded": grid},
        figures={"One panel": _fig(6, 4), "Another panel": _fig(6, 4), "Five panels": _fig(16, 3.5, 5),
                 "A heatmap": _heatmap(9, 4)},
        meta={"field": ["simple"] * 30, "token": "z" * 300},
        details=("Forty columns, folded",), wide=("A heatmap",),
        findings=["A finding with a " + "long" * 40 + " word.", "Another finding."],
    )
    r2 = AnalysisResult(name="small", title="A small one", summary="Short.",
                        tables={"Rates": rates}, figures={"Small": _fig(3, 2)})
    return [r1, r2]


@pytest.fixture(scope="module")
def synthetic_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser") / "report"
    command = "zsim report " + " ".join(f"--rule option_{i}=value_{i}" for i in range(40)) + " --out " + "d" * 200
    meta = {"zsim version": "0.test", "machine": "a" * 400, "rules": {f"k{i}": i for i in range(50)}}
    html, _ = write_report(_synthetic(), meta, command, out, findings=["The page fits. " * 30, "x" * 500])
    plt.close("all")
    return html


@pytest.fixture(scope="module")
def synthetic(synthetic_page):
    return browser.measure_page(synthetic_page)


def _report(problems: list[str], limit: int = 15) -> str:
    more = f"\n... and {len(problems) - limit} more" if len(problems) > limit else ""
    return "\n".join(problems[:limit]) + more


def _check(measured: dict[int, dict]) -> None:
    for width in (browser.LAPTOP, browser.PHONE):
        m = measured[width]
        assert m["innerWidth"] == width
        found = browser.problems(m)                  # every figure's smallest text >= 10 CSS px
        assert not found, f"at {width} px:\n{_report(found)}"
        assert m["images"] and m["tables"]


def test_synthetic_report_fits_laptop_and_phone(synthetic):
    _check(synthetic)


def test_synthetic_report_really_has_to_scroll_its_tables(synthetic):
    """The check above means something only if the wide tables are wider
    than the page and scroll inside their boxes, and every image is seen."""
    for width in (browser.LAPTOP, browser.PHONE):
        m = synthetic[width]
        boxes = {b["label"]: b for b in m["boxes"]}
        for label in ("Thirty columns", "Forty columns, folded"):
            assert boxes[label]["scrollWidth"] > width > boxes[label]["clientWidth"], (width, boxes[label])
        # a narrow table fits, however long the unbroken words of its caption
        rates = [b for label, b in boxes.items() if label.startswith("Rates")]
        assert len(rates) == 2
        assert all(b["scrollWidth"] <= b["clientWidth"] for b in rates), rates
        assert len(m["images"]) == 5 and all(img["linked"] for img in m["images"])
        assert len(m["tables"]) == 5          # run metadata + 3 + 1
        # the figures are laid out, not squeezed to nothing
        assert all(img["shownWidth"] > 0.8 * m["clientWidth"] or img["shownWidth"] >= img["naturalWidth"] - 1
                   for img in m["images"] if img["naturalWidth"] > 1000)


def _heatmap(width_in: float, height_in: float):
    fig, ax = plt.subplots(figsize=(width_in, height_in))
    ax.imshow(np.arange(24).reshape(3, 8))
    for j in range(8):
        ax.text(j, 1, f"{j:.1f}", ha="center")
    return fig


def test_a_phone_stacks_the_figures_and_a_laptop_does_not(synthetic):
    laptop, phone = synthetic[browser.LAPTOP], synthetic[browser.PHONE]
    one_panel = {img["src"]: img for img in laptop["images"]}["figures/wide-1.png"]
    assert one_panel["shownWidth"] == pytest.approx(one_panel["naturalWidth"], abs=1)   # natural size
    for img in phone["images"]:
        # it fits the phone, or it keeps its smallest text readable and scrolls in its own box
        text = img["shownWidth"] / img["naturalWidth"] * img["textPx"]
        assert img["shownWidth"] <= phone["clientWidth"] or (img["inBox"] and text >= browser.READABLE_PX - 0.05)
    # five panels side by side: a phone shows them stacked, whole and readable, and a laptop in a row
    five = {img["src"]: img for img in phone["images"]}["figures/wide-3.png"]
    assert five["shown"] == "wide-3-phone.png" and five["naturalHeight"] > 3 * five["naturalWidth"]
    assert five["shownWidth"] <= phone["clientWidth"]
    assert five["shownWidth"] / five["naturalWidth"] * five["textPx"] >= browser.READABLE_PX - 0.05
    assert {img["src"]: img for img in laptop["images"]}["figures/wide-3.png"]["shown"] == "wide-3.png"
    # one wide panel of lines is drawn again at the phone's width; a heatmap's one panel scrolls instead
    one = {img["src"]: img for img in phone["images"]}["figures/wide-1.png"]
    assert one["shown"] == "wide-1-phone.png" and one["shownWidth"] <= phone["clientWidth"]
    assert one["shownWidth"] / one["naturalWidth"] * one["textPx"] >= browser.READABLE_PX - 0.05
    assert {img["src"]: img for img in phone["images"]}["figures/wide-4.png"]["shown"] == "wide-4.png"


def test_the_checker_sees_an_overflowing_page(synthetic_page):
    """Negative controls: the same page with the scroll boxes switched off,
    and with a 3000 px element, a broken image and a table left bare."""
    no_boxes = browser.measure_page(
        synthetic_page, extra_head="<style>.table-scroll { overflow-x: visible !important; }</style>")
    for width in (browser.LAPTOP, browser.PHONE):
        found = browser.problems(no_boxes[width])
        assert any(p.startswith("the document is ") for p in found), found
        assert any("does not scroll (overflow-x: visible)" in p for p in found), found

    broken = browser.measure_page(synthetic_page, extra_body=(
        '<div id="too-wide" style="width: 3000px; height: 4px"></div>'
        '<img src="figures/no-such.png" alt="missing" width="10" height="10">'
        "<table><caption>bare</caption><tr><td>1</td></tr></table>"))
    for width in (browser.LAPTOP, browser.PHONE):
        found = browser.problems(broken[width])
        assert any(p.startswith("div#too-wide spans ") and "(3000 px wide)" in p for p in found), found
        assert "image figures/no-such.png did not load" in found
        assert "table 'bare' is not in a .table-scroll box" in found


def test_the_checker_sees_a_figure_shown_too_small(synthetic_page):
    small = browser.measure_page(synthetic_page, widths=(browser.LAPTOP,), extra_head=(
        "<style>figure img { min-width: 0 !important; max-width: 200px !important; }</style>"))
    found = browser.problems(small[browser.LAPTOP])
    assert any(p.startswith("image figures/wide-3.png shows its smallest text at ") for p in found), found


@pytest.mark.parametrize("page", [EXAMPLE, ZAHLEMANN, BAUMEISTER], ids=["zahltag", "zahlemann", "baumeister"])
def test_committed_example_report_fits_laptop_and_phone(page):
    m = browser.measure_page(page)
    _check(m)
    # a figure of several panels is shown stacked on a phone, whole, and side by side on a laptop
    html = page.read_text(encoding="utf-8")
    stacked = set(re.findall(r'srcset="figures/([^"]+)-phone\.png"', html))
    assert stacked
    phone = {img["src"]: img for img in m[browser.PHONE]["images"]}
    for name in stacked:
        img = phone[f"figures/{name}.png"]
        assert img["shown"] == f"{name}-phone.png" and img["shownWidth"] <= m[browser.PHONE]["clientWidth"], img
    assert not any(img["shown"].endswith("-phone.png") for img in m[browser.LAPTOP]["images"])


def test_committed_reports_link_example_games_that_fit_and_step(page=BAUMEISTER):
    """"How games unfold" links three games a player count, each a viewer page
    in the report's games/ folder, where the report's own games are shown.
    (Baumeister's committed report has the section; Zahltag's and Zahlemann's
    gain it when they are next regenerated, an hour of the two cores.)"""
    html = page.read_text(encoding="utf-8")
    links = re.findall(r'<a href="(games/[^"]+\.html)">Step through ([^<]+)</a>', html)
    assert len(links) == 9, links                         # 3 examples at each of 2, 3 and 4 players
    for href, _ in links:
        assert (page.parent / href).is_file(), href
    first = page.parent / links[0][0]
    found = browser.measure_page(first, extra_body="""<script>
window.addEventListener("load", function () {
  document.getElementById("last").click();
  var counter = document.getElementById("counter");
  window.zsimMeasureExtra = function () { return {move: +counter.getAttribute("data-move"),
      marker: +document.getElementById("marker").getAttribute("data-move"), text: counter.textContent}; };
});
</script>""")
    for width, m in found.items():
        assert browser.problems(m) == [], (width, browser.problems(m))
        x = m["extra"]
        assert x["move"] == x["marker"] > 20 and x["text"] == f"move {x['move']} of {x['move']}"


def test_the_verdicts_fill_the_first_screen_and_read_on_a_phone(tmp_path):
    """The issue's test of a report's first screen: at 1280x800 the verdict
    box is all there is below the title, whole; at 390x844 the first
    verdict is on screen, in type no smaller than the page's body text."""
    from analyses import verdicts

    found = [verdicts.seats_from_shares([0.53, 0.47], [0.006, 0.006], 40_000, players) if players == 2 else
             verdicts.seats_from_shares([0.25] * players, [0.003] * players, 200_000)
             for players in (2, 3, 4)]
    found += [verdicts.edge("Skill", 27.0, 2.1, 3_000, subject=f"at {p} players ismcts against the simple field "
                            "wins 52.0% (par 25.0%), a lead of", effect="skill decides", no_effect="luck decides")
              for p in (2, 3, 4)]
    html, _ = write_report(_synthetic(), {"zsim version": "0.test"}, "zsim report --out r", tmp_path / "r",
                           findings=["A finding."] * 6, title="Wettstreit der Baumeister: zsim report",
                           verdicts=found)
    plt.close("all")
    m = browser.measure_page(html)
    laptop, phone = m[browser.LAPTOP]["verdicts"], m[browser.PHONE]["verdicts"]
    assert laptop["before"] == ["h1"] and phone["before"] == ["h1"]
    assert laptop["bottom"] <= 800, laptop
    assert phone["firstBottom"] <= 844 and phone["fontPx"] >= 16, phone
    _check(m)


def test_missing_chromium_fails_with_one_clear_line(monkeypatch, tmp_path):
    assert browser.MISSING_MESSAGE.format(path=browser.CHROMIUM) == (
        "headless Chromium not found at /usr/bin/chromium: "
        "install Debian's chromium (make test does: tools/chromium.sh)")
    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "no-chromium")
    page = tmp_path / "index.html"
    page.write_text("<html><head></head><body></body></html>")
    with pytest.raises(pytest.fail.Exception) as failed:
        browser.measure_page(page)
    assert str(failed.value) == f"headless Chromium not found at {tmp_path / 'no-chromium'}: " \
                                "install Debian's chromium (make test does: tools/chromium.sh)"
