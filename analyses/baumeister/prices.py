"""Do auctions price Baumeister's cards right? The price paid per card type and
value, over the course of the game, against what the card was finally worth.

Played with the fast engine's per-card log (``batch.play_cards``): for each
game and card, its last sale (price, turn, buyer, stack) and where it ended.
A bought card's *worth* is its value if it ended built, minus its value if it
ended in a hand (the hand is subtracted at scoring), 0 if it ended back in a
stack (destroyed by a saboteur). Its *bonus* is the share of its city's
bonuses it stands for: the middle bonus goes to the town hall, the churches
bonus is split equally among the town hall and the churches, the corners
bonus between the two corner towers (a complete city needs every card, so
this is one way of splitting, not a causal claim). A card sold more than once
(destroyed and sold again) counts its last sale. Intervals are ratios of
per-game sums (the game is the unit: cards of one game are not independent).
"""
from __future__ import annotations

import polars as pl

from analyses import common, stats
from analyses.baumeister import measure
from analyses.baumeister.questions import _pm
from analyses.result import AnalysisResult
from analyses.stats import Ratio
from zsim.games.baumeister import constants as K
from zsim.harness.chunks import Matchup

PLURAL = {"corner_tower": "corner towers", "tower": "towers", "city_gate": "city gates", "town_hall": "town halls",
          "church": "churches"}
CARD_COLS = ["sold", "price", "bought_worth", "worth_bonus", "built", "in_hand", "lost", "hidden", "one"]
CARD_METRICS = [
    Ratio("price", "price", "sold"),
    Ratio("worth", "bought_worth", "sold"),
    Ratio("worth_with_bonus", "worth_bonus", "sold", 1.0 / measure.BONUS_UNITS),
    Ratio("points_per_thaler", "bought_worth", "price"),
    Ratio("sold_share", "sold", "one"),
    Ratio("built_share", "built", "sold"),
    Ratio("hand_share", "in_hand", "sold"),
    Ratio("lost_share", "lost", "sold"),
    Ratio("hidden_share", "hidden", "sold"),
]


def points(players, field, games, rules, deck) -> list[tuple[int, Matchup, int]]:
    from analyses.common import field_specs

    return [(p, Matchup(p, tuple(field_specs(measure.field_of(field), p, measure.GAME)), rules, deck,
                        game=measure.GAME), games) for p in players]


def total_games(players, field, games, rules, deck) -> int:
    return sum(g for _, _, g in points(players, field, games, rules, deck))


def _fold(acc: dict, name: str, frame: pl.DataFrame, by: list[str], cols: list[str], metrics) -> None:
    s = stats.sums(frame, by, cols, stats.ratio_products(metrics))
    acc[name] = stats.merge(acc.get(name), s, by)


