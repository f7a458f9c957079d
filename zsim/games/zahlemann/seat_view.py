"""What one seat sees at Zahlemann's table, in words (``zsim/seat_view.py``):
the forward model's ``describe``, plain Python over the position's numbers
(``position_nb.py`` lays them out).

Public (RULES.md, "Decisions and knowledge"): every play, the discard pile,
hand and pile sizes, everyone's coins, the counters of the game. The seat's
own: its hand, its options and this turn's penalty cards, and under
``two_passes_hands`` the hand it passed on and the one it received. Never
read here for a seat: other hands, the draw pile's order, the streams,
another seat's options or penalty cards, another seat's unnoticed slips
(``view_nb`` hides the same; ``determinize_nb`` redraws or clears them).
"""
from __future__ import annotations

from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.cards import CODES, VALUES
from zsim.games.zahlemann.position_nb import (C_DECIDER, C_KIND, C_OPTIONS, C_PENALTY, C_PLAYERS, C_REASON,
                                              C_ROUNDS, N_CTRL, NC, O_CTRL, O_DISCARDS, O_GAME_OUT, O_HANDS, O_MONEY,
                                              O_PASSED, O_PUB, O_SEAT_OUT)
from zsim.seat_view import SeatView

#: what a decision of each kind asks (status line)
ASKS = ("to play a card", "drew a match: play it or keep it", "may play again after a 1")
#: the colours R B Y G A V as RULES.md names them
COLOUR_NAMES = ("red", "blue", "yellow", "green", "grey", "violet")


def describe(pos, seat: int, matchup) -> SeatView:
    """``seat``'s view of position ``pos`` (-1: a spectator who sees every hand)."""
    ctrl = pos[O_CTRL:O_CTRL + N_CTRL]
    pub = pos[O_PUB:O_PUB + K.N_PUB]
    p = int(ctrl[C_PLAYERS])
    hands = [int(pos[O_HANDS + s]) for s in range(p)]
    seat_out = [pos[O_SEAT_OUT + s * K.N_SEAT_STATS:O_SEAT_OUT + (s + 1) * K.N_SEAT_STATS] for s in range(p)]
    over = ctrl[C_DECIDER] < 0
    coins = matchup.rules.money == "coins"
    discarded = int(pub[K.PUB_DISCARDED])

    # ---- status: where the game stands
    if over:
        status = f"game over after {int(pos[O_GAME_OUT + K.G_ROUNDS])} rounds: {_why(pos, ctrl, seat_out)}"
    else:
        d = int(ctrl[C_DECIDER])
        who = "you" if d == seat else f"seat {d}"
        status = (f"round {int(pub[K.PUB_ROUND])}, turn {int(pub[K.PUB_TURN])}: {who} "
                  f"{ASKS[int(ctrl[C_KIND])]}; {int(pub[K.PUB_DRAW_SIZE])} cards in the draw pile")

    # ---- own: what only the seat knows (a spectator: every hand)
    own = []
    if seat < 0:
        own += [(f"seat {s}'s hand", _cards(hands[s])) for s in range(p)]
    else:
        own.append(("your hand", _cards(hands[seat])))
        own.append(("hand value (owed if another goes out)", str(_owed(hands[seat]))))
        if coins:
            own.append(("your coins", _coins(pos, seat)))
        own.append(("your money", str(int(pos[O_MONEY + seat * K.M_COLUMNS + K.M_TOTAL]))))
        if not over and ctrl[C_DECIDER] == seat:
            opts = _cards(int(ctrl[C_OPTIONS]))
            own.append(("you may play", opts + (" (or keep it)" if ctrl[C_KIND] == K.D_DRAWN else
                                                 " (or stop)" if ctrl[C_KIND] == K.D_BONUS else "")))
        if not over and pub[K.PUB_CUR] == seat and ctrl[C_PENALTY] != 0:
            own.append(("penalty cards, not to play this turn", _cards(int(ctrl[C_PENALTY]))))
        if pub[K.PUB_PASSES] > 0:        # two_passes_hands: the last pass, seen by its passer and receiver
            own.append(("you passed on", _cards(int(pos[O_PASSED + seat]))))
            own.append(("you received", _cards(int(pos[O_PASSED + (seat - 1) % p]))))
        slips = int(seat_out[seat][K.S_FORGOTTEN] - seat_out[seat][K.S_NOTICED])
        if slips:
            own.append(("forgot to call 'Zahlemann', unnoticed", f"{slips} times"))

    # ---- seats: the public facts, one row a seat
    rows = []
    for s in range(p):
        row = {"seat": f"{s}{' (you)' if s == seat else ''}",
               "money": int(pos[O_MONEY + s * K.M_COLUMNS + K.M_TOTAL])}
        if coins:
            row["coins"] = _coins(pos, s)
        row["cards in hand"] = bin(hands[s]).count("1")
        row["rounds won"] = int(seat_out[s][K.S_ROUNDS_WON])
        row["slips caught"] = int(seat_out[s][K.S_NOTICED])       # forgot "Zahlemann", noticed: public
        row["bankrupt"] = "yes" if seat_out[s][K.S_BANKRUPT] else "no"
        if over:
            row["place"] = int(seat_out[s][K.S_PLACE])
        rows.append(row)

    # ---- table: the public table now
    n_disc = int(pub[K.PUB_N_DISCARDS])
    last = [CODES[int(pos[O_DISCARDS + i])] for i in range(n_disc - 1, max(n_disc - 4, 0) - 1, -1)]
    table = [("top card", CODES[int(pub[K.PUB_TOP])]),
             ("discard pile", f"{n_disc} cards, top first: {' '.join(last)}{' ...' if n_disc > 4 else ''}"),
             ("draw pile", f"{int(pub[K.PUB_DRAW_SIZE])} cards"),
             ("round started by", f"seat {int(pub[K.PUB_STARTER])}")]
    if not over and pub[K.PUB_DRAWN] + pub[K.PUB_PLAYED] > 0:
        table.append((f"seat {int(pub[K.PUB_CUR])} this turn",
                      f"drew {int(pub[K.PUB_DRAWN])}, played {int(pub[K.PUB_PLAYED])}"))
    if pub[K.PUB_SKIP]:
        table.append(("fifty_skips", "the next player is skipped and draws"))
    if pub[K.PUB_PASSES]:
        table.append(("hands passed this round", str(int(pub[K.PUB_PASSES]))))
    table.append(("reshuffles this game", str(int(pub[K.PUB_RESHUFFLES]))))

    # ---- counted: the cards not in sight, by what matches (value, colour)
    seen = discarded | (hands[seat] if seat >= 0 else _all(hands))
    unseen = ((1 << NC) - 1) & ~seen
    where = "in the draw pile" if seat < 0 else "unseen (other hands or the draw pile)"
    counted = [("discard pile by value", _by_value(discarded)),
               (f"{where} by value", _by_value(unseen)),
               (f"{where} by colour", _by_colour(unseen))]
    return SeatView(seat, status, tuple(own), tuple(rows), tuple(table), tuple(counted))


