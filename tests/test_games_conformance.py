"""One conformance suite for every registered game.

Whatever game registers (a built-in or a plugin), the harness promises the
same things about it, and this file checks them for each game and each of
its strategies:

* complete, legal games from every seat (the harness's illegal-move check
  never fires; places are 1..P with a first place; the score decides them);
* bit-identical results across thread counts, chunk sizes and backends;
* the fast engine equals the reference engine game by game (with the
  strategies the reference engine plays itself);
* every record the game writes is re-played by its reference engine;
* every bad input of the game contract refused in one line with status 2.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zsim.cli import cli, main
from zsim.games import registry
from zsim.harness.chunks import Matchup, fold, new_agg, play_chunk, set_threads
from zsim.harness.runs import Plan, RunFolder, read_rows, run, simulate
from zsim.strategy_registry import bots, registry as strategies_of

GAMES = sorted(registry())
SEED = 20261201


def _cases(searches: bool = True):
    """Every strategy of every game; a search with a budget of a few iterations."""
    for game in GAMES:
        for name, info in sorted(strategies_of(game).items()):
            if info.search < 0:
                yield game, name
            elif searches:
                yield game, f"{name}:iterations=2"


def _table(game: str, players: int, strategy: str, seat: int) -> tuple[str, ...]:
    """``strategy`` at ``seat``, the game's default strategy elsewhere."""
    default = registry()[game].strategies.default
    return tuple(strategy if s == seat else default for s in range(players))


@pytest.mark.parametrize("game,strategy", list(_cases()))
def test_every_strategy_plays_complete_legal_games_from_every_seat(game, strategy):
    spec = registry()[game]
    place, score = spec.seat_index("place"), spec.seat_index(spec.score)
    for players in range(spec.min_players, spec.max_players + 1):
        for seat in range(players):
            m = Matchup(players, _table(game, players, strategy, seat), game=game)
            # a search plays whole games out at each of its decisions: a few of its games say as much
            so, go = play_chunk(m, SEED, 1000 * seat, 150 if ":iterations=" not in strategy else 3)
            places = so[:, :, place]
            assert places.min() >= 1 and places.max() <= players
            assert (places == 1).any(axis=1).all(), "every game has a first place"
            # places follow the score: a better place never has less
            order = np.argsort(places, axis=1, kind="stable")
            ranked = np.take_along_axis(so[:, :, score], order, axis=1)
            assert (np.diff(ranked, axis=1) <= 0).all()


@pytest.mark.parametrize("game", GAMES)
def test_results_do_not_depend_on_threads_or_chunks(game):
    spec = registry()[game]
    fair = sorted(s.name for s in bots(game) if s.fair)      # a search's thread-independence: tests/test_search.py
    players = spec.max_players
    m = Matchup(players, tuple(fair[s % len(fair)] for s in range(players)), game=game)
    runs = []
    for threads, chunk in ((1, 3000), (2, 3000), (2, 701), (1, 64)):
        set_threads(threads)
        rows = []
        summary = simulate(m, 3000, SEED, chunk=chunk,
                           on_chunk=lambda so, go, first: rows.append((first, so.copy(), go.copy())))
        runs.append((summary.agg, np.concatenate([r[1] for r in rows]), np.concatenate([r[2] for r in rows])))
    set_threads(None)
    for agg, so, go in runs[1:]:
        assert (agg == runs[0][0]).all()
        assert (so == runs[0][1]).all() and (go == runs[0][2]).all()
    # folding the whole run at once gives the same sums as the chunked runs
    agg = new_agg(m)
    fold(m, runs[0][1], 3000, agg)
    assert (agg == runs[0][0]).all()


