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

from analyses.report import write_report
from analyses.report_format import display_table, format_ci, format_float, format_interval
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
    assert checked_files == 6            # each PNG: the image and the link around it
    text = html_path.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text


def test_pngs_are_images(rendered):
    out, _, _ = rendered
    pngs = sorted((out / "figures").iterdir())
    assert [p.name for p in pngs] == ["hand-size-1-phone.png", "hand-size-1.png", "hand-size-2.png",
                                      "win-share-1.png"]   # a 6.4 in panel of lines is drawn again for a phone
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
    # headers in plain words (analyses.report_tables.label)
    assert ('<thead><tr><th scope="col">Strategy</th><th scope="col" class="num">Win share</th>'
            '<th scope="col" class="num">Games</th><th scope="col" class="num">Mean money</th></tr></thead>'
            ) in text
    assert "win_share_ci95" not in text and "win_share_ci95" not in md
    assert '<tr><th scope="row">simple</th><td class="num">0.2500 ± 0.0030</td>' in text
    assert '<td class="num">0.500 ± 0.013</td>' in text
    assert "| simple | 0.2500 ± 0.0030 | 1000 | \u2013 |" in md
    assert "| random &lt;b&gt; | 0.500 ± 0.013 | 2000 | 12.35 |" in md
    assert "| Strategy | Win share | Games | Mean money |" in md
    assert "|---|---:|---:|---:|" in md
    # NaN value, value with an integer-sized ci, a missing ci
    assert "| 5 | \u2013 |" in md
    assert "| 6 | 123456.7 ± 2.0 |" in md
    assert "| 7 | 10.00 |" in md
    # run metadata, compactly
    assert "| seeds | 1, 2, 3 |" in md
    assert "| rules | payday_cost=2, over_cap=penalize |" in md
    assert "| elapsed s | 3.142 |" in md
    assert '<tr><th scope="row">field</th><td>simple, random</td></tr>' in text
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
    # a strategy that almost never wins: its share and interval in plain decimals
    assert format_ci(5e-6, 8.5e-6) == "0.0000050 ± 0.0000085"
    assert format_float(float("nan")) == "\u2013"
    assert format_float(None) == "\u2013"
    assert format_float(float("-inf")) == "-inf"
    assert format_ci(0.25, 0.003) == "0.2500 ± 0.0030"
    assert format_ci(0.25, 0.0996) == "0.25 ± 0.10"
    assert format_ci(1234.5, 12.3) == "1234 ± 12"
    assert format_ci(None, 0.1) == "\u2013"
    assert format_ci(0.3, None) == "0.3000"
    assert format_ci(0.3, float("nan")) == "0.3000"
    # a mean no game moved is said to be the same every time, not "± 0"
    assert format_ci(224.0, 0.0) == "always 224.0" and format_ci(0.0, 0.0) == "always 0"
    # an edge in a sentence carries its sign
    assert format_ci(0.0123, 0.004, signed=True) == "+0.0123 ± 0.0040"
    assert format_ci(-0.0123, 0.004, signed=True) == "-0.0123 ± 0.0040"
    assert format_ci(0.5, 0.0, signed=True) == "always +0.5000"


def test_a_share_never_or_always_seen_reads_as_its_bound_not_zero_plus_minus_zero():
    t = pl.DataFrame({"strategy": ["passive", "simple", "lucky"], "games": [3000, 3000, 20],
                      "win_share": [0.0, 0.5, 1.0], "win_share_ci95": [0.0, 0.018, 0.0],
                      "max_bid_hits": [0.0, 0.0, 0.0], "max_bid_hits_ci95": [0.0, 0.0, 0.0]})
    headers, _, rows = display_table(t)
    assert headers == ["strategy", "games", "win_share", "max_bid_hits"]
    assert rows[0][2] == "< 0.0013" and rows[1][2] == "0.500 ± 0.018" and rows[2][2] == "> 0.84"
    assert rows[0][3] == "always 0"           # a mean, not a share: no bound follows from the games
    assert not any("± 0" in c for r in rows for c in r if "± 0." not in c)


def test_text_is_escaped(rendered):
    _, html_path, md_path = rendered
    for text in (html_path.read_text(encoding="utf-8"), md_path.read_text(encoding="utf-8")):
        assert "<script" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "&lt;script&gt;evil()&lt;/script&gt;" in text
    md = md_path.read_text(encoding="utf-8")
    # the alt text: the caption, escaped, and the points read off the figure
    assert "![Cost again \\[bars\\]. against hand size \u2014 1: 0.2, 2: 0.25, 3: 0.3](figures/hand-size-2.png)" in md
    assert "Seats \\| shares &amp; &lt;script&gt;evil()&lt;/script&gt; more." not in md  # only cells
    assert "A sweep, \\*not\\* emphasis." in md
    assert "Seats | shares &amp; &lt;script&gt;evil()&lt;/script&gt; more." in md


