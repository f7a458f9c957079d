"""The reference engine playing the compiled Baumeister strategies.

:class:`KernelDecider` answers the reference engine's decisions by building,
from the reference game's state, the arrays the fast engine gives a strategy
kernel (``constants.py`` names every slot) and calling the registered kernel
through ``engine_nb.decide_one_nb``. Its stream states are seeded as the fast
engine seeds a game's, so a strategy draws the same numbers in both engines:
that is how every strategy is held equal engine against engine.
"""
from __future__ import annotations

import numpy as np

from zsim.games.baumeister import constants as K
from zsim.games.baumeister import reference_bots as S
from zsim.games.baumeister.cards import CORNER, HALL
from zsim.games.baumeister.city import LEFT
from zsim.games.baumeister.batch import rules_array
from zsim.games.baumeister.reference import HIDDEN_STACK, OPEN_STACK, STACKS, Game, Result, SeededChance
from zsim.rng import game_key, stream_start

KINDS = {S.TAKE: K.D_TAKE, S.STACK: K.D_STACK, S.OPEN: K.D_OPEN, S.BID: K.D_BID, S.ACTION: K.D_ACTION,
         S.PLACE: K.D_PLACE, S.TARGET: K.D_TARGET, S.CARD: K.D_CARD, S.KEEP: K.D_KEEP, S.OFFER: K.D_OFFER,
         S.ACCEPT: K.D_ACCEPT, S.UNDER: K.D_UNDER}
CODES = {"open": K.STACK_OPEN, "hidden": K.STACK_HIDDEN, "build": K.A_BUILD, "building": K.A_BUILDING,
         "hand": K.A_HAND, "nothing": K.A_NOTHING, S.STOP: K.PLACE_STOP, "keep": K.KEEP, "lose": K.LOSE,
         "accept": K.ACCEPT, "refuse": K.REFUSE}
#: an index the kernel gave outside the options: handed back as it is, and the engine refuses it
OUTSIDE = ("outside the options",)


