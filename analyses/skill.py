"""Skill against luck, and the seats under strong play: the part of every
game's report that asks the strongest fair player.

* **Skill**: the strong player (the game's ``StrategyContract.strong``,
  ``ismcts`` at its default budget unless the game says otherwise) in one
  seat against the game's default field, taking every seat in turn for an
  equal share of the games so that seat order cancels out; beside it the
  weak player (``random``) in the same seats. How far the strong player
  rises above par, and the weak one falls below it, is how much skill
  counts in the game: near 0 both ways, a game of luck.
* **Seats under strong play**: the strong player in every seat. Whether the
  seats are even among strong players may differ from what the heuristic
  field shows; the verdict says whether the two agree.

Both are read against the report's margin (:mod:`analyses.verdicts`). A
game whose search is not yet a strong player (its contract's ``strong`` is
empty) gets no such section, and its verdict box says why, rather than
presenting a heuristic's edge as skill.
"""
from __future__ import annotations

from dataclasses import replace

import polars as pl

from analyses import common, stats, verdicts
from analyses.play import Collector, Point, play_points, split_games
from analyses.report_format import format_ci
from analyses.result import AnalysisResult
from analyses.stats import Mean
from zsim.game_registry import get_game
from zsim.harness.chunks import Matchup

WIN = Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS)
WEAK = "random"
#: the columns of the section, as the report's glossary explains them
DEFINITIONS = {
    "role": "strong: the strong player in one seat against the field; weak: random in that seat instead",
    "player": "the strategy in the tested seat",
    "field": "the strategy in every other seat",
    "edge_pp": "the tested seat's win share less par (1 / players), in percentage points: how far skill "
               "lifts the strong player (or its lack sinks the weak one)",
}


def strong_spec(game: str) -> str:
    """The game's strongest fair player for reports, "" where it has none
    yet (no forward model to search, or a search its contract does not
    trust: ``StrategyContract.strong``)."""
    g = get_game(game)
    return g.strategies.strong if g.forward else ""


def field_of(game: str, field: str | None) -> str:
    """The report's field, as the verdicts name it."""
    return field or get_game(game).strategies.default


def points(game: str, players: list[int], field: str | None, games: int, rules, deck=None,
           strong: str | None = None) -> list[Point]:
    """The skill points (the strong and the weak player in each seat in turn
    among the field) and the all-strong point, ``games`` each, per player count."""
    strong = strong if strong is not None else strong_spec(game)
    if not strong:
        return []
    out = []
    for p in players:
        per_seat = split_games(games, p)
        for role, spec in (("strong", strong), ("weak", WEAK)):
            for seat in range(p):
                specs = common.field_specs(field, p, game)
                specs[seat] = spec
                out.append(Point({"players": p, "role": role}, Matchup(p, tuple(specs), rules, deck, game=game),
                                 per_seat, tested_seat=seat))
        out.append(Point({"players": p, "role": "all strong"}, Matchup(p, (strong,) * p, rules, deck, game=game),
                         games, tested_seat=-1))
    return out


def total_games(game: str, players: list[int], games: int, strong: str | None = None) -> int:
    if not (strong if strong is not None else strong_spec(game)):
        return 0
    return sum(2 * split_games(games, p) * p + games for p in players)


def run(game: str, players: list[int], field: str | None, games: int, seed: int, rules, deck=None,
        advance=None, margin_pp: float = verdicts.MARGIN_PP, strong: str | None = None) -> AnalysisResult | None:
    """The section, its tables the skill edges and the seats under strong
    play; None where the game has no strong player."""
    strong = strong if strong is not None else strong_spec(game)
    if not strong:
        return None
    edges, seats = [], []
    for p in players:
        pts = points(game, [p], field, games, rules, deck, strong)
        tested = Collector(["players", "role"], ["tested"], [WIN])
        by_seat = Collector(["players", "role"], ["seat"], [WIN])
        play_points([pt for pt in pts if pt.key["role"] != "all strong"], seed, [tested], advance)
        play_points([pt for pt in pts if pt.key["role"] == "all strong"], seed, [by_seat], advance)
        t = stats.estimates(tested.out.seat.filter(pl.col("tested")).drop("tested"), ["players", "role"], [WIN])
        edges.append(t.with_columns((100 * (pl.col("win_share") - 1.0 / p)).alias("edge_pp"),
                                    (100 * pl.col("win_share_ci95")).alias("edge_pp_ci95")))
        seats.append(stats.estimates(by_seat.out.seat, ["players", "role", "seat"], [WIN]).drop("role"))
    name = field_of(game, field)
    edge = pl.concat(edges).with_columns(
        pl.when(pl.col("role") == "strong").then(pl.lit(strong)).otherwise(pl.lit(WEAK)).alias("player"),
        pl.lit(name).alias("field"))
    edge = edge.select("players", "role", "player", "field", "games", "win_share", "win_share_ci95", "edge_pp",
                       "edge_pp_ci95").sort("players", "role")
    seat = pl.concat(seats).sort("players", "seat")
    strong_rows = edge.filter(pl.col("role") == "strong")
    found = [skill_verdict(r, margin_pp).sentence for r in strong_rows.iter_rows(named=True)]
    summary = (f"The strong player, {strong}, in one seat against the {name} field, every seat in turn "
               f"({games:,} games per player count), and the weak one, {WEAK}, in the same seats: how far "
               f"each lands from par is how much skill counts. Then {strong} in every seat ({games:,} games): "
               "are the seats even among strong players? Intervals 95%.")
    figs = {"How far the strong and the weak player land from par (95% intervals)": figure(edge, strong)}
    alts = {next(iter(figs)): alt_text(edge)}
    return AnalysisResult("skill", "Skill against luck, and the seats under strong play", summary,
                          {"Skill: win share above par": edge, "Win share per seat under strong play": seat},
                          figs, alts=alts, findings=found,
                          meta={"strong player": strong, "field": name, "games per player count": games},
                          definitions=DEFINITIONS)


