"""The fast Baumeister engine plays the reference engine's games, game by game.

1. 10,000 games per player count (2, 3, 4) under the default rules, under
   ``saboteur=any`` and under ``overbid=forbid`` (plus shorter runs with
   tight rules and with a small deck of one's own) go through the numba
   engine and through the reference engine with its own plain-Python
   ``random`` and ``first``; every seat and game column must agree, and each
   config checks that what it is meant to exercise happened. The reference
   games start with the session (conftest.Background), beside the other tests.
2. The reference engine playing the compiled strategies (KernelDecider)
   agrees with the fast engine. A probe plugin answers by a hash of every
   argument it is given, so both engines must show a strategy the same
   arrays at every decision and let it draw the same numbers; a second
   plugin's illegal answers are caught by both engines.
3. Results are bit-identical whatever the threads, the block size and the chunking.
"""
from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from conftest import plugin_site

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.cards import default_deck, parse_deck
from zsim.games.baumeister.rules import Rules

GAMES = 5_000
STEP = 500
SEED = 20261202
SMALL = ("card,type,value,shields,coins\n1,corner_tower,2,1,0\n2,corner_tower,2,2,0\n3,tower,1,1,0\n"
         "4,tower,3,0,1\n5,city_gate,2,0,3\n6,city_gate,4,1,1\n7,town_hall,6,0,0\n8,church,5,0,0\n"
         "9,church,5,0,0\n10,town_hall,0,3,2\n11,church,1,0,0\n")

#: name -> (rule overrides, games per player count, deck text or None)
CONFIGS = {
    "default": ({}, GAMES, None),
    "any": ({"saboteur": "any"}, GAMES, None),
    "forbid": ({"overbid": "forbid"}, GAMES, None),
    # little money, few saboteurs, short turns: insolvency, taking a saboteur from a rival, the turn cap
    "tight": ({"start_money": 0, "max_bid": 6, "saboteurs": 1, "first_build_min": 1, "max_cards_per_build": 4,
               "hand_sabotage_min": 2, "max_turns": 14, "bonus_middle": 3}, 2_000, None),
    "small_deck": ({"saboteur": "any", "first_build_min": 2, "hand_sabotage_min": 3}, 2_000, SMALL),
    # first builds of four or five cards: the build's search keeps its answers for two and three
    # cards only (rows_nb.first_search_nb), so these builds mix kept answers and fresh searches
    "big_first": ({"first_build_min": 4, "max_cards_per_build": 5}, 2_000, None),
}

FIELDS = {2: ["random", "first"], 3: ["first", "random", "random"], 4: ["random", "first", "random", "first"]}


def _rules(name: str) -> Rules:
    return Rules().with_overrides(CONFIGS[name][0])


def _deck(name: str):
    text = CONFIGS[name][2]
    return default_deck() if text is None else parse_deck(text, "small")


def _reference_block(args):
    players, name, first, n = args
    from zsim.games.baumeister.batch import reference_rows
    from zsim.games.baumeister.reference import play_game

    rules, deck = _rules(name), _deck(name)
    rows = [reference_rows(play_game(players, rules, FIELDS[players], SEED, g, deck)) for g in range(first, first + n)]
    return np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows])


PROBE = '''
"""A test plugin: every answer is a hash of every argument it is given."""
import numpy as np

from zsim.games.baumeister import constants as K
from zsim.jit import hot_inline
from zsim.rng import below_nb

NAME = "probe"
DESCRIPTION = "answers by a hash of everything it is shown"
PARAMS = (("salt", 1.0, 0.0, 100.0, "mixed into the hash"),)
FAIR = False
_PRIME = np.uint64(0x100000001B3)


@hot_inline
def _mix(h, v):
    return (h ^ np.uint64(v)) * _PRIME


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    h = np.uint64(0xCBF29CE484222325)
    h = _mix(_mix(_mix(_mix(h, seat), kind), n), int(params[0]))
    for i in range(n):
        h = _mix(h, opts[i])
    for c in range(loc.shape[0]):
        h = _mix(h, loc[c])
        for s in range(known.shape[0]):
            h = _mix(h, known[s, c])
        for j in range(deck.shape[1]):
            h = _mix(h, deck[c, j])
    for s in range(rows.shape[0]):
        for p in range(rows.shape[1]):
            h = _mix(h, rows[s, p])
        for j in range(city.shape[1]):
            h = _mix(h, city[s, j])
        for j in range(st.shape[1]):
            h = _mix(h, st[s, j])
    for i in range(pub.shape[0]):
        h = _mix(h, pub[i])
    for i in range(rules.shape[0]):
        h = _mix(h, rules[i])
    h = _mix(h, below_nb(rng, 1 + seat, 1000))
    r = np.int64(h >> np.uint64(33))
    if kind == K.D_OPEN:
        return opts[0] + r % (opts[1] - opts[0] + 1)
    if kind == K.D_BID or kind == K.D_OFFER:
        if r % 3 == 0:
            return 0
        return max(opts[0], 1) + r % (min(opts[1], opts[0] + 4) - max(opts[0], 1) + 1)
    return r % n
'''

