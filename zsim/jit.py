"""The ways zsim compiles its kernels.

``hot`` kernels run inside the game loop.  They are compiled without numba's
reference counting (``_nrt=False``): every array they touch is owned by the
caller for the whole call, and counting references on each pass of an array
into a helper cost about 90% of a game's time.  A ``hot`` kernel therefore
never allocates; it works in arrays its caller prepared.

``cold`` kernels allocate (workspaces, outputs) and drive the hot ones;
``cold_nogil`` ones release the interpreter lock, so that several threads can
play blocks of games at once (``zsim.blocks``).
Both are cached on disk (see ``zsim._cache`` for where and why).

``hot``, ``cold`` and ``cold_nogil`` kernels are compiled once per argument
*type*, never per constant.  Plain numba types a constant argument as a
literal (``ask_nb(seat, K.D_BID, 2, ...)`` is compiled for ``Literal[int](3)``
and ``Literal[int](2)``), so a kernel called with a different constant at
each call site was compiled, and optimized with everything it calls, once
per call site: Baumeister's decision kernel six times over, and the bots'
judgement once for every pair of bot and decision kind.  The dispatcher
below drops the literal before it looks up or compiles an overload.
``hot_inline`` kernels are inlined into their caller and never dispatched.

There are two ways to inline a kernel, and they cost very different compile
times.  ``hot_inline`` copies the callee into the caller's numba IR before
typing: every call site types it again, and numba copies the callee's IR
block by block, which grows with the square of its size.  ``hot_flat``
kernels are typed and lowered once, like ``hot`` ones, and carry LLVM's
``alwaysinline``: LLVM copies their optimized body into every caller when
it links them, which costs it little.  Baumeister's spot walk inlined the
first way at its three sites made the cold compile 11 s longer; the second
way, about a second. Zahltag's helpers (facts, moves, payday, ranking)
as ``hot_flat``: a cold start with every strategy 162 s -> 56 s
(docs/performance.md).  ``hot`` sets ``forceinline``
to False outright so that a kernel first compiled from inside a
``hot_flat`` one does not inherit the attribute.

``hot`` and ``hot_flat`` kernels are compiled without the CPython and C
wrappers a call from Python needs (a call from Python compiles a twin that
has them), and their code stays LLVM IR until a caller links it
(``zsim._link``): a cold start turns into machine code only the kernels
Python calls (the batch, its workspace, the running sums).
``hot_called`` is a ``hot`` kernel that Python calls directly.

``claim_nb(counter)`` hands out the blocks of a chunk to the threads that
play it (``zsim.blocks``).

``index_nb(i)`` marks an integer the caller knows is not negative (a seat,
a card, a row index), so that indexing with it skips numba's wraparound.

``bit_count_nb(m)``, ``lowest_bit_nb(m)`` and ``highest_bit_nb(m)`` count
and find the set bits of an int64 mask (a hand of cards as bits) with one
LLVM intrinsic each; ``seat_after_nb(seat, n)`` is the next seat clockwise
of ``n`` without the division ``%`` costs.
"""
from __future__ import annotations

import gc
import types as types_

from llvmlite import ir
from numba import njit, types
from numba.core.caching import NullCache
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array
from numba.core.registry import CPUDispatcher

from zsim._link import LinkCompiler, set_linked_envs


class _TypeDispatcher(CPUDispatcher):
    """A numba dispatcher that compiles for the types of its arguments, not their constant values."""

    def get_call_template(self, args, kws):
        return super().get_call_template([types.unliteral(a) for a in args],
                                         {k: types.unliteral(v) for k, v in kws.items()})

    def add_overload(self, cres):
        super().add_overload(cres)
        set_linked_envs(cres.library)      # the linked kernels' environments, in this kernel's code

    def compile(self, sig):
        """Compile (or read back from the cache) with Python's cycle collector held off.

        A compile allocates millions of short-lived objects, and the collector's full passes
        walk every object of the process, the compiles under way included: a cold Baumeister
        start ran eleven of them. Held off, the compile takes about a second less of CPU for
        some 80 MB more at its peak; the collector resumes as soon as the outermost compile
        (the one a Python call started) is done. A compile inside another finds the collector
        off already and leaves it alone, as does a program that turned it off itself."""
        if not gc.isenabled():
            return super().compile(sig)
        gc.disable()
        try:
            return super().compile(sig)
        finally:
            gc.enable()


