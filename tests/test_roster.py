"""Rosters (zsim.roster): a kernel compiled for the strategies a job plays.

The rest of the suite runs with ``ZSIM_ROSTER=all`` (one kernel of every
strategy, see conftest.py); these tests run the default. A kernel compiled for
a game's default field alone must play the same games, bit for bit, as the
kernel of every strategy; a second process must load it from the kernel cache
rather than compile it again; and a job of many matchups must compile one
kernel for all of them."""
from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from click.testing import CliRunner
from numba import typeof

import zsim.harness.chunks
from analyses.play import Point, play_points
from zsim.cli import cli, main
from zsim.errors import ZsimError
from zsim.games import game_names
from zsim.roster import Roster, roster_of
from zsim.harness.chunks import Matchup
from zsim.dispatch import dispatcher, roster_dispatch
from zsim.roster import roster_for as roster
from zsim.strategy_registry import bots, registry
from zsim.harness.tournament import run_tournament

SIM = ["simulate", "-p", "2", "-n", "300", "--seed", "11", "--json", "-q"]


def _exact_env(cache_dir=None):
    import os

    env = dict(os.environ, ZSIM_ROSTER="exact")
    if cache_dir is not None:
        env["ZSIM_CACHE_DIR"] = str(cache_dir)
    return env


def _simulate_exact(background, game):
    return background.run([sys.executable, "-m", "zsim.cli", *SIM, "--game", game], env=_exact_env())


#: a kernel of one strategy, loaded twice in a fresh kernel cache: the second
#: process prints its cache hits for the roster's batch kernel
_LOAD = """
import numpy as np
from zsim.games.zahlemann.batch_nb import play_blocks_nb
from zsim.harness.chunks import Matchup, play_chunk
play_chunk(Matchup(2, ("first", "first"), game="zahlemann"), 3, 0, 50)
hits = sum(n for sig, n in play_blocks_nb.stats.cache_hits.items() if "Roster(zahlemann:" in str(sig))
misses = sum(n for sig, n in play_blocks_nb.stats.cache_misses.items() if "Roster(zahlemann:" in str(sig))
print(hits, misses)
"""


#: Zahltag's mixed tables: a different bot in each seat (the seat-by-seat bids
#: of a kernel for several strategies, see resolve_nb.bids_nb)
MIXED = ("random", "counter", "undercut", "simple")
#: the tables each game plays through the kernels for a table size. Baumeister
#: compiles one for a roster of bots it copies in (first, random) or of bots it
#: calls (the heuristic ones), not for one of both kinds (batch.play_into)
SEAT_TABLES = {"zahltag": [("simple",) * p for p in (2, 3, 4)] + [MIXED[:p] for p in (2, 3, 4)],
               "baumeister": [("first",) * p for p in (2, 3, 4)] + [("random", "first") * 2]
               + [("builder", "value", "saboteur", "seller")]}

#: a game's tables through the kernels compiled for each table size: a digest
#: of every output, and the seat counts compiled
_SEATS = """
import hashlib
from zsim.games.%s.batch_nb import play_blocks_nb
from zsim.harness.chunks import Matchup, play_chunk
for table in %r:
    h = hashlib.sha256()
    for a in play_chunk(Matchup(len(table), table, game=%r), 17, 0, 600):
        h.update(a.tobytes())
    print(len(table), h.hexdigest())
print(sorted({str(sig).split(" seats)")[0][-1] for sig in play_blocks_nb.signatures if " seats)" in str(sig)}))
"""


def _seat_digests(background, game):
    script = _SEATS % (game, SEAT_TABLES[game], game)
    return background.run([sys.executable, "-c", script], env=_exact_env())


def _load_twice(background, cache_dir):
    out = []
    for _ in range(2):
        done = background.run([sys.executable, "-c", _LOAD], env=_exact_env(cache_dir))
        out.append(done)
        if done.returncode != 0:
            break
    return out


