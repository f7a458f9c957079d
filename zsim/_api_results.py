"""The objects zsim's public API hands back, and their text and JSON forms.

Each result holds polars DataFrames (tables with their 95% intervals),
matplotlib figures where zsim draws plots, and per-game rows as a polars
LazyFrame over the Parquet written (never all in memory). ``text()`` is
exactly what the ``zsim`` command prints and ``to_json()`` what its
``--json`` prints, so a script and the command line read the same figures.

The classes are public under their names in :mod:`zsim`; this module's
path is not.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (a notebook's interrupt), SIGTERM or SIGHUP at
    the end of a chunk. Nothing was half-written: an ``out`` file appears
    only when its run is complete (a run folder keeps its whole shards for
    ``resume=True``).

    ``message`` says how far the run got (``after 10 of 20 games; no
    results``); ``done`` and ``total`` count its games; ``partial`` is, for
    :func:`zsim.simulate`, the result of the games finished (None elsewhere).

    Example:
        >>> import zsim
        >>> try:                                    # doctest: +SKIP
        ...     zsim.simulate(games=1_000_000)      # press Ctrl-C / interrupt the kernel
        ... except zsim.Interrupted as stop:
        ...     print(stop.message)
        after 131,072 of 1,000,000 games; the summary covers the finished games
    """

    def __init__(self, message: str, done: int = 0, total: int = 0, partial: Any = None):
        super().__init__(message)
        self.message = message
        self.done = done
        self.total = total
        self.partial = partial


def _finite(v):
    return None if isinstance(v, float) and not math.isfinite(v) else v


def clean_rows(frame) -> list[dict]:
    return [{k: _finite(v) for k, v in row.items()} for row in frame.to_dicts()]


def table_text(frame, precision: int = 3, all_rows: bool = False) -> str:
    """A polars table as zsim prints it (ASCII lines where the terminal lacks box drawing)."""
    import polars as pl

    from zsim.terminal import table_formatting

    extra = {"tbl_rows": -1} if all_rows else {}
    with pl.Config(tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
                   float_precision=precision, tbl_width_chars=200, tbl_cols=-1, **extra, **table_formatting()):
        return str(frame)


# ---------------------------------------------------------------- catalogues
from zsim.game_registry import DEFAULT_GAME  # noqa: E402
from zsim.games.info import GameInfo  # noqa: E402,F401  (kept with the game registry; a result of the API)


@dataclass(frozen=True)
class RuleInfo:
    """One rule key of a game (:func:`zsim.rules`): its kind, default, range and meaning.

    Example:
        >>> import zsim
        >>> cost = next(r for r in zsim.rules("zahltag") if r.key == "payday_cost")
        >>> cost.default, cost.range
        (1, '0..100')
    """
    key: str
    kind: str               # int, bool, choice, prob or ints
    default: Any
    range: str              # as `zsim rules` shows it, e.g. 0..5 or forbid|penalize
    help: str

    def line(self) -> str:
        """The line ``zsim rules`` prints."""
        if isinstance(self.default, tuple):
            default = ",".join(map(str, self.default))
        elif isinstance(self.default, bool):
            default = str(self.default).lower()
        else:
            default = str(self.default)
        return f"{self.key:<22} {default:<12} {self.range:<22} {self.help}"


@dataclass(frozen=True)
class ParamInfo:
    """A strategy's parameter: its default and bounds.

    Example:
        >>> import zsim
        >>> fixed = next(s for s in zsim.strategies("zahltag") if s.name == "fixed")
        >>> [(p.name, p.default) for p in fixed.params]
        [('k', 3.0)]
    """
    name: str
    default: float
    low: float
    high: float
    help: str
    #: for a parameter that names one of several things (a search's ``rollout``): the names,
    #: ``default``, ``low`` and ``high`` being indices into them
    choices: tuple[str, ...] = ()

    def text(self, value: float) -> str:
        return self.choices[int(value)] if self.choices else f"{value:g}"


@dataclass(frozen=True)
class StrategyInfo:
    """A strategy of a game (:func:`zsim.strategies`); ``fair`` is False for
    one that reads hidden cards (an upper bound, not a fair competitor).

    Example:
        >>> import zsim
        >>> [s.name for s in zsim.strategies("zahltag")][:3]
        ['counter', 'fixed', 'handsize']
    """
    name: str
    description: str
    fair: bool
    params: tuple[ParamInfo, ...]

    def as_dict(self) -> dict:
        """The row ``zsim strategies --json`` prints."""
        return {"name": self.name, "description": self.description, "fair": self.fair,
                "params": [{"name": p.name, "default": p.text(p.default) if p.choices else p.default,
                            "low": p.low, "high": p.high, "help": p.help, **({"choices": list(p.choices)}
                                                                               if p.choices else {})}
                           for p in self.params]}

    def lines(self) -> list[str]:
        """The lines ``zsim strategies`` prints."""
        label = "" if self.fair else "  [reads hidden hands: an upper bound, not fair]"
        out = [f"{self.name:<12} {self.description}{label}"]
        for p in self.params:
            span = ", ".join(p.choices) if p.choices else f"{p.low:g}..{p.high:g}"
            out.append(f"    {p.name}={p.text(p.default)}  ({span})  {p.help}")
        return out