#: what a kernel called from Python needs and one called only from other kernels does not
_WRAPPERS_OFF = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}


class _LinkedDispatcher(_TypeDispatcher):
    """A kernel that other kernels call: compiled without the wrappers of a Python call.

    numba gives every kernel a CPython wrapper (unboxing each argument, boxing the result)
    and a C wrapper, lowers, optimizes and emits both, and keeps them in the code every
    caller links in. A game's ``hot`` kernels run only inside the game, and their wrappers
    were a tenth of a cold start (docs/performance.md). Compiled without them, an
    overload's entry point has nothing behind it, so it is kept out of numba's table of
    Python-callable overloads. A call from Python (a test, a strategy author trying a
    helper) compiles the kernel as usual for its callers, then a twin of it with its
    wrappers, whose entry point answers this and later calls of the same types."""

    def add_overload(self, cres):
        self.overloads[tuple(cres.signature.args)] = cres

    def _compile_for_args(self, *args, **kws):
        super()._compile_for_args(*args, **kws)     # the overload callers link, as a first call made it
        twin = self.__dict__.get("_python_twin")
        if twin is None:
            twin = self._python_twin = _python_twin(self)
        entry = twin._compile_for_args(*args, **kws)
        for cres in twin.overloads.values():
            if cres.entry_point is entry:           # later calls of these types go straight to it
                self._insert([a._code for a in cres.signature.args], entry, cres.objectmode)
        return entry


def _python_twin(kernel: _LinkedDispatcher) -> _TypeDispatcher:
    """``kernel`` compiled with its wrappers, for calls from Python. Its function is a copy
    with its own name, so that its disk cache entries are not the kernel's own (numba
    names them by the function and its signature, not by how it was compiled)."""
    fn = kernel.py_func
    copy = types_.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = f"{fn.__qualname__}_from_python"
    copy.__module__ = fn.__module__
    options = {k: v for k, v in kernel.targetoptions.items() if k not in _WRAPPERS_OFF}
    twin = _TypeDispatcher(py_func=copy, locals={}, targetoptions=options)
    if not isinstance(kernel._cache, NullCache):      # the kernel itself is cached
        twin.enable_caching()
    return twin


def _kernel(cache=True, linked=False, **options):
    kind, pipeline = (_LinkedDispatcher, {"pipeline_class": LinkCompiler}) if linked else (_TypeDispatcher, {})
    if linked:
        options = {**options, **_WRAPPERS_OFF}

    def wrap(fn):
        dispatcher = kind(py_func=fn, locals={}, targetoptions={"nopython": True, **options}, **pipeline)
        if cache:
            dispatcher.enable_caching()
        return dispatcher
    return wrap


def compile_ahead(kernel, *args) -> None:
    """Compile ``kernel`` (or read it back from the disk cache) for the types of ``args``,
    without running it: a ``hot`` kernel called from Python would compile its twin too."""
    kernel.compile(tuple(kernel.typeof_pyval(a) for a in args))


hot = _kernel(linked=True, _nrt=False, error_model="numpy", forceinline=False)
#: a ``hot`` kernel kept out of the disk cache: a strategy dispatch compiled
#: as a call (``zsim.roster.Roster.calls``) lives in a module generated at
#: run time, which a fresh process could not import to load a cached entry;
#: it compiles only while a kernel that calls it compiles, and that kernel's
#: cached code holds it
hot_uncached = _kernel(cache=False, linked=True, _nrt=False, error_model="numpy", forceinline=False)
hot_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")
hot_flat = _kernel(linked=True, _nrt=False, error_model="numpy", forceinline=True)
#: a ``hot`` kernel that Python calls (the running sums of a chunk's games), with its wrappers
hot_called = _kernel(_nrt=False, error_model="numpy", forceinline=False)
cold = _kernel()
cold_nogil = _kernel(nogil=True)


