"""Zahlemann's and Wettstreit der Baumeister's outputs, pinned like Zahltag's.

Every command must keep giving bit-identical results for the same seed and
options, whatever is moved or rewritten inside zsim. This file holds what
each command printed or wrote on small runs of the two games
(tests/golden/zahlemann.json, tests/golden/baumeister.json): ``simulate`` at
2, 3 and 4 players with the default field and with a mixed field under
changed rules, its Parquet rows and a run folder (each shard's rows and
metadata, the manifest and the summary), ``tournament``, ``tune``,
``record`` and the ``replay`` of that record, every ``analyze`` table, and
Baumeister with a building file of its own. The test plays them again and
compares. Outputs that are long (per-game tables, records, play-by-plays)
are pinned by the SHA-256 of their text, short ones in full; of JSON only
the numbers are kept, not the prose around them (its wording may improve).
Zahltag's are in tests/test_golden_zahltag.py.

Record the files again, on purpose and only when a result is meant to
change (a rule fix, new strategy defaults), with::

    .venv/bin/python tests/test_golden_games.py --record [GAME ...]
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import NamedTuple

import polars as pl
import pytest
from conftest import golden_run, text_sha


GOLDEN = Path(__file__).parent / "golden"

#: the building file of the --deck cases ({tmp}/buildings.csv): the printed cards (the game's
#: buildings.csv) but a dearer tower (16: value 3 -> 4), a gate of more income (22: coins 1 -> 3),
#: a cheaper town hall (27: value 5 -> 4) and a cheaper church (40: value 9 -> 7). Kept here in
#: full, so that the cases stay the same wherever zsim keeps its own file.
BUILDINGS = """\
card,type,value,shields,coins
1,corner_tower,1,1,0
2,corner_tower,1,1,0
3,corner_tower,2,1,0
4,corner_tower,2,1,0
5,corner_tower,3,1,0
6,corner_tower,3,1,0
7,tower,1,1,0
8,tower,1,1,0
9,tower,1,1,0
10,tower,2,1,0
11,tower,2,1,0
12,tower,2,1,0
13,tower,2,1,0
14,tower,3,1,0
15,tower,3,1,0
16,tower,4,1,0
17,city_gate,2,0,2
18,city_gate,2,0,2
19,city_gate,3,0,2
20,city_gate,3,0,2
21,city_gate,3,0,2
22,city_gate,4,0,3
23,city_gate,4,0,1
24,city_gate,4,0,1
25,city_gate,5,0,1
26,city_gate,5,0,1
27,town_hall,4,0,0
28,town_hall,5,0,0
29,town_hall,6,0,0
30,town_hall,6,0,0
31,town_hall,7,0,0
32,town_hall,7,0,0
33,church,4,0,0
34,church,5,0,0
35,church,5,0,0
36,church,6,0,0
37,church,6,0,0
38,church,7,0,0
39,church,8,0,0
40,church,7,0,0
"""


class Case(NamedTuple):
    """A command and how its output is kept: ``json`` (the numbers, in full),
    ``sha`` (of its text), ``table`` (the rows of {tmp}/games.parquet) or
    ``run`` (the run folder {tmp}/run and the printed summary). ``before``:
    commands run first, whose output is not kept (a record to replay)."""
    args: list[str]
    kind: str
    before: tuple = ()


def replay_of(record: Case) -> Case:
    """The replay of what ``record`` (a ``record`` case) writes to {tmp}/games.jsonl."""
    return Case(["replay", "{tmp}/games.jsonl"], "sha", ([*record.args, "--out", "{tmp}/games.jsonl", "-q"],))


def _games(game: str, cases: dict[str, Case]) -> dict[str, Case]:
    """The cases with ``--game GAME`` after each command's name."""
    def put(args):
        return [args[0], "--game", game, *args[1:]]
    return {name: Case(put(c.args), c.kind, tuple(put(b) for b in c.before)) for name, c in cases.items()}


