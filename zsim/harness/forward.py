"""The forward-model contract: a game played one decision at a time.

A game's batch engine plays a whole game in one jitted loop, asking its
bots at each decision point; nothing can start from a position, try a move
or ask what a seat knows. A *forward model* can. A game that has one names
its module in :attr:`Game.forward <zsim.games.base.Game.forward>`, and the
search (``zsim/harness/search_nb.py``) and the step-by-step driver
(``zsim/harness/stepping_nb.py``) are written once over it, without naming
a game. Each game's module defines:

In Python
    ``consts(matchup) -> tuple``: the game's constant arrays (rules, deck),
    handed unchanged to every kernel below as ``consts``.
    ``workspace(matchup) -> tuple``: one thread's scratch arrays (``ws``).
    ``size(matchup) -> int``: the int64 words of one position.
    ``MAX_OPTIONS``: the most options one decision can have.
    ``KINDS``: the names of the decision kinds (``kind_nb``'s numbers).
    ``option_text(kind, option) -> str``: an option as a person reads it.

In numba (a position ``pos`` is one 1-D int64 array of ``size`` words, so a
copy is one ``dst[:] = src``):
    ``new_nb(key, n_players, consts, ws, pos)``: the game whose 64-bit key is
    ``key`` (``zsim.rng.game_key``), dealt exactly as the batch engine deals
    it, advanced to its first decision.
    ``decider_nb(pos)``: the seat whose decision is pending, -1 at the end.
    ``kind_nb(pos)``: the pending decision's kind.
    ``sealed_nb(pos)``: 0 when the other seats see the pending decision as it
    is made; else a number shared by the sealed decisions that are revealed
    together (Zahltag's bids for one job), different for the next round of
    them. The search never lets one of them depend on another.
    ``options_nb(pos, consts, out) -> n``: the legal options, distinct int64
    codes in a canonical order, in ``out[:n]`` (``n >= 1``).
    ``apply_nb(pos, option, consts, ws)``: play ``option`` for the pending
    decision and advance through chance, drawn from the position's own
    streams as the batch engine draws them, to the next decision or the end.
    An option that is not legal is played as the batch engine plays an
    illegal answer, and counted where it counts one.
    ``bot_nb(roster, strat_ids, strat_params, pos, consts) -> option``: the
    answer of the pending seat's strategy, asked through the game's strategy
    dispatch with exactly what the batch engine hands it (the seat's stream
    included), so that bots driving a forward model play the batch engine's
    games.
    ``determinize_nb(pos, seat, rng, out, consts, ws)``: write into ``out`` a
    position drawn uniformly from those ``seat`` cannot tell apart from
    ``pos`` given all it has seen, drawing only from ``rng`` (a one-stream
    ``zsim.rng`` state). It reads what the seat cannot see only as counts or
    sets, in a canonical order, never in the order ``pos`` holds it, so that
    every position of the same information set gives the same ``out`` for
    the same ``rng``; it reseeds every stream of ``out`` (future chance and
    the other seats' bots are hidden too).
    ``redraw_nb(pos, rng, out, consts, ws)`` (optional: the "true position"
    of the win-probability traces, ``zsim/harness/trace.py``): write into
    ``out`` the position ``pos`` with what no seat has seen drawn afresh
    from ``rng``: the order of the cards still face down, and every stream.
    What any seat knows stays as it is, hands and sealed answers included,
    so every seat's ``view_nb`` of ``out`` is its view of ``pos``.
    ``view_nb(pos, seat, out) -> n``: what ``seat`` knows, as int64 words in
    ``out[:n]``: equal for two positions exactly when the seat cannot tell
    them apart (the tests hold ``determinize_nb`` to it).
    ``outs_nb(pos)`` (``hot_inline``: it returns views): the position's
    seat rows and game row, kept as the batch engine keeps them. At the end
    they are the batch engine's rows of this game; the search's reward, each
    seat's share of first place, is read from their ``place`` column.
    ``answer_nb(pos, option)`` (only where a game's options are not its
    bots' answers): the answer a bot gives to choose ``option``.
    ``value_nb(pos, consts, out)`` (optional, with
    :attr:`StrategyContract.horizon <zsim.games.base.StrategyContract.horizon>`):
    each seat's estimated share of first place in ``out``, at a position
    whose game is not over, the shares summing to 1. A search whose
    ``horizon`` is above 0 plays that many rollout decisions and scores
    the position it reaches by this estimate instead of playing on.

And for records of searched games (``zsim/harness/search_records.py``):
``DECISION_EVENTS``, per kind the record event that shows such a decision
(a name, or a tuple of names), and where that is not enough,
``decision_event(events, start, seat, kind, option)``: the index of the
event that shows the decision, the first from ``start`` on.

The search backs up win shares (1/k for each of k seats sharing first
place, else 0), not scores: every figure zsim prints is a
win share, a normalised score would make the search trade wins for margin,
and scores mean different things in every game.

The numba functions are reached from game-blind code through the stubs
below, each compiled for the game of the roster it is handed
(:class:`~zsim.roster.RosterType` names its game), like the strategy
dispatch.
"""
from __future__ import annotations

