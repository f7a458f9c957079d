"""Hol's der Geier's game object: what zsim's harness needs, imported lazily.

zsim finds it through the entry point ``geier = "zsim_geier.game"`` of the
group ``zsim.games`` (``pyproject.toml``); importing this module imports no
numba kernel: each method imports the modules it needs.
"""
from __future__ import annotations

from zsim.games.base import Column, PackagedGame, StrategyContract, SummaryColumn
from zsim_geier import constants as K
from zsim_geier.rules import MAX_PLAYERS, MIN_PLAYERS, RULE_SPECS

_MEANINGS = {
    "score": "the values of the prizes taken, summed", "place": "1 = best; ties share and skip the next",
    "prizes": "prize cards taken", "mice": "points of the positive prizes taken",
    "vultures": "points of the vulture cards taken (0 or less)", "tables": "times the seat took the table",
    "cancelled": "its bids cancelled by a tie",
    "carries": "rounds whose fully tied table stayed for the next card",
    "tied_rounds": "rounds with at least one cancelled bid",
    "discarded": "prize cards discarded (tied without carry_over, or left after the last round)",
    "discarded_points": "the discarded prizes' values, summed",
    "biggest_table": "the most prize cards taken at once",
}


class Geier(PackagedGame):
    name = "geier"
    package = "zsim_geier"
    title = "Hol's der Geier"
    description = "sealed bids for mice and vultures: ties cancel, the highest lone bid takes a mouse"
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 4
    rule_specs = RULE_SPECS
    strategies = StrategyContract(
        # No package of built-ins: every strategy is an entry point of the group
        # zsim.strategies.geier (this package's own included), since zsim puts the
        # entry points' source files into the kernel cache's digest, and of a
        # plugged-in game's package only the folder of its game module.
        package="",
        kernels=(("bid_nb", "seat, params, hands, won, deck, pub, rules, rng"),),
        default="matcher",
        doc="bid_nb(seat, params, hands, won, deck, pub, rules, rng) -> a bid card b of hands[seat] "
            "(bit b set). Every hand and every prize taken is public (each bid is shown); a fair "
            "strategy never reads deck (the order of the prizes to come: pub[PUB_LEFT] is their set) "
            "and draws only from stream 1 + seat. The round's other bids are not among the arguments.")
    score = "score"
    score_label = "points"
    seat_columns = tuple(Column(n, _MEANINGS[n]) for n in K.SEAT_COLUMNS)
    game_columns = tuple(Column(n, _MEANINGS[n]) for n in K.GAME_COLUMNS if n != "illegal")
    summary_columns = (
        SummaryColumn("prizes", "prizes", "mean", "prize cards taken per game"),
        SummaryColumn("mice", "mice", "mean", "points of mice taken per game"),
        SummaryColumn("vultures", "vultures", "mean", "points of vultures taken per game"),
        SummaryColumn("tables", "tables", "mean", "tables taken per game"),
        SummaryColumn("cancelled", "cancelled", "mean", "bids cancelled by ties per game"),
    )
    illegal_column = K.G_ILLEGAL
    reference_strategies = ("random", "matcher", "greedy")
    n_seat_stats = K.N_SEAT_STATS
    n_game_stats = K.N_GAME_STATS
    #: the module of the game's analyses and report specs (zsim's analyses registry)
    analyses = "zsim_geier.analyses.specs"
    #: the game one decision at a time (zsim/harness/forward.py): search and stepping
    forward = "zsim_geier.forward_nb"

    def describe_setup(self, matchup) -> str:
        r = matchup.rules
        return (f"prizes -{r.vultures}..-1 and 1..{r.top_prize}"
                f"{'' if r.carry_over else ', ties discarded'}")

    # -------------------------------------------------------------- the engine
    def play_chunk_into(self, matchup, seed, first, n, ids, params, seat_out, game_out, block, roster) -> None:
        from zsim_geier.batch import play_into
        play_into(matchup.rules, seed, first, n, ids, params, seat_out, game_out, block, roster=roster)

    # -------------------------------------------------------------- records and the reference engine
    def reference_game(self, matchup, seed: int, game: int, record: bool = False):
        """The reference engine's game; its own bots play where every seat is one of
        :attr:`reference_strategies`, else the registered kernels decide (KernelDecider)."""
        from zsim.rng import game_key
        from zsim.strategy_registry import parse_one, spec_values
        from zsim_geier.reference_kernels import play_reference_game
        from zsim_geier.reference import Game, SeededChance
        from zsim_geier.reference_bots import BotDecider, make_bot

        seats = [spec_values(s, self.name) for s in matchup.strategies]
        if not all(info.name in self.reference_strategies for info, _ in seats):
            return play_reference_game(matchup.players, matchup.rules, list(matchup.strategies), seed, game,
                                       record=record, compile_for=matchup.compile_for)
        key = game_key(seed, game)
        bots = [make_bot(info.name, key, s, values) for s, (info, values) in enumerate(seats)]
        return Game(matchup.players, matchup.rules, SeededChance(key), BotDecider(bots), seed=seed,
                    game_index=game, strategies=[parse_one(s, self.name) for s in matchup.strategies],
                    record=record).play()


GAME = Geier()
