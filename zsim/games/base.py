"""What a game gives the harness: one :class:`Game` object per game.

zsim's harness (runs, run folders, precision stops, backends, tournaments,
tuning, records, benchmarks, reports) never imports a game's modules by
name; it asks the game object. A game is a package ``zsim/games/<name>/``
(or any installed package registered under the entry-point group
``zsim.games``) whose ``game.py`` defines ``GAME``, an instance of a
:class:`Game` subclass. ``docs/games.md`` walks through adding one.

The object itself must be cheap to import: it names the game's modules and
imports its numba kernels only when a method needs them, so that playing one
game never compiles another.

The engine's outputs are two int64 arrays per chunk of ``n`` games:
``seat_out [n, P, S]`` and ``game_out [n, G]``. Their first columns are
named by :attr:`Game.seat_columns` and :attr:`Game.game_columns` (the
``--out`` table has one column for each); a seat column named ``place``
(1 = best, ties share) and the :attr:`Game.score` column are required, since
every game's summary reports win share, mean place and the score with
intervals.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import numpy as np

from zsim.errors import ZsimError
from zsim.strategy import Param


@dataclass(frozen=True)
class Column:
    """One named column of the engine's output (and of the ``--out`` table)."""

    name: str
    meaning: str


@dataclass(frozen=True)
class SummaryColumn:
    """A per-seat figure of the summary table: the mean of a seat column
    (``kind="mean"``) or the share of games where it is not 0 (``"share"``)."""

    name: str          # the summary's column
    source: str        # the seat column it is made from
    kind: str = "mean"
    meaning: str = ""


@dataclass(frozen=True)
class MainRule:
    """A rule the report's "What the rules do" sweeps, one key at a time:
    ``sweep`` is read as ``zsim sweep --rule`` reads it (``payday_cost=0..3``);
    ``players`` are the counts the rule applies to (None: every count the
    report plays), for a rule that only means something at some of them."""
    sweep: str
    players: tuple[int, ...] | None = None


@dataclass(frozen=True)
class StrategyContract:
    """What a strategy of a game defines, and where the game's strategies live.

    ``kernels`` maps each numba function a strategy module must define to
    its argument list (without the roster and the dispatch id): the dispatch
    the registry generates calls ``module.<name>(<args>)``. ``common_params`` are
    parameters every strategy of the game has, before its own
    (``params[0..]`` of the kernels). ``doc`` says what a fair strategy may
    read (``zsim strategies --game`` prints it)."""

    package: str                            # built-ins: the modules of this package
    kernels: tuple[tuple[str, str], ...]    # (function name, its arguments)
    default: str                            # the strategy of every seat when none is given
    common_params: tuple[Param, ...] = ()
    doc: str = ""
    #: entry-point groups read besides ``zsim.strategies.<game>`` (names plugins used before)
    older_groups: tuple[str, ...] = ()
    #: the bot a search plays its games out with unless told otherwise ("": ``default``)
    rollout: str = ""
    #: the rollout decisions after which a search scores the position by its
    #: forward model's ``value_nb`` (the default of the searches' ``horizon``);
    #: 0: the game has no value estimate and every rollout plays to the end
    horizon: int = 0
    #: the options a search node offers before its visits widen it (the
    #: default of the searches' ``widen``; see ``zsim/harness/search_nb.py``)
    widen: int = 32
    #: the strongest fair player, as reports ask it (skill against luck, the seats
    #: under strong play); "" where the game has none yet, ``strong_note`` saying why
    strong: str = "ismcts"
    strong_note: str = ""
    #: the strongest fair bot (a heuristic, no search): the strong player of a
    #: sweep's skill edge unless told otherwise, since a search at every point of
    #: a grid costs hours; "" where the game names none (no skill edge by default)
    best_bot: str = ""


