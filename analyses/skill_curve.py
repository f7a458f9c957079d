"""The report's skill curve: how strong the search gets as it thinks longer,
beside the game's best bot, rated by ``zsim ladder``.

A game where a little more search keeps buying strength is one where play
decides; a curve that flattens early, or never rises above the bots, says the
game leaves little to decide (or that the search has not learnt it yet). The
report plays a small ladder: every fair bot of the game and the strong
player's search at :data:`BUDGETS` iterations, on :func:`tables` tables per
player count (scaled from the strong player's games) of :data:`DEALS` deals
each, every deal in every rotation of its seats. The games and the ratings
are :mod:`zsim.harness.ladder`'s, the tables, figure and findings
:mod:`analyses.ladder`'s.
"""
from __future__ import annotations

from dataclasses import replace

from analyses.result import AnalysisResult

#: the search budgets of the curve (iterations per decision), every doubling
BUDGETS = (16, 32, 64, 128, 256)
#: deals each table plays, each in every rotation of its seats
DEALS = 2
#: the columns of the section, as the report's glossary explains them
DEFINITIONS = {
    "entry": "a fair bot of the game, or the search at one budget (iterations=...)",
    "budget": "the search's iterations per decision (none for a bot)",
    "tables": "tables of the ladder the entry sat at, each playing every deal in every rotation of its seats",
    "rating": "openskill Plackett-Luce rating (mu) from the finishing orders, with mu ± 1.96 sigma",
    "above_par": "the entry's win share less par (1 / players), with its 95% interval over tables",
}


def tables(strong_games: int) -> int:
    """Tables per player count: one per 10 of the strong player's games, at least 24."""
    return max(24, strong_games // 10)


def search_of(game: str, strong: str) -> str:
    """The strong player's search with its budget left out (the curve sets
    it), "" when the strong player is not a search (a bot named by --strong)."""
    from zsim.strategy_registry import registry

    name, *rest = strong.split(":")
    info = registry(game).get(name)
    if info is None or info.search < 0:
        return ""
    return ":".join([name, *(p for p in rest if not p.startswith("iterations="))])


def total_games(game: str, players: list[int], strong_games: int, strong: str) -> int:
    if not strong or not search_of(game, strong):
        return 0
    return sum(tables(strong_games) * DEALS * p for p in players)


def run(game: str, players: list[int], strong_games: int, seed: int, rules, deck, strong: str,
        advance=None) -> AnalysisResult | None:
    """The skill-curve section; None when the strong player is not a search."""
    from analyses import ladder
    from zsim.game_registry import get_game
    from zsim.harness.ladder import play_round

    search = search_of(game, strong) if strong else ""
    if not search:
        return None
    g = get_game(game)
    entries, budget_of = ladder.entries_of(g.name, search, list(BUDGETS), None, None)
    n = tables(strong_games)
    rounds = [play_round(g.name, p, entries, n, DEALS, seed, rules, deck, advance) for p in players]
    r = ladder.result_of(g, rounds, budget_of, [], seed)
    return replace(r, name="skill-curve", title="The skill curve: strength against search budget",
                   summary=(f"How strong {search} gets as it thinks longer: it enters at "
                            f"{', '.join(map(str, BUDGETS))} iterations a decision beside every fair bot of the "
                            f"game, and openskill rates them all from the finishing orders. " + r.summary),
                   tables={"Ratings": r.tables["ratings"], "The search's rating by budget": r.tables["skill curve"]},
                   figures={"The skill curve: the search's rating against its budget, beside the best bot "
                            "(95% intervals)": next(iter(r.figures.values()))},
                   meta={k: v for k, v in r.meta.items() if k != "rules"}, details=("Ratings",),
                   definitions=DEFINITIONS)
