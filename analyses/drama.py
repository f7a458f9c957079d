"""How games unfold: each seat's chance of winning after every move, and
from it when a game is decided, how often the lead changes, and how far
the eventual winner trailed (``zsim analyze --game G drama``, every game
with a forward model).

Each sampled game is traced (``zsim/harness/trace.py``): at every position
the game is played on to its end ``continuations`` times from the true
position, only what no seat has seen drawn afresh, by the field's own bots.
The estimates are those bots' view of the game, not a perfect player's.

Per game, with ``w`` the eventual winner's estimate (a first place shared
by k seats weighs each of them 1/k):

* **decided at**: the share of the game's moves played before ``w`` passes
  ``threshold`` and stays there to the end;
* **lead changes**: how often a seat took the lead from the leader, counting
  only a new leader clearly ahead of the old one (by more than the 95%
  noise of the two estimates), so that noise is not a lead change;
* **lowest chance**: the smallest ``w`` before the end;
* **comeback**: the winner was clearly below half its fair share (1/(2 ×
  players): 25% at 2 players, 12.5% at 4) at some position, the upper end
  of its 95% interval there below that line, so that the lowest of many
  noisy estimates is no comeback by itself;
* **trailing**: the share of positions in which another seat was clearly
  ahead of the eventual winner, and the mean gap when it was.

Across games each figure has its 95% interval (means over games; shares of
games by Wilson).
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from analyses import common
from analyses.result import AnalysisResult
from analyses.stats import wilson
from zsim.analysis_spec import (RULES, SEED, AnalysisSpec, Option, field_specs, game_of, game_rules, one_int,
                                players, rule_options)
from zsim.errors import ZsimError
from zsim.viewer import wilson as wilson_bands

_HERE = "analyses.drama"
Z = 1.96
#: a game whose winner's chance was clearly below this share of par (1/players) was a comeback
COMEBACK = 0.5


def _threshold(value, flag):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ZsimError(f"{flag} must be a number between 0.5 and 1, got {value!r}") from None
    if not 0.5 <= x < 1:
        raise ZsimError(f"{flag} must be at least 0.5 and below 1, got {value!r}")
    return x


def spec(game) -> AnalysisSpec | None:
    """The drama analysis of the game object ``game``: every game whose forward
    model can redraw a true position (None for another)."""
    from zsim.harness.forward import forward_model

    if not hasattr(forward_model(game.name), "redraw_nb"):
        return None
    return AnalysisSpec(
        "drama",
        "When is a game decided, how often does the lead change, and how far did the winner trail?\n\n"
        "Each sampled game is traced: after every move each seat's chance of winning is estimated by playing "
        "the game on to its end many times from the true position (what no seat has seen drawn afresh), "
        "by the field's own bots.",
        (players(f"{game.min_players},{game.max_players}", "player counts, a comma list", game.min_players,
                 game.max_players),
         Option("games", 200, "games traced per player count", one_int(1, 100_000), short="-n", cli="int"),
         Option("continuations", 32, "games played on from each position", one_int(2, 4096), cli="int"),
         Option("threshold", 0.9, "the winner's chance from which a game counts as decided", _threshold,
                metavar="P"),
         Option("field", None, "the strategies at the table [default: the game's default strategy]",
                field_specs, metavar="SPECS", show_default=False),
         SEED, RULES),
        f"{_HERE}:play",
        tables=("per player count", "per game"), figures=("traces", "decided"),
        findings="when games are decided, how often the lead changes, how far winners trailed",
        bound=(("game", game.name),))


def play(*, game, players, games, continuations, threshold, field, seed, rules):
    from zsim.harness.chunks import Matchup
    from zsim.harness.trace import check_observers, TRUE

    g = game_of(game)
    matchups = {}
    for p in players:
        r = game_rules(g, rules, p)
        seats = tuple(common.field_specs(field, p, g.name))
        matchups[p] = Matchup(p, seats, r, None, g.name)
        check_observers(matchups[p], (TRUE,))
    total = games * len(players)

    def run(advance):
        frames = []
        traces = {}
        for p in players:
            traced = _traced(matchups[p], seed, games, continuations, advance)
            traces[p] = traced
            frames.append(per_game(traced, threshold))
        return result_of(g, pl.concat(frames), traces, threshold, continuations, seed, rule_options(rules),
                         matchups)
    return total, run


def _traced(m, seed: int, games: int, n: int, advance, part: int = 16):
    """The traces of games 0..games-1, a few at a time so that the bar moves."""
    from zsim.harness.trace import TRUE, trace

    parts = []
    for start in range(0, games, part):
        ids = list(range(start, min(games, start + part)))
        parts.append(trace(m, seed, ids, n=n, observers=(TRUE,)))
        if advance is not None:
            advance(len(ids))
    return _joined(parts)


def _joined(parts):
    from dataclasses import replace

    longest = max(t.total.shape[1] for t in parts)
    def pad(a):
        out = np.zeros((a.shape[0], longest, *a.shape[2:]))
        out[:, :a.shape[1]] = a
        return out
    first = parts[0]
    return replace(first, games=[g for t in parts for g in t.games],
                   lengths=np.concatenate([t.lengths for t in parts]),
                   total=np.concatenate([pad(t.total) for t in parts]),
                   squares=np.concatenate([pad(t.squares) for t in parts]),
                   decisions=[d for t in parts for d in t.decisions])


# ---------------------------------------------------------------- one game
def game_measures(est: np.ndarray, n: int, threshold: float) -> dict:
    """The measures of one game from its true-position trace ``est``
    [positions, seats] (the last row: the result), ``n`` continuations a position."""
    result = est[-1]
    length = est.shape[0] - 1
    w = est @ (result / result.sum())
    below = np.flatnonzero(w < threshold)
    decided = 0 if below.size == 0 else int(below[-1]) + 1
    before = est[:-1] if length > 0 else est
    wb = w[:-1] if length > 0 else w
    noise = Z * np.sqrt(np.clip(before * (1 - before), 1e-12, None) / n)
    changes, leader = 0, -1
    trailing, gaps = 0, []
    winners = set(np.flatnonzero(result > 0).tolist())
    for d in range(before.shape[0]):
        row, err = before[d], noise[d]
        order = np.argsort(-row, kind="stable")
        top, second = int(order[0]), int(order[1])
        if leader < 0:
            if row[top] - row[second] > math.hypot(err[top], err[second]):
                leader = top
        elif top != leader and row[top] - row[leader] > math.hypot(err[top], err[leader]):
            leader = top
            changes += 1
        best_other = max((s for s in range(row.shape[0]) if s not in winners), key=lambda s: row[s], default=None)
        if best_other is not None:
            wins = [s for s in winners]
            gap = row[best_other] - wb[d]
            if gap > max(math.hypot(err[best_other], err[s]) for s in wins):
                trailing += 1
                gaps.append(gap)
    return {"moves": length, "decided_at": decided / length if length else 0.0, "decided_move": decided,
            "lead_changes": changes, "lowest_chance": float(wb.min()),
            "comeback": bool((wilson_bands(wb, n, Z)[1] < COMEBACK / est.shape[1]).any()),
            "trailing_share": trailing / before.shape[0], "trailing_gap": float(np.mean(gaps)) if gaps else 0.0,
            "winner": ",".join(str(s) for s in sorted(winners))}


def per_game(traced, threshold: float) -> pl.DataFrame:
    rows = []
    for i, game in enumerate(traced.games):
        est = traced.means(i)[:, 0, :]
        rows.append({"players": traced.matchup.players, "game": game,
                     **game_measures(est, traced.n, threshold)})
    return pl.DataFrame(rows)


# ---------------------------------------------------------------- across games
def summary(per: pl.DataFrame) -> pl.DataFrame:
    out = []
    for (p,), part in per.sort("players").group_by(["players"], maintain_order=True):
        row = {"players": p, "games": part.height}
        for col in ("decided_at", "lead_changes", "lowest_chance", "trailing_share", "moves"):
            v = part[col].to_numpy().astype(float)
            row[col] = float(v.mean())
            row[f"{col}_ci95"] = float(Z * v.std(ddof=1) / math.sqrt(v.size)) if v.size > 1 else None
        k = int(part["comeback"].sum())
        lo, hi = wilson(k, part.height)
        row.update(comeback_share=k / part.height, comeback_share_lo=lo, comeback_share_hi=hi)
        out.append(row)
    return pl.DataFrame(out)


def examples(per: pl.DataFrame, players: int) -> dict[str, int]:
    """Games worth a look at ``players``, each a different game while there
    are enough: the biggest comeback (the winner's lowest chance), the
    latest decided of the rest, and a typical one (decided nearest the
    median)."""
    part = per.filter(pl.col("players") == players)
    if part.is_empty():
        return {}
    median = float(part["decided_at"].median())
    orders = {"the biggest comeback": part.sort("lowest_chance", "game"),
              "the closest game": part.sort(pl.col("decided_at"), "game", descending=[True, False]),
              "a typical game": part.with_columns((pl.col("decided_at") - median).abs().alias("_off"))
              .sort("_off", "game")}
    out: dict[str, int] = {}
    for label, order in orders.items():
        games = order["game"].to_list()
        out[label] = next((g for g in games if g not in out.values()), games[0])
    return out


def result_of(g, per: pl.DataFrame, traces: dict, threshold: float, n: int, seed: int, rules: list[str],
              matchups: dict) -> AnalysisResult:
    table = summary(per)
    figures = {"Each seat's chance of winning, move by move, in three games per player count "
               "(the eventual winner in bold)": trace_figure(per, traces),
               f"When games are decided: the share of the game played before the winner's chance stays "
               f"above {threshold:.0%}": decided_figure(per, threshold)}
    findings = [finding(r, threshold) for r in table.iter_rows(named=True)]
    from zsim.harness.forward import forward_model

    pages, links = {}, []
    viewable = hasattr(forward_model(g.name), "describe")      # a page needs the game's view in words
    for p in sorted(traces):
        ex = examples(per, p)
        if ex:
            findings.append(f"At {p} players, games worth replaying: "
                            + ", ".join(f"{k} (game {v})" for k, v in ex.items()) + ".")
        for label, game in ex.items() if viewable else ():
            rel = f"games/{g.name}-{p}p-game{game}.html"
            page, first = example_page(matchups[p], seed, game, n, threshold,
                                       f"{label.capitalize()} of {per.filter(pl.col('players') == p).height} "
                                       f"games traced at {p} players (seed {seed}, game {game}).", rules)
            pages[rel] = page
            links.append((f"Step through {label} at {p} players (game {game})", rel, first))
    field = ", ".join(sorted({s for m in matchups.values() for s in m.strategies}))
    summary_text = (f"{g.title}: {per.height:,} games traced ({', '.join(f'{p} players' for p in sorted(traces))}), "
                    f"{field} at the table; after every move {n} continuations from the true position by the same "
                    f"bots (seed {seed}). A game is decided once the eventual winner's chance stays above "
                    f"{threshold:.0%}; a lead change needs the new leader clearly ahead (beyond the 95% noise); "
                    f"a comeback is a win after the winner's chance was clearly below half its fair share "
                    f"(the upper end of its 95% interval below 1/(2 × players)).")
    meta = {"game": g.name, "games_per_count": int(per.group_by("players").len()["len"].max()),
            "continuations": n, "threshold": threshold, "seed": seed, "rules": ", ".join(rules) or "as printed", "field": field}
    alts = {caption: f"{caption}: three example games at each of {', '.join(map(str, sorted(traces)))} players, "
                     f"each seat's chance of winning against the moves made; the games are linked below the "
                     f"findings, to step through" for caption in list(figures)[:1]}
    return AnalysisResult("drama", "How games unfold", summary_text,
                          {"Per player count": table, "Per game": per}, figures, meta, findings=findings,
                          details=("Per game",), wide=tuple(figures)[:1],
                          definitions=DEFINITIONS, pages=pages, links=links, alts=alts)


def example_page(matchup, seed: int, game: int, n: int, threshold: float, why: str, rules) -> tuple[str, str]:
    """Game ``game`` as a page to step through (``zsim view``'s), and its first line."""
    from zsim import viewer, viewer_page

    data = viewer.game_data(matchup, seed, game, continuations=n)
    return viewer_page.render(data, game_measures, threshold,
                              [why, viewer_page.seats_line(data, list(rules)), viewer_page.estimate_line(data)])


DEFINITIONS = {
    "moves": "decisions in the game",
    "decided_at": "share of the game's decisions made before the winner's chance stayed above the threshold",
    "decided_move": "the decision after which the winner's chance stayed above the threshold",
    "lead_changes": "times a seat took the lead, clearly ahead of the leader (beyond the estimates' noise)",
    "lowest_chance": "the eventual winner's lowest chance of winning before the end",
    "trailing_share": "share of positions in which another seat was clearly ahead of the eventual winner",
    "trailing_gap": "how far the eventual winner trailed, on average, when it did (chance of winning)",
    "comeback": "the winner was clearly below half its fair share at some point (its 95% interval below "
                "1/(2 × players))",
    "comeback_share": "share of games won after the winner's chance was clearly below half its fair share "
                      "(25% at 2 players, 12.5% at 4)",
    "winner": "the seat (or seats, on a shared first place) that won",
    "game": "the game's number in the run: with the seed, it deals the same game again (zsim record --first)",
}


def finding(r: dict, threshold: float) -> str:
    from analyses.report_format import format_ci

    pct = lambda v, ci: format_ci(100 * v, None if ci is None else 100 * ci)   # noqa: E731
    return (f"At {r['players']} players a game is decided {pct(r['decided_at'], r['decided_at_ci95'])}% of the "
            f"way through (the winner's chance stays above {threshold:.0%} from there); the lead changes "
            f"{format_ci(r['lead_changes'], r['lead_changes_ci95'])} times a game; the winner trailed in "
            f"{pct(r['trailing_share'], r['trailing_share_ci95'])}% of positions, and "
            f"{common.rate_text(r['comeback_share'], r['comeback_share_lo'], r['comeback_share_hi'])} of games "
            f"were comebacks from below half a fair share ({COMEBACK / r['players']:.1%}).")


# ---------------------------------------------------------------- figures
def trace_figure(per: pl.DataFrame, traces: dict):
    counts = sorted(traces)
    fig, axes = common.figure(ncols=3, nrows=len(counts), width=4.0, height=2.8)
    colours = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"]
    for row, p in zip(axes, counts):
        traced = traces[p]
        for ax, (label, game) in zip(row, examples(per, p).items()):
            i = traced.games.index(game)
            est = traced.means(i)[:, 0, :]
            x = np.arange(est.shape[0])
            winners = set(np.flatnonzero(est[-1] > 0).tolist())
            for s in range(est.shape[1]):
                ax.plot(x, est[:, s], color=colours[s % len(colours)], linewidth=2.2 if s in winners else 1.0,
                        label=f"seat {s}")
            ax.set_ylim(-0.02, 1.02)
            ax.set_title(f"{p} players: {label} (game {game})", fontsize=9)
            ax.set_xlabel("move")
            ax.set_ylabel("chance of winning")
    common.legend_below(fig, axes[-1][0], ncols=min(4, max(counts)))
    return fig


def decided_figure(per: pl.DataFrame, threshold: float):
    fig, axes = common.figure(width=6.0, height=3.6)
    ax = axes[0][0]
    for (p,), part in per.sort("players").group_by(["players"], maintain_order=True):
        v = np.sort(part["decided_at"].to_numpy())
        y = np.arange(1, v.size + 1) / v.size
        ax.step(v, y, where="post", label=f"{p} players", **{k: s for k, s in common.series_style(p).items()
                                                               if k in ("color", "linestyle")})
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(f"share of the game played before\nthe winner's chance stays above {threshold:.0%}")
    ax.set_ylabel("share of games decided by then")
    ax.legend(fontsize=8, loc="upper left")
    return fig


# ---------------------------------------------------------------- in a game's report
#: continuations per position of a report's drama section
REPORT_CONTINUATIONS = 32
#: the threshold a report's drama section decides games at
REPORT_THRESHOLD = 0.9


def report_games(report_plan) -> int:
    """Games traced per player count in a report: a hundredth of its games a
    point, 4 to 200 (the traces cost a game's length in continuations each)."""
    return max(4, min(200, report_plan.games // 100))


def report_total(game: str, report_plan) -> int:
    return report_games(report_plan) * len(report_plan.players) if spec(game_of(game)) is not None else 0


def report_run(game: str, report_plan, advance=None) -> list[AnalysisResult]:
    """The report's "how games unfold" section (none for a game whose model
    cannot trace): the analysis at the report's player counts, field, seed and
    rules, with its example games as pages to step through."""
    from analyses.report_parts import rule_texts

    g = game_of(game)
    if spec(g) is None:
        return []
    _, run = play(game=g.name, players=list(report_plan.players), games=report_games(report_plan),
                  continuations=REPORT_CONTINUATIONS, threshold=REPORT_THRESHOLD, field=report_plan.field,
                  seed=report_plan.seed, rules=rule_texts(report_plan.rules, g.default_rules()))
    return [run(advance)]


def key_lines(by_name: dict) -> list[str]:
    """A report's key finding on how games unfold, at its largest player count (none without the section)."""
    result = by_name.get("drama")
    if result is None:
        return []
    r = result.tables["Per player count"].sort("players").row(-1, named=True)
    line = finding(r, result.meta["threshold"])
    return ["How games unfold: " + line[0].lower() + line[1:]]