def test_toc_and_section_order(rendered):
    _, html_path, md_path = rendered
    text = html_path.read_text(encoding="utf-8")
    order = ["zsim report", "Contents", "Win share &lt;script&gt;",      # a section's figures, then its tables
             "figures/win-share-1.png", "Win share by seat", "Hand size against payday cost",
             "figures/hand-size-1.png", "figures/hand-size-2.png", "Sweep", "Extra", "zsim version"]
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
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["hand-size-1-phone.png", "hand-size-1.png",
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


# ---------------------------------------------------------------------------
# findings, folding, wide figures, intervals, unique captions, markup

FINDINGS = ["Six cards is the best target hand with two players.",
            "The start seat trails by 0.02 <win share>."]


class _Tree(HTMLParser):
    """Each table, header cell, image and heading with the tags and
    attributes around it (the open-element stack at its start tag)."""
    VOID = {"img", "meta", "br", "hr", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, dict]] = []
        self.tables: list[list[tuple[str, dict]]] = []
        self.cells: list[tuple[str, dict, list[tuple[str, dict]], int]] = []   # tag, attrs, stack, index in row
        self.images: list[tuple[dict, list[tuple[str, dict]]]] = []
        self.row_index = 0
        self.text_of: dict[str, list[str]] = {"h1": [], "h2": [], "h3": [], "caption": [], "summary": [],
                                              "figcaption": []}
        self._open_text: list[list] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables.append(list(self.stack))
        if tag == "tr":
            self.row_index = 0
        if tag in ("th", "td"):
            self.cells.append((tag, a, list(self.stack), self.row_index))
            self.row_index += 1
        if tag == "img":
            self.images.append((a, list(self.stack)))
        if tag in self.text_of:
            self._open_text.append([tag, ""])
        if tag not in self.VOID:
            self.stack.append((tag, a))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break
        if self._open_text and self._open_text[-1][0] == tag:
            t, text = self._open_text.pop()
            self.text_of[t].append(text)

    def handle_data(self, data):
        for entry in self._open_text:
            entry[1] += data


def _tree(text: str) -> _Tree:
    t = _Tree()
    t.feed(text)
    return t


def _has(stack, tag, **attrs) -> bool:
    return any(t == tag and all(a.get(k) == v for k, v in attrs.items()) for t, a in stack)


def _scroll_box(stack) -> dict | None:
    return next((a for t, a in stack if t == "div" and "table-scroll" in (a.get("class") or "").split()), None)


def _png(width_in: float, height_in: float = 2.0):
    fig, ax = plt.subplots(figsize=(width_in, height_in))
    ax.plot([0, 1], [0, 1])
    return fig


def _rich_results() -> list[AnalysisResult]:
    """Two results with the same title and the same table captions, a
    folded table, rate intervals, a wide figure and one too wide to shrink."""
    rates = pl.DataFrame({
        "rule": ["a", "b", "c", "d"],
        "elimination_rate": [0.00001, 0.0, 0.25, None],
        "elimination_rate_lo": [0.0000018, 0.0, 0.2467, 0.1],
        "elimination_rate_hi": [0.000057, 0.00019, 0.2533, 0.2],
        "win_share": [0.5, 0.5, 0.5, 0.4],
        "win_share_ci95": [0.01, 0.01, 0.01, 0.01],
    })
    grid = pl.DataFrame({"x": [1, 2], "y": [3.0, 4.0]})

    def result(players: int) -> AnalysisResult:
        return AnalysisResult(
            name=f"rules-{players}p", title="Payday rules",
            summary=f"Rules at {players} players.",
            tables={"Balance per rule": rates, "Full grid": grid},
            figures={"Rates": _png(3), "Heatmap": _png(4), "Panels": _png(12)},
            alts={"Rates": f"Eliminations stay rare at {players} players."},
            details=("Full grid",), wide=("Heatmap",),
            findings=[f"At {players} players nothing changes.", "Rule b & c < d."],
        )
    return [result(2), result(3)]


@pytest.fixture
def rich(tmp_path):
    out = tmp_path / "rich"
    html_path, md_path = write_report(_rich_results(), META, COMMAND, out, findings=FINDINGS)
    return out, html_path.read_text(encoding="utf-8"), md_path.read_text(encoding="utf-8")


