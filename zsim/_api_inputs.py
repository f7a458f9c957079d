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

import os
from typing import Any, Iterable

from zsim.errors import ZsimError


def check_given(value, option: str):
    """``value`` of a path option, refusing an empty one (``--out ''`` would
    otherwise quietly write nothing)."""
    if value is not None and not str(value).strip():
        raise ZsimError(f"{option} is empty; give a file or folder name")
    return value


def game_of(name: str | None):
    """The game object for ``--game`` (one line naming the known games otherwise)."""
    from zsim.games import get_game

    return get_game(name)


def check_players(game, players: int) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ZsimError(f"--players must be a whole number, got {players!r}")
    if not game.min_players <= players <= game.max_players:
        raise ZsimError(f"--players must be {game.min_players}..{game.max_players}, got {players}"
                        + ("" if game.name == "zahltag" else f" ({game.title} takes "
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
    if isinstance(rules, str):
        return (rules,)
    try:
        items = tuple(rules)
    except TypeError:
        raise ZsimError(f"rules must be a dict of key: value or a list of 'key=value', got {rules!r}") from None
    if not all(isinstance(i, str) for i in items):
        raise ZsimError(f"rules must be a dict of key: value or a list of 'key=value', got {rules!r}")
    return items


def game_rules(game, rules, players: int | None = None):
    """``rules`` for ``game``: a key of another game is named as such, with
    this game's keys."""
    from zsim.games import game_names, get_game

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
    raise ZsimError(f"a {what} is a spec like 'fixed:k=5' or a pair ('fixed', {{'k': 5}}), got {entry!r}")


def spec_list(value, what: str = "strategy") -> str | None:
    """Strategy specs (None, ``"a,b"``, or a list of specs and pairs) as the
    command line's comma list."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        return one_spec(value, what)                    # one (name, params) pair
    try:
        items = list(value)
    except TypeError:
        raise ZsimError(f"strategies must be a comma list or a list of specs, got {value!r}") from None
    return ",".join(one_spec(e, what) for e in items)


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
    from zsim.runner import Matchup
    from zsim.strategy_registry import parse_strategies

    game = game_of(game_name)
    check_players(game, players)
    rule_set = game_rules(game, rules, players)
    deck_obj = game_deck(game, deck)
    return Matchup(players, tuple(parse_strategies(spec_list(strategies), players, game.name)), rule_set,
                   deck_obj, game.name)


def int_list(value, what: str, low: int, high: int) -> list[int]:
    """A list of whole numbers in ``low..high``: an int, a list of ints, or
    the command line's comma list of numbers and ranges (``"2,4"``, ``"0..12"``)."""
    if isinstance(value, bool):
        raise ZsimError(f"{what} {value!r} is not a comma list of numbers or ranges like 4..12")
    if isinstance(value, int):
        value = [value]
    if isinstance(value, str):
        parts: Iterable = value.split(",")
        text = value
    else:
        try:
            parts = [str(v) if isinstance(v, int) and not isinstance(v, bool) else "?" for v in value]
        except TypeError:
            raise ZsimError(f"{what} {value!r} is not a comma list of numbers or ranges like 4..12") from None
        text = ",".join(parts)
    out: list[int] = []
    for part in parts:
        part = part.strip()
        lo, sep, hi = part.partition("..")
        try:
            values = range(int(lo), int(hi) + 1) if sep else [int(part)]
        except ValueError:
            raise ZsimError(f"{what} {text!r} is not a comma list of numbers or ranges like 4..12") from None
        for v in values:
            if not low <= v <= high:
                raise ZsimError(f"{what} {v} is outside {low}..{high}")
            if v not in out:
                out.append(v)
    if not out:
        raise ZsimError(f"{what} {text!r} is empty")
    return out


def check_int(value, what: str) -> int:
    """A whole number (not a bool, not a float)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ZsimError(f"{what} must be a whole number, got {value!r}")
    return value
