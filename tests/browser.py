"""Lays a report page out in headless Chromium and measures what a reader
would see at a given window width.

Chromium will not make a window narrower than 500 px, so the page is not
opened directly: a harness page holds one ``<iframe>`` per width, each
exactly that many CSS px wide, and the iframe's own viewport is then the
width we ask for. A copy of the page, with a small measuring script added
before ``</body>``, sits beside the original (so ``figures/...`` resolves);
once the page has loaded, the script opens every ``<details>``, measures,
and posts a JSON summary to the harness, which writes it into its DOM.
``chromium --dump-dom`` prints that DOM and the JSON is read back out.

Nothing here needs a Python package beyond the standard library.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

#: Debian's package `chromium` installs it here (`make test` installs it: tools/chromium.sh)
CHROMIUM = Path("/usr/bin/chromium")
#: what a test says, failing, when there is no Chromium to run
MISSING_MESSAGE = "headless Chromium not found at {path}: install Debian's chromium (make test does: tools/chromium.sh)"
#: the widths a report must fit: a laptop and a phone, in CSS px
LAPTOP, PHONE = 1280, 390
#: seconds one Chromium run may take before the test gives up on it
TIMEOUT_S = 60
#: how far (CSS px) an edge may stick out before it counts: sub-pixel rounding
SLACK = 0.5

#: runs in the page under test; posts what it measured to the harness
_MEASURE = r"""
<script>
(function () {
  function describe(el) {
    var d = el.tagName.toLowerCase();
    if (el.id) d += "#" + el.id;
    if (typeof el.className === "string" && el.className.trim())
      d += "." + el.className.trim().split(/\s+/).join(".");
    var text = (el.textContent || "").trim().replace(/\s+/g, " ");
    return d + (text ? ' "' + text.slice(0, 60) + '"' : "");
  }
  function measure() {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
    var root = document.documentElement, vw = root.clientWidth, slack = %(slack)s;
    var out = {label: window.name || location.hash.slice(1), innerWidth: window.innerWidth, clientWidth: vw,
               scrollWidth: root.scrollWidth, bodyScrollWidth: document.body.scrollWidth,
               wider: [], images: [], tables: [], boxes: []};
    document.body.querySelectorAll("*").forEach(function (el) {
      if (el.tagName === "SCRIPT" || el.tagName === "STYLE") return;
      var up = el.parentElement;
      if (up && up.closest(".table-scroll, .figure-scroll")) return;   // its box scrolls it
      var r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;              // not laid out
      if (r.right > vw + slack || r.left < -slack || r.width > vw + slack)
        out.wider.push({el: describe(el), left: r.left, right: r.right, width: r.width});
    });
    Array.prototype.forEach.call(document.images, function (img) {
      var r = img.getBoundingClientRect();
      out.images.push({src: img.getAttribute("src"), complete: img.complete,
                       shown: (img.currentSrc || "").split("/").pop(),
                       naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
                       shownWidth: r.width, linked: !!img.closest("a[href]"),
                       textPx: parseFloat(img.getAttribute("data-text-px") || "0"),
                       inBox: !!img.closest(".figure-scroll")});
    });
    document.querySelectorAll("table").forEach(function (t) {
      var box = t.closest(".table-scroll"), cap = t.querySelector("caption");
      out.tables.push({caption: cap ? cap.textContent : (box ? box.getAttribute("aria-label") : ""),
                       inBox: !!box, width: t.getBoundingClientRect().width});
    });
    var v = document.querySelector("section.verdicts");
    if (v) {
      var vr = v.getBoundingClientRect(), first = v.querySelector("li"), fr = first.getBoundingClientRect();
      var before = [];
      for (var e = v.previousElementSibling; e; e = e.previousElementSibling) before.push(e.tagName.toLowerCase());
      out.verdicts = {top: vr.top + window.scrollY, bottom: vr.bottom + window.scrollY, before: before.reverse(),
                      firstBottom: fr.bottom + window.scrollY,
                      fontPx: parseFloat(getComputedStyle(first).fontSize)};
    }
    document.querySelectorAll(".table-scroll, .figure-scroll").forEach(function (box) {
      out.boxes.push({label: box.getAttribute("aria-label"), overflowX: getComputedStyle(box).overflowX,
                      scrollWidth: box.scrollWidth, clientWidth: box.clientWidth});
    });
    if (window.zsimMeasureExtra) out.extra = window.zsimMeasureExtra();   // a page test's own findings
    parent.postMessage(JSON.stringify(out), "*");
  }
  window.addEventListener("load", function () { setTimeout(measure, 0); });
})();
</script>
""".replace("%(slack)s", str(SLACK))

_HARNESS = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>harness</title>
<style>body {{ margin: 0; }} iframe {{ display: block; border: 0; height: 900px; }}</style></head>
<body>
{frames}
<script>
window.addEventListener("message", function (e) {{
  var s = document.createElement("script");
  s.type = "application/json";
  s.className = "measured";
  s.textContent = String(e.data).replace(/</g, "\\\\u003c");
  document.body.appendChild(s);
}});
</script>
</body></html>
"""


def require_chromium(path: Path | None = None) -> Path:
    """The Chromium binary; fails the calling test (never skips) when it is missing."""
    path = CHROMIUM if path is None else path
    if not (path.is_file() and path.stat().st_mode & 0o111):
        pytest.fail(MISSING_MESSAGE.format(path=path), pytrace=False)
    return path


