"""Finding games' strategy modules without importing them.

A game's built-in strategies are the modules of its package
``strategies.<game>``; plugins are modules registered under the game's
entry-point groups by any installed package, e.g.::

    [project.entry-points."zsim.strategies.zahlemann"]
    mine = "mypkg.mybot"

A game may also read older groups (its contract's ``older_groups``): the
first game reads ``zsim.strategies``, the name plugins used before zsim had
a second game. This module only locates strategies: the
kernel cache digest needs their source files before numba compiles anything.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import pkgutil
from pathlib import Path

BUILTIN_PACKAGE = "strategies"
#: the entry-point groups every game reads: ``zsim.strategies.<game>``
GROUP_PREFIX = "zsim.strategies."
#: Zahltag's strategies were plugged in here before there were other games
LEGACY_GROUP = "zsim.strategies"


def groups(game: str, older: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The entry-point groups naming ``game``'s plugin strategies: ``older`` ones the game
    still reads (:attr:`zsim.games.base.StrategyContract.older_groups`), then its own."""
    return (*older, GROUP_PREFIX + game)


def builtin_modules(package: str) -> list[str]:
    """The strategy modules of ``package`` (e.g. ``strategies.zahltag``), sorted."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    folders = list(spec.submodule_search_locations or [])
    return sorted(f"{package}.{m.name}" for m in pkgutil.iter_modules(folders)
                  if not m.name.startswith("_"))


def plugin_modules(game_groups: tuple[str, ...], installed=None) -> list[str]:
    """Module paths registered under any of ``game_groups`` (``module`` or
    ``module:attr`` values; the module part is what counts). ``installed``: every
    installed entry point, when the caller has read them already."""
    eps = importlib.metadata.entry_points() if installed is None else installed
    found = {ep.value.split(":")[0].strip() for group in game_groups for ep in eps.select(group=group)}
    return sorted(found)


def all_plugin_groups(installed=None) -> list[str]:
    """Every installed entry-point group holding zsim strategies, of any game."""
    eps = importlib.metadata.entry_points() if installed is None else installed
    names = {LEGACY_GROUP}
    names.update(g for g in eps.groups if g.startswith(GROUP_PREFIX))
    return sorted(names)


def module_source(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def plugin_sources() -> list[Path]:
    """The source files of every plugged-in strategy and game (for the cache digest)."""
    from zsim.game_registry import GAMES_GROUP

    # every process reads this for its cache folder: one pass over the installed
    # packages' entry points (each pass reads all of their metadata) serves all groups
    installed = importlib.metadata.entry_points()
    paths = [module_source(m) for m in plugin_modules(tuple(all_plugin_groups(installed)), installed)]
    for ep in installed.select(group=GAMES_GROUP):
        src = module_source(ep.value.split(":")[0].strip())
        if src is not None:      # a game's kernels sit beside its object: the whole folder counts
            paths += sorted(src.parent.glob("*.py"))
    return sorted({p for p in paths if p is not None})
