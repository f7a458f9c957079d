"""Every game's balance analyses and report, as :func:`zsim.analyze` and :func:`zsim.report` find them.

A game names the module of its analyses' specs (:attr:`zsim.games.base.Game.analyses`;
:mod:`zsim.analysis_spec` says what it holds). Nothing here knows a game: ``zsim analyze
--game G NAME`` and ``zsim.analyze(NAME, game=G)`` both look the spec up here, check its
options and get back the games it will play and the call that plays them.

Private: only the names in ``zsim.api.__all__`` are stable.
"""
from __future__ import annotations

import importlib
import os
from typing import Callable

from zsim._api_inputs import game_of, int_list, spec_list
from zsim.analysis_spec import AnalysisSpec, ReportSpec
from zsim.errors import ZsimError

Prepared = tuple[int, Callable]      # (games in all, call(advance) -> AnalysisResult)


def _module(game):
    if not game.analyses:
        return None
    try:
        return importlib.import_module(game.analyses)
    except ImportError as exc:           # a plugin naming a module it does not ship
        raise ZsimError(f"{game.name}'s analyses module {game.analyses} cannot be imported: {exc}") from None


#: analyses every game with a forward model has ("module:function" of the game object -> its spec, or
#: None where the game's model lacks what the analysis needs)
SHARED = ("analyses.ladder:spec", "analyses.drama:spec")


def specs(game) -> tuple[AnalysisSpec, ...]:
    """The analyses of the game object ``game``: its own, in the order its specs
    list them, then those every searchable game has."""
    from zsim.analysis_spec import load

    module = _module(game)
    own = tuple(getattr(module, "ANALYSES", ())) if module is not None else ()
    shared = tuple(s for s in (load(where)(game) for where in SHARED) if s is not None) if game.forward else ()
    return own + tuple(s for s in shared if s.name not in {o.name for o in own})


def report_spec(game) -> ReportSpec | None:
    module = _module(game)
    return getattr(module, "REPORT", None) if module is not None else None


def names(game: str) -> list[str]:
    """The analyses of ``game``, in the order ``zsim analyze --help`` lists them (by name)."""
    return sorted(s.name for s in specs(game_of(game)))


def find(name: str, game: str) -> AnalysisSpec:
    """The analysis ``name`` of ``game``, or one line naming what there is."""
    g = game_of(game)
    own = {s.name: s for s in specs(g)}
    if not own:
        raise ZsimError(f"{g.title} has no analyses in zsim yet; `zsim simulate --game {g.name}` "
                        f"and `zsim tournament --game {g.name}` play it")
    if name not in own:
        from zsim.game_registry import registry

        others = [o.name for o in registry().values() if o.name != g.name and name in (s.name for s in specs(o))]
        where = f" ({name!r} is an analysis of {', '.join(others)})" if others else ""
        raise ZsimError(f"{g.name} has no analysis {name!r}{where}; its analyses: {', '.join(sorted(own))}")
    return own[name]


def prepare(name: str, game: str, options: dict) -> Prepared:
    """The analysis's games in all and the call that plays them, every option checked first."""
    spec = find(name, game)
    return spec.player()(**spec.checked(options), **dict(spec.bound))


# ---------------------------------------------------------------- reports
def report_plan(*, game, players="2,3,4", games=20_000, tournament_games=None, seed=0, field=None,
                rules=None, deck=None):
    """(module, plan, title) of ``zsim report`` for ``game``, every option checked."""
    from zsim.analysis_spec import games_count, load, seed_value

    g = game_of(game)
    spec = report_spec(g)
    if spec is None:
        raise ZsimError(f"{g.title} has no report in zsim yet")
    plist = int_list(players, "--players", g.min_players, g.max_players)
    field = spec_list(field, "--field entry")
    module, plan = load(spec.plan)(players=plist, games=games, tournament_games=_deals(tournament_games, games),
                                   seed=seed, field=field, rules=rules, deck=deck)
    games_count(games, "--games")
    seed_value(seed, "--seed")
    return module, plan, spec.title


def margin_value(margin) -> float:
    """``--margin``, checked: percentage points of win share, above 0 and at most 50."""
    from zsim._api_inputs import real

    value = real(margin, "--margin")
    if not 0 < value <= 50:
        raise ZsimError(f"--margin must be above 0 and at most 50 percentage points, got {margin:g}")
    return value


def margin_args(margin: float) -> str:
    """What a report's command line adds for ``margin``: nothing for the default."""
    from analyses.verdicts import MARGIN_PP

    return "" if margin == MARGIN_PP else f" --margin {margin:g}"


