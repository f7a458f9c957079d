"""Strategy names -> the ids and parameter rows a game's jitted engine dispatches on.

Each game has its own strategies (its :class:`~zsim.games.base.StrategyContract`
says which kernels a strategy module defines). Every strategy module of a
game found by :mod:`zsim.strategy_discovery` (built-ins first, then plugins,
each sorted by module path) gets an id by its place in that order.
:func:`dispatcher` gives the engines one numba function per kernel of the
contract that branches on the id and calls the strategy's own kernel, so no
decision makes a Python call; compiled for a :class:`~zsim.roster.Roster`,
it branches over that roster's strategies alone (:func:`roster_dispatch`
writes that module into the kernel cache folder, whose name already covers
every strategy source, so a new or edited strategy gets a fresh dispatch
and engine).
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.abc
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

import zsim
from zsim.errors import ZsimError
from zsim.games import DEFAULT_GAME, get_game
from zsim.strategy import Param
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


def registry(game: str = DEFAULT_GAME) -> dict[str, StrategyInfo]:
    """Every strategy of ``game`` by name, with its dispatch id (one dict per game)."""
    return _registry(game)


@functools.lru_cache(maxsize=None)
def _registry(game: str) -> dict[str, StrategyInfo]:
    contract = get_game(game).strategies
    required = BASE_REQUIRED + tuple(name for name, _ in contract.kernels)
    out: dict[str, StrategyInfo] = {}
    for module_name in builtin_modules(contract.package) + plugin_modules(groups(game)):
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
    return out


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
    from zsim.games import game_names

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
        try:
            value = float(raw)
        except ValueError:
            raise ZsimError(f"strategy parameter {name}:{key} needs a number, got {raw.strip()!r}") from None
        if not param.low <= value <= param.high:
            raise ZsimError(f"strategy parameter {name}:{key}={raw.strip()} is out of range "
                            f"{param.low:g}..{param.high:g}")
        values[key] = value
    changed = [f"{p.name}={values[p.name]:g}" for p in info.params if values[p.name] != p.default]
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
    name, *assignments = parse_one(spec, game).split(":")
    info = registry(game)[name]
    given = dict(a.split("=") for a in assignments)
    return info, [float(given.get(p.name, p.default)) for p in info.params]


def strategy_arrays(game: str, specs: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(ids [P], params [P, max_params(game)]) for ``game``'s kernels."""
    ids = np.zeros(len(specs), dtype=np.int64)
    params = np.zeros((len(specs), max_params(game)), dtype=np.float64)
    for seat, spec in enumerate(specs):
        info, values = spec_values(spec, game)
        ids[seat] = info.sid
        params[seat, :len(values)] = values
    return ids, params


# ---------------------------------------------------------------- dispatch
def dispatcher_source(infos: list[StrategyInfo], kernels: tuple[tuple[str, str], ...],
                      calls: bool = False) -> str:
    """A module with one ``<kernel>(sid, <args>)`` per kernel of the contract,
    branching on the strategy id over ``infos`` (a roster's strategies), and
    ``impl_<kernel>(roster, sid, <args>)`` beside it, what :func:`dispatcher`'s
    stub compiles to for that roster. The branch is ``hot_inline``, copied
    into each kernel that asks a decision, or with ``calls`` a ``hot`` kernel
    compiled once and called (``hot_uncached``, see :class:`~zsim.roster.Roster`)."""
    decorator = "hot_uncached" if calls else "hot_inline"
    lines = [
        '"""Strategy dispatch, generated by zsim.strategy_registry; do not edit."""',
        "import importlib",
        f"from zsim.jit import {decorator}",
        "",
    ]
    for info in infos:
        lines.append(f"_m{info.sid} = importlib.import_module({info.module!r})")
        for k, (fn, _) in enumerate(kernels):
            lines.append(f"k{k}_{info.sid} = _m{info.sid}.{fn}")
    for k, (fn, args) in enumerate(kernels):
        lines += ["", "", f"@{decorator}", f"def {fn}(sid, {args}):"]
        for info in infos[:-1]:
            lines += [f"    if sid == {info.sid}:", f"        return k{k}_{info.sid}({args})"]
        lines += [f"    return k{k}_{infos[-1].sid}({args})"]
        lines += ["", "", f"def impl_{fn}(roster, sid, {args}):", f"    return {fn}(sid, {args})"]
    return "\n".join(lines) + "\n"


def dispatcher(game: str = DEFAULT_GAME) -> ModuleType:
    """``game``'s strategy dispatch: one ``<kernel>(roster, sid, <args>)`` per
    kernel of its contract, callable inside a numba kernel. Each
    :class:`~zsim.roster.Roster` compiles it to a branch over the roster's
    strategies alone (see :mod:`zsim.roster`)."""
    return _dispatcher(game)


