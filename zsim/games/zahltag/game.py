"""Zahltag's game object: what the harness needs, imported lazily."""
from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

from zsim.games.base import Column, Game, MainRule, PackagedGame, StrategyContract, SummaryColumn
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.rules import RULE_SPECS

_ARGS = "seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng"

BID_COLUMNS = tuple(f"bids_{b}" for b in range(1, K.BID_BINS)) + (f"bids_{K.BID_BINS}plus",)


class Zahltag(PackagedGame):
    name = "zahltag"
    package = "zsim.games.zahltag"
    deck_module = "deck"
    analyses = "analyses.zahltag.specs"
    forward = "zsim.games.zahltag.forward_nb"
    title = "Zahltag"
    description = "firms bid for jobs with hidden offer cards and pay their idle workers at every payday"
    min_players, max_players, default_players = K.MIN_PLAYERS, K.MAX_PLAYERS, 4
    rule_specs = RULE_SPECS
    strategies = StrategyContract(
        package="strategies.zahltag",
        kernels=(("adjust_nb", _ARGS), ("bid_nb", "seat, need, " + _ARGS[len("seat, "):])),
        default="simple",
        best_bot="undercut",
        doc="adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng) "
            "-> an adjustment code; bid_nb(seat, need, params, ...) -> 0 (pass) or 1..max_bid. "
            "A fair strategy reads only its own row of hand, public facts and its own stream 1 + seat.",
        older_groups=("zsim.strategies",))   # the group of Zahltag's plugins before zsim had a second game
    score = "money"
    seat_columns = (
        Column("money", "final money"),
        Column("place", "1 = best; tied seats share a place"),
        Column("jobs_won", "jobs awarded (a tie counts for every tied winner)"),
        Column("job_income", "net money from awards"),
        Column("payday_paid", "money paid at paydays"),
        Column("penalty_paid", "cap penalties paid (over_cap=penalize)"),
        Column("penalty_received", "cap penalties received"),
        Column("eliminated", "0 = survived, else the elimination's number"),
        Column("bids", "jobs this seat bid on"),
        Column("idle_at_payday", "cards counted at the executed paydays"),
        Column("final_cards", "worker cards owned at the end"),
        Column("final_table", "of them on the table"),
        Column("bid_sum", "sum of the bids made"),
    ) + tuple(Column(name, "bids of this size") for name in BID_COLUMNS)
    game_columns = (
        Column("turns", "turns taken"),
        Column("paydays", "paydays executed"),
        Column("jobs_revealed", "job cards revealed"),
        Column("jobs_no_bid", "jobs everybody passed"),
        Column("jobs_one_bid", "jobs with one bidder"),
        Column("jobs_tied", "jobs won by a tie"),
        Column("end_reason", "fifth_payday or last_player"),
        Column("eliminations", "seats eliminated"),
        Column("reshuffles", "shuffles after the setup shuffle"),
        Column("lead_changes", "times the sole money leader changed"),
    )
    categories = {"end_reason": K.END_REASONS}
    summary_columns = (
        SummaryColumn("jobs_won", "jobs_won", "mean", "jobs won per game"),
        SummaryColumn("job_income", "job_income", "mean", "net money from awards per game"),
        SummaryColumn("payday_paid", "payday_paid", "mean", "money paid at paydays per game"),
        SummaryColumn("eliminated_share", "eliminated", "share", "share of games the seat was eliminated"),
    )
    knockout = "eliminated"
    knockout_label = "games with an elimination"
    main_rules = (MainRule("payday_cost=0..3"), MainRule("paydays_to_end=3..6"),
                  MainRule("forced_payday_jobs=5..13:2", (3, 4)), MainRule("forced_payday_jobs_2p=4..12:2", (2,)),
                  MainRule("start_money=10..30:5"), MainRule("payday_counts_table=false,true"))
    has_deck = True
    illegal_column = K.G_ILLEGAL
    reference_strategies = ("random", "simple")

    # -------------------------------------------------------------- rules and data (rules, deck: the base's)
    def check(self, matchup) -> None:
        matchup.rules.validate(matchup.players)
        matchup.deck.check_supply(matchup.rules.supply)

    def manifest_extras(self, matchup) -> dict:
        return {"deck": {"name": matchup.deck.name, "needs": matchup.deck.needs.tolist()}}

    def describe_setup(self, matchup) -> str:
        return f"deck {matchup.deck.name}"

    # -------------------------------------------------------------- the engine
    n_seat_stats = K.N_SEAT_STATS
    n_game_stats = K.N_GAME_STATS

    def play_chunk_into(self, matchup, seed, first, n, ids, params, seat_out, game_out, block, roster) -> None:
        from zsim.blocks import play_in_blocks
        from zsim.games.zahltag.batch_nb import play_blocks_nb
        from zsim.games.zahltag.engine_nb import new_workspace
        from zsim.roster import roster_of
        rules_a, needs = matchup.rules.as_array(), matchup.deck.lanes()
        # compiled for the table's size as well as its strategies (Roster.for_seats)
        play_in_blocks(play_blocks_nb, n, block, np.uint64(seed), first, rules_a, needs,
                       roster_of("zahltag", ids, roster).for_seats(len(ids)), ids, params, seat_out, game_out,
                       workspace=lambda: new_workspace(len(ids), needs, rules_a))

    def illegal_detail(self, game_out_row, strategies) -> str:
        return Game.illegal_detail(self, game_out_row, strategies)    # the engine counts them, naming no seat

    # -------------------------------------------------------------- records (written by the fast engine's events)
    def record_games(self, matchup, seed: int, games: Iterable[int]) -> Iterator[list[dict]]:
        from zsim.games.zahltag.records import record_games
        return record_games(matchup, seed, games)

    def check_record(self, events: list[dict]) -> None:
        from zsim.games.zahltag.replay import check_record
        check_record(events)

    def play_by_play(self, events: list[dict]) -> str:
        from zsim.games.zahltag.replay import play_by_play
        return play_by_play(events)

    # -------------------------------------------------------------- the reference engine
    def reference_game(self, matchup, seed: int, game: int, record: bool = False):
        """The reference engine's game (its records come from the fast engine's events instead)."""
        from zsim.games.zahltag.reference import play_reference
        return play_reference(matchup.players, matchup.rules, matchup.deck, list(matchup.strategies), seed, game)

    def reference_rows(self, matchup, seed: int, game: int):
        r = self.reference_game(matchup, seed, game)
        return np.asarray(r.seat_stats), np.asarray(r.game_stats)


GAME = Zahltag()