ZAHLEMANN = _games("zahlemann", {
    "simulate-2p": Case(["simulate", "-p", "2", "-n", "3000", "--seed", "1", "--json", "-q"], "json"),
    "simulate-3p": Case(["simulate", "-p", "3", "-n", "2400", "--seed", "2", "--json", "-q"], "json"),
    "simulate-4p": Case(["simulate", "-p", "4", "-n", "2000", "--seed", "3", "--json", "-q"], "json"),
    "simulate-2p-mixed": Case(["simulate", "-p", "2", "-n", "3000", "--seed", "4",
                               "--strategies", "counter,keeper:keep_max=8", "--rule", "one_plays_again=true",
                               "--rule", "change=bank", "--json", "-q"], "json"),
    "simulate-3p-mixed": Case(["simulate", "-p", "3", "-n", "2400", "--seed", "5",
                               "--strategies", "flexible,variant,random:forget=0.3", "--rule", "fifty_skips=true",
                               "--rule", "money=total", "--json", "-q"], "json"),
    "simulate-4p-mixed": Case(["simulate", "-p", "4", "-n", "2000", "--seed", "6", "--strategies",
                               "first,shedder:flex=2,counter:forget=0.2,oracle", "--rule", "two_passes_hands=true",
                               "--rule", "hand_size=6", "--rule", "notice=0.5", "--json", "-q"], "json"),
    "simulate-3p-table": Case(["simulate", "-p", "3", "-n", "1000", "--seed", "7", "--strategies",
                               "keeper,shedder,counter", "--rule", "coins=2,1,2,2,3,4",
                               "--out", "{tmp}/games.parquet", "-q"], "table"),
    "run-folder": Case(["simulate", "-p", "3", "-n", "2500", "--seed", "8", "--chunk", "1000",
                        "--out", "{tmp}/run", "--json", "-q"], "run"),
    "tournament-3p": Case(["tournament", "-p", "3", "--field", "shedder,counter,keeper,variant", "--games", "60",
                           "--seed", "9", "--seatings", "rotations", "--json", "-q"], "json"),
    "tournament-2p-all": Case(["tournament", "-p", "2", "--field", "shedder,flexible", "--games", "200",
                               "--seed", "10", "--rule", "fifty_skips=true", "--json", "-q"], "json"),
    "tune": Case(["tune", "keeper", "--vs", "shedder", "-p", "3", "--budget", "900", "--eval-games", "300",
                  "--seed", "11", "--json", "-q"], "json"),
    "record-3p": (ZAHLEMANN_RECORD := Case(["record", "-p", "3", "--seed", "12", "--games", "2", "--first", "5",
                                            "--strategies", "counter,random,variant",
                                            "--rule", "one_plays_again=true"], "sha")),
    "replay-3p": replay_of(ZAHLEMANN_RECORD),
    "analyze-players": Case(["analyze", "players", "--games", "200", "--seed", "13", "--json", "-q"], "json"),
    "analyze-variants": Case(["analyze", "variants", "--players", "3", "--games", "150", "--seed", "14",
                              "--json", "-q"], "json"),
    "analyze-hand-size": Case(["analyze", "hand-size", "--players", "2", "--hand-sizes", "4,6", "--games", "150",
                               "--seed", "15", "--json", "-q"], "json"),
    "analyze-money": Case(["analyze", "money", "--players", "2,3", "--games", "150", "--seed", "16",
                           "--json", "-q"], "json"),
    "analyze-forget": Case(["analyze", "forget", "--players", "3", "--forgets", "0,0.5", "--games", "150",
                            "--seed", "17", "--json", "-q"], "json"),
})

