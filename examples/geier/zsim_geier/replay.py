"""Replaying a Hol's der Geier record through the reference engine, checked line by line.

:class:`RecordInputs` is chance, decider and referee at once. The engine
(:class:`~.reference.Game`) plays the game; when it needs the prize deck or
a round's bids, the record's *next* line must supply them, and they must be
possible (a deck of each prize card once, a bid card the seat still holds).
Every line the engine writes is compared with the record's line at the same
place; the first difference raises :class:`ReplayError` naming the line
(1 = the ``start`` line) and its event. Fields beyond those TRACE.md
defines are ignored.
"""
from __future__ import annotations

from zsim.errors import ZsimError
from zsim.record_referee import RecordReferee, play_checked, short, start_event
from zsim_geier import cards as C
from zsim_geier.reference import NAME, Game, Result
from zsim_geier.rules import MAX_PLAYERS, MIN_PLAYERS, Rules


class ReplayError(ZsimError):
    """A record the rules cannot replay; the message names the line and event."""


def same(want, got) -> bool:
    """JSON equality, strict about booleans and numbers."""
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
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

    def next_event(self, game: Game, kind: str, needed: str) -> tuple[int, dict]:
        i = len(game.events)
        if i >= len(self.events):
            self.ends(f"call for {needed} next")
        ev = self.events[i]
        if not isinstance(ev, dict) or ev.get("e") != kind:
            self.fail(i, f"the rules call for {needed} here (a {kind} line)")
        return i, ev

    # -------------------------------------------------------------- chance
    def prize_deck(self, game: Game) -> list:
        i, ev = self.next_event(game, "deck", "the shuffled prize deck")
        deck = ev.get("prizes")
        if not isinstance(deck, list) or not all(type(v) is int for v in deck) \
                or sorted(deck) != C.prize_values(game.rules):
            self.fail(i, f"prizes must list each prize card of the rules once "
                         f"({short(C.prize_values(game.rules))}), got {short(deck)}")
        return deck

    # -------------------------------------------------------------- decider
    def bid(self, game: Game, seat: int) -> int:
        i, ev = self.next_event(game, "bids", f"round {game.round_no}'s bids")
        bids = ev.get("bids")
        if not isinstance(bids, list) or len(bids) != game.n:
            self.fail(i, f"bids must give one bid card per seat, got {short(bids)}")
        bid = bids[seat]
        if type(bid) is not int or bid not in game.hands[seat]:
            why = ("it is no bid card" if type(bid) is not int or not 1 <= bid <= game.rules.n_prizes
                   else f"seat {seat} played it in round {game.shown[seat].index(bid) + 1}")
            self.fail(i, f"seat {seat} cannot bid {short(bid)}: {why}")
        return bid


def _start_fields(events: list) -> tuple[int, Rules, list]:
    start, players, bad = start_event(events, NAME, MIN_PLAYERS, MAX_PLAYERS, ReplayError)
    try:
        rules = Rules.from_dict(start.get("rules"))
        rules.validate(players)
    except ZsimError as exc:
        bad(str(exc))
    strategies = start.get("strategies")
    if not isinstance(strategies, list) or len(strategies) != players:
        bad(f"strategies must name one strategy per seat, got {short(strategies)}")
    return players, rules, strategies


def replay_game(events: list[dict]) -> Result:
    """Replay a record, checking every line; the game's :class:`Result`.

    Raises :class:`ReplayError` (one line, naming the record's line) when the
    record breaks a rule or differs from what the rules derive."""
    players, rules, strategies = _start_fields(events)
    start = events[0]
    inputs = RecordInputs(events)
    game = Game(players, rules, inputs, inputs, seed=start.get("seed"), game_index=start.get("game"),
                strategies=strategies, record=True, referee=inputs)
    return play_checked(game, inputs)