import functools
import importlib
from types import ModuleType

import numpy as np
from numba.extending import overload

from zsim.errors import ZsimError
from zsim.game_registry import get_game
from zsim.roster import RosterType

#: the numba functions of a forward model, with their arguments after the roster
KERNELS = (
    ("new_nb", "key, n_players, consts, ws, pos"),
    ("decider_nb", "pos"),
    ("kind_nb", "pos"),
    ("sealed_nb", "pos"),
    ("options_nb", "pos, consts, out"),
    ("apply_nb", "pos, option, consts, ws"),
    ("determinize_nb", "pos, seat, rng, out, consts, ws"),
    ("view_nb", "pos, seat, out"),
    ("outs_nb", "pos"),
)
PYTHON = ("consts", "workspace", "size", "MAX_OPTIONS", "KINDS", "option_text")


def forward_model(game: str) -> ModuleType:
    """``game``'s forward-model module; ZsimError when the game has none."""
    name = getattr(get_game(game), "forward", None)
    if not name:
        raise ZsimError(f"{game} has no forward model, so it cannot be searched or stepped")
    return _module(name)


@functools.lru_cache(maxsize=None)
def _module(name: str) -> ModuleType:
    module = importlib.import_module(name)
    missing = [k for k in [k for k, _ in KERNELS] + ["bot_nb", *PYTHON] if not hasattr(module, k)]
    if missing:
        raise ZsimError(f"forward model {name} lacks {', '.join(missing)}")
    return module


def _stub(fn: str, args: str):
    namespace: dict = {}
    exec(f"def fm_{fn}(roster, {args}):\n"
         f"    raise TypeError('fm_{fn} runs inside a numba kernel')\n"
         f"def typer(roster, {args}):\n"
         f"    if not isinstance(roster, RosterType):\n"
         f"        return None\n"
         f"    kernel = getattr(forward_model(roster.game), {fn!r})\n"
         f"    def impl(roster, {args}):\n"
         f"        return kernel({args})\n"
         f"    return impl\n", {"RosterType": RosterType, "forward_model": forward_model}, namespace)
    overload(namespace[f"fm_{fn}"], inline="always")(namespace["typer"])
    return namespace[f"fm_{fn}"]


fm_new_nb = _stub("new_nb", "key, n_players, consts, ws, pos")
fm_decider_nb = _stub("decider_nb", "pos")
fm_kind_nb = _stub("kind_nb", "pos")
fm_sealed_nb = _stub("sealed_nb", "pos")
fm_options_nb = _stub("options_nb", "pos, consts, out")
fm_apply_nb = _stub("apply_nb", "pos, option, consts, ws")
fm_determinize_nb = _stub("determinize_nb", "pos, seat, rng, out, consts, ws")
fm_view_nb = _stub("view_nb", "pos, seat, out")


def fm_redraw_nb(roster, pos, rng, out, consts, ws):
    """The forward model's ``redraw_nb``; a model without one copies ``pos``
    (the traces refuse a true position for such a game before they start)."""
    raise TypeError("fm_redraw_nb runs inside a numba kernel")