@functools.lru_cache(maxsize=None)
def _dispatcher(game: str) -> ModuleType:
    from numba.extending import overload

    from zsim.roster import RosterType

    module = ModuleType(f"zsim_dispatch_{game}")
    for fn, args in get_game(game).strategies.kernels:
        namespace: dict = {}
        exec(f"def {fn}(roster, sid, {args}):\n"
             f"    raise TypeError('{fn} is a strategy dispatch: call it inside a numba kernel')\n"
             f"def typer(roster, sid, {args}):\n"
             f"    return choose(roster)\n", namespace)

        def choose(roster, fn=fn):
            if not isinstance(roster, RosterType) or roster.game != game:
                return None
            return getattr(roster_dispatch(game, roster.sids, roster.calls), f"impl_{fn}")

        namespace["choose"] = choose
        overload(namespace[fn], inline="always")(namespace["typer"])
        setattr(module, fn, namespace[fn])
    return module


@functools.lru_cache(maxsize=None)
def roster_dispatch(game: str, sids: tuple[int, ...], calls: bool = False) -> ModuleType:
    """The dispatch module of the strategies ``sids`` of ``game`` (written once
    into the kernel cache folder, then imported from there); ``calls``: its
    branch a kernel of its own (see :func:`dispatcher_source`)."""
    by_sid = {s.sid: s for s in registry(game).values()}
    unknown = [s for s in sids if s not in by_sid]
    if unknown:
        raise ZsimError(f"{game} has no strategy with id {unknown[0]}")
    infos = [by_sid[s] for s in sorted(sids)]
    source = dispatcher_source(infos, get_game(game).strategies.kernels, calls)
    everyone = len(infos) == len(by_sid)
    tag = "all" if everyone else "_".join(str(s) for s in sorted(sids))
    if len(tag) > 80:     # a long roster of many plugins: its file named by a digest of the ids
        tag = hashlib.sha256(tag.encode()).hexdigest()[:16]
    if calls:
        tag += "_calls"
    path = Path(zsim.NUMBA_CACHE) / f"zsim_dispatch_{game}_{tag}.py"
    try:
        current = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):     # missing, or damaged on disk: write it afresh
        current = None
    if current != source:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)
    name = f"zsim_dispatch_{game}_{tag}_{Path(zsim.NUMBA_CACHE).name}"
    if name in sys.modules:
        return sys.modules[name]
    # compiled from the source just checked, never from a __pycache__ file
    # beside it, which a full disk or a killed process may have left cut short
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


class _DispatchFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a dispatch module by its name from the kernel cache folder.

    A kernel cached on disk that calls a dispatch compiled as a kernel of its
    own (``Roster.calls``) names that module, and numba imports it by name
    when it loads the kernel in a fresh process, before any roster asked for
    it. The module is the file :func:`roster_dispatch` wrote there (the
    folder's name covers every strategy source, so the file is the one the
    kernel was compiled from); it is compiled from its source, as there."""

    PREFIX = "zsim_dispatch_"

    def find_spec(self, fullname, path=None, target=None):
        suffix = f"_{Path(zsim.NUMBA_CACHE).name}"
        if not (fullname.startswith(self.PREFIX) and fullname.endswith(suffix)):
            return None
        file = Path(zsim.NUMBA_CACHE) / f"{fullname[:-len(suffix)]}.py"
        if not file.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, file, loader=self)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        path = module.__spec__.origin
        source = Path(path).read_text(encoding="utf-8")
        exec(compile(source, path, "exec"), module.__dict__)


if not any(isinstance(f, _DispatchFinder) for f in sys.meta_path):
    sys.meta_path.append(_DispatchFinder())


def roster(game: str, specs=None):
    """The :class:`~zsim.roster.Roster` of ``game``'s strategies named in
    ``specs`` (strategy specs or names; all installed strategies when None)."""
    from zsim.roster import roster_of

    reg = registry(game)
    if specs is None:
        return roster_of(game, [s.sid for s in reg.values()])
    return roster_of(game, [reg[parse_one(s, game).split(":")[0]].sid for s in specs])


def describe(game: str = DEFAULT_GAME) -> list[dict]:
    """Every strategy of ``game`` with its description and parameters (for ``zsim strategies``)."""
    return [{"name": s.name, "description": s.description, "fair": s.fair,
             "params": [p._asdict() for p in s.params]}
            for s in sorted(registry(game).values(), key=lambda s: s.sid)]
