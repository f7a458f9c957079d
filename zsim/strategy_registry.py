"""Strategy names -> the ids and parameter rows a game's jitted engine dispatches on.

Each game has its own strategies (its :class:`~zsim.games.base.StrategyContract`
says which kernels a strategy module defines). Every strategy module of a
game found by :mod:`zsim.strategy_discovery` (built-ins first, then plugins,
each sorted by module path) gets an id by its place in that order.
:mod:`zsim.dispatch` turns these ids into the numba branch the engines
call, and :mod:`zsim.roster` into the set of strategies a kernel is
compiled for.
"""
from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from zsim.errors import ZsimError
from zsim.game_registry import DEFAULT_GAME, get_game
from zsim.search_specs import search_entries
from zsim.strategy import Param
from zsim.tape import TAPE, TAPE_SID, is_tape, params_row
from zsim.strategy_discovery import builtin_modules, groups, plugin_modules

DEFAULT_STRATEGY = "simple"      # Zahltag's; a game's own is game.strategies.default
BASE_REQUIRED = ("NAME", "DESCRIPTION", "PARAMS")


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    sid: int
    description: str
    params: tuple[Param, ...]     # the game's common parameters first, then the strategy's own
    fair: bool
    module: str
    game: str = DEFAULT_GAME
    inline: bool = False          # the module's INLINE: its decisions may be copied into every site
    search: int = -1              # a search of the game's forward model (zsim.harness.search_nb's mode), else -1


def registry(game: str = DEFAULT_GAME) -> dict[str, StrategyInfo]:
    """Every strategy of ``game`` by name, with its dispatch id (one dict per game)."""
    return _registry(game)


@functools.lru_cache(maxsize=None)
def _registry(game: str) -> dict[str, StrategyInfo]:
    contract = get_game(game).strategies
    required = BASE_REQUIRED + tuple(name for name, _ in contract.kernels)
    out: dict[str, StrategyInfo] = {}
    for module_name in builtin_modules(contract.package) + plugin_modules(groups(game, contract.older_groups)):
        module = _import(module_name, required)
        name = module.NAME
        if name in out:
            raise ZsimError(f"two {game} strategies are named {name!r}: {out[name].module} and {module_name}")
        own = tuple(Param(*p) for p in module.PARAMS)
        clash = {p.name for p in own} & {p.name for p in contract.common_params}
        if clash:
            raise ZsimError(f"strategy module {module_name} declares {', '.join(sorted(clash))}, "
                            f"which every {game} strategy already has")
        out[name] = StrategyInfo(name, len(out), module.DESCRIPTION, contract.common_params + own,
                                 bool(getattr(module, "FAIR", True)), module_name, game,
                                 bool(getattr(module, "INLINE", False)))
    if get_game(game).forward:
        for name, mode, fair, description, params in search_entries(game, list(out)):
            if name in out:
                raise ZsimError(f"{game} strategy module {out[name].module} is named {name!r}, "
                                f"the name of zsim's search")
            out[name] = StrategyInfo(name, len(out), description, params, fair, "zsim.search_specs", game, False,
                                     mode)
    return out


def bots(game: str = DEFAULT_GAME) -> list[StrategyInfo]:
    """``game``'s strategies that its engines compile in (every one but the searches)."""
    return [s for s in registry(game).values() if s.search < 0]


def _import(module_name: str, required: tuple[str, ...]) -> ModuleType:
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a broken plugin must not take zsim down with a traceback
        raise ZsimError(f"strategy module {module_name} cannot be imported: "
                        f"{exc.__class__.__name__}: {exc}") from None
    missing = [a for a in required if not hasattr(module, a)]
    if missing:
        raise ZsimError(f"strategy module {module_name} lacks {', '.join(missing)}")
    return module


def max_params(game: str = DEFAULT_GAME) -> int:
    return max([1] + [len(s.params) for s in registry(game).values()])


def owners_of(name: str, game: str) -> list[str]:
    """The other games that have a strategy called ``name`` (for the error line)."""
    from zsim.game_registry import game_names

    out = []
    for other in game_names():
        if other != game:
            try:
                if name in registry(other):
                    out.append(other)
            except ZsimError:
                continue
    return out


def _unknown(name: str, game: str) -> ZsimError:
    others = owners_of(name, game)
    known = ", ".join(registry(game)) or "none"
    if others:
        return ZsimError(f"strategy {name!r} is a {' and '.join(others)} strategy, not a {game} one "
                         f"({game}'s strategies: {known}; give --game {others[0]} to play {others[0]})")
    return ZsimError(f"unknown {game} strategy {name!r} (known: {known})" if game != DEFAULT_GAME
                     else f"unknown strategy {name!r} (known: {known})")


