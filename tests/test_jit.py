"""zsim.jit's two tools for the hot path: ``index_nb`` (an index known not to be
negative) and ``hot_flat`` (a kernel typed once, inlined by LLVM at every call).

Both change only the machine code, never a result, so what they promise is
checked in the optimized LLVM IR numba hands back for a kernel."""
from __future__ import annotations

import re

import numpy as np
import pytest
from numba.core.errors import TypingError

from conftest import uncached
from zsim.jit import bit_count_nb, cold, highest_bit_nb, hot, hot_flat, index_nb, lowest_bit_nb
from zsim.games.zahltag.lanes_nb import lanes_nb, set_lanes_nb


@uncached(hot)
def _plain_nb(a, i):
    return a[i]


@uncached(hot)
def _marked_nb(a, i):
    return a[index_nb(i)]


@uncached(hot)
def _leaf_nb(a, i):
    return a[i] * 2


@uncached(hot_flat)
def _flat_nb(a, i):
    return _leaf_nb(a, i) + 1


@uncached(hot)
def _caller_nb(a, i):
    return _flat_nb(a, i) + _flat_nb(a, i + 1)


@uncached(hot)
def _unsigned_nb(a, i):
    return a[index_nb(np.uint64(i))]


def _functions(kernel) -> dict[str, str]:
    """The optimized LLVM IR of ``kernel``'s one compiled overload, as {function name: its text from
    ``define`` to the closing brace}, with the attribute groups under the key ``attributes``."""
    text = kernel.inspect_llvm(kernel.signatures[0])
    out = {}
    for match in re.finditer(r"^define [^@]*@([\w.$]+)\(.*?^}", text, re.S | re.M):
        out[match.group(1)] = match.group(0)
    out["attributes"] = "\n".join(line for line in text.splitlines() if line.startswith("attributes #"))
    return out


def _native(functions: dict[str, str], part: str) -> str:
    """The kernel's own function (not its CPython or cfunc wrapper) whose mangled name holds ``part``."""
    names = [n for n in functions if part in n and not n.startswith(("_ZN7cpython", "cfunc"))]
    assert len(names) == 1, names
    return functions[names[0]]


def test_index_nb_returns_its_argument():
    a = np.arange(10, 20)
    for i in (0, 3, 9):
        assert _marked_nb(a, i) == _plain_nb(a, i) == 10 + i


def test_index_nb_drops_the_wraparound():
    """A signed index costs a compare with 0 (then a select of i + n); a marked one does not."""
    plain = _native(_functions(_plain_nb), "_plain_nb")
    marked = _native(_functions(_marked_nb), "_marked_nb")
    assert "icmp slt" in plain
    assert "icmp slt" not in marked


def test_index_nb_takes_signed_integers_only():
    with pytest.raises(TypingError):
        _unsigned_nb(np.arange(3), 1)


@uncached(hot)
def _lanes_rows_nb(counts, out):
    for i in range(counts.shape[0]):
        out[i] = lanes_nb(counts, i)


@uncached(hot)
def _lanes_flat_nb(counts, i):
    return lanes_nb(counts, i)


@uncached(hot)
def _set_lanes_nb(counts, i, value):
    set_lanes_nb(counts, i, value)


def test_lanes_nb_reads_a_row_of_four_int16_as_one_int64():
    """Row i of an int16 [n, 4] array (or elements 4i..4i+3 of a 1-D one) is
    the int64 with count t in bits 16t..16t+15; set_lanes_nb writes it back,
    touching that row alone."""
    rnd = np.random.default_rng(5)
    counts = rnd.integers(0, 0x7FFF, (6, 4)).astype(np.int16)
    out = np.zeros(6, np.int64)
    _lanes_rows_nb(counts, out)
    for i in range(6):
        assert out[i] == sum(int(counts[i, t]) << (16 * t) for t in range(4))
    flat = counts.reshape(-1).copy()
    assert [_lanes_flat_nb(flat, i) for i in range(6)] == list(out)
    before = counts.copy()
    _set_lanes_nb(counts, 2, np.int64(7 | (1 << 16) | (300 << 32) | (9 << 48)))
    assert counts[2].tolist() == [7, 1, 300, 9]
    assert (np.delete(counts, 2, axis=0) == np.delete(before, 2, axis=0)).all()


def test_lanes_nb_takes_int16_arrays_only():
    with pytest.raises(TypingError):
        _lanes_flat_nb(np.zeros(8, np.int64), 0)


@uncached(hot)
def _bits_nb(masks, out):
    for i in range(masks.shape[0]):
        out[i, 0] = bit_count_nb(masks[i])
        out[i, 1] = lowest_bit_nb(masks[i])
        out[i, 2] = highest_bit_nb(masks[i])


def test_the_bit_intrinsics_count_and_find_bits_as_python_does():
    rnd = np.random.default_rng(3)
    masks = np.concatenate([
        np.array([0, 1, 2, 3, 1 << 35, (1 << 36) - 1, -1, np.iinfo(np.int64).min, np.iinfo(np.int64).max],
                 np.int64),
        rnd.integers(0, 1 << 36, 500), rnd.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 500),
        np.int64(1) << rnd.integers(0, 63, 100)])
    out = np.zeros((len(masks), 3), np.int64)
    _bits_nb(masks, out)
    for m, (count, low, high) in zip(masks.tolist(), out.tolist()):
        u = m & (2**64 - 1)                      # the mask's 64 bits, as an unsigned number
        assert count == bin(u).count("1"), m
        assert low == ((u & -u).bit_length() - 1 if u else 64), m
        assert high == u.bit_length() - 1, m


