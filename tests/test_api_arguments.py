"""Every argument of every public function is checked at the door.

A wrong value (a float where a whole number belongs, even 2.0; a string of
digits; None where None means nothing; a bool; a list; an object; a number
out of range; a path that is no path) raises :class:`zsim.ZsimError` with one
line naming the option as ``zsim`` spells it, before any game is played:
nothing else, never a value quietly truncated or parsed. Each function is
called with small valid arguments and one of them replaced by a wrong value,
so that a value let through by mistake plays a handful of games at most (and
fails the test). Numpy integers are as good as ints, and become ints.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zsim
from zsim import api

MAX_SEED = (1 << 64) - 1
MAX_GAMES = 1 << 62
GAMES = ("zahltag", "zahlemann", "baumeister")


# ---------------------------------------------------------------- wrong values
def _others(none_ok: bool = False):
    """Values of no option's type: objects, lists, bytes, complex numbers (and None unless allowed)."""
    parts = [st.builds(object), st.lists(st.integers(0, 9), max_size=3), st.binary(max_size=4),
             st.complex_numbers(max_magnitude=10, allow_nan=False)]
    return st.one_of(*parts, *([] if none_ok else [st.none()]))


def not_whole(low: int | None = None, high: int | None = None, none_ok: bool = False):
    """Anything a whole-number option must refuse: floats (2.0 too), strings of
    digits, bools, fractions, numpy floats, and integers outside ``low..high``."""
    parts = [st.floats(), st.from_regex(r"-?[0-9]{1,8}", fullmatch=True), st.booleans(),
             st.fractions(), st.floats(-1e6, 1e6).map(np.float64), st.just(np.bool_(True)), _others(none_ok)]
    if low is not None:
        parts += [st.integers(max_value=low - 1), st.integers(low - 1000, low - 1).map(np.int64)]
    if high is not None:
        parts.append(st.integers(min_value=high + 1))
    return st.one_of(*parts)


def not_flag():
    return st.one_of(st.integers(), st.text(max_size=5), st.none(), st.floats(), _others())


def not_path(none_ok: bool = True):
    return st.one_of(st.integers(), st.floats(), st.booleans(), st.sampled_from(["", "   ", "a\0b.parquet"]),
                     _others(none_ok))


def not_name(bad_words=(), none_ok: bool = False):
    """A non-string, or one of ``bad_words`` (strings the option does not take)."""
    return st.one_of(st.integers(), st.floats(), st.booleans(), _others(none_ok),
                     *([st.sampled_from(bad_words)] if bad_words else []))


def not_progress():
    return st.one_of(st.integers(), st.text(max_size=5), st.none(), st.floats(), _others())


def not_game():
    return not_name() | st.text(max_size=12).filter(lambda s: s not in GAMES)


def not_strategies():
    """Strategy lists no command takes: empty lists and entries, dicts, sets, numbers, unknown names."""
    return st.one_of(
        st.sampled_from(["", " , ", ",simple", "simple,", "simple,,random", "nope", "simple,nope"]),
        st.just([]), st.just(["simple", ""]), st.just(["simple", 5]), st.just(("simple", 5)),
        st.dictionaries(st.sampled_from(["simple", "random", "value"]), st.integers(0, 3)),
        st.frozensets(st.sampled_from(["simple", "random"])),
        st.integers(), st.floats(), st.booleans(), st.builds(object), st.binary(min_size=1, max_size=4))


def not_rules():
    return st.one_of(
        st.integers(), st.floats(), st.builds(object), st.binary(min_size=1, max_size=4),
        st.sampled_from([{"hand_size": 1.5}, {"hand_size": "x"}, {"bogus_key": 1}, ["bogus_key=1"], [5],
                         "hand_size=99", ("hand_size=7", None)]))


def not_deck():
    return st.one_of(st.integers(), st.floats(), st.builds(object), st.lists(st.integers(), max_size=2),
                     st.sampled_from(["", "a\0b.csv", "no-such-deck.csv"]))


