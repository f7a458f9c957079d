"""What a zsim strategy is.

A strategy is a Python module (in its game's ``strategies.<game>`` package,
or anywhere, registered under the entry-point group
``zsim.strategies.<game>``) that defines:

``NAME``         the name used on the command line
``DESCRIPTION``  one line for ``zsim strategies``
``PARAMS``       a tuple of :class:`Param` (may be empty)
``FAIR``         optional, default True; False marks a bound that reads
                 what its seat cannot see (never mixed into fair results)

and the numba kernels its game's contract names
(:attr:`zsim.games.base.StrategyContract.kernels`, with their arguments;
``zsim strategies --game G`` prints them and what a fair strategy of G may
read). The kernels are decorated ``zsim.jit.hot_inline``: they are compiled
into the game loop, so a decision costs no Python call. ``params`` holds the
parameter values in the order of the game's common parameters, then
``PARAMS``; random draws come from the seat's own stream, ``rng`` stream
``1 + seat``. Each game's ``strategies/<game>/__init__.py`` describes its
arrays.
"""
from __future__ import annotations

from typing import NamedTuple


class Param(NamedTuple):
    """One parameter of a strategy: a number in ``low..high``, or with
    ``choices`` one of those names (held in the parameter row as its index;
    ``default``, ``low`` and ``high`` are indices too)."""

    name: str
    default: float
    low: float
    high: float
    help: str = ""
    choices: tuple[str, ...] = ()
    #: whether ``zsim tune`` searches it (a search's budget is what the user affords, not a
    #: setting to find; a choice among names is no number to tune)
    tuned: bool = True

    def text(self, value: float) -> str:
        """``value`` as a spec writes it."""
        return self.choices[int(value)] if self.choices else f"{value:g}"