class KernelDecider:
    """Answers the reference engine's decisions with the compiled strategies of ``specs``."""

    def __init__(self, players: int, rules, deck, specs: list[str], key: int,
                 compile_for: tuple[str, ...] | None = None):
        from zsim.roster import roster_of
        from zsim.roster import roster_for as roster
        from zsim.strategy_registry import strategy_arrays

        self.ids, self.params = strategy_arrays("baumeister", list(specs))
        # one compile serves every field (a decision here is a Python call anyway),
        # or every field of a job that names its strategies (``compile_for``, as Matchup's)
        self.roster = roster_of("baumeister", self.ids, roster("baumeister", compile_for))
        self.rules = rules_array(rules)
        self.deck = deck.arrays()
        n = deck.n
        self.rng = np.array([stream_start(key, i) for i in range(K.N_STREAMS)], dtype=np.uint64)
        self.loc = np.zeros(n + 1, np.int64)
        self.known = np.zeros((players, n + 1), np.int64)
        self.rows = np.zeros((players, K.W), np.int64)
        self.city = np.zeros((players, K.N_CITY), np.int64)
        self.st = np.zeros((players, K.N_ST), np.int64)
        self.pub = np.zeros(K.N_PUB, np.int64)
        self.opts = np.zeros(K.MAX_OPTS, np.int64)
        #: the city each seat's rows were last filled from (cities change only by builds and sabotage)
        self.filled = [None] * players
        #: the compiled decision for these arguments' types: called directly, a decision skips the
        #: dispatcher's typing of all sixteen arguments (the roster's through Python) every time
        self.call = None

    def load(self, game: Game) -> None:
        """Fill the kernel's arrays from the reference game's state."""
        n = game.deck.n
        loc, known = self.loc, self.known
        for k, name in enumerate(STACKS):
            for c in game.stacks[name]:
                loc[c] = K.L_OPEN + k
        if game.in_auction is not None:
            loc[game.in_auction] = K.L_AUCTION
        known[:, :] = 0
        for c in game.public:
            known[:, c] = 1
        for s in range(game.n):
            for c in game.hands[s]:
                loc[c] = K.L_HAND + s
            for c in game.seen[s]:
                known[s, c] = 1
            self.load_city(game, s)
            st = self.st[s]
            st[K.ST_MONEY] = game.money[s]
            st[K.ST_SAB] = game.saboteurs[s]
            st[K.ST_BUILT_ONCE] = int(game.has_built[s])
            st[K.ST_HAND] = len(game.hands[s])
            st[K.ST_CARDS:] = 0
            st[K.ST_CARDS:K.ST_CARDS + len(game.hands[s])] = sorted(game.hands[s])
            st[K.ST_LAST_BID] = game.last_bid[s]
            st[K.ST_ACTIVE] = game.active[s]
        p, v = self.pub, game.shown
        p[K.PUB_PLAYERS] = game.n
        p[K.PUB_N] = n
        p[K.PUB_TURN] = game.turn_no
        p[K.PUB_SEAT] = v["on_turn"]
        p[K.PUB_RESERVE] = game.reserve
        p[K.PUB_FINAL] = int(game.final_round)
        p[K.PUB_TRIGGERED] = v["triggered"]
        p[K.PUB_HEAD_OPEN] = game.pops[OPEN_STACK] % n
        p[K.PUB_HEAD_HIDDEN] = game.pops[HIDDEN_STACK] % n
        p[K.PUB_SIZE_OPEN] = len(game.stacks[OPEN_STACK])
        p[K.PUB_SIZE_HIDDEN] = len(game.stacks[HIDDEN_STACK])
        p[K.PUB_OPEN_TOP] = game.stacks[OPEN_STACK][0] if game.stacks[OPEN_STACK] else 0
        for slot, name in ((K.PUB_AUCTIONEER, "auctioneer"), (K.PUB_STACK, "stack"), (K.PUB_CARD, "card"),
                           (K.PUB_HIGH, "high"), (K.PUB_HIGH_SEAT, "high_seat"),
                           (K.PUB_ANNOUNCED, "announced"), (K.PUB_ATTACKER, "attacker"),
                           (K.PUB_TARGET, "target"), (K.PUB_OFFER, "offer"), (K.PUB_PLACED, "placed"),
                           (K.PUB_NEED, "need")):
            p[slot] = v[name]
        p[K.PUB_ATTACK_POS] = 0 if v["pos"] is None else K.OFF + v["pos"]
        p[K.PUB_ILLEGAL] = 0

    def load_city(self, game: Game, s: int) -> None:
        city, row, deck = game.cities[s], self.rows[s], game.deck
        filled = (tuple(city.cards.items()), tuple(city.closes.items()))
        if filled == self.filled[s]:
            for card in city.cards.values():
                self.loc[card] = K.L_CITY + s
            return
        self.filled[s] = filled
        row[:] = 0
        c = self.city[s]
        c[:] = 0
        for pos, card in city.cards.items():
            row[K.OFF + pos] = card
            self.loc[card] = K.L_CITY + s
        if city.cards:
            c[K.C_LEFT], c[K.C_RIGHT] = K.OFF + city.left, K.OFF + city.right
            c[K.C_COUNT] = len(city.cards)
            c[K.C_SHIELDS], c[K.C_COINS] = city.shields(deck), city.coins(deck)
            c[K.C_HALLS], c[K.C_CORNERS] = city.count(deck, HALL), city.count(deck, CORNER)
            for pos, end in city.closes.items():
                c[K.C_CLOSED_L if end == LEFT else K.C_CLOSED_R] = K.OFF + pos

    def decide(self, game: Game, seat: int, kind: str, options: tuple):
        from zsim.games.baumeister.table_nb import decide_one_nb

        self.load(game)
        o = self.opts
        if kind in S.AMOUNTS:
            o[0], o[1] = options
            n = 2
        else:
            n = len(options)
            for i, opt in enumerate(options):
                if kind == S.PLACE:
                    o[i] = K.PLACE_STOP if opt == S.STOP else opt[0] * K.W + K.OFF + opt[1]
                elif kind == S.CARD:
                    o[i] = K.OFF + opt
                elif kind in (S.TAKE, S.TARGET):
                    o[i] = opt
                else:
                    o[i] = CODES[opt]
        args = (self.roster, self.ids[seat], seat, KINDS[kind], o, n, self.params[seat], self.loc, self.known,
                self.rows, self.city, self.st, self.pub, self.deck, self.rules, self.rng)
        if self.call is None:           # the first decision types the arguments, as every later one's
            answer = decide_one_nb(*args)
            self.call = decide_one_nb.overloads[tuple(decide_one_nb.typeof_pyval(a) for a in args)].entry_point
        else:
            answer = self.call(*args)
        answer = int(answer)
        if kind in S.AMOUNTS:
            return answer
        return options[answer] if 0 <= answer < n else OUTSIDE


def play_reference_game(players: int, rules, deck, specs: list[str], seed: int, game_index: int,
                        record: bool = False, compile_for: tuple[str, ...] | None = None) -> Result:
    """Game ``game_index`` of ``seed`` played by the reference engine with the compiled strategies of ``specs``;
    ``compile_for`` names the strategies their kernel is compiled for (default: all installed)."""
    from zsim.strategy_registry import parse_one

    specs = [parse_one(s, "baumeister") for s in specs]
    key = game_key(seed, game_index)
    decider = KernelDecider(players, rules, deck, specs, key, compile_for)
    game = Game(players, rules, deck, SeededChance(key), decider, seed=seed, game_index=game_index,
                strategies=specs, record=record)
    return game.play()
