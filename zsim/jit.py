"""The two ways zsim compiles its kernels.

``hot`` kernels run inside the game loop.  They are compiled without numba's
reference counting (``_nrt=False``): every array they touch is owned by the
caller for the whole call, and counting references on each pass of an array
into a helper cost about 90% of a game's time.  A ``hot`` kernel therefore
never allocates; it works in arrays its caller prepared.

``cold`` kernels allocate (workspaces, outputs) and drive the hot ones.
Both are cached on disk (see ``zsim._cache`` for where and why).
"""
from __future__ import annotations

from numba import njit

hot = njit(cache=True, _nrt=False, error_model="numpy")
hot_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")
cold = njit(cache=True)
cold_parallel = njit(cache=True, parallel=True)
