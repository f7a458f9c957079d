"""``zsim bench --strategy SEARCH``: how fast a game's search and its forward model are.

From positions of real games (the game's default bots, every seventh
decision), each round times, one after the other:

* the batch engine's games per second with ``random`` at every seat, and
  the forward model's, the same games decision by decision (the model's
  speed beside the engine that needs no search);
* playouts per second: a determinisation from the deciding seat's view and
  the game played out by the search's rollout bot, what one iteration of
  the search does besides its tree;
* the search's iterations per second on one thread from the same
  positions, and the time of one decision at the budget given;
* the search's iterations per second on every thread.

Every figure is the median of the rounds, and each ratio the median of the
rounds' own ratios, so a slow minute on a shared machine moves both sides
of the ratio it lands in. All of it is counted in iterations, so the work
is the same whatever the machine.
"""
from __future__ import annotations

import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from zsim.errors import ZsimError
from zsim.game_registry import get_game
from zsim.harness.chunks import Matchup, play_chunk, set_threads

SEED = 20261207
EVERY = 7


def _setup(game: str, spec: str, players: int, n_positions: int):
    """(the search's setup, positions of real games of the default bots, the bot of the speed figures)."""
    from zsim.harness.stepping import SearchSetup
    from zsim.harness.stepping_nb import collect_positions_nb
    from zsim.strategy_registry import parse_one, registry, searches, strategy_arrays

    g = get_game(game)
    spec = parse_one(spec, game)
    if not searches(game, [spec]):
        raise ZsimError(f"--strategy must be a search of {game} "
                        f"({', '.join(n for n, i in registry(game).items() if i.search >= 0)}), got {spec!r}")
    table = (g.strategies.default,) * players
    ids, params = strategy_arrays(game, list(table))
    setup = SearchSetup(Matchup(players, (spec,) + table[1:], game=game), [spec, *table[1:]], params.shape[1])
    positions = np.zeros((n_positions, setup.words), np.int64)
    model_ws, pos, _, _, _ = setup.workspace()
    collect_positions_nb(SEED, 0, players, setup.roster, ids, params, setup.consts, model_ws, pos, EVERY, positions)
    return setup, positions, "random" if "random" in registry(game) else g.strategies.default


def search_bench(game: str, spec: str, players: int, n_positions: int, games: int, repeat: int) -> list[dict]:
    """One row per round of measures (see the module's docstring) and a last row of medians."""
    from zsim.harness.bench_search_nb import playouts_nb, searches_nb
    from zsim.harness.stepping import play_stepped_chunk

    setup, positions, random_name = _setup(game, spec, players, n_positions)
    roster, consts = setup.roster, setup.consts
    mode, rollout_ids, rollout_params = int(setup.modes[0]), setup.rollout_ids[0], setup.rollout_params[0]
    iterations, worlds, c = int(setup.search[0, 0]), int(setup.search[0, 1]), float(setup.search[0, 2])
    horizon, widen = int(setup.search[0, 3]), int(setup.search[0, 4])
    ws, det, tree, stats, _ = setup.workspace()
    fast = Matchup(players, (random_name,) * players, game=game)
    threads = numba.config.NUMBA_NUM_THREADS
    pool_work = [setup.workspace() for _ in range(threads)]

    def all_threads():
        cuts = np.linspace(0, n_positions, threads + 1).astype(int)
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(lambda k: searches_nb(roster, positions, cuts[k], cuts[k + 1], mode, iterations, worlds, c,
                                                horizon, widen, rollout_ids, rollout_params, consts, pool_work[k][0],
                                                pool_work[k][2], pool_work[k][3], SEED), range(threads)))

    # compile (or load) every kernel before the clock starts
    set_threads(1)
    try:
        play_chunk(fast, SEED, 0, 64)
        play_stepped_chunk(fast, SEED, 0, 64)
        playouts_nb(roster, positions, 0, 1, 1, rollout_ids, rollout_params, consts, ws, det, SEED)
        searches_nb(roster, positions, 0, 1, mode, 4, worlds, c, horizon, widen, rollout_ids, rollout_params, consts,
                    ws, tree, stats, SEED)
        rounds = []
        for r in range(repeat):
            row = {"round": r + 1}
            row["batch_games_s"] = games / _timed(lambda: play_chunk(fast, SEED, 0, games))
            row["model_games_s"] = games / _timed(lambda: play_stepped_chunk(fast, SEED, 0, games))
            per = max(1, iterations // 8)
            row["playouts_s"] = per * n_positions / _timed(
                lambda: playouts_nb(roster, positions, 0, n_positions, per, rollout_ids, rollout_params, consts, ws,
                                    det, SEED + r))
            t = _timed(lambda: searches_nb(roster, positions, 0, n_positions, mode, iterations, worlds, c, horizon,
                                           widen, rollout_ids, rollout_params, consts, ws, tree, stats, SEED + r))
            row["iterations_s"] = iterations * n_positions / t
            row["decision_ms"] = 1000 * t / n_positions
            set_threads(None)
            row["iterations_s_all"] = iterations * n_positions / _timed(all_threads)
            set_threads(1)
            row["model_vs_batch"] = row["model_games_s"] / row["batch_games_s"]
            row["search_vs_playouts"] = row["iterations_s"] / row["playouts_s"]
            rounds.append(row)
    finally:
        set_threads(None)
    medians = {"round": "median"} | {k: statistics.median(r[k] for r in rounds) for k in rounds[0] if k != "round"}
    meta = {"game": game, "strategy": setup.matchup.strategies[0], "players": players, "positions": n_positions,
            "iterations": iterations, "threads": threads}
    return [meta | r for r in rounds + [medians]]


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def search_lines(rows: list[dict]) -> str:
    """The medians in a few lines, each beside the target the search issue set."""
    med = rows[-1]
    return "\n".join([
        f"{med['game']}: {med['strategy']} at {med['players']} players, {med['positions']} positions of real games, "
        f"{med['iterations']} iterations a decision (medians of {len(rows) - 1} rounds)",
        f"  batch engine (random)      {med['batch_games_s']:>12,.0f} games/s   one thread",
        f"  forward model (random)     {med['model_games_s']:>12,.0f} games/s   {med['model_vs_batch']:.2f}x the batch "
        f"engine (target >= 0.5x)",
        f"  playouts                   {med['playouts_s']:>12,.0f} /s        determinise + play out, one thread",
        f"  search                     {med['iterations_s']:>12,.0f} iterations/s  {med['search_vs_playouts']:.2f}x "
        f"the playouts (target >= 0.4x)",
        f"  one decision               {med['decision_ms']:>12.2f} ms        at {med['iterations']} iterations, "
        f"one thread",
        f"  search, {med['threads']} threads         {med['iterations_s_all']:>12,.0f} iterations/s",
    ])
