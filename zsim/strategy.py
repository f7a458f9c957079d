"""What a zsim strategy is.

A strategy is a Python module (in the ``strategies`` package, or anywhere,
registered under the entry-point group ``zsim.strategies``) that defines:

``NAME``         the name used on the command line
``DESCRIPTION``  one line for ``zsim strategies``
``PARAMS``       a tuple of :class:`Param` (may be empty)
``FAIR``         optional, default True; False marks a bound that reads
                 other hands (never mixed into fair results)
``adjust_nb``    ``(seat, params, hand, left, right, stacks, money, alive,
                 demand, pub, rules, rng) -> action code`` for the setup
                 adjustments (``pub[PUB_ROUND] > 0``) and the turn's step 2
``bid_nb``       ``(seat, need, params, hand, ..., rng) -> 0 (pass) or
                 1..max_bid`` for a revealed job

Both functions are numba kernels decorated ``zsim.jit.hot_inline``: they
are compiled into the game loop, so a decision costs no Python call. A fair
strategy reads only its own row of ``hand`` plus public facts (everyone's
money, hand sizes and table areas, the stacks, ``demand`` of the rest of the
deck, ``pub``, ``rules``); its random draws come from its own stream,
``rng`` stream ``1 + seat``. ``params`` holds its parameter values in the
order of ``PARAMS``.

Zahltag's card counts (``hand``, ``left``, ``right`` [P, 4], ``stacks`` [4]
and a job's ``need`` [4]) are int16, so that a row of four is eight bytes:
``zsim.jit.lanes_nb`` reads it as one int64, type t in bits 16t..16t+15, and
``zsim.games.zahltag.moves_nb`` compares or sums all four at once
(``lanes_cover_nb``, ``lanes_sum_nb``). Indexing them one by one works as
before. ``pub[PUB_HANDS]`` (every hand's cards together) and
``pub[PUB_KNOWN + seat]`` (what a seat must hold, ``facts_nb.known_nb``)
are kept as lanes too.
"""
from __future__ import annotations

from typing import NamedTuple


class Param(NamedTuple):
    name: str
    default: float
    low: float
    high: float
    help: str = ""
