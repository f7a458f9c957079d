"""The games zsim plays, found like strategies: built-ins, then plugins.

Built-in games are the packages of ``zsim/games`` with a ``game.py``;
a plugin is an installed package registered under the entry-point group
``zsim.games``, whose value names a module defining ``GAME`` (or
``module:attribute``)::

    [project.entry-points."zsim.games"]
    mygame = "mypkg.mygame.game"

:func:`get_game` returns the object (a :class:`zsim.games.base.Game`);
nothing here imports a game's numba kernels, and nothing here is imported
by a game: the registry sits below the games and the harness alike, and
``zsim.games`` hands its names on. ``BUILTIN_GAMES`` is the one list of
built-in games, the one place outside a game's folders that names them.
"""
from __future__ import annotations

import functools
import importlib
import importlib.metadata

from zsim.errors import ZsimError

GAMES_GROUP = "zsim.games"
BUILTIN_GAMES = ("zahltag", "zahlemann", "baumeister")
DEFAULT_GAME = "zahltag"


def _load(target: str, where: str):
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name.strip())
    except Exception as exc:   # a broken plugin must not take zsim down with a traceback
        raise ZsimError(f"game module {module_name.strip()} ({where}) cannot be imported: "
                        f"{exc.__class__.__name__}: {exc}") from None
    game = getattr(module, attr.strip() or "GAME", None)
    if game is None:
        raise ZsimError(f"game module {module_name.strip()} ({where}) defines no "
                        f"{attr.strip() or 'GAME'}")
    return game


@functools.lru_cache(maxsize=None)
def registry() -> dict:
    """Every game by name: the built-ins, then the plugins (sorted by name)."""
    from zsim.games.base import Game

    out: dict = {}
    sources = [(name, f"zsim.games.{name}.game", "built in") for name in BUILTIN_GAMES]
    for ep in sorted(importlib.metadata.entry_points(group=GAMES_GROUP), key=lambda e: e.name):
        sources.append((ep.name, ep.value, f"plugin {ep.name}"))
    for name, target, where in sources:
        game = _builtin(name) if where == "built in" else _load(target, where)
        if not isinstance(game, Game):
            raise ZsimError(f"{target} ({where}) is not a zsim game object (zsim.games.base.Game)")
        if game.name in out:
            raise ZsimError(f"two games are named {game.name!r} ({where} and an earlier one)")
        out[game.name] = game
    return out


@functools.lru_cache(maxsize=None)
def _plugin(name: str):
    """The plugin game whose entry point is ``name``, loading no other game (None if there is none,
    or if the game it names is called otherwise: the whole registry then answers)."""
    from zsim.games.base import Game

    for ep in importlib.metadata.entry_points(group=GAMES_GROUP):
        if ep.name == name:
            game = _load(ep.value, f"plugin {ep.name}")
            if isinstance(game, Game) and game.name == name:
                return game
    return None


@functools.lru_cache(maxsize=None)
def _builtin(name: str):
    return _load(f"zsim.games.{name}.game", "built in")


def get_game(name: str | None = None):
    """The game called ``name`` (default: Zahltag); one line naming the known ones otherwise.
    A built-in game is found without importing any other game (or plugin)."""
    name = DEFAULT_GAME if name is None else name
    if name in BUILTIN_GAMES:
        return _builtin(name)
    plugged = _plugin(name)
    if plugged is not None:
        return plugged
    games = registry()
    game = games.get(name)
    if game is None:
        raise ZsimError(f"unknown game {name!r} (known: {', '.join(games)}; `zsim games` lists them)")
    return game


def game_names() -> list[str]:
    return list(registry())


def catalogue() -> list:
    """Every game as ``zsim games`` lists it (:class:`~zsim.games.info.GameInfo`),
    built in or plugged in: what :func:`zsim.api.games` and ``zsim.games()`` return."""
    from zsim.games.info import GameInfo

    return [GameInfo(g.name, g.title, g.min_players, g.max_players, g.description, g.has_deck,
                     tuple(s.key for s in g.rule_specs)) for g in registry().values()]
