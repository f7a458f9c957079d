"""Win-probability traces (zsim/harness/trace.py): each seat's chance of
winning after every move, by continuing the game from that position.

* The trace replays the game zsim plays: it ends as the batch engine's
  game does, and its last position is that game's result.
* A position whose every option ends the game the same way (a game
  already decided) is certain: every continuation gives its result.
* Every seat's estimate sums to one; a seat's own view and the true
  position both say what these bots make of the game.
* The same trace on one thread and on two, to the last bit.
"""
from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import njit

from conftest import warm_trace
from zsim.errors import ZsimError
from zsim.harness.chunks import Matchup, play_chunk
from zsim.harness.forward import (fm_apply_nb, fm_decider_nb, fm_new_nb, fm_options_nb, fm_reward_nb,
                                  forward_model)
from zsim.harness.trace import TRUE, continuation_specs, script_of, trace
from zsim.rng import game_key
from zsim.roster import roster_for

SEED = 31
GAMES = ("zahltag", "zahlemann", "baumeister")
FIELD = {"zahltag": ("simple", "undercut"), "zahlemann": ("counter", "shedder"), "baumeister": ("budget", "value")}


def _matchup(game: str) -> Matchup:
    return Matchup(2, FIELD[game], game=game)


@pytest.mark.parametrize("game", GAMES)
def test_a_trace_replays_the_game_and_ends_with_its_result(game, background):
    warm_trace(background, game)          # its traces compiled beside the tests that came first
    m = _matchup(game)
    t = trace(m, SEED, [0, 1], n=4, observers=(TRUE, 0, 1))
    seats, _ = play_chunk(m, SEED, 0, 2)
    place = m.spec.seat_index("place")
    for i in range(2):
        est = t.means(i)
        first = seats[i, :, place] == 1
        want = first / first.sum()
        assert np.array_equal(est[-1, 0], want) and np.array_equal(est[-1, 1], want)   # every observer
        assert np.allclose(est.sum(axis=2), 1.0)                        # a share of first place, all told
        assert ((est >= 0) & (est <= 1)).all()
        assert t.counts(i)[0] == 4 and t.counts(i)[-1] == 1
    assert t.lengths.tolist() == [len(d) for d in t.decisions]


@njit
def _decided(roster, key, n_players, consts, ws, pos, work, script, length, opts, reward, first):
    """The last position of the game from which every option ends it with
    the same result (a game already decided): its index, its result in
    ``first``; -1 when the last decision still mattered."""
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    for d in range(length - 1):
        fm_apply_nb(roster, pos, script[d], consts, ws)
    n = fm_options_nb(roster, pos, consts, opts)
    for i in range(n):
        for j in range(pos.shape[0]):
            work[j] = pos[j]
        fm_apply_nb(roster, work, opts[i], consts, ws)
        if fm_decider_nb(roster, work) >= 0:
            return -1
        fm_reward_nb(roster, work, reward)
        for s in range(n_players):
            if i == 0:
                first[s] = reward[s]
            elif first[s] != reward[s]:
                return -1
    return length - 1


def test_a_game_already_decided_is_certain_within_its_interval(background):
    """Zahltag games whose last bid cannot change the winner: each seat's
    chance there is its result, in every continuation."""
    game = "zahltag"
    warm_trace(background, game)
    m = _matchup(game)
    model = forward_model(game)
    roster = roster_for(game, list(m.strategies))
    consts, ws = model.consts(m), model.workspace(m)
    pos, work = np.zeros(model.size(m), np.int64), np.zeros(model.size(m), np.int64)
    opts, reward, first = np.zeros(model.MAX_OPTIONS, np.int64), np.zeros(2), np.zeros(2)
    found = []
    for g in range(40):
        script = script_of(m, SEED, g)
        d = _decided(roster, np.uint64(game_key(SEED, g)), 2, consts, ws, pos, work, script[:, 2].copy(),
                     len(script), opts, reward, first)
        if d >= 0:
            found.append((g, d, first.copy()))
        if len(found) == 3:
            break
    assert found, "no decided last position in 40 games"
    t = trace(m, SEED, [g for g, _, _ in found], n=32, observers=(TRUE,))
    for i, (g, d, result) in enumerate(found):
        assert np.array_equal(t.means(i)[d, 0], result), (g, d)
        assert np.array_equal(t.squares[i, d, 0], 32 * result * result)       # no continuation strayed


def test_a_trace_is_the_same_on_one_thread_and_on_two(background):
    warm_trace(background, "zahltag")
    m = _matchup("zahltag")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = trace(m, SEED, range(4), n=8, observers=(TRUE, 1))
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = trace(m, SEED, range(4), n=8, observers=(TRUE, 1))
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.total, two.total) and np.array_equal(one.squares, two.squares)
    again = trace(m, SEED + 1, range(4), n=8, observers=(TRUE, 1))
    assert not np.array_equal(one.total, again.total)            # the seed is the games' and the draws'


def test_a_search_seat_continues_as_its_rollout_bot_and_a_tape_as_the_default():
    from zsim.tape import drop, tape_spec

    tape = tape_spec([1, 2, 3])
    try:
        m = Matchup(3, ("ismcts:iterations=4", tape, "undercut"), game="zahltag")
        assert continuation_specs(m) == ("simple", "simple", "undercut")
    finally:
        drop(tape)


@pytest.mark.parametrize("observers, message", [
    ((), "a trace needs an observer"),
    ((2,), "observer seat 2 is not a seat of a 2-player game"),
])
def test_bad_observers_are_one_line(observers, message):
    with pytest.raises(ZsimError) as e:
        trace(_matchup("zahltag"), SEED, [0], n=2, observers=observers)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)
