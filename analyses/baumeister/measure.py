"""What Wettstreit der Baumeister's analyses measure, and how their points are laid out.

Each analysis plays some *settings* (a player count, rules, a deck) and asks
of each up to two things:

* the field's game: ``FIELD`` (or ``--field``) in every seat. Its games give
  length, scores, completion, prices, sabotage, insolvency, each seat's win
  share, and the two safety caps of the rules: how often a game ran into
  ``max_turns`` (``max_turns_rate``) and how often a bid reached ``max_bid``
  (``max_bid_hits`` per game, ``max_bid_rate`` of games). A cap that is hit
  means the figure describes the cap as much as the game, so every table
  carries both and every analysis's findings name them when they are not 0;
* the bot edge: the heuristic bot ``SKILLED`` in one seat among ``WEAK``
  ones, taking every seat in turn for an equal share of the games (seat
  order cancels out). Its win share less par (1 / players), ``bot_edge``, is
  that heuristic's edge over weaker play, not the game's skill: a report
  measures skill with the strong player against the default field
  (:mod:`analyses.skill`), and Baumeister's report says it is not measured
  while its search is not yet a strong player.

All points of an analysis play the same seeds from game 0, so settings that
only change the rules or the deck meet the same shuffles (common random
numbers). Sums are integers, so tables are bit-identical whatever the
threads or chunks. docs/analyses.md (Baumeister part) gives every formula.
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
from analyses.baumeister.fields import FIELD, SKILLED, WEAK  # noqa: F401  (the field and the bot edge's bots)
from analyses.stats import Mean, Ratio, Share
from zsim.errors import ZsimError
from zsim.games.baumeister import constants as K
from zsim.harness.chunks import DEFAULT_CHUNK, Matchup

GAME = "baumeister"
#: the field's game, one row per setting (every column is a per-game figure; see game_frame)
GAME_METRICS = [
    Mean("game_turns", "turns"),
    Mean("auctions", "auctions"),
    Share("max_turns_rate", "ended_cap"),
    Mean("max_bid_hits", "max_bid_hits"),
    Share("max_bid_rate", "any_max_bid"),
    Ratio("mean_score", "all_total", "seats"),
    Mean("winner_score", "top"),
    Mean("winner_margin", "margin"),
    Ratio("complete_share", "all_complete", "seats"),
    Ratio("built_per_seat", "all_built", "seats"),
    Ratio("hand_per_seat", "all_hand", "seats"),
    Ratio("price_per_card", "all_price", "all_sold"),
    Mean("cards_sold", "all_sold"),
    Mean("unsold", "unsold"),
    Mean("hidden_auctions", "hidden_auctions"),
    Mean("insolvencies", "insolvencies"),
    Share("insolvency_rate", "any_insolvent"),
    Mean("attacks", "all_attacks"),
    Mean("building_attacks", "building_attacks"),
    Mean("hand_attacks", "hand_attacks"),
    Mean("cards_destroyed", "cards_destroyed"),
    Ratio("income_per_seat", "all_income", "seats"),
    Ratio("sales_per_seat", "all_sales", "seats"),
    Ratio("sales_per_auction", "all_sales", "auctions"),
    Ratio("sales_share_of_paid", "all_sales", "all_paid"),
    Ratio("paid_per_seat", "all_paid", "seats"),
    Ratio("gate_price", "price_city_gate", "sold_city_gate"),
    Ratio("middle_rate", "n_middle", "seats"),
    Ratio("churches_rate", "n_churches", "seats"),
    Ratio("corners_rate", "n_corners", "seats"),
    Ratio("middle_if_complete", "n_middle", "all_complete"),
    Ratio("churches_if_complete", "n_churches", "all_complete"),
    Ratio("corners_if_complete", "n_corners", "all_complete"),
    Share("middle_decides", "dec_middle"),
    Share("churches_decides", "dec_churches"),
    Share("corners_decides", "dec_corners"),
    Share("bonus_decides", "dec_any"),
]
WIN = Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS)
SEAT_METRICS = [WIN, Mean("score", "total"), Mean("built", "built"), Mean("complete", "complete"),
                Mean("paid", "paid"), Mean("sales", "sales"), Mean("income", "income"),
                Mean("insolvent", "insolvent"), Share("insolvent_rate", "any_insolvent"),
                Mean("penalty", "penalty"), Mean("attacks", "attacks"), Mean("destroyed", "destroyed"),
                Mean("cards_won", "cards_won")]
#: the two caps every table carries
CAPS = ["max_turns_rate", "max_bid_hits", "max_bid_rate"]

LABELS = {
    "game_turns": "turns per game",
    "mean_score": "mean score per seat (points)",
    "winner_score": "winner's score (points)",
    "complete_share": "complete cities (share of seats)",
    "price_per_card": "price per card sold (Thaler)",
    "insolvencies": "insolvencies per game",
    "bot_edge": "bot's win share above par among weak bots",
    "win_share": "win share",
    "sales_per_auction": "auctioneer's takings per auction (Thaler)",
    "cards_destroyed": "cards destroyed per game",
    "attacks": "saboteurs sent per game",
}


def label(name: str) -> str:
    return LABELS.get(name) or common.label(name)


def _by_game(rows: pl.DataFrame, col: str, players: int) -> np.ndarray:
    return rows[col].to_numpy().reshape(-1, players).astype(np.int64)


def decided_by(total: np.ndarray, place: np.ndarray, bonus: np.ndarray) -> np.ndarray:
    """Per game (rows of [games, players] arrays), 1 where the bonus decided the game: a winner
    (place 1) who, without that bonus of theirs, would score below another seat (who keeps all of
    theirs). A game no winner got the bonus in is never decided by it."""
    players = total.shape[1]
    out = np.zeros(total.shape[0], np.int64)
    for s in range(players):
        others = np.delete(total, s, axis=1).max(axis=1)
        out |= ((place[:, s] == 1) & (bonus[:, s] > 0) & (total[:, s] - bonus[:, s] < others)).astype(np.int64)
    return out


def game_frame(rows: pl.DataFrame, keys: list[str], players: int) -> pl.DataFrame:
    """One row per game of Baumeister's rows: the game's own counts, sums over its seats,
    the winner's score and margin, which bonus decided it, and each seat's win units ``w0..``
    with their differences (for the seat test)."""
    if "win_units" not in rows.columns:
        rows = stats.with_win_units(rows, players)
    firsts = rows.gather_every(players)
    g = firsts.select(*keys, "game", "turns", "auctions", "hidden_auctions", "unsold", "insolvencies",
                      "max_bid_hits", "building_attacks", "hand_attacks", "cards_destroyed",
                      (pl.col("end_reason").cast(pl.String) == "max_turns").cast(pl.Int64).alias("ended_cap"),
                      (pl.col("max_bid_hits") > 0).cast(pl.Int64).alias("any_max_bid"),
                      (pl.col("insolvencies") > 0).cast(pl.Int64).alias("any_insolvent"),
                      (pl.col("building_attacks") + pl.col("hand_attacks")).alias("all_attacks"),
                      "price_city_gate", "sold_city_gate",
                      pl.sum_horizontal(*(pl.col(f"sold_{t}") for t in K.TYPES)).alias("all_sold"),
                      pl.sum_horizontal(*(pl.col(f"price_{t}") for t in K.TYPES)).alias("all_price"))
    total, place = _by_game(rows, "total", players), _by_game(rows, "place", players)
    ordered = np.sort(total, axis=1)
    cols = {"seats": np.full(len(total), players, np.int64), "top": ordered[:, -1],
            "margin": ordered[:, -1] - ordered[:, -2]}
    for c in ("total", "complete", "built", "hand", "income", "sales", "paid"):
        cols[f"all_{c}"] = _by_game(rows, c, players).sum(axis=1)
    any_decided = np.zeros(len(total), np.int64)
    for b in ("middle", "churches", "corners"):
        bonus = _by_game(rows, b, players)
        cols[f"n_{b}"] = (bonus > 0).sum(axis=1)
        cols[f"dec_{b}"] = decided_by(total, place, bonus)
        any_decided |= cols[f"dec_{b}"]
    cols["dec_any"] = any_decided
    wins = _by_game(rows, "win_units", players)
    for s in range(players):
        cols[f"w{s}"] = wins[:, s]
    for i, j in combinations(range(players), 2):
        cols[f"d{i}{j}"] = wins[:, i] - wins[:, j]
    return g.with_columns([pl.Series(k, v) for k, v in cols.items()])


class SeatCollector(Collector):
    """A :class:`Collector` whose seat rows also carry ``any_insolvent`` (0/1)."""

    def add(self, rows: pl.DataFrame, players: int) -> None:
        super().add(rows.with_columns((pl.col("insolvent") > 0).cast(pl.Int64).alias("any_insolvent")), players)


@dataclass(frozen=True)
class Setting:
    """One row of an analysis: its key columns, the rules and the deck it plays."""
    key: dict[str, object]
    rules: object
    deck: object = None
    field: str | None = None        # overrides the analysis's field for this setting


def field_of(field: str | None) -> str:
    """The field spec an analysis plays: ``--field`` or :data:`FIELD`."""
    return field if field and field.strip() else FIELD


def field_names(field: str | None) -> str:
    return ", ".join(dict.fromkeys(common.field_specs(field_of(field), 4, GAME)))


def points(players: list[int], settings: list[Setting], field: str | None, games: int,
           bots: tuple[str, str] | None = None) -> list[Point]:
    """The field's point of every setting and player count, and with ``bots`` (bot, weak)
    the bot edge's points: the bot in each seat in turn among the weak one."""
    out = []
    for p in players:
        for s in settings:
            key = {"players": p, **s.key}
            seats = tuple(common.field_specs(field_of(s.field or field), p, GAME))
            out.append(Point({**key, "part": "field"}, Matchup(p, seats, s.rules, s.deck, game=GAME), games,
                             tested_seat=-1))
            if bots is None:
                continue
            per_seat = split_games(games, p)
            for seat in range(p):
                specs = [bots[1]] * p
                specs[seat] = bots[0]
                out.append(Point({**key, "part": "bot"}, Matchup(p, tuple(specs), s.rules, s.deck, game=GAME),
                                 per_seat, tested_seat=seat))
    return out


