"""Hol's der Geier's carry-over analysis: what keeping a fully tied table changes.

A round is *fully tied* when no bid stands alone: every bid played was played
by someone else too. The printed rules keep that prize on the table for the
next card (rule ``carry_over=true``); ``carry_over=false`` discards it. For
each player count the same deals are played both ways (common random numbers,
:mod:`analyses.play`) by two tables:

* the field: ``--field`` in every seat (default ``matcher``, the game's
  default strategy). Its games give each seat's win share (seat balance: the
  chi-square test of even seats and the largest gap between two seats), the
  mean score, the share of rounds fully tied, carried tables and what was
  discarded;
* the bot edge: a heuristic bot (``--skilled``, default ``matcher``) in one
  seat among weak ones (``--weak``, default ``random``), every seat in turn
  for an equal share of the games. Its win share less par (1 / players) is
  that heuristic's edge over weak players, not the game's skill: a report
  measures skill with the strong player against the default field
  (zsim's ``analyses.skill``).

Every figure is summed as whole numbers chunk by chunk, so a run's tables are
bit-identical whatever its chunk size or thread count.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import polars as pl

from analyses import common, stats
from analyses import setting_tables as shared
from analyses.play import Collector, Point, play_points, split_games
from analyses.result import AnalysisResult
from analyses.stats import Mean, Share
from zsim.harness.chunks import DEFAULT_CHUNK, Matchup
from zsim_geier.analyses.specs import GAME, SKILLED, WEAK

KEYS = ["players", "carry_over"]
#: the two settings (the key column carry_over), the printed rule first
SETTINGS = (True, False)
WIN = Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS)
#: the per-game counts the table reports, as means per game
COUNTS = ("carries", "discarded", "discarded_points", "biggest_table")
#: counts of rounds, reported as shares of the game's rounds (vultures + top_prize)
ROUND_SHARES = (("fully_tied_share", "fully_tied"), ("tied_share", "tied_rounds"))


def game_metrics(players: int) -> list:
    """The field's per-game figures at ``players`` seats (the mean score is per seat)."""
    return [Mean("mean_score", "all_score", 1.0 / players), Mean("winner_margin", "margin"),
            *(Mean(name, col) for name, col in ROUND_SHARES), *(Mean(c, c) for c in COUNTS),
            Share("any_discarded_rate", "any_discarded")]


def game_frame(rows: pl.DataFrame, keys: list[str], players: int) -> pl.DataFrame:
    """One row per game of Geier's rows: the game's own counts, the seats' scores summed,
    the winner's margin, the fully tied rounds, and each seat's win units ``w0..`` with
    their differences (for the seat test). ``rows`` carry the key column ``carry_over``."""
    if "win_units" not in rows.columns:
        rows = stats.with_win_units(rows, players)
    g = rows.gather_every(players).select(*keys, "game", "carries", "tied_rounds", "discarded",
                                          "discarded_points", "biggest_table")

    def by_game(col: str) -> np.ndarray:
        return rows[col].to_numpy().reshape(-1, players).astype(np.int64)

    score = np.sort(by_game("score"), axis=1)
    carry = g["carry_over"].to_numpy().astype(bool)
    carries, discarded = (g[c].to_numpy().astype(np.int64) for c in ("carries", "discarded"))
    # carried over, every fully tied round counts as a carry (the last one's table is then
    # discarded); discarded, each fully tied round throws away its one card
    cols = {"all_score": score.sum(axis=1), "margin": score[:, -1] - score[:, -2],
            "fully_tied": np.where(carry, carries, discarded),
            "any_discarded": (discarded > 0).astype(np.int64)}
    wins = by_game("win_units")
    for s in range(players):
        cols[f"w{s}"] = wins[:, s]
    for i, j in combinations(range(players), 2):
        cols[f"d{i}{j}"] = wins[:, i] - wins[:, j]
    return g.with_columns([pl.Series(k, v) for k, v in cols.items()])


# ---------------------------------------------------------------- the points
def settings(rules) -> list[tuple[bool, object]]:
    """(carry_over, the rules with it) for both settings, the printed rule first."""
    return [(flag, rules.with_overrides({"carry_over": flag})) for flag in SETTINGS]


def points(players: list[int], field: str | None, games: int, rules,
           bots: tuple[str, str] = (SKILLED, WEAK)) -> list[Point]:
    """The field's point and the bot edge's points (``bots``: the bot in each seat in turn among
    the weak one) of both settings at every player count."""
    out = []
    for p in players:
        seats = tuple(common.field_specs(field, p, GAME))
        per_seat = split_games(games, p)
        for flag, r in settings(rules):
            key = {"players": p, "carry_over": flag}
            out.append(Point({**key, "part": "field"}, Matchup(p, seats, r, game=GAME), games, tested_seat=-1))
            for seat in range(p):
                specs = [bots[1]] * p
                specs[seat] = bots[0]
                out.append(Point({**key, "part": "bot"}, Matchup(p, tuple(specs), r, game=GAME), per_seat,
                                 tested_seat=seat))
    return out


def rules_shown(rules) -> dict:
    """The rules as a run's metadata shows them: carry_over both ways, the others as set."""
    return {**rules.as_dict(), "carry_over": "true and false"}


def games_of(pts: list[Point]) -> int:
    return shared.games_of(pts)


def play(pts: list[Point], seed: int, advance=None, chunk: int = DEFAULT_CHUNK) -> tuple[dict, dict]:
    """Every point played, folded into exact sums: (seat sums, game sums), by player count."""
    seat, game = {}, {}
    for p in sorted({pt.matchup.players for pt in pts}):
        col = Collector([*KEYS, "part"], ["tested"], [WIN], game_metrics(p), frame=game_frame)
        play_points([pt for pt in pts if pt.matchup.players == p], seed, [col], advance, chunk)
        seat[p], game[p] = col.out.seat, col.out.game
    return seat, game


