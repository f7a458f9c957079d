"""What ``zsim report --game baumeister`` plays: each of Wettstreit der
Baumeister's analyses at the player counts asked for, the built-in tournament
at each, a glossary, and the metadata that says how to play it again."""
from __future__ import annotations

import shlex
from dataclasses import dataclass

import polars as pl

from analyses import common
from analyses import report_parts as shared
from analyses import drama, rules_section
from analyses.baumeister import measure, prices, questions
from analyses.result import AnalysisResult
from analyses.setting_tables import bot_edge_definition
from zsim.install import __version__

#: every rule key one of the analyses sweeps: a report plays them all, so --rule may not fix them
SWEPT = questions.SABOTAGE_KEYS

DEFINITIONS = {
    "games": "games behind the row",
    "players": "players at the table",
    "seat": "seat in play order (seat 0 has the first turn)",
    "win_share": "share of games won; a first place shared by k seats counts 1/k to each",
    "game_turns": "normal turns per game (the final round not counted)",
    "auctions": "auctions held per game",
    "hidden_auctions": "auctions of a hidden-stack card per game",
    "max_turns_rate": "share of games that reached the turn cap max_turns instead of emptying a stack",
    "max_bid_hits": "bids of exactly max_bid per game (the bid cap)",
    "max_bid_rate": "share of games with at least one bid of max_bid",
    "mean_score": "score per seat: built values and bonuses less the values left in hand",
    "winner_score": "the highest score of the game",
    "winner_margin": "the highest score less the second highest (0 on a tie)",
    "complete_share": "share of cities complete (no gap, a corner tower closing each end)",
    "cards_sold": "cards sold per game (all seats)",
    "unsold": "auctions per game in which nobody paid (the card went under a stack)",
    "insolvencies": "insolvent winners per game (all seats)",
    "insolvency_rate": "share of games with at least one insolvency",
    "attacks": "saboteurs sent per game (on buildings and on hands)",
    "building_attacks": "attacks on a built card per game",
    "hand_attacks": "attacks on a hand per game",
    "cards_destroyed": "cards destroyed by sabotage per game",
    "income_per_seat": "Thaler from income rolls and gate coins per seat and game",
    "price_per_card": "Thaler paid per card sold",
    "gate_price": "Thaler paid per city gate sold",
    "paid_per_seat": "Thaler paid for cards per seat and game",
    "sales_per_seat": "Thaler received as auctioneer per seat and game",
    "sales_per_auction": "Thaler received by the auctioneer per auction held",
    "sales_share_of_paid": "what auctioneers received as a share of every price paid (the rest went to the bank)",
    "seat_p": "p-value of the test that every seat wins 1/players: below 0.05 the seats are not even",
    "seat_spread_pp": "how far the seats' true win shares spread around par, in percentage points "
                      "(corrected for the noise of the sample)",
    "bot_edge": bot_edge_definition(measure.SKILLED, measure.WEAK),
    "bot_score": "mean score of that bot's seat among the weaker bots",
    "gates": "the city gates' coins: none, as printed, or doubled (every other card as it is)",
    "income_change": "income per seat and game less that with the printed gate coins",
    "score_change": "mean score per seat less that with the printed gate coins",
    "points_per_thaler": "in the gates table, score change per Thaler of income change; in the prices "
                         "tables, final worth per Thaler paid",
    "middle_rate": "share of cities with the town-hall-in-the-middle bonus",
    "churches_rate": "share of cities with the equal-churches bonus",
    "corners_rate": "share of cities with the equal-corner-towers bonus",
    "middle_if_complete": "the middle bonus's share among complete cities",
    "churches_if_complete": "the churches bonus's share among complete cities",
    "corners_if_complete": "the corners bonus's share among complete cities",
    "middle_decides": "share of games a winner would have lost without their middle bonus",
    "churches_decides": "share of games a winner would have lost without their churches bonus",
    "corners_decides": "share of games a winner would have lost without their corners bonus",
    "bonus_decides": "share of games one of the bonuses decided",
    "sabotage": "rulebook: form (a) at the weakest city; no saboteurs: rule saboteurs=0; saboteur=any: the variant",
    "strategy": "strategy (with its parameters); in the insolvency table, the bot in every seat",
    "card_type": "the card's type",
    "value": "the card's value",
    "tenth": "the tenth of the game (by normal turn) the card was bought in, 0 the first",
    "price": "Thaler paid per card sold (its last sale)",
    "worth": "final worth per card sold: its value if built, minus its value if left in hand, 0 if destroyed",
    "worth_with_bonus": "worth plus the card's share of its city's bonuses",
    "sold_share": "share of the cards of the row that were sold at all",
    "built_share": "share of the sold cards that ended built",
    "hand_share": "share of the sold cards that ended in a hand",
    "lost_share": "share of the sold cards that were destroyed",
    "hidden_share": "share of the sold cards bought from the hidden stack",
    "score_mean": "mean score",
    "mean_place": "mean place (1 best; tied seats share a place)",
    "fair": "false for a strategy that reads hidden cards (an upper bound, not a rival)",
}


