"""What one seat of Wettstreit der Baumeister sees at the table, in words
(``describe``, the forward model's; the contract is ``zsim/seat_view.py``).

Plain Python over the position's numbers (the layout is ``position_nb.py``;
its views are numba's, so the slices are cut here from the same offsets). A
seat reads what RULES.md calls public (purses, cities, hand sizes,
saboteurs, stack sizes, the open top card, announced types, every card
shown) and the cards it has seen itself (``known[seat]``, as ``view_nb``
reads them). Never read here: the place of a card the seat has not seen,
the game row's sales (a determinisation moves them with the hidden cards),
the streams.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.position_nb import (C_ATTACK, C_DECIDER, C_FINAL, C_KIND, C_N_CARDS, C_PLACED, C_PLAYERS,
                                               C_REASON, C_SEAT, C_UNDER_CARD, MP, O_CITY, O_CTRL, O_LOC, O_PUB,
                                               O_ROWS, O_SEAT_OUT, O_ST)
from zsim.seat_view import SeatView

SHORT = ("corner", "tower", "gate", "hall", "church")    # a card in a row: "church6"
WORDS = ("corner tower", "tower", "city gate", "town hall", "church")
PLURAL = ("corner towers", "towers", "city gates", "town halls", "churches")
STACKS = ("open", "hidden")
ENDS = ("a stack ran out", "the turn limit", "an illegal move")


class _Pos:
    """The position's arrays, sliced as ``position_nb.pos_views``/``pos_marks``/``pos_outs`` make them."""

    def __init__(self, pos: np.ndarray):
        self.ctrl = pos[O_CTRL:O_PUB]
        p, n = int(self.ctrl[C_PLAYERS]), int(self.ctrl[C_N_CARDS])
        self.p, self.n = p, n
        self.pub = pos[O_PUB:O_PUB + K.N_PUB]
        self.loc = pos[O_LOC:O_LOC + n + 1]
        o_known = O_LOC + n + 1
        self.known = pos[o_known:o_known + p * (n + 1)].reshape(p, n + 1)
        o_ann = o_known + MP * (n + 1)
        self.ann = pos[o_ann:o_ann + n + 1]                   # 1 + the type announced at the card's last sale
        self.paid = pos[o_ann + n + 1:o_ann + 2 * (n + 1)]    # its last price
        o_stacks = o_known + (MP + 3) * (n + 1)
        self.stacks = pos[o_stacks:o_stacks + 2 * n].reshape(2, n)
        self.rows = pos[O_ROWS:O_ROWS + p * K.W].reshape(p, K.W)
        self.city = pos[O_CITY:O_CITY + p * K.N_CITY].reshape(p, K.N_CITY)
        self.st = pos[O_ST:O_ST + p * K.N_ST].reshape(p, K.N_ST)
        self.seat_out = pos[O_SEAT_OUT:O_SEAT_OUT + p * K.N_SEAT_STATS].reshape(p, K.N_SEAT_STATS)

    def hand(self, s: int) -> list[int]:
        return [int(c) for c in self.st[s, K.ST_CARDS:K.ST_CARDS + self.st[s, K.ST_HAND]]]

    def stack(self, k: int) -> list[int]:
        """Stack ``k``'s cards, top first (a ring from its head)."""
        head, size = int(self.pub[K.PUB_HEAD_OPEN + k]), int(self.pub[K.PUB_SIZE_OPEN + k])
        return [int(self.stacks[k, (head + i) % self.n]) for i in range(size)]

    def in_sight(self, c: int) -> bool:
        """The open stack's top card: in sight of all."""
        return self.pub[K.PUB_SIZE_OPEN] > 0 and c == self.pub[K.PUB_OPEN_TOP]

    def seen(self, seat: int, c: int) -> bool:
        """Whether ``seat`` can tell where card ``c`` is (``forward_know_nb._unseen``, negated);
        the spectator (-1) sees every hand and every card a seat has seen."""
        if seat < 0:
            return bool(self.known[:, c].any()) or self.in_sight(c) or K.L_HAND <= self.loc[c] < K.L_CITY
        return bool(self.known[seat, c]) or self.in_sight(c)

    def by_all(self, c: int) -> bool:
        return bool(self.known[:, c].all()) or self.in_sight(c)