# ---------------------------------------------------------------- simulate
def scan_rows(out: str | None):
    """The per-game rows under ``out`` (a .parquet file or a run folder), lazily."""
    import polars as pl

    from zsim.errors import ZsimError

    if out is None:
        raise ZsimError("no per-game rows were written: give out='games.parquet' or a run folder")
    path = Path(out)
    if path.is_dir():
        return pl.scan_parquet(path / "chunk-*.parquet")
    if not path.exists():
        raise ZsimError(f"{out} holds no rows: the run did not finish writing it")
    return pl.scan_parquet(path)


@dataclass
class SimulateResult:
    """What :func:`zsim.simulate` played: one summary row per seat.

    ``summary`` holds each seat's win share with its 95% half-width
    (``win_ci95``), mean and sd of the score with its half-width, mean place
    and the game's own columns. ``rows()`` scans the per-game rows of
    ``out`` (a Parquet file or a run folder) as a LazyFrame.

    Example:
        >>> import zsim
        >>> r = zsim.simulate(players=2, games=2000, seed=1, progress=False)
        >>> r.summary.select("seat", "win_share", "win_ci95").height
        2
    """
    game: str
    title: str
    players: int
    seed: int
    strategies: tuple[str, ...]
    games: int                      # games played (and folded)
    planned: int                    # games asked for (the cap, with a precision target)
    summary: "pl.DataFrame"
    setup: str = ""                 # the rules and deck when not the game's defaults
    precision: float | None = None
    stopped_at_precision: bool = False
    resumed_games: int = 0          # games found in a run folder and not played again
    out: str | None = None
    interrupted: bool = False

    def rows(self) -> "pl.LazyFrame":
        """One row per game per seat (the README's columns), scanned lazily from ``out``."""
        return scan_rows(self.out)

    def to_json(self) -> list[dict]:
        """The rows ``zsim simulate --json`` prints (NaN as None)."""
        return clean_rows(self.summary)

    def text(self) -> str:
        """What ``zsim simulate`` prints: one line on the run, then the table."""
        how = ""
        if self.stopped_at_precision:
            how = f" (win shares within ±{self.precision:g}; cap {self.planned:,})"
        elif self.precision is not None and not self.interrupted:
            how = f" (the cap: ±{self.precision:g} not reached)"
        resumed = f", {self.resumed_games:,} of them from {self.out}" if self.resumed_games else ""
        named = "" if self.game == DEFAULT_GAME else f"{self.title}: "
        head = (f"{named}{self.games:,} games{how}{resumed}, {self.players} players, seed {self.seed}"
                f"{', ' + self.setup if self.setup else ''}")
        return head + "\n" + table_text(self.summary)


