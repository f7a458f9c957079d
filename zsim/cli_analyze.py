"""``zsim analyze ...`` (balance questions as tables and plots) and ``zsim report``."""
from __future__ import annotations

import click

from zsim import api
from zsim.cli_options import DECK, QUIET, RULE, SEED, THREADS
from zsim.cli_output import echo, echo_json

OUT = click.option("--out", default=None, metavar="FILE",
                   help="write the main table to FILE (.parquet or .csv); further tables go beside it "
                        "as FILE-<table>.<suffix>")
PLOTS = click.option("--plots", default=None, metavar="DIR", help="save every figure as a PNG in DIR")
AS_JSON = click.option("--json", "as_json", is_flag=True, help="print the tables as JSON")
#: what every analysis command has besides its spec's options: where its results go and how it runs
_OUTPUTS = (OUT, PLOTS, AS_JSON, QUIET, THREADS)


def run_analysis(name: str, game: str, options: dict, out, plots, as_json: bool, quiet: bool, threads) -> None:
    """``zsim analyze [--game GAME] NAME``: the API's analysis, printed (text or JSON)."""
    result = api.analyze(name, game=game, out=out, plots=plots, threads=threads, progress=not quiet,
                         **options)
    if as_json:
        echo_json(result.to_json(), default=str)
    else:
        echo(result.text())


def _option(o) -> click.Option:
    """The command line's option for the spec option ``o`` (:class:`zsim.analysis_spec.Option`)."""
    kinds = {"text": {}, "int": {"type": int}, "many": {"multiple": True}}
    default = () if o.cli == "many" and o.default is None else o.default
    return click.Option([o.flag, *([o.short] if o.short else []), o.name], default=default,
                        show_default=o.show_default, metavar=o.metavar, help=o.help, **kinds[o.cli])


def command(game: str, spec) -> click.Command:
    """``zsim analyze --game GAME NAME`` for the analysis spec ``spec``
    (:class:`zsim.analysis_spec.AnalysisSpec`): its options, then the outputs'."""
    def outputs(f):
        for opt in reversed(_OUTPUTS):
            f = opt(f)
        return f

    @outputs
    def run(out, plots, as_json, quiet, threads, **options):
        run_analysis(spec.name, game, options, out, plots, as_json, quiet, threads)

    outputs_params = run.__click_params__[::-1]        # click keeps a decorator's options last first
    return click.Command(spec.name, callback=run, params=[_option(o) for o in spec.options] + outputs_params,
                         help=spec.question)


class GameAnalyses(click.Group):
    """``zsim analyze [--game NAME] ANALYSIS``: the commands of the game's analyses, made
    from its specs (:mod:`zsim.analysis_spec`) when the command line names one."""

    def _game(self, ctx) -> str:
        name = (ctx.params.get("game") if ctx is not None else None) or api.DEFAULT_GAME
        if not api.analyses(name):      # an unknown game was refused in one line naming the known ones
            title = next(g.title for g in api.games() if g.name == name)
            raise api.ZsimError(f"{title} has no analyses in zsim yet; `zsim simulate --game {name}` "
                                f"and `zsim tournament --game {name}` play it")
        return name

    def list_commands(self, ctx):
        return api.analyses(self._game(ctx))

    def get_command(self, ctx, name):
        game = self._game(ctx)
        if ctx.resilient_parsing and name not in api.analyses(game):
            return None
        return command(game, api.analysis(name, game=game))


@click.group(cls=GameAnalyses)
@click.option("--game", "-g", "game", default=api.DEFAULT_GAME, show_default=True, metavar="NAME", is_eager=True,
              help="the game whose analyses to run (`zsim games` lists the games)")
def analyze(game):
    """Balance analyses: tables with 95% intervals, plots with error bars.

    The default game's are listed below; `zsim analyze --game NAME --help` lists another game's."""


@click.command()
@click.option("--players", "-p", "players_list", default="2,3,4", show_default=True,
              help="player counts to report on (comma list)")
@click.option("--games", "-n", type=int, default=20_000, show_default=True,
              help="games per point of every analysis")
