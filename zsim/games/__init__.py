"""The games zsim plays: each built-in game is a package here (``zsim/games/<name>/``),
beside the contract every game keeps (``base.py``) and the one fold of every game's rows
(``fold_nb.py``). Finding them, built in or plugged in, is :mod:`zsim.game_registry`'s
work; its names are handed on here (``zsim.games.get_game``, ``zsim.games.registry``, ...).

The package is also the public verb ``zsim.games``: calling it,
``zsim.games()``, returns what :func:`zsim.api.games` does, the
:func:`catalogue` (see :class:`_GamesPackage`).
"""
from __future__ import annotations

import sys
import types

from zsim.game_registry import (BUILTIN_GAMES, DEFAULT_GAME, GAMES_GROUP, catalogue, game_names,  # noqa: F401
                                get_game, registry)


class _GamesPackage(types.ModuleType):
    """This package, callable as the public verb of the same name.

    ``zsim.games`` is both the catalogue verb and this package, whose modules
    strategy and game authors import (``zsim.games.zahltag.constants``;
    README "Writing your own", docs/games.md). Python binds ``zsim.games`` to
    the package as soon as any of its modules is imported, so the package
    itself answers the call: ``zsim.games()`` is ``zsim.api.games()``
    whatever has been imported (both are :func:`catalogue`, so the package
    needs nothing of the API above it). The only such name; docs/api.md says why.
    """

    def __call__(self):
        return catalogue()


sys.modules[__name__].__class__ = _GamesPackage