CHEAT = '''
"""A test plugin answering -5: no index and no amount (illegal)."""
from zsim.jit import hot_inline

NAME = "cheat"
DESCRIPTION = "answers outside the options"
PARAMS = ()


@hot_inline
def decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng):
    return -5
'''

PROBE_CHECK = '''
import json, sys
import numpy as np
from zsim.errors import ZsimError
from zsim.games.baumeister.cards import default_deck
from zsim.games.baumeister.batch import reference_rows
from zsim.games.baumeister.reference_kernels import play_reference_game
from zsim.games.baumeister.reference import RuleError
from zsim.games.baumeister.rules import Rules
from zsim.harness.chunks import Matchup, play_chunk

seed, cases = json.loads(sys.argv[1])
deck = default_deck()
ALL = ("probe", "random", "first", "cheat")     # one kernel per engine plays every table below
out = []
for players, overrides, specs, n in cases:
    rules = Rules().with_overrides(overrides)
    seats, games = play_chunk(Matchup(players, tuple(specs), rules, game="baumeister", compile_for=ALL), seed, 0, n)
    bad, asked = [], 0
    for g in range(n):
        played = play_reference_game(players, rules, deck, specs, seed, g, compile_for=ALL)
        asked += played.decisions
        if not all(np.array_equal(a, b) for a, b in zip(reference_rows(played), (seats[g], games[g]))):
            bad.append(g)
    out.append({"players": players, "bad": bad[:5], "n_bad": len(bad), "attacks": int(games[:, 8:10].sum()),
                "offers": int(seats[:, :, 18].sum()), "decisions": asked})
illegal = {}
for name, run, error in (
        ("fast", lambda: play_chunk(Matchup(2, ("first", "cheat"), game="baumeister", compile_for=ALL), seed, 0, 20),
         ZsimError),
        ("reference", lambda: play_reference_game(2, Rules(), deck, ["first", "cheat"], seed, 0, compile_for=ALL),
         RuleError)):
    try:
        run()
        illegal[name] = "no error"
    except error as exc:
        illegal[name] = str(exc)
print(json.dumps({"cases": out, "illegal": illegal}))
'''

#: (players, rules, field, games). Two probes alone bid against each other for about 2,500 decisions
#: a game, so 100 of their games put a quarter of a million decisions to both engines; the
#: four-player table, mostly the quick built-in bots, about 200 (300 games: 60,000 decisions)
PROBE_CASES = [
    (2, {}, ["probe", "probe:salt=7"], 100),
    (3, {"saboteur": "any", "hand_sabotage_min": 3}, ["probe", "random", "probe:salt=3"], 200),
    (4, {"overbid": "forbid", "saboteurs": 2}, ["probe:salt=2", "first", "probe", "random"], 300),
]


def _blocks(players, name):
    """The reference games of one comparison: (key, block function, its arguments)."""
    n = CONFIGS[name][1]
    return (("baumeister-equivalence", players, name), _reference_block,
            [(players, name, first, min(STEP, n - first)) for first in range(0, n, STEP)])


def _probe_check(background, site):
    """The probe strategy's check in a subprocess, with the plugins installed in ``site``."""
    env = plugin_site(site, "zsim.strategies.baumeister", {"probe": PROBE, "cheat": CHEAT})
    return background.run([sys.executable, "-c", PROBE_CHECK, json.dumps([SEED, PROBE_CASES])],
                          env=env, timeout=900)


def _probe(background):
    return "baumeister-probe", lambda: _probe_check(background, background.tmp_path_factory.mktemp("site"))


def start_in_background(background, items):
    """The reference games of each selected comparison and the probe's check, from the session's start."""
    for item in items:
        if item.originalname == "test_fast_engine_equals_reference":
            background.submit_blocks(*_blocks(item.callspec.params["players"], item.callspec.params["name"]))
    if any(item.originalname == "test_both_engines_show_a_strategy_the_same_arguments" for item in items):
        background.start(*_probe(background))


def _fast(players, name, first=0, n=None, **kw):
    import numba

    from zsim.harness.chunks import Matchup, play_chunk

    n = CONFIGS[name][1] if n is None else n
    m = Matchup(players, tuple(FIELDS[players]), _rules(name), _deck(name), game="baumeister")
    threads = kw.pop("threads", None)
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        return play_chunk(m, SEED, first, n, **kw)
    finally:
        numba.set_num_threads(before)