def skill_verdict(row: dict, margin_pp: float) -> verdicts.Verdict:
    p = row["players"]
    return verdicts.edge("Skill", row["edge_pp"], row["edge_pp_ci95"], int(row["games"]), margin_pp,
                         subject=f"{row['player']} against the {row['field']} field wins "
                                 f"{100 * row['win_share']:.1f}% (par {100 / p:.1f}%), a lead of",
                         effect=f"matters at {p} players", no_effect=f"barely matters at {p} players", players=p)


def verdicts_of(result: AnalysisResult | None, field_seats: list[verdicts.Verdict], game: str, field: str | None,
                margin_pp: float) -> list[verdicts.Verdict]:
    """The skill verdicts and, per player count, whether the seats under
    strong play agree with the field's seat verdict."""
    if result is None:
        return []
    edge = result.tables["Skill: win share above par"]
    seats = result.tables["Win share per seat under strong play"]
    out = [skill_verdict(r, margin_pp)
           for r in edge.filter(pl.col("role") == "strong").iter_rows(named=True)]
    by_players = {v.players: v for v in field_seats if v.question == "seats"}
    for (p,), part in seats.group_by(["players"], maintain_order=True):
        v = verdicts.seats_from_shares(part["win_share"].to_list(), part["win_share_ci95"].to_list(),
                                       int(part["games"].min()), margin_pp)
        other = by_players.get(int(p))
        agree = "" if other is None else (
            " The heuristic field agrees." if other.label == v.label and v.outcome != verdicts.UNSURE else
            f" The heuristic field: {other.label}.")
        out.append(replace(v, question="seats under strong play",
                           headline=v.headline.replace("Seats:", "Seats under strong play:"), detail=v.detail + agree))
    return out


def not_measured(game: str, margin_pp: float = verdicts.MARGIN_PP) -> verdicts.Verdict:
    """The box's line for a game whose search is not yet a strong player."""
    why = get_game(game).strategies.strong_note or "the game has no strong player yet"
    return verdicts.Verdict("skill", verdicts.UNSURE, "not measured", "Skill: not measured",
                            f"{why}; a heuristic's edge would say more about the heuristic than about the game "
                            "(--strong SPEC names a player to measure with).",
                            float("nan"), float("nan"), float("nan"), margin_pp, 0)


def figure(edge: pl.DataFrame, strong: str):
    fig, axes = common.figure(width=6.0, height=4.0)
    ax = axes[0][0]
    for off, (role, label, style) in zip((-0.06, 0.06), (("strong", strong, common.series_style(2)),
                                                          ("weak", WEAK, common.series_style(4)))):
        part = edge.filter(pl.col("role") == role)
        common.errorbar(ax, [p + off for p in part["players"].to_list()], part["edge_pp"].to_list(),
                        part["edge_pp_ci95"].to_list(), label=label, **style)
    ax.axhline(0.0, color="#555555", linestyle=":", linewidth=1)
    ax.set_xticks(sorted(set(edge["players"].to_list())))
    ax.set_xlabel("players")
    ax.set_ylabel("win share above par (percentage points)")
    ax.set_title("How much does skill count?")
    ax.legend(fontsize=10)
    return fig


def alt_text(edge: pl.DataFrame) -> str:
    parts = [f"{r['player']} at {r['players']} players {format_ci(r['edge_pp'], r['edge_pp_ci95'], signed=True)}"
             for r in edge.iter_rows(named=True)]
    return "Win share above par, percentage points: " + "; ".join(parts) + "."