@click.option("--tournament-games", type=int, default=None,
              help="deals of the built-in tournament per player count [default: --games / 20]")
@SEED
@click.option("--field", default=None, metavar="SPECS",
              help="strategies of the field: one for every seat, or a comma list used in turn "
                   "[default: the game's own field, as its analyses name it]")
@RULE
@DECK
@click.option("--out", required=True, metavar="DIR", help="folder for index.html, report.md and figures/")
@QUIET
@THREADS
@click.option("--game", "-g", "game", default=api.DEFAULT_GAME, show_default=True, metavar="NAME",
              help="the game to report on (`zsim games` lists the games)")
@click.option("--margin", type=float, default=1.0, show_default=True, metavar="PP",
              help="the verdicts' practical margin, in percentage points of win share: a gap inside it is no gap")
@click.option("--strong", default=None, metavar="SPEC",
              help="the strong player of skill against luck and the seats under strong play (a fair strategy) "
                   "[default: the game's own, ismcts at its default budget]")
@click.option("--strong-games", type=int, default=None,
              help="games per player count of the strong player (skill, the seats under strong play) "
                   "[default: --games / 100]")
@click.option("--json", "as_json", is_flag=True, help="print the verdicts and key findings as JSON")
def report(players_list, games, tournament_games, seed, field, rules, deck, out, quiet, threads, game, margin,
           strong, strong_games, as_json):
    """Every analysis, the built-in tournament and the run's metadata as an HTML
    and Markdown report with PNG plots, opening with a verdict per question
    (balanced, uneven or can't tell yet, against --margin)."""
    result = api.report(out=out, game=game, players=players_list, games=games,
                        tournament_games=tournament_games, seed=seed, field=field, rules=rules, deck=deck,
                        threads=threads, progress=not quiet, margin=margin, strong=strong,
                        strong_games=strong_games)
    if as_json:
        echo_json(result.to_dict(), ensure_ascii=False)
        return
    echo(result.text())
    if not quiet:
        echo(f"wrote {result.html} and {result.markdown}")


class _GameCommand(click.Command):
    """A command whose options are a game's analysis's (``zsim ladder``): it
    reads ``--game`` first, then hands the whole command line to that game's
    ``zsim analyze --game G NAME``, ``--help`` included."""

    def __init__(self, name: str, analysis: str, help: str):
        super().__init__(name, help=help, add_help_option=False,
                         context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
        self.analysis = analysis

    def parse_args(self, ctx, args):
        ctx.meta["zsim_args"] = list(args)
        return []

    def invoke(self, ctx):
        args = ctx.meta["zsim_args"]
        game, rest = api.DEFAULT_GAME, []
        i = 0
        while i < len(args):
            if args[i] in ("--game", "-g") and i + 1 < len(args):
                game = args[i + 1]
                i += 2
                continue
            if args[i].startswith("--game="):
                game = args[i].split("=", 1)[1]
            else:
                rest.append(args[i])
            i += 1
        inner = self._inner(game)
        return inner.main(rest, prog_name=f"{ctx.command_path} --game {game}", standalone_mode=False)

    def _inner(self, game: str) -> click.Command:
        """The game's own command, with ``--game`` listed as this command reads it."""
        if self.analysis not in api.analyses(game):
            raise api.ZsimError(f"{game} has no {self.analysis}: it needs a forward model to search "
                                f"(`zsim games` lists the games)")
        inner = command(game, api.analysis(self.analysis, game=game))
        inner.help = self.help + "\n\n" + (inner.help or "")
        inner.params.insert(0, click.Option(["--game", "-g"], default=api.DEFAULT_GAME, show_default=True,
                                            expose_value=False, metavar="NAME",
                                            help="the game (`zsim games` lists them); the options below are the "
                                                 "default game's"))
        return inner

    def get_help(self, ctx) -> str:
        inner = self._inner(api.DEFAULT_GAME)
        return inner.get_help(click.Context(inner, info_name=ctx.info_name, parent=ctx.parent))


ladder = _GameCommand("ladder", "ladder", "The strength ladder of a game: `zsim analyze --game G ladder`.")
