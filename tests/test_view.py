"""``zsim view``: a record's games as pages to step through, each seat's
view, the searches' statistics and the chances of winning after every move;
laid out and stepped in headless Chromium."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import zsim
from browser import LAPTOP, PHONE, measure_page, problems
from conftest import warm_stepped, warm_trace

ITERATIONS = 24


def page_data(path) -> dict:
    """The data a page steps through (its <script id="data">)."""
    text = path.read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S).group(1)
    return json.loads(blob.replace("<\\/", "</"))


@pytest.fixture(scope="module")
def bot_record(tmp_path_factory, background):
    """Two Zahltag games of a search against two bots, as ``zsim record`` writes them."""
    warm_stepped(background, "zahltag")
    warm_trace(background, "zahltag")
    folder = tmp_path_factory.mktemp("view")
    path = folder / "games.jsonl"
    zsim.record(game="zahltag", players=3, games=2, seed=5, out=path, progress=False,
                strategies=[f"ismcts:iterations={ITERATIONS}", "undercut", "counter"])
    return path


def test_each_game_of_a_record_becomes_a_page_with_every_move_view_search_and_estimate(bot_record, tmp_path):
    pages = zsim.view(bot_record, tmp_path / "pages", continuations=8)
    assert [p.name for p in pages] == ["index.html", "zahltag-seed5-game0.html", "zahltag-seed5-game1.html"]
    index = pages[0].read_text()
    assert '<a href="zahltag-seed5-game0.html">Zahltag, 3 players: seed 5, game 0</a>: Seat ' in index
    assert '<a href="zahltag-seed5-game1.html">Zahltag, 3 players: seed 5, game 1</a>: Seat ' in index
    events = [json.loads(line) for line in bot_record.read_text().splitlines()]
    starts = [i for i, e in enumerate(events) if e["e"] == "start"]
    for page, first in zip(pages[1:], starts):
        d = page_data(page)
        n = len(d["moves"])
        assert n > 20 and len(d["views"]) == n + 1 and all(len(v) == 4 for v in d["views"])
        places = next(e["places"] for e in events[first:] if "places" in e)
        assert d["places"] == places
        # the searching seat's every decision carries its root: visits summing to its budget, its pick chosen
        searched = [m for m in d["moves"] if m["seat"] == 0]
        assert searched and all(m["search"]["source"] == "searched" for m in searched)
        for m in searched:
            s = m["search"]
            assert s["chosen"] in s["codes"] and sum(s["visits"]) <= ITERATIONS
        assert all("search" not in m for m in d["moves"] if m["seat"] != 0)
        # sealed bids: another seat cannot tell a bid before its own from the alternatives
        assert any(m["kind"] == "bid" and m["unseen"] for m in d["moves"])
        assert all(m["seat"] not in m["unseen"] for m in d["moves"])
        # the traces: a row per position for the true position and each seat, ending in the result
        t = d["trace"]
        assert t["observers"] == [-1, 0, 1, 2] and t["n"] == 8
        winners = [s for s, p in enumerate(places) if p == 1]
        for o in range(4):
            assert len(t["mean"][o]) == n + 1
            assert t["mean"][o][-1] == pytest.approx([1 / len(winners) if s in winners else 0 for s in range(3)])
            for i in range(n):
                for s in range(3):
                    assert t["lo"][o][i][s] <= t["mean"][o][i][s] <= t["hi"][o][i][s]
        text = page.read_text()
        won = f"Seat {winners[0]} (" if len(winners) == 1 else "shared first place"
        assert won in text and "Decided " in text or "Open to the last move" in text
    # counts, not clocks: the same record and budgets give the same pages to the byte
    again = zsim.view(bot_record, tmp_path / "again", continuations=8)
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in pages]


def test_a_page_fits_a_laptop_and_a_phone_and_steps_with_its_buttons(bot_record, tmp_path):
    pages = zsim.view(bot_record, tmp_path / "pages", continuations=8, games=1)
    d = page_data(pages[1])
    hidden = next(i for i, m in enumerate(d["moves"]) if 1 in m["unseen"])
    # after the page is built: step three moves with the buttons, then look as seat 1
    script = """<script>
window.addEventListener("load", function () {
  var read = function () { return {counter: document.getElementById("counter").textContent,
      move: +document.getElementById("counter").getAttribute("data-move"),
      marker: +document.getElementById("marker").getAttribute("data-move"),
      x: +document.getElementById("marker").getAttribute("data-x")}; };
  var before = read();
  for (var k = 0; k < 3; k++) document.getElementById("next").click();
  var after = read();
  document.querySelector('#as button[data-seat="1"]').click();
  var item = document.querySelector('#move-list li[data-move="%d"]').textContent;
  var view = document.getElementById("view").textContent;
  window.zsimMeasureExtra = function () { return {before: before, after: after, item: item, view: view,
      hash: location.hash}; };
});
</script>""" % (hidden + 1)
    found = measure_page(pages[1], extra_body=script)
    for width in (LAPTOP, PHONE):
        m = found[width]
        assert problems(m) == [], (width, problems(m))
        x = m["extra"]
        assert x["before"]["move"] == 0 and x["before"]["marker"] == 0
        assert x["after"]["move"] == 3 and x["after"]["marker"] == 3 and x["after"]["counter"].startswith("move 3 of")
        assert x["after"]["x"] > x["before"]["x"]
        assert x["hash"] == "#move=3&seat=1"
        # seat 1's view: the move it could not tell apart is not named, and its own hand is there
        assert "not seen by seat 1" in x["item"]
        assert d["strings"][d["moves"][hidden]["text"]] not in x["item"]
        assert "What seat 1 sees" in x["view"]


def test_a_record_that_is_not_the_game_zsim_deals_is_refused_and_nothing_is_written(bot_record, tmp_path):
    lines = bot_record.read_text().splitlines()
    start = json.loads(lines[0])
    start["money"] = [m + 1 for m in start["money"]]
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")
    out = tmp_path / "pages"
    with pytest.raises(zsim.ZsimError) as e:
        zsim.view(edited, out, continuations=0)
    assert "line 1" in str(e.value) and "'money'" in str(e.value) and "\n" not in str(e.value)
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["edited.jsonl"]


def test_bad_input_is_one_line_and_exit_code_2(bot_record, tmp_path):
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "mine.txt").write_text("mine")
    for args, message in [([str(bot_record), "--out", str(taken)], "exists and is not an empty folder"),
                          ([str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "a")], "does not exist"),
                          ([str(bot_record), "--out", str(tmp_path / "b"), "--continuations", "-1"],
                           "--continuations must be"),
                          ([str(bot_record), "--out", str(tmp_path / "c"), "--threshold", "1.5"], "--threshold"),
                          ([str(bot_record), "--out", str(tmp_path / "d"), "--games", "0"], "--games must be"),
                          ([str(bot_record), "--out", str(tmp_path / "no" / "e")], "does not exist")]:
        done = subprocess.run([sys.executable, "-m", "zsim.cli", "view", *args], capture_output=True, text=True)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and message in done.stderr and "Traceback" not in done.stderr
    assert [p.name for p in taken.iterdir()] == ["mine.txt"] and (taken / "mine.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
