"""zsim as a library: the public API against the command line, its inputs,
its stops, its progress in a notebook, its documentation and the rule that
the command modules call nothing of zsim but the API.

Every comparison runs the ``zsim`` command through click's CliRunner and
the API with the same arguments; the command's defaults must be the API's,
so most calls leave the options at their defaults."""
from __future__ import annotations

import ast
import doctest
import inspect
import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import warm_game

import zsim
from zsim import api
from zsim.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


# ---------------------------------------------------------------- the command line is the API
def test_catalogues_are_the_apis():
    assert json.loads(run_cli("games", "--json")) == [g.as_dict() for g in api.games()]
    assert run_cli("games").splitlines() == [g.line() for g in api.games()]
    for game in ("zahltag", "zahlemann", "baumeister"):
        assert json.loads(run_cli("strategies", "--game", game, "--json")) == \
            [s.as_dict() for s in api.strategies(game)]
        assert run_cli("rules", "--game", game).splitlines() == [r.line() for r in api.rules(game)]
    assert run_cli("strategies").splitlines() == [line for s in api.strategies() for line in s.lines()]


def test_simulate_prints_what_the_api_returns():
    args = ["-p", "2", "-n", "300", "--seed", "5", "--strategies", "simple,random", "--rule", "payday_cost=2"]
    r = api.simulate(players=2, games=300, seed=5, strategies=["simple", "random"], rules={"payday_cost": 2},
                     progress=False)
    assert run_cli("simulate", *args) == r.text() + "\n"
    assert json.loads(run_cli("simulate", *args, "--json")) == r.to_json()
    assert r.games == 300 and r.summary["strategy"].to_list() == ["simple", "random"]


@pytest.mark.parametrize("game", ["zahlemann", "baumeister"])
def test_simulate_other_games_defaults_agree(game, background):
    warm_game(background, game)     # load the kernels the session compiles beside the tests, not compile them twice
    r = api.simulate(game=game, players=3, games=120, progress=False)
    assert run_cli("simulate", "--game", game, "-p", "3", "-n", "120") == r.text() + "\n"


def test_tournament_prints_what_the_api_returns():
    r = api.tournament(["simple", "random", "passive"], players=3, games=12, seed=2, progress=False)
    out = run_cli("tournament", "--field", "simple,random,passive", "-p", "3", "-n", "12", "--seed", "2")
    assert out == r.text() + "\n"
    doc = json.loads(run_cli("tournament", "--field", "simple,random,passive", "-p", "3", "-n", "12", "--seed",
                             "2", "--json"))
    assert doc == json.loads(json.dumps(r.to_json()))
    assert r.games == 12 * 6 and r.strategies.height == 3


def test_tune_prints_what_the_api_returns():
    r = api.tune("fixed", vs="fixed:k=8", players=2, budget=400, eval_games=100, seed=3, progress=False)
    args = ["tune", "fixed", "--vs", "fixed:k=8", "-p", "2", "--budget", "400", "--eval-games", "100", "--seed", "3"]
    assert run_cli(*args) == r.text() + "\n"
    assert json.loads(run_cli(*args, "--json")) == json.loads(json.dumps(r.to_json()))
    assert r.table["row"].to_list() == ["best", "default", "best - default"]


@pytest.mark.parametrize("game,name,cli_args,options", [
    ("zahltag", "hand-size", ["-p", "2", "--targets", "3,8"], {"players": 2, "targets": [3, 8]}),
    ("zahlemann", "money", ["-p", "2"], {"players": [2]}),
    ("baumeister", "gates", ["-p", "2"], {"players": "2"}),
])
def test_analyze_prints_what_the_api_returns(game, name, cli_args, options):
    a = api.analyze(name, game=game, games=60, seed=1, progress=False, **options)
    args = ["analyze", "--game", game, name, *cli_args, "-n", "60", "--seed", "1"]
    assert run_cli(*args) == a.text() + "\n"
    assert json.loads(run_cli(*args, "--json")) == json.loads(json.dumps(a.to_json(), default=str))
    assert a.figures and all(hasattr(f, "savefig") for f in a.figures.values())


