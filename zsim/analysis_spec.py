"""What a game's analyses and report are, as data: the analyses registry of the game contract.

A game names a module (:attr:`zsim.games.base.Game.analyses`) that defines

* ``ANALYSES``: a tuple of :class:`AnalysisSpec`, one per balance question;
* ``REPORT``: a :class:`ReportSpec` (or None when the game has no report).

Everything else is made from these: the ``zsim analyze --game G NAME`` commands and
their ``--help``, the checks and defaults of :func:`zsim.analyze`, the list of
:func:`zsim.analyses`, and ``zsim report``. An analysis name, an option or a
default is written once, in its spec.

The module is imported for ``--help``, so it must be cheap: the spec names the
function that plays the analysis as ``"module:function"`` and the harness imports
it only when the analysis runs. That function takes every option of the spec as a
keyword (defaults filled in, each already checked by its :attr:`Option.check`) and
returns ``(games in all, call)``, where ``call(advance)`` plays them and returns an
:class:`analyses.result.AnalysisResult`.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

from zsim._api_inputs import game_deck, game_of, game_rules, int_list, rule_options, spec_list, whole
from zsim.errors import ZsimError

#: what a game's analyses read their options with, the API's own checks (one line on bad input):
#: ``game_of(name)`` the game object, ``game_rules(game, rules, players)`` and ``game_deck(game,
#: deck)`` the checked rules and deck, ``rule_options(rules)`` the ``--rule`` strings,
#: ``spec_list(value, what)`` a comma list of strategy specs, ``int_list`` and ``whole`` numbers
__all__ = ["AnalysisSpec", "Option", "ReportSpec", "GAMES", "SEED", "RULES", "field", "players", "ints", "one_int",
           "games_count", "seed_value", "field_specs", "load",
           "game_of", "game_rules", "game_deck", "rule_options", "spec_list", "int_list", "whole"]

#: a check of one option's value: (value, the option as the command line spells it) -> the checked value
Check = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Option:
    """One option of an analysis: ``--flag`` on the command line, ``name=`` in the API.

    Example:
        >>> import zsim
        >>> o = zsim.analysis("hand-size", game="zahlemann").option("hand_sizes")
        >>> o.flag, o.default
        ('--hand-sizes', '3..8')
    """

    name: str                       # the API's keyword (the command's option with "_" for "-")
    default: Any                    # what ``--help`` shows and the API assumes
    help: str
    check: Check | None = None      # None: the value goes to the analysis as given
    short: str = ""                 # e.g. "-p"
    metavar: str | None = None
    cli: str = "text"               # how the command line reads it: "text", "int" or "many" (repeatable)
    show_default: bool = True
    long: str = ""                  # the command's option when it is not --<name with "-" for "_">

    @property
    def flag(self) -> str:
        return self.long or "--" + self.name.replace("_", "-")

    def value(self, given: Any) -> Any:
        return given if self.check is None else self.check(given, self.flag)


@dataclass(frozen=True)
class AnalysisSpec:
    """One balance question of a game (:func:`zsim.analysis`).

    Example:
        >>> import zsim
        >>> spec = zsim.analysis("payday-cost")
        >>> spec.question
        'Sweep the payday rules one at a time and report game balance.'
    """

    name: str                        # ``zsim analyze --game G NAME``
    question: str                    # the command's help: its first line is the question
    options: tuple[Option, ...]      # in the order ``--help`` lists them
    play: str                        # "module:function" (see the module's doc)
    tables: tuple[str, ...] = ()     # the tables it writes, the main one first
    figures: tuple[str, ...] = ()    # the figures it draws
    findings: str = ""               # what its findings state
    #: keywords the harness adds to the play call: a spec shared by several games names its game here
    bound: tuple[tuple[str, Any], ...] = ()

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def checked(self, given: dict) -> dict:
        """Every option's value, ``given`` or its default, checked; one line for an unknown one."""
        unknown = [k for k in given if self.option(k) is None]
        if unknown:
            raise ZsimError(f"analysis {self.name!r} has no option {unknown[0]!r}; its options: "
                            f"{', '.join(o.name for o in self.options)}")
        return {o.name: o.value(given.get(o.name, o.default)) for o in self.options}

    def player(self) -> Callable:
        return load(self.play)


@dataclass(frozen=True)
class ReportSpec:
    """A game's ``zsim report``: a plan over its analyses and the shared parts.

    ``plan`` ("module:function") takes the report's options (players as a checked
    list, games, tournament_games, seed, field, rules, deck) and returns
    ``(module, plan)``: ``module`` has ``run(plan, advance)``, ``metadata(plan,
    seconds)``, ``key_findings(results)`` and ``command(plan, out)``."""

    title: str
    plan: str


def load(where: str):
    """The object ``"module:name"`` names."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


# ------------------------------------------------------------------ checks the games share
def ints(low: int, high: int) -> Check:
    """A comma list of whole numbers and ranges (``2,4``, ``0..12``) within ``low..high``."""
    return lambda value, flag: int_list(value, flag, low, high)


def one_int(low: int | None = None, high: int | None = None) -> Check:
    """One whole number (within ``low..high`` when given)."""
    return lambda value, flag: whole(value, flag, low, high)


def games_count(value, flag):
    from zsim.harness.chunks import check_games_and_seed

    games = whole(value, flag)
    check_games_and_seed(games, 0)
    return games


def seed_value(value, flag):
    from zsim.harness.chunks import check_games_and_seed

    seed = whole(value, flag)
    check_games_and_seed(1, seed)
    return seed


def field_specs(value, flag):
    return spec_list(value, f"{flag} entry")


# ------------------------------------------------------------------ options the games share
GAMES = Option("games", 100_000, "games per point of the analysis", games_count, short="-n", cli="int")
SEED = Option("seed", 0, "run seed", seed_value, short="-s", cli="int")
RULES = Option("rules", None, "override a rule (repeatable); see `zsim rules`", metavar="KEY=VALUE",
               cli="many", show_default=False, long="--rule")


def field(default_text: str) -> Option:
    """``--field``: the strategies of the field, ``default_text`` naming the game's default."""
    return Option("field", None, "strategies of the field: one for every seat, or a comma list used in turn "
                                 f"[default: {default_text}]", field_specs, metavar="SPECS", show_default=False)


def players(default: str, help: str, low: int, high: int) -> Option:
    """``--players/-p``: a comma list of player counts within ``low..high``."""
    return Option("players", default, help, ints(low, high), short="-p")
