"""``zsim analyze ...`` (balance questions as tables and plots) and ``zsim report``."""
from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path

import click

from zsim.cli_options import DECK, PLAYERS, QUIET, RULE, SEED, THREADS, check_given
from zsim.errors import ZsimError

FIELD = click.option("--field", default=None, metavar="SPECS",
                     help="strategies of the field: one for every seat, or a comma list used in turn "
                          "[default: simple]")
GAMES = click.option("--games", "-n", type=int, default=100_000, show_default=True,
                     help="games per point of the analysis")
OUT = click.option("--out", default=None, metavar="FILE",
                   help="write the main table to FILE (.parquet or .csv); further tables go beside it "
                        "as FILE-<table>.<suffix>")
PLOTS = click.option("--plots", default=None, metavar="DIR", help="save every figure as a PNG in DIR")
AS_JSON = click.option("--json", "as_json", is_flag=True, help="print the tables as JSON")


def _common(f):
    for opt in reversed((GAMES, SEED, FIELD, RULE, OUT, PLOTS, AS_JSON, QUIET, THREADS)):
        f = opt(f)
    return f


def _rules(rules):
    from zsim.games.zahltag.rules import parse_rule_options

    return parse_rule_options(rules)


def _check_out(out):
    from zsim.runner import check_out_path

    if check_given(out, "--out") is None:
        return None
    path = check_out_path(out)
    if path.suffix.lower() not in (".parquet", ".csv"):
        raise ZsimError(f"--out {out!r} must end in .parquet or .csv")
    return path


def _check_plots(plots):
    if check_given(plots, "--plots") is None:
        return None
    path = Path(plots)
    if path.exists() and not path.is_dir():
        raise ZsimError(f"--plots {plots!r} is a file, not a folder")
    parent = path.parent if str(path.parent) else Path(".")
    if not path.exists() and not parent.is_dir():
        raise ZsimError(f"--plots folder {str(parent)!r} does not exist")
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "table"


def _check_games_seed(games, seed):
    from zsim.runner import check_games_and_seed

    check_games_and_seed(games, seed)


def _play(label: str, total: int, quiet: bool, threads, call):
    """Run ``call(advance)`` under a progress bar; Ctrl-C ends with one line, exit 130."""
    from zsim.progress import exit_interrupted, progress
    from zsim.runner import set_threads

    set_threads(threads)
    with progress(total, label, quiet) as bar:
        try:
            return call(bar.advance)
        except KeyboardInterrupt:
            done = bar.done
    exit_interrupted(f"after {done:,} of {total:,} games; nothing was written")


