"""What Zahlemann's analyses measure, and how their points are laid out.

Every analysis of the shedding game asks the same two things of a setting
(a player count and a set of rules):

* the field's game: ``--field`` in every seat (default: the game's default
  strategy). Its games give the length (rounds, turns per round), the
  spread of outcomes (winner's margin, richest less poorest), how games end,
  what missing change costs, and each seat's win share;
* the bot edge: one seat plays a heuristic bot (``--skilled``, default
  ``counter``, the strongest fair bot of the tournament) against weak bots
  (``--weak``, default ``random``), taking every seat in turn for an equal
  share of the games, so that seat order cancels out. Its win share less par
  (1 / players), ``bot_edge``, is that heuristic's edge over weak players in
  that setting, not the game's skill: the report measures skill with the
  strong player against the default field (:mod:`analyses.skill`).

All points of an analysis play the same deals (the seed from game 0), so
their differences are sharper than their separate intervals show.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import polars as pl

from analyses import common, stats
from analyses import setting_tables as shared
from analyses.setting_tables import games_of, in_order  # noqa: F401  (the analyses' own names)
from analyses.play import Collector, Point, play_points, split_games
from analyses.stats import Mean, Ratio, Share
from zsim.harness.chunks import DEFAULT_CHUNK, Matchup

GAME = "zahlemann"
SKILLED, WEAK = "counter", "random"

#: the field's game, one row per setting
GAME_METRICS = [
    Mean("rounds", "rounds"),
    Ratio("turns_per_round", "turns", "rounds"),
    Mean("game_turns", "turns"),
    Mean("winner_margin", "margin"),
    Mean("money_range", "money_range"),
    Share("round_cap_rate", "ended_cap"),
    Share("shortfall_rate", "any_shortfall"),
    Mean("shortfall_per_game", "change_shortfall"),
    Ratio("shortfall_when_short", "change_shortfall", "any_shortfall"),
    Ratio("shortfall_share_of_paid", "change_shortfall", "all_paid", 100.0),
    Mean("penalty_draws", "all_penalty_draws"),
    Mean("bonus_plays", "bonus_plays"),
    Mean("skips", "skips"),
    Mean("hand_passes", "hand_passes"),
]
WIN = Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS)
SEAT_METRICS = [WIN, Mean("money", "total"), Mean("penalty_draws", "penalty_draws"),
                Mean("rounds_won", "rounds_won")]

LABELS = {
    "rounds": "rounds per game",
    "turns_per_round": "turns per round",
    "game_turns": "turns per game",
    "winner_margin": "winner's margin (money)",
    "money_range": "richest less poorest (money)",
    "bot_edge": "bot's win share above par among weak bots",
    "shortfall_rate": "games with missing change (share)",
    "win_share": "win share",
    "seat_spread_pp": "seat spread (percentage points of win share)",
}


def label(name: str) -> str:
    return LABELS.get(name) or common.label(name)


def game_frame(rows: pl.DataFrame, keys: list[str], players: int) -> pl.DataFrame:
    """One row per game of Zahlemann's rows: the game's own counts, the
    winner's margin, the richest less the poorest, sums over the seats, and
    each seat's win units ``w0..`` with their differences (for the seat test)."""
    if "win_units" not in rows.columns:
        rows = stats.with_win_units(rows, players)
    firsts = rows.gather_every(players)
    g = firsts.select(*keys, "game", "rounds", "void_rounds", "turns", "reshuffles", "change_shortfall",
                      "bonus_plays", "skips", "hand_passes",
                      (pl.col("end_reason") == "round_cap").cast(pl.Int64).alias("ended_cap"),
                      (pl.col("change_shortfall") > 0).cast(pl.Int64).alias("any_shortfall"))

    def by_game(col: str) -> np.ndarray:
        return rows[col].to_numpy().reshape(-1, players).astype(np.int64)

    money = np.sort(by_game("total"), axis=1)
    cols = {"margin": money[:, -1] - money[:, -2], "money_range": money[:, -1] - money[:, 0],
            "all_paid": by_game("paid").sum(axis=1),
            "all_penalty_draws": by_game("penalty_draws").sum(axis=1)}
    wins = by_game("win_units")
    for s in range(players):
        cols[f"w{s}"] = wins[:, s]
    for i, j in combinations(range(players), 2):
        cols[f"d{i}{j}"] = wins[:, i] - wins[:, j]
    return g.with_columns([pl.Series(k, v) for k, v in cols.items()])


