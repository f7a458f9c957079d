"""The building cards: a CSV with columns card,type,value,shields,coins.

The default cards (``data/buildings.csv``, 40 cards) ship with the package;
``--deck FILE`` plays any file with the same columns (read within the bounds
of :mod:`zsim.data_files`). A card is its number
(1..N, each once). A city's shields and coins are read from the columns, not
from the type.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from zsim.data_files import csv_rows, plain, read_data_file, show, whole_number
from zsim.games.baumeister import constants as K
from zsim.errors import ZsimError

COLUMNS = ("card", "type", "value", "shields", "coins")
TYPES = ("corner_tower", "tower", "city_gate", "town_hall", "church")
CORNER, TOWER, GATE, HALL, CHURCH = range(5)
MIN_CARDS, MAX_CARDS = 2, 100
#: no column may hold more (a value is paid in Thaler, coins are income)
MAX_NUMBER = 1000
DEFAULT_DECK_NAME = "default (buildings.csv)"


def kin(t: int) -> int:
    """A type's neighbour class: tower and corner tower count as one."""
    return TOWER if t == CORNER else t


@dataclass(frozen=True)
class Card:
    number: int        # 1-based, as in the file
    type: int          # index into TYPES
    value: int
    shields: int
    coins: int

    @property
    def type_name(self) -> str:
        return TYPES[self.type]


@dataclass(frozen=True)
class Deck:
    name: str
    cards: tuple[Card, ...]        # cards[i] is card number i + 1

    @property
    def n(self) -> int:
        return len(self.cards)

    def card(self, number: int) -> Card:
        return self.cards[number - 1]

    def rows(self) -> list[list]:
        """``[card, type, value, shields, coins]`` per card (the record's ``cards``)."""
        return [[c.number, c.type_name, c.value, c.shields, c.coins] for c in self.cards]

    def arrays(self) -> np.ndarray:
        """int64 [N + 1, N_DECK]: type, value, shields, coins of card 1..N (row 0 unused)."""
        out = np.zeros((self.n + 1, K.N_DECK), dtype=np.int64)
        for c in self.cards:
            out[c.number] = (c.type, c.value, c.shields, c.coins)
        return out

    @classmethod
    def from_rows(cls, rows, name: str = "record") -> Deck:
        """A deck from a record's ``cards`` list, checked like a file."""
        lines = [",".join(COLUMNS)] + [",".join(str(x) for x in r) if isinstance(r, (list, tuple)) else "?"
                                        for r in rows]
        return parse_deck("\n".join(lines), name)


def default_deck() -> Deck:
    text = resources.files("zsim.games.baumeister").joinpath("data/buildings.csv").read_text()
    return parse_deck(text, DEFAULT_DECK_NAME)


def load_deck(path: str | Path | None) -> Deck:
    """The cards in ``path`` (None: the default cards), validated."""
    if path is None:
        return default_deck()
    return parse_deck(read_data_file(path, "building file"), str(path))


def _whole(where: str, line_no: int, col: str, cell: str) -> int:
    v = whole_number(cell, f"{where}: line {line_no} {col}")
    if v < 0:
        raise ZsimError(f"{where}: line {line_no} {col} is negative: {v}")
    if v > MAX_NUMBER:
        raise ZsimError(f"{where}: line {line_no} {col} is {v}, more than {MAX_NUMBER}")
    return v


def parse_deck(text: str, name: str) -> Deck:
    where = f"building file {plain(name)}"
    rows = csv_rows(text, where)
    if not rows:
        raise ZsimError(f"{where}: the file is empty")
    header = tuple(h.strip().lower() for h in rows[0][1])
    if header != COLUMNS:
        raise ZsimError(f"{where}: columns must be {','.join(COLUMNS)}, "
                        f"found {show(','.join(header), 80, quoted=False)}")
    by_number: dict[int, Card] = {}
    for line_no, row in rows[1:]:
        if len(row) != len(COLUMNS):
            raise ZsimError(f"{where}: line {line_no} has {len(row)} field{'s' * (len(row) != 1)}, "
                            f"expected {len(COLUMNS)}")
        number = _whole(where, line_no, "card", row[0])
        kind = row[1].strip().lower()
        if kind not in TYPES:
            raise ZsimError(f"{where}: line {line_no} has an unknown type {show(row[1].strip())} "
                            f"(types: {', '.join(TYPES)})")
        value, shields, coins = (_whole(where, line_no, c, v) for c, v in zip(COLUMNS[2:], row[2:]))
        if number in by_number:
            raise ZsimError(f"{where}: card {number} is listed twice (line {line_no})")
        by_number[number] = Card(number, TYPES.index(kind), value, shields, coins)
    n = len(by_number)
    if n < MIN_CARDS:
        raise ZsimError(f"{where}: {n} card{'s' * (n != 1)}, but the open and the hidden stack "
                        f"need at least {MIN_CARDS}")
    if n > MAX_CARDS:
        raise ZsimError(f"{where}: {n} cards, more than {MAX_CARDS}")
    missing = sorted(set(range(1, n + 1)) - set(by_number))
    if missing:
        raise ZsimError(f"{where}: cards must be numbered 1..{n} once each; {missing[0]} is missing")
    return Deck(name, tuple(by_number[i] for i in range(1, n + 1)))
