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
from analyses.report_format import format_ci
from analyses.verdicts import seat_clause
from analyses.play import Collector, Point, play_points, split_games
from analyses.result import AnalysisResult
from analyses.stats import Mean, Ratio
from zsim.games.zahltag.game import BID_COLUMNS
from zsim.harness.chunks import Matchup

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
    """Share of seats ending in each MONEY_BIN-wide money band, with its
    Wilson interval (``share_lo``, ``share_hi``: bands in the tails hold few seats)."""
    h = (hist.with_columns((pl.col("money") // MONEY_BIN * MONEY_BIN).alias("money_from"))
         .group_by("players", "money_from").agg(pl.col("count").sum()).sort("players", "money_from"))
    h = h.with_columns(pl.col("count").sum().over("players").alias("seats"))
    ends = [stats.share_interval(c, n) for c, n in zip(h["count"].to_list(), h["seats"].to_list())]
    return h.with_columns((pl.col("count") / pl.col("seats")).alias("share"),
                          pl.Series("share_lo", [a for a, _ in ends], pl.Float64),
                          pl.Series("share_hi", [b for _, b in ends], pl.Float64)).drop("seats")


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
        zero = sum(c for m, c in zip(money, count) if m == 0)
        lo, hi = stats.share_interval(zero, n)
        rows.append({"players": p, "mean": mean, "sd": sd, **q, "zero_share": zero / n,
                     "zero_share_lo": lo, "zero_share_hi": hi})
    return pl.DataFrame(rows).sort("players")


#: the balance figures compared across player counts, side by side
SIDE_BY_SIDE = ["seat_spread_pp", "elimination_rate", "winner_margin", "lead_changes", "game_turns",
                "payday_share_of_income", "one_bidder_share", "tie_rate"]


def _balance_figure(bal: pl.DataFrame, counts: list[int], label: str) -> tuple[str, object, str]:
    """The balance figures side by side, one panel each, across player counts."""
    fig, axes = common.figure(ncols=4, nrows=2, width=2.9, height=2.6)
    for ax, metric in zip([a for row in axes for a in row], SIDE_BY_SIDE):
        for p in counts:
            r = bal.filter(pl.col("players") == p).row(0, named=True)
            style = {**common.series_style(p), "linestyle": "none"}
            if f"{metric}_lo" in r:
                common.errorbar_range(ax, [p], [r[metric]], [r[f"{metric}_lo"]], [r[f"{metric}_hi"]], f"{p} players",
                                      **style)
            else:
                ax.errorbar([p], [r[metric]], yerr=[r[f"{metric}_ci95"] or 0.0], capsize=3,
                            label=f"{p} players", **style)
        ax.set_xticks(counts)
        ax.set_xlim(min(counts) - 0.5, max(counts) + 0.5)
        ax.set_xlabel("players", fontsize=9)
        ax.tick_params(labelsize=9)
        ax.set_title(common.label(metric), fontsize=9.5)
    common.legend_below(fig, axes[0][0])
    fig.suptitle(f"The same field at {label} players (bars: 95% intervals)", fontsize=11)
    turns = {p: bal.filter(pl.col("players") == p)["game_turns"][0] for p in counts}
    return (f"Balance side by side at {label} players", fig,
            "Balance figures per player count: games last " +
            ", ".join(f"{turns[p]:.1f} turns at {p}" for p in counts) + " players.")


def _money_figure(dist: pl.DataFrame, quant: pl.DataFrame | None, label: str) -> tuple[str, object, str | None]:
    """The distribution of final money per player count, with its 95% band."""
    fig, ax = common.figure(width=6.4, height=4.0)
    ax = ax[0][0]
    for (p,), part in dist.group_by(["players"], maintain_order=True):
        x = part["money_from"].to_numpy() + MONEY_BIN / 2
        y, lo, hi = part["share"].to_numpy(), part["share_lo"].to_numpy(), part["share_hi"].to_numpy()
        style = common.series_style(p)
        ax.plot(x, y, label=f"{p} players", markersize=4, **style)
        ax.fill_between(x, lo, hi, alpha=0.25, color=style["color"])
    ax.set_xlabel(f"final money (millions, bands of {MONEY_BIN})")
    ax.set_ylabel("share of seats")
    ax.set_title(f"Final money at {label} players (bands: 95% intervals)")
    ax.legend()
    alt = None if quant is None else "Final money per seat: " + "; ".join(
        f"at {r['players']} players half the seats end with {r['median']} millions or less"
        for r in quant.iter_rows(named=True)) + "."
    return f"Distribution of final money at {label} players", fig, alt


def _bid_figure(bids: pl.DataFrame, label: str) -> tuple[str, object, str]:
    """The share of bids at each value, bars side by side per player count."""
    fig, ax = common.figure(width=6.4, height=4.0)
    ax = ax[0][0]
    players = sorted(set(bids["players"].to_list()))
    width = 0.8 / len(players)
    labels = list(dict.fromkeys(bids["bid"].to_list()))
    hatches = ["", "//", ".."]
    for i, p in enumerate(players):
        part = bids.filter(pl.col("players") == p)
        style = common.series_style(p)
        ax.bar([j + (i - (len(players) - 1) / 2) * width for j in range(len(labels))],
               part["share"].fill_null(0).to_list(), width, yerr=part["share_ci95"].fill_null(0).to_list(),
               capsize=2, label=f"{p} players", color=style["color"], hatch=hatches[i % len(hatches)],
               edgecolor="white" if style["color"] == "#000000" else "black", linewidth=0.5)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlabel("bid (millions)")
    ax.set_ylabel("share of bids")
    ax.set_title(f"Bids at {label} players (bars: 95% intervals)")
    ax.legend()
    top = {p: bids.filter(pl.col("players") == p).sort("share", descending=True)["bid"][0] for p in players}
    return (f"Distribution of bids at {label} players", fig,
            "The most common bid: " + ", ".join(f"{top[p]} at {p} players" for p in players) + ".")


def _seat_figure(seats: pl.DataFrame, know: pl.DataFrame, counts: list[int],
                 label: str) -> tuple[str, object, str]:
    """Win share by seat, beside the counting seat's edge over par."""
    fig, axes = common.figure(ncols=2, width=4.2, height=3.6)
    a, b = axes[0]
    for (p,), part in seats.group_by(["players"], maintain_order=True):
        style = common.series_style(p)
        common.errorbar(a, part["seat"].to_list(), part["win_share"].to_list(), part["win_share_ci95"].to_list(),
                        f"{p} players", **style)
        a.axhline(1.0 / p, color=style["color"], linestyle=":", linewidth=1)
    a.set_xticks(range(max(seats["seat"].to_list()) + 1))
    a.set_xlabel("seat (0 starts)")
    a.set_ylabel("win share")
    a.set_title("Win share by seat (dotted: par)", fontsize=10)
    a.legend(fontsize=9)
    for p in know["players"].to_list():
        r = know.filter(pl.col("players") == p).row(0, named=True)
        b.errorbar([p], [r["edge"]], yerr=[r["edge_ci95"]], capsize=3, **{**common.series_style(p),
                                                                        "linestyle": "none"})
    b.axhline(0.0, color="grey", linestyle=":")
    b.set_xlabel("players")
    b.set_xticks(know["players"].to_list())
    b.set_xlim(min(counts) - 0.5, max(counts) + 0.5)
    b.set_ylabel("win share above par")
    b.set_title(f"{COUNTING} against {BLIND}", fontsize=10)
    fig.suptitle(f"Seats and counting at {label} players (bars: 95% intervals)", fontsize=11)
    return f"Seat balance, and what counting cards is worth, at {label} players", fig, knowledge_finding(know)


def figures(bal, seats, bids, know, dist, quant=None) -> tuple[dict, dict]:
    """The figures by caption, and their alt texts by caption: balance side by
    side, final money, bids, and seats with what counting is worth."""
    out, alts = {}, {}
    counts = sorted(set(bal["players"].to_list()))
    label = ", ".join(map(str, counts))
    drawn = (_balance_figure(bal, counts, label), _money_figure(dist, quant, label), _bid_figure(bids, label),
             _seat_figure(seats, know, counts, label))
    for cap, fig, alt in drawn:
        out[cap] = fig
        if alt is not None:
            alts[cap] = alt
    return out, alts


def seat_finding(bal: pl.DataFrame, seats: pl.DataFrame) -> str:
    """Which seat the game favours at each player count, from the numbers."""
    parts = []
    for r in bal.sort("players").iter_rows(named=True):
        p = r["players"]
        s = seats.filter(pl.col("players") == p)
        best = s.sort("win_share", descending=True).row(0, named=True)
        worst = s.sort("win_share").row(0, named=True)
        verdict = (f"seat {best['seat']} wins {common.share_text(best['win_share'], best['win_share_ci95'])} "
                   f"and seat {worst['seat']} {common.share_text(worst['win_share'], worst['win_share_ci95'])} "
                   f"against a par of {1 / p:.3f}; {seat_clause(s, int(r['games']))}")
        parts.append(f"at {p} players {verdict}")
    return "Seat order: " + "; ".join(parts) + "."


def knowledge_finding(know: pl.DataFrame) -> str:
    """What counting cards is worth at each player count."""
    parts = []
    for r in know.sort("players").iter_rows(named=True):
        parts.append(f"{format_ci(r['edge'], r['edge_ci95'], signed=True)} win share above par at {r['players']} players")
    return (f"Counting cards ({COUNTING} against {BLIND}, otherwise the same strategy) is worth "
            + ", ".join(parts) + ".")


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
    figs, alts = figures(bal, seats, bids, kt, dist, quant)
    counts = ", ".join(map(str, players_list))
    title = f"Player counts side by side: {counts} players" if len(players_list) > 1 else f"The game at {counts} players"
    return AnalysisResult("players", title,
                          summary, tables, figs,
                          {"players": list(players_list), "field": field_names, "games_per_point": games,
                           "seed": seed},
                          alts=alts, details=("Bids",), findings=[seat_finding(bal, seats), knowledge_finding(kt)])