def test_report_prints_what_the_api_writes(tmp_path):
    args = ["--game", "zahlemann", "-p", "2", "-n", "40", "--tournament-games", "4", "--strong",
            "counter", "-q"]
    out = run_cli("report", *args, "--out", str(tmp_path / "cli"))
    r = api.report(out=tmp_path / "api", game="zahlemann", players=[2], games=40, tournament_games=4,
                   strong="counter", progress=False)
    assert [v.question for v in r.verdicts] == ["seats", "skill", "seats under strong play"]
    assert out == r.text() + "\n"
    assert r.html == tmp_path / "api" / "index.html" and r.html.is_file() and r.markdown.is_file()
    same = [p.name for p in sorted((tmp_path / "cli" / "figures").iterdir())]
    assert same == [p.name for p in sorted((tmp_path / "api" / "figures").iterdir())] and same
    # the drama section's example games, pages of their own that the report links, the same both ways
    games = sorted(p.name for p in (tmp_path / "api" / "games").iterdir())
    assert len(games) == 3 and games == sorted(p.name for p in (tmp_path / "cli" / "games").iterdir())
    html = r.html.read_text(encoding="utf-8")
    assert all(f'href="games/{g}"' in html for g in games)
    assert all((tmp_path / "cli" / "games" / g).read_bytes() == (tmp_path / "api" / "games" / g).read_bytes()
               for g in games)


def test_record_and_replay_print_what_the_api_returns(tmp_path):
    recs = api.record(players=3, seed=7, games=2, first=5)
    text = "".join(recs.jsonl())
    assert run_cli("record", "-p", "3", "--seed", "7", "--games", "2", "--first", "5") == text
    api.record(players=3, seed=7, games=2, first=5, out=tmp_path / "g.jsonl")
    assert (tmp_path / "g.jsonl").read_text() == text
    played = api.replay(tmp_path / "g.jsonl")
    assert run_cli("replay", str(tmp_path / "g.jsonl")) == played.text()
    assert [g.game for g in played] == ["zahltag", "zahltag"] and len(played) == 2


def test_bench_prints_the_apis_rows():
    """Rates differ from run to run; the rows measured and the lines printed do not."""
    opts = dict(games=300, repeat=1, reference_games=0, startup=False)
    b = api.bench(**opts)
    rows = json.loads(run_cli("bench", "-n", "300", "--repeat", "1", "--reference-games", "0", "--no-startup",
                              "--json"))
    def shape(rs):
        return [(r["engine"], r["players"], r["threads"], r["field"], sorted(r)) for r in rs]
    assert shape(rows) == shape(b.rows) and b.frame.height == len(rows)
    assert len(run_cli("bench", "-n", "300", "--repeat", "1", "--reference-games", "0",
                       "--no-startup").splitlines()) == len(b.text().splitlines())


# ---------------------------------------------------------------- inputs
def test_python_values_mean_what_the_command_lines_text_means(tmp_path):
    from zsim.games.zahltag.deck import COLUMNS

    deck_csv = ROOT / "zsim" / "games" / "zahltag" / "data" / "jobs.csv"
    frame = pl.read_csv(deck_csv)
    assert tuple(c.lower() for c in frame.columns) == COLUMNS
    base = api.simulate(players=2, games=200, strategies="fixed:k=5,simple", rules=["payday_cost=2",
                        "over_cap=penalize"], deck=str(deck_csv), progress=False).summary
    same = api.simulate(players=2, games=200, strategies=[("fixed", {"k": 5}), "simple"],
                        rules={"payday_cost": 2, "over_cap": "penalize"}, deck=frame, progress=False).summary
    assert base.equals(same)
    other = api.simulate(players=2, games=200, strategies=[("fixed", {"k": 6}), "simple"],
                         rules={"payday_cost": 2, "over_cap": "penalize"}, deck=frame, progress=False).summary
    assert not base.equals(other)


@pytest.mark.parametrize("call,args", [
    (lambda: api.simulate(players=5), ["simulate", "-p", "5"]),
    (lambda: api.simulate(games=0), ["simulate", "-n", "0"]),
    (lambda: api.simulate(rules={"payday_cost": 101}), ["simulate", "--rule", "payday_cost=101"]),
    (lambda: api.simulate(rules={"coins": "1,1,2,2,4,4"}), ["simulate", "--rule", "coins=1,1,2,2,4,4"]),
    (lambda: api.simulate(strategies="nope"), ["simulate", "--strategies", "nope"]),
    (lambda: api.simulate(game="zahlemann", deck="x.csv"), ["simulate", "--game", "zahlemann", "--deck", "x.csv"]),
    (lambda: api.tournament("simple,simple"), ["tournament", "--field", "simple,simple"]),
    (lambda: api.tune("passive"), ["tune", "passive"]),
    (lambda: api.analyze("hand-size", targets="0..99"), ["analyze", "hand-size", "--targets", "0..99"]),
    (lambda: api.analyze("money"), ["analyze", "money"]),
    (lambda: api.replay("missing.jsonl"), ["replay", "missing.jsonl"]),
    (lambda: api.record(first=-1), ["record", "--first", "-1"]),
    (lambda: api.tournament(["simple"], players=9), ["tournament", "--field", "simple", "-p", "9"]),
])
def test_bad_input_is_the_one_line_the_command_prints(call, args, tmp_path, monkeypatch, capsys):
    from zsim.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(zsim.ZsimError) as exc:
        call()
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"zsim: error: {exc.value}\n"
    assert "\n" not in str(exc.value)
    assert list(tmp_path.iterdir()) == []