def start_in_background(background, items):
    """Each game's default field in a process of its own, compiled for that field alone."""
    names = {item.originalname for item in items}
    if "test_a_kernel_of_one_field_plays_the_games_of_the_kernel_of_all" in names:
        for game in game_names():
            background.start(("roster", game), lambda game=game: _simulate_exact(background, game))
    if "test_a_second_process_loads_the_rosters_kernel_from_the_cache" in names:
        folder = background.tmp_path_factory.mktemp("roster-cache")
        background.start(("roster-cache",), lambda: _load_twice(background, folder))
    if "test_a_kernel_for_a_table_size_plays_the_games_of_the_kernel_for_any" in names:
        for game in SEAT_TABLES:
            background.start(("roster-seats", game), lambda game=game: _seat_digests(background, game))


@pytest.mark.late
@pytest.mark.parametrize("game", game_names())
def test_a_kernel_of_one_field_plays_the_games_of_the_kernel_of_all(background, game):
    exact = background.result(("roster", game), lambda: _simulate_exact(background, game))
    assert exact.returncode == 0, exact.stderr
    everyone = CliRunner().invoke(cli, [*SIM, "--game", game])     # this process: ZSIM_ROSTER=all
    assert everyone.exit_code == 0, everyone.output
    assert json.loads(exact.stdout) == json.loads(everyone.output)


@pytest.mark.late
def test_a_second_process_loads_the_rosters_kernel_from_the_cache(background):
    first, second = background.result(("roster-cache",), lambda: None)
    assert first.returncode == 0 and second.returncode == 0, (first.stderr, second.stderr)
    assert first.stdout.split() == ["0", "1"]      # compiled once ...
    assert second.stdout.split() == ["1", "0"]     # ... and loaded, not compiled, by the next process


@pytest.mark.late
@pytest.mark.parametrize("game", list(SEAT_TABLES))
def test_a_kernel_for_a_table_size_plays_the_games_of_the_kernel_for_any(background, game):
    """Zahltag's and Baumeister's engines compile a roster for their number of
    players (Roster.for_seats), the count a constant in their code; those
    kernels play the same games, every output bit for bit, as the kernel of
    every strategy, which is compiled for any number. Zahltag's mixed tables are
    asked their bids seat by seat there, and in a loop here; Baumeister's seat
    loops (a card shown to all, the bids reset, the targets) are unrolled."""
    import hashlib

    done = background.result(("roster-seats", game), lambda: _seat_digests(background, game))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    tables = SEAT_TABLES[game]
    assert lines[len(tables)] == "['2', '3', '4']"
    for table, line in zip(tables, lines):
        h = hashlib.sha256()
        for a in zsim.harness.chunks.play_chunk(Matchup(len(table), table, game=game), 17, 0, 600):   # ZSIM_ROSTER=all here
            h.update(a.tobytes())
        assert line == f"{len(table)} {h.hexdigest()}"


def test_a_roster_for_a_table_size_is_a_roster_of_its_own(monkeypatch):
    from numba import njit

    from zsim.roster import seats_nb

    monkeypatch.setenv("ZSIM_ROSTER", "exact")
    sids = {s.name: s.sid for s in bots("zahltag")}
    both = roster("zahltag", ["simple", "random"])
    four = both.for_seats(4)
    assert four.seats == 4 and four.sids == both.sids and four != both and both.seats == 0
    assert four is both.for_seats(4) and four.for_seats(4) is four and four.for_seats(2) == both.for_seats(2)
    assert "seats=4" in repr(four) and roster_of("zahltag", np.array([sids["random"]] * 4), four) is four
    every = Roster("zahltag", both.sids, calls=True)
    assert every.for_seats(3) is every                 # the fast-compiling kernel stays for any number
    with pytest.raises(ValueError, match="seats"):
        Roster("zahltag", both.sids, seats=-1)

    @njit
    def count(r, n):
        return seats_nb(r, n)

    assert count(four, 4) == 4 and count(both, 3) == 3 and count(both, np.int32(2)) == 2
    assert "4 seats" in str(count.signatures[0][0]) and "seats" not in str(count.signatures[1][0])