@dataclass(frozen=True)
class Setting:
    """One row of an analysis: its key columns and the rules it plays."""
    key: dict[str, object]
    rules: object
    field: str | None = None        # overrides the analysis's --field for this setting


def points(players: list[int], settings: list[Setting], field: str | None, games: int,
           bots: tuple[str, str] | None = (SKILLED, WEAK)) -> list[Point]:
    """The field's point of every setting and player count, and with ``bots`` (bot, weak)
    the bot edge's points: the bot in each seat in turn among the weak one."""
    out = []
    for p in players:
        for s in settings:
            key = {"players": p, **s.key}
            seats = tuple(common.field_specs(s.field or field, p, GAME))
            out.append(Point({**key, "part": "field"}, Matchup(p, seats, s.rules, game=GAME), games,
                             tested_seat=-1))
            if bots is None:
                continue
            per_seat = split_games(games, p)
            for seat in range(p):
                specs = [bots[1]] * p
                specs[seat] = bots[0]
                out.append(Point({**key, "part": "bot"}, Matchup(p, tuple(specs), s.rules, game=GAME),
                                 per_seat, tested_seat=seat))
    return out


@dataclass
class Measured:
    """The merged sums of an analysis, by player count."""
    seat: dict[int, pl.DataFrame]
    game: dict[int, pl.DataFrame]


def play(pts: list[Point], keys: list[str], seed: int, advance=None, chunk: int = DEFAULT_CHUNK) -> Measured:
    """Play every point, folding its rows into integer sums as they come
    (exact: the same sums whatever the chunk size or thread count)."""
    seat, game = {}, {}
    for p in sorted({pt.matchup.players for pt in pts}):
        col = Collector([*keys, "part"], ["tested"], SEAT_METRICS, GAME_METRICS, frame=game_frame)
        play_points([pt for pt in pts if pt.matchup.players == p], seed, [col], advance, chunk)
        seat[p], game[p] = col.out.seat, col.out.game
    return Measured(seat, game)


def bot_edge_table(m: Measured, keys: list[str]) -> pl.DataFrame:
    """The bot's seat's win share among weak bots, and its edge over par, per setting."""
    parts = []
    for p, sums in m.seat.items():
        t = sums.filter((pl.col("part") == "bot") & pl.col("tested")).drop("part", "tested")
        if t.is_empty():
            continue
        est = stats.estimates(t, keys, [WIN])
        parts.append(est.with_columns((pl.col("win_share") - 1.0 / p).alias("bot_edge"),
                                      pl.col("win_share_ci95").alias("bot_edge_ci95")))
    return pl.concat(parts).sort(keys, maintain_order=True) if parts else pl.DataFrame()


def joined(m: Measured, keys: list[str], columns: list[str], settings: list[Setting] | None = None
           ) -> pl.DataFrame:
    """The field's ``columns`` (each with its interval columns) and the bot edge, one row per
    setting, in the settings' order."""
    f = field_table(m, keys)
    keep = [c for c in f.columns if c in keys or c == "games" or any(
        c == name or c.startswith(name + "_") and c[len(name) + 1:] in ("ci95", "lo", "hi") for name in columns)]
    f = f.select(keep)
    sk = bot_edge_table(m, keys)
    if not sk.is_empty():
        f = f.join(sk.select(*keys, "bot_edge", "bot_edge_ci95"), on=keys, how="left", coalesce=True,
                   maintain_order="left")
    f = f.with_columns(pl.col(pl.Float64).fill_nan(None))
    return in_order(f, keys, settings)


def check_spec(spec: str, what: str) -> str:
    return shared.check_spec(spec, what, GAME)


def field_table(m: Measured, keys: list[str]) -> pl.DataFrame:
    """The field's figures per setting, with the seat test (seat_p, spread)."""
    return shared.field_table(m.game, keys, GAME_METRICS)


def seat_table(m: Measured, keys: list[str]) -> pl.DataFrame:
    """Each seat's win share in the field's games."""
    return shared.seat_table(m.game, keys)
