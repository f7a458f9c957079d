"""The 36 cards of Zahlemann & Söhne.

Each value 1, 2, 5, 10, 20, 50 exists once in each colour red ``R``, blue
``B``, yellow ``Y``, green ``G``, grey ``A`` and violet ``V``. A card is the int
``6 * value_index + colour_index`` (0..35), so sorting ints is the *canonical
order*: by value, then colour R B Y G A V. That order sorts hands in records
and lists the options of every decision. A card's code is its value followed
by its colour letter: ``1R`` (card 0), ``50V`` (card 35).
"""
from __future__ import annotations

from collections.abc import Iterable

VALUES: tuple[int, ...] = (1, 2, 5, 10, 20, 50)
COLOURS: str = "RBYGAV"
N_VALUES = len(VALUES)
N_COLOURS = len(COLOURS)
N_CARDS = N_VALUES * N_COLOURS          # 36
CARDS: tuple[int, ...] = tuple(range(N_CARDS))


def card(value: int, colour: str) -> int:
    """The card of ``value`` (1, 2, 5, 10, 20 or 50) and ``colour`` (a letter)."""
    return VALUES.index(value) * N_COLOURS + COLOURS.index(colour)


def value_of(c: int) -> int:
    return VALUES[c // N_COLOURS]


def colour_of(c: int) -> str:
    return COLOURS[c % N_COLOURS]


def code(c: int) -> str:
    """``50R``, ``1V``, ..."""
    return f"{VALUES[c // N_COLOURS]}{COLOURS[c % N_COLOURS]}"


CODES: tuple[str, ...] = tuple(code(c) for c in CARDS)
CARD_BY_CODE: dict[str, int] = {s: c for c, s in enumerate(CODES)}


def parse(text: str) -> int:
    """The card of a code; ``ValueError`` for anything else."""
    c = CARD_BY_CODE.get(text) if isinstance(text, str) else None
    if c is None:
        raise ValueError(f"{text!r} is no card (codes are a value 1,2,5,10,20,50 and a colour "
                         f"letter {' '.join(COLOURS)}, e.g. 50R)")
    return c


def matches(c: int, top: int) -> bool:
    """``c`` may go on ``top``: same value or same colour."""
    return c // N_COLOURS == top // N_COLOURS or c % N_COLOURS == top % N_COLOURS


def hand_value(hand: Iterable[int]) -> int:
    """What a hand owes at the round's end: the sum of its card values."""
    return sum(VALUES[c // N_COLOURS] for c in hand)


def codes(cards: Iterable[int]) -> list[str]:
    """Codes in the order given (piles, decks)."""
    return [CODES[c] for c in cards]


def hand_codes(hand: Iterable[int]) -> list[str]:
    """A hand's codes in canonical order (as records write hands)."""
    return [CODES[c] for c in sorted(hand)]