def test_report_findings_come_first(rich):
    _, text, md = rich
    h1 = text.index("<h1>zsim report</h1>")
    findings = text.index('<h2 id="findings">Key findings</h2>')
    contents = text.index('<h2 id="contents">')
    run = text.index('<h2 id="run">')
    assert h1 < findings < contents < run
    block = text[findings:contents]
    assert "<li>Six cards is the best target hand with two players.</li>" in block
    assert "<li>The start seat trails by 0.02 &lt;win share&gt;.</li>" in block
    assert block.count("<li>") == 2
    assert md.index("# zsim report") < md.index("## Key findings") < md.index("## Contents") < md.index("## Run")
    assert ("## Key findings\n\n- Six cards is the best target hand with two players.\n"
            "- The start seat trails by 0.02 &lt;win share&gt;.\n\n") in md


def test_no_findings_no_findings_section(rendered):
    _, html_path, md_path = rendered
    assert "Key findings" not in html_path.read_text(encoding="utf-8")
    assert "Key findings" not in md_path.read_text(encoding="utf-8")
    assert 'id="findings"' not in html_path.read_text(encoding="utf-8")


def test_result_findings_follow_the_summary(rich):
    _, text, md = rich
    summary = text.index("<p>Rules at 2 players.</p>")
    bullets = text.index("<li>At 2 players nothing changes.</li>")
    first_table = text.index("<table>", summary)
    assert summary < bullets < first_table
    assert "<li>Rule b &amp; c &lt; d.</li>" in text
    assert "Rules at 2 players.\n\n- At 2 players nothing changes.\n- Rule b &amp; c &lt; d.\n\n![" in md


def test_folded_tables(rich):
    _, text, md = rich
    tree = _tree(text)
    folded = [stack for stack in tree.tables if _has(stack, "details")]
    assert len(folded) == 2                         # "Full grid" of each result
    assert all(_scroll_box(stack) for stack in folded)
    assert "<details>\n<summary>Full grid \u2014 Payday rules</summary>\n<div class=\"table-scroll\"" in text
    assert "<details>\n<summary>Full grid \u2014 Payday rules (2)</summary>" in text
    # the unfolded ones are not inside <details>; folded ones have their summary, no <caption>
    assert sum(1 for stack in tree.tables if not _has(stack, "details")) == 3   # 2 + run metadata
    assert not any(c.startswith("Full grid") for c in tree.text_of["caption"])
    # Markdown: the same wrapper, blank lines around a valid table
    assert ("<details>\n<summary>Full grid \u2014 Payday rules</summary>\n\n| X | Y |\n|---:|---:|\n"
            "| 1 | 3.000 |\n| 2 | 4.000 |\n\n</details>\n") in md


def test_wide_figures_and_alt_text(rich):
    out, text, md = rich
    tree = _tree(text)
    by_caption = {}
    for fig in re.findall(r"<figure[^>]*>.*?</figure>", text, re.S):
        cap = re.search(r"<figcaption>(.*?)</figcaption>", fig).group(1)
        by_caption[cap] = fig
    assert len(by_caption) == 6
    assert by_caption["Rates \u2014 Payday rules"].startswith("<figure>")            # narrow, in a column
    assert by_caption["Heatmap \u2014 Payday rules"].startswith('<figure class="wide">')   # named wide
    assert by_caption["Panels \u2014 Payday rules"].startswith('<figure class="wide">')    # too wide to shrink
    alts = [a["alt"] for a, _ in tree.images]
    assert "Eliminations stay rare at 2 players." in alts and "Eliminations stay rare at 3 players." in alts
    assert "Heatmap \u2014 Payday rules" in alts                                        # default: the caption
    assert "![Eliminations stay rare at 3 players.](figures/rules-3p-1.png)" in md
    assert "*Rates \u2014 Payday rules (2)*" in md
    # figures sit in the grid
    assert all(_has(stack, "div", **{"class": "figures"}) for _, stack in tree.images)


def test_images_link_to_their_png_and_carry_their_size(rich):
    out, text, _ = rich
    tree = _tree(text)
    assert len(tree.images) == 6
    for attrs, stack in tree.images:
        src = attrs["src"]
        assert _has(stack, "a", href=src), src
        assert "loading" not in attrs
        with Image.open(out / src) as im:
            assert (int(attrs["width"]), int(attrs["height"])) == im.size
    widths = sorted(int(a["width"]) for a, _ in tree.images)
    assert widths[-1] > 900 >= widths[0]              # the "Panels" figure is past WIDE_PX


