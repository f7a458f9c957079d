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
from zsim._environment import refuse_bad_environment

refuse_bad_environment()        # before numba reads it

from zsim._cache import configure_numba_cache  # noqa: E402  (numba is imported here)
from zsim._public import PUBLIC_NAMES  # noqa: E402
from zsim.install import __version__, set_kernel_folder  # noqa: E402  (the face hands the version on)

#: the folder holding this source tree's compiled kernels, chosen once a process
#: (zsim.install.kernel_folder() for the modules below the face)
NUMBA_CACHE = configure_numba_cache()
set_kernel_folder(NUMBA_CACHE)

#: the public names, all from zsim.api
__all__ = list(PUBLIC_NAMES)


def __getattr__(name: str):
    """Load the public API on first use of one of its names. ``games`` is the
    one verb named like a module of zsim's: it is always the package
    zsim/games/, which makes itself callable as the verb (docs/api.md)."""
    if name == "games":
        import importlib

        return importlib.import_module("zsim.games")       # importing it binds zsim.games
    if name in __all__:
        from zsim import api

        return getattr(api, name)
    raise AttributeError(f"module 'zsim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