@dataclass
class Measured:
    """The merged sums of an analysis, by player count."""
    seat: dict[int, pl.DataFrame]
    game: dict[int, pl.DataFrame]


def play(pts: list[Point], keys: list[str], seed: int, advance=None, chunk: int = DEFAULT_CHUNK,
         seat_by: tuple[str, ...] = ("tested",)) -> Measured:
    """Play every point, folding its rows into integer sums as they come."""
    seat, game = {}, {}
    for p in sorted({pt.matchup.players for pt in pts}):
        col = SeatCollector([*keys, "part"], list(seat_by), SEAT_METRICS, GAME_METRICS, frame=game_frame)
        play_points([pt for pt in pts if pt.matchup.players == p], seed, [col], advance, chunk)
        seat[p], game[p] = col.out.seat, col.out.game
    return Measured(seat, game)


def bot_edge_table(m: Measured, keys: list[str]) -> pl.DataFrame:
    """The bot's seat among weak bots: its edge over par and its score, per setting."""
    parts = []
    for p, sums in m.seat.items():
        t = sums.filter((pl.col("part") == "bot") & pl.col("tested")).drop("part", "tested")
        if t.is_empty():
            continue
        est = stats.estimates(t, keys, [WIN, Mean("score", "total")])
        parts.append(est.select(*keys, (pl.col("win_share") - 1.0 / p).alias("bot_edge"),
                                pl.col("win_share_ci95").alias("bot_edge_ci95"),
                                pl.col("score").alias("bot_score"),
                                pl.col("score_ci95").alias("bot_score_ci95")))
    return pl.concat(parts).sort(keys, maintain_order=True) if parts else pl.DataFrame()