def test_interval_cells(rich):
    _, text, md = rich
    assert "elimination_rate_lo" not in text and "elimination_rate_hi" not in md
    assert '<td class="num">0.000010 [0.0000018, 0.000057]</td>' in text
    assert '<td class="num">&lt; 0.00019</td>' in text
    assert "| a | 0.000010 [0.0000018, 0.000057] | 0.500 ± 0.010 |" in md
    assert "| b | &lt; 0.00019 | 0.500 ± 0.010 |" in md
    assert "| c | 0.2500 [0.2467, 0.2533] | 0.500 ± 0.010 |" in md
    assert "| d | \u2013 | 0.400 ± 0.010 |" in md
    assert "| Rule | Elimination rate | Win share |" in md


def test_interval_rules():
    assert format_interval(0.00001, 0.0000018, 0.000057) == "0.000010 [0.0000018, 0.000057]"
    assert format_interval(0.0, 0.0, 0.00019) == "< 0.00019"
    assert format_interval(0, 0, 0.123456) == "< 0.12"
    assert format_interval(0.25, 0.2467, 0.2533) == "0.2500 [0.2467, 0.2533]"   # width sets the decimals
    assert format_interval(0.5, 0.4, 0.6) == "0.50 [0.40, 0.60]"
    assert format_interval(123456.0, 120000.0, 127000.0) == "123456 [120000, 127000]"
    assert format_interval(0.3, 0.0, 0.6) == "0.30 [0, 0.60]"
    assert format_interval(None, 0.1, 0.2) == "\u2013"
    assert format_interval(float("nan"), 0.1, 0.2) == "\u2013"
    assert format_interval(0.3, None, 0.4) == "0.3000"                          # no interval: the value
    assert format_interval(0.3, 0.2, float("nan")) == "0.3000"
    assert format_interval(0.0, 0.0, 0.0) == "0"
    # no scientific notation, whatever the magnitude
    assert "e" not in format_interval(3e-7, 1e-8, 2e-6)


def test_interval_columns_merge_in_display_table():
    df = pl.DataFrame({"k": ["a"], "r_lo": [0.1], "r": [0.2], "r_hi": [0.3], "n": [7],
                       "m": [1.0], "m_ci95": [0.5], "s": ["x"], "s_lo": ["y"], "s_hi": ["z"],
                       "only_lo": [1.0], "only_lo_lo": [0.5]})
    headers, numeric, rows = display_table(df)
    assert headers == ["k", "r", "n", "m", "s", "s_lo", "s_hi", "only_lo", "only_lo_lo"]
    assert rows == [["a", "0.20 [0.10, 0.30]", "7", "1.00 ± 0.50", "x", "y", "z", "1.000", "0.5000"]]
    assert numeric[:4] == [False, True, True, True]


def test_headings_and_captions_are_unique(rich):
    _, text, md = rich
    tree = _tree(text)
    headings = tree.text_of["h1"] + tree.text_of["h2"] + tree.text_of["h3"]
    assert len(headings) == len(set(headings))
    assert "Payday rules" in headings and "Payday rules (2)" in headings
    captions = tree.text_of["caption"] + tree.text_of["summary"] + tree.text_of["figcaption"]
    assert len(captions) == 10 and len(captions) == len(set(captions))
    assert "Balance per rule \u2014 Payday rules" in captions
    assert "Balance per rule \u2014 Payday rules (2)" in captions
    # the scroll boxes are labelled with the same unique captions
    labels = re.findall(r'<div class="table-scroll" role="region" aria-label="([^"]*)" tabindex="0">', text)
    assert len(labels) == 5 and len(set(labels)) == 5
    md_heads = re.findall(r"^#+ (.*)$", md, re.M)
    assert len(md_heads) == len(set(md_heads))
    assert "2. [Payday rules (2)](#sec-2-rules-3p)" in md


def test_a_caption_used_once_stays_as_it_is(rendered):
    _, html_path, _ = rendered
    tree = _tree(html_path.read_text(encoding="utf-8"))
    assert sorted(tree.text_of["caption"]) == ["Extra", "Sweep", "Win share by seat"]
    assert "Cost again [bars]" in tree.text_of["figcaption"]


def test_headings_do_not_collide_with_the_reports_own(tmp_path):
    r = AnalysisResult(name="run", title="Run", summary="", tables={"t": pl.DataFrame({"a": [1]})})
    html_path, md_path = write_report([r], {}, "zsim report", tmp_path / "r", findings=["x"])
    tree = _tree(html_path.read_text(encoding="utf-8"))
    assert tree.text_of["h2"] == ["Key findings", "Contents", "Run (2)", "Run"]


