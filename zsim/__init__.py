"""zsim: a Monte Carlo strategy simulator for the card game Zahltag."""
from zsim._cache import configure_numba_cache

__version__ = "0.1.0"

#: the folder holding this source tree's compiled kernels
NUMBA_CACHE = configure_numba_cache()