def check_rules(options) -> None:
    questions.refuse_keys(options, SWEPT, "report")


@dataclass(frozen=True)
class Plan(shared.ReportPlan):
    deck: object = None
    GAME = measure.GAME

    def total_games(self) -> int:
        a = (self.players, self.field, self.games, self.rules, self.deck)
        pts = (questions.players_points(*a) + questions.gates_points(*a) + questions.bonuses_points(*a)
               + questions.sabotage_points(*a) + questions.auctioneer_points(*a))
        return (measure.games_of(pts) + prices.total_games(*a) + rules_section.total_games(self.GAME, self)
                + drama.report_total(self.GAME, self)
                + sum(self.deals * self.tournament_seatings(p) for p in self.players))


def run(plan: Plan, advance=None) -> list[AnalysisResult]:
    args = (plan.players, plan.field, plan.games, plan.seed, plan.rules, plan.deck, advance)
    out = [questions.players_run(*args), prices.run(*args), questions.gates_run(*args),
           questions.bonuses_run(*args), questions.sabotage_run(*args), questions.auctioneer_run(*args),
           rules_section.run(measure.GAME, plan, advance), *drama.report_run(measure.GAME, plan, advance)]
    for p in plan.players:
        out.append(shared.tournament_result(plan, p, advance, measure.GAME))
    out.append(glossary())
    return out


def key_findings(results: list[AnalysisResult]) -> list[str]:
    """The report's opening lines, one per question, each leading with its answer."""
    by = {r.name: r for r in results}
    out: list[str] = []
    if "baumeister-players" in by:
        r = by["baumeister-players"]
        out.append(shared.bot_edge_line(r.main, measure.SKILLED, measure.WEAK))
    if "baumeister-prices" in by:
        out.append(_price_line(by["baumeister-prices"].main))
    if "baumeister-gates" in by:
        out.append(_gate_line(by["baumeister-gates"].tables["Against the printed coins"]))
    if "baumeister-bonuses" in by:
        out.append(_bonus_line(by["baumeister-bonuses"].main))
    if "baumeister-sabotage" in by:
        out.append(_sabotage_line(by["baumeister-sabotage"].main))
    if "baumeister-auctioneer" in by:
        out.append(_auction_line(by["baumeister-auctioneer"]))
    if rules_section.NAME in by:
        line = rules_section.key_line(by[rules_section.NAME], measure.GAME)
        out += [line] if line else []
    out += drama.key_lines(by)
    caps = [r for r in results if r.name.startswith("baumeister-")]
    out.append(_caps_line(caps))
    winners = [r for r in results if r.name.startswith("tournament-")]
    if winners:
        out += shared.tournament_lines(winners)
    return out


def _price_line(t: pl.DataFrame) -> str:
    parts, apart = [], []
    for (p,), part in t.group_by(["players"], maintain_order=True):
        best = part.sort("points_per_thaler", descending=True, nulls_last=True).row(0, named=True)
        worst = part.sort("points_per_thaler", nulls_last=True).row(0, named=True)
        apart.append(best["points_per_thaler"] - best["points_per_thaler_ci95"]
                     > worst["points_per_thaler"] + worst["points_per_thaler_ci95"])
        parts.append(f"at {p} players {prices.PLURAL[best['card_type']]} are the bargain "
                     f"({best['points_per_thaler']:.2f} points per Thaler) and {prices.PLURAL[worst['card_type']]} "
                     f"the dearest ({worst['points_per_thaler']:.2f})")
    lead = ("auctions do not price cards by what they end up worth" if all(apart) else
            "no card type is clearly a better buy than another at every player count")
    return f"Prices: {lead}: " + "; ".join(parts) + "."


def _gate_line(eff: pl.DataFrame) -> str:
    none = eff.filter(pl.col("gates") == questions.GATE_FACTORS[0][0])
    parts = [f"{-r['income_change']:.1f} Thaler of income per seat and game and {-r['score_change']:+.1f} ± "
             f"{r['score_change_ci95']:.1f} points at {r['players']} players" for r in none.iter_rows(named=True)]
    return "Gate income: the printed gate coins, against none, are worth " + "; ".join(parts) + "."