class StrongPart:
    """The report's section on the strong player (:mod:`analyses.skill`):
    played before the game's own analyses, its verdicts after the seats'."""

    def __init__(self, game: str, plan, strong_games: int | None, margin: float, strong: str | None = None):
        from analyses import skill
        from zsim._api_inputs import one_spec
        from zsim.strategy_registry import parse_one, spec_values

        self.game, self.plan, self.margin = game_of(game).name, plan, margin
        self.default = strong_games is None
        self.games = max(max(plan.players), plan.games // 100) if strong_games is None else strong_games
        self.chosen = None if strong is None else parse_one(one_spec(strong, "--strong entry"), self.game)
        if self.chosen is not None:
            info, _ = spec_values(self.chosen, self.game)
            if not info.fair:
                raise ZsimError(f"--strong {strong} reads hidden cards: the strong player must be a fair one")
        self.strong = self.chosen or skill.strong_spec(self.game)
        if self.strong:
            skill.split_games(self.games, max(plan.players))       # refuses too few games, in one line

    def total_games(self) -> int:
        from analyses import skill

        from analyses import skill_curve

        return (skill.total_games(self.game, self.plan.players, self.games, self.strong)
                + skill_curve.total_games(self.game, self.plan.players, self.games, self.strong))

    def run(self, advance) -> list:
        """The skill section and, when the strong player is a search, its skill curve."""
        from analyses import skill, skill_curve

        deck = getattr(self.plan, "deck", None)
        r = skill.run(self.game, self.plan.players, self.plan.field, self.games, self.plan.seed, self.plan.rules,
                      deck, advance, self.margin, self.strong)
        curve = skill_curve.run(self.game, self.plan.players, self.games, self.plan.seed, self.plan.rules, deck,
                                self.strong, advance)
        return [x for x in (r, curve) if x is not None]

    def verdicts(self, results, seats: list) -> list:
        """Skill and the seats under strong play, each compared with the field's ``seats`` verdicts."""
        from analyses import skill

        if not self.strong:
            return [skill.not_measured(self.game, self.margin)]
        part = next((r for r in results if r.name == "skill"), None)
        return skill.verdicts_of(part, seats, self.game, self.plan.field, self.margin)

    def metadata(self) -> dict:
        return ({"strong player": self.strong, "strong player's games per player count": self.games}
                if self.strong else {"strong player": "none yet"})

    def args(self) -> str:
        import shlex

        text = "" if self.chosen is None else f" --strong {shlex.quote(self.chosen)}"
        return text + ("" if self.default or not self.strong else f" --strong-games {self.games}")


def _deals(tournament_games, games: int) -> int:
    """``tournament_games``, by default a twentieth of ``games``."""
    deals = tournament_games if tournament_games is not None else max(1, games // 20)
    if deals < 1:
        raise ZsimError(f"--tournament-games must be at least 1, got {deals}")
    return deals


def report(out, game, players, games, tournament_games, seed, field, rules, deck, threads, progress, margin, strong, strong_games):
    """The work of :func:`zsim.report`, its arguments as the API took them."""
    from zsim._api_findings import ReportResult
    import time
    from pathlib import Path

    from zsim import _api_analyses
    from zsim._api_inputs import MAX_GAMES, check_given, check_threads, path_arg, whole
    from zsim._api_outputs import check_progress, play

    path_arg(out, "--out")
    games, seed = whole(games, "--games"), whole(seed, "--seed")
    tournament_games = whole(tournament_games, "--tournament-games", 1, MAX_GAMES, none_ok=True, high_text="2**62")
    threads = check_threads(threads)
    check_progress(progress)
    margin = _api_analyses.margin_value(margin)
    strong_games = whole(strong_games, "--strong-games", 1, MAX_GAMES, none_ok=True, high_text="2**62")
    module, plan, title = _api_analyses.report_plan(game=game, players=players, games=games,
                                                    tournament_games=tournament_games, seed=seed, field=field,
                                                    rules=rules, deck=deck)
    from analyses.report import check_target, write_report

    if out is None:
        raise ZsimError("--out is required: the folder for index.html, report.md and figures/")
    from zsim.output import link_end

    text = os.fspath(check_given(out, "--out"))
    target = link_end(Path(text))       # a link to a folder: the report goes where it leads, the link stays
    check_target(target)
    strong = _api_analyses.StrongPart(game, plan, strong_games, margin, strong)
    started = time.time()
    results = play("report", plan.total_games() + strong.total_games(), progress, threads,
                   lambda adv: strong.run(adv) + module.run(plan, adv))
    meta = {**module.metadata(plan, time.time() - started), **strong.metadata()}
    findings = module.key_findings(results)
    from analyses.report_parts import extend_glossary
    extend_glossary(results)            # the strong player's columns, defined with the game's
    from analyses.report_parts import seat_verdicts

    seats = seat_verdicts(results, margin)
    verdicts = seats + strong.verdicts(results, seats)
    command = module.command(plan, text) + _api_analyses.margin_args(margin) + strong.args()
    html, md = write_report(results, meta, command, target, findings=findings, title=title, verdicts=verdicts)
    return ReportResult(target, Path(html), Path(md), list(findings), list(verdicts))
