"""The strength ladder of any game with a forward model (``zsim ladder``,
``zsim analyze --game G ladder``): how strong each fair bot is, how strong
the search is at each budget, and where more budget stops buying strength.

The games and ratings are :mod:`zsim.harness.ladder`'s; this module turns
them into the analysis's tables, its skill-curve figure and its findings.
"""
from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from analyses.result import AnalysisResult
from zsim.analysis_spec import (RULES, SEED, AnalysisSpec, Option, field_specs, game_of, game_rules, int_list,
                                one_int, players)
from zsim.errors import ZsimError

_HERE = "analyses.ladder"
SEARCH_COLOUR, BOT_COLOUR = "#0072B2", "#D55E00"       # Okabe-Ito blue and vermillion


def _budgets(value, flag):
    """``16..512`` (every doubling from the low end) or a comma list of budgets."""
    text = str(value).strip()
    if ".." in text:
        lo, _, hi = text.partition("..")
        from zsim.harness.ladder import budgets_between

        try:
            low, high = int(lo), int(hi)
        except ValueError:
            raise ZsimError(f"{flag} needs LOW..HIGH or a comma list of whole numbers, got {value!r}") from None
        return budgets_between(low, high)
    return int_list(text, flag, 1, 1_000_000)


def spec(game) -> AnalysisSpec:
    """The ladder of the game object ``game`` (every game whose forward model lets it be searched)."""
    return AnalysisSpec(
        "ladder",
        "Rate every fair bot and the search at doubling budgets from duplicate-deal games.\n\n"
        "Each table is a few entries of the field, played on its own deals in every rotation of its seats; "
        "openskill's Plackett-Luce model rates the finishing orders. The skill curve is the search's rating "
        "against its budget, beside the best bot's.",
        (players(f"{game.min_players},{game.max_players}", "table sizes, a comma list, one ladder each",
                 game.min_players, game.max_players),
         Option("budgets", "16..256", "the search's budgets: LOW..HIGH (every doubling) or a comma list",
                _budgets, metavar="B"),
         Option("search", "ismcts", "the search entered at each budget (name:key=value sets its other "
                                    "parameters)", metavar="SPEC"),
         Option("field", None, "the bots entered [default: every fair bot of the game]", field_specs,
                metavar="SPECS", show_default=False),
         Option("add", None, "more entries, e.g. a bot tuned with `zsim tune`", field_specs, metavar="SPECS",
                show_default=False),
         Option("tables", 120, "tables per table size, each a set of entries drawn in turn", one_int(1, 10**6),
                cli="int"),
         Option("deals", 4, "deals each table plays, each in every rotation of its seats", one_int(1, 10**6),
                cli="int"),
         SEED, RULES),
        f"{_HERE}:play",
        tables=("ratings", "skill curve"), figures=("skill curve",),
        findings="whether the search at its largest budget rates above every bot, and where its curve flattens",
        bound=(("game", game.name),))


def entries_of(game: str, search: str, budgets: list[int], field, add) -> tuple[list[str], dict[str, int]]:
    from zsim.harness.ladder import default_field
    from zsim.strategy_registry import parse_one, registry

    if not isinstance(search, str) or not search.strip():
        raise ZsimError(f"--search needs one search spec, got {search!r}")
    name, *rest = [part.strip() for part in search.strip().split(":")]
    info = registry(game).get(name)
    if info is None or info.search < 0:
        searches = ", ".join(n for n, i in registry(game).items() if i.search >= 0)
        raise ZsimError(f"--search must name one of {game}'s searches ({searches}), got {name!r}")
    if any(p.startswith("iterations=") for p in rest):
        raise ZsimError("--search sets its budget with --budgets, not iterations=")
    bots = field.split(",") if field else default_field(game)
    entries = [parse_one(b, game) for b in bots + (add.split(",") if add else [])]
    budget_of = {}
    for b in budgets:
        e = parse_one(":".join([name, *rest, f"iterations={b}"]), game)
        entries.append(e)
        budget_of[e] = b
    return entries, budget_of


def play(*, game, players, budgets, search, field, add, tables, deals, seed, rules):
    from zsim.analysis_spec import rule_options

    g = game_of(game)
    game_rules(g, rules, max(players))           # every rule checked before a game is played
    entries, budget_of = entries_of(g.name, search, budgets, field, add)
    total = sum(tables * deals * p for p in players)

    def run(advance):
        from zsim.harness.ladder import play_round

        rounds = [play_round(g.name, p, entries, tables, deals, seed, game_rules(g, rules, p), None, advance)
                  for p in players]
        return result_of(g, rounds, budget_of, rule_options(rules), seed)
    return total, run


