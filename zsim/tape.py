"""Tapes: a seat that answers from a list, so that a game a search played can
be written by the game's own record writer.

A search has no kernel the batch engines or the reference engines could
call, and a game's record is written by one of those. So a searched game
is first played through the forward model, every answer of each searching
seat noted, and then played again by the game's record writer with a tape
in each of those seats: a strategy whose kernel (one per kernel of the
game's contract, generated into the game's dispatch like any other branch)
returns the next answer of its list. The answers are the forward model's
options, which are the bots' own answers, so the replayed game is the
searched game, decision for decision (``zsim/harness/search_records.py``
checks that the places agree).

A tape is never a strategy a person names: its spec, ``__tape__:N``, points
at a list this process holds, and its id lies outside every registry.
"""
from __future__ import annotations

import itertools

import numpy as np

TAPE = "__tape__"
#: the dispatch id of every tape (no registry numbers its strategies this high)
TAPE_SID = 1 << 20

_tapes: dict[int, np.ndarray] = {}
_tokens = itertools.count(1)


def tape_spec(answers) -> str:
    """A spec for a seat that answers ``answers`` in turn (forget it with :func:`drop`)."""
    token = next(_tokens)
    _tapes[token] = np.asarray(answers, np.float64)
    return f"{TAPE}:{token}"


def drop(spec: str) -> None:
    _tapes.pop(_token(spec), None)


def is_tape(spec: str) -> bool:
    """Whether ``spec`` is a tape this process holds (a person's ``__tape__:N``
    names none, and is refused as an unknown strategy)."""
    name, _, token = spec.strip().partition(":")
    return name == TAPE and token.isdigit() and int(token) in _tapes


def _token(spec: str) -> int:
    return int(spec.split(":")[1])


def params_row(spec: str) -> np.ndarray:
    """The parameter row a tape's kernel reads: the next answer's index, then the answers."""
    return np.concatenate([[0.0], _tapes[_token(spec)]])


def kernel_source(name: str, fn: str, args: str) -> list[str]:
    """The lines of a tape's kernel ``name`` for the contract's kernel ``fn(args)``:
    the next answer of the row its ``params`` argument holds."""
    names = [a.strip() for a in args.split(",")]
    if "params" not in names:
        raise ValueError(f"kernel {fn} has no params argument, so it cannot play a tape")
    return ["", "", "@hot_inline", f"def {name}({args}):",
            "    i = np.int64(params[0])",
            "    params[0] = params[0] + 1.0",
            "    return np.int64(params[1 + i])"]