BAUMEISTER = _games("baumeister", {
    "simulate-2p": Case(["simulate", "-p", "2", "-n", "1200", "--seed", "1", "--json", "-q"], "json"),
    "simulate-3p": Case(["simulate", "-p", "3", "-n", "1000", "--seed", "2", "--json", "-q"], "json"),
    "simulate-4p": Case(["simulate", "-p", "4", "-n", "800", "--seed", "3", "--json", "-q"], "json"),
    "simulate-2p-mixed": Case(["simulate", "-p", "2", "-n", "1200", "--seed", "4",
                               "--strategies", "budget,builder:early=6", "--rule", "overbid=forbid",
                               "--rule", "start_money=15", "--json", "-q"], "json"),
    "simulate-3p-mixed": Case(["simulate", "-p", "3", "-n", "1000", "--seed", "5",
                               "--strategies", "defender,saboteur,seller", "--rule", "saboteur=any",
                               "--rule", "saboteurs=8", "--json", "-q"], "json"),
    "simulate-4p-mixed": Case(["simulate", "-p", "4", "-n", "800", "--seed", "6", "--strategies",
                               "value,random,oracle,budget:reserve=4", "--rule", "first_build_min=2",
                               "--rule", "bonus_middle=15", "--rule", "max_cards_per_build=4",
                               "--json", "-q"], "json"),
    "simulate-3p-table": Case(["simulate", "-p", "3", "-n", "300", "--seed", "7", "--strategies",
                               "budget,value,builder", "--rule", "hand_sabotage_min=3",
                               "--out", "{tmp}/games.parquet", "-q"], "table"),
    "run-folder": Case(["simulate", "-p", "3", "-n", "1000", "--seed", "8", "--chunk", "400",
                        "--out", "{tmp}/run", "--json", "-q"], "run"),
    "tournament-3p": Case(["tournament", "-p", "3", "--field", "budget,value,builder,defender", "--games", "30",
                           "--seed", "9", "--seatings", "rotations", "--json", "-q"], "json"),
    "tournament-2p-all": Case(["tournament", "-p", "2", "--field", "first,seller", "--games", "100",
                               "--seed", "10", "--rule", "saboteur=any", "--json", "-q"], "json"),
    "tune": Case(["tune", "value", "--vs", "budget", "-p", "2", "--budget", "400", "--eval-games", "100",
                  "--seed", "11", "--json", "-q"], "json"),
    "record-3p": (BAUMEISTER_RECORD := Case(["record", "-p", "3", "--seed", "12", "--games", "2", "--first", "5",
                                             "--strategies", "budget,random,saboteur",
                                             "--rule", "saboteur=any"], "sha")),
    "replay-3p": replay_of(BAUMEISTER_RECORD),
    "deck-simulate-3p": Case(["simulate", "-p", "3", "-n", "1000", "--seed", "14", "--strategies",
                              "budget,builder,value", "--deck", "{tmp}/buildings.csv", "--json", "-q"], "json"),
    "deck-record-2p": (DECK_RECORD := Case(["record", "-p", "2", "--seed", "15", "--strategies", "builder,value",
                                            "--deck", "{tmp}/buildings.csv"], "sha")),
    "deck-replay-2p": replay_of(DECK_RECORD),
    "deck-analyze-prices": Case(["analyze", "prices", "--players", "3", "--games", "100", "--seed", "16",
                                 "--deck", "{tmp}/buildings.csv", "--json", "-q"], "json"),
    "analyze-players": Case(["analyze", "players", "--games", "100", "--seed", "17", "--json", "-q"], "json"),
    "analyze-prices": Case(["analyze", "prices", "--players", "2", "--games", "100", "--seed", "18",
                            "--json", "-q"], "json"),
    "analyze-gates": Case(["analyze", "gates", "--players", "2", "--games", "100", "--seed", "19",
                           "--json", "-q"], "json"),
    "analyze-bonuses": Case(["analyze", "bonuses", "--players", "2,4", "--games", "100", "--seed", "20",
                             "--json", "-q"], "json"),
    "analyze-sabotage": Case(["analyze", "sabotage", "--players", "3", "--games", "100", "--seed", "21",
                              "--json", "-q"], "json"),
    "analyze-auctioneer": Case(["analyze", "auctioneer", "--players", "2,3", "--games", "100", "--seed", "22",
                                "--json", "-q"], "json"),
})

