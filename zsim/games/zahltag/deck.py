"""The job deck: a CSV with columns job,foreman,worker,crane,excavator.

The default deck (``data/jobs.csv``) ships with the package; ``--deck FILE``
loads any file with the same columns (at most 1 MiB and 1,000 jobs: see
:mod:`zsim.data_files`).  A job is referred to by its 1-based row number in the
file (``J<n>`` in game records).
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from zsim.data_files import csv_rows, plain, read_data_file, show, whole_number
from zsim.errors import ZsimError
from zsim.games.zahltag import constants as K

COLUMNS = ("job", "foreman", "worker", "crane", "excavator")
#: no supply stack can hold more (see the ``supply`` rule), so no job can need more
MAX_NEED = 60
DEFAULT_DECK_NAME = "default (jobs.csv)"


@dataclass(frozen=True)
class Deck:
    name: str
    needs: np.ndarray  # int64 [n_jobs, 4]: workers of each type F,W,C,E a job needs

    @property
    def n_jobs(self) -> int:
        return int(self.needs.shape[0])

    def lanes(self) -> np.ndarray:
        """The needs as the kernels take them: int16, four to a row (``moves_nb``)."""
        return np.ascontiguousarray(self.needs, dtype=np.int16)

    def job_dict(self) -> dict[str, list[int]]:
        return {f"J{i + 1}": [int(v) for v in row] for i, row in enumerate(self.needs)}

    def check_supply(self, supply) -> None:
        for i, row in enumerate(self.needs):
            for t in range(K.N_TYPES):
                if row[t] > supply[t]:
                    raise ZsimError(
                        f"deck {self.name}: job {i + 1} needs {row[t]} {COLUMNS[t + 1]} "
                        f"but the supply holds only {supply[t]}")


def default_deck() -> Deck:
    text = resources.files("zsim.games.zahltag").joinpath("data/jobs.csv").read_text()
    return parse_deck(text, DEFAULT_DECK_NAME)


def load_deck(path: str | Path | None) -> Deck:
    """The deck in ``path`` (None: the default deck), validated."""
    if path is None:
        return default_deck()
    return parse_deck(read_data_file(path, "deck file"), str(path))


def parse_deck(text: str, name: str) -> Deck:
    where = f"deck {plain(name)}"
    rows = csv_rows(text, where)
    if not rows:
        raise ZsimError(f"{where}: the file is empty")
    header = tuple(h.strip().lower() for h in rows[0][1])
    if header != COLUMNS:
        raise ZsimError(f"{where}: columns must be {','.join(COLUMNS)}, "
                        f"found {show(','.join(header), 80, quoted=False)}")
    needs = []
    for line_no, row in rows[1:]:
        if len(row) != len(COLUMNS):
            raise ZsimError(f"{where}: line {line_no} has {len(row)} field{'s' * (len(row) != 1)}, "
                            f"expected {len(COLUMNS)}")
        counts = []
        for col, cell in zip(COLUMNS[1:], row[1:]):
            v = whole_number(cell, f"{where}: line {line_no} {col}")
            if v < 0:
                raise ZsimError(f"{where}: line {line_no} {col} is negative: {v}")
            if v > MAX_NEED:
                raise ZsimError(f"{where}: line {line_no} {col} needs {v}, more than any supply ({MAX_NEED})")
            counts.append(v)
        if sum(counts) == 0:
            raise ZsimError(f"{where}: line {line_no} is a job that needs no workers")
        needs.append(counts)
    if not needs:
        raise ZsimError(f"{where}: no jobs")
    return Deck(name, np.asarray(needs, dtype=np.int64).reshape(-1, K.N_TYPES))
