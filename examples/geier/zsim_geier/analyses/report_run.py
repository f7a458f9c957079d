"""What ``zsim report --game geier`` plays: the carry-over analysis at the player
counts asked for, a tournament of the package's own fair strategies at each, a
glossary, and the metadata that says how to play it again.

The tournament is zsim's shared one (:mod:`analyses.report_parts`): every fair
strategy this package registers (``random``, ``matcher``, ``greedy``) on
duplicate deals, each subset of the field in its rotations.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyses import common
from analyses import report_parts as shared
from analyses.result import AnalysisResult
from analyses.setting_tables import BOT_EDGE_ASIDE, bot_edge_definition
from zsim.install import __version__
from zsim_geier.analyses import carry_over
from zsim_geier.analyses.carry_over_show import seat_text
from zsim_geier.analyses.specs import FIELD, GAME, SKILLED, WEAK

DEFINITIONS = {
    "games": "games behind the row",
    "players": "players at the table",
    "carry_over": "rule carry_over: true, a fully tied table stays for the next card (the printed rule); "
                  "false, it is discarded",
    "rounds": "rounds per game: one prize card each (vultures + top_prize)",
    "seat": "seat in the order of the game's columns (every seat bids at once)",
    "win_share": "share of games won; a first place shared by k seats counts 1/k to each",
    "mean_score": "points per seat and game: the prizes taken, vultures counting negative",
    "winner_margin": "the highest score less the second highest (0 on a tie)",
    "fully_tied_share": "share of rounds in which no bid stood alone (every bid played twice or more)",
    "tied_share": "share of rounds with at least one bid cancelled by a tie",
    "carries": "tables carried to the next card per game (0 when ties are discarded)",
    "discarded": "prize cards discarded per game: fully tied without carry-over, or left after the last round",
    "discarded_points": "the discarded prizes' values per game, summed (vultures negative)",
    "biggest_table": "the most prize cards taken at once, per game",
    "any_discarded_rate": "share of games in which a prize card was discarded",
    "seat_p": "p-value of the test that every seat wins 1/players: below 0.05 the seats are not even",
    "seat_spread_pp": "how far the seats' true win shares spread around par, in percentage points "
                      "(corrected for the noise of the sample)",
    "best_seat": "the seat with the highest win share",
    "worst_seat": "the seat with the lowest win share",
    "seat_gap": "the best seat's win share less the worst seat's (the interval is taken game by game)",
    "bot_win_share": f"win share of {SKILLED} in one seat among {WEAK} (every seat in turn)",
    "bot_edge": bot_edge_definition(SKILLED, WEAK),
    "strategy": "strategy (with its parameters)",
    "points_mean": "mean score (points a game)",
    "mean_place": "mean place (1 best; tied seats share a place)",
    "fair": "false for a strategy that reads hidden cards (an upper bound, not a rival)",
}


@dataclass(frozen=True)
class Plan(shared.ReportPlan):
    GAME = GAME

    def total_games(self) -> int:
        pts = carry_over.points(self.players, self.field, self.games, self.rules)
        return carry_over.games_of(pts) + sum(self.deals * self.tournament_seatings(p) for p in self.players)


def run(plan: Plan, advance=None) -> list[AnalysisResult]:
    out = [carry_over.run(plan.players, plan.field, plan.games, plan.seed, plan.rules, advance)]
    out += [shared.tournament_result(plan, p, advance, GAME) for p in plan.players]
    out.append(shared.glossary(DEFINITIONS, GAME, "such as games that end with a table nobody took"))
    return out


def key_findings(results: list[AnalysisResult]) -> list[str]:
    """The report's opening lines, each leading with its answer, written from the tables."""
    by = {r.name: r for r in results}
    out: list[str] = []
    if "geier-carry-over" in by:
        out += carry_lines(by["geier-carry-over"].main)
    winners = [r for r in results if r.name.startswith("tournament-")]
    if winners:
        out.append("Tournament of the built-in field (the package's fair strategies), most wins: " + ", ".join(
            f"{r.main.row(0, named=True)['strategy']} at {r.name.removeprefix('tournament-').removesuffix('p')} "
            f"players ({common.share_text(r.main['win_share'][0], r.main['win_share_ci95'][0])})"
            for r in winners) + ".")
    return out


def carry_lines(main) -> list[str]:
    """What carry-over does (points kept, ties), the seats, and the bot edge, one line each."""
    kept, seats, edge = [], [], []
    for (p,), part in main.group_by(["players"], maintain_order=True):
        rows = {r["carry_over"]: r for r in part.iter_rows(named=True)}
        if len(rows) < 2:
            continue
        on, off = rows[True], rows[False]
        kept.append(f"{common.share_text(on['discarded_points'], on['discarded_points_ci95'])} against "
                    f"{common.share_text(off['discarded_points'], off['discarded_points_ci95'])} points a game "
                    f"at {p} players ({100 * on['fully_tied_share']:.1f}% against "
                    f"{100 * off['fully_tied_share']:.1f}% of rounds fully tied)")
        seats.append(seat_text(p, rows))
        edge.append(f"{common.share_text(on['bot_win_share'], on['bot_win_share_ci95'])} against "
                    f"{common.share_text(off['bot_win_share'], off['bot_win_share_ci95'])} at {p} players "
                    f"(par {1 / p:.3f})")
    return ["Carry-over: a fully tied table carried over (the printed rule) against discarded loses "
            + "; ".join(kept) + ".",
            "Seats, the largest gap in win share: " + "; ".join(seats) + ".",
            f"{SKILLED} in one seat among {WEAK} wins, ties carried over against discarded, "
            + "; ".join(edge) + f" ({BOT_EDGE_ASIDE})."]


def command(plan: Plan, out: str) -> str:
    """The command line that plays this report again."""
    from zsim_geier.rules import Rules

    return shared.report_command(GAME, plan, out, Rules())


def metadata(plan: Plan, elapsed: float) -> dict:
    from datetime import datetime, timezone

    return {"game": "Hol's der Geier (geier, the zsim-geier package)",
            "zsim version": __version__,
            "created (UTC)": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M"),
            "players": plan.players,
            "field": plan.field or FIELD,
            "bot edge": f"{SKILLED} in one seat among {WEAK}",
            "tournament field": list(shared.builtin_field(GAME)),
            "games per analysis point": plan.games,
            "tournament deals": plan.deals,
            "seed": plan.seed,
            "rules": carry_over.rules_shown(plan.rules),
            "games played": plan.total_games(),
            "elapsed (s)": f"{elapsed:.1f}",
            "machine": shared.machine()}
