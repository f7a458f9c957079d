"""Paying a round's debts: pure functions, no game state.

A *holding* is a tuple of six counts of coins ``(50s, 20s, 10s, 5s, 2s, 1s)``
(the order of :data:`DENOMINATIONS`); a *combination* of a holding is a
holding with no count above the holding's. Under ``money="total"`` a player's
money is one plain integer instead (:func:`settle_total`).

The rules (docs/rules.md, "Round end and payment"), each a function here:

* **Order of preference.** Whenever the rules pick one combination among
  several that serve, they take the one with the *fewest coins*; among those
  the one with *more 50s*, then more 20s, and so on down to 1s ("larger
  denominations"). :func:`preference_key` is that order (smaller key first).
* **Exact payment** (:func:`exact_payment`): if some combination of the
  payer's coins is worth exactly the debt, they pay the preferred one.
* **Least overpayment** (:func:`least_overpayment`): otherwise the
  combination whose value exceeds the debt by the least; ties by preference.
  :func:`choose_payment` is "exact if possible, else the least overpayment".
* **Change, ``change="receiver"``** (:func:`make_change`): the winner returns
  the largest amount not above the excess that some combination of *all*
  their coins, the ones just handed over included, makes exactly; the
  preferred such combination. The payer loses the rest of the excess (the
  *shortfall*).
* **``change="none"``**: nothing comes back; the whole excess is shortfall.
* **``change="bank"``**: an overpayment goes to the bank, which never runs
  out of coins: it takes the coins handed over and gives the winner the debt
  and the payer the excess, each in the fewest coins (:func:`greedy`; the
  denominations 50, 20, 10, 5, 2, 1 are a canonical coin system, so greedy is
  fewest). An exact payment goes straight to the winner (zsim ruling).
* **Bankruptcy**: a payer whose money is worth less than the debt hands over
  everything and gets no change (under every ``change``, the bank included).
* **``money="total"``** (:func:`settle_total`): the debt, or everything if
  that is less, moves from payer to winner; no change arises.

The payer's *payment* ("paid") is the value handed over minus the value of
the change; it is what decides the next round's starting player.

:func:`_keys` is the engine of the exact, overpay and change rules: a
bounded knapsack over the six denominations giving, for every value up to
what a payment needs, the preferred combination making it, each combination
stored as one integer whose order is the order of preference (:func:`_order`).
Its cost is one pass over the values per chunk of coins (1, 2, 4, ... of a
denomination), so holdings of a few dozen coins stay fast; tables are cached
per holding and limit. :func:`makeable` shows a table as combinations.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

DENOMINATIONS: tuple[int, ...] = (50, 20, 10, 5, 2, 1)
N_DENOMINATIONS = len(DENOMINATIONS)
Holding = tuple  # six ints, counts of DENOMINATIONS
EMPTY: Holding = (0,) * N_DENOMINATIONS
Money = Holding | int


# ---------------------------------------------------------------- holdings
def value(holding: Holding) -> int:
    """What a holding is worth."""
    return sum(n * d for n, d in zip(holding, DENOMINATIONS))


def coin_count(holding: Holding) -> int:
    return sum(holding)


def add(a: Holding, b: Holding) -> Holding:
    return tuple(x + y for x, y in zip(a, b))


def subtract(a: Holding, b: Holding) -> Holding:
    """``a - b``; ``b`` must be a combination of ``a``."""
    out = tuple(x - y for x, y in zip(a, b))
    if min(out) < 0:
        raise ValueError(f"{list(b)} is not part of the holding {list(a)}")
    return out


def is_part_of(part: Holding, holding: Holding) -> bool:
    return all(0 <= p <= h for p, h in zip(part, holding))


def coin_list(holding: Holding) -> list[int]:
    """The coins of a holding as values, largest first: ``(0,0,0,1,1,0) -> [5, 2]``."""
    return [d for n, d in zip(holding, DENOMINATIONS) for _ in range(n)]


def from_coin_list(coins) -> Holding:
    """The holding of a list of coin values (any order); ``ValueError`` for a non-coin."""
    counts = [0] * N_DENOMINATIONS
    for c in coins:
        if type(c) is not int or c not in DENOMINATIONS:
            raise ValueError(f"{c!r} is no coin (coins are {', '.join(map(str, DENOMINATIONS))})")
        counts[DENOMINATIONS.index(c)] += 1
    return tuple(counts)


def preference_key(combination: Holding) -> tuple:
    """The rules' order of preference, smaller first: fewest coins, then more
    50s, then more 20s, ... down to 1s."""
    return (sum(combination), tuple(-n for n in combination))


# ---------------------------------------------------------------- the choices
#: where no combination makes the debt exactly, the least overpayment exceeds it
#: by less than the largest coin (50): without any one of its coins it falls
#: below the debt, or it would not be the least
MAX_EXCESS = DENOMINATIONS[0] - 1


#: no combination makes this value: above every key of a real combination
#: (``_keys`` caps a count digit at 16 bits)
_NONE = 1 << (N_DENOMINATIONS * 16 + 24)


def _order(holding: Holding) -> tuple[int, int, tuple]:
    """The order of preference as integers, for the combinations of ``holding``:
    (digit width in bits, the empty combination's key, the key's step per coin
    of each denomination).

    A combination's key is its coin count in the top digit, then one digit per
    denomination from the 50s down, ``full - k`` for ``k`` coins of it (more of
    a larger coin, a smaller key), each digit ``bits`` wide: comparing keys is
    comparing :func:`preference_key`. The key is a sum over the denominations,
    so ``k`` more coins of denomination ``i`` add ``k * step[i]`` to any key.
    """
    bits = max(max(holding), 1).bit_length()
    if bits > 16:
        raise ValueError(f"a holding of {max(holding)} coins of one kind is more than zsim pays with")
    full, top = (1 << bits) - 1, N_DENOMINATIONS * bits
    shifts = [bits * (N_DENOMINATIONS - 1 - i) for i in range(N_DENOMINATIONS)]
    return bits, sum(full << sh for sh in shifts), tuple((1 << top) - (1 << sh) for sh in shifts)


def _combination(key: int, bits: int) -> Holding:
    """The combination whose key (:func:`_order`) is ``key``."""
    full = (1 << bits) - 1
    return tuple(full - ((key >> (bits * (N_DENOMINATIONS - 1 - i))) & full) for i in range(N_DENOMINATIONS))


@lru_cache(maxsize=1 << 14)
def _keys(holding: Holding, limit: int | None) -> tuple[list, int]:
    """(``keys``, ``bits``): ``keys[v]`` is the key (:func:`_order`) of the
    preferred combination of ``holding`` worth ``v``, or ``_NONE`` where none
    is, for every ``v`` up to ``limit`` (or the holding's value).

    A bounded knapsack whose cost is the key: the ``n`` coins of a
    denomination go in as chunks of 1, 2, 4, ... coins (and the rest), each
    taken or not, so every count ``0..n`` is one choice of chunks. Since keys
    add, the least key over the choices is the least over the counts, and
    each chunk is one pass over the table: ``keys[v] = min(keys[v],
    keys[v - c*d] + c*step)``. The list is cached: read it, never change it.
    """
    bits, empty, steps = _order(holding)
    top = value(holding) if limit is None else min(limit, value(holding))
    keys = [empty] + [_NONE] * top
    for d, have, step in zip(DENOMINATIONS, holding, steps):
        chunk = 1
        while have > 0:
            c = min(chunk, have)
            have -= c
            chunk *= 2
            shift = c * d
            if shift > top:
                break
            add = c * step
            keys[shift:] = [a if a < b + add else b + add for a, b in zip(keys[shift:], keys)]
    return keys, bits


def makeable(holding: Holding, limit: int | None = None) -> dict[int, Holding]:
    """Every value some combination of ``holding`` makes exactly, mapped to the
    preferred combination making it (0 maps to the empty combination); with
    ``limit``, only the values up to it (the same combinations: a table cut at
    ``limit`` drops the values above it and changes no other)."""
    keys, bits = _keys(tuple(holding), limit)
    return {v: _combination(k, bits) for v, k in enumerate(keys) if k < _NONE}


def exact_payment(holding: Holding, debt: int) -> Holding | None:
    """The preferred combination worth exactly ``debt``, or None if none is."""
    keys, bits = _keys(tuple(holding), debt)
    if debt >= len(keys) or keys[debt] == _NONE:
        return None
    return _combination(keys[debt], bits)


def least_overpayment(holding: Holding, debt: int) -> Holding | None:
    """The combination worth more than ``debt`` by the least (ties by
    preference), or None if the whole holding is worth ``debt`` or less."""
    holding = tuple(holding)
    if value(holding) <= debt:
        return None
    keys, bits = _keys(holding, debt + MAX_EXCESS)
    above = next((v for v in range(debt + 1, len(keys)) if keys[v] != _NONE), None)
    if above is None:                   # only where an exact payment exists too
        keys, bits = _keys(holding, None)
        above = next(v for v in range(debt + 1, len(keys)) if keys[v] != _NONE)
    return _combination(keys[above], bits)


def choose_payment(holding: Holding, debt: int) -> Holding | None:
    """What a payer who can pay hands over: the exact payment if there is
    one, else the least overpayment. None when the holding is worth less than
    ``debt`` (the payer is bankrupt and hands over everything instead)."""
    if value(holding) < debt:
        return None
    exact = exact_payment(holding, debt)
    return exact if exact is not None else least_overpayment(holding, debt)


def make_change(holding: Holding, amount: int) -> Holding:
    """The change a winner holding ``holding`` returns for an excess of
    ``amount``: the preferred combination of the largest value not above
    ``amount`` that ``holding`` makes exactly (possibly nothing)."""
    keys, bits = _keys(tuple(holding), amount)
    v = min(amount, len(keys) - 1)
    while keys[v] == _NONE:
        v -= 1
    return _combination(keys[v], bits)


def greedy(amount: int) -> Holding:
    """``amount`` in the fewest coins from an unlimited supply (the bank)."""
    counts = []
    for d in DENOMINATIONS:
        counts.append(amount // d)
        amount %= d
    return tuple(counts)


# ---------------------------------------------------------------- one payment
@dataclass(frozen=True)
class Settlement:
    """One payer's payment to the round's winner, change included.

    ``given`` is what the payer handed over, ``change`` what came back to
    them, ``received`` (``change="bank"`` overpayments only, else None) what
    the bank gave the winner. Under ``money="total"`` all money fields are
    ints. ``bank`` is the bank's stock change per denomination (+ taken,
    − given; zeros unless the bank settled). ``shortfall`` is the part of the
    excess the payer lost because no change was made.
    """

    debt: int
    given: Money
    change: Money
    received: Holding | None
    paid: int
    excess: int
    shortfall: int
    bankrupt: bool
    payer_after: Money
    winner_after: Money
    bank: Holding = EMPTY

    @property
    def winner_gain(self) -> int:
        """The value the winner gained (always equal to ``paid``)."""
        return self.paid

    def as_json(self) -> dict:
        """The record's payment object (TRACE.md)."""
        if isinstance(self.given, int):
            return {"given": self.given, "change": self.change, "paid": self.paid}
        out = {"given": coin_list(self.given), "change": coin_list(self.change), "paid": self.paid}
        if self.received is not None:
            out["received"] = coin_list(self.received)
        return out


