"""``zsim analyze ...`` (balance questions as tables and plots) and ``zsim report``."""
from __future__ import annotations

import click

from zsim import api
from zsim.cli_options import DECK, PLAYERS, QUIET, RULE, SEED, THREADS
from zsim.cli_output import echo, echo_json

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


def run_analysis(name: str, game: str, options: dict, out, plots, as_json: bool, quiet: bool, threads) -> None:
    """``zsim analyze [--game GAME] NAME``: the API's analysis, printed (text or JSON)."""
    result = api.analyze(name, game=game, out=out, plots=plots, threads=threads, progress=not quiet,
                         **options)
    if as_json:
        echo_json(result.to_json(), default=str)
    else:
        echo(result.text())


class GameAnalyses(click.Group):
    """``zsim analyze [--game NAME] ANALYSIS``: each game has its own analyses;
    Zahltag's are this group's own commands, another game's live in its group."""

    def _own(self, game: str, ctx, name: str):
        if game == "zahltag":
            return click.Group.get_command(self, ctx, name)
        return _load(ANALYSES[game]).get_command(ctx, name)

    def _game(self, ctx) -> str:
        name = (ctx.params.get("game") if ctx is not None else None) or "zahltag"
        if not api.analyses(name):      # an unknown game was refused in one line naming the known ones
            title = next(g.title for g in api.games() if g.name == name)
            raise api.ZsimError(f"{title} has no analyses in zsim yet; `zsim simulate --game {name}` "
                                f"and `zsim tournament --game {name}` play it")
        return name

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
            raise api.ZsimError(f"{game} has no analysis {name!r}{where}; its analyses: "
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
    run_analysis("hand-size", "zahltag", dict(players=players, targets=targets, deck=deck, games=games, seed=seed,
                                              field=field, rules=rules), out, plots, as_json, quiet, threads)


PLAYER_LIST = click.option("--players", "-p", "players_list", default="4", show_default=True,
                           help="player count, or a comma list to compare side by side (e.g. 2,4)")


@analyze.command("payday-cost")
@PLAYER_LIST
@DECK
@_common
def payday_cost(players_list, deck, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """Sweep the payday rules one at a time and report game balance."""
    run_analysis("payday-cost", "zahltag", dict(players=players_list, deck=deck, games=games, seed=seed, field=field,
                                                rules=rules), out, plots, as_json, quiet, threads)


@analyze.command("players")
@click.option("--players", "-p", "players_list", default="2,3,4", show_default=True,
              help="player counts to compare (comma list)")
@DECK
@_common
def players_cmd(players_list, deck, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """The same field at 2, 3 and 4 players, and what counting cards is worth."""
    run_analysis("players", "zahltag", dict(players=players_list, deck=deck, games=games, seed=seed, field=field,
                                            rules=rules), out, plots, as_json, quiet, threads)


@analyze.command("deck")
@PLAYER_LIST
@click.option("--deck", "decks", multiple=True, metavar="FILE",
              help="a job deck CSV to compare with the default (repeatable)")
@click.option("--perturb", type=int, default=3, show_default=True,
              help="random perturbations of the default deck to add (0..50)")
@_common
def deck_cmd(players_list, decks, perturb, games, seed, field, rules, out, plots, as_json, quiet, threads):
    """The headline figures for the default deck, user decks and perturbed decks."""
    run_analysis("deck", "zahltag", dict(players=players_list, decks=decks, perturb=perturb, games=games, seed=seed,
                                         field=field, rules=rules), out, plots, as_json, quiet, threads)


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
    run_analysis("tradeoff", "zahltag", dict(players=players_list, targets=targets, costs=costs, hand_sizes=hand_sizes,
                                             deck=deck, games=games, seed=seed, field=field, rules=rules),
                 out, plots, as_json, quiet, threads)


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
    result = api.report(out=out, game=game, players=players_list, games=games,
                        tournament_games=tournament_games, seed=seed, field=field, rules=rules, deck=deck,
                        threads=threads, progress=not quiet)
    echo(result.text())
    if not quiet:
        echo(f"wrote {result.html} and {result.markdown}")