def result_of(g, rounds, budget_of: dict[str, int], rules: list[str], seed: int) -> AnalysisResult:
    frames = []
    for r in rounds:
        frames.append(r.ratings.with_columns(
            pl.lit(r.players).alias("players"),
            pl.col("entry").replace_strict(budget_of, default=None, return_dtype=pl.Int64).alias("budget")))
    ratings = pl.concat(frames).select("players", "entry", "budget", pl.exclude("players", "entry", "budget"))
    curve = ratings.filter(pl.col("budget").is_not_null()).sort("players", "budget")
    findings = [_finding(ratings, p) for p in sorted({r.players for r in rounds})]
    games = sum(r.games for r in rounds)
    return AnalysisResult(
        "ladder", f"{g.title}: the strength ladder",
        f"{games:,} games: per table size, {rounds[0].places.shape[0]} tables of entries drawn in turn, "
        f"each on {rounds[0].deals} deals in every rotation (seed {seed}). Ratings are openskill Plackett-Luce "
        f"(mu with mu +- 1.96 sigma); win share above par has a 95% interval over tables.",
        {"ratings": ratings, "skill curve": curve}, {"skill curve": _figure(ratings)},
        {"games": games, "seed": seed, "rules": rules, "entries": list(rounds[0].entries)},
        findings=findings)


def _finding(ratings: pl.DataFrame, players: int) -> str:
    """One sentence: the search at its largest budget against the best bot, and where the curve flattens."""
    rows = ratings.filter(pl.col("players") == players)
    bots = rows.filter(pl.col("budget").is_null()).sort("rating", descending=True)
    curve = rows.filter(pl.col("budget").is_not_null()).sort("budget")
    if curve.is_empty() or bots.is_empty():
        return f"At {players} players the ladder has no search or no bot to compare."
    top, best = curve.row(-1, named=True), bots.row(0, named=True)
    if top["rating_lo"] > best["rating_hi"]:
        verdict = "rates above"
    elif top["rating_hi"] < best["rating_lo"]:
        verdict = "rates below"
    else:
        verdict = "cannot yet be told apart from"
    flat = next((c["budget"] for c in curve.iter_rows(named=True) if c["rating_hi"] >= top["rating_lo"]),
                top["budget"])
    where = (f"; its rating stops rising beyond the interval at {flat} iterations" if curve.height > 1
             else "")          # one budget is no curve
    return (f"At {players} players the search at {top['budget']} iterations {verdict} the best bot, "
            f"{best['entry']} ({top['rating']:.1f} [{top['rating_lo']:.1f}, {top['rating_hi']:.1f}] against "
            f"{best['rating']:.1f} [{best['rating_lo']:.1f}, {best['rating_hi']:.1f}]; win share "
            f"{top['win_share']:.3f} against {best['win_share']:.3f}){where}.")


def _figure(ratings: pl.DataFrame) -> Figure:
    counts = sorted(ratings["players"].unique().to_list())
    fig = Figure(figsize=(4.2 * len(counts), 3.4), layout="constrained")
    axes = fig.subplots(1, len(counts), squeeze=False)[0]
    for ax, p in zip(axes, counts):
        rows = ratings.filter(pl.col("players") == p)
        curve = rows.filter(pl.col("budget").is_not_null()).sort("budget")
        bots = rows.filter(pl.col("budget").is_null()).sort("rating", descending=True)
        if not bots.is_empty():
            best = bots.row(0, named=True)
            ax.axhspan(best["rating_lo"], best["rating_hi"], color=BOT_COLOUR, alpha=0.18, lw=0)
            ax.axhline(best["rating"], color=BOT_COLOUR, lw=1.2, label=f"best bot: {best['entry']}")
        x = curve["budget"].to_list()
        y = curve["rating"].to_numpy()
        err = [y - curve["rating_lo"].to_numpy(), curve["rating_hi"].to_numpy() - y]
        ax.errorbar(x, y, yerr=err, color=SEARCH_COLOUR, marker="o", ms=4, capsize=3, label="search")
        ax.set_xscale("log", base=2)
        ax.set_xticks(x, [f"{b:,}" for b in x])
        ax.minorticks_off()
        ax.set_xlabel("iterations per decision")
        ax.set_ylabel("rating (openskill mu, 95%)")
        ax.set_title(f"{p} players")
        ax.legend(fontsize=8, loc="lower right")
    return fig
