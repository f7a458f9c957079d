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

:func:`makeable` is the engine of the exact, overpay and change rules: a
dynamic programme over the six denominations giving, for every value some
combination makes exactly, the preferred combination making it. Its cost is
about (number of values) x (coins of a denomination) per denomination, so
holdings of a few dozen coins stay fast; results are cached per holding.
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


@lru_cache(maxsize=1 << 14)
def makeable(holding: Holding, limit: int | None = None) -> dict[int, Holding]:
    """Every value some combination of ``holding`` makes exactly, mapped to the
    preferred combination making it (0 maps to the empty combination); with
    ``limit``, only the values up to it (the same combinations: partial sums
    only grow as denominations are added, so values above ``limit`` are
    dropped as they appear).

    Dynamic programme from the 1s up to the 50s: ``best_i[v]`` is the preferred
    combination of denominations ``i..5`` worth ``v``. The preferred full
    combination with ``k`` coins of denomination ``i`` uses the preferred rest
    ``best_{i+1}[v - k * d_i]`` (the order compares the count, then the
    denominations from the largest down, and ``k`` comes first among those),
    so keeping one best per value at every step is exact. Do not mutate the
    returned dict (it is cached).
    """
    holding = tuple(holding)
    best: dict[int, tuple] = {0: ()}       # value -> preferred combination of the suffix
    for i in range(N_DENOMINATIONS - 1, -1, -1):
        d, have = DENOMINATIONS[i], holding[i]
        nxt: dict[int, tuple] = {}
        keys: dict[int, tuple] = {}
        for v_rest, rest in best.items():
            rest_count = sum(rest)
            rest_key = tuple(-n for n in rest)
            for k in range(have + 1):
                v = v_rest + k * d
                if limit is not None and v > limit:
                    break
                key = (k + rest_count, -k) + rest_key
                if v not in keys or key < keys[v]:
                    keys[v] = key
                    nxt[v] = (k,) + rest
        best = nxt
    return best


def exact_payment(holding: Holding, debt: int) -> Holding | None:
    """The preferred combination worth exactly ``debt``, or None if none is."""
    return makeable(tuple(holding), debt).get(debt)


def least_overpayment(holding: Holding, debt: int) -> Holding | None:
    """The combination worth more than ``debt`` by the least (ties by
    preference), or None if the whole holding is worth ``debt`` or less."""
    table = makeable(tuple(holding), debt + MAX_EXCESS)
    above = [v for v in table if v > debt]
    if not above and value(holding) > debt:     # only where an exact payment exists too
        table = makeable(tuple(holding))
        above = [v for v in table if v > debt]
    return table[min(above)] if above else None


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
    table = makeable(tuple(holding), amount)
    return table[max(v for v in table if v <= amount)]


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
