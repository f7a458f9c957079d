"""Counter-based random numbers shared by every zsim engine.

A game's randomness is a pure function of (run seed, game index): the game key
is a SplitMix64 hash of both, and each *stream* of the game (the deck stream
that deals and shuffles, and one stream per seat for its strategy) is a
SplitMix64 counter started from a hash of (game key, stream number).  The
n-th draw of a stream is ``mix(start + n * GAMMA)``, so nothing depends on the
order in which games are played, on threads, chunks or backends.

``below(n)`` maps a 64-bit draw to ``0..n-1`` by the multiply-shift of its top
32 bits (bias under n / 2**32, irrelevant for n <= 52).

The module has two implementations of the same arithmetic: numba kernels
(``*_nb``, on ``uint64`` arrays) and plain Python integers (``PyStream``) for the
reference engine.  ``tests/test_rng.py`` holds them equal.
"""
from __future__ import annotations

import numpy as np

from zsim.jit import hot, hot_flat, hot_inline, index_nb

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
STREAM_STEP = 0xD1B54A32D192ED03

#: stream 0 deals and shuffles; stream 1 + seat drives that seat's strategy
DECK_STREAM = 0
#: stream SEARCH_STREAM + seat seeds that seat's searches (zsim/harness/search_nb.py), so a
#: search draws nothing from the game's own streams
SEARCH_STREAM = 64

_GAMMA_U = np.uint64(GAMMA)
_MIX1_U = np.uint64(MIX1)
_MIX2_U = np.uint64(MIX2)
_STEP_U = np.uint64(STREAM_STEP)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_ONE = np.uint64(1)


# ---------------------------------------------------------------- plain Python
def mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def game_key(run_seed: int, game_index: int) -> int:
    """The 64-bit key of game ``game_index`` of a run seeded ``run_seed``."""
    return mix64(mix64((run_seed & MASK64) + GAMMA) ^ (((game_index + 1) * GAMMA) & MASK64))


def stream_start(key: int, stream: int) -> int:
    return mix64((key + (stream + 1) * STREAM_STEP) & MASK64)


class PyStream:
    """One SplitMix64 stream in plain Python (used by the reference engine)."""

    __slots__ = ("state",)

    def __init__(self, key: int, stream: int):
        self.state = stream_start(key, stream)

    def draw(self) -> int:
        # mix64 written out: the reference engines draw hundreds of times a game
        self.state = z = (self.state + GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.draw() >> 32) * n) >> 32


def fisher_yates(cards: list, stream: PyStream) -> list:
    """A shuffled copy of ``cards`` (position 0 = top), Fisher-Yates from the
    bottom: for i = n-1 .. 1, positions i and ``stream.below(i + 1)`` swap
    (n - 1 draws for n cards). Every reference engine shuffles this way, and
    every fast engine must draw the same numbers in the same order."""
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


# ---------------------------------------------------------------- numba
@hot_inline
def mix64_nb(z):
    z = (z ^ (z >> _S30)) * _MIX1_U
    z = (z ^ (z >> _S27)) * _MIX2_U
    return z ^ (z >> _S31)


@hot
def game_key_nb(run_seed, game_index):
    """Same as :func:`game_key`; both arguments are uint64."""
    return mix64_nb(mix64_nb(run_seed + _GAMMA_U) ^ ((game_index + _ONE) * _GAMMA_U))


@hot
def seed_streams_nb(key, states):
    """Fill ``states[i]`` with the start of stream ``i`` of the game ``key``."""
    for i in range(states.shape[0]):
        states[i] = mix64_nb(key + (np.uint64(i) + _ONE) * _STEP_U)


@hot_flat
def stream_start_nb(key, stream):
    """The first state of stream ``stream`` of the game ``key`` (what
    :func:`seed_streams_nb` writes into ``states[stream]``)."""
    return mix64_nb(key + (np.uint64(stream) + _ONE) * _STEP_U)


@hot_inline
def draw_nb(states, stream):
    s = states[stream] + _GAMMA_U
    states[stream] = s
    return mix64_nb(s)


@hot_inline
def below_nb(states, stream, n):
    """A draw of ``states[stream]`` mapped to ``0..n-1`` (n >= 1)."""
    return np.int64(((draw_nb(states, stream) >> _S32) * np.uint64(n)) >> _S32)


@hot_inline
def swap_partners_nb(states, stream, n, partners):
    """The draws of a Fisher-Yates shuffle of ``n`` cards from the bottom, all
    at once: ``partners[k]`` is ``below(n - k)`` of the stream's next draw
    number k (k = 0 .. n-2), the position that position ``n - 1 - k`` swaps
    with. Leaves the stream where ``n - 1`` calls of :func:`below_nb` would,
    with the same numbers drawn.

    Draw k of a stream is ``mix(state + (k + 1) * GAMMA)``, a function of k
    alone, so this loop carries nothing from one draw to the next and LLVM
    turns it into vector instructions; the swaps, which must go one by one,
    then only read ``partners``. A shuffle done this way took half the time of
    one that draws between swaps (docs/performance.md, ninth round)."""
    start = states[stream]
    m = n - 1
    for k in range(m):
        z = mix64_nb(start + np.uint64(k + 1) * _GAMMA_U)
        partners[k] = np.uint32(((z >> _S32) * np.uint64(n - k)) >> _S32)
    if m > 0:
        states[stream] = start + np.uint64(m) * _GAMMA_U


@hot_flat
def shuffle_nb(arr, lo, hi, states, stream, partners):
    """:func:`fisher_yates` in place over ``arr[lo:hi]`` (``arr[lo]`` the top)
    on stream ``stream``: every draw first, into ``partners``
    (:func:`swap_partners_nb`), then the swaps."""
    n = hi - lo
    swap_partners_nb(states, stream, n, partners)
    for k in range(n - 1):
        i = index_nb(lo + n - 1 - k)
        j = index_nb(lo + np.int64(partners[k]))
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
