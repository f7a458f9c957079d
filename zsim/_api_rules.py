"""The API's rule design: ``zsim.sweep`` (any rules of any game, one or two
keys at a time) and ``zsim.compare`` (two rule sets on the same deals).
Inputs are checked here, in the command line's words, before a game is
played; :mod:`analyses.sweep` and :mod:`analyses.compare` play and measure."""
from __future__ import annotations

import os
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

from zsim.errors import ZsimError


def axis_texts(rules) -> list[str]:
    """The swept rules as ``KEY=VALUES`` texts: a dict ``{key: values}``
    (a list, or the command line's text ``"3..9"``), or ``["key=3..9", ...]``."""
    from zsim._api_inputs import shown, texts

    if isinstance(rules, dict):
        out = []
        for key, values in rules.items():
            if isinstance(values, str):
                out.append(f"{key}={values}")
            elif isinstance(values, (list, tuple, range)) and len(values):
                sep = ";" if all(isinstance(v, (list, tuple)) for v in values) else ","
                out.append(f"{key}=" + sep.join(_value_text(v) for v in values))
            else:
                raise ZsimError(f"the values of rule {key} must be a list or a text like '3..9', got {shown(values)}")
        return out
    return list(texts(rules, "rules to sweep must be a dict of key: values or a list of 'key=values'"))


def _value_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(map(str, v))
    return str(v)


def player_counts(game, players) -> list[int]:
    from zsim._api_inputs import int_list

    if players is None:
        return list(range(game.min_players, game.max_players + 1))
    return int_list(players, "--players", game.min_players, game.max_players)


@dataclass
class _Common:
    """What every rule-design run takes, checked: the table, the seed, the
    strong player, the margin and where the results go."""
    game: object
    players: list[int]
    seed: int
    field: str | None
    strong: str | None
    strong_games: int | None
    margin: float
    threads: int | None


def _common(game, players, seed, field, strong, strong_games, margin, threads, progress, paths: dict) -> _Common:
    from zsim import _api_analyses
    from zsim._api_inputs import MAX_GAMES, check_threads, game_of, one_spec, path_arg, spec_list, whole
    from zsim._api_outputs import check_progress
    from zsim.analysis_spec import seed_value

    g = game_of(game)
    counts = player_counts(g, players)
    seed = seed_value(seed, "--seed")               # a seed the games can take: 0..2**64-1
    strong_games = whole(strong_games, "--strong-games", 0, MAX_GAMES, none_ok=True, high_text="2**62")
    margin = _api_analyses.margin_value(margin)
    threads = check_threads(threads)
    check_progress(progress)
    for option, value in paths.items():
        path_arg(value, option)
    field_text = spec_list(field, "--field entry")
    strong_text = None if strong is None else one_spec(strong, "--strong entry")
    if strong_text is not None and strong_text.strip().lower() != "none":
        _check_fair(strong_text, g.name)
    return _Common(g, counts, seed, field_text, strong_text, strong_games, margin, threads)


def _checked_rules(g, options, flag: str) -> None:
    """A side's or the fixed rules, each refused in one line naming its option."""
    from zsim._api_inputs import game_rules

    try:
        game_rules(g, options, None)
    except ZsimError as exc:
        raise ZsimError(f"{flag}: {exc}") from None


