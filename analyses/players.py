"""Is Zahltag a different game with two players? The same field at 2, 3 and 4.

Besides the balance figures, this plays a counting strategy against its blind
twin (``counter`` against ``counter:blind=1``: the same hand-keeping and bids,
but the blind one assumes every rival could cover every job), with the
counting seat taking every position in turn. With two players the counting is
exact, so its edge over par prices exact knowledge of the opponent's hand.
"""
from __future__ import annotations

import math

import polars as pl

from analyses import common, stats
from analyses.play import Collector, Point, play_points, split_games
from analyses.result import AnalysisResult
from analyses.stats import Mean, Ratio
from zsim.runner import BID_COLUMNS, Matchup

COUNTING = "counter"
BLIND = "counter:blind=1"
MONEY_BIN = 2   # millions per bar of the final-money distribution

SEAT_METRICS = [
    Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS),
    Mean("money", "money"),
    Ratio("mean_bid", "bid_sum", "bids"),
    *[Ratio(f"share_{c}", c, "bids") for c in BID_COLUMNS],
]
KNOW_METRICS = [Mean("win_share", "win_units", 1.0 / stats.WIN_UNITS)]


def points(players_list, field: str | None, games: int, rules, deck) -> tuple[list[Point], list[Point]]:
    main, know = [], []
    for p in players_list:
        main.append(Point({"players": p}, Matchup(p, tuple(common.field_specs(field, p)), rules, deck), games))
        per_seat = split_games(games, p)
        for seat in range(p):
            seats = [BLIND] * p
            seats[seat] = COUNTING
            know.append(Point({"players": p}, Matchup(p, tuple(common.field_specs(",".join(seats), p)),
                                                     rules, deck), per_seat, tested_seat=seat))
    return main, know


def seat_table(seat_sums: pl.DataFrame) -> pl.DataFrame:
    return stats.estimates(seat_sums, ["players", "seat"], SEAT_METRICS[:3])


def bid_table(seat_sums: pl.DataFrame) -> pl.DataFrame:
    """Share of bids at each value, per player count (all seats together)."""
    per_p = seat_sums.drop("seat").group_by("players").sum().sort("players")
    est = stats.estimates(per_p, ["players"], SEAT_METRICS[2:])
    long = []
    for i, c in enumerate(BID_COLUMNS):
        long.append(est.select("players", pl.lit(c.removeprefix("bids_")).alias("bid"),
                               pl.col(f"share_{c}").alias("share"), pl.col(f"share_{c}_ci95").alias("share_ci95"),
                               pl.lit(i).alias("order")))
    return pl.concat(long).sort("players", "order").drop("order")


def knowledge_table(know_sums: pl.DataFrame) -> pl.DataFrame:
    """The counting seat's win share against blind twins, and its edge over par."""
    t = stats.estimates(know_sums.filter(pl.col("tested")).drop("tested"), ["players"], KNOW_METRICS)
    return t.with_columns((1.0 / pl.col("players")).alias("par"),
                          (pl.col("win_share") - 1.0 / pl.col("players")).alias("edge"),
                          pl.col("win_share_ci95").alias("edge_ci95"))


