"""Pieces every analysis shares: fields of strategies, the game-level
balance metrics and plots with error bars."""
from __future__ import annotations

import math
from itertools import cycle, islice

import polars as pl
from matplotlib.figure import Figure

from analyses import stats
from analyses.report_format import format_ci
from analyses.stats import Mean, Ratio, Share
from zsim.errors import ZsimError
from zsim.game_registry import DEFAULT_GAME
from zsim.strategy_registry import parse_one

#: game-level balance figures (per game; rates are ratios of sums)
GAME_METRICS = [
    Mean("winner_margin", "margin"),
    Share("elimination_rate", "any_eliminated"),
    Mean("lead_changes", "lead_changes"),
    Mean("jobs_won", "jobs_awarded"),
    Ratio("one_bidder_share", "jobs_one_bid", "jobs_revealed"),
    Ratio("tie_rate", "jobs_tied", "jobs_awarded"),
    Mean("game_turns", "turns"),
    Ratio("payday_share_of_income", "all_payday_paid", "all_job_income"),
]

#: axis labels: what each plotted figure is, with its unit
LABELS = {
    "seat_spread_pp": "seat spread (percentage points of win share)",
    "seat_p": "p-value of the test that all seats are even",
    "winner_margin": "winner's margin (millions)",
    "elimination_rate": "games with an elimination (share)",
    "lead_changes": "lead changes per game",
    "jobs_won": "jobs awarded per game",
    "one_bidder_share": "jobs with exactly one bidder (share)",
    "tie_rate": "awarded jobs won by a tie (share)",
    "game_turns": "game length (turns)",
    "payday_share_of_income": "payday cost / job income",
    "win_share": "win share",
    "money": "final money (millions)",
}


#: one look per player count, the same in every figure: colours from the
#: Okabe-Ito palette (told apart with any colour vision) and, as well, a marker
#: and a line style of their own, so that a grey print still tells them apart
SERIES = {2: {"color": "#0072B2", "marker": "o", "linestyle": "-"},
          3: {"color": "#E69F00", "marker": "s", "linestyle": "--"},
          4: {"color": "#000000", "marker": "^", "linestyle": "-."}}
#: further series (strategies, decks...) in turn
CYCLE = [{"color": c, "marker": m, "linestyle": ls} for c, m, ls in
         zip(("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"),
             "os^Dvp*X", ("-", "--", "-.", ":", "-", "--", "-.", ":"))]


def series_style(players: int) -> dict:
    """The colour, marker and line style of a player count's series."""
    return dict(SERIES.get(players, CYCLE[players % len(CYCLE)]))


