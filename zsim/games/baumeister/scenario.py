"""Hand-made games of Baumeister: a stacked deck, scripted dice and decisions.

A :class:`Stacked` chance object deals a chosen order (open stack first) and
rolls the faces given; a :class:`Script` decider answers each decision kind
from its own list, so a scenario reads like a table-top example::

    chance = Stacked(open=[31, 7], hidden=[24, 3], rolls=[2, "S"])
    decider = Script(stack=["hidden"], open=[3], bid=[4, 0])
    game = Game(3, Rules(), default_deck(), chance, decider, record=True)
"""
from __future__ import annotations

from zsim.games.baumeister import reference_bots as S


class Stacked:
    """Chance for scenarios: the open and hidden stacks (top first; the open
    one gets ⌈N/2⌉ cards, so give sizes that split so), then die faces and
    hand picks in order. Once the rolls run out every roll is 1."""

    def __init__(self, open, hidden, rolls=(), picks=()):
        self.order = list(open) + list(hidden)
        if len(open) != (len(self.order) + 1) // 2:
            raise ValueError(f"the open stack holds ⌈N/2⌉ = {(len(self.order) + 1) // 2} cards, "
                             f"not {len(open)}")
        self.rolls, self.picks = list(rolls), list(picks)
        self.calls: list[tuple] = []

    def shuffle(self, game, cards):
        if sorted(self.order) != sorted(cards):
            raise ValueError("the stacks must hold every card of the deck once")
        return list(self.order)

    def roll(self, game, why):
        self.calls.append(("roll", why))
        return self.rolls.pop(0) if self.rolls else 1

    def pick(self, game, size):
        self.calls.append(("pick", size))
        return self.picks.pop(0) if self.picks else 0


class Script:
    """A decider answering each kind from its own list (keyword = kind); an
    answer that is a function gets the options. Once a list is used up: the
    first option of a discrete decision, an opening bid of ``low``, a pass,
    no offer. ``asked`` logs ``(seat, kind, options)``."""

    def __init__(self, **answers):
        unknown = set(answers) - set(S.DECISION_KINDS)
        if unknown:
            raise ValueError(f"no decision kinds {sorted(unknown)}")
        self.answers = {k: list(v) for k, v in answers.items()}
        self.asked: list[tuple] = []

    def decide(self, game, seat, kind, options):
        self.asked.append((seat, kind, options))
        queue = self.answers.get(kind)
        if queue:
            answer = queue.pop(0)
            return answer(options) if callable(answer) else answer
        if kind == S.OPEN:
            return options[0]
        if kind in (S.BID, S.OFFER):
            return 0
        return options[0]
