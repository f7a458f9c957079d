"""Zahltag's table in words for one seat (``zsim/seat_view.py``): what
``zsim play`` shows a person and ``zsim view`` shows per seat.

Plain Python over a forward-model position (``forward_nb``'s layout). A
seat reads only what it knows (RULES.md, "What each player knows"): its own
hand and bid, every seat's money, hand size and table areas, the stacks, the
revealed cards and the counts they imply. Never another hand's contents,
another seat's sealed bid, the deck's order or the streams: a position
``determinize_nb`` draws for the seat gives the same view, word for word.
"""
from __future__ import annotations

from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import counts_of
from zsim.games.zahltag.notation import card_code
from zsim.seat_view import SeatView

SHOWN_REVEALED = 8      # the latest revealed cards listed


def _cards(counts, zeros: bool = False) -> str:
    """Worker counts by type, e.g. "F 2, W 1 (3 cards)"; "-" for none."""
    parts = [f"{K.TYPE_LETTERS[t]} {int(c)}" for t, c in enumerate(counts) if zeros or c]
    n = sum(int(c) for c in counts)
    if zeros:
        return f"{', '.join(parts)} ({n} card{'s' * (n != 1)})"
    return ", ".join(parts) or "-"


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _job(needs, job: int) -> str:
    need = needs[job]
    return f"{card_code(job)} needs {_cards(need)} ({int(sum(need))} workers)"


def _bid(b: int) -> str:
    return "pass" if b == K.PASS else str(int(b))


