"""A game at the table, one decision at a time: people in some seats, bots in
the others. ``zsim play`` and its tests drive it; it knows no game by name.

The game is the one zsim plays for (matchup, run seed, game number): the
same deal, the bots asked exactly as the batch engine asks them, so a game
played here and a game the bots played from the same seed differ only in
the people's decisions. A person's decision is one of the forward model's
options, checked before it is played; every decision is kept (the game's
*script*, which a win-probability trace replays) with the bot answer that
chooses it (which writes the game's record through a tape).

A hint is the search's view of the pending decision: ``ismcts`` (or any
search spec) from the deciding seat's own information, with a budget in
iterations (a count, never a clock) and a seed drawn from the game and the
decision, so the same hint comes back for the same position.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from zsim.errors import ZsimError
from zsim.rng import game_key, stream_start

#: the streams of the hints' searches: past the game's, the searches' and the traces'
HINT_STREAM = 1 << 25


@dataclass(frozen=True)
class Pending:
    """The decision waiting: whose (-1 at the end), its kind, its sealed round
    (0: the others see it as it is made) and its options as codes."""
    seat: int
    kind: str
    sealed: int
    options: tuple[int, ...]


@dataclass(frozen=True)
class Move:
    """A decision made at the table, as a seat watching it may be told: whose,
    its kind, the option, and its words (None where the watcher cannot tell
    which option it was)."""
    seat: int
    kind: str
    option: int
    text: str | None


@dataclass(frozen=True)
class Hint:
    """The search's answer at a position: its choice and, per option in the
    model's order, the option, its text, its visits and its mean share of
    first place (the search's estimate of the chance of winning with it)."""
    choice: int
    options: tuple[int, ...]
    texts: tuple[str, ...]
    visits: tuple[int, ...]
    values: tuple[float, ...]


def check_hint(hint: str, game: str) -> str:
    """The search spec a hint asks, checked: a fair search of ``game``."""
    from zsim.strategy_registry import parse_one, spec_values

    spec = parse_one(hint, game)
    info, _ = spec_values(spec, game)
    if info.search < 0:
        raise ZsimError(f"--hint {hint} is not a search; a hint needs one (e.g. ismcts)")
    if not info.fair:
        raise ZsimError(f"--hint {hint} reads hidden cards: a hint must be fair")
    return spec


class Table:
    """One game of ``matchup`` (its bots in every seat not in ``people``; a
    person's seat holds the game's default strategy, which a trace continues
    it with), dealt as game ``game`` of ``seed``. ``hint`` is the search spec
    a hint asks."""

    def __init__(self, matchup, seed: int, game: int = 0, people=(0,), hint: str = "ismcts"):
        from zsim.harness.stepping import SearchSetup
        from zsim.harness.table_nb import start_nb
        from zsim.strategy_registry import strategy_arrays

        self.matchup, self.seed, self.game = matchup, int(seed), int(game)
        self.people = tuple(sorted({int(s) for s in people}))
        for s in self.people:
            if not 0 <= s < matchup.players:
                raise ZsimError(f"--seat {s} is not a seat of a {matchup.players}-player game (0..{matchup.players - 1})")
        hint_spec = check_hint(hint, matchup.game)
        specs = [hint_spec if s in self.people else spec for s, spec in enumerate(matchup.strategies)]
        _, params = strategy_arrays(matchup.game, specs)
        self.setup = SearchSetup(matchup, specs, params.shape[1])
        self.model = self.setup.model
        self.ws = self.setup.workspace()
        self.pos = np.zeros(self.setup.words, np.int64)
        self._opts = np.zeros(self.model.MAX_OPTIONS, np.int64)
        self._out = np.zeros(4, np.int64)
        self.key = game_key(self.seed, self.game)
        self.script: list[tuple[int, int, int]] = []      # (seat, kind, option) per decision
        self.answers: list[int] = []                       # the bot answer that chose each
        start_nb(self.setup.roster, np.uint64(self.key), matchup.players, self.setup.consts, self.ws[0], self.pos)

    # ------------------------------------------------------------ the decision waiting
    def pending(self) -> Pending:
        from zsim.harness.table_nb import pending_nb

        pending_nb(self.setup.roster, self.pos, self.setup.consts, self._opts, self._out)
        seat, kind, sealed, n = (int(v) for v in self._out)
        return Pending(seat, self.model.KINDS[kind] if seat >= 0 else "", sealed,
                       tuple(int(o) for o in self._opts[:n]))

    @property
    def over(self) -> bool:
        return self.pending().seat < 0

    def text(self, kind: str, option: int) -> str:
        return self.model.option_text(self.model.KINDS.index(kind), int(option))

    def play(self, option: int) -> None:
        """Play ``option`` for the pending decision; one line if the game is over
        or the option is not among the legal ones."""
        from zsim.harness.table_nb import play_nb

        p = self.pending()
        if p.seat < 0:
            raise ZsimError("the game is over: no decision is waiting")
        if int(option) not in p.options:
            raise ZsimError(f"{option} is not a legal option here ({', '.join(map(str, p.options))})")
        answer = play_nb(self.setup.roster, self.pos, np.int64(option), self.setup.consts, self.ws[0])
        self.script.append((p.seat, self.model.KINDS.index(p.kind), int(option)))
        self.answers.append(int(answer))

    def bot_option(self) -> int:
        """What the pending seat's bot answers (the seat must be a bot's)."""
        from zsim.harness.table_nb import bot_nb

        p = self.pending()
        if p.seat < 0 or p.seat in self.people:
            raise ZsimError("no bot's decision is waiting")
        return int(bot_nb(self.setup.roster, self.setup.bot_ids, self.setup.bot_params, self.pos,
                          self.setup.consts))

    def run_bots(self, observer: int | None = None) -> list[Move]:
        """Play the bots' decisions until a person decides or the game ends;
        each as a :class:`Move`, its option shown only where ``observer``
        (default: the first person) can tell it from the others."""
        done = []
        if observer is None:
            observer = self.people[0] if self.people else -1
        while True:
            p = self.pending()
            if p.seat < 0 or p.seat in self.people:
                return done
            option = self.bot_option()
            shown = observer < 0 or self.told_apart(option, observer)
            self.play(option)
            done.append(Move(p.seat, p.kind, option, self.text(p.kind, option) if shown else None))

    def told_apart(self, option: int, seat: int) -> bool:
        """Whether ``seat`` can tell ``option`` from every other option of the
        pending decision by what it knows once it is played: a sealed bid,
        a card put down face down, a hidden card chosen from a hand cannot
        be, and a narration must not name them."""
        from zsim.harness.table_nb import view_after_nb

        p = self.pending()
        if p.seat == seat:
            return True
        work = np.zeros_like(self.pos)
        out = np.zeros(4 * self.setup.words + 64, np.int64)
        other = np.zeros_like(out)
        n = view_after_nb(self.setup.roster, self.pos, np.int64(option), int(seat), self.setup.consts, self.ws[0],
                          work, out)
        for alt in p.options:
            if alt == option:
                continue
            m = view_after_nb(self.setup.roster, self.pos, np.int64(alt), int(seat), self.setup.consts, self.ws[0],
                              work, other)
            if m == n and np.array_equal(out[:n], other[:m]):
                return False
        return True

    # ------------------------------------------------------------ what a seat knows
    def view(self, seat: int) -> np.ndarray:
        """What ``seat`` knows of the position, as the forward model's numbers."""
        from zsim.harness.table_nb import view_nb

        out = np.zeros(4 * self.setup.words + 64, np.int64)
        n = view_nb(self.setup.roster, self.pos, int(seat), out)
        return out[:n].copy()

    def describe(self, seat: int, pos: np.ndarray | None = None):
        """What ``seat`` sees, in words (``zsim.seat_view``; -1: every hand, a
        spectator's view); None for a game whose model cannot say."""
        describe = getattr(self.model, "describe", None)
        if describe is None:
            return None
        return describe(self.pos if pos is None else pos, int(seat), self.matchup)

    def determinized(self, seat: int, draw: int) -> np.ndarray:
        """A position ``seat`` cannot tell from this one (draw number ``draw``):
        what the tests hold a view in words to."""
        from zsim.harness.table_nb import determinize_nb

        out = np.zeros_like(self.pos)
        rng = np.array([stream_start(self.key, HINT_STREAM + (1 << 20) + int(draw))], np.uint64)
        determinize_nb(self.setup.roster, self.pos, int(seat), rng, out, self.setup.consts, self.ws[0])
        return out

    def hint(self, iterations: int = 256) -> Hint:
        """The search's choice for the person whose decision is waiting, and its
        estimate of each option, from that seat's view alone."""
        from zsim.harness.table_nb import search_root_nb

        p = self.pending()
        if p.seat < 0:
            raise ZsimError("the game is over: no decision is waiting")
        if not 1 <= int(iterations) <= 1 << 20:
            raise ZsimError(f"a hint's iterations must be 1..{1 << 20}, got {iterations}")
        s = self.setup
        seat = p.seat
        if s.modes[seat] < 0:
            raise ZsimError(f"seat {seat} is a bot's: hints are for a person's decisions")
        from zsim.harness.search_nb import new_tree, tree_capacity

        tree = new_tree(tree_capacity(int(iterations)), s.words, self.model.MAX_OPTIONS, self.matchup.players)
        stats = np.zeros((self.model.MAX_OPTIONS, 3))
        seed = np.uint64(stream_start(self.key, HINT_STREAM + len(self.script)))
        choice, k = search_root_nb(s.roster, self.pos, seed, s.modes[seat], np.int64(iterations),
                                   np.int64(s.search[seat, 1]), s.search[seat, 2], np.int64(s.search[seat, 3]),
                                   np.int64(s.search[seat, 4]), s.rollout_ids[seat], s.rollout_params[seat],
                                   s.consts, self.ws[0], tree, stats)
        k = int(k)
        options = tuple(int(o) for o in stats[:k, 0])
        return Hint(int(choice), options, tuple(self.text(p.kind, o) for o in options),
                    tuple(int(v) for v in stats[:k, 1]), tuple(float(v) for v in stats[:k, 2]))

    # ------------------------------------------------------------ the end
    def places(self) -> list[int]:
        """Each seat's place at the end (1 best, ties share)."""
        from zsim.harness.table_nb import rows_nb

        if not self.over:
            raise ZsimError("the game is not over yet")
        g = self.matchup.spec
        seat_out = np.zeros((self.matchup.players, g.n_seat_stats), np.int64)
        game_out = np.zeros(g.n_game_stats, np.int64)
        rows_nb(self.setup.roster, self.pos, seat_out, game_out)
        return seat_out[:, g.seat_index("place")].tolist()

    def record(self) -> list[dict]:
        """The game's record in its own format (TRACE.md), written by the game's
        record writer with each person's answers on a tape, as a searched
        game's is; the start line names ``person`` in a person's seat and
        keeps the script (seat, kind, option per decision) for the traces."""
        from zsim.harness.search_records import written

        if not self.over:
            raise ZsimError("the game is not over yet: its record is written at the end")
        decisions = np.zeros((len(self.script), 6), np.int64)
        for k, ((seat, kind, option), answer) in enumerate(zip(self.script, self.answers)):
            decisions[k] = (seat, kind, 0, option, 0, answer)
        modes = np.full(self.matchup.players, -1, np.int64)
        modes[list(self.people)] = 0
        events = written(self.matchup, self.seed, self.game, decisions, modes)
        places = next((e["places"] for e in reversed(events) if "places" in e), None)
        if places is not None and list(places) != self.places():
            raise ZsimError("the record does not end as the game at the table did: a forward model bug")
        if events:
            strategies = list(events[0].get("strategies") or self.matchup.strategies)
            for s in self.people:
                strategies[s] = "person"
            events[0]["strategies"] = strategies
            events[0]["script"] = [list(row) for row in self.script]
        return events

    def script_array(self) -> np.ndarray:
        """The decisions so far as (seat, kind, option) rows: what a trace replays."""
        return np.asarray(self.script, np.int64).reshape(-1, 3)
