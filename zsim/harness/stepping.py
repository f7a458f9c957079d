"""Chunks of games played one decision at a time through a game's forward
model (``zsim/harness/forward.py``, ``zsim/harness/stepping_nb.py``): the
path of every game in which a seat searches, and of bots driving the model.

A search has no kernel of its own for the batch engines: a matchup with a
searching seat is played here, every other seat asking its bot exactly as
the batch engine would.
"""
from __future__ import annotations

import numpy as np

from zsim.blocks import play_in_blocks
from zsim.game_registry import get_game
from zsim.harness.forward import forward_model
from zsim.harness.search_nb import new_tree, tree_capacity
from zsim.harness.stepping_nb import play_stepped_blocks_nb
from zsim.roster import roster_of
from zsim.strategy_registry import rollout_bot, rollouts_of, spec_values, strategy_arrays


def search_rows(game: str, specs: list[str], n_params: int):
    """For a table of ``specs``: (the bots' ids, with each searching seat's
    rollout bot in its place, their parameter rows, each seat's search mode
    or -1, its (iterations, worlds, c, horizon, widen), and the tables of bots its searches
    play out with: ids [P, P], parameter rows [P, P, n_params])."""
    players = len(specs)
    common = len(get_game(game).strategies.common_params)
    rollout_sids = rollouts_of(game, specs)
    bot_ids = np.asarray(rollout_sids, np.int64)
    bot_params = np.zeros((players, n_params))
    modes = np.full(players, -1, np.int64)
    search = np.zeros((players, 5))
    rollout_ids = np.zeros((players, players), np.int64)
    rollout_params = np.zeros((players, players, n_params))
    for seat, spec in enumerate(specs):
        info, values = spec_values(spec, game)
        if info.search < 0:
            bot_params[seat, :len(values)] = values
            continue
        named = {p.name: v for p, v in zip(info.params[common:], values[common:])}
        modes[seat] = info.search
        search[seat] = (named["iterations"], named.get("worlds", 1.0), named["c"], named.get("horizon", 0.0),
                        named["widen"])
        bot = rollout_bot(game, info, values)
        _, defaults = spec_values(bot.name, game)
        bot_params[seat, :len(defaults)] = defaults
        rollout_ids[seat, :] = bot.sid
        rollout_params[seat, :, :len(defaults)] = defaults
    return bot_ids, bot_params, modes, search, rollout_ids, rollout_params


class SearchSetup:
    """What a game with searching seats is played with: the forward model, the
    roster its kernels are compiled for, the seats' rows (:func:`search_rows`)
    and a factory of one thread's workspace."""

    def __init__(self, matchup, specs: list[str], n_params: int, roster=None):
        self.model = model = forward_model(matchup.game)
        (self.bot_ids, self.bot_params, self.modes, self.search, self.rollout_ids,
         self.rollout_params) = search_rows(matchup.game, specs, n_params)
        needed = np.unique(np.concatenate([self.bot_ids, self.rollout_ids[self.modes >= 0].ravel()]))
        self.roster = roster_of(matchup.game, needed, roster).for_seats(matchup.players)
        self.consts = model.consts(matchup)
        self.matchup = matchup
        self.words = model.size(matchup)
        self.capacity = tree_capacity(int(self.search[:, 0].max()))

    def rows(self) -> tuple:
        return (self.bot_ids, self.bot_params, self.modes, self.search, self.rollout_ids, self.rollout_params)

    def workspace(self) -> tuple:
        """(the model's workspace, a position, a search tree, the root's rows, the seats' search streams)."""
        m, model = self.matchup, self.model
        return (model.workspace(m), np.zeros(self.words, np.int64),
                new_tree(self.capacity, self.words, model.MAX_OPTIONS, m.players),
                np.zeros((model.MAX_OPTIONS, 3)), np.zeros(m.players, np.uint64))


def play_stepped_chunk_into(matchup, seed: int, first: int, n: int, specs: list[str], n_params: int,
                             seat_out: np.ndarray, game_out: np.ndarray, block: int, roster=None) -> None:
    """Games ``first .. first + n - 1`` of ``matchup`` (its ``specs``, searches
    or bots) played through the game's forward model into the rows given."""
    setup = SearchSetup(matchup, specs, n_params, roster)
    # a searched game takes thousands of times a bot-played one: small blocks share it out
    block = min(block, 4) if (setup.modes >= 0).any() else block
    play_in_blocks(play_stepped_blocks_nb, n, max(1, block), np.uint64(seed), first, setup.roster, *setup.rows(),
                   setup.consts, seat_out, game_out, workspace=setup.workspace)


def play_stepped_chunk(matchup, seed: int, first: int, n: int, roster=None):
    """Games ``first .. first + n - 1`` of ``matchup`` played one decision at a
    time through the game's forward model; returns the (seat_out, game_out)
    rows. With bots alone they equal the batch engine's."""
    g = matchup.spec
    _, params = strategy_arrays(matchup.game, list(matchup.strategies))
    seat_out = np.zeros((n, matchup.players, g.n_seat_stats), np.int64)
    game_out = np.zeros((n, g.n_game_stats), np.int64)
    play_stepped_chunk_into(matchup, seed, first, n, list(matchup.strategies), params.shape[1], seat_out, game_out,
                            64, roster)
    return seat_out, game_out