def _json_value(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def emit(result, out, plots, as_json) -> None:
    """Print a result (text or JSON) and write its tables and figures."""
    from analyses.report_format import display_table
    from zsim.output import output_set

    # every table and figure is written to its temporary first and all are
    # renamed together at the end: a full disk or a Ctrl-C leaves none of them
    with output_set() as outs:
        if out is not None:
            for i, (caption, frame) in enumerate(result.tables.items()):
                target = out if i == 0 else out.with_name(f"{out.stem}-{_slug(caption)}{out.suffix}")
                tmp = outs.path(target)
                if out.suffix.lower() == ".csv":
                    frame.write_csv(tmp)
                else:
                    frame.write_parquet(tmp)
        if plots is not None:
            outs.folder(plots)
            for i, fig in enumerate(result.figures.values(), 1):
                fig.savefig(outs.path(plots / f"{result.name}-{i}.png"), format="png", dpi=110,
                            bbox_inches="tight")
    if as_json:
        doc = {"analysis": result.name, "title": result.title, "summary": result.summary,
               "findings": list(result.findings), "meta": result.meta,
               "tables": {c: [{k: _json_value(v) for k, v in row.items()} for row in f.to_dicts()]
                          for c, f in result.tables.items()}}
        click.echo(json.dumps(doc, indent=1, default=str))
        return
    click.echo(result.title)
    click.echo(result.summary)
    for line in result.findings:
        click.echo(f"- {line}")
    for caption, frame in result.tables.items():
        headers, numeric, rows = display_table(frame)
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
        click.echo(f"\n{caption}")
        click.echo("  ".join(h.rjust(w) if n else h.ljust(w) for h, w, n in zip(headers, widths, numeric)))
        for r in rows:
            click.echo("  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(r, widths, numeric)))


def _parse_int_list(text: str, what: str, low: int, high: int) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("..")
        try:
            values = range(int(lo), int(hi) + 1) if sep else [int(part)]
        except ValueError:
            raise ZsimError(f"{what} {text!r} is not a comma list of numbers or ranges like 4..12") from None
        for v in values:
            if not low <= v <= high:
                raise ZsimError(f"{what} {v} is outside {low}..{high}")
            if v not in out:
                out.append(v)
    if not out:
        raise ZsimError(f"{what} {text!r} is empty")
    return out


def _players(players: int) -> int:
    if not 2 <= players <= 4:
        raise ZsimError(f"--players must be 2..4, got {players}")
    return players


class GameAnalyses(click.Group):
    """``zsim analyze [--game NAME] ANALYSIS``: each game has its own analyses;
    Zahltag's are this group's own commands, another game's live in its group."""

    def _own(self, game: str, ctx, name: str):
        if game == "zahltag":
            return click.Group.get_command(self, ctx, name)
        return _load(ANALYSES[game]).get_command(ctx, name)

    def _game(self, ctx) -> str:
        from zsim.cli_options import game_of

        game = game_of((ctx.params.get("game") if ctx is not None else None) or "zahltag")
        if game.name != "zahltag" and game.name not in ANALYSES:
            raise ZsimError(f"{game.title} has no analyses in zsim yet; `zsim simulate --game {game.name}` "
                            f"and `zsim tournament --game {game.name}` play it")
        return game.name      # an unknown game was refused in one line naming the known ones

    def list_commands(self, ctx):
        game = self._game(ctx)
        if game == "zahltag":
            return click.Group.list_commands(self, ctx)
        return _load(ANALYSES[game]).list_commands(ctx)

    def get_command(self, ctx, name):
        game = self._game(ctx)
        command = self._own(game, ctx, name)
        if command is None and not ctx.resilient_parsing:
            others = [g for g in ("zahltag", *ANALYSES) if g != game and self._own(g, ctx, name) is not None]
            where = f" ({name!r} is an analysis of {', '.join(others)})" if others else ""
            raise ZsimError(f"{game} has no analysis {name!r}{where}; its analyses: "
                            f"{', '.join(self.list_commands(ctx))}")
        return command


#: game -> "module:group" of its analyses (Zahltag's are the group's own commands)
ANALYSES = {"zahlemann": "zsim.cli_analyze_zahlemann:analyze_zahlemann",
            "baumeister": "zsim.cli_analyze_baumeister:analyze_baumeister"}


def _load(where: str) -> click.Group:
    import importlib

    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


@click.group(cls=GameAnalyses)
@click.option("--game", "-g", "game", default="zahltag", show_default=True, metavar="NAME", is_eager=True,
              help="the game whose analyses to run (zahlemann: players, variants, hand-size, money, forget; "
                   "baumeister: players, prices, gates, bonuses, sabotage, auctioneer)")
def analyze(game):
    """Balance analyses: tables with 95% intervals, plots with error bars.

    Zahltag's are listed below; `zsim analyze --game zahlemann --help` lists Zahlemann's,
    `zsim analyze --game baumeister --help` Wettstreit der Baumeister's."""


@analyze.command("hand-size")
@PLAYERS
@click.option("--targets", default="0..12", show_default=True,
              help="target hand sizes of the tested seat (comma list or range, within 0..12)")
@DECK
@_common
def hand_size(players, targets, deck, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """One seat's target hand size (handsize:target=K) against a fixed field."""
    from analyses import hand_size as analysis
    from zsim.games.zahltag.deck import load_deck

    players, ks = _players(players), _parse_int_list(targets, "--targets", 0, 12)
    r, d = _rules(rules), load_deck(deck)
    out, plots = _check_out(out), _check_plots(plots)
    _check_games_seed(games, seed)
    pts = analysis.points(players, field, games, r, d, ks)
    total = sum(p.games for p in pts)
    result = _play("hand-size", total, quiet, threads,
                   lambda adv: analysis.run(players, field, games, seed, r, d, adv, ks))
    emit(result, out, plots, as_json)


PLAYER_LIST = click.option("--players", "-p", "players_list", default="4", show_default=True,
                           help="player count, or a comma list to compare side by side (e.g. 2,4)")


@analyze.command("payday-cost")
@PLAYER_LIST
@DECK
@_common
def payday_cost(players_list, deck, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """Sweep the payday rules one at a time and report game balance."""
    from analyses import payday_cost as analysis
    from zsim.games.zahltag.deck import load_deck

    plist = _parse_int_list(players_list, "--players", 2, 4)
    r, d = _rules(rules), load_deck(deck)
    out, plots = _check_out(out), _check_plots(plots)
    _check_games_seed(games, seed)
    total = sum(p.games for n in plist for p in analysis.points(n, field, games, r, d))
    result = _play("payday-cost", total, quiet, threads,
                   lambda adv: analysis.run(plist, field, games, seed, r, d, adv))
    emit(result, out, plots, as_json)


@analyze.command("players")
@click.option("--players", "-p", "players_list", default="2,3,4", show_default=True,
              help="player counts to compare (comma list)")
@DECK
@_common
def players_cmd(players_list, deck, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """The same field at 2, 3 and 4 players, and what counting cards is worth."""
    from analyses import players as analysis
    from zsim.games.zahltag.deck import load_deck

    plist = _parse_int_list(players_list, "--players", 2, 4)
    r, d = _rules(rules), load_deck(deck)
    out, plots = _check_out(out), _check_plots(plots)
    _check_games_seed(games, seed)
    main, know = analysis.points(plist, field, games, r, d)
    total = sum(p.games for p in main + know)
    result = _play("players", total, quiet, threads,
                   lambda adv: analysis.run(plist, field, games, seed, r, d, adv))
    emit(result, out, plots, as_json)


@analyze.command("deck")
@PLAYER_LIST
@click.option("--deck", "decks", multiple=True, metavar="FILE",
              help="a job deck CSV to compare with the default (repeatable)")
@click.option("--perturb", type=int, default=3, show_default=True,
              help="random perturbations of the default deck to add (0..50)")
@_common
def deck_cmd(players_list, decks, perturb, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """The headline figures for the default deck, user decks and perturbed decks."""
    from analyses import deck as analysis
    from zsim.games.zahltag.deck import load_deck

    plist = _parse_int_list(players_list, "--players", 2, 4)
    if not 0 <= perturb <= 50:
        raise ZsimError(f"--perturb must be 0..50, got {perturb}")
    r = _rules(rules)
    extra = [load_deck(f) for f in decks]
    out, plots = _check_out(out), _check_plots(plots)
    _check_games_seed(games, seed)
    from analyses.common import field_specs
    from zsim.runner import Matchup

    for n in plist:
        seats = tuple(field_specs(field, n))
        for d in extra:
            Matchup(n, seats, r, d)   # refuses a deck the supply cannot serve, before any game
    total = games * (1 + len(extra) + perturb) * len(plist)
    result = _play("deck", total, quiet, threads,
                   lambda adv: analysis.run(plist, field, games, seed, r, extra, perturb, adv))
    emit(result, out, plots, as_json)


@analyze.command("tradeoff")
@click.option("--players", "-p", "players_list", default="2,3,4", show_default=True,
              help="player counts to sweep (comma list)")
@click.option("--targets", default="0..12", show_default=True,
              help="target hand sizes of the tested seat (comma list or range, within 0..12)")
@click.option("--costs", default="0..3", show_default=True,
              help="payday costs to sweep (rule payday_cost; comma list or range)")
@click.option("--hand-sizes", "hand_sizes", default="3..11", show_default=True,
              help="cards dealt in the field's rule grid (rule hand_size; comma list or range)")
@DECK
@_common
def tradeoff_cmd(players_list, targets, costs, hand_sizes, deck, games, seed, field, rules, out, plots, as_json,
                 quiet, threads):
    """Hand size against payday cost: the best target hand at each payday cost,
    and what the dealt hand size does to the field."""
    from analyses import tradeoff as analysis
    from zsim.games.zahltag.deck import load_deck
    from zsim.games.zahltag.rules import SPEC_BY_KEY

    plist = _parse_int_list(players_list, "--players", 2, 4)
    ks = _parse_int_list(targets, "--targets", *analysis.target_limits())
    cost, hand = SPEC_BY_KEY["payday_cost"], SPEC_BY_KEY["hand_size"]
    cs = _parse_int_list(costs, "--costs", cost.low, cost.high)
    hs = _parse_int_list(hand_sizes, "--hand-sizes", hand.low, hand.high)
    analysis.check_rule_keys(item.partition("=")[0].strip() for item in rules)
    r, d = _rules(rules), load_deck(deck)
    out, plots = _check_out(out), _check_plots(plots)
    _check_games_seed(games, seed)
    total = analysis.total_games(plist, field, games, r, d, ks, cs, hs)
    result = _play("tradeoff", total, quiet, threads,
                   lambda adv: analysis.run(plist, field, games, seed, r, d, adv, ks, cs, hs))
    emit(result, out, plots, as_json)


@click.command()
@click.option("--players", "-p", "players_list", default="2,3,4", show_default=True,
              help="player counts to report on (comma list)")
@click.option("--games", "-n", type=int, default=20_000, show_default=True,
              help="games per point of every analysis")
@click.option("--tournament-games", type=int, default=None,
              help="deals of the built-in tournament per player count [default: --games / 20]")
@SEED
@FIELD
@RULE
@DECK
@click.option("--out", required=True, metavar="DIR", help="folder for index.html, report.md and figures/")
@QUIET
@THREADS
@click.option("--game", "-g", "game", default="zahltag", show_default=True, metavar="NAME",
              help="the game to report on (zahltag, zahlemann or baumeister)")
def report(players_list, games, tournament_games, seed, field, rules, deck, out, quiet, threads, game):
    """Every analysis, the built-in tournament and the run's metadata as an HTML
    and Markdown report with PNG plots."""
    from analyses import report_run
    from analyses.report import check_target
    from zsim.cli_options import game_deck, game_of
    from zsim.games.zahltag.deck import load_deck

    g = game_of(game)
    if g.name != "zahltag":
        game_deck(g, deck)                     # a --deck for a game without one: one line
        if g.name not in ANALYSES:
            raise ZsimError(f"{g.title} has no report in zsim yet")
        if g.name == "baumeister":
            from zsim.cli_analyze_baumeister import report as baumeister_report
            return baumeister_report(players_list, games, tournament_games, seed, field, rules, deck, out, quiet,
                                     threads)
        from zsim.cli_analyze_zahlemann import report as game_report
        return game_report(players_list, games, tournament_games, seed, field, rules, out, quiet, threads)

    plist = _parse_int_list(players_list, "--players", 2, 4)
    r, d = _rules(rules), load_deck(deck)
    _check_games_seed(games, seed)
    deals = tournament_deals(tournament_games, games)
    target = Path(check_given(out, "--out"))
    check_target(target)
    play_report(report_run, report_run.Plan(plist, field, games, deals, seed, r, d), out, target, quiet, threads)


def tournament_deals(tournament_games: int | None, games: int) -> int:
    """``--tournament-games``, by default a twentieth of ``--games``."""
    deals = tournament_games if tournament_games is not None else max(1, games // 20)
    if deals < 1:
        raise ZsimError(f"--tournament-games must be at least 1, got {deals}")
    return deals


def play_report(module, plan, out: str, target: Path, quiet: bool, threads, title: str = "zsim report") -> None:
    """Play a report's ``plan`` (``module`` gives run, metadata, key_findings and
    command), write it to ``target`` and print its key findings."""
    from analyses.report import write_report

    started = time.time()
    results = _play("report", plan.total_games(), quiet, threads, lambda adv: module.run(plan, adv))
    meta = module.metadata(plan, time.time() - started)
    findings = module.key_findings(results)
    html, md = write_report(results, meta, module.command(plan, out), target, findings=findings, title=title)
    click.echo("Key findings")
    for line in findings:
        click.echo(f"- {line}")
    if not quiet:
        click.echo(f"wrote {html} and {md}")
