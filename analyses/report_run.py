"""What ``zsim report`` plays: every analysis at every player count asked for,
the built-in tournament, and the metadata that says how to play it again."""
from __future__ import annotations

import platform
import shlex
from dataclasses import dataclass

import polars as pl

from analyses import deck as deck_analysis
from analyses import hand_size, payday_cost, players
from analyses.result import AnalysisResult
from zsim import __version__
from zsim.games.zahltag.deck import DEFAULT_DECK_NAME, Deck
from zsim.games.zahltag.rules import Rules
from zsim.strategy_registry import registry

PERTURBATIONS = 3


def builtin_field() -> tuple[str, ...]:
    """Every fair strategy that ships with zsim (plugins are left out)."""
    return tuple(name for name, info in registry().items()
                 if info.fair and info.module.startswith("strategies."))


@dataclass(frozen=True)
class Plan:
    players: list[int]
    field: str | None
    games: int
    deals: int
    seed: int
    rules: Rules
    deck: Deck

    def tournament_seatings(self, p: int) -> int:
        from zsim.tournament import seatings

        return len(seatings(len(builtin_field()), p, "rotations")[0])

    def total_games(self) -> int:
        total = 0
        for p in self.players:
            total += sum(pt.games for pt in hand_size.points(p, self.field, self.games, self.rules, self.deck))
            total += sum(pt.games for pt in payday_cost.points(p, self.field, self.games, self.rules, self.deck))
            total += self.games * (1 + PERTURBATIONS)
            total += self.deals * self.tournament_seatings(p)
        main, know = players.points(self.players, self.field, self.games, self.rules, self.deck)
        return total + sum(pt.games for pt in main + know)


def tournament_result(plan: Plan, p: int, advance) -> AnalysisResult:
    from zsim.tournament import run_tournament

    entries = builtin_field()
    t = run_tournament(entries, p, plan.deals, plan.seed, plan.rules, plan.deck, design="rotations",
                       on_games=advance)
    table = (t.strategies()
             .rename({"win_ci95": "win_share_ci95", "money_ci95": "money_mean_ci95",
                      "place_ci95": "mean_place_ci95"})
             .sort("win_share", descending=True))
    summary = (f"Every fair built-in strategy on duplicate deals at {p} players: {plan.deals:,} deals, each "
               f"played under {len(t.seatings)} seatings (every {p}-subset of the field in its {p} "
               f"rotations), {t.games:,} games, seed {plan.seed}. Intervals are over deals; par is "
               f"{1 / p:.3f}.")
    return AnalysisResult(f"tournament-{p}p", f"Tournament of the built-in field ({p} players)", summary,
                          {"Per strategy": table, "Head to head: share of shared games the row finished "
                           "above the column": t.head_to_head_matrix()},
                          meta={"deals": plan.deals, "seatings": len(t.seatings), "games": t.games})


def run(plan: Plan, advance=None) -> list[AnalysisResult]:
    out: list[AnalysisResult] = []
    out.append(players.run(plan.players, plan.field, plan.games, plan.seed, plan.rules, plan.deck, advance))
    for p in plan.players:
        out.append(hand_size.run(p, plan.field, plan.games, plan.seed, plan.rules, plan.deck, advance))
    for p in plan.players:
        out.append(payday_cost.run(p, plan.field, plan.games, plan.seed, plan.rules, plan.deck, advance))
    for p in plan.players:
        out.append(deck_analysis.run(p, plan.field, plan.games, plan.seed, plan.rules, [], PERTURBATIONS,
                                     advance))
    for p in plan.players:
        out.append(tournament_result(plan, p, advance))
    out.append(glossary())
    return out


def glossary() -> AnalysisResult:
    from analyses.common import DEFINITIONS

    t = pl.DataFrame({"column": list(DEFINITIONS), "meaning": list(DEFINITIONS.values())})
    return AnalysisResult("glossary", "What the columns mean",
                          "Every figure carries its 95% interval as \"value ± half-width\". Intervals of "
                          "means are normal approximations; rates that are ratios of sums use the delta "
                          "method with the game as the unit. docs/analyses.md says more.",
                          {"Columns": t})


def command(plan: Plan, out: str) -> str:
    """The command line that plays this report again, every choice spelled out."""
    args = ["zsim", "report", "--players", ",".join(map(str, plan.players)), "--games", str(plan.games),
            "--tournament-games", str(plan.deals), "--seed", str(plan.seed)]
    if plan.field:
        args += ["--field", plan.field]
    for key, value in plan.rules.as_dict().items():
        if value != Rules().as_dict()[key]:
            text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value).lower() \
                if isinstance(value, bool) else str(value)
            args += ["--rule", f"{key}={text}"]
    if plan.deck.name != DEFAULT_DECK_NAME:
        args += ["--deck", plan.deck.name]
    args += ["--out", out]
    return " ".join(shlex.quote(a) for a in args)


def metadata(plan: Plan, elapsed: float) -> dict:
    from datetime import datetime, timezone

    import numba
    import numpy

    return {"zsim version": __version__,
            "created (UTC)": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M"),
            "players": plan.players,
            "field": plan.field or "simple",
            "tournament field": list(builtin_field()),
            "games per analysis point": plan.games,
            "tournament deals": plan.deals,
            "seed": plan.seed,
            "rules": plan.rules.as_dict(),
            "deck": f"{plan.deck.name} ({plan.deck.n_jobs} jobs)",
            "games played": plan.total_games(),
            "elapsed (s)": round(elapsed, 1),
            "machine": f"{platform.machine()}, {numba.config.NUMBA_NUM_THREADS} threads; "
                       f"python {platform.python_version()}, numba {numba.__version__}, numpy {numpy.__version__}, "
                       f"polars {pl.__version__}"}
