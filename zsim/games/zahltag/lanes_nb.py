"""Zahltag's card counts four at a time: a row of four int16 counts (``hand``,
``left``, ``right`` [P, 4], ``stacks`` [4], a job's ``need`` [4]) read or written as
one int64, type ``t`` in bits ``16t .. 16t+15``. ``moves_nb`` then compares or sums all
four at once (``lanes_cover_nb``, ``lanes_sum_nb``); ``pub[PUB_HANDS]`` and
``pub[PUB_KNOWN + seat]`` are kept as lanes too.
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array


def _lanes_pointer(context, builder, arrty, arr, i):
    """The address of lane 0 of ``arr``'s four 16-bit lanes number ``i``, as an i64 pointer."""
    src = make_array(arrty)(context, builder, arr)
    if arrty.ndim == 2:
        stride = builder.extract_value(src.strides, 0)
    else:
        stride = context.get_constant(types.intp, 8)
    at = builder.add(builder.ptrtoint(src.data, ir.IntType(64)), builder.mul(i, stride))
    return builder.inttoptr(at, ir.IntType(64).as_pointer())


def _lanes_array(a):
    return (isinstance(a, types.Array) and a.dtype == types.int16 and a.layout == "C"
            and a.ndim in (1, 2))


@intrinsic
def lanes_nb(typingctx, arr, i):
    """Four int16 counts as one int64, lane ``t`` in bits ``16t .. 16t+15``:
    row ``i`` of a C-contiguous ``[n, 4]`` int16 array, or its elements
    ``4i .. 4i+3`` for a 1-D one. One load instead of four; sums, differences
    and comparisons of all four counts then take an instruction or two
    (``lanes_sum_nb``, ``lanes_cover_nb``). The caller's array must have four
    columns; nothing is checked."""
    if not (_lanes_array(arr) and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        idx = context.cast(builder, args[1], sig.args[1], types.intp)
        ptr = _lanes_pointer(context, builder, sig.args[0], args[0], idx)
        return builder.load(ptr, align=2)

    return types.int64(arr, i), codegen


@intrinsic
def set_lanes_nb(typingctx, arr, i, value):
    """Store ``value``'s four 16-bit lanes as row ``i`` of ``arr`` (see ``lanes_nb``)."""
    if not (_lanes_array(arr) and arr.mutable and isinstance(i, types.Integer)
            and isinstance(value, types.Integer) and value.bitwidth == 64):
        return None

    def codegen(context, builder, sig, args):
        idx = context.cast(builder, args[1], sig.args[1], types.intp)
        ptr = _lanes_pointer(context, builder, sig.args[0], args[0], idx)
        builder.store(args[2], ptr, align=2)
        return context.get_dummy_value()

    return types.none(arr, i, value), codegen