class Game(ABC):
    """The base of every game object. Subclasses set the class attributes and
    implement the abstract methods (an abstract one left out makes the game
    object impossible to create, so the registry refuses it at once)."""

    name: str = ""
    title: str = ""
    description: str = ""
    min_players: int = 2
    max_players: int = 4
    default_players: int = 4
    rule_specs: tuple = ()
    strategies: StrategyContract
    #: the seat column that decides places, summarised as ``<score_label>_mean/_ci95/_sd``
    score: str = "money"
    score_label: str = "money"
    seat_columns: tuple[Column, ...] = ()
    game_columns: tuple[Column, ...] = ()
    #: game columns whose int values are labels (the ``--out`` table stores the labels)
    categories: dict[str, tuple[str, ...]] = {}
    summary_columns: tuple[SummaryColumn, ...] = ()
    #: the seat column that is above 0 when a seat is knocked out or goes broke
    #: (a sweep's ``knockout_rate``: the share of games where some seat did), and
    #: what that share is called; "" for a game where no seat drops out
    knockout: str = ""
    knockout_label: str = ""
    #: the rules a designer turns first (:class:`MainRule`), swept by the report's
    #: "What the rules do"; () leaves that section out
    main_rules: tuple[MainRule, ...] = ()
    #: whether ``--deck FILE`` means something for this game
    has_deck: bool = False
    #: the column of ``game_out`` that counts illegal decisions (the harness refuses a chunk with any)
    illegal_column: int = -1
    #: the strategies :meth:`reference_rows` plays with code of the reference engine's own
    #: (None: every strategy of the game)
    reference_strategies: tuple[str, ...] | None = None
    #: the module of the game's analyses and report as specs (``ANALYSES``, ``REPORT``;
    #: :mod:`zsim.analysis_spec`), "" for a game with none
    analyses: str = ""
    #: the module of the game's forward model (``zsim/harness/forward.py`` says what it
    #: defines), "" for a game without one: it cannot be searched or stepped
    forward: str = ""

    # -------------------------------------------------------------- rules and data
    @abstractmethod
    def default_rules(self):
        """The rules with every option at its default."""

    @abstractmethod
    def parse_rules(self, options: Iterable[str], players: int | None = None):
        """``--rule key=value`` strings into validated rules (one line on bad input)."""

    @abstractmethod
    def rules_from_dict(self, data: dict[str, Any]):
        """Rules from a record's or manifest's ``rules`` object."""

    def default_deck(self):
        """The game's data for ``--deck`` (None when it has none)."""
        return None

    def load_deck(self, path: str | None):
        if path is not None:
            raise ZsimError(f"{self.name} has no --deck (it plays a fixed set of cards)")
        return None

    def check(self, matchup) -> None:
        """Refuse a matchup the game cannot play (rules against players, deck)."""
        matchup.rules.validate(matchup.players)

    def manifest_extras(self, matchup) -> dict:
        """What the run folder's manifest keeps besides players, strategies and rules."""
        return {}

    def describe_setup(self, matchup) -> str:
        """A few words for the summary's first line (e.g. the deck's name)."""
        return ""

    # -------------------------------------------------------------- the engine
    #: the widths of ``seat_out`` and ``game_out`` (at least the named columns)
    n_seat_stats: int = 0
    n_game_stats: int = 0

    @abstractmethod
    def play_chunk_into(self, matchup, seed: int, first: int, n: int, ids: np.ndarray,
                        params: np.ndarray, seat_out: np.ndarray, game_out: np.ndarray,
                        block: int, roster) -> None:
        """Play games ``first .. first + n - 1`` of ``seed`` into rows ``0 .. n-1``,
        ``block`` games per parallel task, with the kernels compiled for ``roster``
        (a :class:`~zsim.roster.Roster` holding every id of ``ids``); the results
        depend on neither. Every one of those rows is written whole: the
        outputs may be reused and hold an earlier chunk's games."""

    def illegal_detail(self, game_out_row: np.ndarray, strategies) -> str:
        """Who made a game's illegal decision, when the engine says ("" if not)."""
        return ""

    def seat_index(self, name: str) -> int:
        for i, c in enumerate(self.seat_columns):
            if c.name == name:
                return i
        raise KeyError(f"{self.name} has no seat column {name!r}")

    # -------------------------------------------------------------- records
    @abstractmethod
    def record_games(self, matchup, seed: int, games: Iterable[int]) -> Iterator[list[dict]]:
        """The records of ``games`` of ``seed`` (lists of events)."""

    @abstractmethod
    def to_jsonl(self, events: list[dict]) -> str:
        """One record as JSON lines."""

    @abstractmethod
    def check_record(self, events: list[dict]) -> None:
        """Replay a record with the reference engine; ZsimError naming the first wrong line."""

    @abstractmethod
    def play_by_play(self, events: list[dict]) -> str:
        """A record told for a person."""

    # -------------------------------------------------------------- the reference engine
    @abstractmethod
    def reference_rows(self, matchup, seed: int, game: int) -> tuple[np.ndarray, np.ndarray]:
        """One game played by the reference engine, as (seat row [P, S], game row [G])
        with the fast engine's columns (the conformance suite compares them)."""

    @abstractmethod
    def reference_decisions(self, matchup, seed: int, game: int) -> int:
        """How many times the reference engine asks a seat's strategy to choose in that game
        (``zsim bench``'s decisions/s; both engines make the same decisions game by game)."""

    def __repr__(self) -> str:
        return f"<zsim game {self.name}>"