GAMES: dict[str, dict[str, Case]] = {"zahlemann": ZAHLEMANN, "baumeister": BAUMEISTER}

#: cases played a second time on one numba thread: the same output, whatever the threads
ONE_THREAD = [("zahlemann", "simulate-4p-mixed"), ("zahlemann", "tournament-3p"), ("zahlemann", "analyze-money"),
              ("baumeister", "simulate-3p-mixed"), ("baumeister", "tune"), ("baumeister", "analyze-gates")]


def golden_file(game: str) -> Path:
    return GOLDEN / f"{game}.json"


def write_deck(tmp: Path) -> None:
    (tmp / "buildings.csv").write_text(BUILDINGS)


#: an analysis table of more rows is kept by the SHA-256 of its rows' JSON
LONG_TABLE = 12


def _numbers(out: str):
    """The JSON printed, without its prose; long analysis tables by their digest."""
    doc = json.loads(out)
    if isinstance(doc, dict):
        for prose in ("title", "summary", "findings"):
            doc.pop(prose, None)
        for title, rows in doc.get("tables", {}).items():
            if len(rows) > LONG_TABLE:
                doc["tables"][title] = {"sha256": text_sha(json.dumps(rows, sort_keys=True)), "rows": len(rows),
                                        "columns": sorted({k for row in rows for k in row})}
    return doc


def _rows(table: pl.DataFrame) -> dict:
    return {"sha256": text_sha(table.write_csv()), "rows": table.height,
            "schema": {name: str(dtype) for name, dtype in table.schema.items()}}


def _run_folder(folder: Path) -> dict:
    """A run folder's files: its manifest (but the zsim version) and summary in full,
    the shards SHA256SUMS lists (not their digests: a shard's bytes carry the Parquet
    writer's version, which a new pyarrow changes with the same rows), each shard's
    rows and the run metadata it carries."""
    import pyarrow.parquet as pq

    manifest = json.loads((folder / "manifest.json").read_text())
    manifest.pop("zsim")
    shards = {}
    for path in sorted(folder.glob("chunk-*.parquet")):
        meta = pq.read_metadata(path).metadata
        shards[path.name] = {**_rows(pl.read_parquet(path)), "shard": json.loads(meta[b"zsim.shard"])}
    return {"files": sorted(p.name for p in folder.iterdir()), "manifest": manifest,
            "summary": json.loads((folder / "summary.json").read_text()),
            "listed": [line.split("  ")[1] for line in (folder / "SHA256SUMS").read_text().splitlines()],
            "shards": shards}


def play(game: str, name: str, tmp: Path, extra: tuple = ()):
    """What case ``name`` of ``game`` gives now, in the form the golden file keeps
    (``extra``: arguments added to the command kept)."""
    case = GAMES[game][name]
    write_deck(tmp)
    for before in case.before:
        golden_run(before, tmp)
    out = golden_run([*case.args, *extra], tmp)
    if case.kind == "json":
        return _numbers(out)
    if case.kind == "sha":
        return {"sha256": text_sha(out), "lines": out.count("\n")}
    if case.kind == "table":
        return _rows(pl.read_parquet(tmp / "games.parquet"))
    return {"printed": _numbers(out), "folder": _run_folder(tmp / "run")}


def _without_paths(value, tmp: Path):
    """The JSON with the temporary folder's name taken out (it differs per run)."""
    text = json.dumps(value).replace(str(tmp), "{tmp}")
    return json.loads(text)


def _recorded(game: str, name: str):
    golden = json.loads(golden_file(game).read_text())
    assert name in golden, f"{game} {name} has no recorded output: record the golden file (see the docstring)"
    return golden[name]


