"""The playing half of :func:`zsim.simulate` and :func:`zsim.tournament`: once the API has
checked every argument, these make the outputs, play the games with a progress bar, turn a
stop into :class:`~zsim._api_results.Interrupted` and build the result.

Private: only the names in ``zsim.api.__all__`` are stable.
"""
from __future__ import annotations

import os

from zsim._api_outputs import watching
from zsim._api_results import BenchResult, Interrupted, SimulateResult, TournamentResult, TuneResult
from zsim.errors import ZsimError


def simulation(m, plan, out, resume, backend, scheduler, workers, threads, progress) -> SimulateResult:
    """Play ``plan`` of the matchup ``m`` into ``out`` (a .parquet file or a run folder) or nowhere."""
    from zsim.harness.backends import make_backend
    from zsim.output import parquet_output
    from zsim.harness.chunks import check_chunk_memory, check_out_path, set_threads
    from zsim.harness.runs import RunFolder, run

    games, chunk, players, precision, seed = plan.games, plan.chunk, m.players, plan.precision, plan.seed
    set_threads(threads)
    in_flight = 1 if backend == "local" else 2 * (workers or os.cpu_count() or 1) + 1
    check_chunk_memory(min(chunk, games), players, rows=out is not None, in_flight=in_flight, game=m.game)
    target = folder = None
    if out and out.lower().endswith(".parquet"):
        if resume:
            raise ZsimError("--resume needs a run folder as --out (a path not ending in .parquet)")
        target = check_out_path(out)
    elif out:
        folder = RunFolder.open(out, plan, resume)
    elif resume:
        raise ZsimError("--resume needs --out DIR, the run folder to finish")
    engine = make_backend(backend, scheduler, workers)
    result = None
    try:
        with watching(games, "simulate", progress) as bar:
            if target is None:
                result = run(plan, engine, folder, on_games=bar.advance)
            else:
                try:
                    with parquet_output(target) as sink:
                        result = run(plan, engine, on_games=bar.advance, on_rows=sink.write)
                        if result.interrupted:
                            raise KeyboardInterrupt   # leave by an exception: the .part file goes
                except KeyboardInterrupt:
                    if result is None:
                        raise
    finally:
        engine.close()
    summary = result.summary
    if summary.games == 0:
        raise Interrupted(f"before any of the {games:,} games finished", 0, games)
    done = SimulateResult(m.game, m.spec.title, players, seed, m.strategies, summary.games, games, summary.table(),
                          m.spec.describe_setup(m), precision, result.stopped_at_precision, result.resumed_games,
                          out if target is None or not result.interrupted else None, result.interrupted)
    if result.interrupted:
        kept = (f"; {target} was not written" if target is not None else
                f"; {out} keeps them: the same command with --resume finishes the run" if folder else "")
        raise Interrupted(f"after {summary.games:,} of {games:,} games; the summary covers the finished "
                          f"games{kept}", summary.games, games, partial=done)
    return done


def tournament_play(spec, entries, players, games, seed, rule_set, deck_obj, seatings, compare_independent, out,
                    threads, progress) -> TournamentResult:
    """Play the tournament of ``entries`` (every argument checked) and write ``out`` if given."""
    from zsim.harness.tournament import run_tournament, variance_reduction
    from zsim.harness.seatings import seatings as seatings_of
    from zsim.output import parquet_output
    from zsim.harness.chunks import check_out_path, set_threads

    set_threads(threads)
    target = check_out_path(out) if out else None
    args = (entries, players, games, seed, rule_set, deck_obj)
    # games in all: every deal under every seating, twice with compare_independent
    total = games * len(seatings_of(len(entries), players, seatings)[0]) * (2 if compare_independent else 1)

    def play(bar, on_rows=None):
        result = run_tournament(*args, design=seatings, on_rows=on_rows, on_games=bar.advance, game=spec.name)
        comparison = None
        if compare_independent:
            comparison = variance_reduction(result, run_tournament(
                *args, design=seatings, independent=True, on_games=bar.advance, check_identical=False,
                game=spec.name))
        return result, comparison

    stop = None
    with watching(total, "tournament", progress) as bar:
        try:
            if target is not None:
                # the comparison runs inside too: the out file appears only when all is done
                with parquet_output(target) as sink:
                    t, comparison = play(bar, sink.write)
            else:
                t, comparison = play(bar)
        except KeyboardInterrupt as exc:   # the out file's temporary file is already gone
            stop, done = exc, bar.done
    if stop is not None:
        unwritten = f"; {target} was not written" if target is not None else ""
        raise Interrupted(f"after {done:,} of {total:,} games; no results{unwritten}", done, total) from stop
    warnings = tuple(f"warning: {a} and {b} played identical games in every one of the {t.identical_deals:,} "
                     f"deals checked: they are one strategy here; their rows differ only by the seatings each "
                     f"drew (keep one of them)" for a, b in t.identical)
    return TournamentResult(spec.name, players, seed, t.entries, t.deals, t.games, t.strategies(), t.seats(),
                            t.head_to_head(), comparison, t.identical, warnings,
                            os.fspath(out) if out else None,
                            f"deck {deck_obj.name}" if deck_obj is not None else spec.title, t)