def sweep(rules, *, game, players, games, seed, field, fixed, strong, strong_games, margin, max_points, deck,
          out, plots, report, threads, progress):
    from analyses import sweep as sweeping
    from zsim._api_findings import Analysis
    from zsim._api_inputs import MAX_GAMES, game_deck, rule_options, whole
    from zsim._api_outputs import check_out, check_plots, play, write_analysis

    c = _common(game, players, seed, field, strong, strong_games, margin, threads, progress,
                {"--out": out, "--plots": plots, "--report": report})
    games = whole(games, "--games", 1, MAX_GAMES, high_text="2**62")
    max_points = whole(max_points, "--max-points", 1)
    fixed_options = rule_options(fixed)
    _checked_rules(c.game, fixed_options, "--fix")
    deck_obj = game_deck(c.game, deck)
    the_plan = sweeping.plan(c.game.name, axis_texts(rules), players=c.players, games=games, seed=c.seed,
                             field_spec=c.field, fixed=fixed_options, strong=c.strong,
                             strong_games=c.strong_games, margin_pp=c.margin, max_points=max_points, deck=deck_obj)
    out_path, plots_path = check_out(out), check_plots(plots)
    target = _report_target(report)
    started = time.time()
    measured = play("sweep", the_plan.total_games, progress, c.threads, lambda adv: sweeping.play(the_plan, adv))
    result = sweeping.result(the_plan, measured)
    result.meta["seconds"] = round(time.time() - started, 1)
    done = Analysis(result.name, result.title, result.summary, list(result.findings), dict(result.tables),
                    dict(result.figures), dict(result.meta))
    if target is not None:
        _write_page(result, the_plan, target, sweep_command(the_plan, report))
    write_analysis(result, out_path, plots_path)
    return done


def _check_fair(spec: str, game: str) -> None:
    from zsim.strategy_registry import parse_one, spec_values

    info, _ = spec_values(parse_one(spec, game), game)
    if not info.fair:
        raise ZsimError(f"--strong {spec} reads hidden cards: the strong player must be a fair one")


def _report_target(report) -> Path | None:
    if report is None:
        return None
    from analyses.report import check_target
    from zsim._api_inputs import check_given
    from zsim.output import link_end

    target = link_end(Path(os.fspath(check_given(report, "--report"))))
    check_target(target)
    return target


def sweep_command(p, report) -> str:
    """The command line that plays the sweep ``p`` again."""
    parts = ["zsim", "sweep", "--game", p.game]
    for a in p.axes:
        sep = ";" if a.values and isinstance(a.values[0], tuple) else ","
        parts += ["--rule", f"{a.key}={sep.join(a.labels)}"]
    for item in p.fixed:
        parts += ["--fix", item]
    parts += ["--players", ",".join(map(str, p.players)), "--games", str(p.games), "--seed", str(p.seed)]
    if p.field != _default_field(p.game):
        parts += ["--field", p.field]
    if p.strong:
        parts += ["--strong", p.strong, "--strong-games", str(p.strong_games)]
    if report is not None:
        parts += ["--report", os.fspath(report)]
    return shlex.join(parts)


def _default_field(game: str) -> str:
    from zsim.game_registry import get_game

    return get_game(game).strategies.default


def _write_page(result, p, target: Path, command: str) -> None:
    """The sweep as a page (``--report DIR``): the verdicts at the printed rules first."""
    from analyses import sweep as sweeping
    from analyses.report import write_report
    from zsim.game_registry import get_game

    meta = {"game": get_game(p.game).title, "games per point": p.games, "seed": p.seed, "field": p.field,
            "strong player": p.strong or "none", "strong player's games per point": p.strong_games,
            "seconds": result.meta.get("seconds")}
    write_report([result], meta, command, target, findings=result.findings,
                 title=f"{get_game(p.game).title}: {result.title.lower()}",
                 verdicts=sweeping.printed_verdicts(p, result.main, result.tables["Win share per seat"]))


