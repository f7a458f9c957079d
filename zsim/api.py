"""zsim as a Python library: the ``zsim`` command's verbs for notebooks and scripts.

Every function here does what the command of the same name does, with the
same checks, defaults and results: ``zsim.simulate(players=2, games=10_000)``
plays exactly the games ``zsim simulate -p 2 -n 10000`` plays, and its
``text()`` is what that command prints. The command line is a thin layer
over these functions.

Arguments are Python values: rules as a dict (``{"payday_cost": 2}``) or
the command line's ``["payday_cost=2"]``; strategies as a list of specs
(``["simple", "fixed:k=5"]``), ``(name, params)`` pairs (``("fixed", {"k":
5})``) or one comma string; a deck as a path to a CSV file or a polars
DataFrame with the file's columns; player counts and ranges as ints or
lists (``[2, 4]``) or the command line's ``"2,4"`` and ``"0..12"``.

Results are dataclasses holding polars DataFrames (summaries with their 95%
intervals), matplotlib figures, and per-game rows as a polars LazyFrame over
the Parquet written with ``out=`` (never all in memory).

Bad input raises :class:`ZsimError` with the one line ``zsim`` prints for
it. A run reports progress (a bar on a terminal, a line in a notebook;
``progress=False`` for none, or a callable ``progress(done, total)``); a
Ctrl-C or a notebook's interrupt stops it at the end of the chunk being
played, with nothing half-written, raising :class:`Interrupted`.

Only the names in ``__all__`` (also importable from ``zsim``) are stable;
every other module and name of zsim may change without notice.

Example:
    >>> import zsim
    >>> r = zsim.simulate(players=2, games=2000, strategies=["simple", "random"], progress=False)
    >>> r.summary.select("strategy", "win_share", "win_ci95")      # doctest: +SKIP
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Iterable, Union

from zsim._api_findings import Analysis, Records, Replay, ReportResult
from zsim._api_findings import ReplayedGame as ReplayedGame     # public: what iterating a Replay yields
from zsim._api_results import (BenchResult, GameInfo, Interrupted, ParamInfo, RuleInfo, SimulateResult,
                               StrategyInfo, TournamentResult, TuneResult)
from zsim._public import PUBLIC_NAMES
from zsim.analysis_spec import AnalysisSpec
from zsim.analysis_spec import Option as Option      # public: an analysis's option (AnalysisSpec.options)
from zsim.errors import OutputError as OutputError      # public: raised where an output cannot be written
from zsim.errors import ZsimError
from zsim.game_registry import DEFAULT_GAME

if TYPE_CHECKING:
    import polars as pl

__all__ = list(PUBLIC_NAMES)

#: rules: a dict {key: value}, or the command line's ["key=value", ...]
Rules = Union[dict, Iterable[str], None]
#: strategies: one comma string, or a list of specs ("fixed:k=5") and (name, {param: value}) pairs
Strategies = Union[str, Iterable[Union[str, tuple]], None]
#: a deck: a path to a CSV file, or a polars DataFrame with its columns (None: the game's own)
Deck = Union[str, os.PathLike, "pl.DataFrame", None]
#: progress: True (a bar on a terminal, a line in a notebook), False, or a callable(done, total)
Progress = Union[bool, Callable[[int, int], None]]
#: player counts: an int, a list of ints, or the command line's "2,4"
Counts = Union[int, Iterable[int], str]


# ---------------------------------------------------------------- catalogues
def games() -> list[GameInfo]:
    """Every game zsim plays, built in or plugged in (``zsim games``).

    Example:
        >>> import zsim
        >>> [g.name for g in zsim.games()][:3]      # the built-in games, then any plugged in
        ['zahltag', 'zahlemann', 'baumeister']
    """
    from zsim.game_registry import catalogue

    return catalogue()


def rules(game: str = DEFAULT_GAME) -> list[RuleInfo]:
    """Every rule key of ``game`` with its default, range and meaning (``zsim rules``).

    Example:
        >>> import zsim
        >>> {r.key: r.default for r in zsim.rules("zahltag")}["hand_size"]
        7
    """
    from zsim._api_inputs import game_of

    out = []
    for s in game_of(game).rule_specs:
        if s.kind == "int":
            rng = f"{s.low}..{s.high}"
        elif s.kind == "choice":
            rng = "|".join(s.choices)
        elif s.kind == "bool":
            rng = "true|false"
        elif s.kind == "prob":
            rng = "0..1"
        else:
            rng = f"{s.names} each {s.low}..{s.high}"
        out.append(RuleInfo(s.key, s.kind, s.default, rng, s.help))
    return out


def strategies(game: str = DEFAULT_GAME) -> list[StrategyInfo]:
    """Every strategy of ``game``, built in or plugged in, with its parameters (``zsim strategies``).

    Example:
        >>> import zsim
        >>> "shedder" in [s.name for s in zsim.strategies("zahlemann")]
        True
    """
    from zsim._api_inputs import game_of
    from zsim.strategy_registry import describe

    return [StrategyInfo(row["name"], row["description"], row["fair"],
                         tuple(ParamInfo(**{**p, "choices": tuple(p.get("choices", ()))}) for p in row["params"]))
            for row in describe(game_of(game).name)]


# ---------------------------------------------------------------- playing
def simulate(*, game: str = DEFAULT_GAME, players: int = 4, games: int = 100_000, seed: int = 0,
             strategies: Strategies = None, rules: Rules = None, deck: Deck = None,
             out: str | os.PathLike | None = None, resume: bool = False, precision: float | None = None,
             backend: str = "local", scheduler: str | None = None, workers: int | None = None,
             chunk: int = 65_536, threads: int | None = None, progress: Progress = True) -> SimulateResult:
    """Play ``games`` games and summarise each seat (``zsim simulate``).

    ``strategies``: one per seat, or one for every seat (default: the game's
    own, ``simple`` for Zahltag). ``out``: write one row per game per seat
    to ``FILE.parquet``, or to a run folder (any other path) that
    ``resume=True`` finishes after a stop. ``precision``: stop once every
    seat's win-share 95% half-width is at most this. ``backend="dask"``
    plays the chunks on a dask cluster (``scheduler``, or a LocalCluster of
    ``workers``). A stop raises :class:`Interrupted` whose ``partial``
    holds the summary of the games finished.

    Example:
        >>> import zsim
        >>> r = zsim.simulate(players=2, games=4000, seed=1, rules={"payday_cost": 2},
        ...                   out="games.parquet", progress=False)     # doctest: +SKIP
        >>> r.rows().group_by("seat").agg(pl.col("money").mean()).collect()   # doctest: +SKIP
    """
    from zsim._api_inputs import check_threads, flag, make_matchup, path_arg, real, whole, word
    from zsim._api_outputs import check_progress
    from zsim._api_running import simulation
    from zsim.harness.backends import check_backend
    from zsim.harness.runs import Plan

    # every argument, before anything is made or played
    out, resume = path_arg(out, "--out"), flag(resume, "--resume")
    games, seed, chunk = whole(games, "--games"), whole(seed, "--seed"), whole(chunk, "--chunk", 1, 1 << 24)
    precision = real(precision, "--precision", none_ok=True)
    backend, scheduler = word(backend, "--backend"), word(scheduler, "--scheduler", none_ok=True)
    workers, threads = whole(workers, "--workers", 1, none_ok=True), check_threads(threads)
    check_progress(progress)
    if backend not in ("local", "dask"):
        raise ZsimError(f"--backend must be local or dask, got {backend!r}")
    check_backend(backend, scheduler, workers)
    m = make_matchup(game, players, strategies, rules, deck)
    players = m.players
    plan = Plan(m, seed, games, chunk, precision)
    return simulation(m, plan, out, resume, backend, scheduler, workers, threads, progress)


def tournament(field: Strategies, *, game: str = DEFAULT_GAME, players: int = 4, games: int = 2_000,
               seatings: str = "all", seed: int = 0, rules: Rules = None, deck: Deck = None,
               out: str | os.PathLike | None = None, compare_independent: bool = False,
               threads: int | None = None, progress: Progress = True) -> TournamentResult:
    """A fair tournament of ``field`` on duplicate deals (``zsim tournament``).

    ``games`` counts deals, each played under every seating of the design
    (``seatings="all"``, or ``"rotations"``: each table-sized subset in its
    rotations). A field smaller than the table fills it with copies.
    ``compare_independent=True`` also plays as many games on independent
    deals and measures how much the duplicate deals narrow the intervals.

    Example:
        >>> import zsim
        >>> t = zsim.tournament(["simple", "random", "passive", ("fixed", {"k": 5})], games=500,
        ...                     progress=False)                    # doctest: +SKIP
        >>> t.strategies.sort("win_share", descending=True)        # doctest: +SKIP
    """
    from zsim._api_inputs import (check_players, check_threads, flag, game_deck, game_of, game_rules, path_arg,
                                  spec_list, whole, word)
    from zsim._api_outputs import check_progress
    from zsim._api_running import tournament_play
    from zsim.harness.seatings import check_independent, parse_field
    from zsim.harness.chunks import check_games_and_seed

    spec = game_of(game)
    players = check_players(spec, players)
    out, seatings = path_arg(out, "--out"), word(seatings, "--seatings")
    games, seed = whole(games, "--games"), whole(seed, "--seed")
    compare_independent = flag(compare_independent, "--compare-independent")
    threads = check_threads(threads)
    check_progress(progress)
    if seatings not in ("all", "rotations"):
        raise ZsimError(f"--seatings must be all or rotations, got {seatings!r}")
    entries = parse_field(spec_list(field, "--field entry"), spec.name)
    rule_set, deck_obj = game_rules(spec, rules, players), game_deck(spec, deck)
    check_games_and_seed(games, seed)
    if compare_independent:
        check_independent(len(entries), players, games, seatings)
    return tournament_play(spec, entries, players, games, seed, rule_set, deck_obj, seatings, compare_independent,
                           out, threads, progress)


def tune(strategy: str, *, vs: Strategies = None, game: str = DEFAULT_GAME, players: int = 4,
         budget: int = 200_000, batch: int | None = None, eval_games: int = 20_000, seed: int = 0,
         optimizer: str = "DE", rules: Rules = None, deck: Deck = None, threads: int | None = None,
         progress: Progress = True) -> TuneResult:
    """Tune ``strategy``'s parameters for win share against ``vs`` (``zsim tune``).

    ``vs``: one strategy for every other seat, or players-1 of them in seat
    order after the tuned one (default: the game's default strategy). The
    search (a nevergrad ``optimizer``) and its final race play at most
    ``budget`` games on duplicate deals; the best and the default
    parameters then play ``eval_games`` fresh games each.

    Example:
        >>> import zsim
        >>> r = zsim.tune("fixed", vs="fixed:k=8", budget=20_000, seed=1, progress=False)  # doctest: +SKIP
        >>> r.best_params, r.table                                  # doctest: +SKIP
    """
    from zsim import _api_running

    return _api_running.tune(strategy=strategy, vs=vs, game=game, players=players, budget=budget, batch=batch,
                             eval_games=eval_games, seed=seed, optimizer=optimizer, rules=rules, deck=deck,
                             threads=threads, progress=progress)


# ---------------------------------------------------------------- analyses and reports
def analyses(game: str = DEFAULT_GAME) -> list[str]:
    """The names of ``game``'s balance analyses, for :func:`analyze`.

    Example:
        >>> import zsim
        >>> zsim.analyses("zahltag")
        ['deck', 'drama', 'hand-size', 'ladder', 'payday-cost', 'players', 'tradeoff']
    """
    from zsim import _api_analyses
    from zsim._api_inputs import game_of

    return _api_analyses.names(game_of(game).name)


def analysis(name: str, *, game: str = DEFAULT_GAME) -> AnalysisSpec:
    """The analysis ``name`` of ``game`` as its game defines it: its one-line question
    (``.question``), its options (``.options``: each :class:`Option` with its keyword,
    default and help) and its tables and figures. ``zsim analyze --game G NAME --help``
    and :func:`analyze` are both made from it.

    Example:
        >>> import zsim
        >>> a = zsim.analysis("tradeoff")
        >>> [o.name for o in a.options][:4]
        ['players', 'targets', 'costs', 'hand_sizes']
    """
    from zsim import _api_analyses
    from zsim._api_inputs import word

    return _api_analyses.find(word(name, "the analysis name"), game)


def analyze(name: str, *, game: str = DEFAULT_GAME, out: str | os.PathLike | None = None,
            plots: str | os.PathLike | None = None, threads: int | None = None, progress: Progress = True,
            **options) -> Analysis:
    """Run the balance analysis ``name`` of ``game`` (``zsim analyze [--game G] NAME``).

    ``options`` are the analysis's own, spelled as the command's options
    with ``_`` for ``-`` (``games``, ``seed``, ``field``, ``rules``,
    ``players``, ``targets``, ``costs``, ``hand_sizes``, ``deck``, ...; for
    the Zahltag ``deck`` analysis, ``decks``: the files to compare), with
    the command's defaults. ``out`` writes the tables (.parquet or .csv),
    ``plots`` the figures (a folder of PNGs), all or none, after the games.
    :func:`analyses` lists the names; docs/analyses.md defines every figure.

    Example:
        >>> import zsim
        >>> a = zsim.analyze("tradeoff", players=[2, 4], targets="0..12", costs=[0, 1, 2, 3],
        ...                  games=5000, progress=False)                # doctest: +SKIP
        >>> a.figures                                                   # doctest: +SKIP
    """
    from zsim import _api_analyses
    from zsim._api_inputs import check_threads, path_arg, word
    from zsim._api_outputs import check_out, check_plots, check_progress, play, write_analysis

    name = word(name, "the analysis name")
    path_arg(out, "--out")
    path_arg(plots, "--plots")
    threads = check_threads(threads)
    check_progress(progress)
    total, call = _api_analyses.prepare(name, game, options)   # every option checked by its spec
    out_path, plots_path = check_out(out), check_plots(plots)
    result = play(name, total, progress, threads, call)
    done = Analysis(result.name, result.title, result.summary, list(result.findings), dict(result.tables),
                    dict(result.figures), dict(result.meta))
    write_analysis(result, out_path, plots_path)
    return done


def report(*, out: str | os.PathLike, game: str = DEFAULT_GAME, players: Counts = "2,3,4", games: int = 20_000,
           tournament_games: int | None = None, seed: int = 0, field: Strategies = None, rules: Rules = None,
           deck: Deck = None, threads: int | None = None, progress: Progress = True,
           margin: float = 1.0, strong: str | None = None, strong_games: int | None = None) -> ReportResult:
    """Every analysis of ``game``, a tournament of its fair bots and the run's
    metadata as an HTML page and a Markdown twin with PNG figures in the
    folder ``out`` (``zsim report``), written whole or not at all.

    ``games`` per point of every analysis; ``tournament_games`` deals of the
    tournament per player count (default ``games // 20``); ``margin``: the
    practical margin of the verdicts, in percentage points of win share (a
    gap inside it is no gap; docs/analyses.md); ``strong_games``: games per
    player count of the strong player (skill against luck, the seats under
    strong play; default ``games // 100``, at least one a seat);
    ``strong``: that player's spec (default the game's own, ``ismcts`` at
    its default budget; a fair strategy).

    Example:
        >>> import zsim
        >>> r = zsim.report(out="reports/mine", players=[2, 4], games=2000, progress=False)  # doctest: +SKIP
        >>> r.findings[0]                                           # doctest: +SKIP
    """
    from zsim import _api_analyses

    return _api_analyses.report(out=out, game=game, players=players, games=games, tournament_games=tournament_games,
                                seed=seed, field=field, rules=rules, deck=deck, threads=threads, progress=progress,
                                margin=margin, strong=strong, strong_games=strong_games)


# ---------------------------------------------------------------- rule design
def sweep(rules: Union[dict, Iterable[str]], *, game: str = DEFAULT_GAME, players: Counts | None = None, games: int = 20_000, seed: int = 0,
          field: Strategies = None, fixed: Rules = None, strong: str | None = None, strong_games: int | None = None,
          margin: float = 1.0, max_points: int = 400, deck: Deck = None, out: str | os.PathLike | None = None,
          plots: str | os.PathLike | None = None, report: str | os.PathLike | None = None,
          threads: int | None = None, progress: Progress = True) -> Analysis:
    """Sweep one or two rules of ``game`` (``zsim sweep``): every point plays
    ``games`` games of the field on the same deals and is measured alike for
    every game (each seat's win share, the largest seat gap and its verdict
    against ``margin``, game length, end reasons, knock-outs, lead changes,
    the winner's margin, the game's summary columns, and the strong
    player's edge over par).

    ``rules``: ``{"payday_cost": [0, 1, 2], "hand_size": "5..9"}`` or the
    command line's ``["payday_cost=0..2", "hand_size=5..9"]``; ``fixed``:
    rules held at one value; ``players``: counts (default every count the
    game takes); ``strong``: the strong player's spec (default the game's
    best bot, ``"none"`` for no skill edge; a search at every point costs
    hours), ``strong_games`` its games per point (default ``games // 10``); ``max_points``: the largest grid accepted.
    ``out``, ``plots`` write the tables and the figures, ``report`` a page.
    docs/rule-design.md shows a worked example per game.

    Example:
        >>> import zsim
        >>> s = zsim.sweep({"payday_cost": [0, 1, 2]}, players=4, games=2000, strong="none",
        ...                progress=False)                                   # doctest: +SKIP
        >>> s.main.select("payday_cost", "seats", "seat_gap_pp")            # doctest: +SKIP
    """
    from zsim import _api_rules

    return _api_rules.sweep(rules, game=game, players=players, games=games, seed=seed, field=field, fixed=fixed,
                            strong=strong, strong_games=strong_games, margin=margin, max_points=max_points,
                            deck=deck, out=out, plots=plots, report=report, threads=threads, progress=progress)


def compare(rules: Rules = None, against: Rules = None, *, game: str = DEFAULT_GAME, players: Counts | None = None,
            games: int = 20_000, seed: int = 0, field: Strategies = None, strong: str | None = None,
            strong_games: int | None = None, margin: float = 1.0, relative_margin: float = 2.0, deck: Deck = None,
            against_deck: Deck = None, out: str | os.PathLike | None = None, plots: str | os.PathLike | None = None,
            threads: int | None = None, progress: Progress = True) -> Analysis:
    """Compare two rule sets of ``game`` on the same deals (``zsim compare``):
    side A (``rules``, ``deck``) against side B (``against``,
    ``against_deck``; each side defaults to the printed rules and the
    game's deck). Game i of both sides starts from the same seed, so each
    measure's change (A less B) carries a paired 95% interval, shown beside
    the interval two independent runs would give; a verdict per measure
    reads the change against ``margin`` percentage points (shares) or
    ``relative_margin`` percent of B's value (everything else).

    Example:
        >>> import zsim
        >>> c = zsim.compare({"payday_cost": 2}, players=4, games=2000, strong="none",
        ...                  progress=False)                                 # doctest: +SKIP
        >>> c.main.select("measure", "change", "change_ci95", "verdict")     # doctest: +SKIP
    """
    from zsim import _api_rules

    return _api_rules.compare(rules, against, game=game, players=players, games=games, seed=seed, field=field,
                              strong=strong, strong_games=strong_games, margin=margin,
                              relative_margin=relative_margin, deck=deck, against_deck=against_deck, out=out,
                              plots=plots, threads=threads, progress=progress)


def balance(free: Union[dict, Iterable[str]], targets: Iterable[str], *, game: str = DEFAULT_GAME, players: Counts | None = None, budget: int = 400_000,
            batch: int | None = None, seed: int = 0, field: Strategies = None, fixed: Rules = None,
            strong: str | None = None, optimizer: str = "NGOpt", deck: Deck = None,
            run: str | os.PathLike | None = None, out: str | os.PathLike | None = None, backend: str = "local",
            scheduler: str | None = None, workers: int | None = None, threads: int | None = None,
            progress: Progress = True) -> Analysis:
    """Search ``free`` rules of ``game`` for settings that meet ``targets``
    (``zsim balance``).

    ``free``: ``{"payday_cost": "0..3", "hand_size": [5, 6, 7, 8]}`` or
    ``["payday_cost=0..3", ...]``; ``targets``: ``["seat_gap<=0.01",
    "skill_edge>=0.10", "turns=25..40"]``, each to hold at every player
    count. Every setting plays the same deals in blocks of ``batch`` games,
    until each target is decided or it has played 4 blocks; nevergrad's
    ``optimizer`` proposes the settings and the best race on further
    blocks, all within ``budget`` games. ``run``: a folder that keeps every
    block, so that the same call resumes a stopped search. The tables give
    the settings found, each target's value and interval at the best and at
    the printed rules, and what one step of each free key breaks.
    ``backend="dask"`` plays each block's chunks side by side on a dask
    cluster (``scheduler``, or a LocalCluster of ``workers`` processes),
    with the same result to the last digit.

    Example:
        >>> import zsim
        >>> b = zsim.balance({"payday_cost": "0..3"}, ["knockout_rate<=0.05"], players=4,
        ...                  budget=40_000, progress=False)                  # doctest: +SKIP
        >>> b.findings[0]                                                    # doctest: +SKIP
    """
    from zsim import _api_rules

    return _api_rules.balance(free, targets, game=game, players=players, budget=budget, batch=batch, seed=seed,
                              field=field, fixed=fixed, strong=strong, optimizer=optimizer, deck=deck, run=run,
                              out=out, backend=backend, scheduler=scheduler, workers=workers, threads=threads,
                              progress=progress)


# ---------------------------------------------------------------- records
def record(*, game: str = DEFAULT_GAME, players: int = 4, seed: int = 0, games: int = 1, first: int = 0,
           strategies: Strategies = None, rules: Rules = None, deck: Deck = None,
           out: str | os.PathLike | None = None, progress: bool = True) -> Records:
    """Complete records of games ``first .. first + games - 1`` of ``seed``
    (``zsim record``): the games ``simulate`` plays, every shuffle and
    decision in the game's record format. With ``out`` they are written to
    that JSON-lines file (whole or not at all); the result yields them game
    by game either way.

    Example:
        >>> import zsim
        >>> recs = zsim.record(players=2, seed=7, games=1)
        >>> recs.games, next(iter(recs))[0]["e"]
        (1, 'start')
    """
    from zsim._api_inputs import check_given, flag, make_matchup, whole
    from zsim.harness.chunks import check_games_and_seed, check_out_path

    seed, games, first = whole(seed, "--seed"), whole(games, "--games"), whole(first, "--first")
    progress = flag(progress, "progress")
    check_given(out, "--out")
    m = make_matchup(game, players, strategies, rules, deck)
    check_games_and_seed(games, seed, first)
    recs = Records(m.game, seed, first, games, m, progress)
    if out is not None:
        check_out_path(out, stream="JSON lines")
        recs.write(out)
    return recs


def replay(path: str | os.PathLike, *, check: bool = True, game: str | None = None,
           progress: bool = True) -> Replay:
    """The games of a record file (``-``: stdin) with their play-by-play
    (``zsim replay``). Iterating reads the file game by game, re-checks each
    with the reference engine first (``check=False`` skips it) and refuses
    one that breaks a rule, in one line naming the file's line; ``game``
    refuses a record of any other game. A missing file is refused here, a
    bad line when the iteration reaches it.

    Example:
        >>> import zsim
        >>> recs = zsim.record(players=2, seed=7, out="game.jsonl")
        >>> print(zsim.replay("game.jsonl").text().splitlines()[0])
        Game 0 of seed 7: 2 players, 32 jobs
    """
    from zsim._api_inputs import flag, game_of, path_arg
    from zsim.record_files import RecordFile

    path_arg(path, "the record file", none_ok=False)
    check, progress = flag(check, "--check"), flag(progress, "progress")
    expected = game_of(game).name if game is not None else None
    text = os.fspath(path)
    source = RecordFile(text)
    source.check()          # a missing file now; a bad line when iterating reaches it
    return Replay(text, check, expected, source, progress)


# ---------------------------------------------------------------- speed
def bench(*, game: str = DEFAULT_GAME, games: int = 200_000, repeat: int = 5, reference_games: int = 300,
          startup: bool = True, memory_games: int = 0, scaling: bool = False,
          workers: int | None = None, strategy: str | None = None, players: int = 4,
          positions: int = 64) -> BenchResult:
    """Games per second of ``game``'s fast engine on one thread and on all,
    against its reference engine (``zsim bench``), with turns/s and
    decisions/s; medians over ``repeat`` runs, the reference ratio and the
    thread scaling as the medians of alternating rounds' own ratios.
    ``startup`` also times a cold start and a warm ``zsim simulate --games
    1000`` (alternating with a one-kernel numba script's warm start, the
    floor beneath it); ``memory_games`` reports peak memory; ``scaling``
    measures games/s against threads and dask ``workers`` instead.
    ``strategy`` (a search, e.g. ``"ismcts:iterations=1000"``) times it
    instead, from ``positions`` positions of real games of ``players``:
    iterations/s on one thread and on all, one decision's time, beside the
    forward model's playouts/s and games/s and the batch engine's games/s.

    Example:
        >>> import zsim
        >>> b = zsim.bench(games=20_000, repeat=1, reference_games=0, startup=False)  # doctest: +SKIP
        >>> b.frame                                                 # doctest: +SKIP
    """
    from zsim import _api_running

    return _api_running.bench(game=game, games=games, repeat=repeat, reference_games=reference_games, startup=startup,
                              memory_games=memory_games, scaling=scaling, workers=workers, strategy=strategy,
                              players=players, positions=positions)


def _serve_play(*args, announce=print):
    """``zsim play --serve``: the same table in a browser (zsim/_api_play.py); not part of the stable API yet."""
    from zsim import _api_play

    return _api_play.serve(*args, announce=announce)


def _play_in_terminal(*args):
    """``zsim play``'s game at the terminal (zsim/_api_play.py); not part of the stable API yet."""
    from zsim import _api_play

    return _api_play.play_in_terminal(*args)


def view(record: str | os.PathLike, out: str | os.PathLike, *, continuations: int = 64, hint: str = "ismcts",
         hint_iterations: int = 256, threshold: float = 0.9, games: int | None = None, quiet: bool = True) -> list:
    """Write each game of a record file as a self-contained page to step
    through (``zsim view``): each seat's view, every move, the searches'
    visit counts, and each seat's chance of winning after every move
    (``continuations`` games played on from each position; 0: none).
    ``out`` is a new or empty folder; returns the paths written, its
    ``index.html`` first. A game is shown only as zsim deals it again from
    its start line: a record that differs is refused (ZsimError).

    Example:
        >>> pages = zsim.view("game.jsonl", "game-pages")     # doctest: +SKIP
        >>> pages[0].name                                      # doctest: +SKIP
        'index.html'
    """
    from zsim import _api_view

    return _api_view.view(record, out, continuations=continuations, hint=hint,
                          hint_iterations=hint_iterations, threshold=threshold, games=games, quiet=quiet)