def _redraw_typer(roster, pos, rng, out, consts, ws):
    if not isinstance(roster, RosterType):
        return None
    kernel = getattr(forward_model(roster.game), "redraw_nb", None)
    if kernel is None:
        def impl(roster, pos, rng, out, consts, ws):
            for i in range(pos.shape[0]):
                out[i] = pos[i]
        return impl

    def impl(roster, pos, rng, out, consts, ws):
        kernel(pos, rng, out, consts, ws)
    return impl


overload(fm_redraw_nb, inline="always")(_redraw_typer)


def fm_reward_nb(roster, pos, out):
    """At the end of the game at ``pos``: each seat's share of first place in ``out``."""
    raise TypeError("fm_reward_nb runs inside a numba kernel")


def fm_rows_nb(roster, pos, seat_out, game_out):
    """At the end of the game at ``pos``: its batch engine rows into ``seat_out`` and ``game_out``."""
    raise TypeError("fm_rows_nb runs inside a numba kernel")


def _reward_typer(roster, pos, out):
    if not isinstance(roster, RosterType):
        return None
    outs, place = forward_model(roster.game).outs_nb, get_game(roster.game).seat_index("place")

    def impl(roster, pos, out):
        seats, _ = outs(pos)
        first = 0
        for s in range(seats.shape[0]):
            first += np.int64(seats[s, place] == 1)
        for s in range(seats.shape[0]):
            out[s] = (seats[s, place] == 1) / first
    return impl


def _rows_typer(roster, pos, seat_out, game_out):
    if not isinstance(roster, RosterType):
        return None
    outs = forward_model(roster.game).outs_nb

    def impl(roster, pos, seat_out, game_out):
        seats, game = outs(pos)
        for s in range(seats.shape[0]):
            for c in range(seats.shape[1]):
                seat_out[s, c] = seats[s, c]
        for c in range(game.shape[0]):
            game_out[c] = game[c]
    return impl


def fm_value_nb(roster, pos, consts, out):
    """Each seat's estimated share of first place at ``pos``, the game not
    yet over: the forward model's optional ``value_nb(pos, consts, out)``
    (a game without one is never cut short: its value is its reward)."""
    raise TypeError("fm_value_nb runs inside a numba kernel")


def _value_typer(roster, pos, consts, out):
    if not isinstance(roster, RosterType):
        return None
    value = getattr(forward_model(roster.game), "value_nb", None)
    if value is None:
        def impl(roster, pos, consts, out):
            fm_reward_nb(roster, pos, out)
        return impl

    def impl(roster, pos, consts, out):
        value(pos, consts, out)
    return impl


overload(fm_reward_nb, inline="always")(_reward_typer)
overload(fm_value_nb, inline="always")(_value_typer)
overload(fm_rows_nb, inline="always")(_rows_typer)


def _bot_typer(roster, strat_ids, strat_params, pos, consts):
    if not isinstance(roster, RosterType):
        return None
    kernel = forward_model(roster.game).bot_nb

    def impl(roster, strat_ids, strat_params, pos, consts):
        return kernel(roster, strat_ids, strat_params, pos, consts)
    return impl


def fm_bot_nb(roster, strat_ids, strat_params, pos, consts):
    raise TypeError("fm_bot_nb runs inside a numba kernel")


overload(fm_bot_nb, inline="always")(_bot_typer)


def fm_answer_nb(roster, pos, option):
    """The answer a bot gives to choose ``option`` at ``pos``: the game's
    ``answer_nb(pos, option)`` where its options are not its bots' answers
    (Baumeister's bots answer an option's index), else ``option`` itself.
    A record of a searched game replays the searching seats' choices as
    bot answers (``zsim.tape``)."""
    raise TypeError("fm_answer_nb runs inside a numba kernel")


def _answer_typer(roster, pos, option):
    if not isinstance(roster, RosterType):
        return None
    kernel = getattr(forward_model(roster.game), "answer_nb", None)
    if kernel is None:
        return lambda roster, pos, option: option

    def impl(roster, pos, option):
        return kernel(pos, option)
    return impl


overload(fm_answer_nb, inline="always")(_answer_typer)