def money_distribution(hist: pl.DataFrame) -> pl.DataFrame:
    """Share of seats ending in each MONEY_BIN-wide money band, with its CI."""
    h = (hist.with_columns((pl.col("money") // MONEY_BIN * MONEY_BIN).alias("money_from"))
         .group_by("players", "money_from").agg(pl.col("count").sum()).sort("players", "money_from"))
    total = pl.col("count").sum().over("players")
    share = pl.col("count") / total
    return h.with_columns(share.alias("share"),
                          (stats.Z95 * (share * (1 - share) / total).sqrt()).alias("share_ci95"))


def money_quantiles(hist: pl.DataFrame) -> pl.DataFrame:
    rows = []
    for (p,), part in hist.sort("money").group_by(["players"], maintain_order=True):
        money, count = part["money"].to_list(), part["count"].to_list()
        n = sum(count)
        cum, q = 0, {}
        for m, c in zip(money, count):
            cum += c
            for name, f in (("p10", 0.1), ("median", 0.5), ("p90", 0.9)):
                if name not in q and cum >= f * n:
                    q[name] = m
        mean = sum(m * c for m, c in zip(money, count)) / n
        sd = math.sqrt(max(sum(m * m * c for m, c in zip(money, count)) / n - mean * mean, 0.0))
        rows.append({"players": p, "mean": mean, "sd": sd, **q, "zero_share": sum(
            c for m, c in zip(money, count) if m == 0) / n})
    return pl.DataFrame(rows).sort("players")


def figures(bal, seats, bids, know, dist) -> dict:
    out = {}
    fig, ax = common.figure()
    ax = ax[0][0]
    for (p,), part in dist.group_by(["players"], maintain_order=True):
        x, y, ci = part["money_from"].to_numpy() + MONEY_BIN / 2, part["share"].to_numpy(), part["share_ci95"].to_numpy()
        ax.plot(x, y, label=f"{p} players")
        ax.fill_between(x, y - ci, y + ci, alpha=0.3)
    ax.set_xlabel(f"final money (millions, bands of {MONEY_BIN})")
    ax.set_ylabel("share of seats")
    ax.set_title("Final money")
    ax.legend()
    out["Distribution of final money per player count (bands: 95% CI)"] = fig

    fig, ax = common.figure()
    ax = ax[0][0]
    players = sorted(set(bids["players"].to_list()))
    width = 0.8 / len(players)
    labels = list(dict.fromkeys(bids["bid"].to_list()))
    for i, p in enumerate(players):
        part = bids.filter(pl.col("players") == p)
        ax.bar([j + (i - (len(players) - 1) / 2) * width for j in range(len(labels))],
               part["share"].fill_null(0).to_list(), width, yerr=part["share_ci95"].fill_null(0).to_list(),
               capsize=2, label=f"{p} players")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlabel("bid (millions)")
    ax.set_ylabel("share of bids")
    ax.set_title("Bids")
    ax.legend()
    out["Distribution of bids per player count (95% error bars)"] = fig

    fig, axes = common.figure(ncols=2)
    a, b = axes[0]
    for (p,), part in seats.group_by(["players"], maintain_order=True):
        common.errorbar(a, part["seat"].to_list(), part["win_share"].to_list(), part["win_share_ci95"].to_list(),
                        f"{p} players")
        a.axhline(1.0 / p, color="grey", linestyle=":")
    a.set_xticks(range(max(seats["seat"].to_list()) + 1))
    a.set_xlabel("seat (0 starts)")
    a.set_ylabel("win share")
    a.set_title("Win share by seat (dotted: par)")
    a.legend()
    common.errorbar(b, know["players"].to_list(), know["edge"].to_list(), know["edge_ci95"].to_list())
    b.axhline(0.0, color="grey", linestyle=":")
    b.set_xlabel("players")
    b.set_xticks(know["players"].to_list())
    b.set_ylabel("win share above par")
    b.set_title(f"{COUNTING} against {BLIND}")
    out["Seat balance, and what counting cards is worth (95% error bars)"] = fig
    return out


def run(players_list, field: str | None, games: int, seed: int, rules, deck, advance=None) -> AnalysisResult:
    main, know = points(players_list, field, games, rules, deck)
    # each player count has its own seats: collect them separately, then stack
    game_parts, seat_parts, hist_parts = [], [], []
    for pt in main:
        col = Collector(["players"], ["seat"], SEAT_METRICS, common.GAME_METRICS, money_hist=True)
        play_points([pt], seed, [col], advance)
        game_parts.append(col.out.game)
        seat_parts.append(col.out.seat)
        hist_parts.append(col.out.money_hist)
    know_col = Collector(["players"], ["tested"], KNOW_METRICS)
    play_points(know, seed, [know_col], advance)
    seat_sums = pl.concat(seat_parts)
    hist = pl.concat(hist_parts)
    bal = pl.concat([common.balance_table(g, ["players"], pt.matchup.players)
                     for g, pt in zip(game_parts, main)], how="diagonal_relaxed")
    seats, bids, kt = seat_table(seat_sums), bid_table(seat_sums), knowledge_table(know_col.out.seat)
    dist, quant = money_distribution(hist), money_quantiles(hist)
    field_names = sorted(set(common.field_specs(field, max(players_list))))
    summary = (f"The field {', '.join(field_names)} at {', '.join(map(str, players_list))} players, "
               f"{games:,} games each, seed {seed}; then {COUNTING} (counting) in one seat against "
               f"{BLIND} (the same bids, blind to the cards) in the others, taking every seat in turn, "
               f"{games:,} games per player count. With two players the counting is exact: its edge "
               "there is what exact knowledge of the opponent's hand is worth.")
    tables = {"Balance per player count": bal, "Win share per seat": seats, "Final money (millions)": quant,
              "Bids": bids, f"What counting is worth: {COUNTING} against {BLIND}": kt}
    return AnalysisResult("players", f"The game at {', '.join(map(str, players_list))} players", summary, tables,
                          figures(bal, seats, bids, kt, dist),
                          {"players": list(players_list), "field": field_names, "games_per_point": games,
                           "seed": seed})