def describe(pos, seat: int, matchup, fm) -> SeatView:
    """What ``seat`` sees at the table (-1: a spectator who sees every hand);
    ``fm``: the forward model whose layout ``pos`` has (handed in by it, so
    that neither module imports the other both ways)."""

    seat = int(seat)
    rules = matchup.rules
    needs = matchup.deck.needs
    ctrl = [int(v) for v in pos[fm.O_CTRL:fm.O_CTRL + fm.N_CTRL]]
    pub = [int(v) for v in pos[fm.O_PUB:fm.O_PUB + K.N_PUB]]
    players = ctrl[fm.C_PLAYERS]
    seats = range(players)
    hand = [counts_of(pos[fm.O_HAND + s]) for s in seats]
    left = [counts_of(pos[fm.O_LEFT + s]) for s in seats]
    right = [counts_of(pos[fm.O_RIGHT + s]) for s in seats]
    money = [int(pos[fm.O_MONEY + s]) for s in seats]
    alive = [int(pos[fm.O_ALIVE + s]) != 0 for s in seats]
    bids = [int(pos[fm.O_BIDS + s]) for s in seats]
    delta = [[int(pos[fm.O_DELTA + K.N_TYPES * s + t]) for t in range(K.N_TYPES)] for s in seats]
    dealt = [[int(pos[fm.O_DEALT + K.N_TYPES * s + t]) for t in range(K.N_TYPES)] for s in seats]
    seat_out = [[int(pos[fm.O_SEAT_OUT + K.N_SEAT_STATS * s + i]) for i in range(K.N_SEAT_STATS)] for s in seats]
    top, n_cards = ctrl[fm.C_TOP], ctrl[fm.C_N_CARDS]
    deck = [int(c) for c in pos[fm.O_DECK:fm.O_DECK + n_cards]]
    decider, kind, job = ctrl[fm.C_DECIDER], ctrl[fm.C_KIND], ctrl[fm.C_JOB]
    over = decider < 0
    bidding = kind == fm.KIND_BID and not over     # the answers given so far are sealed

    # ---------------------------------------------------------- status: where the game stands
    if pub[K.PUB_ROUND] > 0:
        where = f"Setup round {pub[K.PUB_ROUND]} of {rules.setup_rounds}"
    else:
        where = f"Turn {pub[K.PUB_TURN]}"
    if over:
        last = rules.paydays_to_end
        why = (f"payday {last} of {last} executed" if ctrl[fm.C_END_REASON] == K.END_FIFTH_PAYDAY
               else "one player is left" if sum(alive) == 1 else "no player is left")
        waiting = f"game over: {why}"
    elif kind == fm.KIND_SETUP:
        waiting = f"seat {decider} to make a setup adjustment"
    elif kind == fm.KIND_ADJUST:
        waiting = f"seat {decider} to adjust workers"
    else:
        waiting = f"seat {decider} to bid on {card_code(job)}"
    status = " · ".join((where, f"paydays {pub[K.PUB_PAYDAYS]} of {rules.paydays_to_end}",
                         f"jobs since payday {pub[K.PUB_JOBS_SINCE]} (forced at {pub[K.PUB_FORCED_AT]})",
                         f"deck {_n(pub[K.PUB_JOBS_LEFT], 'job')}, {_n(pub[K.PUB_PAYDAYS_LEFT], 'payday')}", waiting))

    # ---------------------------------------------------------- own: the hidden cards the seat sees
    own = []
    for s in seats if seat < 0 else (seat,):
        label = "hand" if seat >= 0 else f"seat {s}'s hand"
        own.append((label, _cards(hand[s], zeros=True) + ("" if alive[s] else ", out")))
        if bidding and bids[s] != fm.NOT_YET:
            own.append(("bid" if seat >= 0 else f"seat {s}'s bid", _bid(bids[s])))
    if bidding and seat >= 0 and alive[seat]:
        short = [max(0, int(n) - h) for n, h in zip(needs[job], hand[seat])]
        own.append((f"for {card_code(job)}", "the hand covers it" if not any(short)
                    else f"the hand lacks {_cards(short)}: pass only"))

    # ---------------------------------------------------------- seats: public facts, one row each
    rows = []
    for s in seats:
        row = {"seat": f"{s} (you)" if s == seat else str(s), "money": money[s],
               "cards in hand": sum(hand[s]), "left": _cards(left[s]), "right": _cards(right[s]),
               "jobs won": seat_out[s][K.S_JOBS_WON], "out": "no" if alive[s] else "yes"}
        if over:
            row["place"] = seat_out[s][K.S_PLACE]
        rows.append(row)

    # ---------------------------------------------------------- table: the job, the stacks, the cards seen
    table = []
    if bidding:
        table.append(("job on offer", f"{_job(needs, job)}; bids are sealed until every seat still in "
                                      f"has bid (1..{rules.max_bid} or pass)"))
    elif ctrl[fm.C_ROUND] > 0:                     # the last job's bids, shown when all were in
        shown = [s for s in seats if bids[s] >= 0]
        low = min((bids[s] for s in shown if bids[s] > 0), default=0)
        won = [s for s in shown if low and bids[s] == low]
        result = ("everyone passed" if not won else f"seat {won[0]} won at {low}" if len(won) == 1
                  else f"seats {', '.join(map(str, won))} tied at {low}, each gets {low - rules.tie_discount}")
        table.append(("last job", f"{_job(needs, job)}; bids "
                                  f"{', '.join(f'seat {s} {_bid(bids[s])}' for s in shown)}: {result}"))
    table.append(("stacks", _cards(counts_of(pos[fm.O_STACKS]), zeros=True)))
    seen = deck[:top]                              # revealed in order: public
    table.append(("revealed", f"{len(seen)} cards" + (": " + ("... " if len(seen) > SHOWN_REVEALED else "")
                                                         + ", ".join(map(card_code, seen[-SHOWN_REVEALED:]))
                                                         if seen else "")))

    # ---------------------------------------------------------- counted: what follows from what was seen
    rest = sorted(c for c in deck[top:] if c != K.PAYDAY)   # the rest of the deck as a set, never its order
    by_size: dict[int, int] = {}
    for c in rest:
        n = int(sum(needs[c]))
        by_size[n] = by_size.get(n, 0) + 1
    demand = [sum(int(needs[c][t]) for c in rest) for t in range(K.N_TYPES)]
    counted = [("jobs in the deck", (", ".join(f"{v} need {n}" for n, v in sorted(by_size.items())) + " workers"
                                     + f"; together {_cards(demand)}") if rest else "none")]
    if seat >= 0:
        others = [o for o in seats if o != seat and alive[o]]
        together = [h - m for h, m in zip(counts_of(pub[K.PUB_HANDS]), hand[seat])]   # stacks, tables: public
        if len(others) == 1:
            counted.append((f"seat {others[0]}'s hand", _cards(together, zeros=True)))
        elif others:
            counted.append(("other hands together", _cards(together, zeros=True)))
            least = [f"seat {o} {_cards([max(0, d + e) for d, e in zip(dealt[o], delta[o])])}" for o in others]
            counted.append(("each holds at least", "; ".join(least)))
    return SeatView(seat=seat, status=status, own=tuple(own), seats=tuple(rows), table=tuple(table),
                    counted=tuple(counted))