def not_counts(low: int, high: int):
    """Player counts no command takes: empty entries, fractions, out of range, other types."""
    return st.one_of(
        st.sampled_from(["", "2,,3", ",2", "2,", "x", "2..x", [], [2.5], [2, "3"], {2: 1}, 1.5, True]),
        st.integers(max_value=low - 1), st.integers(min_value=high + 1),
        st.lists(st.integers(min_value=high + 1), min_size=1, max_size=2), st.builds(object))


# ---------------------------------------------------------------- each function, each argument
#: (function, small valid keyword arguments, positional arguments)
BASE = {
    "games": (api.games, {}, ()),
    "rules": (api.rules, {"game": "zahltag"}, ()),
    "strategies": (api.strategies, {"game": "zahltag"}, ()),
    "analyses": (api.analyses, {"game": "zahltag"}, ()),
    "analysis": (api.analysis, {"name": "tradeoff", "game": "zahltag"}, ()),
    "simulate": (api.simulate, {"players": 2, "games": 1, "progress": False}, ()),
    "tournament": (api.tournament, {"field": ["simple", "random"], "players": 2, "games": 1, "progress": False}, ()),
    "tune": (api.tune, {"strategy": "fixed", "players": 2, "budget": 20, "eval_games": 4, "progress": False}, ()),
    "analyze": (api.analyze, {"name": "hand-size", "players": 2, "targets": [2], "games": 20,
                              "progress": False}, ()),
    "report": (api.report, {"out": "report-folder", "players": [2], "games": 20, "tournament_games": 1,
                            "progress": False}, ()),
    "record": (api.record, {"players": 2, "games": 1}, ()),
    "replay": (api.replay, {"path": "RECORD"}, ()),
    "bench": (api.bench, {"games": 1, "repeat": 1, "reference_games": 0, "startup": False}, ()),
    "sweep": (api.sweep, {"rules": {"payday_cost": [0, 1]}, "players": 2, "games": 2, "strong": "none",
                          "progress": False}, ()),
    "compare": (api.compare, {"rules": {"payday_cost": 0}, "players": 2, "games": 2, "strong": "none",
                              "progress": False}, ()),
    "view": (api.view, {"record": "RECORD", "out": "view-pages", "continuations": 0, "hint_iterations": 0,
                        "games": 1}, ()),
    "balance": (api.balance, {"free": {"payday_cost": "0..1"}, "targets": ["turns<=100"], "players": 2,
                              "budget": 40, "batch": 2, "strong": "none", "progress": False}, ()),
}

PLAYERS = not_whole(2, 4)
THREADS = not_whole(1, 1 << 20, none_ok=True)
SEED = not_whole(0, MAX_SEED)
GAMES_ARG = not_whole(1, MAX_GAMES)

STRONG = st.one_of(st.sampled_from(["", "nope", "seer", "ismcts:bogus=1", "simple,random"]),
                   st.integers(), st.floats(), st.booleans(), _others(none_ok=True))
MARGIN = st.one_of(st.floats(max_value=0), st.floats(min_value=50.001), st.just(float("nan")),
                   st.text(max_size=4), st.booleans(), _others(none_ok=False))


def not_targets():
    return st.one_of(st.sampled_from([[], [""], ["gap<=1"], ["turns<"], ["turns=5"], ["turns<=x"], [5],
                                      ["turns<=20", "turns>=30"], {"turns": 30}]),
                     st.integers(), st.floats(), st.booleans(), _others())


