"""Hand size against payday cost: the trade-off zsim was built to measure.

Two grids, each swept against the rule ``payday_cost`` at every player count:

* the strategy grid: one seat plays ``handsize:target=K`` against the field in
  the other seats, taking every seat in turn with an equal share of the
  games. From it comes the best target hand at each payday cost (the highest
  win share of the tested seat) and the targets within noise of it;
* the rule grid: every seat plays the field while the rules deal
  ``hand_size`` = H cards to each player. It shows what the dealt hand does
  to the game as a whole: income less payday per seat, eliminations, length.

Every point plays the run's seed from game 0, so all points meet the same
deals (common random numbers).

This module plays the grids and builds their tables; the sentences are
written by :mod:`analyses.zahltag.tradeoff_words` and the figures drawn by
:mod:`analyses.zahltag.tradeoff_figures`.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import polars as pl

from analyses import common, stats
from analyses.zahltag import hand_size
from analyses.zahltag.tradeoff_figures import (best_alt, best_figure, rule_alt, rule_figure, spread_alt,
                                               spread_figure, strategy_alt, strategy_figure)
from analyses.zahltag.tradeoff_words import (edge_sentences, join_words, pm, rule_sentence, span_text, spread_sentence,
                                            trend)
from analyses.play import Collector, Point, play_points, split_games
from analyses.result import AnalysisResult
from analyses.stats import Ratio
from zsim.errors import ZsimError
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.rules import SPEC_BY_KEY, Rules
from zsim.harness.chunks import DEFAULT_CHUNK, Matchup
from zsim.strategy_registry import parse_one, registry

#: the tested seat's strategy (the hand-size analysis's)
TESTED = hand_size.TESTED
#: 0 never takes a card (the least a hand can aim for); 12 is the card cap
TARGETS = tuple(range(0, 13))
COSTS = (0, 1, 2, 3)
HAND_SIZES = tuple(range(3, 12))
#: rules the sweep sets itself, and the option that chooses their values
SWEPT_RULES = {"payday_cost": "--costs", "hand_size": "--hand-sizes"}

STRATEGY_KEYS = ["players", "payday_cost", "target"]
RULE_KEYS = ["players", "hand_size", "payday_cost"]

#: the tested seat's figures, as the hand-size analysis reports them
SEAT_METRICS = hand_size.SEAT_METRICS

# The rule grid's income less payday per seat is the mean over games of
# (all job income - all payday paid) / players. Its interval needs the sum of
# the per-game products of the two columns, which a Ratio of them collects.
_NET = ("all_job_income", "all_payday_paid")
RULE_GAME_METRICS = list(common.GAME_METRICS)
if not {_NET, _NET[::-1]} & set(stats.ratio_products(RULE_GAME_METRICS)):
    RULE_GAME_METRICS.append(Ratio("payday_share_of_income", _NET[1], _NET[0]))



# ---------------------------------------------------------------- defaults and checks

def _target_param():
    return next(p for p in registry()[TESTED].params if p.name == "target")


def target_limits() -> tuple[int, int]:
    """The smallest and largest target the tested strategy accepts."""
    p = _target_param()
    return int(p.low), int(p.high)


def default_target() -> int:
    return int(_target_param().default)


def default_cost() -> int:
    return Rules().payday_cost


def default_hand_size() -> int:
    return Rules().hand_size


def check_rule_keys(keys) -> None:
    """Refuse a ``--rule`` the sweep would quietly override."""
    for key in keys:
        if key in SWEPT_RULES:
            raise ZsimError(f"--rule {key} is swept by tradeoff; choose its values with {SWEPT_RULES[key]}")


def _check(name: str, values, low: int, high: int, what: str) -> None:
    if not values:
        raise ZsimError(f"{name} is empty")
    for v in values:
        if not low <= v <= high:
            raise ZsimError(f"{name} {v} is outside {what} {low}..{high}")


def _check_players(players_list) -> None:
    _check("--players", players_list, K.MIN_PLAYERS, K.MAX_PLAYERS, "the player counts")


def _check_costs(costs) -> None:
    spec = SPEC_BY_KEY["payday_cost"]
    _check("--costs", costs, spec.low, spec.high, "payday_cost's range")


def _matchup(players: int, seats, rules: Rules, deck, what: str, **change) -> Matchup:
    try:
        return Matchup(players, tuple(seats), dataclasses.replace(rules, **change), deck)
    except ZsimError as e:
        raise ZsimError(f"{what} at {players} players: {e}") from None


# ---------------------------------------------------------------- points

def strategy_points(players_list, field: str | None, games: int, rules: Rules, deck,
                    targets=TARGETS, costs=COSTS) -> list[Point]:
    """One seat on ``handsize:target=K`` against the field, every seat in turn."""
    _check_players(players_list)
    _check("--targets", targets, *target_limits(), f"{TESTED}'s target range")
    _check_costs(costs)
    out = []
    for p in players_list:
        others = common.field_specs(field, p - 1)
        per_seat = split_games(games, p)
        for c in costs:
            for k in targets:
                tested = parse_one(f"{TESTED}:target={k}")
                for seat in range(p):
                    seats = others[:seat] + [tested] + others[seat:]
                    m = _matchup(p, seats, rules, deck, f"--costs {c}", payday_cost=c)
                    out.append(Point({"players": p, "payday_cost": c, "target": k}, m, per_seat,
                                     tested_seat=seat))
    return out


def rule_points(players_list, field: str | None, games: int, rules: Rules, deck,
                hand_sizes=HAND_SIZES, costs=COSTS) -> list[Point]:
    """The field in every seat, dealt ``hand_size`` = H cards, at payday cost C."""
    _check_players(players_list)
    _check_costs(costs)
    if not hand_sizes:
        raise ZsimError("--hand-sizes is empty")
    out = []
    for p in players_list:
        seats = common.field_specs(field, p)
        for h in hand_sizes:
            for c in costs:
                m = _matchup(p, seats, rules, deck, f"--hand-sizes {h}", hand_size=h, payday_cost=c)
                out.append(Point({"players": p, "hand_size": h, "payday_cost": c}, m, games))
    return out


def points(players_list, field: str | None, games: int, rules: Rules, deck, targets=TARGETS,
           costs=COSTS, hand_sizes=HAND_SIZES) -> tuple[list[Point], list[Point]]:
    """Both grids' points: (strategy grid, rule grid)."""
    return (strategy_points(players_list, field, games, rules, deck, targets, costs),
            rule_points(players_list, field, games, rules, deck, hand_sizes, costs))


