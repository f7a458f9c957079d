"""Strategy names -> ids the jitted dispatcher understands.

The built-in field lives in the ``strategies`` package; the order of
``BUILTIN`` is the order of the branches in ``dispatch_nb``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from strategies import random as random_strategy
from strategies import simple as simple_strategy
from zsim.errors import ZsimError


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    sid: int
    description: str
    params: tuple


BUILTIN: tuple[StrategyInfo, ...] = tuple(
    StrategyInfo(m.NAME, i, m.DESCRIPTION, m.PARAMS)
    for i, m in enumerate((random_strategy, simple_strategy))
)
BY_NAME = {s.name: s for s in BUILTIN}
DEFAULT_STRATEGY = "simple"
MAX_PARAMS = 1


def parse_strategies(spec: str | None, players: int) -> list[str]:
    """``a,b,c,d`` (one per seat) or a single name for every seat."""
    if spec is None or not spec.strip():
        return [DEFAULT_STRATEGY] * players
    names = [n.strip() for n in spec.split(",")]
    for n in names:
        if n not in BY_NAME:
            raise ZsimError(f"unknown strategy {n!r} (known: {', '.join(BY_NAME)})")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ZsimError(f"--strategies lists {len(names)} strategies for {players} players "
                        f"(give one per seat, or one for all)")
    return names


def strategy_arrays(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(ids [P], params [P, MAX_PARAMS]) for the kernels."""
    ids = np.array([BY_NAME[n].sid for n in names], dtype=np.int64)
    params = np.zeros((len(names), MAX_PARAMS), dtype=np.float64)
    return ids, params