def _bonus_line(t: pl.DataFrame) -> str:
    parts = []
    for r in t.iter_rows(named=True):
        top = max(questions.BONUSES, key=lambda b: r[f"{b}_decides"])
        parts.append(f"{r['complete_share']:.2f} of cities complete and a bonus decides "
                     f"{common.rate_text(r['bonus_decides'], r['bonus_decides_lo'], r['bonus_decides_hi'])} of games "
                     f"({top} most) at {r['players']} players")
    return "Bonuses: " + "; ".join(parts) + "."


def _sabotage_line(t: pl.DataFrame) -> str:
    parts = []
    for (p,), part in t.group_by(["players"], maintain_order=True):
        rows = {r["sabotage"]: r for r in part.iter_rows(named=True)}
        base, none, anyv = (rows[n] for n, _ in questions.SABOTAGE_SETTINGS)
        parts.append(f"at {p} players {base['bot_edge']:+.3f} with the rulebook's sabotage, "
                     f"{none['bot_edge']:+.3f} without, {anyv['bot_edge']:+.3f} with saboteur=any, which destroys "
                     f"{anyv['cards_destroyed']:.2f} cards a game against {base['cards_destroyed']:.2f}")
    return (f"Sabotage, {measure.SKILLED}'s edge over {measure.WEAK} (win share above par): " + "; ".join(parts)
            + ".")


def _auction_line(r: AnalysisResult) -> str:
    t = r.main
    parts = [f"{x['sales_per_seat']:.1f} Thaler a seat ({100 * x['sales_share_of_paid']:.0f}% of prices) at "
             f"{x['players']} players" for x in t.iter_rows(named=True)]
    b = r.tables["Insolvency per bot"]
    worst = b.sort("insolvency_rate", descending=True).row(0, named=True)
    return ("Selling earns " + "; ".join(parts) + f". Insolvency is most common with {worst['strategy']} in every "
            f"seat ({common.rate_text(worst['insolvency_rate'], worst['insolvency_rate_lo'], worst['insolvency_rate_hi'])}"
            f" of games at {worst['players']} players).")


def _caps_line(results: list[AnalysisResult]) -> str:
    hit = []
    for r in results:
        for t in r.tables.values():
            if "max_turns_rate" in t.columns and ((t["max_turns_rate"].fill_null(0) > 0).any()
                                                  or (t["max_bid_hits"].fill_null(0) > 0).any()):
                hit.append(r.title)
                break
    if not hit:
        return "Caps: no game reached max_turns and no bid reached max_bid in any analysis."
    return ("Caps: games reached max_turns or bids reached max_bid in " + ", ".join(hit)
            + "; see each section's caps finding.")


def glossary() -> AnalysisResult:
    return shared.glossary(DEFINITIONS, measure.GAME, "such as games with an insolvency")


def command(plan: Plan, out: str) -> str:
    """The command line that plays this report again."""
    from zsim.games.baumeister.cards import DEFAULT_DECK_NAME
    from zsim.games.baumeister.rules import Rules

    args = ["zsim", "report", "--game", measure.GAME, "--players", ",".join(map(str, plan.players)),
            "--games", str(plan.games), "--tournament-games", str(plan.deals), "--seed", str(plan.seed)]
    if plan.field:
        args += ["--field", plan.field]
    default = Rules().as_dict()
    for key, value in plan.rules.as_dict().items():
        if value != default[key]:
            args += ["--rule", f"{key}={value}"]
    if plan.deck is not None and plan.deck.name != DEFAULT_DECK_NAME:
        args += ["--deck", plan.deck.name]
    args += ["--out", out]
    return " ".join(shlex.quote(a) for a in args)


def metadata(plan: Plan, elapsed: float) -> dict:
    from datetime import datetime, timezone

    return {"game": "Wettstreit der Baumeister (baumeister)",
            "zsim version": __version__,
            "created (UTC)": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M"),
            "players": plan.players,
            "field": measure.field_names(plan.field),
            "bot edge": f"{measure.SKILLED} in one seat among {measure.WEAK}",
            "tournament field": list(shared.builtin_field(measure.GAME)),
            "games per analysis point": plan.games,
            "tournament deals": plan.deals,
            "seed": plan.seed,
            "rules": plan.rules.as_dict(),
            "deck": f"{plan.deck.name} ({plan.deck.n} cards)" if plan.deck is not None else "default",
            "games played": plan.total_games(),
            "elapsed (s)": f"{elapsed:.1f}",
            "machine": shared.machine()}