#: (function, argument) -> the wrong values to try
WRONG = {
    ("rules", "game"): not_game(),
    ("strategies", "game"): not_game(),
    ("analyses", "game"): not_game(),
    ("analysis", "game"): not_game(),
    ("analysis", "name"): not_name(["nope", "money", ""]),

    ("simulate", "game"): not_game(),
    ("simulate", "players"): PLAYERS,
    ("simulate", "games"): GAMES_ARG,
    ("simulate", "seed"): SEED,
    ("simulate", "strategies"): not_strategies(),
    ("simulate", "rules"): not_rules(),
    ("simulate", "deck"): not_deck(),
    ("simulate", "out"): not_path(),
    ("simulate", "resume"): not_flag(),
    ("simulate", "precision"): st.one_of(st.floats(max_value=0), st.floats(min_value=1), st.just(float("nan")),
                                         st.integers(), st.just(10 ** 400), st.text(max_size=4), st.booleans(),
                                         _others(none_ok=True)),
    ("simulate", "backend"): not_name(["threads", "Local", ""]),
    ("simulate", "scheduler"): not_name(none_ok=True) | st.text(max_size=12),    # any, with the local backend
    ("simulate", "workers"): st.one_of(not_whole(none_ok=True), st.integers()),  # any, with the local backend
    ("simulate", "chunk"): not_whole(1, 1 << 24),
    ("simulate", "threads"): THREADS,
    ("simulate", "progress"): not_progress(),

    ("tournament", "field"): not_strategies() | st.sampled_from(["simple,simple", None]),
    ("tournament", "game"): not_game(),
    ("tournament", "players"): PLAYERS,
    ("tournament", "games"): GAMES_ARG,
    ("tournament", "seatings"): not_name(["some", "ALL", ""]),
    ("tournament", "seed"): SEED,
    ("tournament", "rules"): not_rules(),
    ("tournament", "deck"): not_deck(),
    ("tournament", "out"): not_path(),
    ("tournament", "compare_independent"): not_flag(),
    ("tournament", "threads"): THREADS,
    ("tournament", "progress"): not_progress(),

    ("tune", "strategy"): not_name(["", "nope", "passive", "fixed:k=3"]),
    ("tune", "vs"): not_strategies() | st.sampled_from(["simple,random"]),
    ("tune", "game"): not_game(),
    ("tune", "players"): PLAYERS,
    ("tune", "budget"): not_whole(2, (1 << 62) + 1),      # two players: at most 2 * 2**61 deals' worth
    ("tune", "batch"): not_whole(2, none_ok=True),
    ("tune", "eval_games"): not_whole(4, (1 << 62) + 1),
    ("tune", "seed"): SEED,
    ("tune", "optimizer"): not_name(["Bogus", ""]),
    ("tune", "rules"): not_rules(),
    ("tune", "deck"): not_deck(),
    ("tune", "threads"): THREADS,
    ("tune", "progress"): not_progress(),

    ("analyze", "name"): not_name(["nope", "money", ""]),
    ("analyze", "game"): not_game(),
    ("analyze", "out"): not_path() | st.just("tables.txt"),
    ("analyze", "plots"): not_path(),
    ("analyze", "threads"): THREADS,
    ("analyze", "progress"): not_progress(),
    ("analyze", "games"): not_whole(1, MAX_GAMES),
    ("analyze", "seed"): SEED,
    ("analyze", "players"): PLAYERS,
    ("analyze", "targets"): not_counts(0, 12),
    ("analyze", "field"): not_strategies(),
    ("analyze", "rules"): not_rules(),
    ("analyze", "deck"): not_deck(),

    ("report", "out"): not_path(none_ok=False),
    ("report", "game"): not_game(),
    ("report", "players"): not_counts(2, 4),
    ("report", "games"): not_whole(1, MAX_GAMES),
    ("report", "tournament_games"): not_whole(1, MAX_GAMES, none_ok=True),
    ("report", "seed"): SEED,
    ("report", "field"): not_strategies(),
    ("report", "rules"): not_rules(),
    ("report", "deck"): not_deck(),
    ("report", "threads"): THREADS,
    ("report", "progress"): not_progress(),
    ("report", "strong"): st.one_of(st.sampled_from(["", "nope", "seer", "ismcts:bogus=1", "simple,random"]),
                                    st.integers(), st.floats(), st.booleans(), _others(none_ok=True)),
    ("report", "strong_games"): not_whole(1, MAX_GAMES, none_ok=True),
    ("report", "margin"): st.one_of(st.floats(max_value=0), st.floats(min_value=50.001), st.just(float("nan")),
                                    st.text(max_size=4), st.booleans(), _others(none_ok=False)),

    ("record", "game"): not_game(),
    ("record", "players"): PLAYERS,
    ("record", "seed"): SEED,
    ("record", "games"): GAMES_ARG,
    ("record", "first"): not_whole(0, MAX_GAMES - 1),
    ("record", "strategies"): not_strategies(),
    ("record", "rules"): not_rules(),
    ("record", "deck"): not_deck(),
    ("record", "out"): not_path(),
    ("record", "progress"): not_flag(),

    ("view", "record"): not_path(none_ok=False) | st.just("no-such-record.jsonl"),
    ("view", "out"): not_path(none_ok=False),
    ("view", "continuations"): not_whole(0, 1 << 16),
    ("view", "hint"): not_name(["nope", "", "simple", "seer"]),
    ("view", "hint_iterations"): not_whole(0, 1 << 20),
    ("view", "threshold"): st.one_of(st.floats(max_value=0.4999), st.floats(min_value=1.0), st.just(float("nan")),
                                     st.text(max_size=4), st.booleans(), _others(none_ok=False)),
    ("view", "games"): not_whole(1, None, none_ok=True),
    ("view", "quiet"): not_flag(),
    ("replay", "path"): not_path(none_ok=False) | st.just("no-such-record.jsonl"),
    ("replay", "check"): not_flag(),
    ("replay", "progress"): not_flag(),
    ("replay", "game"): not_name(["nope", ""], none_ok=True),

    ("bench", "game"): not_game(),
    ("bench", "games"): GAMES_ARG,
    ("bench", "repeat"): not_whole(1),
    ("bench", "reference_games"): not_whole(0, MAX_GAMES),
    ("bench", "startup"): not_flag(),
    ("bench", "memory_games"): not_whole(0, MAX_GAMES),
    ("bench", "scaling"): not_flag(),
    ("bench", "workers"): not_whole(1, none_ok=True),
    ("bench", "strategy"): not_name(["simple", "nope", "", "ismcts:iterations=0"], none_ok=True),
    ("bench", "players"): PLAYERS,
    ("bench", "positions"): not_whole(1, 100_000),

    ("sweep", "rules"): not_rules() | st.sampled_from([{}, [], {"payday_cost": []}, {"payday_cost": [0, 0]},
                                                       ["payday_cost=0..1", "tie_discount=1", "hand_size=7"]]),
    ("sweep", "game"): not_game(),
    ("sweep", "players"): not_counts(2, 4),
    ("sweep", "games"): GAMES_ARG,
    ("sweep", "seed"): SEED,
    ("sweep", "field"): not_strategies(),
    ("sweep", "fixed"): not_rules() | st.just(["payday_cost=2"]),
    ("sweep", "strong"): STRONG,
    ("sweep", "strong_games"): not_whole(0, MAX_GAMES, none_ok=True),
    ("sweep", "margin"): MARGIN,
    ("sweep", "max_points"): not_whole(2),
    ("sweep", "deck"): not_deck(),
    ("sweep", "out"): not_path() | st.just("tables.txt"),
    ("sweep", "plots"): not_path(),
    ("sweep", "report"): not_path(),
    ("sweep", "threads"): THREADS,
    ("sweep", "progress"): not_progress(),

    ("compare", "rules"): not_rules(),
    ("compare", "against"): not_rules() | st.just({"payday_cost": 0}),
    ("compare", "game"): not_game(),
    ("compare", "players"): not_counts(2, 4),
    ("compare", "games"): not_whole(2, MAX_GAMES),
    ("compare", "seed"): SEED,
    ("compare", "field"): not_strategies(),
    ("compare", "strong"): STRONG,
    ("compare", "strong_games"): not_whole(0, MAX_GAMES, none_ok=True),
    ("compare", "margin"): MARGIN,
    ("compare", "relative_margin"): st.one_of(st.floats(max_value=0), st.floats(min_value=100.001),
                                              st.just(float("nan")), st.text(max_size=4), st.booleans(),
                                              _others(none_ok=False)),
    ("compare", "deck"): not_deck(),
    ("compare", "against_deck"): not_deck(),
    ("compare", "out"): not_path() | st.just("tables.txt"),
    ("compare", "plots"): not_path(),
    ("compare", "threads"): THREADS,
    ("compare", "progress"): not_progress(),

    ("balance", "free"): not_rules() | st.sampled_from([{}, [], {"payday_cost": [1, 1]}]),
    ("balance", "targets"): not_targets(),
    ("balance", "game"): not_game(),
    ("balance", "players"): not_counts(2, 4),
    ("balance", "budget"): not_whole(4, MAX_GAMES),
    ("balance", "batch"): not_whole(2, none_ok=True),
    ("balance", "seed"): SEED,
    ("balance", "field"): not_strategies(),
    ("balance", "fixed"): not_rules() | st.just(["payday_cost=1"]),
    ("balance", "strong"): STRONG,
    ("balance", "optimizer"): not_name(["Bogus", ""]),
    ("balance", "deck"): not_deck(),
    ("balance", "run"): not_path(),
    ("balance", "out"): not_path() | st.just("tables.txt"),
    ("balance", "backend"): not_name(["threads", "Local", ""]),
    ("balance", "scheduler"): not_name(none_ok=True) | st.text(max_size=12),     # any, with the local backend
    ("balance", "workers"): st.one_of(not_whole(none_ok=True), st.integers()),  # any, with the local backend
    ("balance", "threads"): THREADS,
    ("balance", "progress"): not_progress(),
}