def total_games(players_list, field: str | None, games: int, rules: Rules, deck, targets=TARGETS,
                costs=COSTS, hand_sizes=HAND_SIZES) -> int:
    """The games :func:`run` plays with these arguments (for a progress bar)."""
    a, b = points(players_list, field, games, rules, deck, targets, costs, hand_sizes)
    return sum(pt.games for pt in a + b)


# ---------------------------------------------------------------- playing

@dataclass
class Sums:
    seat: pl.DataFrame               # strategy grid: by STRATEGY_KEYS and "tested"
    game: dict[int, pl.DataFrame]    # rule grid: players -> game sums by RULE_KEYS


def play(strategy_pts: list[Point], rule_pts: list[Point], seed: int, advance=None,
         chunk: int = DEFAULT_CHUNK) -> Sums:
    """Play both grids into exact integer sums (the same whatever ``chunk``
    or thread count)."""
    col = Collector(STRATEGY_KEYS, ["tested"], SEAT_METRICS)
    play_points(strategy_pts, seed, [col], advance, chunk)
    game = {}
    # game-level sums need one player count per collector
    for p in dict.fromkeys(pt.matchup.players for pt in rule_pts):
        c = Collector(RULE_KEYS, [], [], RULE_GAME_METRICS)
        play_points([pt for pt in rule_pts if pt.matchup.players == p], seed, [c], advance, chunk)
        game[p] = c.out.game
    return Sums(col.out.seat, game)


# ---------------------------------------------------------------- tables (pure)

def grid_table(seat_sums: pl.DataFrame) -> pl.DataFrame:
    """The tested seat's figures per (players, payday cost, target)."""
    tested = seat_sums.filter(pl.col("tested")).drop("tested").sort(STRATEGY_KEYS)
    return stats.estimates(tested, STRATEGY_KEYS, SEAT_METRICS)


