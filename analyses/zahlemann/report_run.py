"""What ``zsim report --game zahlemann`` plays: each of Zahlemann's analyses at
the player counts asked for, the built-in tournament at each, a glossary,
and the metadata that says how to play it again."""
from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analyses import common
from analyses import report_parts as shared
from analyses import drama, rules_section
from analyses.report_format import format_ci
from analyses.setting_tables import bot_edge_definition
from analyses.result import AnalysisResult
from analyses.zahlemann import forget, measure, questions
from zsim.install import __version__

#: every rule key one of the analyses sweeps: a report plays them all, so --rule may not fix them
SWEPT = (*questions.VARIANT_KEYS, *questions.MONEY_KEYS, "hand_size")

DEFINITIONS = {
    "games": "games behind the row",
    "players": "players at the table",
    "seat": "seat in play order (seat 0 leads the first round)",
    "win_share": "share of games won; a first place shared by k seats counts 1/k to each",
    "rounds": "rounds per game, void rounds included",
    "turns_per_round": "turns per round (skipped turns count)",
    "game_turns": "turns per game",
    "winner_margin": "money of the richest seat less that of the next (0 on a tie)",
    "money_range": "money of the richest seat less that of the poorest",
    "round_cap_rate": "share of games ended by the round cap instead of a bankruptcy",
    "seat_p": "p-value of the test that every seat wins 1/players: below 0.05 the seats are not even",
    "seat_spread_pp": "how far the seats' true win shares spread around par, in percentage points "
                      "(corrected for the noise of the sample)",
    "penalty_draws": "penalty cards drawn per game (all seats; per seat in the forget table)",
    "bot_edge": bot_edge_definition(measure.SKILLED, measure.WEAK),
    "variant": "none: the printed rules; else the variant turned on (all three: every one)",
    "bonus_plays": "bonus plays after a 1 per game (one_plays_again)",
    "skips": "turns skipped by a 50 per game (fifty_skips)",
    "hand_passes": "hands passed on by a 2 per game (two_passes_hands)",
    "hand_size": "rule hand_size: cards dealt to each player",
    "money": "how money is paid: coins with change from the receiver (printed), with no change, with "
             "change from the bank, or plain totals paid exactly; in the forget table, final money",
    "shortfall_rate": "share of games in which some payer overpaid because change could not be made",
    "shortfall_per_game": "money lost to missing change per game (all payers)",
    "shortfall_when_short": "money lost to missing change in a game where it happened",
    "shortfall_share_of_paid": "money lost to missing change, percent of all money paid",
    "forget": "the forgetful seat's chance of forgetting to announce 'Zahlemann'",
    "forgotten": "announcements the forgetful seat forgot per game",
    "win_change": "the forgetful seat's win share less its win share at the smallest chance tried",
    "strategy": "strategy (with its parameters)",
    "money_mean": "mean final money",
    "mean_place": "mean place (1 best; tied seats share a place)",
    "fair": "false for a strategy that reads hidden cards (an upper bound, not a rival)",
}


def check_rules(options) -> None:
    questions.refuse_keys(options, SWEPT, "report")


@dataclass(frozen=True)
class Plan(shared.ReportPlan):
    GAME = measure.GAME

    def total_games(self) -> int:
        pts = (questions.players_points(self.players, self.field, self.games, self.rules)
               + questions.variants_points(self.players, self.field, self.games, self.rules)
               + questions.hand_points(self.players, self.field, self.games, self.rules)
               + questions.money_points(self.players, self.field, self.games, self.rules)
               + forget.points(self.players, self.field, self.games, self.rules))
        return (measure.games_of(pts) + rules_section.total_games(self.GAME, self)
                + drama.report_total(self.GAME, self)
                + sum(self.deals * self.tournament_seatings(p) for p in self.players))


def run(plan: Plan, advance=None) -> list[AnalysisResult]:
    args = (plan.players, plan.field, plan.games, plan.seed, plan.rules, advance)
    out = [questions.players_run(*args), questions.variants_run(*args), forget.run(*args),
           questions.money_run(*args), questions.hand_run(*args), rules_section.run(measure.GAME, plan, advance),
           *drama.report_run(measure.GAME, plan, advance)]
    for p in plan.players:
        out.append(shared.tournament_result(plan, p, advance, measure.GAME))
    out.append(glossary())
    return out


def key_findings(results: list[AnalysisResult]) -> list[str]:
    """The report's opening lines, one per question, each leading with its
    answer, written from the analyses' tables."""
    by = {r.name: r for r in results}
    out: list[str] = []
    if "zahlemann-players" in by:
        r = by["zahlemann-players"]
        out.append(shared.bot_edge_line(r.main, measure.SKILLED, measure.WEAK))
    if "zahlemann-variants" in by:
        out.append(_variant_line(by["zahlemann-variants"].main))
    if "zahlemann-forget" in by:
        out.append(_forget_line(by["zahlemann-forget"].main))
    if "zahlemann-money" in by:
        out.append(_money_line(by["zahlemann-money"].main))
    if "zahlemann-hand-size" in by:
        out.append(_hand_line(by["zahlemann-hand-size"].main))
    if rules_section.NAME in by:
        line = rules_section.key_line(by[rules_section.NAME], measure.GAME)
        out += [line] if line else []
    out += drama.key_lines(by)
    winners = [r for r in results if r.name.startswith("tournament-")]
    if winners:
        out += shared.tournament_lines(winners)
    return out


