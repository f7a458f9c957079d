"""The committed example report holds what its own command produces.

Re-playing the whole report takes minutes; its two-to-four-player analysis
is a few seconds, and every one of its table rows must come out the same."""
from __future__ import annotations

import re
import shlex
from pathlib import Path


from analyses.zahltag import players
from analyses.report_format import display_table
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
        _, _, rows = display_table(table)
        for row in rows:
            cells = [re.escape(c.replace("|", "\\|")) for c in row]
            assert re.search(r"^\| " + r" \| ".join(cells) + r" \|$", md, flags=re.M), (caption, row)
            checked += 1
    assert checked >= 20