@intrinsic
def grid_nb(typingctx, mem, start, n_rows, n_cols):
    """``mem[start : start + n_rows * n_cols]`` seen as a C-contiguous
    ``[n_rows, n_cols]`` array, for a kernel that keeps several arrays in one
    buffer and passes the buffer alone (every array argument of a call costs
    its pointer, shape and strides). numba's ``reshape`` would do the same
    through a C helper call and checks; this builds the view in a few
    instructions and checks nothing: the caller's layout must fit ``mem``."""
    if not (isinstance(mem, types.Array) and mem.ndim == 1 and mem.layout == "C"):
        return None
    view = types.Array(mem.dtype, 2, "C")

    def codegen(context, builder, sig, args):
        src = make_array(mem)(context, builder, args[0])
        first, rows, cols = (context.cast(builder, v, t, types.intp) for v, t in zip(args[1:], sig.args[1:]))
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(mem.dtype)))
        out = make_array(view)(context, builder)
        populate_array(out, data=builder.gep(src.data, [first], inbounds=True), shape=[rows, cols],
                       strides=[builder.mul(cols, itemsize), itemsize], itemsize=itemsize, meminfo=src.meminfo)
        return impl_ret_borrowed(context, builder, view, out._getvalue())

    return view(mem, start, n_rows, n_cols), codegen


@intrinsic
def recast_nb(typingctx, mem, start, n_rows, n_cols, like):
    """``mem``'s items from ``start`` on seen as a C-contiguous ``[n_rows,
    n_cols]`` array of ``like``'s type (a scalar: ``np.int16(0)``), the same
    bytes read another way: a forward model keeps a whole position in one
    int64 array and hands the bots its counts as int16 lanes and its streams
    as uint64 (``zsim/games/zahltag/forward_nb.py``). numba's ``view`` and
    ``reshape`` would do it through a C helper call and checks at every
    step; this is a few instructions and checks nothing: the caller's layout
    must fit ``mem``."""
    if not (isinstance(mem, types.Array) and mem.ndim == 1 and mem.layout == "C"
            and isinstance(like, types.Number)):
        return None
    view = types.Array(like, 2, "C")

    def codegen(context, builder, sig, args):
        src = make_array(mem)(context, builder, args[0])
        first, rows, cols = (context.cast(builder, v, t, types.intp) for v, t in zip(args[1:4], sig.args[1:4]))
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(like)))
        start_ptr = builder.gep(src.data, [first], inbounds=True)
        data = builder.bitcast(start_ptr, context.get_data_type(like).as_pointer())
        out = make_array(view)(context, builder)
        populate_array(out, data=data, shape=[rows, cols], strides=[builder.mul(cols, itemsize), itemsize],
                       itemsize=itemsize, meminfo=src.meminfo)
        return impl_ret_borrowed(context, builder, view, out._getvalue())

    return view(mem, start, n_rows, n_cols, like), codegen


@intrinsic
def cols_nb(typingctx, a, n_cols):
    """The C-contiguous 2-D array ``a``, whose rows the caller knows hold
    ``n_cols`` items, as a view whose row length the compiler sees: with
    ``n_cols`` a constant, ``a[i, j]`` is a shift and an add, where an
    argument's row stride is a multiply by a value kept in a register (or
    loaded from the stack) at every access. Checks nothing."""
    if not (isinstance(a, types.Array) and a.ndim == 2 and a.layout == "C"):
        return None

    def codegen(context, builder, sig, args):
        src = make_array(a)(context, builder, args[0])
        cols = context.cast(builder, args[1], sig.args[1], types.intp)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(a.dtype)))
        rows = builder.extract_value(src.shape, 0)
        out = make_array(a)(context, builder)
        populate_array(out, data=src.data, shape=[rows, cols], strides=[builder.mul(cols, itemsize), itemsize],
                       itemsize=itemsize, meminfo=src.meminfo)
        return impl_ret_borrowed(context, builder, a, out._getvalue())

    return a(a, n_cols), codegen


