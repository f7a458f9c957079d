"""What ``zsim report`` plays for Zahltag: every analysis at every player
count asked for, the built-in tournament, and the metadata that says how to
play it again (the parts every game's report shares: analyses.report_parts)."""
from __future__ import annotations

import shlex
from dataclasses import dataclass

import polars as pl

from analyses import common
from analyses.common import DEFINITIONS
from analyses.report_format import format_ci
from analyses.report_parts import (ReportPlan, builtin_field, glossary, machine, tournament_lines,
                                   rule_texts, tournament_result)
from analyses import drama, rules_section
from analyses.result import AnalysisResult
from analyses.zahltag import deck as deck_analysis
from analyses.zahltag import payday_cost, players, tradeoff
from zsim.games.zahltag.deck import DEFAULT_DECK_NAME, Deck
from zsim.games.zahltag.rules import Rules
from zsim.install import __version__

GAME = "zahltag"

PERTURBATIONS = 3


@dataclass(frozen=True)
class Plan(ReportPlan):
    rules: Rules
    deck: Deck

    GAME = GAME

    def total_games(self) -> int:
        total = tradeoff.total_games(self.players, self.field, self.games, self.rules, self.deck)
        total += rules_section.total_games(GAME, self) + drama.report_total(GAME, self)
        for p in self.players:
            total += self.games * (1 + PERTURBATIONS)
            total += self.deals * self.tournament_seatings(p)
        main, know = players.points(self.players, self.field, self.games, self.rules, self.deck)
        return total + sum(pt.games for pt in main + know)


def run(plan: Plan, advance=None) -> list[AnalysisResult]:
    out: list[AnalysisResult] = []
    out.append(tradeoff.run(plan.players, plan.field, plan.games, plan.seed, plan.rules, plan.deck, advance))
    out.append(players.run(plan.players, plan.field, plan.games, plan.seed, plan.rules, plan.deck, advance))
    out.append(rules_section.run(GAME, plan, advance))
    out += drama.report_run(GAME, plan, advance)
    out.append(deck_analysis.run(plan.players, plan.field, plan.games, plan.seed, plan.rules, [], PERTURBATIONS,
                                 advance))
    for p in plan.players:
        out.append(tournament_result(plan, p, advance, GAME))
    out.append(glossary(DEFINITIONS, GAME, "such as games with an elimination"))
    return out


def key_findings(results: list[AnalysisResult]) -> list[str]:
    """The report's opening summary, a line per question, written from the
    tables the analyses computed: the best hand size per player count and
    payday cost first (the seats have their verdicts), then when eliminations become common,
    what counting cards is worth, and who wins the tournaments. Each
    section's own findings say more."""
    by_name = {("tournament" if r.name.startswith("tournament-") else r.name): r for r in results}
    out: list[str] = []
    if "tradeoff" in by_name:
        out += _hand_lines(by_name["tradeoff"])
    if rules_section.NAME in by_name:
        out += _elimination_lines(by_name[rules_section.NAME])
        line = rules_section.key_line(by_name[rules_section.NAME], GAME)
        out += [line] if line else []
    out += drama.key_lines(by_name)
    if "players" in by_name:
        out += _counting_lines(by_name["players"])
    winners = [r for r in results if r.name.startswith("tournament-")]
    if winners:
        out += tournament_lines(winners)
    return out


def _table(r: AnalysisResult, prefix: str) -> pl.DataFrame | None:
    return next((t for c, t in r.tables.items() if c.startswith(prefix)), None)


