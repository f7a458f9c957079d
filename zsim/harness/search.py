"""The chunks of games a searching seat plays (the searches themselves:
``zsim/search_specs.py`` names them, ``zsim/harness/search_nb.py`` plays them).

A search has no kernel of its own for the batch engines: a matchup with a
searching seat is played through the game's forward model
(:func:`play_searched_chunk_into`), every other seat by its bot exactly as
the batch engine would ask it.
"""
from __future__ import annotations

import numpy as np

from zsim.game_registry import get_game


def search_rows(game: str, specs: list[str], n_params: int):
    """For a table of ``specs``: (the bots' ids, with each searching seat's
    rollout bot in its place, their parameter rows, each seat's search mode
    or -1, its (iterations, worlds, c), and the tables of bots its searches
    play out with: ids [P, P], parameter rows [P, P, n_params])."""
    from zsim.strategy_registry import rollout_bot, rollouts_of, spec_values

    players = len(specs)
    common = len(get_game(game).strategies.common_params)
    rollout_sids = rollouts_of(game, specs)
    bot_ids = np.asarray(rollout_sids, np.int64)
    bot_params = np.zeros((players, n_params))
    modes = np.full(players, -1, np.int64)
    search = np.zeros((players, 3))
    rollout_ids = np.zeros((players, players), np.int64)
    rollout_params = np.zeros((players, players, n_params))
    for seat, spec in enumerate(specs):
        info, values = spec_values(spec, game)
        if info.search < 0:
            bot_params[seat, :len(values)] = values
            continue
        named = {p.name: v for p, v in zip(info.params[common:], values[common:])}
        modes[seat] = info.search
        search[seat] = (named["iterations"], named.get("worlds", 1.0), named["c"])
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
        from zsim.harness.forward import forward_model
        from zsim.roster import roster_of

        self.model = model = forward_model(matchup.game)
        (self.bot_ids, self.bot_params, self.modes, self.search, self.rollout_ids,
         self.rollout_params) = search_rows(matchup.game, specs, n_params)
        needed = np.unique(np.concatenate([self.bot_ids, self.rollout_ids.ravel()]))
        self.roster = roster_of(matchup.game, needed, roster).for_seats(matchup.players)
        self.consts = model.consts(matchup)
        self.matchup = matchup
        self.words = model.size(matchup)
        # an iteration adds a node, and in a sealed round a few
        self.capacity = int(8 * self.search[:, 0].max() + 64)

    def rows(self) -> tuple:
        return (self.bot_ids, self.bot_params, self.modes, self.search, self.rollout_ids, self.rollout_params)

    def workspace(self) -> tuple:
        """(the model's workspace, a position, a search tree, the root's rows, the seats' search streams)."""
        from zsim.harness.search_nb import new_tree

        m, model = self.matchup, self.model
        return (model.workspace(m), np.zeros(self.words, np.int64),
                new_tree(self.capacity, self.words, model.MAX_OPTIONS, m.players),
                np.zeros((model.MAX_OPTIONS, 3)), np.zeros(m.players, np.uint64))


def play_searched_chunk_into(matchup, seed: int, first: int, n: int, specs: list[str], n_params: int,
                             seat_out: np.ndarray, game_out: np.ndarray, block: int, roster=None) -> None:
    """Games ``first .. first + n - 1`` of ``matchup``, whose ``specs`` hold a
    search, played through the game's forward model into the rows given."""
    from zsim.blocks import play_in_blocks
    from zsim.harness.stepping_nb import play_searched_blocks_nb

    setup = SearchSetup(matchup, specs, n_params, roster)
    play_in_blocks(play_searched_blocks_nb, n, max(1, min(block, 4)), np.uint64(seed), first, setup.roster,
                   *setup.rows(), setup.consts, seat_out, game_out, workspace=setup.workspace)
