"""Hand-made games: stacked decks, scripted announcements and decisions.

For rule scenarios (tests, docs, a fast engine's cross-checks): a
:class:`Stacked` chance object deals chosen hands and piles, and a
:class:`Script` decider answers decisions from a list, so a scenario reads
like a table-top example::

    deck = stack_deck(players=2, hands=[["1R", "5G"], ["10B", "2Y"]], discard="10R")
    game = Game(2, Rules(hand_size=2), Stacked([deck]), Script(["1R"]), record=True)
"""
from __future__ import annotations

from zsim.games.zahlemann import cards as C
from zsim.games.zahlemann.reference_bots import KEEP, STOP


def stack_deck(players: int, hands, discard: str, draw=(), start: int = 0) -> list[int]:
    """A 36-card deck (top first) that deals ``hands`` (codes per seat, each of
    the same size) when seat ``start`` is dealt first, turns up ``discard``,
    and puts ``draw`` (codes, top first) on top of the draw pile; the other
    cards follow in canonical order."""
    sizes = {len(h) for h in hands}
    if len(hands) != players or len(sizes) != 1:
        raise ValueError("give one hand per seat, all of the same size")
    size = sizes.pop()
    deck = []
    for k in range(players * size):
        seat = (start + k) % players
        deck.append(C.parse(hands[seat][k // players]))
    deck.append(C.parse(discard))
    deck += [C.parse(c) for c in draw]
    if len(set(deck)) != len(deck):
        raise ValueError("a card is stacked twice")
    return deck + [c for c in C.CARDS if c not in deck]


class Stacked:
    """Chance for scenarios: decks per round (int lists, top first; the last
    one repeats), reshuffle orders (code lists; default: the discards as
    given, bottom first), forget and notice outcomes (default: announce;
    noticed iff ``notice`` >= 0.5). Calls are logged in ``calls``."""

    def __init__(self, decks, piles=(), forgets=(), notices=()):
        self.decks = [list(d) for d in decks]
        self.piles = [list(p) for p in piles]
        self.forgets, self.notices = list(forgets), list(notices)
        self.calls: list[tuple] = []

    def round_deck(self, game):
        self.calls.append(("round_deck", game.round_no))
        return list(self.decks.pop(0) if len(self.decks) > 1 else self.decks[0])

    def reshuffle(self, game, cards):
        self.calls.append(("reshuffle", C.codes(cards)))
        return [C.parse(c) for c in self.piles.pop(0)] if self.piles else list(cards)

    def forgot(self, game, seat, p):
        self.calls.append(("forgot", seat, p))
        return self.forgets.pop(0) if self.forgets else False

    def noticed(self, game, seat, p):
        self.calls.append(("noticed", seat, p))
        return self.notices.pop(0) if self.notices else p >= 0.5


class Script:
    """A decider answering from a list: a code (the card to play), ``"keep"``
    or ``"stop"``; once the list is used up, the first option (so every
    drawn match and bonus is played). ``asked`` logs (seat, kind, options as
    codes)."""

    def __init__(self, answers=()):
        self.answers = list(answers)
        self.asked: list[tuple] = []

    def decide(self, game, seat, kind, options):
        shown = tuple(o if isinstance(o, str) else C.code(o) for o in options)
        self.asked.append((seat, kind, shown))
        if not self.answers:
            return options[0]
        answer = self.answers.pop(0)
        if answer in (KEEP, STOP):
            return answer
        return C.parse(answer)
