"""Replaying a game record through the reference engine, checked line by line.

:class:`RecordInputs` is chance, decider and referee at once. The engine
(:class:`~.reference.Game`) plays the game; whenever it needs a shuffle, an
announcement outcome or a decision, the record's *next* line must supply it,
and it must be possible (a deck of the 36 cards, a pile that orders exactly
the discards under the top, an outcome that its probability allows, a card
the seat may play). Every line the engine writes is compared with the
record's line at the same place. The first difference raises
:class:`ReplayError` naming the line (1 = the ``start`` line) and its event.

Fields beyond those TRACE.md defines are ignored, as the format allows.
"""
from __future__ import annotations

import math

from zsim.errors import ZsimError
from zsim.record_referee import RecordReferee, play_checked, short, start_event
from zsim.games.zahlemann import cards as C
from zsim.games.zahlemann.reference import NAME, Game, Result
from zsim.games.zahlemann.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from zsim.games.zahlemann.reference_bots import BONUS, DRAWN, KEEP, PLAY, STOP

#: keys of a payment object; any of them in a record must also be in the rules' payment
PAYMENT_KEYS = ("given", "change", "paid", "received")


class ReplayError(ZsimError):
    """A record the rules cannot replay; the message names the line and event."""


def same(want, got) -> bool:
    """JSON equality, strict about booleans; a nested object need only hold
    the wanted keys (and no payment key the rules did not write)."""
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        return isinstance(got, (int, float)) and not isinstance(got, bool) and want == got
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(map(same, want, got))
    if isinstance(want, dict):
        if not isinstance(got, dict) or any(k in got and k not in want for k in PAYMENT_KEYS):
            return False
        return all(k in got and same(v, got[k]) for k, v in want.items())
    return type(want) is type(got) and want == got


