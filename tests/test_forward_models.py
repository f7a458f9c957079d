"""Every game's forward model against its batch engine, and what its
``determinize_nb`` keeps and draws.

* Bots driving the forward model one decision at a time play the batch
  engine's games row for row: every strategy of the game in every seat,
  under every rule set below, at every table size.
* The options the model lists are the legal ones: every answer a bot gives
  in those games is among them.
* A determinisation keeps all the seat can see (``view_nb``) and changes
  nothing the seat may know, and is itself a function of that view alone.
* A redraw of the true position (``redraw_nb``, the win-probability
  traces' continuations) keeps every seat's view, reads what no seat has
  seen only as a set, and the bots play the redrawn position to its end.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from conftest import warm_stepped
from zsim.games import registry
from zsim.harness.chunks import Matchup, play_chunk
from zsim.harness.forward import (fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb, fm_new_nb,
                                  fm_options_nb, fm_redraw_nb, fm_view_nb, forward_model)
from zsim.harness.stepping import play_stepped_chunk
from zsim.rng import game_key
from zsim.roster import roster_for
from zsim.strategy_registry import bots, strategy_arrays

SEED = 20261207
GAMES = sorted(name for name, g in registry().items() if g.forward)


def rule_sets(game: str) -> dict[str, list[str]]:
    """The printed rules, and each yes/no rule flipped and each choice rule at
    each other choice, one at a time."""
    out = {"default": []}
    for spec in registry()[game].rule_specs:
        if spec.kind == "bool":
            out[f"{spec.key}={str(not spec.default).lower()}"] = [f"{spec.key}={str(not spec.default).lower()}"]
        elif spec.kind == "choice":
            for choice in spec.choices:
                if choice != spec.default:
                    out[f"{spec.key}={choice}"] = [f"{spec.key}={choice}"]
    return out


def seatings(game: str, players: int) -> list[tuple[str, ...]]:
    """Every strategy of the game in every seat: the names in turn, shifted one seat a table."""
    names = sorted(s.name for s in bots(game))
    tables = []
    for first in range(max(len(names), players)):
        tables.append(tuple(names[(first + s) % len(names)] for s in range(players)))
    return tables


def _cases():
    for game in GAMES:
        spec = registry()[game]
        for rule_set in rule_sets(game):
            for players in range(spec.min_players, spec.max_players + 1):
                yield game, rule_set, players


@pytest.mark.parametrize("game,rule_set,players", list(_cases()))
def test_bots_through_the_forward_model_play_the_batch_engines_games(game, rule_set, players, background):
    warm_stepped(background, game)      # load the stepped games the session compiles beside the tests
    spec = registry()[game]
    rules = spec.parse_rules(rule_sets(game)[rule_set], players)
    tables = seatings(game, players)
    per_table = max(200, 2400 // len(tables))
    for k, table in enumerate(tables):
        m = Matchup(players, table, rules=rules, game=game, compile_for=tuple(sorted(s.name for s in bots(game))))
        seat_a, game_a = play_chunk(m, SEED, k * per_table, per_table)
        seat_b, game_b = play_stepped_chunk(m, SEED, k * per_table, per_table)
        same = (seat_a == seat_b).all(axis=(1, 2)) & (game_a == game_b).all(axis=1)
        assert same.all(), f"{table}: game {k * per_table + int(np.argmin(same))} differs"


# ---------------------------------------------------------------- options and views, position by position
#: what ``_walk`` found wrong, by its ``found[0]``
WRONG = ("", "an answer not among the options", "a view changed", "a determinisation read more than the view",
         "a redraw changed a seat's view", "a redraw read more than what no seat has seen, as a set",
         "the bots did not finish a redrawn game")


def test_every_built_in_game_can_redraw_its_true_position():
    assert all(hasattr(forward_model(g), "redraw_nb") for g in ("zahltag", "zahlemann", "baumeister"))


@njit
def _walk(roster, ids, params, key, n_players, consts, ws, pos, other, seat_rng, opts, view_a, view_b, found, every,
          offset, redraw):
    """Play one game with the bots; at every decision check that the bot's
    answer is listed, and at every ``every``-th from ``offset`` that a
    determinisation from each seat's view keeps that view, and that
    determinising the determinised position again with the same draws gives
    the same position as determinising the true one (a determinisation
    reads the seat's view alone); with ``redraw``, the same of a redraw of
    the true position for every seat's view at once, and that the bots play
    the redrawn position to its end. Returns the number of decisions, or
    -1 - the decision where a check failed; ``found[0]``: what failed
    (1 option, 2 view, 3 a determinisation that read more, 4 a redrawn
    view, 5 a redraw that read more, 6 a redrawn game with no end)."""
    again = np.empty_like(pos)
    first = np.empty_like(pos)
    fm_new_nb(roster, key, n_players, consts, ws, pos)
    k = 0
    while fm_decider_nb(roster, pos) >= 0:
        if redraw and k % every == offset:
            failed = _check_redraw(roster, ids, params, n_players, consts, ws, pos, other, first, seat_rng,
                                   view_a, view_b)
            if failed:
                found[0] = failed
                return -1 - k
        n = fm_options_nb(roster, pos, consts, opts)
        answer = fm_bot_nb(roster, ids, params, pos, consts)
        listed = False
        for i in range(n):
            listed = listed or opts[i] == answer
        if not listed:
            found[0] = 1
            return -1 - k
        for seat in range(n_players if k % every == offset else 0):
            na = fm_view_nb(roster, pos, seat, view_a)
            fm_determinize_nb(roster, pos, seat, seat_rng, other, consts, ws)
            nb = fm_view_nb(roster, other, seat, view_b)
            same = na == nb
            for i in range(min(na, nb)):
                same = same and view_a[i] == view_b[i]
            if not same:
                found[0] = 2
                return -1 - k
            state = seat_rng[0]
            fm_determinize_nb(roster, pos, seat, seat_rng, first, consts, ws)
            seat_rng[0] = state
            fm_determinize_nb(roster, other, seat, seat_rng, again, consts, ws)
            for i in range(pos.shape[0]):
                if first[i] != again[i]:
                    found[0] = 3
                    return -1 - k
        fm_apply_nb(roster, pos, answer, consts, ws)
        k += 1
    return k


@njit
def _check_redraw(roster, ids, params, n_players, consts, ws, pos, out, again, rng, view_a, view_b):
    """0, or what a redraw of ``pos`` got wrong (see ``_walk``)."""
    state = rng[0]
    fm_redraw_nb(roster, pos, rng, out, consts, ws)
    for seat in range(n_players):
        na = fm_view_nb(roster, pos, seat, view_a)
        nb = fm_view_nb(roster, out, seat, view_b)
        same = na == nb
        for i in range(min(na, nb)):
            same = same and view_a[i] == view_b[i]
        if not same:
            return 4
    after = rng[0]
    rng[0] = state
    fm_redraw_nb(roster, out, rng, again, consts, ws)
    rng[0] = after
    for i in range(pos.shape[0]):
        if again[i] != out[i]:
            return 5
    steps = 0
    while fm_decider_nb(roster, out) >= 0:
        fm_apply_nb(roster, out, fm_bot_nb(roster, ids, params, out, consts), consts, ws)
        steps += 1
        if steps > 1_000_000:
            return 6
    return 0


@pytest.mark.parametrize("game", GAMES)
def test_options_hold_every_bots_answer_and_determinising_keeps_each_seats_view(game):
    spec = registry()[game]
    model = forward_model(game)
    redraw = hasattr(model, "redraw_nb")
    roster = roster_for(game)         # every bot of the game: one compile of _walk for all the tables
    for players in range(spec.min_players, spec.max_players + 1):
        for k, table in enumerate(seatings(game, players)[:4]):
            m = Matchup(players, table, game=game)
            ids, params = strategy_arrays(game, list(table))
            consts, ws = model.consts(m), model.workspace(m)
            pos, other = np.zeros(model.size(m), np.int64), np.zeros(model.size(m), np.int64)
            opts = np.zeros(model.MAX_OPTIONS, np.int64)
            views = np.zeros((2, 4 * model.size(m)), np.int64)
            rng = np.array([12345 + k], np.uint64)
            for g in range(20):
                found = np.zeros(1, np.int64)
                # the views and determinisations at every fourth decision, a
                # different fourth each game: each decision of a game's turn
                # order is met in five of the twenty games
                k_dec = _walk(roster, ids, params, np.uint64(game_key(SEED, g)), players, consts, ws, pos, other, rng,
                              opts, views[0], views[1], found, 4, g % 4, redraw)
                assert k_dec > 0, (f"{table} game {g} decision {-1 - k_dec}: "
                                   f"{WRONG[found[0]]}")