def _differences(now, kept, where: str = "") -> list[str]:
    """Where ``now`` differs from the golden ``kept``: every count, label, digest and mean
    exactly, except a p-value (a ``*_p`` column), which comes from scipy's special functions
    and may move in its last digits from one scipy release to the next (to 1e-12 of itself)."""
    if isinstance(kept, dict) and isinstance(now, dict):
        if set(now) != set(kept):
            return [f"{where}: keys {sorted(set(now) ^ set(kept))} differ"]
        return [d for k in kept for d in _differences(now[k], kept[k], f"{where}/{k}")]
    if isinstance(kept, list) and isinstance(now, list):
        if len(now) != len(kept):
            return [f"{where}: {len(now)} entries, golden {len(kept)}"]
        return [d for i, (a, b) in enumerate(zip(now, kept)) for d in _differences(a, b, f"{where}[{i}]")]
    if (where.endswith("_p") and isinstance(now, float) and isinstance(kept, float)
            and math.isclose(now, kept, rel_tol=1e-12, abs_tol=1e-300)):
        return []
    return [] if now == kept and type(now) is type(kept) else [f"{where}: {now!r}, golden {kept!r}"]


@pytest.mark.parametrize("game,name", [(g, n) for g, cases in GAMES.items() for n in cases])
def test_outputs_are_unchanged(game, name, tmp_path):
    differences = _differences(_without_paths(play(game, name, tmp_path), tmp_path), _recorded(game, name))
    assert not differences, "\n".join(differences[:20])


@pytest.mark.parametrize("game,name", ONE_THREAD)
def test_one_thread_gives_the_same_outputs(game, name, tmp_path):
    assert "--threads" not in GAMES[game][name].args
    differences = _differences(_without_paths(play(game, name, tmp_path, ("--threads", "1")), tmp_path),
                               _recorded(game, name))
    assert not differences, "\n".join(differences[:20])


def test_only_a_p_value_may_move_and_only_in_its_last_digits():
    kept = {"t": [{"games": 100, "seat_p": 0.08688128745888196, "win_share": 0.29}]}
    assert _differences({"t": [{"games": 100, "seat_p": 0.08688128745888202, "win_share": 0.29}]}, kept) == []
    assert _differences({"t": [{"games": 100, "seat_p": 0.0868813, "win_share": 0.29}]}, kept)
    assert _differences({"t": [{"games": 100, "seat_p": 0.08688128745888196, "win_share": 0.2900000001}]}, kept)
    assert _differences({"t": [{"games": 100.0, "seat_p": 0.08688128745888196, "win_share": 0.29}]}, kept)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_recorded_case_is_still_played(game):
    assert sorted(json.loads(golden_file(game).read_text())) == sorted(GAMES[game])


def test_the_custom_deck_differs_from_the_printed_one(tmp_path):
    """The --deck cases play other cards than the default cases: their records' start lines differ."""
    write_deck(tmp_path)
    printed = golden_run(["record", "--game", "baumeister", "-p", "2", "--seed", "15"], tmp_path).splitlines()[0]
    custom = golden_run(["record", "--game", "baumeister", "-p", "2", "--seed", "15",
                   "--deck", "{tmp}/buildings.csv"], tmp_path).splitlines()[0]
    assert json.loads(printed)["cards"] != json.loads(custom)["cards"]


if __name__ == "__main__" and sys.argv[1:2] == ["--record"]:
    import os
    import tempfile

    os.environ.setdefault("ZSIM_ROSTER", "all")     # as the suite plays them (tests/conftest.py): the same games
    unknown = sorted(set(sys.argv[2:]) - set(GAMES))
    if unknown:
        sys.exit(f"no golden cases for {', '.join(unknown)} (games: {', '.join(GAMES)})")
    for game in sys.argv[2:] or list(GAMES):
        recorded = {}
        for case in GAMES[game]:
            with tempfile.TemporaryDirectory() as folder:
                recorded[case] = _without_paths(play(game, case, Path(folder)), Path(folder))
        GOLDEN.mkdir(exist_ok=True)
        golden_file(game).write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(recorded)} cases in {golden_file(game)}")