class RecordInputs(RecordReferee):
    """Chance, decider and referee reading one game's events (``events[0]`` = start)."""

    error = ReplayError

    def same(self, want, got) -> bool:
        return same(want, got)

    # -------------------------------------------------------------- helpers
    def next_event(self, game: Game, needed: str) -> tuple[int, dict]:
        i = len(game.events)
        if i >= len(self.events):
            self.ends(f"call for {needed} next")
        ev = self.events[i]
        if not isinstance(ev, dict):
            self.fail(i, "an event must be a JSON object")
        return i, ev

    # -------------------------------------------------------------- chance
    def round_deck(self, game: Game) -> list:
        i, ev = self.next_event(game, f"the setup of round {game.round_no}")
        if ev.get("e") != "round":
            self.fail(i, f"the rules set up round {game.round_no} here")
        deck = ev.get("deck")
        if not isinstance(deck, list) or not all(isinstance(c, str) and c in C.CARD_BY_CODE for c in deck) \
                or sorted(C.CARD_BY_CODE[c] for c in deck) != list(C.CARDS):
            self.fail(i, f"deck must list each of the 36 cards once, got {short(deck)}")
        return [C.CARD_BY_CODE[c] for c in deck]

    def reshuffle(self, game: Game, cards: list) -> list:
        i, ev = self.next_event(game, "a reshuffle of the discards")
        if ev.get("e") != "reshuffle":
            self.fail(i, "the draw pile is empty: the rules reshuffle the discards under the top here")
        pile = ev.get("pile")
        if not isinstance(pile, list) or not all(isinstance(c, str) and c in C.CARD_BY_CODE for c in pile) \
                or sorted(C.CARD_BY_CODE[c] for c in pile) != sorted(cards):
            self.fail(i, f"pile {short(pile)} is not an order of the discards under the top, "
                         f"{short(C.hand_codes(cards))}")
        return [C.CARD_BY_CODE[c] for c in pile]

    def forgot(self, game: Game, seat: int, p: float) -> bool:
        i, ev = self.next_event(game, f"seat {seat}'s announcement")
        kind = ev.get("e")
        if kind not in ("announce", "forgot"):
            self.fail(i, f"seat {seat} has one card left: the rules call for announce or forgot here")
        if kind == "forgot" and p <= 0.0:
            self.fail(i, f"seat {seat} cannot forget: its forget is {p}")
        if kind == "announce" and p >= 1.0:
            self.fail(i, f"seat {seat} cannot announce: its forget is {p}")
        return kind == "forgot"

    def noticed(self, game: Game, seat: int, p: float) -> bool:
        i, ev = self.next_event(game, f"the notice draw of seat {seat}")
        if ev.get("e") != "noticed":
            self.fail(i, f"seat {seat} forgot: the rules call for noticed here")
        seen = ev.get("noticed")
        if not isinstance(seen, bool):
            self.fail(i, f"noticed must be true or false, got {short(seen)}")
        if seen and p <= 0.0:
            self.fail(i, f"cannot be noticed: notice is {p}")
        if not seen and p >= 1.0:
            self.fail(i, f"must be noticed: notice is {p}")
        return seen

    # -------------------------------------------------------------- decider
    def _card(self, game: Game, i: int, ev: dict, seat: int, source: str, options: tuple) -> int:
        if ev.get("seat") != seat:
            self.fail(i, f"seat {short(ev.get('seat'))} plays, the rules call for seat {seat}")
        if ev.get("from") != source:
            self.fail(i, f"from should be {short(source)} by the rules, got {short(ev.get('from'))}")
        code = ev.get("card")
        if not isinstance(code, str) or code not in C.CARD_BY_CODE:
            self.fail(i, f"{short(code)} is no card")
        card = C.CARD_BY_CODE[code]
        if card not in options:
            self.fail(i, f"seat {seat} cannot play {code} now: {self._why_not(game, seat, card, source)}")
        return card

    def _why_not(self, game: Game, seat: int, card: int, source: str) -> str:
        top = C.code(game.top)
        if card not in game.hands[seat]:
            return "it is not in the seat's hand"
        if card in game.penalty_cards:
            return "it is a penalty card drawn this turn"
        if not C.matches(card, game.top):
            return f"it does not match the top card {top}"
        return f"the rules do not allow it {source}"

    def decide(self, game: Game, seat: int, kind: str, options: tuple):
        cards = [C.code(c) for c in options if not isinstance(c, str)]
        if kind == PLAY:
            i, ev = self.next_event(game, f"seat {seat}'s play")
            if ev.get("e") != "play":
                self.fail(i, f"seat {seat} holds a match (top {C.code(game.top)}): the rules call for "
                             f"its play here, one of {', '.join(cards)}")
            return self._card(game, i, ev, seat, "hand", options)
        if kind == DRAWN:
            i, ev = self.next_event(game, f"seat {seat}'s choice to play or keep the drawn card")
            if ev.get("e") == "pass_turn" and ev.get("why") == "kept":
                return KEEP
            if ev.get("e") != "play":
                self.fail(i, f"seat {seat} drew the match {cards[0]}: the rules call for its play "
                             f"or a pass_turn kept here")
            return self._card(game, i, ev, seat, "drawn", options)
        assert kind == BONUS
        i, ev = self.next_event(game, f"seat {seat}'s bonus play or the next event")
        if ev.get("e") == "play" and ev.get("from") == "bonus":
            return self._card(game, i, ev, seat, "bonus", options)
        return STOP


def _start_fields(events: list) -> tuple[int, Rules, list, list]:
    start, players, bad = start_event(events, NAME, MIN_PLAYERS, MAX_PLAYERS, ReplayError)
    try:
        rules = Rules.from_dict(start.get("rules"))
        rules.validate(players)
    except ZsimError as exc:
        bad(str(exc))
    forget = start.get("forget")
    if not isinstance(forget, list) or len(forget) != players or not all(
            isinstance(f, (int, float)) and not isinstance(f, bool) and math.isfinite(f) and 0 <= f <= 1
            for f in forget):
        bad(f"forget must be one number in 0..1 per seat, got {short(forget)}")
    strategies = start.get("strategies")
    if not isinstance(strategies, list) or len(strategies) != players:
        bad(f"strategies must name one strategy per seat, got {short(strategies)}")
    return players, rules, forget, strategies


def replay_game(events: list[dict]) -> Result:
    """Replay a record, checking every line; the game's :class:`Result`.

    Raises :class:`ReplayError` (one line, naming the record's line) when the
    record breaks a rule or differs from what the rules derive.
    """
    players, rules, forget, strategies = _start_fields(events)
    start = events[0]
    inputs = RecordInputs(events)
    game = Game(players, rules, inputs, inputs, forget=forget, seed=start.get("seed"),
                game_index=start.get("game"), strategies=strategies, record=True, referee=inputs)
    return play_checked(game, inputs)


def replay_record(events: list[dict]) -> list[dict]:
    """The events the rules derive from a record (equal to it when it is sound)."""
    return replay_game(events).events