# ---------------------------------------------------------------- tournament
@dataclass
class TournamentResult:
    """A tournament on duplicate deals (:func:`zsim.tournament`).

    ``strategies``: per entry, win share, score and place with 95% intervals
    over deals; ``seats``: per seat; ``head_to_head``: the share of shared
    games in which one entry finished above another (long form; the
    matrices come from :meth:`head_to_head_matrix`); ``comparison``: with
    ``compare_independent=True``, how much the duplicate deals narrowed the
    intervals. ``rows()`` scans ``out`` lazily.

    Example:
        >>> import zsim
        >>> t = zsim.tournament(field=["simple", "random"], players=2, games=200, progress=False)
        >>> t.strategies["strategy"].to_list()
        ['simple', 'random']
    """
    game: str
    players: int
    seed: int
    field: tuple[str, ...]
    deals: int
    games: int
    strategies: "pl.DataFrame"
    seats: "pl.DataFrame"
    head_to_head: "pl.DataFrame"
    comparison: "pl.DataFrame | None" = None
    identical: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()      # entries that played identical games, in words
    out: str | None = None
    deck_name: str = ""
    _t: Any = field(default=None, repr=False)

    def head_to_head_matrix(self, ci: bool = False) -> "pl.DataFrame":
        """Row above column, as a square table (``ci=True``: the 95% half-widths)."""
        return self._t.head_to_head_matrix(ci=ci)

    def rows(self) -> "pl.LazyFrame":
        """One row per game per seat of the tournament, scanned lazily from ``out``."""
        return scan_rows(self.out)

    def to_json(self) -> dict:
        """What ``zsim tournament --json`` prints."""
        from zsim.harness.tournament import tournament_json

        return tournament_json(self._t, self.comparison)

    def text(self) -> str:
        """What ``zsim tournament`` prints."""
        import polars as pl

        t, comparison = self._t, self.comparison
        n_seat, f, p = t.per_deal, len(t.entries), t.players
        if t.design == "rotations":
            q = len(t.orders)
            shares = "equal" if t.deals % q == 0 else "one deal apart"
            blocks = '..'.join(map(str, sorted(set(t.order_deals().tolist()))))
            design = (f"each {p}-subset of the field in its {p} rotations, in one of its {q} cyclic orders "
                      f"a deal; the orders take blocks of {blocks} deals ({shares})") if q > 1 \
                else f"each {p}-subset of the field in its {p} rotations"
        elif f == 1:
            design = "copies in every seat"
        elif f < p:
            design = f"every seating with each entry in {p // f}..{-(-p // f)} seats"
        elif f == p:
            design = "every permutation"
        else:
            design = f"every seating of every {p}-subset of the field"
        out = [f"Tournament: {t.players} players, field {', '.join(t.entries)}; seed {t.seed}, {self.deck_name}"]
        same = "; each deal is the same cards under every seating" if n_seat > 1 else ""
        out.append(f"{t.deals:,} deals x {n_seat:,} seating{'s' if n_seat > 1 else ''} ({design}) = "
                   f"{t.games:,} games played{same}")
        out.append("\nPer strategy (95% CIs over deals; a strategy's value in a deal is its mean over its "
                   "seats in that deal's games):")
        frame = self.strategies
        unfair = [e for e, fair in zip(t.entries, frame["fair"]) if not fair]
        frame = frame.with_columns(note=pl.when(pl.col("fair")).then(pl.lit(""))
                                   .otherwise(pl.lit("upper bound, not fair"))).drop("fair")
        out.append(table_text(frame, all_rows=True))
        for e in unfair:
            out.append(f"  {e}: reads hidden information, an upper bound rather than a fair competitor")
        if len(t.entries) > 1:
            out.append("\nHead to head: share of shared games in which the row finished above the column "
                       "(ties count for neither):")
            out.append(table_text(t.head_to_head_matrix(), all_rows=True))
            out.append("95% half-widths of those shares (over deals):")
            out.append(table_text(t.head_to_head_matrix(ci=True), precision=4, all_rows=True))
        out.append("\nPer seat (every strategy sits at every seat equally often):")
        out.append(table_text(self.seats, all_rows=True))
        if comparison is not None:
            out.append(f"\nDuplicate vs independent deals ({t.games:,} games more on independent deals): "
                       "95% half-widths, their ratio (independent / duplicate) and the variance factor "
                       "(ratio squared: how many times as many games independent deals need for the "
                       "same precision; below 1, duplicate deals are the less precise):")
            out.append(table_text(comparison, precision=4, all_rows=True))
        return "\n".join(out)


# ---------------------------------------------------------------- tune
@dataclass
class TuneResult:
    """A strategy's parameters tuned for win share (:func:`zsim.tune`).

    ``best_params`` won the search and its race; ``table`` holds the best
    and the default parameters measured on fresh deals, and their paired
    difference, with 95% half-widths. ``to_json()`` has every figure of the
    search (candidates, games, game-index ranges).

    Example:
        >>> import zsim
        >>> r = zsim.tune("fixed", vs="fixed:k=8", budget=4000, eval_games=400, progress=False)
        >>> sorted(r.best_params)
        ['k']
    """
    strategy: str
    best_params: dict[str, float]
    best_spec: str
    default_spec: str
    table: "pl.DataFrame"
    rules: tuple[str, ...] = ()
    deck_name: str = ""
    game: str = DEFAULT_GAME
    _r: Any = field(default=None, repr=False)

    def to_json(self) -> dict:
        """What ``zsim tune --json`` prints."""
        return self._r.to_json()

    def text(self) -> str:
        """What ``zsim tune`` prints."""
        from zsim.harness.tune import tunable_params

        r = self._r
        params = tunable_params(r.strategy, self.game)
        lines = [f"tune {r.strategy} vs {','.join(r.field)} · {r.players} players · seed {r.seed}"
                 + (f" · rules {' '.join(self.rules)}" if self.rules else "")
                 + (f" · deck {self.deck_name}" if self.deck_name else "")]
        search = (f"search: {r.optimizer} tried {r.candidates:,} candidates ({r.distinct_candidates:,} "
                  f"distinct), {r.batch_games:,} games each")
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
        lines.append(f"  {'':<10}{'best - default':<{spec_w}}  {d.win_share:>+9.4f}  ±{d.ci95:.4f}  "
                     f"(paired: same deals)")
        return "\n".join(lines)


# ---------------------------------------------------------------- bench
@dataclass
class BenchResult:
    """Games per second of a game's engines (:func:`zsim.bench`): one row
    per measurement (engine, players, threads, games/s, turns/s and ratios).

    Example:
        >>> import zsim
        >>> b = zsim.bench(games=2000, repeat=1, reference_games=0, startup=False)  # doctest: +SKIP
        >>> b.frame.select("engine", "players", "threads", "games_per_s")          # doctest: +SKIP
    """
    rows: list[dict]
    lines: list[str]

    @property
    def frame(self) -> "pl.DataFrame":
        """The rows as a polars DataFrame."""
        import polars as pl

        return pl.DataFrame(self.rows)

    def to_json(self) -> list[dict]:
        """What ``zsim bench --json`` prints."""
        return self.rows

    def text(self) -> str:
        """What ``zsim bench`` prints."""
        return "\n".join(self.lines)
