"""How records write cards and adjustments (the record format's notation).

Shared by the record writer and the reference engine; it holds no rule.
"""
from __future__ import annotations

from zsim.games.zahltag import constants as K

LETTERS = K.TYPE_LETTERS


def card_code(card: int) -> str:
    return "P" if card == K.PAYDAY else f"J{card + 1}"


def decode(code: int) -> tuple[int | None, int | None]:
    """(type given back, type taken) of an adjustment code; None where there is none."""
    if code == K.ACT_NONE:
        return None, None
    if code < K.ACT_DISCARD:
        return None, code - K.ACT_TAKE
    if code < K.ACT_EXCHANGE:
        return code - K.ACT_DISCARD, None
    return divmod(code - K.ACT_EXCHANGE, 4)


def action_json(code: int) -> dict:
    give, take = decode(code)
    if give is None:
        return {"do": "none"} if take is None else {"do": "take", "type": LETTERS[take]}
    if take is None:
        return {"do": "discard", "type": LETTERS[give]}
    return {"do": "exchange", "give": LETTERS[give], "take": LETTERS[take]}


# every action object -> its code ("exchange F for F" is none)
ACTION_CODES = {tuple(sorted(action_json(c).items())): c
                for c in range(K.N_ACTIONS) if c < K.ACT_EXCHANGE or len(set(decode(c))) == 2}


def action_from_json(obj) -> int | None:
    """The code of an ``action`` object, None when it is not one."""
    if not isinstance(obj, dict) or not all(isinstance(v, str) for v in obj.values()):
        return None
    return ACTION_CODES.get(tuple(sorted(obj.items())))