def best_table(grid: pl.DataFrame, default: int | None = None) -> pl.DataFrame:
    """Per (players, payday cost): the target with the highest win share (the
    smaller on a tie), its interval, the targets within noise of it (95%
    intervals overlapping), whether it sits at an edge of the targets tried,
    and the win share of the ``default`` target (the strategy's default)."""
    default = default_target() if default is None else default
    rows = []
    g = grid.sort("players", "payday_cost", "target")
    for (p, c), part in g.group_by(["players", "payday_cost"], maintain_order=True):
        ks = part["target"].to_list()
        w = [-math.inf if v is None else v for v in part["win_share"].to_list()]
        ci = [0.0 if v is None else v for v in part["win_share_ci95"].to_list()]
        i = max(range(len(ks)), key=lambda j: (w[j], -ks[j]))
        near = [k for k, wk, ck in zip(ks, w, ci) if wk + ck >= w[i] - ci[i]]
        if len(ks) == 1:
            edge = "only one tried"
        else:
            edge = "smallest" if ks[i] == min(ks) else "largest" if ks[i] == max(ks) else "no"
        d = ks.index(default) if default in ks else None
        rows.append({"players": p, "payday_cost": c, "best_target": ks[i],
                     "win_share": w[i], "win_share_ci95": ci[i],
                     "within_noise": span_text(near), "noise_low": min(near), "noise_high": max(near),
                     "best_at_edge": edge, "default_target": default,
                     "default_win_share": None if d is None else w[d],
                     "default_win_share_ci95": None if d is None else ci[d]})
    return pl.DataFrame(rows, schema_overrides={"default_win_share": pl.Float64,
                                                "default_win_share_ci95": pl.Float64})


def _per_seat_net(game_sums: pl.DataFrame, players: int) -> pl.DataFrame:
    """Mean and 95% half-width of (all job income - all payday paid) / players
    per game, from the sums of the two columns, their squares and their product."""
    a, b = _NET
    cross = f"{a}*{b}" if f"{a}*{b}" in game_sums.columns else f"{b}*{a}"
    means, cis = [], []
    for row in game_sums.iter_rows(named=True):
        n = float(row["n"])
        s = float(row[f"{a}:s"]) - float(row[f"{b}:s"])
        q = float(row[f"{a}:q"]) + float(row[f"{b}:q"]) - 2.0 * float(row[cross])
        mean = s / n / players if n > 0 else None
        ci = (stats.Z95 * math.sqrt(max(q - s * s / n, 0.0) / (n - 1) / n) / players) if n > 1 else None
        means.append(mean)
        cis.append(ci)
    return game_sums.select(RULE_KEYS).with_columns(
        pl.Series("income_less_payday_per_seat", means, dtype=pl.Float64),
        pl.Series("income_less_payday_per_seat_ci95", cis, dtype=pl.Float64))


RULE_FIRST = ["income_less_payday_per_seat", "income_less_payday_per_seat_ci95", "elimination_rate",
              "elimination_rate_lo", "elimination_rate_hi", "game_turns", "game_turns_ci95",
              "payday_share_of_income", "payday_share_of_income_ci95", "winner_margin", "winner_margin_ci95",
              "seat_chi2", "seat_p", "seat_spread_pp"]


def rule_table(game_sums: pl.DataFrame, players: int) -> pl.DataFrame:
    """The field's game-level figures per (players, hand size, payday cost)
    at one player count."""
    g = game_sums.sort(RULE_KEYS)
    t = common.balance_table(g, RULE_KEYS, players).join(_per_seat_net(g, players), on=RULE_KEYS,
                                                          how="left", maintain_order="left")
    first = [c for c in RULE_FIRST if c in t.columns]
    return t.select(*RULE_KEYS, "games", *first, pl.exclude(*RULE_KEYS, "games", *first)).sort(RULE_KEYS)


# ---------------------------------------------------------------- findings

def findings(best: pl.DataFrame, rule: pl.DataFrame | None = None, default: int | None = None,
             cost0: int | None = None, limits: tuple[int, int] | None = None) -> list[str]:
    """The key sentences, written from the best-target table and the rule
    table (either may come from hand-made frames)."""
    default = default_target() if default is None else default
    cost0 = default_cost() if cost0 is None else cost0
    limits = target_limits() if limits is None else limits
    out = []
    for (p,), part in best.sort("players", "payday_cost").group_by(["players"], maintain_order=True):
        parts = [f"{r['best_target']} at payday cost {r['payday_cost']} (win share "
                 f"{pm(r['win_share'], r['win_share_ci95'])}; within noise: {r['within_noise']})"
                 for r in part.iter_rows(named=True)]
        moves = trend(part["payday_cost"].to_list(), part["best_target"].to_list())
        text = f"At {p} players the best target hand {moves}: {'; '.join(parts)}"
        d = part.filter(pl.col("payday_cost") == cost0)
        if not d.is_empty() and d["default_win_share"][0] is not None:
            text += (f". The default, target {default} at payday cost {cost0}, wins "
                     f"{pm(d['default_win_share'][0], d['default_win_share_ci95'][0])}")
        out.append(text + ".")
        out += edge_sentences(p, part, limits)
    if rule is not None:
        for (p,), part in rule.sort("players").group_by(["players"], maintain_order=True):
            out.append(rule_sentence(p, part, cost0))
    return out


# ---------------------------------------------------------------- the analysis