def bench(game, games, repeat, reference_games, startup, memory_games, scaling, workers, strategy, players, positions):
    """The work of :func:`zsim.bench`, its arguments as the API took them."""
    from zsim._api_inputs import MAX_GAMES, flag, game_of, whole

    games = whole(games, "--games", 1, MAX_GAMES, high_text="2**62")
    repeat = whole(repeat, "--repeat", 1)
    reference_games = whole(reference_games, "--reference-games", high=MAX_GAMES, high_text="2**62")
    if reference_games < 0:
        raise ZsimError(f"--reference-games must be 0 (skip the reference engine) or more, "
                        f"got {reference_games}")
    memory_games = whole(memory_games, "--memory", high=MAX_GAMES, high_text="2**62")
    if memory_games < 0:
        raise ZsimError(f"--memory must be 0 (no memory measurement) or more games, got {memory_games}")
    startup, scaling = flag(startup, "--startup"), flag(scaling, "--scaling")
    workers = whole(workers, "--workers", 1, none_ok=True)
    spec = game_of(game)
    name = spec.name
    from zsim._api_inputs import check_players, word

    players = check_players(spec, players)
    positions = whole(positions, "--positions", 1, 100_000)
    if strategy is not None:
        from zsim.harness.bench_search import search_bench, search_lines

        rows = search_bench(name, word(strategy, "--strategy"), players, positions, min(games, 100_000), repeat)
        return BenchResult(rows, search_lines(rows).splitlines())
    if scaling:
        from zsim.harness.bench_scaling import format_rows, scaling_rows

        rows = scaling_rows(games, repeat, workers, name)
        return BenchResult(rows, format_rows(rows, games, repeat, name))
    from zsim.harness.bench import bench_lines, bench_rows

    rows = bench_rows(games=games, repeat=repeat, reference_games=reference_games, startup=startup,
                      memory_games=memory_games, game=name)
    return BenchResult(rows, bench_lines(rows, games, repeat, reference_games, name))


def tune(strategy, vs, game, players, budget, batch, eval_games, seed, optimizer, rules, deck, threads, progress):
    """The work of :func:`zsim.tune`, its arguments as the API took them."""
    import polars as pl

    from zsim._api_inputs import (check_players, check_threads, game_deck, game_of, game_rules, rule_options, shown,
                                  spec_list, whole, word)
    from zsim._api_outputs import check_progress, play
    from zsim.harness.tune import check_tune_args, optimizer_class, parse_field, planned_games, tunable_params
    from zsim.harness.tune import tune as run_tune

    spec = game_of(game)
    players = check_players(spec, players)
    if not isinstance(strategy, str):
        raise ZsimError(f"the strategy to tune is a bare name like 'fixed', got {shown(strategy)}")
    budget, batch = whole(budget, "--budget"), whole(batch, "--batch", none_ok=True)
    eval_games, seed = whole(eval_games, "--eval-games"), whole(seed, "--seed")
    optimizer, threads = word(optimizer, "--optimizer"), check_threads(threads)
    check_progress(progress)
    tunable_params(strategy, spec.name)
    check_tune_args(players, budget, batch, eval_games, seed)
    field = parse_field(spec_list(vs, "--vs entry") if vs is not None else spec.strategies.default, players,
                        spec.name)
    rules_cfg = game_rules(spec, rules, players)
    deck_cfg = game_deck(spec, deck)
    optimizer_class(optimizer)           # imports nevergrad: after the cheaper checks
    total = planned_games(players, budget, batch, eval_games)
    r = play(f"tune {strategy.strip()}", total, progress, threads,
             lambda advance: run_tune(strategy, field, budget=budget, seed=seed, batch=batch,
                                      eval_games=eval_games, rules=rules_cfg, deck=deck_cfg,
                                      optimizer=optimizer, on_games=advance, game=spec.name),
             unwritten="no result")
    table = pl.DataFrame({"row": ["best", "default", "best - default"],
                          "strategy": [r.best_spec, r.default_spec, ""],
                          "win_share": [r.best.win_share, r.default.win_share, r.difference.win_share],
                          "ci95": [r.best.ci95, r.default.ci95, r.difference.ci95],
                          "games": [r.best.games, r.default.games, r.difference.games],
                          "deals": [r.best.deals, r.default.deals, r.difference.deals]})
    return TuneResult(r.strategy, dict(r.best_params), r.best_spec, r.default_spec, table, rule_options(rules),
                      deck_cfg.name if deck is not None else "", spec.name, r)