def test_every_argument_of_every_public_function_is_covered():
    """A new argument (or function) of the API gets its wrong values here too."""
    import inspect

    functions = {n for n in api.__all__ if inspect.isfunction(getattr(api, n))}
    assert functions == set(BASE)
    for fn_name, (fn, base, _) in BASE.items():
        params = set(inspect.signature(fn).parameters) - {"options"}
        extra = {"players", "targets", "games", "seed", "field", "rules", "deck"} if fn_name == "analyze" else set()
        assert {arg for f, arg in WRONG if f == fn_name} == params | extra, fn_name
        assert set(base) <= params | extra


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder to run in (it must stay empty) and a good record file beside it."""
    here = Path.cwd()
    root = tmp_path_factory.mktemp("arguments")
    (root / "run").mkdir()
    record = root / "game.jsonl"
    zsim.record(players=2, seed=3, out=record)
    os.chdir(root / "run")
    yield root / "run", record
    os.chdir(here)


CASES = sorted(WRONG)


@pytest.mark.parametrize("fn_name,arg", CASES, ids=[f"{f}-{a}" for f, a in CASES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_wrong_argument_is_one_zsim_error_before_any_game(fn_name, arg, data, workdir):
    run, record = workdir
    fn, base, _ = BASE[fn_name]
    kwargs = dict(base)
    if "path" in kwargs:
        kwargs["path"] = str(record)
    if kwargs.get("record") == "RECORD":
        kwargs["record"] = str(record)
    kwargs[arg] = value = data.draw(WRONG[(fn_name, arg)], label=arg)
    with pytest.raises(zsim.ZsimError) as refused:
        fn(**kwargs)
    assert type(refused.value) is zsim.ZsimError, type(refused.value)
    message = str(refused.value)
    assert message.strip() and "\n" not in message, (value, message)
    assert list(run.iterdir()) == []


def test_the_baselines_are_good():
    """The valid arguments the wrong ones replace are accepted (the cheap functions only: the
    rest would play games, and each is played with such arguments elsewhere in the suite)."""
    for name in ("games", "rules", "strategies", "analyses"):
        fn, base, _ = BASE[name]
        assert fn(**base)


# ---------------------------------------------------------------- numbers as given
def test_numpy_integers_are_whole_numbers_and_become_ints():
    r = api.simulate(players=np.int64(2), games=np.int64(20), seed=np.uint32(3), threads=np.int64(1),
                     chunk=np.int32(8), progress=False)
    plain = api.simulate(players=2, games=20, seed=3, threads=1, chunk=8, progress=False)
    assert r.summary.equals(plain.summary)
    assert (r.players, r.seed, r.games) == (2, 3, 20)
    assert all(type(v) is int for v in (r.players, r.seed, r.games))
    recs = api.record(players=np.int8(2), seed=np.int64(7), games=np.int16(1), first=np.int64(4))
    assert (recs.first, recs.games) == (4, 1) and type(recs.first) is int and type(recs.seed) is int


@pytest.mark.parametrize("kwargs,message", [
    ({"seed": 1.5}, "--seed must be a whole number, got 1.5"),
    ({"seed": 1.0}, "--seed must be a whole number, got 1.0"),
    ({"seed": "7"}, "--seed must be a whole number, got '7'"),
    ({"seed": None}, "--seed must be a whole number, got None"),
    ({"games": 1.5}, "--games must be a whole number, got 1.5"),
    ({"games": "100"}, "--games must be a whole number, got '100'"),
    ({"players": True}, "--players must be a whole number, got True"),
    ({"threads": "2"}, "--threads must be a whole number, got '2'"),
    ({"out": 5}, "--out must be a path (a str or os.PathLike), got 5"),
    ({"precision": "0.1"}, "--precision must be a number, got '0.1'"),
    ({"resume": 1}, "--resume must be True or False, got 1"),
])
def test_simulate_names_the_option_and_the_value(kwargs, message):
    with pytest.raises(zsim.ZsimError) as refused:
        api.simulate(**{"players": 2, "games": 1, "progress": False, **kwargs})
    assert str(refused.value) == message


def test_other_functions_name_the_option():
    for call, message in [
        (lambda: api.tournament(["simple", "random"], games=1.5), "--games must be a whole number, got 1.5"),
        (lambda: api.tune("fixed", budget=100.5), "--budget must be a whole number, got 100.5"),
        (lambda: api.record(first=1.5), "--first must be a whole number, got 1.5"),
        (lambda: api.replay(5), "the record file must be a path (a str or os.PathLike), got 5"),
        (lambda: api.bench(memory_games=-5), "--memory must be 0 (no memory measurement) or more games, got -5"),
        (lambda: api.report(out="r", tournament_games="5"), "--tournament-games must be a whole number, got '5'"),
        (lambda: api.analyze("hand-size", games=2.0), "--games must be a whole number, got 2.0"),
    ]:
        with pytest.raises(zsim.ZsimError) as refused:
            call()
        assert str(refused.value) == message


def test_strategies_say_what_they_take():
    with pytest.raises(zsim.ZsimError, match=r"^--strategies takes a comma list, or a list of specs") as refused:
        api.simulate(strategies={"value": 1}, games=1, progress=False)
    assert "{'value': 1}" in str(refused.value)
    with pytest.raises(zsim.ZsimError, match=r"^--strategies is empty: give at least one strategy$"):
        api.simulate(strategies=[], games=1, progress=False)
    with pytest.raises(zsim.ZsimError, match=r"^--field takes a comma list"):
        api.tournament({"simple": 1, "random": 2}, games=1, progress=False)
    with pytest.raises(zsim.ZsimError, match=r"^--vs \['simple', ''\] has an empty entry"):
        api.tune("fixed", vs=["simple", ""], progress=False)