def _per_players(t: pl.DataFrame):
    for (p,), part in t.group_by(["players"], maintain_order=True):
        yield p, part


def _variant_line(t: pl.DataFrame) -> str:
    fast, cut = {}, {}
    for p, part in _per_players(t):
        base = part.filter(pl.col("variant") == "none").row(0, named=True)
        f = part.sort("rounds").row(0, named=True)
        k = part.sort("bot_edge").row(0, named=True)
        fast.setdefault(f["variant"], []).append(f"{base['rounds']:.1f} to {f['rounds']:.1f} rounds at {p} players")
        cut.setdefault(k["variant"], []).append(f"{base['bot_edge']:+.3f} to {k['bot_edge']:+.3f} at {p}")
    edge = f"{measure.SKILLED}'s edge over {measure.WEAK}"
    return ("Variants: " + "; ".join(f"{v} shortens the game most ({', '.join(x)})" for v, x in fast.items())
            + "; " + "; ".join(f"{v} cuts {edge} most ({', '.join(x)})" for v, x in cut.items()) + ".")


def _forget_line(t: pl.DataFrame) -> str:
    parts = []
    for p, part in _per_players(t):
        top = part.sort("forget").row(-1, named=True)
        parts.append(f"{format_ci(top['win_change'], top['win_change_ci95'], signed=True)} at {p} players")
    return (f"Forgetting 'Zahlemann' with chance {t['forget'].max():g} changes the forgetful seat's win share "
            f"by " + ", ".join(parts) + ".")


def _money_line(t: pl.DataFrame) -> str:
    receiver, none, totals = (questions.MONEY_SETTINGS[i][0] for i in (0, 1, 3))
    rates, costs, nones, length = [], [], [], []
    for p, part in _per_players(t):
        rows = {r["money"]: r for r in part.iter_rows(named=True)}
        r, n, tot = rows[receiver], rows[none], rows[totals]
        rates.append(f"{common.rate_text(r['shortfall_rate'], r['shortfall_rate_lo'], r['shortfall_rate_hi'])} "
                     f"of games at {p} players")
        if r["shortfall_when_short"] is not None:
            costs.append(r["shortfall_when_short"])
        nones.append(n["shortfall_rate"])
        length.append(f"{r['rounds']:.1f} against {tot['rounds']:.1f} rounds at {p}")
    cost = f", costing the payers {common.span_text(costs, '.1f')} when it does" if costs else ""
    return (f"Coins: with change from the round's winner, change is missing in {'; '.join(rates)}{cost}; with no "
            f"change at all in {common.span_text([100 * x for x in nones], '.0f')}% of games. Plain totals "
            f"instead of coins: " + ", ".join(length) + ".")


def _hand_line(t: pl.DataFrame) -> str:
    parts = []
    lo_k = hi_k = None
    for p, part in _per_players(t):
        part = part.sort("hand_size")
        lo, hi = part.row(0, named=True), part.row(-1, named=True)
        lo_k, hi_k = lo["hand_size"], hi["hand_size"]
        parts.append(f"{lo['turns_per_round']:.1f} to {hi['turns_per_round']:.1f} turns a round and "
                     f"{measure.SKILLED}'s edge over {measure.WEAK} {lo['bot_edge']:+.3f} to {hi['bot_edge']:+.3f} "
                     f"at {p} players")
    return f"Hand size, {lo_k} cards dealt against {hi_k}: " + "; ".join(parts) + "."


def glossary() -> AnalysisResult:
    return shared.glossary(DEFINITIONS, measure.GAME, "such as games with missing change")


def command(plan: Plan, out: str) -> str:
    """The command line that plays this report again."""
    from zsim.games.zahlemann.rules import Rules

    return shared.report_command(measure.GAME, plan, out, Rules())


def metadata(plan: Plan, elapsed: float) -> dict:
    from datetime import datetime, timezone

    return {"game": "Zahlemann & Söhne (zahlemann)",
            "zsim version": __version__,
            "created (UTC)": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M"),
            "players": plan.players,
            "field": plan.field or "shedder",
            "bot edge": f"{measure.SKILLED} in one seat among {measure.WEAK}",
            "tournament field": list(shared.builtin_field(measure.GAME)),
            "games per analysis point": plan.games,
            "tournament deals": plan.deals,
            "seed": plan.seed,
            "rules": plan.rules.as_dict(),
            "games played": plan.total_games(),
            "elapsed (s)": f"{elapsed:.1f}",
            "machine": shared.machine()}
