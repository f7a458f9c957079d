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
from zsim.harness.chunks import Matchup

SEAT_METRICS = [Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS)]
HEADLINE = ["seat_spread_pp", "winner_margin", "one_bidder_share", "tie_rate",
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
    """Headline figures and the first seat's win share per deck at one player count (pure)."""
    bal = common.balance_table(game_sums, ["players", "deck"], players)
    first = stats.estimates(seat_sums.filter(pl.col("seat") == 0).drop("seat"), ["players", "deck"],
                            SEAT_METRICS)
    first = first.select("players", "deck", pl.col("win_share").alias("seat0_win_share"),
                         pl.col("win_share_ci95").alias("seat0_win_share_ci95"))
    keep = ["players", "deck", "games", "seat_p"] + [c for h in HEADLINE for c in (h, f"{h}_ci95", f"{h}_lo",
                                                                                    f"{h}_hi")
                                                      if c in bal.columns]
    t = bal.select(keep).join(first, on=["players", "deck"], how="left")
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


def figures(t: pl.DataFrame, players_list) -> dict:
    """One panel per headline figure, the decks along x, a series per player count."""
    fig, axes = common.figure(ncols=4, nrows=2, width=3.2, height=3.0)
    names = list(dict.fromkeys(t["deck"].to_list()))
    shift = {p: (i - (len(players_list) - 1) / 2) * 0.12 for i, p in enumerate(players_list)}
    for ax, metric in zip([a for row in axes for a in row], HEADLINE):
        for p in players_list:
            part = t.filter(pl.col("players") == p)
            x = [names.index(d) + shift[p] for d in part["deck"].to_list()]
            style = {**common.series_style(p), "linestyle": "none"}
            if f"{metric}_lo" in part.columns:
                common.errorbar_range(ax, x, part[metric].to_list(), part[f"{metric}_lo"].to_list(),
                                      part[f"{metric}_hi"].to_list(), f"{p} players", **style)
            else:
                common.errorbar(ax, x, part[metric].to_list(), part[f"{metric}_ci95"].to_list(),
                                f"{p} players", **style)
        ax.set_xticks(range(len(names)), names, rotation=35, ha="right", fontsize=9)
        ax.tick_params(axis="y", labelsize=9)
        ax.set_title(common.label(metric), fontsize=10)
    common.legend_below(fig, axes[0][0])
    counts = ", ".join(map(str, players_list))
    fig.suptitle(f"Headline figures per job deck at {counts} players (bars: 95% intervals)", fontsize=11)
    return {f"Headline figures per job deck at {counts} players": fig}


def run(players_list, field: str | None, games: int, seed: int, rules, extra_decks: list[Deck],
        perturbations: int = 3, advance=None) -> AnalysisResult:
    if isinstance(players_list, int):
        players_list = [players_list]
    all_decks = decks(extra_decks, perturbations, seed, rules.supply)
    parts = []
    for p in players_list:
        seats = tuple(common.field_specs(field, p))
        pts = [Point({"players": p, "deck": d.name}, Matchup(p, seats, rules, d), games) for d in all_decks]
        col = Collector(["players", "deck"], ["seat"], SEAT_METRICS, common.GAME_METRICS)
        play_points(pts, seed, [col], advance)
        parts.append(table(col.out.game, col.out.seat, [d.name for d in all_decks], p))
    t = pl.concat(parts, how="diagonal_relaxed")
    field_names = sorted(set(common.field_specs(field, max(players_list))))
    counts = ", ".join(map(str, players_list))
    summary = (f"The field ({', '.join(field_names)}) at {counts} players, {games:,} games per deck, seed "
               f"{seed}: the default deck, {len(extra_decks)} deck(s) given with --deck and {perturbations} "
               "random perturbation(s) of the default deck, each moving one required worker of about a "
               "third of the jobs to another type. All decks are played on the same seeds, so the "
               "differences between decks are steadier than each row's interval suggests.")
    caption = f"Headline figures per deck ({counts} players)"
    figs = figures(t, players_list)
    return AnalysisResult("deck", f"Job deck sensitivity at {counts} players", summary,
                          {caption: t, "Workers the jobs need, per deck": needs_table(all_decks)},
                          figs,
                          {"players": list(players_list), "field": field_names, "games_per_point": games,
                           "seed": seed, "decks": [d.name for d in all_decks]},
                          alts={c: deck_finding(t, players_list) for c in figs},
                          findings=[deck_finding(t, players_list)])


def deck_finding(t: pl.DataFrame, players_list) -> str:
    """How far the decks move the game's length and its payday burden."""
    parts = []
    for p in players_list:
        part = t.filter(pl.col("players") == p)
        turns = part["game_turns"].to_list()
        share = part["payday_share_of_income"].to_list()
        parts.append(f"at {p} players game length {common.span_text(turns, '.1f')} turns and payday cost "
                     f"{common.span_text([100 * x for x in share], '.0f')}% of job income")
    return f"Across the {t['deck'].n_unique()} decks tried: " + "; ".join(parts) + "."
