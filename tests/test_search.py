"""The searches (``ismcts``, ``pimc``, ``seer``) of every game with a forward model.

* A fair search never cheats: at thousands of decision points of real games
  (every decision kind, every table size), the search run on the true
  position and on another position the deciding seat cannot tell from it
  (a determinisation from its view) gives the same answer and the same
  visit counts for the same seed. The same test catches ``seer``, which
  searches the true position.
* Failures other frameworks' users reported, tested here: a resampler that
  hands a seat another seat's real hand (OpenSpiel #1613), a bot handed the
  full state instead of its information state (OpenSpiel #44: the test
  above), one seed shared by every game (TAG #268).
* Searched games are bit-identical whatever the threads and chunks.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from zsim.games import registry
from zsim.games.baumeister.constants import ST_MONEY
from zsim.games.baumeister.position_nb import pos_views
from zsim.harness.chunks import Matchup, play_chunk, set_threads
from zsim.harness.forward import fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb, fm_kind_nb, fm_new_nb
from zsim.harness.forward import forward_model
from zsim.harness.search_nb import WIDEN_FROM, new_tree, search_nb, tree_capacity
from zsim.rng import SEARCH_STREAM, game_key, stream_start
from zsim.roster import roster_of
from zsim.search_specs import ISMCTS, PIMC, SEER
from zsim.strategy_registry import bots, strategy_arrays
from test_forward_models import rule_sets

SEED = 20261207
GAMES = sorted(name for name, g in registry().items() if g.forward)


@njit
def _same_search(roster, ids, params, key, n_players, consts, ws, pos, other, tree, a, b, mode, iterations,
                 worlds, horizon, widen, rng, every, out):
    """Play one game with the bots; at every ``every``-th decision search the
    true position and a determinisation of it from the decider's view with
    one seed, and at the first decision of every kind not searched before.
    ``out``: [points, points that differ, a bit per decision kind searched,
    a bit per decision kind met]."""
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    k = 0
    while fm_decider_nb(roster, pos) >= 0:
        k += 1
        bit = np.int64(1) << fm_kind_nb(roster, pos)
        out[3] |= bit
        if k % every == 0 or out[2] & bit == 0:
            seat = fm_decider_nb(roster, pos)
            seed = np.uint64(k * 7919 + 17)
            first, n = search_nb(roster, pos, seed, mode, iterations, worlds, 0.7, horizon, widen, ids, params, consts,
                                 ws, tree, a)
            fm_determinize_nb(roster, pos, seat, rng, other, consts, ws)
            second, m = search_nb(roster, other, seed, mode, iterations, worlds, 0.7, horizon, widen, ids, params,
                                  consts, ws, tree, b)
            same = first == second and n == m
            for i in range(n):
                for j in range(3):
                    same = same and a[i, j] == b[i, j]
            out[0] += 1
            out[1] += 0 if same else 1
            out[2] |= bit
        fm_apply_nb(roster, pos, fm_bot_nb(roster, ids, params, pos, consts), consts, ws)


def _points(game: str, mode: int, players: int, points: int, iterations: int = 12, every: int = 3, rules=()):
    """Search decision points of bot-played games, ``every``-th decision, until
    ``points`` are done; returns ([points, differing, kinds seen], the number of kinds)."""
    model = forward_model(game)
    contract = registry()[game].strategies       # the game's own search defaults: its value estimate, its widening
    names = [s.name for s in bots(game)]
    table = tuple(names[(players + s) % len(names)] for s in range(players))
    m = Matchup(players, table, registry()[game].parse_rules(list(rules), players), game=game)
    ids, params = strategy_arrays(game, list(table))
    roster = roster_of(game, ids)
    consts, ws = model.consts(m), model.workspace(m)
    words = model.size(m)
    pos, other = np.zeros(words, np.int64), np.zeros(words, np.int64)
    tree = new_tree(tree_capacity(iterations), words, model.MAX_OPTIONS, players)
    a, b = np.zeros((model.MAX_OPTIONS, 3)), np.zeros((model.MAX_OPTIONS, 3))
    out = np.zeros(4, np.int64)
    rng = np.array([players], np.uint64)
    g = 0
    while out[0] < points:
        g += 1
        _same_search(roster, ids, params, np.uint64(game_key(SEED, g)), players, consts, ws, pos, other, tree, a, b,
                     mode, iterations, 4, contract.horizon, contract.widen, rng, every, out)
    return out, len(model.KINDS)


@pytest.mark.parametrize("game", GAMES)
def test_a_fair_search_decides_from_the_seats_information_set_alone(game):
    spec = registry()[game]
    seen = met = 0
    for players in range(spec.min_players, spec.max_players + 1):
        for mode in (ISMCTS, PIMC):
            out, kinds = _points(game, mode, players, points=400)
            assert out[1] == 0, f"{players} players, mode {mode}: {out[1]} of {out[0]} decisions changed"
            seen |= int(out[2])
            met |= int(out[3])
    for name, rules in rule_sets(game).items():      # the decisions a rule switch brings (Zahlemann's bonus play)
        out, kinds = _points(game, ISMCTS, spec.max_players, points=100, rules=rules)
        assert out[1] == 0, f"rules {name}: {out[1]} of {out[0]} decisions changed"
        seen |= int(out[2])
        met |= int(out[3])
    assert seen == met, "every decision kind the games met was searched"
    assert bin(met).count("1") >= max(1, kinds - 3), f"the games met few of the {kinds} decision kinds: {met:b}"


@pytest.mark.parametrize("game", GAMES)
def test_the_leak_test_catches_a_search_of_the_true_position(game):
    out, _ = _points(game, SEER, registry()[game].max_players, points=150)
    assert out[1] > out[0] // 10, out


def _positions(game: str, bot: str, count: int, every: int) -> tuple:
    """(roster, ids, params, consts, workspace, ``count`` positions of ``bot`` at
    every seat of the game's largest table, every ``every``-th decision)."""
    from zsim.harness.stepping_nb import collect_positions_nb

    players = registry()[game].max_players
    model = forward_model(game)
    m = Matchup(players, (bot,) * players, game=game)
    ids, params = strategy_arrays(game, [bot] * players)
    roster = roster_of(game, ids)
    consts, ws = model.consts(m), model.workspace(m)
    words = model.size(m)
    positions = np.zeros((count, words), np.int64)
    collect_positions_nb(SEED, 0, players, roster, ids, params, consts, ws, np.zeros(words, np.int64), every,
                         positions)
    return roster, ids, params, consts, ws, positions


@pytest.mark.parametrize("game", GAMES)
def test_a_determinisation_never_hands_a_seat_the_true_hidden_cards_as_such(game):
    """OpenSpiel #1613: a resampler that gave one seat another seat's real
    hand. Here: from each seat's view, over many draws, what the seat cannot
    see varies (its own view stays: tests/test_forward_models.py), and
    some draws differ from the truth in the very words the seat cannot see."""
    spec = registry()[game]
    model = forward_model(game)
    _, _, _, consts, ws, positions = _positions(game, spec.strategies.default, 30, 9)
    words = positions.shape[1]
    rng = np.array([5], np.uint64)
    out = np.zeros(words, np.int64)
    varied = 0
    for pos in positions[10:]:
        seat = model.decider_nb(pos)
        draws = set()
        for _ in range(40):
            model.determinize_nb(pos, seat, rng, out, consts, ws)
            draws.add(out.tobytes())
        varied += len(draws) > 1
        assert not all(d == pos.tobytes() for d in draws)
    assert varied >= 15


def test_every_game_and_seat_searches_with_a_seed_of_its_own():
    """TAG #268: one seed for every game made every game's search alike. A
    seat's searches draw from stream SEARCH_STREAM + seat of its game's key."""
    starts = {stream_start(game_key(SEED, g), SEARCH_STREAM + s) for g in range(2000) for s in range(4)}
    assert len(starts) == 8000
    assert stream_start(game_key(SEED, 0), SEARCH_STREAM) != stream_start(game_key(SEED + 1, 0), SEARCH_STREAM)


def test_a_decision_of_many_options_is_searched_in_a_window_that_widens_with_the_visits():
    """Progressive widening: at a root of more than WIDEN_FROM options (a
    Baumeister bid: every amount up to the purse) the search visits at most
    max(WIDEN_FROM, sqrt(iterations)) of them, consecutive in the listed
    order, and more of them as its budget grows."""
    wide = 0
    for game in GAMES:
        players = registry()[game].max_players
        model = forward_model(game)
        bot = "first" if "first" in {s.name for s in bots(game)} else registry()[game].strategies.default
        roster, ids, params, consts, ws, positions = _positions(game, bot, 60, 3)
        words = positions.shape[1]
        opts = np.zeros(model.MAX_OPTIONS, np.int64)
        for pos in positions:
            n = model.options_nb(pos, consts, opts)
            if n <= WIDEN_FROM:
                continue
            spans = []
            for iterations in (64, 2048):
                tree = new_tree(tree_capacity(iterations), words, model.MAX_OPTIONS, players)
                stats = np.zeros((model.MAX_OPTIONS, 3))
                _, k = search_nb(roster, pos, np.uint64(99), ISMCTS, iterations, 1, 0.7, 0, WIDEN_FROM, ids, params, consts, ws,
                                 tree, stats)
                visited = np.flatnonzero(stats[:k, 1] > 0)
                limit = max(WIDEN_FROM, int(np.sqrt(iterations)))
                assert 0 < len(visited) <= limit and visited[-1] - visited[0] < limit, (game, iterations, visited)
                spans.append(len(visited))
            assert spans[1] > WIDEN_FROM, (game, n, spans)      # 2,048 visits widen the window to 45
            wide += 1
            if wide == 6:
                return
    raise AssertionError(f"the games offered {wide} decisions of more than {WIDEN_FROM} options")


@njit
def _add_money(pos, seat, amount):
    """Baumeister: ``amount`` more Thaler in ``seat``'s purse at ``pos``."""
    pos_views(pos)[4][seat, ST_MONEY] += amount


def test_a_rollout_cut_short_is_scored_by_the_games_value_estimate():
    """Baumeister's searches cut their rollouts at ``horizon`` decisions and
    score the position by ``value_nb``: shares of first place that sum to 1
    and rise with a seat's purse; a horizon no game reaches searches exactly
    as horizon 0 (to the end), a short one differently. A game without an
    estimate has no ``horizon`` to set."""
    from zsim.errors import ZsimError
    from zsim.strategy_registry import spec_values

    game = "baumeister"
    model = forward_model(game)
    roster, ids, params, consts, ws, positions = _positions(game, "builder", 40, 7)
    players = registry()[game].max_players
    shares, richer = np.zeros(players), np.zeros(players)
    for pos in positions:
        model.value_nb(pos, consts, shares)
        assert np.all(shares > 0) and abs(shares.sum() - 1) < 1e-12
        seat = model.decider_nb(pos)
        rich = pos.copy()
        _add_money(rich, seat, 20)
        model.value_nb(rich, consts, richer)
        assert richer[seat] > shares[seat]
    words = positions.shape[1]
    differ = 0
    for pos in positions[::4]:
        rows = []
        for horizon in (0, 1_000_000, 3):
            tree = new_tree(tree_capacity(64), words, model.MAX_OPTIONS, players)
            stats = np.zeros((model.MAX_OPTIONS, 3))
            _, k = search_nb(roster, pos, np.uint64(7), ISMCTS, 64, 1, 0.7, horizon, 2, ids, params, consts, ws, tree,
                             stats)
            rows.append(stats[:k].copy())
        np.testing.assert_array_equal(rows[0], rows[1])
        differ += not np.array_equal(rows[0], rows[2])
    assert differ >= 5, differ
    with pytest.raises(ZsimError, match="no parameter 'horizon'"):
        spec_values("ismcts:horizon=5", "zahltag")


@pytest.mark.parametrize("game", GAMES)
def test_searched_games_do_not_depend_on_threads_or_chunks(game):
    spec = registry()[game]
    players = spec.max_players
    table = ("ismcts:iterations=16", "pimc:iterations=16:worlds=4") + (spec.strategies.default,) * (players - 2)
    m = Matchup(players, table, game=game)
    try:
        set_threads(1)
        one = play_chunk(m, SEED, 0, 12)
        set_threads(2)
        two = [play_chunk(m, SEED, first, 4) for first in (0, 4, 8)]
    finally:
        set_threads(None)
    np.testing.assert_array_equal(one[0], np.concatenate([t[0] for t in two]))
    np.testing.assert_array_equal(one[1], np.concatenate([t[1] for t in two]))


@pytest.mark.parametrize("game", GAMES)
def test_a_searched_game_is_recorded_in_the_games_format_with_its_visit_counts(game):
    import zsim

    spec = registry()[game]
    players = spec.min_players + 1
    table = ["ismcts:iterations=24"] + [spec.strategies.default] * (players - 1)
    seat_out, _ = play_chunk(Matchup(players, tuple(table), game=game), SEED, 0, 3)
    records = list(zsim.record(game=game, players=players, strategies=table, games=3, seed=SEED, progress=False))
    place = spec.seat_index("place")
    for g, events in enumerate(records):
        spec.check_record(events)                     # the game's referee replays it, search fields and all
        assert events[0]["strategies"] == table
        searched = [entry for e in events for entry in e.get("search", [])]
        assert searched and all(entry["seat"] == 0 for entry in searched)
        for entry in searched:
            assert len(entry["options"]) == len(entry["visits"]) == len(entry["values"])
            assert sum(entry["visits"]) == 24 and all(0 <= v <= 1 for v in entry["values"])
        ends = [e["places"] for e in events if "places" in e]     # the game simulate plays, to the end
        assert ends and ends[-1] == seat_out[g, :, place].tolist()
