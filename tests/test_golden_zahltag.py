"""Zahltag's outputs, pinned before the harness learns other games.

zsim is about to serve more games than Zahltag through one contract (issue
11), and every command must keep giving bit-identical results for the same
seed and options. This file holds what each command printed or wrote on
small runs, recorded before that work (tests/golden/zahltag.json); the test
plays them again and compares. Outputs that are long (per-game tables,
records) are pinned by the SHA-256 of their text, short ones in full.

Record the file again, on purpose and only when a result is meant to
change (a rule fix, new strategy defaults), with::

    .venv/bin/python tests/test_golden_zahltag.py --record
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import polars as pl
import pytest
from conftest import golden_run, text_sha


GOLDEN = Path(__file__).parent / "golden" / "zahltag.json"

#: name -> (arguments, how the output is kept: "json" in full, "sha" of its text)
CASES: dict[str, tuple[list[str], str]] = {
    "simulate-4p": (["simulate", "-p", "4", "-n", "3000", "--seed", "5",
                     "--strategies", "simple,counter,random,undercut", "--json", "-q"], "json"),
    "simulate-2p-rules": (["simulate", "-p", "2", "-n", "2000", "--seed", "9", "--strategies",
                           "monopolist,handsize:target=5", "--rule", "payday_cost=2",
                           "--rule", "over_cap=penalize", "--json", "-q"], "json"),
    "simulate-3p-table": (["simulate", "-p", "3", "-n", "1500", "--seed", "2",
                           "--strategies", "fixed:k=4,simple,counter", "--out", "{tmp}/games.parquet", "-q"],
                          "table"),
    "run-folder": (["simulate", "-p", "4", "-n", "2500", "--seed", "4", "--chunk", "1000",
                    "--out", "{tmp}/run", "--json", "-q"], "json"),
    "precision": (["simulate", "-p", "2", "-n", "200000", "--seed", "6", "--precision", "0.02",
                   "--json", "-q"], "json"),
    "tournament-3p": (["tournament", "-p", "3", "--field", "simple,counter,fixed,undercut", "--games", "150",
                       "--seed", "3", "--seatings", "rotations", "--json", "-q"], "json"),
    "tournament-2p-all": (["tournament", "-p", "2", "--field", "simple,monopolist", "--games", "300",
                           "--seed", "8", "--json", "-q"], "json"),
    "record-3p": (["record", "-p", "3", "--seed", "7", "--games", "2", "--first", "11",
                   "--strategies", "simple,random,counter"], "sha"),
    "analyze-players": (["analyze", "players", "--players", "2,3", "--games", "400", "--seed", "1",
                         "--json", "-q"], "json"),
}


def play(name: str, tmp: Path):
    """What case ``name`` gives now, in the form the golden file keeps."""
    args, kind = CASES[name]
    out = golden_run(args, tmp)
    if kind == "json":       # the numbers, not the prose around them (its wording may improve)
        doc = json.loads(out)
        if isinstance(doc, dict):
            for prose in ("title", "summary", "findings"):
                doc.pop(prose, None)
        return doc
    if kind == "sha":
        return {"sha256": text_sha(out), "lines": out.count("\n")}
    table = pl.read_parquet(tmp / "games.parquet")
    return {"sha256": text_sha(table.write_csv()), "rows": table.height, "columns": table.columns}


def _without_paths(value, tmp: Path):
    """The JSON with the temporary folder's name taken out (it differs per run)."""
    text = json.dumps(value).replace(str(tmp), "{tmp}")
    return json.loads(text)


@pytest.mark.parametrize("name", list(CASES))
def test_zahltag_outputs_are_unchanged(name, tmp_path):
    golden = json.loads(GOLDEN.read_text())
    assert name in golden, f"{name} has no recorded output: record the golden file (see the docstring)"
    assert _without_paths(play(name, tmp_path), tmp_path) == golden[name]


def test_every_recorded_case_is_still_played():
    assert sorted(json.loads(GOLDEN.read_text())) == sorted(CASES)


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    import tempfile

    recorded = {}
    for case in CASES:
        with tempfile.TemporaryDirectory() as folder:
            recorded[case] = _without_paths(play(case, Path(folder)), Path(folder))
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(recorded)} cases in {GOLDEN}")
