"""Would a different job deck change the game? The headline figures for the
default deck, any user decks, and random perturbations of the default deck.

A perturbation moves one required worker of about a third of the jobs to
another type (a job keeps its size; no job needs more of a type than the
supply holds), drawn from the run seed, so the same seed names the same decks.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from analyses import common, stats
from analyses.play import Collector, Point, play_points
from analyses.result import AnalysisResult
from analyses.stats import Mean
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.deck import Deck, default_deck
from zsim.runner import Matchup

SEAT_METRICS = [Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS)]
HEADLINE = ["seat_advantage", "winner_margin", "one_bidder_share", "tie_rate",
            "payday_share_of_income", "elimination_rate", "lead_changes", "game_turns"]
SHARE_MOVED = 1 / 3


def perturb(deck: Deck, rng: np.random.Generator, supply, name: str) -> Deck:
    """A copy of ``deck`` with one worker of about a third of its jobs moved
    to another type."""
    needs = deck.needs.copy()
    for j in range(needs.shape[0]):
        if rng.random() >= SHARE_MOVED:
            continue
        have = [t for t in range(K.N_TYPES) if needs[j, t] > 0]
        give = have[int(rng.integers(len(have)))]
        options = [t for t in range(K.N_TYPES) if t != give and needs[j, t] < supply[t]]
        take = options[int(rng.integers(len(options)))]
        needs[j, give] -= 1
        needs[j, take] += 1
    return Deck(name, needs)


def decks(extra: list[Deck], perturbations: int, seed: int, supply) -> list[Deck]:
    rng = np.random.default_rng([seed, 0x5EED_DEC4])
    base = default_deck()
    out = [Deck("default", base.needs), *extra]
    out += [perturb(base, rng, supply, f"perturbed-{i + 1}") for i in range(perturbations)]
    names = [d.name for d in out]
    for i, d in enumerate(out):   # two user decks with one file name stay apart
        if names.count(d.name) > 1:
            out[i] = Deck(f"{d.name}#{i}", d.needs)
    return out


def table(game_sums: pl.DataFrame, seat_sums: pl.DataFrame, order: list[str], players: int) -> pl.DataFrame:
    """Headline figures and the first seat's win share per deck (pure)."""
    bal = common.balance_table(game_sums, ["deck"], players)
    first = stats.estimates(seat_sums.filter(pl.col("seat") == 0).drop("seat"), ["deck"], SEAT_METRICS)
    first = first.select("deck", pl.col("win_share").alias("seat0_win_share"),
                         pl.col("win_share_ci95").alias("seat0_win_share_ci95"))
    keep = ["deck", "games"] + [c for h in HEADLINE for c in (h, f"{h}_ci95")]
    t = bal.select(keep).join(first, on="deck", how="left")
    rank = {d: i for i, d in enumerate(order)}
    return t.sort(pl.col("deck").replace_strict(rank, default=len(rank)))


def needs_table(all_decks: list[Deck]) -> pl.DataFrame:
    """Each deck's jobs as totals per worker type (what the perturbations moved)."""
    rows = []
    for d in all_decks:
        tot = d.needs.sum(axis=0)
        rows.append({"deck": d.name, "jobs": d.n_jobs, **{f"{name}_needed": int(tot[t]) for t, name in
                                                          enumerate(("foremen", "workers", "cranes", "excavators"))}})
    return pl.DataFrame(rows)


def figures(t: pl.DataFrame, players: int) -> dict:
    fig, axes = common.figure(ncols=4, nrows=2, width=3.4, height=3.0)
    names = t["deck"].to_list()
    for ax, metric in zip([a for row in axes for a in row], HEADLINE):
        ax.errorbar(range(len(names)), t[metric].to_list(), yerr=t[f"{metric}_ci95"].fill_null(0).to_list(),
                    fmt="o", capsize=3)
        ax.set_xticks(range(len(names)), names, rotation=45, ha="right", fontsize=7)
        ax.set_title(common.label(metric), fontsize=8)
    fig.suptitle(f"Headline figures per job deck ({players} players)")
    return {"Headline figures per deck (95% error bars)": fig}


def run(players: int, field: str | None, games: int, seed: int, rules, extra_decks: list[Deck],
        perturbations: int = 3, advance=None) -> AnalysisResult:
    seats = tuple(common.field_specs(field, players))
    all_decks = decks(extra_decks, perturbations, seed, rules.supply)
    pts = [Point({"deck": d.name}, Matchup(players, seats, rules, d), games) for d in all_decks]
    col = Collector(["deck"], ["seat"], SEAT_METRICS, common.GAME_METRICS)
    play_points(pts, seed, [col], advance)
    t = table(col.out.game, col.out.seat, [d.name for d in all_decks], players)
    summary = (f"{players} players ({', '.join(seats)}), {games:,} games per deck, seed {seed}: the default "
               f"deck, {len(extra_decks)} deck(s) given with --deck and {perturbations} random perturbation(s) "
               "of the default deck, each moving one required worker of about a third of the jobs to another "
               "type.")
    return AnalysisResult(f"deck-{players}p", f"Job deck sensitivity ({players} players)", summary,
                          {"Headline figures per deck": t, "Workers the jobs need, per deck": needs_table(all_decks)},
                          figures(t, players),
                          {"players": players, "field": list(seats), "games_per_point": games, "seed": seed,
                           "decks": [d.name for d in all_decks]})
