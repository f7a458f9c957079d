"""The reference engine: Wettstreit der Baumeister played turn by turn, in rulebook order.

Written for reading, not speed; the rules are docs/rules.md (Baumeister
part, following the shared RULES.md) and the record is TRACE.md. As for the
other games, two pluggable objects supply what a game cannot derive, so one
:class:`Game` plays fresh games and replays records: a *chance* object (the
setup shuffle, the die, the hand pick) and a *decider* (every decision of
:mod:`.strategies`, asked only when there is a choice).

Randomness layout (a fast engine must reproduce it draw for draw)
------------------------------------------------------------------
``key = zsim.rng.game_key(seed, game_index)``; every stream is
``zsim.rng.PyStream(key, stream)``.

* **Stream 0, the shuffle**: cards 1..N in card order, shuffled once by
  :func:`zsim.rng.fisher_yates`; position 0 is the top of the open stack,
  the first ⌈N/2⌉ are the open stack, the rest the hidden stack (top first).
* **Stream 5, the table's chance**, in the order things happen: every die
  roll (income and building attacks) is one ``below(6)``, 0..4 the faces
  1..5 and 5 the saboteur ``S``; every hand attack's pick is one
  ``below(len(hand))``, an index into the target's hand sorted by card number.
* **Stream 1 + seat**: that seat's strategy.

Nothing else is random.
"""
from __future__ import annotations

from zsim.errors import ZsimError
from zsim.games.baumeister import reference_bots as S
from zsim.games.baumeister.cards import TYPES, Deck, default_deck
from zsim.games.baumeister.city import City
from zsim.games.baumeister.result import GAME_COLUMNS, Result, places_of
from zsim.games.baumeister.rules import Rules
from zsim.record_referee import Recording
from zsim.rng import PyStream, fisher_yates, game_key

NAME = "baumeister"
SHUFFLE_STREAM, TABLE_STREAM = 0, 5
SAB = "S"
OPEN_STACK, HIDDEN_STACK = "open", "hidden"
STACKS = (OPEN_STACK, HIDDEN_STACK)

class RuleError(ZsimError):
    """A decider or chance object asked for something the rules do not allow."""


def face_of(draw: int):
    """A die draw 0..5 as its face: 1..5, or ``"S"``."""
    return SAB if draw == 5 else draw + 1


class SeededChance:
    """Chance for fresh games: stream 0 shuffles, stream 5 rolls and picks."""

    def __init__(self, key: int):
        self.shuffle_stream = PyStream(key, SHUFFLE_STREAM)
        self.table = PyStream(key, TABLE_STREAM)

    def shuffle(self, game, cards: list) -> list:
        return fisher_yates(cards, self.shuffle_stream)

    def roll(self, game, why: str):
        return face_of(self.table.below(6))

    def pick(self, game, size: int) -> int:
        return self.table.below(size)