def test_an_analysis_refuses_an_option_it_does_not_have():
    with pytest.raises(zsim.ZsimError, match="has no option 'costs'"):
        api.analyze("hand-size", costs=[1, 2])


# ---------------------------------------------------------------- per-game rows
def test_rows_are_a_lazy_frame_over_the_parquet(tmp_path):
    r = api.simulate(players=2, games=500, chunk=200, out=tmp_path / "g.parquet", progress=False)
    rows = r.rows()
    assert isinstance(rows, pl.LazyFrame)
    wins = rows.filter(pl.col("place") == 1).group_by("seat").len().collect()
    assert rows.select(pl.len()).collect().item() == 1000 and wins["len"].sum() >= 500
    folder = api.simulate(players=2, games=500, chunk=200, out=tmp_path / "run", progress=False)
    assert folder.rows().collect().sort("game", "seat").equals(rows.collect().sort("game", "seat"))
    with pytest.raises(zsim.ZsimError, match="no per-game rows"):
        api.simulate(players=2, games=10, progress=False).rows()


# ---------------------------------------------------------------- stops
def _stop_after(chunks: int):
    def progress(done, total):
        if done >= chunks * 100:
            raise KeyboardInterrupt
    return progress


def test_a_stop_leaves_no_half_written_parquet(tmp_path):
    with pytest.raises(zsim.Interrupted) as stop:
        api.simulate(players=2, games=1000, chunk=100, out=tmp_path / "g.parquet", progress=_stop_after(3))
    assert list(tmp_path.iterdir()) == []
    partial = stop.value.partial
    assert isinstance(stop.value, KeyboardInterrupt)
    assert partial.games == 300 and partial.interrupted and stop.value.done == 300 and stop.value.total == 1000
    assert "300 of 1,000 games" in stop.value.message and "was not written" in stop.value.message
    whole = api.simulate(players=2, games=300, chunk=100, progress=False)
    assert partial.summary.equals(whole.summary)


def test_a_stopped_run_folder_resumes_to_the_unbroken_run(tmp_path):
    with pytest.raises(zsim.Interrupted):
        api.simulate(players=2, games=600, chunk=100, out=tmp_path / "run", progress=_stop_after(2))
    assert all(not p.name.endswith(".part") for p in (tmp_path / "run").iterdir())
    resumed = api.simulate(players=2, games=600, chunk=100, out=tmp_path / "run", resume=True, progress=False)
    assert resumed.resumed_games == 200
    assert resumed.summary.equals(api.simulate(players=2, games=600, chunk=100, progress=False).summary)