def _why(pos, ctrl, seat_out) -> str:
    reason = int(ctrl[C_REASON])
    if reason == K.END_BANKRUPT:
        broke = [str(s) for s in range(len(seat_out)) if seat_out[s][K.S_BANKRUPT]]
        return f"seat {', '.join(broke)} went bankrupt"
    if reason == K.END_ROUND_CAP:
        return f"the round cap ({int(ctrl[C_ROUNDS])} rounds) was reached"
    return f"seat {int(pos[O_GAME_OUT + K.G_ILLEGAL]) - 1} gave an illegal answer"


def _all(hands) -> int:
    x = 0
    for h in hands:
        x |= h
    return x


def _cards(mask: int) -> str:
    """A set of cards in canonical order (value, then colour R B Y G A V)."""
    return " ".join(CODES[c] for c in range(NC) if (mask >> c) & 1) or "none"


def _owed(mask: int) -> int:
    return sum(VALUES[c // K.N_COLOURS] for c in range(NC) if (mask >> c) & 1)


def _by_value(mask: int) -> str:
    return ", ".join(f"{v}s {bin(mask & K.VALUE_MASK[i]).count('1')}" for i, v in enumerate(VALUES))


def _by_colour(mask: int) -> str:
    return ", ".join(f"{k} {bin(mask & K.COLOUR_MASK[i]).count('1')}" for i, k in enumerate(COLOUR_NAMES))


def _coins(pos, s: int) -> str:
    """A holding as players name it, largest coin first: ``1×50 1×20 2×10 2×5 4×2 4×1``."""
    base = O_MONEY + s * K.M_COLUMNS
    out = []
    for i, d in enumerate(K.DENOMINATIONS):
        n = int(pos[base + i])
        if n:
            out.append(f"{n}×{d}")
    return " ".join(out) or "no coins"
