"""Win-probability traces: each seat's chance of winning after every move of
a game, estimated by continuing the game from that position many times.

A trace takes a game as zsim plays it (a matchup, a run seed and a game
number: the same game ``simulate`` and ``record`` give) and the moves made
in it (its *script*: the forward model's option at each decision). For a
game of bots and searches the script is found by playing the game once
(:func:`script_of`); for a game played any other way, the caller hands
the list in. Then, at every position, ``n`` continuations
per observer (``zsim/harness/trace_nb.py``): from the true position, only
what no seat has seen drawn afresh (observer ``TRUE``), and from each seat's
own view by determinisation (observer = the seat). The continuation policy
is the table's own bots: a search seat continues as its rollout bot, a
person's seat as the game's default strategy.

Counts, not clocks: ``n`` fixes the work, and every (game, position,
observer) draws from a stream of its own, so a trace is the same to the
last bit on any number of threads.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from zsim.blocks import play_in_blocks
from zsim.errors import ZsimError
from zsim.harness.forward import forward_model
from zsim.tape import is_tape

#: the observer of the true position
TRUE = -1
#: continuations per position and observer a trace may ask for
MAX_CONTINUATIONS = 1 << 16


@dataclass
class Traced:
    """Traces of ``games``: ``total[g, d, o, s]`` and ``squares[...]`` sum seat
    ``s``'s share of first place (and its square) over the ``n``
    continuations at position ``d`` of game ``g`` for observer
    ``observers[o]`` (at the end, the game's result, counted once);
    ``lengths[g]`` decisions; ``decisions[g]``: per decision (seat, kind,
    option) as the script played them."""
    matchup: object
    seed: int
    games: list[int]
    observers: tuple[int, ...]
    n: int
    continuation: tuple[str, ...]
    lengths: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    decisions: list[np.ndarray]

    def counts(self, g: int) -> np.ndarray:
        """Continuations behind each position of game ``g`` (1 at the end)."""
        out = np.full(int(self.lengths[g]) + 1, float(self.n))
        out[-1] = 1.0
        return out

    def means(self, g: int) -> np.ndarray:
        """[positions, observers, seats]: each seat's estimated share of first place."""
        d = int(self.lengths[g]) + 1
        return self.total[g, :d] / self.counts(g)[:, None, None]


def continuation_specs(matchup) -> tuple[str, ...]:
    """The bots that play a position on: each seat's own bot, a search's
    rollout bot, and the game's default strategy for a seat answered from a
    list (a person's, or a search's replayed)."""
    from zsim.strategy_registry import rollout_bot, spec_values

    g = matchup.spec
    out = []
    for spec in matchup.strategies:
        if is_tape(spec):
            out.append(g.strategies.default)
            continue
        info, values = spec_values(spec, matchup.game)
        out.append(spec if info.search < 0 else rollout_bot(matchup.game, info, values).name)
    return tuple(out)


def script_of(matchup, seed: int, game: int) -> np.ndarray:
    """The decisions of game ``game`` as its seats make them: [decisions, 3]
    rows of (seat, kind, option), found by playing it once through the
    forward model (a search seat searches, as in the run)."""
    from zsim.harness.search_records import play_logged
    from zsim.harness.stepping import SearchSetup
    from zsim.strategy_registry import strategy_arrays

    specs = list(matchup.strategies)
    _, params = strategy_arrays(matchup.game, specs)
    setup = SearchSetup(matchup, specs, params.shape[1])
    decisions, _, _ = play_logged(setup, seed, game, setup.workspace())
    return decisions[:, [0, 1, 3]].copy()


def check_observers(matchup, observers) -> tuple[int, ...]:
    out = tuple(int(o) for o in observers)
    if not out:
        raise ZsimError("a trace needs an observer: the true position, or a seat")
    for o in out:
        if o != TRUE and not 0 <= o < matchup.players:
            raise ZsimError(f"observer seat {o} is not a seat of a {matchup.players}-player game")
    if TRUE in out and not hasattr(forward_model(matchup.game), "redraw_nb"):
        raise ZsimError(f"{matchup.game}'s forward model cannot redraw a true position; trace the seats' views")
    return out


def trace(matchup, seed: int, games, *, n: int = 64, observers=(TRUE,), scripts=None,
          continuation=None, block: int = 1) -> Traced:
    """Trace ``games`` of ``matchup`` (see the module doc): ``n``
    continuations per position and observer, played by ``continuation``
    (strategy specs, one per seat; default :func:`continuation_specs`).
    ``scripts``: each game's (seat, kind, option) rows, else found by
    playing the games."""
    from zsim.harness.chunks import Matchup
    from zsim.harness.stepping import SearchSetup
    from zsim.harness.trace_nb import OBSERVER_SLOTS, trace_blocks_nb
    from zsim.strategy_registry import strategy_arrays

    games = [int(g) for g in games]
    if not 1 <= n <= MAX_CONTINUATIONS:
        raise ZsimError(f"continuations per position must be 1..{MAX_CONTINUATIONS}, got {n}")
    observed = check_observers(matchup, observers)
    if len(observed) > OBSERVER_SLOTS:
        raise ZsimError(f"a trace takes at most {OBSERVER_SLOTS} observers, got {len(observed)}")
    if scripts is None:
        scripts = [script_of(matchup, seed, g) for g in games]
    if len(scripts) != len(games):
        raise ZsimError(f"{len(scripts)} scripts for {len(games)} games")
    cont = tuple(continuation) if continuation is not None else continuation_specs(matchup)
    bots = Matchup(matchup.players, cont, matchup.rules, matchup.deck, matchup.game)
    _, params = strategy_arrays(matchup.game, list(cont))
    setup = SearchSetup(bots, list(cont), params.shape[1])
    model = setup.model
    lengths = np.array([len(s) for s in scripts], np.int64)
    longest = int(lengths.max()) if len(games) else 0
    options = np.zeros((len(games), max(longest, 1)), np.int64)
    for i, s in enumerate(scripts):
        options[i, :len(s)] = np.asarray(s, np.int64)[:, 2]
    total = np.zeros((len(games), longest + 1, len(observed), matchup.players))
    squares = np.zeros_like(total)

    def workspace():
        return (model.workspace(bots), np.zeros(setup.words, np.int64), np.zeros(setup.words, np.int64),
                np.zeros(1, np.uint64), np.zeros(matchup.players))

    if games:
        play_in_blocks(trace_blocks_nb, len(games), max(1, block), np.uint64(seed), np.asarray(games, np.int64),
                       setup.roster, setup.bot_ids, setup.bot_params, options, lengths,
                       np.asarray(observed, np.int64), np.int64(n), setup.consts, total, squares, workspace=workspace)
    return Traced(matchup, seed, games, observed, n, cont, lengths, total, squares,
                  [np.asarray(s, np.int64) for s in scripts])