#: what every column of the analyses' tables means (the report's glossary)
DEFINITIONS = {
    "games": "games behind the row",
    "win_share": "share of games won; a first place shared by k seats counts 1/k to each",
    "money": "final money, millions (0 for an eliminated seat)",
    "job_income": "money from jobs, millions per game (a tie at 1 costs money and counts negative)",
    "payday_paid": "money paid at paydays, millions per game",
    "income_less_payday": "job income less payday cost, millions per game",
    "jobs_won": "jobs a seat was awarded per game (ties count for each tied winner); in balance "
                "tables, jobs awarded per game",
    "idle_at_payday": "cards counted at the executed paydays, summed over a game",
    "seat_chi2": "chi-square statistic of the test that every seat has win share 1/players "
                 "(players - 1 degrees of freedom; 0 when the shares sit exactly at par)",
    "seat_p": "p-value of that test: below 0.05, the seats are not even; large, no seat gap was found "
              "(which does not prove there is none)",
    "seat_spread_pp": "how far the seats' true win shares spread around par, in percentage points: the "
                      "root mean square of (win share - 1/players), corrected for the noise of the "
                      "sample (0: no spread beyond the noise)",
    "best_seat": "seat with the highest win share (0 starts)",
    "worst_seat": "seat with the lowest win share",
    "winner_margin": "money of the richest seat less that of the next, millions (0 on a tie)",
    "elimination_rate": "share of games in which someone was eliminated",
    "lead_changes": "times per game the sole money leader, checked after every turn, changed",
    "one_bidder_share": "jobs with exactly one bidder, as a share of the jobs revealed",
    "tie_rate": "awarded jobs won by a tie at the lowest bid, as a share of awarded jobs",
    "game_turns": "turns per game",
    "payday_share_of_income": "all payday payments as a share of all job income",
    "mean_bid": "mean of the bids made (passes left out), millions",
    "share": "share of the row's total (bids at that value, or seats in that money band)",
    "edge": "win share above par (1 / players)",
    "par": "the win share of an even game, 1 / players",
    "seat0_win_share": "win share of the starting seat",
    "money_mean": "mean final money, millions",
    "mean_place": "mean place (1 best; tied seats share a place)",
    "fair": "false for a strategy that reads hidden cards (an upper bound, not a rival)",
    "mean": "mean final money, millions",
    "sd": "standard deviation of final money, millions",
    "p10": "final money that 10% of seats end at or below, millions",
    "median": "median final money, millions",
    "p90": "final money that 90% of seats end at or below, millions",
    "zero_share": "share of seats ending with no money",
    "bid": "bid value (9plus: 9 or more, under a raised max_bid)",
    "rule": "the rule swept (the others as configured)",
    "default": "true for the value the rules already have (the game as configured)",
    "value": "its value (payday_counts_table: 0 off, 1 on)",
    "target": "target hand size of the tested seat (handsize:target)",
    "deck": "job deck: default, a --deck file, or a perturbation of the default",
    "foremen_needed": "foremen the deck's jobs need in all (likewise workers, cranes, excavators)",
    "strategy": "strategy (with its parameters)",
    "players": "players at the table",
    "seat": "seat in play order (0 starts)",
    "jobs": "job cards in the deck",
    # the trade-off of hand size against payday cost
    "payday_cost": "rule payday_cost: millions paid per hand card above the fewest at a payday",
    "hand_size": "rule hand_size: worker cards dealt to each player at the start",
    "best_target": "target hand size with the highest win share of the tested seat at this payday cost",
    "within_noise": "targets whose 95% win-share interval overlaps the best one's (a generous range: "
                    "the points share their deals, so true gaps are sharper than the intervals)",
    "noise_low": "smallest target within noise of the best",
    "noise_high": "largest target within noise of the best",
    "best_at_edge": "whether the best target is the smallest or largest tried ('no': inside the range)",
    "default_target": "the handsize strategy's default target hand",
    "default_win_share": "win share of the tested seat at the default target",
    "income_less_payday_per_seat": "job income less payday cost, millions per game, averaged over the seats",
}


def field_specs(spec: str | None, seats: int, game: str = DEFAULT_GAME) -> list[str]:
    """The strategies that fill ``seats`` seats: one spec for all, or a comma
    list used in turn (default: the game's default strategy)."""
    if spec and spec.strip():
        text = spec
    else:
        from zsim.game_registry import get_game
        text = get_game(game).strategies.default
    specs = [parse_one(s, game) for s in text.split(",")]
    if any(not s for s in specs):
        raise ZsimError(f"--field {spec!r} has an empty entry")
    return list(islice(cycle(specs), seats))


def balance_table(game_sums: pl.DataFrame, keys: list[str], players: int) -> pl.DataFrame:
    """Seat balance and every GAME_METRICS figure, one row per key."""
    est = stats.estimates(game_sums, keys, GAME_METRICS)
    adv = stats.seat_balance(game_sums, keys, players)
    t = adv.join(est, on=keys, how="left", coalesce=True, maintain_order="left")
    return t.select(*keys, "games", pl.exclude(*keys, "games"))


