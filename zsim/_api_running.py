"""The playing half of :func:`zsim.simulate` and :func:`zsim.tournament`: once the API has
checked every argument, these make the outputs, play the games with a progress bar, turn a
stop into :class:`~zsim._api_results.Interrupted` and build the result.

Private: only the names in ``zsim.api.__all__`` are stable.
"""
from __future__ import annotations

import os

from zsim._api_outputs import watching
from zsim._api_results import Interrupted, SimulateResult, TournamentResult
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
