"""``zsim tune``: search a strategy's parameters for the best win share.

Registered in :mod:`zsim.cli` by one ``cli.add_command`` line; the options it
shares with other commands come from :mod:`zsim.cli_options`.
"""
from __future__ import annotations

import json
import warnings

import click

from zsim.cli_options import (DECK, GAME, PLAYERS, QUIET, RULE, THREADS, check_players, game_deck, game_of,
                              game_rules)


@click.command()
@GAME
@click.argument("strategy")
@click.option("--vs", "vs", default=None,
              help="the opponents: one strategy for every other seat, or players-1 of them, "
                   "comma-separated (in seat order after the tuned one) [default: the game's "
                   "default strategy, simple for zahltag]")
@PLAYERS
@click.option("--budget", type=int, default=200_000, show_default=True, metavar="GAMES",
              help="games the search and its final race may play (the fresh evaluation is extra)")
@click.option("--batch", type=int, default=None, metavar="GAMES",
              help="games per candidate, rounded down to whole deals (a multiple of --players) "
                   "[default: budget/100, at most 2000]")
@click.option("--eval-games", type=int, default=20_000, show_default=True, metavar="GAMES",
              help="fresh games for each of the best and the default parameters, after the search "
                   "(rounded down to whole deals)")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="run seed (the whole tune follows from it)")
@click.option("--optimizer", default="DE", show_default=True,
              help="nevergrad optimiser (e.g. DE, TwoPointsDE, NoisyDE, TBPSA, OnePlusOne)")
@RULE
@DECK
@THREADS
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@QUIET
def tune(game, strategy, vs, players, budget, batch, eval_games, seed, optimizer, rules, deck, threads, as_json,
         quiet):
    """Tune STRATEGY's parameters for win share against a field.

    Every parameter of STRATEGY is searched within its bounds; each candidate
    plays duplicate deals (the same deal from every seat). The best
    parameters and the defaults are then measured on fresh deals the search
    never played.

    Ctrl-C stops it with no result (exit status 130)."""
    from zsim.progress import exit_interrupted, progress
    from zsim.runner import set_threads
    from zsim.tune import check_tune_args, parse_field, planned_games, tunable_params, tune as run_tune

    if quiet:
        warnings.simplefilter("ignore")
    spec = game_of(game)
    check_players(spec, players)
    tunable_params(strategy, spec.name)
    check_tune_args(players, budget, batch, eval_games, seed)
    field = parse_field(vs if vs is not None else spec.strategies.default, players, spec.name)
    rules_cfg = game_rules(spec, rules, players)
    deck_cfg = game_deck(spec, deck)
    set_threads(threads)
    total = planned_games(players, budget, batch, eval_games)
    stopped = False
    with progress(total, f"tune {strategy.strip()}", quiet) as bar:
        try:
            result = run_tune(strategy, field, budget=budget, seed=seed, batch=batch,
                              eval_games=eval_games, rules=rules_cfg, deck=deck_cfg,
                              optimizer=optimizer, on_games=bar.advance, game=spec.name)
        except KeyboardInterrupt:
            stopped = True
    if stopped:
        exit_interrupted(f"after {bar.done:,} of {total:,} games; no result")
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=1))
    else:
        click.echo(report(result, rules, deck_cfg.name if deck else "", spec.name))


def report(r, rules=(), deck_name="", game="zahltag") -> str:
    """The text report of a :class:`zsim.tune.TuneResult`."""
    from zsim.tune import tunable_params

    params = tunable_params(r.strategy, game)
    lines = [f"tune {r.strategy} vs {','.join(r.field)} · {r.players} players · seed {r.seed}"
             + (f" · rules {' '.join(rules)}" if rules else "")
             + (f" · deck {deck_name}" if deck_name else "")]
    search = (f"search: {r.optimizer} tried {r.candidates:,} candidates ({r.distinct_candidates:,} distinct), "
              f"{r.batch_games:,} games each")
    if r.finalists:
        search += f"; race of {r.finalists} finalists, {r.race_games:,} games each"
        if r.recommended != r.best_params:
            pick = ":".join(f"{k}={v:g}" for k, v in r.recommended.items())
            search += f" (the race overruled the optimiser's pick, {pick})"
    lines.append(search)
    lines.append(f"tuning games: {r.tuning_games:,} of the {r.budget:,} budget "
                 f"(game indices {r.tuning_first:,}..{r.tuning_first + r.tuning_deals - 1:,}, "
                 f"each from every seat)")
    lines.append(f"fresh evaluation: {r.best.games:,} games each for the best and the default "
                 f"({r.best.deals:,} deals x {r.players} seats, game indices 2**61 on); "
                 f"{r.tuning_games + 2 * r.best.games:,} games in all")
    lines.append("")
    width = max([5] + [len(p.name) for p in params])
    lines.append(f"  {'param':<{width}}  {'best':>10}  {'default':>10}  range")
    for p in params:
        lines.append(f"  {p.name:<{width}}  {r.best_params[p.name]:>10g}  {p.default:>10g}  "
                     f"{p.low:g}..{p.high:g}")
    lines.append("")
    rows = [("best", r.best_spec, r.best), ("default", r.default_spec, r.default)]
    spec_w = max([14] + [len(s) for _, s, _ in rows])
    lines.append(f"  {'':<10}{'strategy':<{spec_w}}  win share  95% CI")
    for label, spec, e in rows:
        lines.append(f"  {label:<10}{spec:<{spec_w}}  {e.win_share:>9.4f}  ±{e.ci95:.4f}")
    d = r.difference
    lines.append(f"  {'':<10}{'best - default':<{spec_w}}  {d.win_share:>+9.4f}  ±{d.ci95:.4f}  (paired: same deals)")
    return "\n".join(lines)


