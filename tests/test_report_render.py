"""The `zsim report` renderer: links, PNGs, number formats, escaping, and the
all-or-nothing way it writes its folder."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import polars as pl
import pytest
from PIL import Image

from analyses.report import format_ci, format_float, write_report
from analyses.result import AnalysisResult
from zsim.errors import OutputError, ZsimError

META = {
    "zsim version": "0.test",
    "date": "2024-01-02",
    "rules": {"payday_cost": 2, "over_cap": "penalize"},
    "deck": "jobs.csv",
    "seeds": [1, 2, 3],
    "field": ["simple", "random"],
    "games per point": 1000,
    "elapsed s": 3.14159,
}
COMMAND = "zsim report --games 1000 --seed 1 --out rep"


def _errorbar_figure():
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.errorbar([1, 2, 3], [0.2, 0.25, 0.3], yerr=[0.01, 0.02, 0.015], fmt="o-")
    ax.set_xlabel("hand size")
    return fig


def _results() -> list[AnalysisResult]:
    win = pl.DataFrame({
        "strategy": ["simple", "random <b>"],
        "win_share": [0.25, 0.5],
        "win_share_ci95": [0.003, 0.0126],
        "games": [1000, 2000],
        "mean_money": [None, 12.34567],
    })
    r1 = AnalysisResult(
        name="win-share",
        title="Win share <script>alert(1)</script>",
        summary="Seats | shares & <script>evil()</script> more.",
        tables={"Win share by seat": win},
        figures={"Win share with 95% CI": _errorbar_figure()},
        meta={"games": 1000, "seed": 1},
    )
    sweep = pl.DataFrame({
        "hand_size": [5, 6, 7],
        "cost": [float("nan"), 123456.7, 9.99996],
        "cost_ci95": [0.5, 2.0, None],
    })
    fig2, ax2 = plt.subplots()
    ax2.plot([5, 6, 7], [1, 2, 3])
    r2 = AnalysisResult(
        name="hand-size",
        title="Hand size against payday cost",
        summary="A sweep, *not* emphasis.",
        tables={"Sweep": sweep, "Extra": pl.DataFrame({"a": [1]})},
        figures={"Cost": fig2, "Cost again [bars]": _errorbar_figure()},
    )
    return [r1, r2]


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[str] = []
        self.img_src: list[str] = []
        self.ids: set[str] = set()
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for k, v in attrs:
            if k in ("src", "href") and v is not None:
                self.refs.append(v)
                if tag == "img" and k == "src":
                    self.img_src.append(v)
            if k == "id" and v:
                self.ids.add(v)


def _parse(html_path: Path) -> _Links:
    p = _Links()
    p.feed(html_path.read_text(encoding="utf-8"))
    return p


def _md_images(md: str) -> list[str]:
    return re.findall(r"!\[(?:\\.|[^\]\\])*\]\(([^)]+)\)", md)


def _hidden_leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


pytestmark = pytest.mark.usefixtures("no_open_figures")


@pytest.fixture
def rendered(tmp_path):
    out = tmp_path / "rep"
    html_path, md_path = write_report(_results(), META, COMMAND, out)
    return out, html_path, md_path


def test_returns_paths_and_closes_figures(rendered):
    out, html_path, md_path = rendered
    assert html_path == out / "index.html" and html_path.is_file()
    assert md_path == out / "report.md" and md_path.is_file()
    assert plt.get_fignums() == []
    assert _hidden_leftovers(out.parent) == []


def test_html_links_resolve(rendered):
    out, html_path, _ = rendered
    links = _parse(html_path)
    assert "script" not in links.tags
    assert len(links.img_src) == 3
    assert sorted(links.img_src) == ["figures/hand-size-1.png", "figures/hand-size-2.png",
                                     "figures/win-share-1.png"]
    checked_files = 0
    for ref in links.refs:
        assert "://" not in ref and not ref.startswith("//"), ref
        if ref.startswith("#"):
            assert ref[1:] in links.ids, ref
        else:
            assert not ref.startswith("/"), ref
            assert (out / ref).is_file(), ref
            checked_files += 1
    assert checked_files == 3
    text = html_path.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text


def test_pngs_are_images(rendered):
    out, _, _ = rendered
    pngs = sorted((out / "figures").iterdir())
    assert [p.name for p in pngs] == ["hand-size-1.png", "hand-size-2.png", "win-share-1.png"]
    for p in pngs:
        assert p.stat().st_size > 0
        with Image.open(p) as im:
            im.verify()
        with Image.open(p) as im:
            assert im.format == "PNG"
            w, h = im.size
            assert w > 0 and h > 0


def test_markdown_references_same_pngs(rendered):
    out, html_path, md_path = rendered
    md_refs = _md_images(md_path.read_text(encoding="utf-8"))
    assert sorted(md_refs) == sorted(_parse(html_path).img_src)
    for ref in md_refs:
        assert (out / ref).is_file()


def test_numbers_formatted(rendered):
    _, html_path, md_path = rendered
    text = html_path.read_text(encoding="utf-8")
    md = md_path.read_text(encoding="utf-8")
    # the _ci95 column merged into its value column, at the value's place
    assert ('<thead><tr><th>strategy</th><th class="num">win_share</th>'
            '<th class="num">games</th><th class="num">mean_money</th></tr></thead>') in text
    assert "win_share_ci95" not in text and "win_share_ci95" not in md
    assert '<td class="num">0.2500 ± 0.0030</td>' in text
    assert '<td class="num">0.500 ± 0.013</td>' in text
    assert "| simple | 0.2500 ± 0.0030 | 1000 | \u2013 |" in md
    assert "| random &lt;b&gt; | 0.500 ± 0.013 | 2000 | 12.35 |" in md
    assert "| strategy | win_share | games | mean_money |" in md
    assert "|---|---:|---:|---:|" in md
    # NaN value, value with an integer-sized ci, a missing ci
    assert "| 5 | \u2013 |" in md
    assert "| 6 | 123456.7 ± 2.0 |" in md
    assert "| 7 | 10.00 |" in md
    # run metadata, compactly
    assert "| seeds | 1, 2, 3 |" in md
    assert "| rules | payday_cost=2, over_cap=penalize |" in md
    assert "| elapsed s | 3.142 |" in md
    assert "<tr><th>field</th><td>simple, random</td></tr>" in text
    # the command in a code block, in both
    assert f"<pre><code>{COMMAND}</code></pre>" in text
    assert f"```sh\n{COMMAND}\n```" in md


def test_format_rules():
    assert format_float(0.25) == "0.2500"
    assert format_float(12.3456) == "12.35"
    assert format_float(123456.7) == "123457"
    assert format_float(9.99996) == "10.00"
    assert format_float(-0.001234567) == "-0.001235"
    assert format_float(0.0) == "0"
    assert format_float(1e-7) == "1.000e-07"
    assert format_float(float("nan")) == "\u2013"
    assert format_float(None) == "\u2013"
    assert format_float(float("-inf")) == "-inf"
    assert format_ci(0.25, 0.003) == "0.2500 ± 0.0030"
    assert format_ci(0.25, 0.0996) == "0.25 ± 0.10"
    assert format_ci(1234.5, 12.3) == "1234 ± 12"
    assert format_ci(None, 0.1) == "\u2013"
    assert format_ci(0.3, None) == "0.3000"
    assert format_ci(0.3, float("nan")) == "0.3000"


def test_text_is_escaped(rendered):
    _, html_path, md_path = rendered
    for text in (html_path.read_text(encoding="utf-8"), md_path.read_text(encoding="utf-8")):
        assert "<script" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "&lt;script&gt;evil()&lt;/script&gt;" in text
    md = md_path.read_text(encoding="utf-8")
    assert "![Cost again \\[bars\\]](figures/hand-size-2.png)" in md
    assert "Seats \\| shares &amp; &lt;script&gt;evil()&lt;/script&gt; more." not in md  # only cells
    assert "A sweep, \\*not\\* emphasis." in md
    assert "Seats | shares &amp; &lt;script&gt;evil()&lt;/script&gt; more." in md


def test_toc_and_section_order(rendered):
    _, html_path, md_path = rendered
    text = html_path.read_text(encoding="utf-8")
    order = ["zsim report", "zsim version", "Contents", "Win share &lt;script&gt;",
             "Win share by seat", "figures/win-share-1.png", "Hand size against payday cost",
             "Sweep", "Extra", "figures/hand-size-1.png", "figures/hand-size-2.png"]
    pos = 0
    for s in order:                      # each found after the one before it
        pos = text.index(s, pos) + len(s)
    assert text.count("<section") == 2
    md = md_path.read_text(encoding="utf-8")
    assert "1. [Win share &lt;script&gt;alert(1)&lt;/script&gt;](#sec-1-win-share)" in md
    assert "2. [Hand size against payday cost](#sec-2-hand-size)" in md
    assert '<a name="sec-2-hand-size"></a>' in md


def test_rerender_replaces_existing_report(rendered):
    out, _, _ = rendered
    only_second = _results()[1:]
    write_report(only_second, {"zsim version": "0.test"}, "zsim report again", out)
    assert not (out / "figures" / "win-share-1.png").exists()
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["hand-size-1.png",
                                                                   "hand-size-2.png"]
    text = (out / "index.html").read_text(encoding="utf-8")
    assert "Win share" not in text and "zsim report again" in text
    assert "zsim report again" in (out / "report.md").read_text(encoding="utf-8")
    assert _hidden_leftovers(out.parent) == []


def test_empty_existing_folder_is_used(tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    write_report(_results(), META, COMMAND, out)
    assert (out / "index.html").is_file()


def test_refuses_foreign_folder(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("precious")
    (out / "index.html").write_text("not a report: no report.md beside it")
    before = sorted((p.name, p.read_bytes()) for p in out.iterdir())
    with pytest.raises(ZsimError) as err:
        write_report(_results(), META, COMMAND, out)
    msg = str(err.value)
    assert "\n" not in msg and "no zsim report manifest" in msg and str(out) in msg
    assert "notes.txt" in msg
    assert sorted((p.name, p.read_bytes()) for p in out.iterdir()) == before
    assert _hidden_leftovers(tmp_path) == []
    assert plt.get_fignums() == []


def test_refuses_a_file(tmp_path):
    out = tmp_path / "rep"
    out.write_text("a file")
    with pytest.raises(ZsimError, match="not a folder"):
        write_report(_results(), META, COMMAND, out)
    assert out.read_text() == "a file"
    assert _hidden_leftovers(tmp_path) == []


def _failing(results: list[AnalysisResult]) -> list[AnalysisResult]:
    fig = results[1].figures["Cost again [bars]"]

    def boom(*args, **kwargs):
        raise RuntimeError("disk on fire")

    fig.savefig = boom
    return results


def test_failure_mid_render_leaves_nothing(tmp_path):
    out = tmp_path / "rep"
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_report(_failing(_results()), META, COMMAND, out)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []
    assert plt.get_fignums() == []


def test_failure_keeps_previous_report(rendered):
    out, _, _ = rendered
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_report(_failing(_results()), {"other": 1}, "other command", out)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert _hidden_leftovers(out.parent) == []


def test_no_results_still_renders(tmp_path):
    html_path, md_path = write_report([], {}, ["zsim", "report", "--out", "a b"], tmp_path / "r")
    text = html_path.read_text(encoding="utf-8")
    assert "(no analyses)" in text
    assert "zsim report --out &#x27;a b&#x27;" in text
    assert "zsim report --out 'a b'" in md_path.read_text(encoding="utf-8")


def test_failed_swap_restores_previous_report(rendered, monkeypatch):
    """If the finished report cannot be renamed into place, the old one that
    was moved aside comes back and no hidden folder is left."""
    import os

    out, _, _ = rendered
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    real_rename = os.rename

    def rename(src, dst):
        if ".rep.tmp-" in os.fspath(src):
            raise OSError("rename refused")
        return real_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(OutputError, match="rename refused"):
        write_report(_results(), {"other": 1}, "other command", out)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert _hidden_leftovers(out.parent) == []
