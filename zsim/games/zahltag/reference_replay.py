"""Replaying a Zahltag record in the reference engine: a record's deal,
shuffles and decisions drive :class:`~zsim.games.zahltag.reference.Game`
event by event (``zsim replay --check`` and the record tests)."""
from __future__ import annotations

import numpy as np

from zsim.errors import ZsimError
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.deck import Deck
from zsim.games.zahltag.notation import action_from_json, card_code
from zsim.games.zahltag.reference import TYPES, Game, RefResult
from zsim.games.zahltag.rules import Rules
from zsim.record_referee import placed


class ReplayError(Exception):
    """A game record that the rules cannot replay (names the offending event;
    :func:`~zsim.record_referee.placed` at its index in the record)."""


# ------------------------------------------------------------------ replaying records
INPUT_EVENTS = ("setup", "adjust", "bids", "shuffle")


class RecordInputs:
    """Chance and decider in one: reads a record's deal, shuffles and decisions in order."""

    def __init__(self, events: list[dict]):
        self.events = events
        self.cursor = 1  # events[0] is the start

    @staticmethod
    def fail(i: int, ev: dict, problem: str):
        raise placed(ReplayError(f"record event {i} ({ev.get('e')}): {problem}"), i, problem, ev.get("e"))

    def _next(self, kind: str, what: str) -> tuple[int, dict]:
        """The record's next decision or shuffle, which must be of ``kind``."""
        while self.cursor < len(self.events) and self.events[self.cursor].get("e") not in INPUT_EVENTS:
            self.cursor += 1
        if self.cursor == len(self.events):
            last = len(self.events) - 1
            raise placed(ReplayError(f"the record ends, but the rules call for {what} next"), last,
                         f"the game's record ends here, but the rules still call for {what}",
                         self.events[last].get("e"))
        i, ev = self.cursor, self.events[self.cursor]
        self.cursor += 1
        if ev["e"] != kind:
            self.fail(i, ev, f"the rules call for {what} here")
        return i, ev

    def check_finished(self) -> None:
        for i in range(self.cursor, len(self.events)):
            if self.events[i].get("e") in INPUT_EVENTS:
                self.fail(i, self.events[i], "comes after the game has ended by the rules")

    # -------------------------------------------------------------- chance
    def deal(self, players: int, rules: Rules):
        start = self.events[0]
        hands, stacks = start.get("hands"), start.get("stacks")
        if not _counts_list(hands, players) or not _counts_list([stacks], 1):
            self.fail(0, start, "hands must be one [F,W,C,E] per seat, stacks one [F,W,C,E]")
        if any(sum(h) != rules.hand_size for h in hands) or \
                [sum(h[t] for h in hands) + stacks[t] for t in TYPES] != list(rules.supply):
            self.fail(0, start, f"hands of {rules.hand_size} and stacks must make up the supply")
        return [list(h) for h in hands], list(stacks)

    def setup_deck(self, cards: list) -> list:
        return self._deck(0, self.events[0], cards)

    def reshuffle(self, cards: list, reason: str) -> list:
        i, ev = self._next("shuffle", f"a shuffle for {reason}")
        if ev.get("reason") != reason:
            self.fail(i, ev, f"the reason is {ev.get('reason')!r}, the rules call for {reason!r}")
        return self._deck(i, ev, cards)

    def _deck(self, i: int, ev: dict, cards: list) -> list:
        codes = {card_code(c): c for c in cards}
        deck = ev.get("deck")
        if not isinstance(deck, list) or not all(isinstance(c, str) and c in codes for c in deck) \
                or sorted(codes[c] for c in deck) != sorted(cards):
            self.fail(i, ev, f"deck {deck} is not an order of the cards left, "
                             f"{sorted(card_code(c) for c in cards)}")
        return [codes[c] for c in deck]

    # -------------------------------------------------------------- decider
    def _action(self, game: Game, i: int, ev: dict, seat: int, setup: bool) -> int:
        if ev.get("seat") != seat:
            self.fail(i, ev, f"seat {ev.get('seat')!r} acts, the rules call for seat {seat}")
        code = action_from_json(ev.get("action"))
        if code is None:
            self.fail(i, ev, f"{ev.get('action')!r} is no action")
        reason = game.why_illegal(game.players[seat], code, setup)
        if reason is not None:
            self.fail(i, ev, f"{ev['action']} by seat {seat} is not legal: {reason}")
        return code

    def setup_action(self, game: Game, seat: int, round_no: int) -> int:
        i, ev = self._next("setup", f"the setup adjustment of seat {seat} in round {round_no}")
        if ev.get("round") != round_no:
            self.fail(i, ev, f"round {ev.get('round')!r}, the rules call for round {round_no}")
        return self._action(game, i, ev, seat, setup=True)

    def adjust_action(self, game: Game, seat: int) -> int:
        i, ev = self._next("adjust", f"the adjustment of seat {seat} in turn {game.turn}")
        return self._action(game, i, ev, seat, setup=False)

    def bids(self, game: Game, job: int) -> list:
        i, ev = self._next("bids", f"the bids for {card_code(job)}")
        bids = ev.get("bids")
        if ev.get("job") != card_code(job):
            self.fail(i, ev, f"bids for {ev.get('job')!r}, the rules reveal {card_code(job)}")
        if not isinstance(bids, list) or len(bids) != game.n:
            self.fail(i, ev, f"{bids!r} is not one bid per seat")
        for p in game.players:
            if not game.bid_is_legal(p, job, bids[p.seat]):
                self.fail(i, ev, f"seat {p.seat} cannot bid {bids[p.seat]!r} (out of the game, or the "
                                 f"hand {p.hand} lacks {card_code(job)}'s {game.job_needs[job]})")
        return bids


