"""Python values into what zsim's runs take: the public API's inputs, checked.

:mod:`zsim.api` takes Python values (a dict of rules, a list of strategy
specs or ``(name, params)`` pairs, a path or a polars frame for a deck) as
well as the command line's text forms (``"simple,random"``, ``["k=v"]``,
``"2,4"``, ``"0..12"``). Everything here turns them into one form and
refuses bad input with the one-line :class:`~zsim.errors.ZsimError` the
command line prints, naming the option as ``zsim`` spells it.

Private: only the names in ``zsim.api.__all__`` are stable.
"""
from __future__ import annotations

import math
import numbers
import os
from typing import Any, Iterable

from zsim.errors import ZsimError, entries, shown  # noqa: F401  (entries: the API's own name too)
from zsim.game_registry import DEFAULT_GAME

#: game indices stay below this: a run's games, a record's first game, a bench's games
MAX_GAMES = 1 << 62


# ---------------------------------------------------------------- one argument, checked
# Every public function checks each of its arguments with one of these before
# anything runs: a number is never guessed (1.5 is not 1, "7" is not 7), and
# a numpy integer becomes an int so that nothing further on sees one.

def whole(value, option: str, low: int | None = None, high: int | None = None, *,
          none_ok: bool = False, high_text: str | None = None) -> int | None:
    """``value`` of the whole-number option ``option`` (as ``zsim`` spells
    it) as an int within ``low..high``: a Python or numpy integer, not a
    bool, a float (even 2.0) or a string of digits; None only with
    ``none_ok``. ``high_text`` spells ``high`` in a refusal (``"2**62"``)."""
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ZsimError(f"{option} must be a whole number, got {shown(value)}")
    value = int(value)
    top = high_text or str(high)
    if low is not None and high is not None and not low <= value <= high:
        raise ZsimError(f"{option} must be {low}..{top}, got {value}")
    if low is not None and value < low:
        raise ZsimError(f"{option} must be at least {low}, got {value}")
    if high is not None and value > high:
        raise ZsimError(f"{option} must be at most {top}, got {value}")
    return value


def check_threads(threads) -> int | None:
    """``--threads``: None (all cores) or 1..the cores numba may use."""
    threads = whole(threads, "--threads", none_ok=True)
    if threads is not None:
        from numba import config

        whole(threads, "--threads", 1, config.NUMBA_NUM_THREADS)
    return threads


def real(value, option: str, *, none_ok: bool = False) -> float | None:
    """``value`` of the number option ``option`` as a float: an int or a
    float (Python's or numpy's), not a bool or a string."""
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ZsimError(f"{option} must be a number, got {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if math.isnan(number):
        raise ZsimError(f"{option} must be a number, got {shown(value)}")
    return number


def flag(value, option: str) -> bool:
    """``value`` of the on/off option ``option``: True or False, nothing that merely looks like one."""
    if not isinstance(value, bool):
        raise ZsimError(f"{option} must be True or False, got {shown(value)}")
    return value


def word(value, option: str, *, none_ok: bool = False) -> str | None:
    """``value`` of an option that takes a name or a word (``--game``, ``--backend``, ...): a str."""
    if value is None and none_ok:
        return None
    if not isinstance(value, str):
        raise ZsimError(f"{option} must be a string, got {shown(value)}")
    return value


def path_arg(value, option: str, *, none_ok: bool = True) -> str | None:
    """``value`` of the path option ``option`` as a str: a str or an
    os.PathLike naming a file or folder, not empty (``--out ''`` would
    otherwise quietly write nothing)."""
    if value is None and none_ok:
        return None
    text = os.fspath(value) if isinstance(value, os.PathLike) else value
    if not isinstance(text, str):
        raise ZsimError(f"{option} must be a path (a str or os.PathLike), got {shown(value)}")
    if not text.strip():
        raise ZsimError(f"{option} is empty; give a file or folder name")
    if "\0" in text:
        raise ZsimError(f"{option} {shown(text)} holds a NUL character, which no file name can")
    return text


def check_given(value, option: str):
    """``value`` of a path option as a str (None stays None), refusing
    anything but a non-empty str or os.PathLike (see :func:`path_arg`)."""
    return path_arg(value, option)


def game_of(name: str):
    """The game object for ``--game`` (one line naming the known games otherwise)."""
    from zsim.game_registry import get_game

    return get_game(word(name, "--game"))


def check_players(game, players: int) -> int:
    players = whole(players, "--players")
    if not game.min_players <= players <= game.max_players:
        raise ZsimError(f"--players must be {game.min_players}..{game.max_players}, got {players}"
                        + ("" if game.name == DEFAULT_GAME else f" ({game.title} takes "
                           f"{game.min_players}..{game.max_players})"))
    return players


def _rule_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_rule_text(v) for v in value)
    return str(value)