def test_the_verdicts_open_the_report_in_a_box_and_the_run_closes_it(tmp_path):
    from analyses import verdicts

    found = [verdicts.edge("Skill", 27.0, 2.1, 3_000, subject="the strong player", effect="skill decides",
                           no_effect="skill barely matters"),
             verdicts.edge("Seats", 0.2, 0.3, 90_000, subject="the first player", effect="uneven", no_effect="balanced"),
             verdicts.edge("Rule", 0.9, 0.6, 3_000, subject="a <b> change", effect="it matters", no_effect="no effect")]
    r = AnalysisResult(name="a", title="A", summary="", tables={"t": pl.DataFrame({"a": [1]})})
    html_path, md_path = write_report([r], META, COMMAND, tmp_path / "r", findings=["x"], verdicts=found)
    text = html_path.read_text(encoding="utf-8")
    tree = _tree(text)
    assert tree.text_of["h2"] == ["Verdicts", "Key findings", "Contents", "A", "Run"]
    box = text[text.index('<section class="verdicts"'):text.index("</section>")]
    assert text.index("<h1>") < text.index('<section class="verdicts"') < text.index('id="findings"')
    assert box.count("<li") == 3
    assert '<li class="beyond"><strong>Skill: skill decides</strong>: the strong player +27.0 ± 2.1 pp' in box
    assert '<li class="within"><strong>Seats: balanced</strong>' in box
    assert "a &lt;b&gt; change" in box and "about 110,000 games would decide it" in box
    md = md_path.read_text(encoding="utf-8")
    assert md.index("## Verdicts") < md.index("## Key findings") < md.index("## Contents") < md.index("## Run")
    assert "- ≠ **Skill: skill decides**: the strong player +27.0 ± 2.1 pp (margin ±1 pp)." in md
    assert "- ? **Rule: can't tell yet**: a &lt;b&gt; change +0.9 ± 0.6 pp" in md


def test_tables_scroll_in_their_own_box_with_scoped_headers(rich, rendered):
    for text in (rich[1], rendered[1].read_text(encoding="utf-8")):
        tree = _tree(text)
        assert tree.tables
        for stack in tree.tables:
            box = _scroll_box(stack)
            assert box is not None
            assert box["role"] == "region" and box["tabindex"] == "0" and box["aria-label"]
        for tag, attrs, stack, index in tree.cells:
            if _has(stack, "thead"):
                assert tag == "th" and attrs.get("scope") == "col"
            elif index == 0:
                assert tag == "th" and attrs.get("scope") == "row"
            else:
                assert tag == "td"
    css = rich[1][rich[1].index("<style>"):rich[1].index("</style>")]
    assert re.search(r"\.table-scroll \{[^}]*overflow-x: auto", css)
    assert "repeat(auto-fit, minmax(min(100%, 34rem), 1fr))" in css
    assert re.search(r"figure\.wide \{[^}]*grid-column: 1 / -1", css)


def test_markdown_findings_never_start_a_block_of_their_own(tmp_path):
    r = AnalysisResult(name="x", title="X", summary="# not a heading", tables={},
                       findings=["1. not a numbered list", "- not a sub-list", "-0.02 win share"])
    _, md_path = write_report([r], {}, "zsim report", tmp_path / "r", findings=["## nor this"])
    md = md_path.read_text(encoding="utf-8")
    assert "- \\## nor this\n" in md
    assert "\n\\# not a heading\n" in md
    assert "- 1\\. not a numbered list\n- \\- not a sub-list\n- \\-0.02 win share\n" in md


def test_a_name_in_backticks_is_set_as_code_in_the_page_and_kept_in_the_markdown(tmp_path):
    import polars as pl

    from analyses.report import write_report
    from analyses.result import AnalysisResult

    r = AnalysisResult("x", "X", "Run `zsim sweep` for more.", {"T": pl.DataFrame({"a": ["`worlds` deals"]})},
                       findings=["A <b>bold</b> `name` here."])
    html_path, md_path = write_report([r], {"seed": 1}, "zsim report", tmp_path / "r")
    page = html_path.read_text(encoding="utf-8")
    assert "Run <code>zsim sweep</code> for more." in page and "<code>worlds</code> deals" in page
    assert "A &lt;b&gt;bold&lt;/b&gt; <code>name</code> here." in page and "`" not in page.split("<body>")[1]
    assert "`zsim sweep`" in md_path.read_text(encoding="utf-8")