CHANGE_MODES = ("receiver", "none", "bank")


def settle(payer: Holding, winner: Holding, debt: int, change: str = "receiver") -> Settlement:
    """Settle ``debt`` from ``payer`` to ``winner`` in coins under ``change``."""
    if change not in CHANGE_MODES:
        raise ValueError(f"change must be one of {', '.join(CHANGE_MODES)}, not {change!r}")
    payer, winner = tuple(payer), tuple(winner)
    if debt < 0:
        raise ValueError(f"a debt cannot be negative ({debt})")
    given = choose_payment(payer, debt)
    if given is None:                                   # bankrupt: everything, no change
        worth = value(payer)
        return Settlement(debt, payer, EMPTY, None, worth, 0, 0, True, EMPTY, add(winner, payer))
    excess = value(given) - debt
    left = subtract(payer, given)
    if excess == 0:
        return Settlement(debt, given, EMPTY, None, debt, 0, 0, False, left, add(winner, given))
    if change == "receiver":
        pool = add(winner, given)
        back = make_change(pool, excess)
        return Settlement(debt, given, back, None, value(given) - value(back), excess,
                          excess - value(back), False, add(left, back), subtract(pool, back))
    if change == "none":
        return Settlement(debt, given, EMPTY, None, value(given), excess, excess, False, left,
                          add(winner, given))
    to_winner, back = greedy(debt), greedy(excess)
    bank = tuple(g - r - b for g, r, b in zip(given, to_winner, back))
    return Settlement(debt, given, back, to_winner, debt, excess, 0, False, add(left, back),
                      add(winner, to_winner), bank)


def settle_total(payer: int, winner: int, debt: int) -> Settlement:
    """``money="total"``: the debt, or all the payer has if that is less."""
    if debt < 0:
        raise ValueError(f"a debt cannot be negative ({debt})")
    paid = min(payer, debt)
    return Settlement(debt, paid, 0, None, paid, 0, 0, payer < debt, payer - paid, winner + paid)


def next_starter(winner: int, players: int, paid: list) -> int:
    """Who starts the next round: the payer of the largest payment (value handed
    over minus change); a tie goes to the tied payer first clockwise from the
    winner's left. ``paid[seat]`` is ignored for the winner."""
    order = [(winner + k) % players for k in range(1, players)]
    top = max(paid[s] for s in order)
    return next(s for s in order if paid[s] == top)