def errorbar(ax, x, y, ci, label: str | None = None, **kw) -> None:
    """Points joined by lines with 95% error bars (missing intervals drawn bare)."""
    ci = [0.0 if c is None else c for c in ci]
    y = [float("nan") if v is None else v for v in y]
    kw.setdefault("marker", "o")
    ax.errorbar(x, y, yerr=ci, capsize=3, label=label, **kw)


def errorbar_range(ax, x, y, lo, hi, label: str | None = None, **kw) -> None:
    """Points joined by lines with asymmetric 95% bars from ``lo`` to ``hi``
    (a Wilson interval: it never crosses 0 or 1)."""
    y = [float("nan") if v is None else v for v in y]
    below = [0.0 if v != v or a is None else v - a for v, a in zip(y, lo)]
    above = [0.0 if v != v or b is None else b - v for v, b in zip(y, hi)]
    kw.setdefault("marker", "o")
    ax.errorbar(x, y, yerr=[below, above], capsize=3, label=label, **kw)


def figure(ncols: int = 1, nrows: int = 1, width: float = 6.0, height: float = 4.0,
           sharey: bool = False) -> tuple[Figure, object]:
    """A figure outside pyplot's registry (nothing to leak over a long report)
    and its axes as a 2-d array."""
    fig = Figure(figsize=(width * ncols, height * nrows), layout="constrained")
    return fig, fig.subplots(nrows, ncols, squeeze=False, sharey=sharey)


def _sig(x: float, digits: int = 2) -> str:
    """A percentage with ``digits`` significant digits, in plain decimals."""
    if x == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:.{decimals}f}"


def pct_text(x: float) -> str:
    """A share as a percentage with 2 significant digits: ``0.0012`` -> ``0.12%``."""
    return f"{_sig(100 * x)}%"


def _decimals(x: float, digits: int = 2) -> int:
    return 0 if x <= 0 else max(0, digits - 1 - math.floor(math.log10(x)))


def span_text(values, fmt: str) -> str:
    """``lo to hi`` of some numbers in format ``fmt``, or one number when both print alike."""
    lo, hi = format(min(values), fmt), format(max(values), fmt)
    return lo if lo == hi else f"{lo} to {hi}"


def rate_text(value: float, lo: float, hi: float) -> str:
    """A rate and its Wilson interval for a sentence, in percent:
    ``0.12% [0.080%, 0.17%]``, each number to 2 significant digits, or more
    where the interval is narrow (``1.13% [1.07%, 1.20%]``, never two equal
    ends); a zero count reads ``none (< 0.019%)``."""
    if value is None or value != value:
        return "–"
    if value == 0:
        return f"none (< {_sig(100 * hi)}%)"
    spread = 100 * (hi - lo)      # one significant digit of the width, two when it starts with a 1
    width = _decimals(spread, 1) + (1 if spread > 0 and f"{spread:.1e}".startswith("1") else 0)

    def pct(x: float) -> str:
        return f"{100 * x:.{max(_decimals(100 * x), width)}f}%"
    return f"{pct(value)} [{pct(lo)}, {pct(hi)}]"


def share_text(value: float, ci: float) -> str:
    """A share and its 95% half-width for a sentence, as the tables print it
    (:func:`analyses.report_format.format_ci`): ``0.5123 ± 0.0031``; a
    half-width is never rounded away ("0.998 ± 0.000")."""
    return format_ci(value, ci)


def legend_below(fig, ax, ncols: int = 4) -> None:
    """One legend for the whole figure, under its panels (none covers data)."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncols=min(ncols, len(handles)), fontsize=9)


def label(name: str) -> str:
    return LABELS.get(name, name.replace("_", " "))


def p_text(p: float | None) -> str:
    """A test's p-value as a finding words it: ``= 0.042``, ``< 0.001``, or a dash when there is none."""
    if p is None:
        return "–"
    return "< 0.001" if p < 0.001 else f"= {p:.3f}"