# ---------------------------------------------------------------- the tables
def _ordered(t: pl.DataFrame) -> pl.DataFrame:
    """Rows by player count, the printed rule (carried over) first."""
    return t.sort(["players", "carry_over"], descending=[False, True], maintain_order=True)


def seat_gaps(game_sums: dict, seats: pl.DataFrame) -> pl.DataFrame:
    """Per setting, the seats with the highest and the lowest win share and the gap between
    them, its 95% interval taken game by game (both seats play every game)."""
    rows = []
    for p, sums in game_sums.items():
        field = sums.filter(pl.col("part") == "field").drop("part")
        for part in seats.filter(pl.col("players") == p).partition_by("carry_over", maintain_order=True):
            best = part.sort("win_share", descending=True).row(0, named=True)
            worst = part.sort("win_share").row(0, named=True)
            i, j = best["seat"], worst["seat"]
            a, b = min(i, j), max(i, j)
            gap = Mean("seat_gap", f"d{a}{b}", (1.0 if a == i else -1.0) / stats.WIN_UNITS)
            row = field.filter(pl.col("carry_over") == best["carry_over"])
            est = stats.estimates(row, KEYS, [gap]).row(0, named=True)
            rows.append({"players": p, "carry_over": best["carry_over"], "best_seat": i, "worst_seat": j,
                         "seat_gap": est["seat_gap"] if i != j else 0.0,
                         "seat_gap_ci95": est["seat_gap_ci95"] if i != j else 0.0})
    return pl.DataFrame(rows, nan_to_null=True)


def bot_edge_table(seat_sums: dict) -> pl.DataFrame:
    """The bot's seat among weak bots: its win share and its edge over par, per setting."""
    parts = []
    for p, sums in seat_sums.items():
        t = sums.filter((pl.col("part") == "bot") & pl.col("tested")).drop("part", "tested")
        est = stats.estimates(t, KEYS, [WIN]).rename({"win_share": "bot_win_share",
                                                      "win_share_ci95": "bot_win_share_ci95"})
        parts.append(est.select(*KEYS, "bot_win_share", "bot_win_share_ci95",
                                (pl.col("bot_win_share") - 1.0 / p).alias("bot_edge"),
                                pl.col("bot_win_share_ci95").alias("bot_edge_ci95")))
    return pl.concat(parts)


def tables(seat_sums: dict, game_sums: dict, rounds: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(one row per setting, each seat's win share per setting)."""
    field = pl.concat([shared.field_table({p: s}, KEYS, game_metrics(p)) for p, s in game_sums.items()],
                      how="diagonal_relaxed")
    for name, _ in ROUND_SHARES:      # counts of rounds as shares of the game's rounds
        field = field.with_columns(pl.col(name) / rounds, pl.col(f"{name}_ci95") / rounds)
    seats = _ordered(shared.seat_table(game_sums, KEYS))
    players = pl.col("players").cast(field["players"].dtype)
    main = field.with_columns(pl.lit(rounds, pl.Int64).alias("rounds"))
    for part in (seat_gaps(game_sums, seats), bot_edge_table(seat_sums)):
        main = main.join(part.with_columns(players), on=KEYS, how="left", coalesce=True)
    first = [*KEYS, "games", "rounds"]
    main = main.select(*first, pl.exclude(*first)).with_columns(pl.col(pl.Float64).fill_nan(None))
    return _ordered(main), seats


# ---------------------------------------------------------------- the run
def run(players: list[int], field: str | None, games: int, seed: int, rules, advance=None,
        bots: tuple[str, str] = (SKILLED, WEAK)) -> AnalysisResult:
    """Both settings at every player count: the tables, two figures and the findings."""
    from zsim_geier.analyses import carry_over_show as show

    pts = points(players, field, games, rules, bots)
    seat_sums, game_sums = play(pts, seed, advance)
    main, seats = tables(seat_sums, game_sums, rules.n_prizes)
    field_names = ", ".join(dict.fromkeys(common.field_specs(field, max(players), GAME)))
    figs = {"Win share per seat, ties carried over and discarded (95% error bars; dotted: par)":
            show.seat_figure(seats),
            "What carry-over changes: fully tied rounds, points discarded, mean score, the bot's win share "
            "among weak bots (95% error bars; dotted: par)": show.panels(main)}
    summary = (f"{field_names} in every seat at {', '.join(map(str, players))} players, {games:,} games a "
               f"setting, with a fully tied table carried over to the next card (the printed rule) and "
               f"discarded (rule carry_over=false), on the same deals (seed {seed}); then {bots[0]} in one "
               f"seat among {bots[1]} (every seat in turn) for the bot edge, a heuristic's edge over weak "
               f"players (not the game's skill). A round is fully tied when "
               f"no bid stands alone; its share counts the game's {rules.n_prizes} rounds. seat_p tests that "
               f"every seat wins 1/players; seat_gap is the best seat's win share less the worst one's.")
    return AnalysisResult("geier-carry-over", "Carry-over: ties kept or discarded", summary,
                          {"Per setting": main, "Win share per seat": seats}, figs,
                          {"players": players, "games_per_point": games, "seed": seed, "field": field_names,
                           "bot edge": f"{bots[0]} among {bots[1]}", "rules": rules_shown(rules)},
                          alts={k: k for k in figs}, findings=show.findings(main, field_names, bots),
                          wide=tuple(figs))
