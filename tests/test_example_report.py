"""The committed example report holds what its own command produces.

Re-playing the whole report takes minutes; its two-to-four-player analysis
is a few seconds, and every one of its table rows must come out the same."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from analyses.zahltag import players
from analyses.report_tables import shape
from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules

EXAMPLE = Path(__file__).parents[1] / "reports" / "example"


def command_args() -> dict[str, str]:
    md = (EXAMPLE / "report.md").read_text()
    line = next(x for x in md.splitlines() if x.startswith("zsim report "))
    args = shlex.split(line)[2:]
    return dict(zip(args[::2], args[1::2]))


def test_the_example_report_is_committed_and_named_in_the_docs():
    assert (EXAMPLE / "index.html").is_file() and (EXAMPLE / "report.md").is_file()
    page = (Path(__file__).parents[1] / "docs" / "zahltag.md").read_text()
    md = (EXAMPLE / "report.md").read_text()
    line = next(x for x in md.splitlines() if x.startswith("zsim report "))
    assert line in page


def test_the_example_players_tables_are_reproduced():
    args = command_args()
    assert "--rule" not in args and "--deck" not in args and "--field" not in args
    plist = [int(p) for p in args["--players"].split(",")]
    result = players.run(plist, None, int(args["--games"]), int(args["--seed"]), Rules(), default_deck())
    md = (EXAMPLE / "report.md").read_text()
    checked = 0
    for caption, table in result.tables.items():
        for row in shape(table).rows:          # as the report shows it: labelled, perhaps turned
            cells = [re.escape(c.replace("|", "\\|")) for c in row]
            assert re.search(r"^\| " + r" \| ".join(cells) + r" \|$", md, flags=re.M), (caption, row)
            checked += 1
    assert checked >= 20


REPORTS = [EXAMPLE, EXAMPLE.parent / "zahlemann", EXAMPLE.parent / "baumeister"]


@pytest.mark.parametrize("folder", REPORTS, ids=["zahltag", "zahlemann", "baumeister"])
def test_a_committed_report_reads_as_a_designer_would_have_it(folder):
    """Verdicts first, each with its margin and interval and no p-value; no
    snake_case header, no cell and no sentence that prints a zero
    half-width ("0 ± 0", "224.0 ± 0"), a definition on every defined
    header."""
    text = (folder / "index.html").read_text(encoding="utf-8")
    body = text[text.index("<body>"):]
    assert body.index('<section class="verdicts"') < body.index('<h2 id="findings">') < body.index('<h2 id="run">')
    box = body[body.index('<section class="verdicts"'):body.index("</section>")]
    items = re.findall(r"<li class=\"(within|beyond|unsure)\">(.*?)</li>", box, flags=re.S)
    assert len(items) >= 3
    for outcome, item in items:
        assert "p =" not in item and "p &lt;" not in item, item
        if "not measured" not in item:
            # the margin ("margin of ±1 pp", "(margin ±1 pp)", "within ±1 pp of par") and an interval
            assert re.search(r"(margin (of )?|within )±\d+(\.\d+)? pp", item), item
            assert re.search(r"\d ± \d", item), item
    headers = re.findall(r"<th scope=\"col\"[^>]*>([^<]*)</th>", body)
    assert headers and not [h for h in headers if "_" in h]
    shares = 0
    for table in re.findall(r"<table>.*?</table>", body, flags=re.S):    # a win share is never "0 ± 0"
        heads = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th scope=\"col\".*?</th>", table)]
        for row in re.findall(r"<tr>(.*?)</tr>", table, flags=re.S)[1:]:
            cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[hd][^>]*>.*?</t[hd]>", row)]
            for head, cell in zip(heads, cells):
                shares += head == "Win share"
                assert not re.search(r"± 0(?![.\d])", cell), (head, cell)
    assert shares > 20
    assert not re.search(r"± 0(?![.\d])", re.sub(r"<[^>]+>", "", body))   # nor in a finding or a note
    assert body.count(' title="') > 20                      # headers carry their definitions
    assert "data-text-px=" in body and 'class="figure-scroll"' in body