class PackagedGame(Game, ABC):
    """A game laid out as every game of zsim is: ``<package>.rules``
    (``Rules``, ``parse_rule_options(options, base, players)``),
    ``<package>.records`` (``to_jsonl``, ``check_record(events, name)``),
    ``<package>.telling`` (``play_by_play``), ``<package>.batch``
    (``reference_rows(result)``: a reference game's result as the fast
    engine's rows), for a game with a deck ``<package>.<deck_module>``
    (``default_deck``, ``load_deck``), and an engine that writes ``1 + seat``
    of an illegal decision into :attr:`illegal_column`. Those methods come from
    the modules, imported when first needed; what is left to a game is
    :meth:`reference_game` (and its engine's :meth:`play_chunk_into`).
    A game whose modules differ overrides the method concerned."""

    package: str = ""
    deck_module: str = "cards"

    def _module(self, name: str):
        import importlib

        return importlib.import_module(f"{self.package}.{name}")

    def default_rules(self):
        return self._module("rules").Rules()

    def parse_rules(self, options: Iterable[str], players: int | None = None):
        return self._module("rules").parse_rule_options(options, None, players)

    def rules_from_dict(self, data):
        return self._module("rules").Rules.from_dict(data)

    def default_deck(self):
        return self._module(self.deck_module).default_deck() if self.has_deck else None

    def load_deck(self, path):
        if not self.has_deck:
            return super().load_deck(path)
        return self._module(self.deck_module).load_deck(path)

    def illegal_detail(self, game_out_row, strategies) -> str:
        seat = int(game_out_row[self.illegal_column]) - 1        # the engine writes 1 + the seat
        return f"strategy {strategies[seat]} (seat {seat})" if seat >= 0 else ""

    def to_jsonl(self, events: list[dict]) -> str:
        return self._module("records").to_jsonl(events)

    def check_record(self, events: list[dict]) -> None:
        self._module("records").check_record(events, f"game {events[0].get('game', '?')}")

    def play_by_play(self, events: list[dict]) -> str:
        return self._module("telling").play_by_play(events)

    # -------------------------------------------------------------- the reference engine
    @abstractmethod
    def reference_game(self, matchup, seed: int, game: int, record: bool = False):
        """Game ``game`` of ``seed`` played by the reference engine: a result with
        ``decisions`` (how often a seat chose) and, with ``record``, ``events``
        (the record's events)."""

    def record_games(self, matchup, seed: int, games: Iterable[int]) -> Iterator[list[dict]]:
        for g in games:
            yield self.reference_game(matchup, seed, g, record=True).events

    def reference_rows(self, matchup, seed: int, game: int):
        seat, row = self._module("batch").reference_rows(self.reference_game(matchup, seed, game))
        return np.asarray(seat), np.asarray(row)

    def reference_decisions(self, matchup, seed: int, game: int) -> int:
        return self.reference_game(matchup, seed, game).decisions