def _decision(v: _Pos, seat: int, you) -> str:
    """What is waiting, and whose it is."""
    d, kind, pub = int(v.ctrl[C_DECIDER]), int(v.ctrl[C_KIND]), v.pub
    who = you(d)
    if kind == K.D_TAKE:
        return f"{who} rolled S with the reserve empty: takes a saboteur from a rival"
    if kind == K.D_STACK:
        return f"{who} picks the stack to auction from"
    if kind == K.D_OPEN:
        return f"{who} opens the auction"
    if kind == K.D_BID:
        return f"{who} raises or passes (high bid {pub[K.PUB_HIGH]} by {you(pub[K.PUB_HIGH_SEAT])})"
    if kind == K.D_ACTION:
        return f"{who} builds, sabotages or does nothing"
    if kind == K.D_PLACE:
        return f"{who} places a building ({v.ctrl[C_PLACED]} placed, at least {pub[K.PUB_NEED]})"
    if kind == K.D_TARGET:
        return f"{who} picks whom to sabotage ({'a building' if v.ctrl[C_ATTACK] == K.A_BUILDING else 'a hand'})"
    if kind == K.D_CARD:
        return f"{who} picks the building of {you(pub[K.PUB_TARGET])} to attack"
    if kind == K.D_KEEP:
        return f"{who} pays to keep the building or loses it"
    if kind == K.D_OFFER:
        return f"{who} makes an offer to the saboteur, or none"
    if kind == K.D_ACCEPT:
        return f"{who} accepts or refuses the offer of {pub[K.PUB_OFFER]} Thaler"
    return f"{who} picks the stack the card goes under"


def _status(v: _Pos, seat: int, you, name) -> str:
    pub = v.pub
    stacks = f"stacks: open {pub[K.PUB_SIZE_OPEN]}, hidden {pub[K.PUB_SIZE_HIDDEN]}"
    reserve = f"saboteurs in reserve: {pub[K.PUB_RESERVE]}"
    if v.ctrl[C_DECIDER] < 0:
        illegal = int(pub[K.PUB_ILLEGAL])
        why = f"an illegal move by {you(illegal - 1)}" if illegal else ENDS[int(v.ctrl[C_REASON])]
        return f"Game over after turn {pub[K.PUB_TURN]} ({why}) | {stacks}"
    final = " (final round)" if v.ctrl[C_FINAL] else " (end triggered)" if pub[K.PUB_TRIGGERED] else ""
    return (f"Turn {pub[K.PUB_TURN]}{final}, {you(v.ctrl[C_SEAT])} on turn: {_decision(v, seat, you)} | "
            f"{stacks} | {reserve}")


def _city(v: _Pos, s: int, name) -> str:
    """The city in row order: "[" or "]" an end a corner tower closed, "_" a gap."""
    c = v.city[s]
    if c[K.C_COUNT] == 0:
        return "-"
    cards = [name(int(v.rows[s, i])) if v.rows[s, i] else "_" for i in range(c[K.C_LEFT], c[K.C_RIGHT] + 1)]
    return ("[" if c[K.C_CLOSED_L] else "") + " ".join(cards) + ("]" if c[K.C_CLOSED_R] else "")


