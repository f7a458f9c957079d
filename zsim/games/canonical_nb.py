"""What a seat cannot see, read as a set (numba): a forward model's
``determinize_nb`` and ``view_nb`` put hidden cards in ascending order
before they use them, so that nothing of the order the true position holds
them in shows through (``zsim/harness/forward.py``)."""
from __future__ import annotations

from zsim.jit import hot_flat


@hot_flat
def sort_span_nb(a, lo, hi):
    """``a[lo:hi]`` in ascending order, in place (insertion: a few dozen items at most)."""
    for i in range(lo + 1, hi):
        v = a[i]
        j = i - 1
        while j >= lo and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v