def _hand_lines(r: AnalysisResult) -> list[str]:
    best = _table(r, "Best target hand")
    if best is None or best.is_empty():
        return []
    out = []
    cost0, default = tradeoff.default_cost(), tradeoff.default_target()
    for (p,), part in best.sort("players", "payday_cost").group_by(["players"], maintain_order=True):
        ks = " / ".join(str(k) for k in part["best_target"].to_list())
        cs = " / ".join(str(c) for c in part["payday_cost"].to_list())
        text = f"Hand size × payday cost, {p} players: the best target hand is {ks} cards at payday cost {cs}"
        at = part.filter(pl.col("payday_cost") == cost0)
        if not at.is_empty():
            a = at.row(0, named=True)
            text += (f"; at the printed cost {cost0}, target {a['best_target']} wins "
                     f"{common.share_text(a['win_share'], a['win_share_ci95'])}")
            if a.get("default_win_share") is not None and a["best_target"] != default:
                text += (f" against {common.share_text(a['default_win_share'], a.get('default_win_share_ci95'))} "
                         f"for the default {default}")
        edge = part.filter(pl.col("best_at_edge") == "smallest")["payday_cost"].to_list()
        if edge and int(part["best_target"].min()) == tradeoff.target_limits()[0] == 0:
            text += (f" (target 0, never taking a card, is the least there is: best at payday cost "
                     f"{', '.join(map(str, edge))})")
        elif edge:
            text += f" (at the smallest target tried for payday cost {', '.join(map(str, edge))})"
        out.append(text + ".")
    return out


def _elimination_lines(r: AnalysisResult) -> list[str]:
    """Eliminations as the report plays the rules, and the swept rule values
    (:mod:`analyses.rules_section`) that make them common."""
    t = r.main
    parts, common_at = [], []
    for p in sorted(set(t["players"].to_list())):
        part = t.filter(pl.col("players") == p)
        base = part.filter(pl.col("configured"))
        if not base.is_empty():
            b = base.row(0, named=True)
            parts.append(f"{common.rate_text(b['knockout_rate'], b['knockout_rate_lo'], b['knockout_rate_hi'])}"
                         f" at {p} players")
        hits = part.filter(pl.col("knockout_rate_lo") >= payday_cost.ELIMINATIONS_COMMON)
        values: dict[str, list[str]] = {}
        for row in hits.iter_rows(named=True):
            values.setdefault(row["rule"], []).append(row["value"])
        if values:
            where = ", ".join(f"{k}={'/'.join(map(str, v))}" for k, v in values.items())
            common_at.append(f"{where} at {p} players")
    text = "Eliminations at the rules played: " + ", ".join(parts)
    if common_at:
        text += (f"; they pass {payday_cost.ELIMINATIONS_COMMON:.0%} of games (the whole interval above it) with "
                 + "; ".join(common_at))
    return [text + "."]


def _counting_lines(r: AnalysisResult) -> list[str]:
    know = _table(r, "What counting is worth")
    if know is None:
        return []
    parts = [f"{format_ci(row['edge'], row['edge_ci95'], signed=True)} at {row['players']} players"
             for row in know.sort("players").iter_rows(named=True)]
    return [f"Counting cards ({players.COUNTING} against {players.BLIND}, win share above par): "
            + ", ".join(parts) + "."]


def command(plan: Plan, out: str) -> str:
    """The command line that plays this report again, every choice spelled out."""
    args = ["zsim", "report", "--players", ",".join(map(str, plan.players)), "--games", str(plan.games),
            "--tournament-games", str(plan.deals), "--seed", str(plan.seed)]
    if plan.field:
        args += ["--field", plan.field]
    for option in rule_texts(plan.rules, Rules()):
        args += ["--rule", option]
    if plan.deck.name != DEFAULT_DECK_NAME:
        args += ["--deck", plan.deck.name]
    args += ["--out", out]
    return " ".join(shlex.quote(a) for a in args)


def metadata(plan: Plan, elapsed: float) -> dict:
    from datetime import datetime, timezone

    return {"zsim version": __version__,
            "created (UTC)": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M"),
            "players": plan.players,
            "field": plan.field or "simple",
            "tournament field": list(builtin_field(GAME)),
            "games per analysis point": plan.games,
            "tournament deals": plan.deals,
            "seed": plan.seed,
            "rules": plan.rules.as_dict(),
            "deck": f"{plan.deck.name} ({plan.deck.n_jobs} jobs)",
            "games played": plan.total_games(),
            "elapsed (s)": f"{elapsed:.1f}",
            "machine": machine()}