def rule_options(rules) -> tuple[str, ...]:
    """``rules`` (None, a dict ``{key: value}``, or ``--rule`` strings
    ``["key=value", ...]``) as ``--rule`` strings."""
    if rules is None:
        return ()
    if isinstance(rules, dict):
        return tuple(f"{k}={_rule_text(v)}" for k, v in rules.items())
    return texts(rules, "rules must be a dict of key: value or a list of 'key=value'")


def texts(value, what: str) -> tuple[str, ...]:
    """``value`` as a tuple of strings: one string, or an iterable of them;
    anything else is refused as ``what``, with the value shown."""
    if isinstance(value, str):
        return (value,)
    try:
        items = tuple(value)
    except TypeError:
        raise ZsimError(f"{what}, got {shown(value)}") from None
    if not all(isinstance(i, str) for i in items):
        raise ZsimError(f"{what}, got {shown(value)}")
    return items


def game_rules(game, rules, players: int | None = None):
    """``rules`` for ``game``: a key of another game is named as such, with
    this game's keys."""
    from zsim.game_registry import game_names, get_game

    options = rule_options(rules)
    own = {s.key for s in game.rule_specs}
    for item in options:
        key = str(item).partition("=")[0].strip()
        if key and key not in own:
            owners = [other for other in game_names()
                      if other != game.name and key in {s.key for s in get_game(other).rule_specs}]
            if owners:
                raise ZsimError(f"rule key {key!r} belongs to {' and '.join(owners)}, not to {game.name} "
                                f"({game.name}'s keys: {', '.join(s.key for s in game.rule_specs)})")
    return game.parse_rules(options, players)