@pytest.mark.parametrize("game", GAMES)
def test_the_dask_backend_plays_the_same_games(game, tmp_path):
    from zsim.harness.backends import DaskBackend

    spec = registry()[game]
    m = Matchup(2, (spec.strategies.default,) * 2, game=game)
    plan = Plan(m, SEED, 2400, chunk=500)
    local = run(plan, folder=RunFolder.open(tmp_path / "local", plan, resume=False))
    backend = DaskBackend(workers=2)
    try:
        remote = run(plan, backend, RunFolder.open(tmp_path / "dask", plan, resume=False))
    finally:
        backend.close()
    assert (remote.summary.agg == local.summary.agg).all()
    import pyarrow as pa
    assert pa.concat_tables(read_rows(tmp_path / "dask")).equals(pa.concat_tables(read_rows(tmp_path / "local")))
    manifest = json.loads((tmp_path / "dask" / "manifest.json").read_text())
    assert manifest["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_fast_engine_equals_the_reference_engine(game):
    spec = registry()[game]
    names = spec.reference_strategies or tuple(sorted(s.name for s in bots(game)))
    for players in range(spec.min_players, spec.max_players + 1):
        table = tuple(names[(s + players) % len(names)] for s in range(players))
        m = Matchup(players, table, game=game)
        so, go = play_chunk(m, SEED, 0, 120)
        so, go = so.copy(), go.copy()
        for g in range(so.shape[0]):
            seat_row, game_row = spec.reference_rows(m, SEED, g)
            assert (seat_row == so[g, :, :seat_row.shape[1]]).all(), f"{game} {table} game {g}: seats differ"
            assert (game_row == go[g, :game_row.shape[0]]).all(), f"{game} {table} game {g}: game differs"


@pytest.mark.parametrize("game,strategy", list(_cases(searches=False)))
def test_every_record_replays_with_the_reference_engine(game, strategy):
    spec = registry()[game]
    players = spec.min_players + 1
    m = Matchup(players, _table(game, players, strategy, 1), game=game)
    games = list(spec.record_games(m, SEED, range(3)))
    assert len(games) == 3
    for events in games:
        assert events[0]["e"] == "start" and events[0]["name"] == game
        spec.check_record(events)              # raises, naming the line, on any broken rule


def _cli(*args):
    """(exit code, stderr) of ``zsim ARGS`` run as the console script runs it."""
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exc:
        main(list(args))
    return exc.value.code, err.getvalue()


def _one_line(code, err, *needles):
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("zsim: error: "), err
    assert "Traceback" not in err
    for n in needles:
        assert n in lines[0], (n, lines[0])


def test_an_unknown_game_is_refused_naming_the_known_ones():
    for command in (["simulate"], ["record"], ["rules"], ["strategies"], ["tournament", "--field", "x"],
                    ["tune", "x"]):
        _one_line(*_cli(*command, "--game", "schach"), "unknown game 'schach'", *GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_rule_key_of_another_game_is_refused_naming_its_game(game):
    spec = registry()[game]
    own = {s.key for s in spec.rule_specs}
    for other in GAMES:
        foreign = [s for s in registry()[other].rule_specs if s.key not in own]
        if other == game or not foreign:
            continue
        code, err = _cli("simulate", "--game", game, "-n", "10", "--rule", f"{foreign[0].key}=1")
        _one_line(code, err, f"'{foreign[0].key}' belongs to ", other, f"not to {game}", spec.rule_specs[0].key)


@pytest.mark.parametrize("game", GAMES)
def test_a_strategy_of_another_game_is_refused_naming_its_game(game):
    own = set(strategies_of(game))
    for other in GAMES:
        foreign = sorted(set(strategies_of(other)) - own)
        if other == game or not foreign:
            continue
        code, err = _cli("simulate", "--game", game, "-n", "10", "--strategies", foreign[0])
        _one_line(code, err, f"'{foreign[0]}' is a ", other, f"strategy, not a {game} one")


@pytest.mark.parametrize("game", GAMES)
def test_players_outside_the_games_range_are_refused(game):
    spec = registry()[game]
    for players in (spec.min_players - 1, spec.max_players + 1):
        _one_line(*_cli("simulate", "--game", game, "-n", "10", "-p", str(players)),
                  f"--players must be {spec.min_players}..{spec.max_players}, got {players}")


@pytest.mark.parametrize("game", GAMES)
def test_a_record_of_one_game_is_not_replayed_as_another(game, tmp_path):
    path = tmp_path / "one.jsonl"
    r = CliRunner().invoke(cli, ["record", "--game", game, "-p", "2", "--out", str(path)])
    assert r.exit_code == 0, r.output
    for other in GAMES:
        if other != game:
            _one_line(*_cli("replay", "--game", other, str(path)), f"is a {game} game, not {other}")
    # without --game the record's own start line picks the game
    r = CliRunner().invoke(cli, ["replay", str(path)])
    assert r.exit_code == 0 and r.output.strip(), r.output


@pytest.mark.parametrize("game", GAMES)
def test_resume_refuses_a_run_folder_of_another_game(game, tmp_path):
    folder = tmp_path / "run"
    r = CliRunner().invoke(cli, ["simulate", "--game", game, "-p", "2", "-n", "200", "--chunk", "100",
                                 "--out", str(folder), "-q"])
    assert r.exit_code == 0, r.output
    for other in GAMES:
        if other != game:
            _one_line(*_cli("simulate", "--game", other, "-p", "2", "-n", "200", "--chunk", "100",
                            "--out", str(folder), "--resume", "-q"),
                      f"holds a run of '{game}'", f"--game {game}")


def test_games_lists_every_game_with_its_player_range():
    r = CliRunner().invoke(cli, ["games", "--json"])
    assert r.exit_code == 0, r.output
    rows = {row["name"]: row for row in json.loads(r.output)}
    assert sorted(rows) == GAMES
    for name, row in rows.items():
        spec = registry()[name]
        assert row["players"] == [spec.min_players, spec.max_players]
        assert row["rules"] == [s.key for s in spec.rule_specs]
    text = CliRunner().invoke(cli, ["games"]).output.splitlines()
    assert len(text) == len(GAMES) and all(f"{registry()[g].min_players}-{registry()[g].max_players} players"
                                           in line for g, line in zip(rows, text))


@pytest.mark.parametrize("game", GAMES)
def test_rules_and_strategies_list_the_games_own(game):
    spec = registry()[game]
    rules = CliRunner().invoke(cli, ["rules", "--game", game]).output.splitlines()
    assert [line.split()[0] for line in rules] == [s.key for s in spec.rule_specs]
    listed = json.loads(CliRunner().invoke(cli, ["strategies", "--game", game, "--json"]).output)
    assert sorted(row["name"] for row in listed) == sorted(strategies_of(game))
    common = [p.name for p in spec.strategies.common_params]
    for row in listed:
        assert [p["name"] for p in row["params"]][:len(common)] == common


_IMPORTS_PROBE = """
import sys
from zsim.cli import main
try:
    main(["simulate", "--game", sys.argv[1], "-p", "2", "-n", "50", "-q", "--json"])
except SystemExit:
    pass
print(sorted(sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("game", GAMES)
def test_playing_a_game_loads_no_other_games_engine(game):
    """A cold start compiles only the game being played: no other game's
    kernels or strategies are even imported."""
    import ast
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _IMPORTS_PROBE, game], capture_output=True, text=True,
                          check=True)
    loaded = ast.literal_eval(done.stderr.strip().splitlines()[-1])

    def rooms(name):
        """The game module of ``name`` and the packages of its game and its strategies."""
        module = type(registry()[name]).__module__
        packages = {module.rpartition(".")[0] + "."}
        packages |= {info.module.rpartition(".")[0] + "." for info in strategies_of(name).values()}
        return module, tuple(packages)

    module, own = rooms(game)
    assert module in loaded
    assert any(m.startswith(own) and m != module for m in loaded)
    for other in GAMES:
        if other != game:
            others = rooms(other)[1]
            # the packages above a plugin's strategy modules: finding a module's source (for the kernel
            # cache's digest) imports its parent packages, never the module itself
            parents = {m.rsplit(".", k)[0] for m in (i.module for i in strategies_of(other).values())
                       for k in range(1, m.count(".") + 1)}
            assert not [m for m in loaded if m.startswith(others) and not m.startswith(own) and m not in parents], \
                other