def measure_page(page: Path, widths: tuple[int, ...] = (LAPTOP, PHONE), extra_head: str = "",
                 extra_body: str = "") -> dict[int, dict]:
    """Lay `page` (an HTML file) out at each width; returns width -> what the
    measuring script saw. `extra_head` / `extra_body` are inserted into the
    copy before ``</head>`` / the script (for negative controls)."""
    chromium = require_chromium()
    page = page.resolve()
    text = page.read_text(encoding="utf-8")
    if "</body>" not in text or "</head>" not in text:
        raise AssertionError(f"{page} has no </head> or </body>")
    text = text.replace("</head>", extra_head + "</head>", 1)
    text = text.replace("</body>", extra_body + _MEASURE + "</body>", 1)
    with tempfile.TemporaryDirectory(prefix="zsim-browser-") as tmp:
        tmp = Path(tmp)
        # a copy of the page's folder, so that its relative links (figures/...)
        # resolve and nothing is written beside the original
        folder = tmp / "page"
        shutil.copytree(page.parent, folder, ignore=shutil.ignore_patterns(".*", "*.md", "*.json"))
        copy, harness = folder / "measured.html", folder / "harness.html"
        copy.write_text(text, encoding="utf-8")
        frames = "\n".join(f'<iframe src="{copy.name}#{w}" name="{w}" width="{w}"></iframe>' for w in widths)
        harness.write_text(_HARNESS.format(frames=frames), encoding="utf-8")
        dom = _dump_dom(chromium, harness, tmp / "profile", max(widths) + 40)
    found = {}
    for raw in re.findall(r'<script type="application/json" class="measured">(.*?)</script>', dom, re.S):
        m = json.loads(raw)
        found[int(m["label"])] = m
    missing = [w for w in widths if w not in found]
    if missing:
        raise AssertionError(f"no measurement came back for widths {missing}; dumped DOM starts: {dom[:500]!r}")
    for w, m in found.items():
        assert m["innerWidth"] == w, f"the page was laid out {m['innerWidth']} px wide, not {w}"
    return found


def _dump_dom(chromium: Path, url_file: Path, profile: Path, window_width: int) -> str:
    cmd = [str(chromium), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--hide-scrollbars", f"--user-data-dir={profile}", f"--window-size={window_width},1000",
           "--virtual-time-budget=10000", "--dump-dom", url_file.as_uri()]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"headless Chromium took over {TIMEOUT_S} s on {url_file}") from None
    if done.returncode != 0:
        raise AssertionError(f"headless Chromium exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


#: the smallest text a figure may show, in CSS px (analyses.report_sections.READABLE_PX)
READABLE_PX = 10


def problems(m: dict, min_scale: float | None = None, text_px: float | None = READABLE_PX) -> list[str]:
    """What is wrong with one measurement, one line each (empty: it fits).

    (a) the document scrolls sideways; (b) an element outside a table's or
    a figure's scroll box is wider than the viewport or sticks out of it;
    (c) an image did not load; (d) a table or a figure is not in a scroll
    box (or the box does not scroll). With `text_px`, also (e) a figure whose
    smallest text (its ``data-text-px``, PNG pixels) is shown smaller than
    that many CSS px; with `min_scale`, (f) an image shown at less than that
    share of its natural width."""
    w = m["clientWidth"]
    out = []
    if m["scrollWidth"] > w or m["bodyScrollWidth"] > w:
        out.append(f"the document is {max(m['scrollWidth'], m['bodyScrollWidth'])} px wide in a {w} px viewport")
    for x in m["wider"]:
        out.append(f"{x['el']} spans {x['left']:.0f}..{x['right']:.0f} px ({x['width']:.0f} px wide) "
                   f"in a {w} px viewport")
    for img in m["images"]:
        if not (img["complete"] and img["naturalWidth"] > 0):
            out.append(f"image {img['src']} did not load")
        elif not img["inBox"]:
            out.append(f"image {img['src']} is not in a .figure-scroll box")
        elif text_px is not None and img["textPx"] <= 0:
            out.append(f"image {img['src']} does not say how small its text is (data-text-px)")
        elif text_px is not None and img["shownWidth"] / img["naturalWidth"] * img["textPx"] < text_px - 0.05:
            shown = img["shownWidth"] / img["naturalWidth"] * img["textPx"]
            out.append(f"image {img['src']} shows its smallest text at {shown:.1f} CSS px "
                       f"({img['shownWidth']:.0f} of its {img['naturalWidth']} px)")
        elif min_scale is not None and img["shownWidth"] < min_scale * img["naturalWidth"] - SLACK:
            out.append(f"image {img['src']} is shown {img['shownWidth']:.0f} px wide, "
                       f"{img['shownWidth'] / img['naturalWidth']:.2f} of its {img['naturalWidth']} px")
    for t in m["tables"]:
        if not t["inBox"]:
            out.append(f"table {t['caption']!r} is not in a .table-scroll box")
    for b in m["boxes"]:
        if b["overflowX"] not in ("auto", "scroll"):
            out.append(f"scroll box {b['label']!r} does not scroll (overflow-x: {b['overflowX']})")
    return out