def test_a_stopped_analysis_and_tournament_write_nothing(tmp_path):
    with pytest.raises(zsim.Interrupted, match="nothing was written"):
        api.analyze("hand-size", players=2, targets=[2, 4, 6], games=100, out=tmp_path / "t.parquet",
                    plots=tmp_path / "plots", progress=lambda done, total: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(zsim.Interrupted, match="no results"):
        api.tournament(["simple", "random"], players=2, games=50, out=tmp_path / "t.parquet",
                       progress=lambda done, total: (_ for _ in ()).throw(KeyboardInterrupt))
    assert list(tmp_path.iterdir()) == []


def test_progress_callback_sees_every_game():
    seen = []
    api.simulate(players=2, games=250, chunk=100, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(100, 250), (200, 250), (250, 250)]
    with pytest.raises(zsim.ZsimError, match="progress must be"):
        api.simulate(players=2, games=10, progress="yes")


def test_progress_shows_in_a_notebook(monkeypatch):
    """In a Jupyter kernel the progress is a line of text below the cell, updated as chunks finish."""
    from zsim import progress

    shown = []

    class Handle:
        def update(self, obj, raw=False):
            shown.append(obj["text/plain"])

    def display(obj, raw=False, display_id=False):
        shown.append(obj["text/plain"])
        return Handle()

    import IPython.display

    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(IPython.display, "display", display)
    monkeypatch.setattr(progress._NotebookLine, "update",
                        lambda self, done: self._put(f"{self.label}: {done:,}/{self.total:,} {self.unit}"))
    api.simulate(players=2, games=300, chunk=100)
    assert shown[:3] == ["simulate: 100/300 games", "simulate: 200/300 games", "simulate: 300/300 games"]
    assert shown[-1].startswith("simulate: 300/300 games in ")
    shown.clear()
    api.simulate(players=2, games=300, chunk=100, progress=False)
    assert shown == []


# ---------------------------------------------------------------- documentation
PUBLIC = [getattr(api, n) for n in api.__all__]


def test_the_public_names_are_the_apis():
    import zsim.harness.bench
    import zsim.harness.bench_scaling
    import zsim.harness.tournament
    import zsim.harness.tune                                      # the private modules, imported

    assert zsim.__all__ == api.__all__
    for name in zsim.__all__:
        assert getattr(zsim, name) is getattr(api, name) or name == "games", name
    for name in ("tournament", "tune", "bench"):           # the verbs, not the modules behind them
        assert getattr(__import__("zsim", fromlist=[name]), name) is getattr(api, name)
    # the one exception: zsim.games is the package zsim/games/ (its modules are imported by strategies),
    # made callable as the verb
    import sys

    import zsim.games.zahltag.constants
    from zsim import games
    assert zsim.games is games is sys.modules["zsim.games"] and zsim.games is not api.games
    assert zsim.games.zahltag.constants is sys.modules["zsim.games.zahltag.constants"]
    names = [g.name for g in zsim.games()]
    assert names == [g.name for g in api.games()] and names[:3] == ["zahltag", "zahlemann", "baumeister"]
    assert [g.as_dict() for g in zsim.games()] == [g.as_dict() for g in api.games()]
    assert zsim.tournament(["simple"], players=2, games=3, progress=False).games == 3
    assert zsim.tune("fixed", players=2, budget=8, eval_games=4, progress=False).strategy == "fixed"
    from zsim.harness.tournament import run_tournament
    assert callable(run_tournament) and run_tournament is not zsim.tournament


@pytest.mark.parametrize("obj", PUBLIC, ids=zsim.__all__)
def test_every_public_name_has_a_docstring_with_an_example(obj):
    doc = inspect.getdoc(obj) or ""
    assert "Example" in doc and ">>>" in doc, obj
    if inspect.isfunction(obj):
        sig = inspect.signature(obj)
        assert sig.return_annotation is not inspect.Signature.empty, obj
        for p in sig.parameters.values():
            assert p.annotation is not inspect.Parameter.empty or p.kind is p.VAR_KEYWORD, (obj, p.name)


def test_the_examples_run(tmp_path, monkeypatch):
    """Every example not marked to skip gives the output it shows."""
    monkeypatch.chdir(tmp_path)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    ran = 0
    for name, obj in [("zsim", zsim), ("zsim.api", api), *zip(api.__all__, PUBLIC)]:
        for test in finder.find(obj, name, globs={}):
            ran += len(test.examples)
            runner.run(test)
    assert runner.failures == 0 and ran >= 30


# ---------------------------------------------------------------- the command modules call only the API
CLI_MODULES = sorted((ROOT / "zsim").glob("cli*.py"))
HELPERS = {"zsim.cli_options", "zsim.cli_output"}
#: the output helper's own plumbing: the terminal's streams, the stop signals, the exit codes
OUTPUT_PLUMBING = {"zsim.signals", "zsim.terminal", "zsim.errors"}


def _zsim_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "zsim"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "zsim":
            if node.module == "zsim":
                found |= {f"zsim.{a.name}" if a.name != "__version__" else "zsim" for a in node.names}
            else:
                found.add(node.module)
    return found


@pytest.mark.parametrize("path", CLI_MODULES, ids=[p.name for p in CLI_MODULES])
def test_command_modules_import_only_the_api_and_their_helpers(path):
    name = f"zsim.{path.stem}"
    allowed = {"zsim", "zsim.api"} | HELPERS | {f"zsim.{p.stem}" for p in CLI_MODULES}
    if name == "zsim.cli_output":
        allowed |= OUTPUT_PLUMBING
    if name == "zsim.cli_options":
        allowed = {"zsim", "zsim.api"}
    assert _zsim_imports(path) - allowed == set()


def test_the_import_rule_sees_a_forbidden_import(tmp_path):
    bad = tmp_path / "cli_bad.py"
    bad.write_text("from zsim.harness.chunks import Matchup\nimport zsim.harness.tune\nfrom zsim import api\nfrom zsim.harness import runs\n")
    assert _zsim_imports(bad) == {"zsim.harness.chunks", "zsim.harness.tune", "zsim.api", "zsim.harness"}
