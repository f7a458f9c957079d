"""Zahlemann & Söhne's game object: what the harness needs, imported lazily."""
from __future__ import annotations



from zsim.games.base import Column, MainRule, PackagedGame, StrategyContract, SummaryColumn
from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.rules import MAX_PLAYERS, MIN_PLAYERS, RULE_SPECS
from zsim.strategy import Param

_MEANINGS = {
    "total": "value of the final money", "place": "1 = best; ties share and skip the next",
    "rounds_won": "rounds won", "paid": "payments made (value handed over less change)",
    "received": "payments received as a round's winner", "bankrupt": "1 if bankrupt",
    "cards_played": "cards played", "cards_drawn": "cards drawn (every reason)",
    "penalty_draws": "penalty cards drawn", "forgotten": "announcements forgotten",
    "noticed": "forgotten announcements noticed",
    "shortfall": "lost as a payer because no change was made",
    "rounds": "rounds played, void ones included", "void_rounds": "void rounds",
    "turns": "turns, skipped ones included", "reshuffles": "discards shuffled into a new draw pile",
    "end_reason": "bankrupt or round_cap", "change_shortfall": "the seats' shortfalls summed",
    "bonus_plays": "bonus plays after a 1 (one_plays_again)",
    "skips": "skipped turns (fifty_skips)", "hand_passes": "hand passes (two_passes_hands)",
}


def _meaning(name: str) -> str:
    if name.startswith("coins_"):
        return f"final coins of {name[6:]}"
    if name.startswith("bank_"):
        return f"the bank's net change in coins of {name[5:]} (change=bank)"
    return _MEANINGS.get(name, name)


class Zahlemann(PackagedGame):
    name = "zahlemann"
    analyses = "analyses.zahlemann.specs"
    package = "zsim.games.zahlemann"
    forward = "zsim.games.zahlemann.forward_nb"
    title = "Zahlemann & Söhne"
    description = "a shedding game: match the top card by value or colour; the others pay their hand in coins"
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 4
    rule_specs = RULE_SPECS
    strategies = StrategyContract(
        package="strategies.zahlemann",
        kernels=(("decide_nb", "seat, kind, options, params, hands, passed, discards, money, pub, "
                               "rules, rng"),),
        default="shedder",
        best_bot="counter",
        common_params=(Param("forget", 0.0, 0.0, 1.0, "chance of forgetting to announce 'Zahlemann'"),),
        doc="decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng) "
            "-> a card of the options bitmask, or -1 (keep a drawn match / stop a bonus). A fair "
            "strategy reads only hands[seat] and passed[seat] of the hidden facts, and draws only "
            "from stream 1 + seat.")
    score = "total"
    score_label = "money"
    seat_columns = tuple(Column(n, _meaning(n)) for n in K.SEAT_COLUMNS)
    game_columns = tuple(Column(n, _meaning(n)) for n in K.GAME_COLUMNS if n != "illegal")
    categories = {"end_reason": K.END_REASONS[:2]}
    summary_columns = (
        SummaryColumn("rounds_won", "rounds_won", "mean", "rounds won per game"),
        SummaryColumn("paid", "paid", "mean", "paid per game"),
        SummaryColumn("received", "received", "mean", "received per game"),
        SummaryColumn("bankrupt_share", "bankrupt", "share", "share of games the seat went bankrupt"),
        SummaryColumn("penalty_draws", "penalty_draws", "mean", "penalty cards per game"),
        SummaryColumn("shortfall", "shortfall", "mean", "lost to missing change per game"),
    )
    knockout = "bankrupt"
    knockout_label = "games with a bankruptcy"
    main_rules = (MainRule("hand_size=3..8"), MainRule("change=receiver,none,bank"))
    illegal_column = K.G_ILLEGAL
    reference_strategies = ("first", "random")
    n_seat_stats = K.N_SEAT_STATS
    n_game_stats = K.N_GAME_STATS

    # -------------------------------------------------------------- rules
    # -------------------------------------------------------------- the engine
    def play_chunk_into(self, matchup, seed, first, n, ids, params, seat_out, game_out, block, roster) -> None:
        from zsim.games.zahlemann.batch import play_into
        play_into(matchup.rules, seed, first, n, ids, params, seat_out, game_out, block, roster=roster)

    # -------------------------------------------------------------- the reference engine
    def reference_game(self, matchup, seed: int, game: int, record: bool = False):
        """The reference engine's game; its own Python strategies play where every seat is one of
        :attr:`reference_strategies` (and no record is asked for), else the registered kernels
        decide (KernelDecider)."""
        from zsim.games.zahlemann.reference_kernels import play_reference_game
        from zsim.games.zahlemann.reference import play_game
        from zsim.strategy_registry import spec_values

        seats = [spec_values(s, self.name) for s in matchup.strategies]
        if not record and all(info.name in self.reference_strategies and len(v) == 1 for info, v in seats):
            return play_game(matchup.players, matchup.rules, [info.name for info, _ in seats], seed, game,
                             forget=[v[0] for _, v in seats])
        return play_reference_game(matchup.players, matchup.rules, list(matchup.strategies), seed, game,
                                   record=record)


GAME = Zahlemann()