def parse_one(spec: str, game: str = DEFAULT_GAME) -> str:
    """``name`` or ``name:key=value:key=value`` -> its canonical form (parameters
    at their defaults are left out; values are checked against their bounds)."""
    if is_tape(spec):
        return spec.strip()
    name, *assignments = [part.strip() for part in spec.strip().split(":")]
    info = registry(game).get(name)
    if info is None:
        raise _unknown(name, game)
    values = {p.name: p.default for p in info.params}
    given: dict[str, str] = {}       # key -> the value as typed, to name both of a repeat
    for item in assignments:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ZsimError(f"strategy parameter {item!r} of {name} is not of the form key=value")
        if key in given:
            raise ZsimError(f"strategy {name} sets parameter {key} twice ({key}={given[key]} and "
                            f"{key}={raw.strip()}); give each parameter once")
        given[key] = raw.strip()
        param = next((p for p in info.params if p.name == key), None)
        if param is None:
            known = ", ".join(p.name for p in info.params) or "none"
            raise ZsimError(f"strategy {name} has no parameter {key!r} (its parameters: {known})")
        if param.choices:
            if raw.strip() not in param.choices:
                raise ZsimError(f"strategy parameter {name}:{key} must be one of {', '.join(param.choices)}, "
                                f"got {raw.strip()!r}")
            values[key] = float(param.choices.index(raw.strip()))
            continue
        try:
            value = float(raw)
        except ValueError:
            raise ZsimError(f"strategy parameter {name}:{key} needs a number, got {raw.strip()!r}") from None
        if not param.low <= value <= param.high:
            raise ZsimError(f"strategy parameter {name}:{key}={raw.strip()} is out of range "
                            f"{param.low:g}..{param.high:g}")
        values[key] = value
    changed = [f"{p.name}={p.text(values[p.name])}" for p in info.params if values[p.name] != p.default]
    return ":".join([name, *changed])


def parse_strategies(spec: str | None, players: int, game: str = DEFAULT_GAME) -> list[str]:
    """``a,b,c,d`` (one per seat) or a single strategy for every seat; each
    may carry parameters (``handsize:target=7``). Returns canonical specs."""
    if spec is None or not spec.strip():
        return [get_game(game).strategies.default] * players
    seats = [parse_one(s, game) for s in spec.split(",")]
    if len(seats) == 1:
        return seats * players
    if len(seats) != players:
        raise ZsimError(f"--strategies lists {len(seats)} strategies for {players} players "
                        f"(give one per seat, or one for all)")
    return seats


def spec_values(spec: str, game: str = DEFAULT_GAME) -> tuple[StrategyInfo, list[float]]:
    """A spec's strategy and its full parameter row (defaults filled in)."""
    if is_tape(spec):
        return StrategyInfo(TAPE, TAPE_SID, "answers from a list", (), True, "zsim.tape", game), \
            params_row(spec).tolist()
    name, *assignments = parse_one(spec, game).split(":")
    info = registry(game)[name]
    given = dict(a.split("=") for a in assignments)
    return info, [float(p.choices.index(given[p.name]) if p.choices else given[p.name]) if p.name in given
                  else float(p.default) for p in info.params]


def strategy_arrays(game: str, specs: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(ids [P], params [P, max_params(game)]) for ``game``'s kernels."""
    ids = np.zeros(len(specs), dtype=np.int64)
    rows = [spec_values(spec, game) for spec in specs]
    params = np.zeros((len(specs), max([max_params(game)] + [len(v) for _, v in rows])), dtype=np.float64)
    for seat, (info, values) in enumerate(rows):
        ids[seat] = info.sid
        params[seat, :len(values)] = values
    return ids, params


def searches(game: str, specs) -> bool:
    """Whether any of ``specs`` is a search (its games go through the forward model)."""
    return any(not is_tape(s) and registry(game)[s.split(":")[0].strip()].search >= 0 for s in specs)


def rollout_bot(game: str, info: StrategyInfo, values: list[float]) -> StrategyInfo:
    """The bot a search (``info`` with its parameter row ``values``) plays its games out with."""
    at = next(i for i, p in enumerate(info.params) if p.name == "rollout")
    return registry(game)[info.params[at].choices[int(values[at])]]


def rollouts_of(game: str, specs: list[str]) -> list[int]:
    """The ids of the bots an engine must compile in to play ``specs``: a
    bot's own, and for a search the bot it plays its games out with."""
    out = []
    for spec in specs:
        info, values = spec_values(spec, game)
        out.append(info.sid if info.search < 0 else rollout_bot(game, info, values).sid)
    return out


def describe(game: str = DEFAULT_GAME) -> list[dict]:
    """Every strategy of ``game`` with its description and parameters (for ``zsim strategies``)."""
    return [{"name": s.name, "description": s.description, "fair": s.fair,
             "params": [{k: v for k, v in p._asdict().items() if k != "tuned"} for p in s.params]}
            for s in sorted(registry(game).values(), key=lambda s: s.sid)]