def _differences(fs, fg, rs, rg) -> str:
    bad = np.flatnonzero((fs != rs).any(axis=(1, 2)) | (fg != rg).any(axis=1))
    if bad.size == 0:
        return ""
    g = int(bad[0])
    seat_cols = [K.SEAT_COLUMNS[c] for c in np.flatnonzero((fs[g] != rs[g]).any(axis=0))]
    game_cols = [K.GAME_COLUMNS[c] for c in np.flatnonzero(fg[g] != rg[g])]
    return f"{bad.size} games differ, first game {g} (seed {SEED}) in seat columns {seat_cols}, game columns {game_cols}"


# ---------------------------------------------------------------- the compiled strategies
@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_engine_plays_the_kernel_strategies(players, background):
    from zsim.games.baumeister.batch import reference_rows
    from zsim.games.baumeister.reference_kernels import play_reference_game

    name = ("any", "tight", "forbid")[players - 2]
    n = 600
    fs, fg = _fast(players, name, 0, n)
    rows = [reference_rows(play_reference_game(players, _rules(name), _deck(name), FIELDS[players], SEED, g))
            for g in range(n)]
    assert not _differences(fs, fg, np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]))


def test_results_do_not_depend_on_threads_blocks_or_chunks(background):
    whole = _fast(4, "any", 0, 1_500, threads=1)
    for kw in ({"threads": 2}, {"threads": 2, "block": 1}, {"threads": 1, "block": 7}, {"threads": 2, "block": 5_000}):
        seats, games = _fast(4, "any", 0, 1_500, **kw)
        assert np.array_equal(seats, whole[0]) and np.array_equal(games, whole[1]), kw
    pieces = [_fast(4, "any", a, b - a, threads=2, block=3) for a, b in ((0, 1), (1, 300), (300, 1_234), (1_234, 1_500))]
    assert np.array_equal(np.concatenate([p[0] for p in pieces]), whole[0])
    assert np.array_equal(np.concatenate([p[1] for p in pieces]), whole[1])


@pytest.mark.late
def test_both_engines_show_a_strategy_the_same_arguments(background):
    probe = background.result(*_probe(background))
    assert probe.returncode == 0, probe.stderr[-3000:]
    doc = json.loads(probe.stdout.strip().splitlines()[-1])
    for case in doc["cases"]:
        assert case["n_bad"] == 0, case
        assert case["attacks"] > 0, case
        assert case["decisions"] >= 50_000, case                # the reference engine asked the seats this often
    assert doc["cases"][1]["offers"] > 0                     # saboteur=any: some offers were accepted
    assert "strategy cheat (seat 1)" in doc["illegal"]["fast"]
    assert "seat 1 chose" in doc["illegal"]["reference"]


# ---------------------------------------------------------------- game by game, many games
EXERCISED = {
    # config -> (what must have happened: column name -> at least this many over all player counts)
    "default": {"insolvencies": 1, "unsold": 1, "announced": 100, "building_attacks": 100, "hand_attacks": 100,
                "kept_paid": 1},
    "any": {"offer_paid": 1, "building_attacks": 100},
    "forbid": {"unsold": 100},
    "tight": {"insolvencies": 50, "max_turns": 20, "max_bid_hits": 1, "saboteurs_taken": 100},
    "small_deck": {"hand_attacks": 1, "cards_destroyed": 10},
    "big_first": {"cards_built": 100_000, "building_attacks": 100},
}


@pytest.mark.parametrize("name", list(CONFIGS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_engine_equals_reference(players, name, background):
    fs, fg = _fast(players, name)
    blocks = background.blocks(*_blocks(players, name))
    rs, rg = np.concatenate([b[0] for b in blocks]), np.concatenate([b[1] for b in blocks])
    assert fs.shape == rs.shape
    assert not _differences(fs, fg, rs, rg)
    assert (fg[:, K.G_ILLEGAL] == 0).all()
    seen = {c: int(fg[:, i].sum()) for i, c in enumerate(K.GAME_COLUMNS)}
    seen.update({c: int(fs[:, :, i].sum()) for i, c in enumerate(K.SEAT_COLUMNS)})
    seen["max_turns"] = int((fg[:, K.G_END_REASON] == K.END_TURNS).sum())
    _tally[name].append(seen)
    if len(_tally[name]) == 3:                   # every player count of this config has played
        for col, least in EXERCISED[name].items():
            assert sum(t[col] for t in _tally[name]) >= least, (name, col)


_tally: dict[str, list] = {name: [] for name in CONFIGS}
