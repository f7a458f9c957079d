"""Replaying a Baumeister record through the reference engine, checked line by line.

:class:`RecordInputs` is chance, decider and referee at once: whenever the
engine needs a shuffle, a roll, a pick or a decision, the record's next line
(the one the engine is about to write) supplies it, and the engine checks it
is allowed; every line the engine writes must equal the record's line at
the same place. The first difference raises :class:`ReplayError` naming the
line (1 = the ``start`` line). Fields beyond TRACE.md's are ignored.
"""
from __future__ import annotations

from zsim.errors import ZsimError
from zsim.record_referee import RecordReferee, play_checked, short, start_event
from zsim.games.baumeister import reference_bots as S
from zsim.games.baumeister.cards import Deck
from zsim.games.baumeister.reference import NAME, SAB, Game, Result
from zsim.games.baumeister.rules import MAX_PLAYERS, MIN_PLAYERS, Rules


class ReplayError(ZsimError):
    """A record the rules cannot replay; the message names the line and event."""


def same(want, got) -> bool:
    """JSON equality, strict about booleans and about ints against floats."""
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    if isinstance(want, int):
        return type(got) is int and want == got
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(map(same, want, got))
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and same(v, got[k]) for k, v in want.items())
    return type(want) is type(got) and want == got


class RecordInputs(RecordReferee):
    """Chance, decider and referee reading one game's events (``events[0]`` = start)."""

    error = ReplayError

    def same(self, want, got) -> bool:
        return same(want, got)

    def upcoming(self, game: Game, *kinds: str) -> tuple[int, dict]:
        """The line the engine writes next; it must be one of ``kinds``."""
        i = len(game.events)
        if i >= len(self.events):
            self.ends(f"call for {' or '.join(kinds)} next")
        ev = self.events[i]
        if not isinstance(ev, dict) or ev.get("e") not in kinds:
            self.fail(i, f"the rules call for {' or '.join(kinds)} here")
        return i, ev

    # -------------------------------------------------------------- chance
    def shuffle(self, game: Game, cards: list) -> list:
        deck = self.events[0].get("deck")
        if not isinstance(deck, list) or sorted(d for d in deck if type(d) is int) != sorted(cards) \
                or len(deck) != len(cards):
            self.fail(0, f"deck must list each of the {len(cards)} cards once, got {short(deck)}")
        return list(deck)

    def roll(self, game: Game, why: str):
        i, ev = self.upcoming(game, "roll" if why == "income" else "sabotage")
        face = ev.get("face" if why == "income" else "roll")
        if face != SAB and (type(face) is not int or not 1 <= face <= 5):
            self.fail(i, f"a die shows 1..5 or \"S\", got {short(face)}")
        return face

    def pick(self, game: Game, size: int) -> int:
        i, ev = self.upcoming(game, "sabotage")
        index = ev.get("index")
        if type(index) is not int or not 0 <= index < size:
            self.fail(i, f"index must pick one of the target's {size} hand cards (0..{size - 1}), "
                         f"got {short(index)}")
        return index

    # -------------------------------------------------------------- decider
    def decide(self, game: Game, seat: int, kind: str, options: tuple):
        if kind == S.TAKE:
            return self.upcoming(game, "roll")[1].get("sab_from")
        if kind == S.STACK:
            return self.upcoming(game, "auction")[1].get("stack")
        if kind in (S.OPEN, S.BID):
            i, ev = self.upcoming(game, "bid", "pass")
            if ev.get("seat") != seat:
                self.fail(i, f"seat {seat} bids now, not seat {short(ev.get('seat'))}")
            if ev["e"] == "pass":
                return 0
            return ev.get("amount")
        if kind == S.UNDER:
            return self.upcoming(game, "award", "sabotage")[1].get("under")
        if kind == S.ACTION:
            i, ev = self.upcoming(game, "build", "sabotage")
            if ev["e"] == "sabotage":
                return ev.get("kind")
            return "nothing" if ev.get("placed") == [] else "build"
        if kind == S.PLACE:
            i, ev = self.upcoming(game, "build")
            done = len(game.placed)
            placed = ev.get("placed")
            if not isinstance(placed, list):
                self.fail(i, f"placed must be a list of [pos, card], got {short(placed)}")
            if done >= len(placed):
                return S.STOP
            step = placed[done]
            if not (isinstance(step, list) and len(step) == 2 and all(type(x) is int for x in step)):
                self.fail(i, f"placement {done + 1} must be [pos, card], got {short(step)}")
            pos, card = step
            return (card, pos)
        i, ev = self.upcoming(game, "sabotage")
        if kind == S.TARGET:
            return ev.get("target")
        if kind == S.CARD:
            return ev.get("pos")
        if kind == S.KEEP:
            return "keep" if ev.get("outcome") == "kept" else "lose"
        if kind == S.OFFER:
            return ev.get("offer")
        if kind == S.ACCEPT:
            return "accept" if ev.get("accepted") is True else "refuse"
        raise ValueError(f"unknown decision kind {kind!r}")


def _start_fields(events: list):
    start, players, bad = start_event(events, NAME, MIN_PLAYERS, MAX_PLAYERS, ReplayError)
    try:
        rules = Rules.from_dict(start.get("rules"))
        rules.validate(players)
        deck = Deck.from_rows(start.get("cards") or [], "the record's cards")
    except ZsimError as exc:
        bad(str(exc))
    strategies = start.get("strategies")
    if not isinstance(strategies, list) or len(strategies) != players:
        bad(f"strategies must name one strategy per seat, got {short(strategies)}")
    return players, rules, deck, strategies


def replay_game(events: list[dict]) -> Result:
    """Replay a record, checking every line; the game's :class:`Result`."""
    players, rules, deck, strategies = _start_fields(events)
    start = events[0]
    inputs = RecordInputs(events)
    game = Game(players, rules, deck, inputs, inputs, seed=start.get("seed"), game_index=start.get("game"),
                strategies=strategies, record=True, referee=inputs)
    return play_checked(game, inputs)