def test_a_roster_is_its_strategies_and_refuses_ids_outside_it(monkeypatch):
    monkeypatch.setenv("ZSIM_ROSTER", "exact")
    sids = {s.name: s.sid for s in bots("zahltag")}
    both = roster("zahltag", ["simple", "random", "simple"])
    assert both == Roster("zahltag", [sids["simple"], sids["random"]])
    assert roster("zahltag", ["fixed:k=5"]).sids == (sids["fixed"],)
    assert roster_of("zahltag", np.array([sids["random"]] * 3), both) is both
    with pytest.raises(ValueError, match="not all in"):
        roster_of("zahltag", np.array([sids["passive"]]), both)
    with pytest.raises(ValueError, match="not all in"):
        roster_of("baumeister", np.array([sids["simple"]]), both)
    monkeypatch.setenv("ZSIM_ROSTER", "all")
    assert roster_of("zahltag", np.array([sids["passive"]])).sids == tuple(sorted(sids.values()))


def test_a_rosters_dispatch_holds_its_strategies_alone():
    sids = {s.name: s.sid for s in bots("baumeister")}
    one = roster_dispatch("baumeister", (sids["value"],))
    source = open(one.__file__, encoding="utf-8").read()
    assert "if sid ==" not in source and source.count("import_module(") == 1
    assert "strategies.baumeister.value" in source
    pair = roster_dispatch("baumeister", (sids["first"], sids["seller"]))
    source = open(pair.__file__, encoding="utf-8").read()
    assert source.count("import_module(") == 2 and f"if sid == {sids['first']}:" in source
    with pytest.raises(TypeError, match="inside a numba kernel"):
        dispatcher("baumeister").decide_nb(None, 0, *range(14))


def test_a_roster_splits_into_the_strategies_copied_in_and_those_called(monkeypatch):
    """A strategy module's ``INLINE = True`` puts it in the part of a roster that
    Baumeister copies into every site that asks a decision; the rest are called
    (``table_nb.ask_nb``). A roster of one part alone has no other, and a roster
    whose dispatch is a call already copies nothing in."""
    from numba import njit

    from zsim.roster import in_inline_part_nb, roster_parts

    monkeypatch.setenv("ZSIM_ROSTER", "exact")
    infos = registry("baumeister")
    assert {n for n, i in infos.items() if i.inline} == {"first", "random"}
    assert not any(i.inline for i in registry("zahltag").values())
    sids = {n: i.sid for n, i in infos.items()}
    mixed = roster("baumeister", ["value", "first", "random", "seller"])
    typed = typeof(mixed)
    inline, called = roster_parts(typed)
    assert inline.sids == tuple(sorted((sids["first"], sids["random"])))
    assert called.sids == tuple(sorted((sids["value"], sids["seller"])))
    assert (inline.game, called.game) == ("baumeister", "baumeister")
    assert roster_parts(typeof(roster("baumeister", ["first"]))) == (typeof(roster("baumeister", ["first"])), None)
    assert roster_parts(typeof(roster("baumeister", ["value"])))[0] is None
    assert roster_parts(typeof(roster("zahltag", ["simple", "random"])))[0] is None
    every = typeof(Roster("baumeister", mixed.sids, calls=True))
    assert roster_parts(every) == (None, every)

    @njit
    def copied_in(r, sid):
        return in_inline_part_nb(r, sid)

    assert [copied_in(mixed, s) for s in sorted(sids.values())] == \
        [s in (sids["first"], sids["random"]) for s in sorted(sids.values())]


def test_the_kernel_of_every_strategy_calls_its_dispatch(monkeypatch):
    """``ZSIM_ROSTER=all`` builds its kernel to compile fast: the branch over the
    strategies is a kernel of its own, called at each decision; any other
    roster, every strategy included, copies the branch into its caller."""
    sids = tuple(sorted(s.sid for s in bots("zahltag")))
    monkeypatch.setenv("ZSIM_ROSTER", "all")
    every = roster_of("zahltag", [sids[0]])
    assert every.calls and every.sids == sids and every != Roster("zahltag", sids)
    called = open(roster_dispatch("zahltag", sids, True).__file__, encoding="utf-8").read()
    copied = open(roster_dispatch("zahltag", sids).__file__, encoding="utf-8").read()
    assert "@hot_uncached\ndef adjust_nb(" in called and "hot_inline" not in called
    assert "@hot_inline\ndef adjust_nb(" in copied
    assert called.count("import_module(") == copied.count("import_module(") == len(sids)
    monkeypatch.setenv("ZSIM_ROSTER", "exact")
    assert not roster_of("zahltag", sids).calls and roster_of("zahltag", sids) == Roster("zahltag", sids)


