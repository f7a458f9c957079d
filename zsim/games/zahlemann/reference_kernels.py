"""The reference engine playing the compiled strategies.

:class:`KernelDecider` is a decider for the reference engine's
:class:`~.reference.Game` (the interface of
:class:`~.strategies.StrategyDecider`): at every decision it builds the
strategy kernel's arguments from the reference game's state (hands and
passed hands as bitmasks, the discards, the money rows, ``pub``, the rules
array) and calls the registered numba strategy through one small ``cold``
wrapper, ``engine_nb.decide_one_nb``. Its uint64 stream states are seeded
as the fast engine seeds a game's streams, so a strategy draws the same
numbers in both engines, and any registered Zahlemann strategy plays the
reference engine: that is how every strategy is checked engine against
engine.

:func:`play_reference_game` plays one game this way (each seat's ``forget``
taken from its spec's parameters).
"""
from __future__ import annotations

import numpy as np

from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.batch import rules_array
from zsim.games.zahlemann.reference import Game, Result, SeededChance
from zsim.games.zahlemann.rules import Rules
from zsim.games.zahlemann.reference_bots import BONUS, DRAWN, KEEP, PLAY, STOP
from zsim.rng import game_key, stream_start

KINDS = {PLAY: K.D_PLAY, DRAWN: K.D_DRAWN, BONUS: K.D_BONUS}
#: what the kernel's -1 means, per kind (for a play decision -1 stays -1: illegal)
DECLINE = {PLAY: -1, DRAWN: KEEP, BONUS: STOP}


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class KernelDecider:
    """Answers the reference engine's decisions with the compiled strategies of ``specs``."""

    def __init__(self, players: int, rules: Rules, specs: list[str], key: int,
                 compile_for: tuple[str, ...] | None = None):
        from zsim.roster import roster_of
        from zsim.roster import roster_for as roster
        from zsim.strategy_registry import strategy_arrays

        self.ids, self.params = strategy_arrays("zahlemann", list(specs))
        # one compile serves every field (a decision here is a Python call anyway),
        # or every field of a job that names its strategies (``compile_for``, as Matchup's)
        self.roster = roster_of("zahlemann", self.ids, roster("zahlemann", compile_for))
        if len(self.ids) != players:
            raise ValueError(f"{players} players need {players} strategies, got {len(self.ids)}")
        self.rules = rules_array(rules)
        self.rng = np.array([stream_start(key, i) for i in range(K.N_STREAMS)], dtype=np.uint64)
        self.hands = np.zeros(players, np.int64)
        self.passed = np.zeros(players, np.int64)
        self.discards = np.zeros(K.N_CARDS, np.int64)
        self.money = np.zeros((players, K.M_COLUMNS), np.int64)
        self.pub = np.zeros(K.N_PUB, np.int64)
        self._turn = -1          # game.turns of the turn the counts below belong to
        self._drawn = 0          # the turn's no_match draw (its first decision was "drawn")
        self._played = 0         # the seat's cards_played when the turn's first decision came

    @property
    def forget(self) -> list[float]:
        return [float(f) for f in self.params[:, 0]]

    def load(self, game, seat: int, kind: str) -> None:
        """Fill the kernel's arrays from the reference game's state."""
        if game.turns != self._turn:     # the turn's first decision: play or drawn
            self._turn = game.turns
            self._drawn = 1 if kind == DRAWN else 0
            self._played = game.st["cards_played"][seat]
        for s in range(game.n):
            self.hands[s] = mask_of(game.hands[s])
            self.passed[s] = mask_of(game.passed_on[s][-1]) if game.passed_on[s] else 0
            m = game.money[s]
            if isinstance(m, int):
                self.money[s, :K.N_DENOMINATIONS] = 0
                self.money[s, K.M_TOTAL] = m
            else:
                self.money[s, :K.N_DENOMINATIONS] = m
                self.money[s, K.M_TOTAL] = sum(n * d for n, d in zip(m, K.DENOMINATIONS))
        self.discards[:] = 0
        self.discards[:len(game.discards)] = game.discards
        p = self.pub
        p[K.PUB_TOP] = game.discards[-1]
        p[K.PUB_ROUND] = game.round_no
        p[K.PUB_TURN] = game.turn_no
        p[K.PUB_STARTER] = game.starter
        p[K.PUB_DRAW_SIZE] = len(game.draw_pile)
        p[K.PUB_N_DISCARDS] = len(game.discards)
        p[K.PUB_PLAYERS] = game.n
        p[K.PUB_CUR] = seat
        p[K.PUB_DRAWN] = self._drawn + len(game.penalty_cards)
        p[K.PUB_PLAYED] = game.st["cards_played"][seat] - self._played
        p[K.PUB_SKIP] = int(game.skip_pending)
        p[K.PUB_DEADLOCK] = game.deadlock
        p[K.PUB_PASSES] = len(game.passed_on[0])
        p[K.PUB_RESHUFFLES] = game.reshuffles
        p[K.PUB_DISCARDED] = mask_of(game.discards)

    def decide(self, game, seat: int, kind: str, options: tuple):
        from zsim.games.zahlemann.engine_nb import decide_one_nb

        self.load(game, seat, kind)
        options_mask = mask_of(o for o in options if isinstance(o, int))
        answer = int(decide_one_nb(self.roster, self.ids[seat], seat, KINDS[kind], options_mask, self.params[seat],
                                   self.hands, self.passed, self.discards, self.money, self.pub,
                                   self.rules, self.rng))
        # an answer outside the options goes back as it is: the reference engine refuses it
        return DECLINE[kind] if answer == K.KEEP else answer


def play_reference_game(players: int, rules: Rules, specs: list[str], seed: int, game_index: int,
                        record: bool = False, compile_for: tuple[str, ...] | None = None) -> Result:
    """Game ``game_index`` of ``seed`` played by the reference engine with the
    compiled strategies of ``specs`` (one per seat, parameters included);
    ``compile_for`` names the strategies their kernel is compiled for (default: all installed)."""
    from zsim.strategy_registry import parse_one

    specs = [parse_one(s, "zahlemann") for s in specs]
    key = game_key(seed, game_index)
    decider = KernelDecider(players, rules, specs, key, compile_for)
    game = Game(players, rules, SeededChance(key), decider, forget=decider.forget, seed=seed,
                game_index=game_index, strategies=specs, record=record)
    return game.play()


#: the name the task brief uses
play_reference = play_reference_game