def _counts_list(rows, length: int) -> bool:
    return isinstance(rows, list) and len(rows) == length and all(
        isinstance(r, list) and len(r) == 4 and all(type(v) is int and v >= 0 for v in r) for r in rows)


def replay_game(events: list[dict], deck_name: str = "record") -> RefResult:
    """Replay a record (see :func:`replay_record`); returns the full result."""
    if not events or not all(isinstance(ev, dict) for ev in events) or events[0].get("e") != "start":
        raise placed(ReplayError("a record is a list of event objects that begins with its start event"), 0,
                     "a record is a list of event objects that begins with its start event")
    start = events[0]

    def bad_start(problem: str):
        raise placed(ReplayError(f"start event: {problem}"), 0, problem, "start")

    players, jobs, money = start.get("players"), start.get("jobs"), start.get("money")
    if type(players) is not int or not K.MIN_PLAYERS <= players <= K.MAX_PLAYERS:
        bad_start(f"players must be {K.MIN_PLAYERS}..{K.MAX_PLAYERS}, not {players!r}")
    try:
        rules = Rules.from_dict(start.get("rules", {}))
        rules.validate(players)
    except ZsimError as exc:
        bad_start(str(exc))
    if not isinstance(jobs, dict) or list(jobs) != [f"J{n}" for n in range(1, len(jobs) + 1)] \
            or not jobs or not _counts_list(list(jobs.values()), len(jobs)) or not all(map(sum, jobs.values())):
        bad_start("jobs must map J1..Jn, in order, to [F,W,C,E] needs")
    if not isinstance(money, list) or len(money) != players or not all(type(m) is int and m >= 0 for m in money):
        bad_start("money must be one whole number >= 0 per seat")
    deck = Deck(deck_name, np.asarray(list(jobs.values()), dtype=np.int64).reshape(-1, K.N_TYPES))
    inputs = RecordInputs(events)
    game = Game(players, rules, deck, inputs, inputs, seed=start.get("seed"), game_index=start.get("game"),
                strategies=start.get("strategies", []), money=money, record=True)
    try:
        result = game.play()
    except ReplayError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        # a field of the wrong shape, met while the engine used the record's last input
        i = max(inputs.cursor - 1, 0)
        problem = f"malformed ({exc.__class__.__name__}: {exc})"
        raise placed(ReplayError(f"record event {i} ({events[i].get('e')}): {problem}"), i, problem,
                     events[i].get("e")) from None
    inputs.check_finished()
    return result


def replay_record(events: list[dict], deck_name: str = "record") -> list[dict]:
    """Re-play a game from its record and return the events the rules derive.

    The deal, every shuffle and every decision come from the record and are
    checked (a shuffle must order exactly the cards left, a decision must be
    legal for its seat at that moment); everything else is derived.  Raises
    :class:`ReplayError` when the record cannot be replayed.  The caller
    compares the returned events with the record.
    """
    return replay_game(events, deck_name).events
