"""The ways zsim compiles its kernels.

``hot`` kernels run inside the game loop.  They are compiled without numba's
reference counting (``_nrt=False``): every array they touch is owned by the
caller for the whole call, and counting references on each pass of an array
into a helper cost about 90% of a game's time.  A ``hot`` kernel therefore
never allocates; it works in arrays its caller prepared.

``cold`` kernels allocate (workspaces, outputs) and drive the hot ones.
Both are cached on disk (see ``zsim._cache`` for where and why).

``hot``, ``cold`` and ``cold_parallel`` kernels are compiled once per argument
*type*, never per constant.  Plain numba types a constant argument as a
literal (``ask_nb(seat, K.D_BID, 2, ...)`` is compiled for ``Literal[int](3)``
and ``Literal[int](2)``), so a kernel called with a different constant at
each call site was compiled, and optimized with everything it calls, once
per call site: Baumeister's decision kernel six times over, and the bots'
judgement once for every pair of bot and decision kind.  The dispatcher
below drops the literal before it looks up or compiles an overload.
``hot_inline`` kernels are inlined into their caller and never dispatched.
"""
from __future__ import annotations

from numba import njit, types
from numba.core.registry import CPUDispatcher


class _TypeDispatcher(CPUDispatcher):
    """A numba dispatcher that compiles for the types of its arguments, not their constant values."""

    def get_call_template(self, args, kws):
        return super().get_call_template([types.unliteral(a) for a in args],
                                         {k: types.unliteral(v) for k, v in kws.items()})


def _kernel(**options):
    def wrap(fn):
        dispatcher = _TypeDispatcher(py_func=fn, locals={}, targetoptions={"nopython": True, **options})
        dispatcher.enable_caching()
        return dispatcher
    return wrap


hot = _kernel(_nrt=False, error_model="numpy")
hot_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")
cold = _kernel()
cold_parallel = _kernel(parallel=True)