def run(players: list[int], field: str | None, games: int, seed: int, rules, deck, advance=None,
        chunk: int = 2_000) -> AnalysisResult:
    from zsim.harness.chunks import rows_frame

    acc: dict = {}
    for p, m, n in points(players, field, games, rules, deck):
        for so, go, cards, first in measure.play_cards(m, n, seed, advance, chunk):
            c = measure.card_frame(m.deck, so, go, cards, first).with_columns(
                (pl.col("bought_worth") * measure.BONUS_UNITS + pl.col("bought_bonus")).alias("worth_bonus"),
                pl.lit(p, pl.Int64).alias("players"))
            sold = c.filter(pl.col("sold") > 0)
            _fold(acc, "value", measure.per_game_sums(c, ["players", "type", "value"], CARD_COLS),
                  ["players", "type", "value"], CARD_COLS, CARD_METRICS)
            _fold(acc, "type", measure.per_game_sums(c, ["players", "type"], CARD_COLS),
                  ["players", "type"], CARD_COLS, CARD_METRICS)
            _fold(acc, "tenth", measure.per_game_sums(sold, ["players", "type", "tenth"], CARD_COLS),
                  ["players", "type", "tenth"], CARD_COLS, CARD_METRICS)
            rows = rows_frame(m, so, go, first).with_columns(pl.lit(p, pl.Int64).alias("players"))
            g = measure.game_frame(rows, ["players"], p)
            cols = stats.metric_columns(measure.GAME_METRICS)
            _fold(acc, f"game{p}", g, ["players"], cols, measure.GAME_METRICS)
    names = pl.DataFrame({"type": list(range(K.N_TYPES)), "card_type": list(K.TYPES)})

    def table(name: str, by: list[str]) -> pl.DataFrame:
        t = stats.estimates(acc[name], by, CARD_METRICS).join(names, on="type", how="left", maintain_order="left")
        return t.select("players", "card_type", *[c for c in t.columns if c not in ("players", "card_type", "type")]
                        ).with_columns(pl.col(pl.Float64).fill_nan(None))

    by_type, by_value, by_tenth = (table("type", ["players", "type"]), table("value", ["players", "type", "value"]),
                                   table("tenth", ["players", "type", "tenth"]))
    game = pl.concat([stats.estimates(acc[f"game{p}"], ["players"], measure.GAME_METRICS) for p in players])
    game = measure.select_metrics(game, ["players"], ["game_turns", "price_per_card", "cards_sold", "unsold"])
    caps = game.select("players", *[c for c in game.columns if c.split("_ci95")[0].removesuffix("_lo")
                                    .removesuffix("_hi") in measure.CAPS])
    by_type = by_type.join(caps, on="players", how="left", maintain_order="left")
    findings = []
    for p in players:
        part = by_type.filter(pl.col("players") == p)
        best = part.sort("points_per_thaler", descending=True, nulls_last=True).row(0, named=True)
        worst = part.sort("points_per_thaler", nulls_last=True).row(0, named=True)
        findings.append(
            f"{p} players: per Thaler paid, {PLURAL[best['card_type']]} return the most points "
            f"({_pm(best, 'points_per_thaler', '.2f')}: price {_pm(best, 'price')}, worth {_pm(best, 'worth')}), "
            f"{PLURAL[worst['card_type']]} the fewest ({_pm(worst, 'points_per_thaler', '.2f')}: price "
            f"{_pm(worst, 'price')}, worth {_pm(worst, 'worth')}); with their share of the bonuses, "
            + ", ".join(f"{r['card_type'].replace('_', ' ')} {_pm(r, 'worth_with_bonus')}"
                        for r in part.iter_rows(named=True)) + " points a card.")
        early = _pooled(acc["tenth"], p, pl.col("tenth") <= 1)
        late = _pooled(acc["tenth"], p, pl.col("tenth") >= 8)
        if early and late:
            findings.append(f"{p} players, over the game: cards bought in the first fifth of the game cost "
                            f"{early[0]:.1f} Thaler and end worth {early[1]:.1f} points; in the last fifth "
                            f"{late[0]:.1f} Thaler and {late[1]:.1f} points.")
    findings.append(measure.caps_text(game))
    figs = {"Price paid against final worth per card type (95% error bars)": _type_figure(by_type),
            "Price and worth over the course of the game, per card type (95% error bars)": _tenth_figure(by_tenth),
            "Price by card value, per card type (95% error bars)": _value_figure(by_value)}
    summary = (f"{measure.field_names(field)} in every seat at {', '.join(map(str, players))} players, {games:,} games "
               f"each, seed {seed}, with the per-card log. price: Thaler paid per card sold; worth: its value if "
               f"built, minus its value if left in hand, 0 if destroyed; worth_with_bonus adds the card's share of "
               f"its city's bonuses; points_per_thaler is worth over price; tenth: the tenth of the game (by turn) "
               f"the card was bought in. A card sold twice counts its last sale.")
    return AnalysisResult("baumeister-prices", "Do auctions price the cards right?", summary,
                          {"Per card type": by_type, "Per card type and value": by_value,
                           "Per card type and tenth of the game": by_tenth, "Games behind the prices": game},
                          figs, {"players": players, "games_per_point": games, "seed": seed,
                                 "field": measure.field_names(field)},
                          alts={k: k for k in figs}, findings=findings, details=("Per card type and tenth of the game",),
                          wide=tuple(figs))


