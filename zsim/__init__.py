"""zsim: a Monte Carlo strategy simulator for tabletop card games.

The public API is the names in ``__all__``: the ``zsim`` command's verbs
(:func:`simulate`, :func:`tournament`, :func:`tune`, :func:`analyze`,
:func:`report`, :func:`record`, :func:`replay`, :func:`bench`, and the
catalogues :func:`games`, :func:`rules`, :func:`strategies`,
:func:`analyses`), the results they hand back and :class:`ZsimError`.
They are defined in :mod:`zsim.api` and loaded on first use, so ``import
zsim`` (and the command line's start) stays as quick as it was. Every other
module and name of zsim is private and may change without notice;
docs/api.md says so in full.

Example:
    >>> import zsim
    >>> r = zsim.simulate(players=2, games=2000, progress=False)
    >>> r.summary["win_share"].sum()                   # doctest: +SKIP
    1.0
"""
import sys
import types

from zsim._cache import configure_numba_cache
from zsim._public import PUBLIC_NAMES

__version__ = "0.1.0"

#: the folder holding this source tree's compiled kernels
NUMBA_CACHE = configure_numba_cache()

#: the public names, all from zsim.api
__all__ = list(PUBLIC_NAMES)


#: the public verb that shares its name with a module of zsim's (zsim/games/)
_VERBS_WITH_MODULES = ("games",)


def __getattr__(name: str):
    """Load the public API on first use of one of its names. A verb named
    like a module of zsim's is that module, made callable (``from zsim
    import tournament`` keeps meaning the module)."""
    if name in _VERBS_WITH_MODULES:
        import importlib

        return importlib.import_module(f"zsim.{name}")     # its import makes it callable
    if name in __all__:
        from zsim import api

        return getattr(api, name)
    raise AttributeError(f"module 'zsim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))


class _VerbModule(types.ModuleType):
    """A module of zsim's that shares its name with a public verb: calling it
    calls the verb, so ``zsim.tune(...)`` is :func:`zsim.api.tune` even once
    ``zsim.tune`` (the module) has been imported and taken its place."""

    def __call__(self, *args, **kwargs):
        from zsim import api

        return getattr(api, self.__name__.rpartition(".")[2])(*args, **kwargs)


class _Package(types.ModuleType):
    """zsim itself: a submodule named like a verb becomes callable as it is imported."""

    def __setattr__(self, name, value):
        if name in _VERBS_WITH_MODULES and isinstance(value, types.ModuleType):
            value.__class__ = _VerbModule
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
for _name in _VERBS_WITH_MODULES:
    if isinstance(globals().get(_name), types.ModuleType):      # imported before the line above
        globals()[_name].__class__ = _VerbModule