@intrinsic
def index_nb(typingctx, x):
    """``x``, an integer the caller knows is not negative (a seat, a card, a
    row index), with that fact told to LLVM (``llvm.assume``). numba indexes
    an array with a signed integer as ``a[i + n if i < 0 else i]``; where LLVM
    cannot prove ``i >= 0`` itself (a value loaded from the state, an argument
    of a kernel), that costs three instructions on every access. A negative
    ``x`` here is undefined behaviour, so it is only for values that cannot be."""
    if not isinstance(x, types.Integer) or not x.signed:
        return None

    def codegen(context, builder, sig, args):
        value = args[0]
        assume = builder.module.declare_intrinsic("llvm.assume", fnty=ir.FunctionType(ir.VoidType(), [ir.IntType(1)]))
        builder.call(assume, [builder.icmp_signed(">=", value, value.type(0))])
        return value

    return types.unliteral(x)(x), codegen


@intrinsic
def claim_nb(typingctx, counter):
    """Add one to ``counter[0]`` (an int64 array shared by threads) and return
    the value it had, as one atomic step: each caller gets a number no other
    caller gets. The batch kernels take their next block of games this way
    (``zsim.blocks``); "monotonic" order is enough, since the number only
    picks the block, and the threads' rows are read after they are joined."""
    if not (isinstance(counter, types.Array) and counter.ndim == 1 and counter.dtype == types.int64
            and counter.mutable):
        return None

    def codegen(context, builder, sig, args):
        data = make_array(sig.args[0])(context, builder, args[0]).data
        return builder.atomic_rmw("add", data, ir.Constant(ir.IntType(64), 1), "monotonic")

    return types.int64(counter), codegen


def _bit_intrinsic(name, doc, finish):
    """An intrinsic over one int64 bit mask that calls LLVM's ``llvm.<name>.i64``
    (a single instruction on any x86-64 with popcnt and lzcnt/tzcnt, where
    numba's integer code would spell out a dozen shifts and masks)."""

    @intrinsic
    def kernel(typingctx, x):
        if not (isinstance(x, types.Integer) and x.bitwidth == 64):
            return None

        def codegen(context, builder, sig, args):
            i64 = ir.IntType(64)
            if name == "ctpop":
                fn = builder.module.declare_intrinsic("llvm.ctpop", [i64])
                out = builder.call(fn, [args[0]])
            else:                        # ctlz / cttz: defined (64) for a zero mask
                fn = builder.module.declare_intrinsic(f"llvm.{name}", [i64, ir.IntType(1)])
                out = builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
            return finish(builder, out)

        return types.int64(x), codegen

    kernel.__doc__ = doc
    return kernel


bit_count_nb = _bit_intrinsic(
    "ctpop", "The number of set bits of an int64 mask (a hand's cards).", lambda b, v: v)
lowest_bit_nb = _bit_intrinsic(
    "cttz", "The index of the lowest set bit of an int64 mask; 64 for 0.", lambda b, v: v)
highest_bit_nb = _bit_intrinsic(
    "ctlz", "The index of the highest set bit of an int64 mask; -1 for 0.",
    lambda b, v: b.sub(ir.Constant(ir.IntType(64), 63), v))


@hot_inline
def seat_after_nb(seat, n):
    """The seat after ``seat`` (0 <= seat < n) clockwise round a table of
    ``n``: ``(seat + 1) % n`` without a division, which in a turn loop costs
    more than the rest of the step. Any ring of ``n`` slots steps the same
    way (Baumeister's stacks)."""
    return 0 if seat + 1 == n else seat + 1
