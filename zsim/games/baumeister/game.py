"""Wettstreit der Baumeister's game object: what the harness needs, imported lazily."""
from __future__ import annotations



from zsim.games.base import Column, MainRule, PackagedGame, StrategyContract, SummaryColumn
from zsim.games.baumeister import constants as K
from zsim.games.baumeister.rules import MAX_PLAYERS, MIN_PLAYERS, RULE_SPECS

_MEANINGS = {
    "total": "score: built values and bonuses less the hand", "place": "1 = best; ties share and skip the next",
    "built": "values of the built cards", "complete": "1 if the city is complete",
    "middle": "bonus: town hall in the middle", "churches": "bonus: equal churches either side",
    "corners": "bonus: corner towers of one value", "hand": "values left in hand (subtracted)",
    "money": "Thaler at the end (worth nothing)", "cards_won": "cards bought at auction",
    "paid": "Thaler paid for cards", "sales": "Thaler received as auctioneer",
    "income": "Thaler from income rolls and gates", "insolvent": "times insolvent",
    "penalty": "Thaler lost to insolvency", "attacks": "saboteurs sent", "destroyed": "own cards destroyed",
    "kept_paid": "paid to keep attacked cards", "offer_paid": "paid in accepted offers (saboteur=any)",
    "saboteurs_taken": "saboteurs taken on S rolls", "cards_built": "cards built",
    "turns": "normal turns", "end_reason": "stack_empty or max_turns", "auctions": "auctions held",
    "hidden_auctions": "auctions of a hidden card", "unsold": "cards nobody paid for",
    "insolvencies": "insolvent winners", "max_bid_hits": "bids of max_bid", "announced": "hidden types announced",
    "building_attacks": "attacks on a building", "hand_attacks": "attacks on a hand",
    "cards_destroyed": "cards destroyed",
}


def _meaning(name: str) -> str:
    if name.startswith("sold_"):
        return f"{name[5:].replace('_', ' ')} cards sold"
    if name.startswith("price_"):
        return f"Thaler paid for {name[6:].replace('_', ' ')} cards"
    return _MEANINGS.get(name, name)


class Baumeister(PackagedGame):
    name = "baumeister"
    analyses = "analyses.baumeister.specs"
    package = "zsim.games.baumeister"
    forward = "zsim.games.baumeister.forward_nb"
    title = "Wettstreit der Baumeister"
    description = "auctions, city building and saboteurs: buy cards, build a complete city, score the most"
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 4
    rule_specs = RULE_SPECS
    strategies = StrategyContract(
        package="strategies.baumeister",
        kernels=(("decide_nb", "seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, "
                               "rng"),),
        default="first",
        best_bot="budget",       # the tournament's winner at 2, 3 and 4 players (reports/baumeister)
        rollout="builder",
        horizon=40,
        widen=2,
        strong="",
        strong_note="Baumeister's search does not yet beat its best bot, builder (docs/strategies.md)",
        doc="decide_nb(seat, kind, opts, n, params, loc, known, rows, city, st, pub, deck, rules, rng) -> an "
            "index into opts[:n], or an amount for an opening bid, a raise (0 passes) or an offer (0: none). "
            "A fair strategy reads loc[c] only where known[seat, c] is 1, and draws only from stream 1 + seat.")
    score = "total"
    score_label = "score"
    seat_columns = tuple(Column(n, _meaning(n)) for n in K.SEAT_COLUMNS)
    game_columns = tuple(Column(n, _meaning(n)) for n in K.GAME_COLUMNS if n != "illegal")
    categories = {"end_reason": K.END_REASONS[:2]}
    summary_columns = (
        SummaryColumn("built", "built", "mean", "built values per game"),
        SummaryColumn("complete_share", "complete", "share", "share of games with a complete city"),
        SummaryColumn("hand", "hand", "mean", "hand penalty per game"),
        SummaryColumn("paid", "paid", "mean", "Thaler paid for cards per game"),
        SummaryColumn("sales", "sales", "mean", "Thaler earned as auctioneer per game"),
        SummaryColumn("insolvent", "insolvent", "mean", "insolvencies per game"),
    )
    knockout = "insolvent"
    knockout_label = "games with an insolvency"
    main_rules = (MainRule("start_money=6..14:2"), MainRule("saboteurs=0..8"), MainRule("saboteur=weakest,any"),
                  MainRule("overbid=allow,forbid"))
    has_deck = True
    illegal_column = K.G_ILLEGAL
    reference_strategies = ("first", "random")
    n_seat_stats = K.N_SEAT_STATS
    n_game_stats = K.N_GAME_STATS

    # -------------------------------------------------------------- rules and cards
    def manifest_extras(self, matchup) -> dict:
        return {"deck": {"name": matchup.deck.name, "needs": matchup.deck.rows()}}

    def describe_setup(self, matchup) -> str:
        return f"cards {matchup.deck.name}"

    # -------------------------------------------------------------- the engine
    def play_chunk_into(self, matchup, seed, first, n, ids, params, seat_out, game_out, block, roster) -> None:
        from zsim.games.baumeister.batch import play_into
        play_into(matchup.rules, matchup.deck, seed, first, n, ids, params, seat_out, game_out, block,
                  roster=roster)

    # -------------------------------------------------------------- the reference engine
    def reference_game(self, matchup, seed: int, game: int, record: bool = False):
        """The reference engine's game; its own Python strategies play where every seat is one of
        :attr:`reference_strategies` (and no record is asked for), else the registered kernels
        decide (KernelDecider)."""
        from zsim.games.baumeister.reference_kernels import play_reference_game
        from zsim.games.baumeister.reference import play_game

        if not record and all(s in self.reference_strategies for s in matchup.strategies):
            return play_game(matchup.players, matchup.rules, list(matchup.strategies), seed, game, matchup.deck)
        return play_reference_game(matchup.players, matchup.rules, matchup.deck, list(matchup.strategies),
                                   seed, game, record=record)


GAME = Baumeister()