def select_metrics(f: pl.DataFrame, keys: list[str], columns: list[str]) -> pl.DataFrame:
    """``keys``, games and ``columns`` (each with its interval columns), the caps last."""
    want = [c for c in [*columns, *CAPS] if c in f.columns or f"{c}_lo" in f.columns]
    want = list(dict.fromkeys(want))
    keep = [*keys, "games"]
    for name in want:
        keep += [c for c in (name, f"{name}_ci95", f"{name}_lo", f"{name}_hi") if c in f.columns]
    return f.select(keep)


def joined(m: Measured, keys: list[str], columns: list[str], settings: list[Setting] | None = None
           ) -> pl.DataFrame:
    """The field's ``columns`` (with intervals), the caps, and the bot edge, one row per setting."""
    f = select_metrics(field_table(m, keys), keys, columns)
    sk = bot_edge_table(m, keys)
    if not sk.is_empty():
        f = f.join(sk, on=keys, how="left", coalesce=True, maintain_order="left")
    f = f.with_columns(pl.col(pl.Float64).fill_nan(None))
    return in_order(f, keys, settings)


def caps_text(t: pl.DataFrame, what: str = "") -> str:
    """A sentence on the two caps: that neither was hit, or where and how often."""
    turns = [r for r in t.iter_rows(named=True) if (r.get("max_turns_rate") or 0) > 0]
    bids = [r for r in t.iter_rows(named=True) if (r.get("max_bid_hits") or 0) > 0]
    name = f" {what}" if what else ""
    if not turns and not bids:
        return (f"No game{name} reached max_turns and no bid reached max_bid: the caps shaped none of "
                f"these figures.")
    parts = []

    def where(r):
        return ", ".join(f"{k} {r[k]}" for k in r if k in _KEYS_SHOWN)
    if turns:
        parts.append("max_turns ended " + "; ".join(
            f"{common.rate_text(r['max_turns_rate'], r['max_turns_rate_lo'], r['max_turns_rate_hi'])} of games "
            f"({where(r)})" for r in turns))
    else:
        parts.append("no game reached max_turns")
    if bids:
        parts.append("bids reached max_bid " + "; ".join(
            f"{r['max_bid_hits']:.3f} times a game ({where(r)})" for r in bids))
    else:
        parts.append("no bid reached max_bid")
    return "Caps" + name + ": " + "; ".join(parts) + "; those figures partly describe the cap."


