"""Strategy names -> the ids and parameter rows the jitted engine dispatches on.

Every strategy module found by :mod:`zsim.strategy_discovery` (built-ins
first, then plugins, each sorted by module path) gets an id by its place in
that order. :func:`dispatcher` writes a small module of numba kernels that
branches on the id and calls the strategy's own kernels, so one compiled
engine serves every matchup and no decision makes a Python call. The module
goes into the kernel cache folder, whose name already covers every strategy
source, so a new or edited strategy gets a fresh dispatcher and engine.
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

import zsim
from zsim.errors import ZsimError
from zsim.strategy import Param
from zsim.strategy_discovery import builtin_modules, plugin_modules

DEFAULT_STRATEGY = "simple"
REQUIRED = ("NAME", "DESCRIPTION", "PARAMS", "adjust_nb", "bid_nb")


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    sid: int
    description: str
    params: tuple[Param, ...]
    fair: bool
    module: str


@functools.lru_cache(maxsize=None)
def registry() -> dict[str, StrategyInfo]:
    """Every strategy by name, with its dispatch id."""
    out: dict[str, StrategyInfo] = {}
    for module_name in builtin_modules() + plugin_modules():
        module = _import(module_name)
        name = module.NAME
        if name in out:
            raise ZsimError(f"two strategies are named {name!r}: {out[name].module} and {module_name}")
        params = tuple(Param(*p) for p in module.PARAMS)
        out[name] = StrategyInfo(name, len(out), module.DESCRIPTION, params,
                                 bool(getattr(module, "FAIR", True)), module_name)
    return out


def _import(module_name: str) -> ModuleType:
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a broken plugin must not take zsim down with a traceback
        raise ZsimError(f"strategy module {module_name} cannot be imported: "
                        f"{exc.__class__.__name__}: {exc}") from None
    missing = [a for a in REQUIRED if not hasattr(module, a)]
    if missing:
        raise ZsimError(f"strategy module {module_name} lacks {', '.join(missing)}")
    return module


def max_params() -> int:
    return max([1] + [len(s.params) for s in registry().values()])


# ---------------------------------------------------------------- parsing
def parse_one(spec: str) -> str:
    """``name`` or ``name:key=value:key=value`` -> its canonical form (parameters
    at their defaults are left out; values are checked against their bounds)."""
    name, *assignments = [part.strip() for part in spec.strip().split(":")]
    info = registry().get(name)
    if info is None:
        raise ZsimError(f"unknown strategy {name!r} (known: {', '.join(registry())})")
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


def parse_strategies(spec: str | None, players: int) -> list[str]:
    """``a,b,c,d`` (one per seat) or a single strategy for every seat; each
    may carry parameters (``handsize:target=7``). Returns canonical specs."""
    if spec is None or not spec.strip():
        return [DEFAULT_STRATEGY] * players
    seats = [parse_one(s) for s in spec.split(",")]
    if len(seats) == 1:
        return seats * players
    if len(seats) != players:
        raise ZsimError(f"--strategies lists {len(seats)} strategies for {players} players "
                        f"(give one per seat, or one for all)")
    return seats


def strategy_arrays(specs: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(ids [P], params [P, max_params()]) for the kernels."""
    reg = registry()
    ids = np.zeros(len(specs), dtype=np.int64)
    params = np.zeros((len(specs), max_params()), dtype=np.float64)
    for seat, spec in enumerate(specs):
        name, *assignments = parse_one(spec).split(":")
        info = reg[name]
        ids[seat] = info.sid
        given = dict(a.split("=") for a in assignments)
        for i, p in enumerate(info.params):
            params[seat, i] = float(given.get(p.name, p.default))
    return ids, params


# ---------------------------------------------------------------- dispatch
_ARGS = "seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng"
_BID_ARGS = "seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng"


def dispatcher_source(infos: list[StrategyInfo]) -> str:
    lines = [
        '"""Strategy dispatch, generated by zsim.strategy_registry; do not edit."""',
        "import importlib",
        "from zsim.jit import hot_inline",
        "",
    ]
    for info in infos:
        lines += [f"_m{info.sid} = importlib.import_module({info.module!r})",
                  f"adjust{info.sid} = _m{info.sid}.adjust_nb",
                  f"bid{info.sid} = _m{info.sid}.bid_nb"]
    for fn, args, prefix in (("adjust_nb", _ARGS, "adjust"), ("bid_nb", _BID_ARGS, "bid")):
        lines += ["", "", "@hot_inline", f"def {fn}(sid, {args}):"]
        for info in infos[:-1]:
            lines += [f"    if sid == {info.sid}:", f"        return {prefix}{info.sid}({args})"]
        lines += [f"    return {prefix}{infos[-1].sid}({args})"]
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=None)
def dispatcher() -> ModuleType:
    """The dispatch module for the strategies installed now (written once into
    the kernel cache folder, then imported from there)."""
    infos = sorted(registry().values(), key=lambda s: s.sid)
    source = dispatcher_source(infos)
    path = Path(zsim.NUMBA_CACHE) / "zsim_dispatch.py"
    try:
        current = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):     # missing, or damaged on disk: write it afresh
        current = None
    if current != source:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)
    name = f"zsim_dispatch_{Path(zsim.NUMBA_CACHE).name}"
    if name in sys.modules:
        return sys.modules[name]
    # compiled from the source just checked, never from a __pycache__ file
    # beside it, which a full disk or a killed process may have left cut short
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


def describe() -> list[dict]:
    """Every strategy with its description and parameters (for ``zsim strategies``)."""
    return [{"name": s.name, "description": s.description, "fair": s.fair,
             "params": [p._asdict() for p in s.params]}
            for s in sorted(registry().values(), key=lambda s: s.sid)]