def compare(rules, against, *, game, players, games, seed, field, strong, strong_games, margin, relative_margin,
            deck, against_deck, out, plots, threads, progress):
    from analyses import compare as comparing
    from zsim._api_findings import Analysis
    from zsim._api_inputs import MAX_GAMES, game_deck, real, rule_options, whole
    from zsim._api_outputs import check_out, check_plots, play, write_analysis

    c = _common(game, players, seed, field, strong, strong_games, margin, threads, progress,
                {"--out": out, "--plots": plots})
    games = whole(games, "--games", 2, MAX_GAMES, high_text="2**62")
    relative = real(relative_margin, "--relative-margin")
    if not 0 < relative <= 100:
        raise ZsimError(f"--relative-margin must be above 0 and at most 100 percent, got {relative_margin:g}")
    a, b = rule_options(rules), rule_options(against)
    _checked_rules(c.game, a, "--rule")
    _checked_rules(c.game, b, "--against")
    deck_a, deck_b = game_deck(c.game, deck), game_deck(c.game, against_deck)
    names = (None if deck is None else _deck_name(deck), None if against_deck is None else _deck_name(against_deck))
    the_plan = comparing.plan(c.game.name, a, b, players=c.players, games=games, seed=c.seed, field_spec=c.field,
                              strong=c.strong, strong_games=c.strong_games, margin_pp=c.margin,
                              relative_margin=relative, deck_a=deck_a, deck_b=deck_b, deck_names=names)
    out_path, plots_path = check_out(out), check_plots(plots)
    played = play("compare", the_plan.total_games, progress, c.threads, lambda adv: comparing.play(the_plan, adv))
    result = comparing.result(the_plan, played)
    write_analysis(result, out_path, plots_path)
    return Analysis(result.name, result.title, result.summary, list(result.findings), dict(result.tables),
                    dict(result.figures), dict(result.meta))


def _deck_name(deck) -> str:
    return Path(os.fspath(deck)).name if isinstance(deck, (str, os.PathLike)) else "DataFrame"


def balance(free, targets, *, game, players, budget, batch, seed, field, fixed, strong, optimizer, deck, run,
            out, backend, scheduler, workers, threads, progress):
    from analyses import balance as balancing
    from analyses.balance_blocks import Measurer, open_run
    from zsim._api_findings import Analysis
    from zsim._api_inputs import MAX_GAMES, game_deck, rule_options, whole, word
    from zsim._api_outputs import check_out, play, write_analysis
    from zsim.harness.backends import check_backend, make_backend

    c = _common(game, players, seed, field, strong, None, 1.0, threads, progress, {"--out": out, "--run": run})
    budget = whole(budget, "--budget", 1, MAX_GAMES, high_text="2**62")
    batch = whole(batch, "--batch", 2, MAX_GAMES, none_ok=True, high_text="2**62")
    optimizer = word(optimizer, "--optimizer")
    fixed_options = rule_options(fixed)
    _checked_rules(c.game, fixed_options, "--rule")
    the_plan = balancing.plan(c.game.name, axis_texts(free), _target_texts(targets), players=c.players,
                              budget=budget, batch=batch, seed=c.seed, field_spec=c.field, fixed=fixed_options,
                              strong=c.strong, optimizer=optimizer, deck=game_deck(c.game, deck))
    workers = whole(workers, "--workers", 1, none_ok=True)
    check_backend(word(backend, "--backend"), word(scheduler, "--scheduler", none_ok=True), workers)
    out_path = check_out(out)
    folder = open_run(the_plan, run) if run is not None else None
    total = the_plan.budget + 2 * len(the_plan.free) * balancing.MAX_BLOCKS * the_plan.block_games()

    def call(advance):
        engine = make_backend(backend, scheduler, workers)
        try:
            return balancing.search(the_plan, Measurer(the_plan, folder, advance, engine))
        finally:
            engine.close()
    searched = play("balance", total, progress, c.threads, call,
                    unwritten="the run folder keeps every block played; run it again to resume" if folder
                    else "nothing was written")
    result = balancing.result(the_plan, searched)
    write_analysis(result, out_path, None)
    return Analysis(result.name, result.title, result.summary, list(result.findings), dict(result.tables),
                    dict(result.figures), dict(result.meta))


def _target_texts(targets) -> list[str]:
    from zsim._api_inputs import texts

    return list(texts(targets, "targets must be a list like ['seat_gap<=0.01', 'turns=25..40']"))