#: key columns a caps sentence names
_KEYS_SHOWN = ("players", "rules", "deck", "gates", "field", "sabotage", "strategy")


# ---------------------------------------------------------------- the per-card log
#: integer units of a bonus share: a bonus split among k cards (k <= 9) is whole in these
BONUS_UNITS = 2520


def card_frame(deck, seat_out: np.ndarray, game_out: np.ndarray, cards: np.ndarray, first: int
               ) -> pl.DataFrame:
    """One row per game and card of the per-card log: type, value, whether sold, price, the tenth
    of the game it was sold in (0..9, by its turn against the game's turns), its final worth
    (value if built, minus value if in a hand, 0 in a stack) and the bonus points its city's bonuses
    hand it (in :data:`BONUS_UNITS`: the middle bonus goes to the town hall; the churches bonus is
    split equally among the town hall and the churches; the corners bonus between the two corner
    towers)."""
    n, n1 = cards.shape[0], cards.shape[1]
    d = deck.arrays()
    kind = np.tile(d[1:, K.D_TYPE], n)
    value = np.tile(d[1:, K.D_VALUE], n)
    log = cards[:, 1:, :].reshape(-1, K.N_CARD_LOG)
    turns = np.repeat(game_out[:, K.G_TURNS], n1 - 1)
    sold = (log[:, K.CL_TIMES] > 0).astype(np.int64)
    tenth = np.where(sold > 0, np.minimum(9, (np.maximum(log[:, K.CL_TURN], 1) - 1) * 10 // np.maximum(turns, 1)), -1)
    end, owner = log[:, K.CL_END], log[:, K.CL_OWNER]
    worth = np.where(end == K.CE_CITY, value, np.where(end == K.CE_HAND, -value, 0))
    bonus = np.zeros(len(log), np.int64)
    game_idx = np.repeat(np.arange(n), n1 - 1)
    in_city = end == K.CE_CITY
    own = np.where(in_city, owner, 0)
    so = seat_out[game_idx, own]
    # the cards each city's bonus is shared among
    city_key = game_idx * 16 + own
    churches = np.bincount(city_key[in_city & (kind == K.CHURCH)], minlength=n * 16)[city_key]
    is_hall, is_church, is_corner = kind == K.HALL, kind == K.CHURCH, kind == K.CORNER
    mid = so[:, K.S_MIDDLE] * BONUS_UNITS
    ch = so[:, K.S_CHURCHES] * BONUS_UNITS // np.maximum(churches + 1, 1)
    co = so[:, K.S_CORNERS] * BONUS_UNITS // 2
    bonus = np.where(in_city, np.where(is_hall, mid + ch, 0) + np.where(is_church, ch, 0)
                     + np.where(is_corner, co, 0), 0)
    return pl.DataFrame({
        "game": (first + game_idx).astype(np.int64), "type": kind.astype(np.int64), "value": value.astype(np.int64),
        "sold": sold, "price": np.where(sold > 0, log[:, K.CL_PRICE], 0).astype(np.int64),
        "tenth": tenth.astype(np.int64), "worth": worth.astype(np.int64), "bonus": bonus.astype(np.int64),
        "built": in_city.astype(np.int64), "in_hand": (end == K.CE_HAND).astype(np.int64),
        "lost": ((end == K.CE_STACK) & (sold > 0)).astype(np.int64),
        "bought_worth": np.where(sold > 0, worth, 0).astype(np.int64),
        "bought_bonus": np.where(sold > 0, bonus, 0).astype(np.int64),
        "hidden": (sold * (log[:, K.CL_STACK] == K.STACK_HIDDEN)).astype(np.int64),
        "one": np.ones(len(log), np.int64),
    })


def per_game_sums(frame: pl.DataFrame, by: list[str], cols: list[str]) -> pl.DataFrame:
    """The per-game sums of ``cols`` in each group of ``by`` (the game is the unit of the intervals)."""
    return frame.group_by([*by, "game"]).agg([pl.col(c).sum() for c in cols])


def play_cards(matchup: Matchup, games: int, seed: int, advance=None, chunk: int = 2_000):
    """Play ``games`` games of ``matchup`` with the per-card log, ``chunk`` at a time:
    yields (seat rows, game rows, cards, first game) per chunk."""
    from zsim.games.baumeister.batch import play_cards as play
    from zsim.strategy_registry import strategy_arrays

    ids, params = strategy_arrays(GAME, list(matchup.strategies))
    for first in range(0, games, chunk):
        n = min(chunk, games - first)
        so, go, cards = play(matchup.rules, matchup.deck, seed, first, n, ids, params)
        if (go[:, K.G_ILLEGAL] != 0).any():
            g = int(np.argmax(go[:, K.G_ILLEGAL] != 0))
            raise ZsimError(f"game {first + g}: {matchup.spec.illegal_detail(go[g], matchup.strategies)} "
                            f"made an illegal decision")
        yield so, go, cards, first
        if advance is not None:
            advance(n)


def check_spec(spec: str, what: str) -> str:
    return shared.check_spec(spec, what, GAME)


def field_table(m: Measured, keys: list[str]) -> pl.DataFrame:
    """The field's figures per setting, with the seat test (seat_p, spread)."""
    return shared.field_table(m.game, keys, GAME_METRICS)


def seat_table(m: Measured, keys: list[str]) -> pl.DataFrame:
    """Each seat's win share in the field's games."""
    return shared.seat_table(m.game, keys)