def test_a_called_dispatch_module_imports_by_name_from_the_kernel_cache():
    """numba imports a called dispatch's module by name when a fresh process
    loads a cached kernel that calls it, before any roster asked for it."""
    import importlib
    from pathlib import Path

    import zsim
    from zsim.games import get_game

    sids = tuple(sorted(s.sid for s in bots("zahlemann")))
    module = roster_dispatch("zahlemann", sids, True)
    name = module.__name__
    del sys.modules[name]                     # as a fresh process sees it
    try:
        again = importlib.import_module(name)
        assert again is not module and again.__file__ == module.__file__
        assert all(hasattr(again, f"impl_{fn}") for fn, _ in get_game("zahlemann").strategies.kernels)
    finally:
        sys.modules[name] = module
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"zsim_dispatch_zahlemann_nothing_{Path(zsim.NUMBA_CACHE).name}")


def test_a_bad_roster_setting_is_one_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setenv("ZSIM_ROSTER", "some")
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "-n", "10", "-q"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines() == ["zsim: error: ZSIM_ROSTER must be exact or all, not 'some'"]
    with pytest.raises(ZsimError):
        roster_of("zahltag", [0])


def _spy(monkeypatch):
    """Record the roster each chunk asks for, and play it on the suite's kernel of every strategy
    (``ZSIM_ROSTER=all``, compiled already: the exact roster of every strategy would be a kernel of its own)."""
    monkeypatch.setenv("ZSIM_ROSTER", "exact")
    asked: list[Roster] = []
    real = zsim.harness.chunks.roster_of

    def spy(game, ids, among=None):
        asked.append(real(game, ids, among))
        with monkeypatch.context() as m:
            m.setenv("ZSIM_ROSTER", "all")
            return real(game, ids)

    monkeypatch.setattr(zsim.harness.chunks, "roster_of", spy)
    return asked


def test_a_tournament_compiles_one_kernel_for_all_its_entries(monkeypatch):
    asked = _spy(monkeypatch)
    entries = ("simple", "random", "passive")
    run_tournament(entries, 2, 12, 5, check_identical=False)
    assert len(asked) >= 6 and set(asked) == {roster("zahltag", entries)}


def test_an_analysis_compiles_one_kernel_for_all_its_points(monkeypatch):
    asked = _spy(monkeypatch)
    points = [Point({"k": 0}, Matchup(2, ("simple", "simple")), 20),
              Point({"k": 1}, Matchup(2, ("random", "fixed:k=4")), 20)]
    play_points(points, 3, [])
    assert len(asked) == 2 and set(asked) == {roster("zahltag", ["simple", "random", "fixed"])}


@pytest.mark.parametrize("game", ["zahlemann", "baumeister"])
def test_the_reference_engines_kernel_decider_plays_only_within_compile_for(game, monkeypatch):
    """A job naming the strategies its kernel holds (``compile_for``) cannot
    seat one outside them: refused before anything compiles."""
    import importlib

    monkeypatch.setenv("ZSIM_ROSTER", "exact")       # as the probe checks run it

    kd = importlib.import_module(f"zsim.games.{game}.reference_kernels")
    rules = importlib.import_module(f"zsim.games.{game}.rules").Rules()
    table = [importlib.import_module("zsim.games.baumeister.cards").default_deck()] if game == "baumeister" else []
    with pytest.raises(ValueError, match="are not all in"):
        kd.play_reference_game(2, rules, *table, ["first", "first"], 1, 0, compile_for=("random",))