def _pooled(summed: pl.DataFrame, p: int, keep: pl.Expr) -> tuple[float, float] | None:
    part = summed.filter((pl.col("players") == p) & keep)
    sold = part["sold:s"].sum()
    if not sold:
        return None
    return part["price:s"].sum() / sold, part["bought_worth:s"].sum() / sold


def _type_figure(t: pl.DataFrame):
    fig, axes = common.figure(ncols=2, width=4.8, height=3.8)
    a, b = axes[0]
    types = list(K.TYPES)
    plist = sorted(set(t["players"].to_list()))
    offs = [-0.2 + 0.4 * i / max(len(plist) - 1, 1) for i in range(len(plist))] if len(plist) > 1 else [0.0]
    for off, p in zip(offs, plist):
        part = t.filter(pl.col("players") == p)
        xs = [types.index(c) + off for c in part["card_type"].to_list()]
        style = dict(common.series_style(p), linestyle="none")
        common.errorbar(a, xs, part["price"].to_list(), part["price_ci95"].to_list(), label=f"{p} players: price",
                        **style)
        common.errorbar(a, xs, part["worth"].to_list(), part["worth_ci95"].to_list(), label=f"{p} players: worth",
                        **dict(style, markerfacecolor="white"))
        common.errorbar(b, xs, part["points_per_thaler"].to_list(), part["points_per_thaler_ci95"].to_list(),
                        label=f"{p} players", **style)
    for ax in (a, b):
        ax.set_xticks(range(len(types)), [x.replace("_", "\n") for x in types], fontsize=8)
    a.set_ylabel("Thaler paid (filled) / points worth (open)")
    a.set_title("Price and worth per card")
    b.set_ylabel("points per Thaler")
    b.set_title("What a Thaler buys")
    fig.suptitle("Do auctions price the cards right?")
    common.legend_below(fig, a, ncols=3)
    return fig


def _tenth_figure(t: pl.DataFrame):
    types = list(K.TYPES)
    fig, axes = common.figure(ncols=3, nrows=2, width=4.0, height=3.2)
    flat = [ax for row in axes for ax in row]
    for ax, kind in zip(flat, types):
        for p in sorted(set(t["players"].to_list())):
            part = t.filter((pl.col("players") == p) & (pl.col("card_type") == kind)).sort("tenth")
            style = common.series_style(p)
            common.errorbar(ax, part["tenth"].to_list(), part["price"].to_list(), part["price_ci95"].to_list(),
                            label=f"{p} players: price", **style)
            common.errorbar(ax, part["tenth"].to_list(), part["worth"].to_list(), part["worth_ci95"].to_list(),
                            label=f"{p} players: worth", **dict(style, markerfacecolor="white", linestyle=":"))
        ax.set_title(kind.replace("_", " "))
        ax.set_xlabel("tenth of the game bought in")
        ax.set_ylabel("Thaler / points")
    flat[-1].set_visible(False)
    fig.suptitle("Price (filled) and worth (open) over the game")
    common.legend_below(fig, flat[0], ncols=3)
    return fig


def _value_figure(t: pl.DataFrame):
    types = list(K.TYPES)
    fig, axes = common.figure(ncols=3, nrows=2, width=4.0, height=3.2)
    flat = [ax for row in axes for ax in row]
    for ax, kind in zip(flat, types):
        for p in sorted(set(t["players"].to_list())):
            part = t.filter((pl.col("players") == p) & (pl.col("card_type") == kind)).sort("value")
            common.errorbar(ax, part["value"].to_list(), part["price"].to_list(), part["price_ci95"].to_list(),
                            label=f"{p} players", **common.series_style(p))
        ax.set_title(kind.replace("_", " "))
        ax.set_xlabel("card value")
        ax.set_ylabel("Thaler paid")
    flat[-1].set_visible(False)
    fig.suptitle("Price by value")
    common.legend_below(fig, flat[0])
    return fig