def test_the_bit_intrinsics_are_single_llvm_intrinsics():
    _bits_nb(np.zeros(1, np.int64), np.zeros((1, 3), np.int64))
    native = _native(_functions(_bits_nb), "_bits_nb")
    for name in ("llvm.ctpop.i64", "llvm.cttz.i64", "llvm.ctlz.i64"):
        assert name in native


def _attributes(kernel, part: str) -> set[str]:
    """The LLVM function attributes of ``kernel``'s own function (mangled name holding ``part``)."""
    functions = _functions(kernel)
    groups = dict(re.findall(r"^attributes (#\d+) = \{(.*)\}$", functions["attributes"], re.M))
    head = _native(functions, part).split("{", 1)[0]
    return {word for group in re.findall(r"#\d+", head) for word in groups.get(group, "").split()}


def test_hot_flat_is_inlined_by_llvm_and_not_inherited():
    a = np.arange(10)
    assert _caller_nb(a, 2) == (2 * 2 + 1) + (3 * 2 + 1)
    # both calls of the flat kernel are gone from the caller's code
    assert "_flat_nb" not in _native(_functions(_caller_nb), "_caller_nb")
    assert "alwaysinline" in _attributes(_flat_nb, "_flat_nb")
    # a hot kernel first compiled from inside the flat one stays a kernel of its own
    assert "alwaysinline" not in _attributes(_leaf_nb, "_leaf_nb")


@uncached(hot)
def _item_nb(a, i):
    return a[i]


@uncached(hot)
def _sum_nb(a):
    s = 0
    for i in range(a.shape[0]):
        s += _item_nb(a, i)           # a kernel compiled inside this one's compile
    return s


def test_a_compile_holds_the_cycle_collector_off_and_hands_it_back():
    """zsim's kernels compile with Python's cycle collector off (its full passes walk the whole
    compile); it is on again once the outermost compile is done, and a program that turned it
    off itself keeps it off."""
    import gc

    from numba.core import event

    seen = []

    class Listener(event.Listener):
        def on_start(self, ev):
            seen.append((ev.data["dispatcher"].py_func.__name__, gc.isenabled()))

        def on_end(self, ev):
            pass

    assert gc.isenabled()
    listener = Listener()
    event.register("numba:compile", listener)
    try:
        assert _sum_nb(np.arange(4, dtype=np.int64)) == 6
        assert gc.isenabled()
        gc.disable()
        try:
            assert _sum_nb(np.arange(4.0)) == 6.0
            assert not gc.isenabled()
        finally:
            gc.enable()
    finally:
        event.unregister("numba:compile", listener)
    assert ("_sum_nb", False) in seen and ("_item_nb", False) in seen
    assert all(not on for _, on in seen)


@uncached(hot_flat)
def _inner_nb(a, i):
    return a[i] + 7


@uncached(hot)
def _outer_nb(a, i):
    return _inner_nb(a, i) * 2


@uncached(cold)
def _entry_nb(a, i):
    return _outer_nb(a, i)


def _wrappers(kernel) -> list[str]:
    return [n for n in _functions(kernel) if n.startswith(("_ZN7cpython", "cfunc"))]


def test_kernels_called_from_kernels_carry_no_python_wrappers_yet_python_may_call_them():
    """``hot`` and ``hot_flat`` kernels compile without the CPython and C wrappers that only a call
    from Python needs; a call from Python still answers, through a twin compiled with them."""
    a = np.arange(5, 10)
    assert _entry_nb(a, 2) == 2 * (a[2] + 7)
    assert _wrappers(_outer_nb) == [] and _wrappers(_inner_nb) == []
    assert len(_wrappers(_entry_nb)) == 2           # a cold kernel, called from Python, keeps both
    assert "_python_twin" not in vars(_outer_nb)    # nothing compiled for Python so far

    assert _outer_nb(a, 3) == 2 * (a[3] + 7) and _inner_nb(a, 4) == a[4] + 7
    twin = vars(_outer_nb)["_python_twin"]
    assert len(_wrappers(twin)) == 2 and len(twin.overloads) == 1
    assert _outer_nb(a, 1) == 2 * (a[1] + 7)        # later calls: the twin's code, nothing compiled again
    assert len(twin.overloads) == 1 and len(_outer_nb.overloads) == 1
    assert _outer_nb(a.astype(np.float64), 0) == 2 * (5.0 + 7)    # other types: both compile for them
    assert len(twin.overloads) == 2 and len(_outer_nb.overloads) == 2


def test_a_kernel_other_kernels_link_is_never_turned_into_machine_code_of_its_own():
    """Only the kernel Python calls is emitted; the ones it links stay optimized IR (zsim._link)."""
    from zsim._link import LinkLibrary

    a = np.arange(5, 10)
    assert _entry_nb(a, 2) == 2 * (a[2] + 7)
    for kernel in (_outer_nb, _inner_nb):
        library = kernel.overloads[kernel.signatures[0]].library
        assert isinstance(library, LinkLibrary) and not library._emitted
    assert not isinstance(_entry_nb.overloads[_entry_nb.signatures[0]].library, LinkLibrary)