def describe(pos: np.ndarray, seat: int, matchup) -> SeatView:
    """What ``seat`` sees (``seat == -1``: a spectator who sees every hand)."""
    deck = matchup.deck
    v = _Pos(pos)
    pub, players = v.pub, v.p

    def name(c: int) -> str:
        card = deck.card(c)
        return f"{SHORT[card.type]}{card.value}"

    def you(s) -> str:
        return f"seat {int(s)}" + (" (you)" if s == seat else "")

    def hand_text(cards: list[int]) -> str:
        return " ".join(name(c) for c in cards) + f" (worth {sum(deck.card(c).value for c in cards)})" \
            if cards else "empty"

    # ---- own: the hand and what only this seat knows
    if seat >= 0:
        own = [("your hand", hand_text(v.hand(seat))), ("Thaler", str(pub_money(v, seat))),
               ("saboteurs", str(v.st[seat, K.ST_SAB]))]
        secret = [f"{name(c)} ({you(t)})" for t in range(players) if t != seat
                  for c in v.hand(t) if v.known[seat, c] and not v.by_all(c)]
        if secret:
            own.append(("hidden cards you know", ", ".join(secret)))
    else:
        own = [(f"hand of seat {t}", hand_text(v.hand(t))) for t in range(players)]

    # ---- one row per seat: the public facts, and the cards in each hand this seat has seen
    over = v.ctrl[C_DECIDER] < 0
    seats = []
    for t in range(players):
        held = v.hand(t)
        known = [name(c) for c in held if v.seen(seat, c)]
        hidden = sorted(int(v.ann[c]) for c in held if not v.seen(seat, c))   # their announced types are public
        words = known + [f"?{SHORT[a - 1]}" for a in hidden if a > 0]      # "?church": its type announced
        if hidden.count(0):
            words.append(f"{hidden.count(0)} unseen")
        row = {"seat": you(t), "Thaler": pub_money(v, t), "cards in hand": len(held),
               "hand as seen": "(yours)" if t == seat else " ".join(words) or "-",
               "saboteurs": int(v.st[t, K.ST_SAB]), "shields": int(v.city[t, K.C_SHIELDS]),
               "coins": int(v.city[t, K.C_COINS]), "insolvent": int(v.seat_out[t, K.S_INSOLVENT]),
               "city": _city(v, t, name)}
        if over:
            row["score"] = f"{v.seat_out[t, K.S_TOTAL]} (place {v.seat_out[t, K.S_PLACE]})"
        seats.append(row)

    # ---- the table: the stacks, the auction, an attack under way
    table = []
    top = f", top: {name(int(pub[K.PUB_OPEN_TOP]))}" if pub[K.PUB_SIZE_OPEN] > 0 else ""
    table.append(("open stack", f"{pub[K.PUB_SIZE_OPEN]} cards{top}"))
    table.append(("hidden stack", f"{pub[K.PUB_SIZE_HIDDEN]} cards"))
    kind = int(v.ctrl[C_KIND])
    card = int(pub[K.PUB_CARD])
    if card > 0 and not over:
        a, k = int(pub[K.PUB_AUCTIONEER]), int(pub[K.PUB_STACK])
        what = name(card) if v.seen(seat, card) else (
            f"a hidden {WORDS[int(pub[K.PUB_ANNOUNCED])]} (type announced)" if pub[K.PUB_ANNOUNCED] >= 0
            else "a hidden card")
        if kind in (K.D_OPEN, K.D_BID):
            bidding = "no bid yet" if kind == K.D_OPEN else (
                f"high bid {pub[K.PUB_HIGH]} by {you(pub[K.PUB_HIGH_SEAT])}; still in: "
                + ", ".join(you(t) for t in range(players) if v.st[t, K.ST_ACTIVE]))
            table.append(("on auction", f"{what} from the {STACKS[k]} stack, auctioneer {you(a)}; {bidding}"))
        else:
            where = int(v.loc[card])       # in a hand or a city: sold in it (an unseen one stays with its buyer)
            buyer = where - K.L_HAND if where < K.L_CITY else where - K.L_CITY
            gone = f"to {you(buyer)} for {v.paid[card]} Thaler" if where >= K.L_HAND else "unsold or lost"
            table.append(("last auction", f"{what} from the {STACKS[k]} stack by {you(a)}, {gone}"))
    if kind in (K.D_CARD, K.D_KEEP, K.D_OFFER, K.D_ACCEPT):
        target = int(pub[K.PUB_TARGET])
        at = f", on {name(int(v.rows[target, pub[K.PUB_ATTACK_POS]]))}" if kind != K.D_CARD else ""
        table.append(("sabotage", f"{you(v.ctrl[C_SEAT])} against the city of {you(target)}{at}"))
    if kind == K.D_UNDER and not over:
        c = int(v.ctrl[C_UNDER_CARD])
        table.append(("going under a stack", name(c) if v.seen(seat, c) else "a card"))

    # ---- counted: the deck less what this seat has seen
    unseen = [c for c in range(1, v.n + 1) if not v.seen(seat, c)]
    left = Counter(deck.card(c).type for c in unseen)
    counted = [("not yet seen", f"{len(unseen)} buildings")]
    for t in range(K.N_TYPES):
        if left[t]:
            values = sorted(deck.card(c).value for c in unseen if deck.card(c).type == t)
            counted.append((f"  {PLURAL[t]}", f"{left[t]}, values {' '.join(map(str, values))}"))
    for k in range(2):         # cards seen going under a stack: still there, in that order
        under = [name(c) for c in v.stack(k) if v.seen(seat, c) and not v.in_sight(c)]
        if under:
            counted.append((f"seen in the {STACKS[k]} stack, top first", " ".join(under)))
    return SeatView(seat=seat, status=_status(v, seat, you, name), own=tuple(own), seats=tuple(seats),
                    table=tuple(table), counted=tuple(counted))


def pub_money(v: _Pos, s: int) -> int:
    """A purse: public (RULES.md: every income, payment and penalty is public)."""
    return int(v.st[s, K.ST_MONEY])