def _param_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def one_spec(entry, what: str = "strategy") -> str:
    """A strategy spec in its text form: ``"name:k=v"``, or a ``(name,
    {k: v})`` pair."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str) \
            and isinstance(entry[1], dict):
        name, params = entry
        return ":".join([name, *(f"{k}={_param_text(v)}" for k, v in params.items())])
    raise ZsimError(f"a {what} is a spec like 'fixed:k=5' or a pair ('fixed', {{'k': 5}}), got {shown(entry)}")


def spec_list(value, what: str = "strategy", option: str | None = None) -> str | None:
    """Strategy specs (None, ``"a,b"``, or a list of specs and pairs) as the
    command line's comma list. ``option`` (by default the one ``what``
    starts with: ``--field`` for ``"--field entry"``) names the list where
    an empty list or an empty entry is refused; without one, a string is
    passed on as it is (a single spec like ``--skilled``)."""
    if option is None and what.startswith("--"):
        option = what.split()[0]
    if value is None:
        return None
    label = option or "strategies"
    if isinstance(value, str):
        text, given = value, None
    elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        text, given = one_spec(value, what), value      # one (name, params) pair
    elif isinstance(value, (dict, set, frozenset, bytes, bytearray)) or not hasattr(value, "__iter__"):
        # a dict's values would be dropped, a set's order is no seat order
        raise ZsimError(f"{label} takes a comma list, or a list of specs like 'fixed:k=5' and pairs like "
                        f"('fixed', {{'k': 5}}); got {shown(value)}")
    else:
        items = list(value)
        if not items:
            raise ZsimError(f"{label} is empty: give at least one strategy")
        text, given = ",".join(one_spec(e, what) for e in items), items
    if option is not None:
        entries(text, option, "strategy", shown_as=given)
    return text


def game_deck(game, deck):
    """``deck`` for ``game``: None (the game's own), a path to a CSV, or a
    polars DataFrame with the deck file's columns; refused for a game without one."""
    if not game.has_deck:
        if deck is not None:
            raise ZsimError(f"{game.name} has no --deck: it always plays its own cards")
        return None
    if deck is None or isinstance(deck, (str, os.PathLike)):
        check_given(deck, "--deck")
        return game.load_deck(None if deck is None else os.fspath(deck))
    import polars as pl

    if isinstance(deck, pl.LazyFrame):
        deck = deck.collect()
    if not isinstance(deck, pl.DataFrame):
        raise ZsimError(f"deck must be a path to a CSV file or a polars DataFrame, got {type(deck).__name__}")
    import dataclasses
    import tempfile

    # the game reads its deck from a file: the frame's CSV, under the name "DataFrame"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "deck.csv")
        deck.write_csv(path)
        try:
            loaded = game.load_deck(path)
        except ZsimError as exc:
            raise ZsimError(str(exc).replace(path, "DataFrame")) from None
    if dataclasses.is_dataclass(loaded) and hasattr(loaded, "name"):
        loaded = dataclasses.replace(loaded, name="DataFrame")
    return loaded


def make_matchup(game_name: str, players: int, strategies, rules, deck):
    """The matchup that ``game``, ``players``, ``strategies``, ``rules`` and ``deck`` describe."""
    from zsim.harness.chunks import Matchup
    from zsim.strategy_registry import parse_strategies

    game = game_of(game_name)
    players = check_players(game, players)
    rule_set = game_rules(game, rules, players)
    deck_obj = game_deck(game, deck)
    specs = spec_list(strategies, option="--strategies")
    return Matchup(players, tuple(parse_strategies(specs, players, game.name)), rule_set, deck_obj, game.name)


def int_list(value, what: str, low: int, high: int) -> list[int]:
    """A list of whole numbers in ``low..high``: an int, a list of ints, or
    the command line's comma list of numbers and ranges (``"2,4"``, ``"0..12"``)."""
    if isinstance(value, (bool, dict, set, frozenset, bytes, bytearray)):
        raise ZsimError(f"{what} {shown(value)} is not a comma list of numbers or ranges like 4..12")
    if isinstance(value, numbers.Integral):
        value = [int(value)]
    if isinstance(value, str):
        parts: Iterable = entries(value, what, "number")
        text = value
    else:
        try:
            parts = [str(int(v)) if isinstance(v, numbers.Integral) and not isinstance(v, bool) else "?"
                     for v in value]
        except TypeError:
            raise ZsimError(f"{what} {shown(value)} is not a comma list of numbers or ranges like 4..12") from None
        if not parts:
            raise ZsimError(f"{what} is empty: give at least one number")
        text = ",".join(parts)
    out: list[int] = []
    for part in parts:
        part = part.strip()
        lo, sep, hi = part.partition("..")
        try:
            values = range(int(lo), int(hi) + 1) if sep else [int(part)]
        except ValueError:
            raise ZsimError(f"{what} {shown(text)} is not a comma list of numbers or ranges like 4..12") from None
        for v in values:
            if not low <= v <= high:
                raise ZsimError(f"{what} {v} is outside {low}..{high}")
            if v not in out:
                out.append(v)
    if not out:
        raise ZsimError(f"{what} {shown(text)} is empty")
    return out


def check_int(value, what: str) -> int:
    """A whole number (not a bool, not a float), as an int (see :func:`whole`)."""
    return whole(value, what)