def run(players_list, field: str | None, games: int, seed: int, rules: Rules, deck, advance=None,
        targets=TARGETS, costs=COSTS, hand_sizes=HAND_SIZES, chunk: int = DEFAULT_CHUNK) -> AnalysisResult:
    players_list = list(dict.fromkeys(players_list))
    targets, costs, hand_sizes = sorted(set(targets)), sorted(set(costs)), sorted(set(hand_sizes))
    spts, rpts = points(players_list, field, games, rules, deck, targets, costs, hand_sizes)
    sums = play(spts, rpts, seed, advance, chunk)
    grid = grid_table(sums.seat)
    best = best_table(grid)
    rule = pl.concat([rule_table(sums.game[p], p) for p in players_list], how="diagonal_relaxed")
    default, cost0, hand0 = default_target(), default_cost(), default_hand_size()

    per_point = {p: split_games(games, p) * p for p in players_list}
    uneven = [f"{n:,} at {p} players" for p, n in per_point.items() if n != games]
    fields = {", ".join(sorted(set(common.field_specs(field, p)))) for p in players_list}
    summary = (
        f"Strategy grid: one seat plays {TESTED} with target hand {span_text(targets)} against "
        f"{' / '.join(sorted(fields))} in the other seats, taking every seat in turn with an equal share "
        f"of the games, at payday cost {span_text(costs)}, dealt {rules.hand_size} cards, at "
        f"{join_words([str(p) for p in players_list])} players: {games:,} games per point"
        + (f" ({', '.join(uneven)}, to split evenly over the seats)" if uneven else "")
        + f". Rule grid: every seat plays the field, dealt {span_text(hand_sizes)} cards at payday cost "
        f"{span_text(costs)}, {games:,} games per point. Seed {seed}. Every point plays the seed from game 0, "
        "so all points share their deals (common random numbers): neighbouring points differ more surely "
        "than their separate 95% intervals suggest, and 'within noise' (the targets whose interval overlaps "
        f"the best one's) is a generous range. The default is target {default} at payday cost {cost0}, "
        f"dealt {hand0}. Money in millions per game; intervals 95% (Wilson for the elimination rate).")

    figs, alts = {}, {}
    spreads = [x for x in rule["seat_spread_pp"].to_list() if x is not None and x == x]
    vmax = max([1.0, *spreads])                  # one colour scale for every player count
    verdicts = {p: spread_sentence(p, rule.filter(pl.col("players") == p), hand0, cost0) for p in players_list}
    for p in players_list:
        cap = (f"Seat spread by cards dealt and payday cost, {p} players (one colour scale for every player "
               f"count; outlined: eliminations in more than 5% of games; boxed: the printed rules). "
               f"{verdicts[p]}")
        figs[cap] = spread_figure(rule, p, hand0, cost0, vmax)
        alts[cap] = spread_alt(rule, p, hand0, cost0)
    for p in players_list:
        cap = (f"What hand should a player aim for? Win share and income less payday cost of one seat on {TESTED}:target against the field, "
               f"{p} players (cells: value and 95% half-width; star: best target per payday cost; "
               f"outlined: the default)")
        figs[cap] = strategy_figure(grid, best, p, default, cost0)
        alts[cap] = strategy_alt(best, p, default, cost0)
    cap = ("Best target hand against payday cost per player count (bars: the targets within noise of the "
           "best, whose 95% intervals overlap it)")
    figs[cap] = best_figure(best, targets)
    alts[cap] = best_alt(best)
    for p in players_list:
        cap = (f"The field dealt different hands: income less payday cost per seat and eliminations, {p} players "
               f"(cells: value and 95% half-width, Wilson intervals in the table; outlined: the printed rules)")
        figs[cap] = rule_figure(rule, p, hand0, cost0)
        alts[cap] = rule_alt(rule, p, cost0)

    t_best = "Best target hand per payday cost"
    t_grid = "Tested seat per target hand and payday cost"
    t_rule = "The field per dealt hand size and payday cost"
    return AnalysisResult(
        "tradeoff", f"Hand size against payday cost: the trade-off ({', '.join(map(str, players_list))} players)",
        summary, {t_best: best, t_grid: grid, t_rule: rule}, figs,
        {"players": players_list, "field": sorted(fields), "games_per_point": games, "seed": seed,
         "targets": targets, "payday_costs": costs, "hand_sizes": hand_sizes, "default_target": default,
         "default_payday_cost": cost0, "default_hand_size": hand0},
        alts=alts, details=(t_grid, t_rule), findings=[*verdicts.values(), *findings(best, rule, default, cost0)],
        wide=tuple(c for c in figs if not c.startswith(("Best target hand", "Seat spread"))))