class Game(Recording):
    """One game; ``play()`` runs it to the end and returns its :class:`Result`."""

    def __init__(self, players: int, rules: Rules, deck: Deck, chance, decider, *, seed=0, game_index=0,
                 strategies=(), record: bool = False, referee=None):
        rules.validate(players)
        self.n, self.rules, self.deck, self.chance, self.decider = players, rules, deck, chance, decider
        self.decisions = 0          # times a seat's strategy is asked (a lone option is not)
        self.seed, self.game_index, self.strategies = seed, game_index, list(strategies)
        self.record, self.referee = record or referee is not None, referee
        self.events: list[dict] = []
        self.money = [rules.start_money] * players
        self.saboteurs = [0] * players
        self.reserve = rules.saboteurs
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.cities = [City() for _ in range(players)]
        self.has_built = [False] * players
        self.stacks: dict[str, list[int]] = {OPEN_STACK: [], HIDDEN_STACK: []}   # top first
        self.public: set[int] = set()          # cards every seat has seen (open ones, built, shown)
        self.seen: list[set[int]] = [set() for _ in range(players)]   # cards each seat knows besides
        self.announced: set[int] = set()       # hidden cards whose type was announced
        self.turn_no = 0
        self.final_round = False
        zeros = [0] * players
        self.st = {c: list(zeros) for c in ("cards_won", "paid", "sales", "income", "insolvent", "penalty",
                                            "attacks", "destroyed", "kept_paid", "offer_paid",
                                            "saboteurs_taken", "cards_built")}
        self.g = {c: 0 for c in GAME_COLUMNS if c not in ("turns", "end_reason")}
        self.sales: list[tuple] = []
        self.placed: list = []
        self.in_auction: int | None = None     # the card being auctioned (for invariant checks)
        self.to_bank = 0                       # every Thaler paid to the bank (prices, penalties)
        # the bidding: each seat's last bid and whether it is still in (kept after the auction)
        self.last_bid = [0] * players
        self.active = [0] * players
        # the table's latest facts as a compiled strategy is shown them (KernelDecider): each
        # keeps its value until the rules next set it
        self.shown = dict.fromkeys(("on_turn", "triggered", "auctioneer", "stack", "card", "high",
                                    "high_seat", "announced", "attacker", "target", "pos", "offer",
                                    "placed", "need"), 0)
        self.shown["pos"] = None             # no building attacked yet
        self.pops = {OPEN_STACK: 0, HIDDEN_STACK: 0}   # cards taken off each stack

    # -------------------------------------------------------------- helpers
    def ask(self, seat: int, kind: str, options):
        """A decision with a choice (a lone option is taken without asking)."""
        options = tuple(options)
        if kind in S.AMOUNTS:
            low, high = options
            if kind != S.BID and low == high:
                return low
            choice = self.decider.decide(self, seat, kind, options)
            self.decisions += 1
            ok = type(choice) is int and (low <= choice <= high or (choice == 0 and kind in (S.BID, S.OFFER)))
        else:
            if len(options) == 1:
                return options[0]
            choice = self.decider.decide(self, seat, kind, options)
            self.decisions += 1
            ok = choice in options
        if not ok:
            raise RuleError(f"seat {seat} chose {choice!r} for {kind}, not one of {options}")
        return choice

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.n

    def knows(self, seat: int, card: int) -> bool:
        return card in self.public or card in self.seen[seat]

    def put_under(self, card: int, chooser: int) -> str:
        """Put ``card`` under the smaller stack (``chooser`` picks on equal sizes); it is shown to all."""
        a, b = len(self.stacks[OPEN_STACK]), len(self.stacks[HIDDEN_STACK])
        stack = OPEN_STACK if a < b else HIDDEN_STACK if b < a else self.ask(chooser, S.UNDER, STACKS)
        self.stacks[stack].append(card)
        self.public.add(card)
        return stack

    # -------------------------------------------------------------- setup
    def setup(self) -> None:
        order = self.chance.shuffle(self, list(range(1, self.deck.n + 1)))
        half = (len(order) + 1) // 2
        self.stacks[OPEN_STACK], self.stacks[HIDDEN_STACK] = order[:half], order[half:]
        self.emit("start", name=NAME, players=self.n, seed=self.seed, game=self.game_index,
                  rules=self.rules.as_dict(), strategies=self.strategies, cards=self.deck.rows(),
                  deck=list(order), money=list(self.money))

    # -------------------------------------------------------------- 1. income
    def income(self, seat: int) -> None:
        face = self.chance.roll(self, "income")
        coins = self.cities[seat].coins(self.deck)
        gain = coins + (0 if face == SAB else face)
        self.money[seat] += gain
        self.st["income"][seat] += gain
        took = None
        if face == SAB:
            if self.reserve > 0:
                self.reserve -= 1
                took = "reserve"
            else:
                holders = [s for s in range(self.n) if s != seat and self.saboteurs[s] > 0]
                if holders:
                    took = self.ask(seat, S.TAKE, holders)
                    self.saboteurs[took] -= 1
            if took is not None:
                self.saboteurs[seat] += 1
                self.st["saboteurs_taken"][seat] += 1
        self.emit("roll", seat=seat, face=face, income=gain, sab_from=took)

    # -------------------------------------------------------------- 2. auction
    def cap(self, seat: int) -> int:
        return min(self.rules.max_bid, self.money[seat]) if self.rules.forbid_overbid else self.rules.max_bid

    def auction(self, a: int) -> None:
        stacks = [s for s in STACKS if self.stacks[s]]
        if not stacks:
            raise RuleError("both stacks are empty at an auction")
        stack = self.ask(a, S.STACK, stacks)
        card = self.in_auction = self.stacks[stack].pop(0)
        self.pops[stack] += 1
        hidden = stack == HIDDEN_STACK
        if hidden:
            self.seen[a].add(card)
        else:
            self.public.add(card)
        self.g["auctions"] += 1
        self.g["hidden_auctions"] += hidden
        self.emit("auction", seat=a, stack=stack, card=card)
        self.shown.update(auctioneer=a, stack=STACKS.index(stack), card=card, announced=-1)
        self.last_bid, self.active = [0] * self.n, [1] * self.n
        if self.cap(a) < 1:                         # overbid=forbid and an empty purse: unsold at once
            self.unsold(card, a, [], stack)
            return
        opening = self.ask(a, S.OPEN, (1, self.cap(a)))
        self.emit("bid", seat=a, amount=opening)
        self.last_bid[a] = opening
        high, high_seat = opening, a
        self.shown.update(high=high, high_seat=a)
        announced = False
        at = a
        while True:
            if not any(self.active[s] and s != high_seat for s in range(self.n)):
                break
            at = self.left_of(at)
            while not self.active[at] or at == high_seat:
                at = self.left_of(at)
            if hidden and at == a and not announced:
                announced = True
                self.announced.add(card)
                self.shown["announced"] = self.deck.card(card).type
                self.g["announced"] += 1
                self.emit("announce_type", seat=a, type=TYPES[self.deck.card(card).type])
            low, top = high + 1, self.cap(at)
            amount = self.ask(at, S.BID, (low, top)) if low <= top else 0
            if amount:
                high, high_seat = amount, at
                self.last_bid[at] = amount
                self.shown.update(high=high, high_seat=at)
                self.g["max_bid_hits"] += amount == self.rules.max_bid
                self.emit("bid", seat=at, amount=amount)
            else:
                self.active[at] = 0
                self.emit("pass", seat=at)
        self.award(card, a, stack)

    def award(self, card: int, a: int, stack: str) -> None:
        """Down the chain of last bids, highest first, until someone can pay."""
        insolvent = []
        a_broke = False
        while any(self.last_bid):
            bid = max(self.last_bid)
            seat = self.last_bid.index(bid)
            self.last_bid[seat] = 0
            if self.money[seat] >= bid:
                self.money[seat] -= bid
                to_a = 0 if seat == a or a_broke else bid // 2
                self.money[a] += to_a
                self.to_bank += bid - to_a
                self.hands[seat].append(card)
                self.in_auction = None
                if stack == HIDDEN_STACK:
                    self.seen[seat].add(card)
                self.st["cards_won"][seat] += 1
                self.st["paid"][seat] += bid
                self.st["sales"][a] += to_a
                self.sales.append((self.turn_no, card, stack, seat, bid, a))
                kind = TYPES[self.deck.card(card).type]
                self.g[f"sold_{kind}"] += 1
                self.g[f"price_{kind}"] += bid
                self.emit("award", card=card, winner=seat, price=bid, to_bank=bid - to_a, to_auctioneer=to_a,
                          insolvent=insolvent, under=None)
                return
            penalty = self.money[seat]
            self.money[seat] = 0
            self.to_bank += penalty
            insolvent.append([seat, bid, penalty])
            self.st["insolvent"][seat] += 1
            self.st["penalty"][seat] += penalty
            self.g["insolvencies"] += 1
            a_broke = a_broke or seat == a
        self.unsold(card, a, insolvent, stack)

    def unsold(self, card: int, a: int, insolvent: list, stack: str) -> None:
        self.g["unsold"] += 1
        under = self.put_under(card, a)
        self.in_auction = None
        self.emit("award", card=card, winner=None, price=0, to_bank=0, to_auctioneer=0, insolvent=insolvent,
                  under=under)

    # -------------------------------------------------------------- 3. build or sabotage
    def min_build(self, seat: int) -> int:
        return 1 if self.has_built[seat] else self.rules.first_build_min

    def can_build(self, seat: int) -> bool:
        return self.cities[seat].can_place(self.deck, self.hands[seat], self.min_build(seat), self.final_round)

    def building_targets(self, seat: int) -> list[int]:
        rivals = [s for s in range(self.n) if s != seat and not self.cities[s].empty]
        if not rivals or self.rules.any_saboteur:
            return rivals
        least = min(self.cities[s].shields(self.deck) for s in rivals)
        return [s for s in rivals if self.cities[s].shields(self.deck) == least]

    def hand_targets(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if s != seat and len(self.hands[s]) >= self.rules.hand_sabotage_min]

    def step3(self, seat: int, final: bool = False) -> None:
        options = []
        if self.hands[seat] and self.can_build(seat):
            options.append("build")
        if not final and self.saboteurs[seat] > 0:
            if self.building_targets(seat):
                options.append("building")
            if self.hand_targets(seat):
                options.append("hand")
        options.append("nothing")
        action = self.ask(seat, S.ACTION, options)
        if action == "build":
            self.build(seat)
        elif action == "building":
            self.attack_building(seat)
        elif action == "hand":
            self.attack_hand(seat)
        else:
            self.emit("build", seat=seat, placed=[], row=self.cities[seat].row())

    def build(self, seat: int) -> None:
        city, hand, deck = self.cities[seat], self.hands[seat], self.deck
        need, most = self.min_build(seat), self.rules.max_cards_per_build
        placed = self.placed = []                    # the build so far (a replay reads its length)
        self.shown["need"] = need
        while len(placed) < most and hand:
            self.shown["placed"] = len(placed)
            rest = need - len(placed) - 1            # cards still owed after the next one
            options = []
            for c, p in city.legal_placements(deck, hand, self.final_round):
                after = city.copy()
                after.place(deck, c, p)
                if after.can_place(deck, [h for h in hand if h != c], rest, self.final_round):
                    options.append((c, p))
            if len(placed) >= need:
                options.append(S.STOP)
            if not options or options == [S.STOP]:
                break
            choice = self.ask(seat, S.PLACE, options)
            if choice == S.STOP:
                break
            c, p = choice
            city.place(deck, c, p)
            hand.remove(c)
            self.public.add(c)
            placed.append([p, c])
        if len(placed) < need:
            raise RuleError(f"seat {seat} built {len(placed)} cards, fewer than the {need} its build needs")
        self.has_built[seat] = True
        self.st["cards_built"][seat] += len(placed)
        self.emit("build", seat=seat, placed=placed, row=city.row())

    def use_saboteur(self, seat: int) -> None:
        self.saboteurs[seat] -= 1
        self.reserve += 1
        self.st["attacks"][seat] += 1

    def destroy(self, target: int, card: int, attacker: int) -> str:
        self.st["destroyed"][target] += 1
        self.g["cards_destroyed"] += 1
        return self.put_under(card, attacker)

    def attack_building(self, seat: int) -> None:
        self.use_saboteur(seat)
        self.g["building_attacks"] += 1
        self.shown["attacker"] = seat
        target = self.shown["target"] = self.ask(seat, S.TARGET, self.building_targets(seat))
        city = self.cities[target]
        pos = self.ask(seat, S.CARD, sorted(city.cards))
        self.shown["pos"] = pos
        card = city.cards[pos]
        value = self.deck.card(card).value
        offer, accepted, face, paid = None, None, None, 0
        if self.rules.any_saboteur:
            offer = self.ask(target, S.OFFER, (0, self.money[target])) if self.money[target] >= 1 else 0
            if offer:
                self.shown["offer"] = offer
            accepted = bool(offer) and self.ask(seat, S.ACCEPT, ("accept", "refuse")) == "accept"
            if accepted:
                outcome, paid = "bought_off", offer
                self.st["offer_paid"][target] += offer
            else:
                face = self.chance.roll(self, "attack")
                shields = city.shields(self.deck)
                outcome = "destroyed" if face == SAB or face > shields else "failed"
        else:
            face = self.chance.roll(self, "attack")
            if face == SAB:
                outcome = "destroyed"
            elif face <= 2:
                outcome = "failed"
            elif self.money[target] >= value and self.ask(target, S.KEEP, ("keep", "lose")) == "keep":
                outcome, paid = "kept", value
                self.st["kept_paid"][target] += value
            else:
                outcome = "destroyed"
        self.money[target] -= paid
        self.money[seat] += paid
        under = None
        if outcome == "destroyed":
            city.remove(pos)
            under = self.destroy(target, card, seat)
        self.emit("sabotage", seat=seat, target=target, kind="building", card=card, index=None, pos=pos,
                  offer=offer, accepted=accepted, roll=face, outcome=outcome, paid=paid, under=under,
                  row=city.row())

    def attack_hand(self, seat: int) -> None:
        self.use_saboteur(seat)
        self.g["hand_attacks"] += 1
        self.shown["attacker"] = seat
        target = self.shown["target"] = self.ask(seat, S.TARGET, self.hand_targets(seat))
        hand = sorted(self.hands[target])
        index = self.chance.pick(self, len(hand))
        card = hand[index]
        self.hands[target].remove(card)
        under = self.destroy(target, card, seat)
        self.emit("sabotage", seat=seat, target=target, kind="hand", card=card, index=index, pos=None,
                  offer=None, accepted=None, roll=None, outcome="destroyed", paid=0, under=under,
                  row=self.cities[target].row())

    # -------------------------------------------------------------- the game
    def play(self) -> Result:
        self.setup()
        seat, reason = 0, None
        while reason is None:
            self.turn_no += 1
            self.shown["on_turn"] = seat
            self.emit("turn", seat=seat, turn=self.turn_no)
            self.income(seat)
            self.auction(seat)
            triggered = not self.stacks[OPEN_STACK] or not self.stacks[HIDDEN_STACK]
            self.shown["triggered"] = int(triggered)
            self.step3(seat)
            if triggered:
                reason = "stack_empty"
            elif self.turn_no >= self.rules.max_turns:
                reason = "max_turns"
            else:
                seat = self.left_of(seat)
        order = [(seat + k) % self.n for k in range(1, self.n + 1)]
        self.final_round = True
        self.emit("final_round", seat=seat, reason=reason, order=order)
        for s in order:
            self.shown["on_turn"] = s
            self.step3(s, final=True)
        return self.finish(reason)

    def finish(self, reason: str) -> Result:
        scores = [city.score(self.deck, self.rules) for city in self.cities]
        hand = [sum(self.deck.card(c).value for c in h) for h in self.hands]
        totals = [sc["built"] + sc["middle"] + sc["churches"] + sc["corners"] - hand[s]
                  for s, sc in enumerate(scores)]
        places = places_of(totals)
        self.emit("end", built=[sc["built"] for sc in scores], complete=[sc["complete"] for sc in scores],
                  middle=[sc["middle"] for sc in scores], churches=[sc["churches"] for sc in scores],
                  corners=[sc["corners"] for sc in scores], hand=hand, total=totals, places=places,
                  money=list(self.money))
        seat = {"total": totals, "place": places, "hand": hand, "money": list(self.money),
                **{k: [sc[k] for sc in scores] for k in ("built", "middle", "churches", "corners")},
                "complete": [int(sc["complete"]) for sc in scores], **self.st}
        game = {"turns": self.turn_no, "end_reason": reason, **self.g}
        return Result(self.n, seat, game, self.sales, self.events, self.decisions)


def play_game(players: int, rules: Rules, strategies: list[str], seed: int, game_index: int,
              deck: Deck | None = None, record: bool = False) -> Result:
    """Game ``game_index`` of ``seed`` played by the reference strategies named."""
    if len(strategies) != players:
        raise ValueError(f"{players} players need {players} strategies, got {len(strategies)}")
    key = game_key(seed, game_index)
    deck = deck or default_deck()
    decider = S.StrategyDecider([S.make_strategy(name, key, s) for s, name in enumerate(strategies)])
    game = Game(players, rules, deck, SeededChance(key), decider, seed=seed, game_index=game_index,
                strategies=list(strategies), record=record)
    return game.play()
