"""The reference engine playing the compiled strategies.

:class:`KernelDecider` is a decider for the reference engine's
:class:`~.reference.Game` (the interface of
:class:`~.reference_bots.BotDecider`): at every bid it builds the strategy
kernel's arguments from the reference game's state (hands and prizes taken
as bitmasks, the deck as prize indices, ``pub``, the rules array) and calls
the registered numba strategy through ``engine_nb.bid_one_nb``. Its stream
states are seeded as the fast engine seeds a game's streams, so a strategy
draws the same numbers in both engines, and any registered Geier strategy,
a plugin's too, plays the reference engine.
"""
from __future__ import annotations

import numpy as np

from zsim.rng import game_key, stream_start
from zsim_geier import cards as C
from zsim_geier import constants as K
from zsim_geier.batch import rules_array
from zsim_geier.reference import Game, Result, SeededChance
from zsim_geier.rules import Rules


class KernelDecider:
    """Answers the reference engine's bids with the compiled strategies of ``specs``."""

    def __init__(self, players: int, rules: Rules, specs: list[str], key: int,
                 compile_for: tuple[str, ...] | None = None):
        from zsim.roster import roster_for, roster_of
        from zsim.strategy_registry import strategy_arrays

        self.ids, self.params = strategy_arrays("geier", list(specs))
        if len(self.ids) != players:
            raise ValueError(f"{players} players need {players} strategies, got {len(self.ids)}")
        self.roster = roster_of("geier", self.ids, roster_for("geier", compile_for))
        self.rules = rules_array(rules)
        self.rng = np.array([stream_start(key, i) for i in range(K.N_STREAMS)], dtype=np.uint64)
        self.hands = np.zeros(players, np.int64)
        self.won = np.zeros(players, np.int64)
        self.deck = np.zeros(K.MAX_PRIZES, np.int64)
        self.pub = np.zeros(K.N_PUB, np.int64)

    def load(self, game: Game) -> None:
        """Fill the kernel's arrays from the reference game's state."""
        rules = game.rules
        for s in range(game.n):
            self.hands[s] = C.mask_of(game.hands[s])
            self.won[s] = C.mask_of(C.prize_index(v, rules) for v in game.taken[s])
        for r, v in enumerate(game.deck):
            self.deck[r] = C.prize_index(v, rules)
        p = self.pub
        p[K.PUB_ROUND] = game.round_no
        p[K.PUB_PLAYERS] = game.n
        p[K.PUB_N_PRIZES] = rules.n_prizes
        p[K.PUB_PRIZE] = game.table[-1]
        p[K.PUB_POT] = sum(game.table)
        p[K.PUB_TABLE] = C.mask_of(C.prize_index(v, rules) for v in game.table)
        p[K.PUB_LEFT] = C.mask_of(C.prize_index(v, rules) for v in game.left)
        p[K.PUB_CARRIES] = game.carries

    def bid(self, game: Game, seat: int):
        from zsim_geier.engine_nb import bid_one_nb

        self.load(game)
        # an answer outside the hand goes back as it is: the reference engine refuses it
        return int(bid_one_nb(self.roster, self.ids[seat], seat, self.params[seat], self.hands, self.won,
                              self.deck, self.pub, self.rules, self.rng))


def play_reference_game(players: int, rules: Rules, specs: list[str], seed: int, game_index: int,
                        record: bool = False, compile_for: tuple[str, ...] | None = None) -> Result:
    """Game ``game_index`` of ``seed`` played by the reference engine with the compiled
    strategies of ``specs`` (one per seat, parameters included); ``compile_for`` names
    the strategies their kernel is compiled for (default: all installed)."""
    from zsim.strategy_registry import parse_one

    specs = [parse_one(s, "geier") for s in specs]
    key = game_key(seed, game_index)
    decider = KernelDecider(players, rules, specs, key, compile_for)
    game = Game(players, rules, SeededChance(key), decider, seed=seed, game_index=game_index,
                strategies=specs, record=record)
    return game.play()
