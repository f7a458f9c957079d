"""The public API's results that a person reads back: an analysis with its
tables and figures, a report, the records of games and their replay
(zsim._api_results has the catalogues and the runs' results, and the
helpers both share)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from zsim._api_results import clean_rows

if TYPE_CHECKING:
    import polars as pl
    from matplotlib.figure import Figure


# ---------------------------------------------------------------- analyses and reports
@dataclass
class Analysis:
    """A balance analysis (:func:`zsim.analyze`): tables with 95% intervals
    (the first is the main one), matplotlib figures, its key findings.

    Example:
        >>> import zsim
        >>> a = zsim.analyze("hand-size", players=2, targets=[4, 8], games=400, progress=False)
        >>> a.main["target"].to_list()
        [4, 8]
    """
    name: str
    title: str
    summary: str
    findings: list[str]
    tables: "dict[str, pl.DataFrame]"
    figures: "dict[str, Figure]"
    meta: dict

    @property
    def main(self) -> "pl.DataFrame":
        """The analysis's main table."""
        return next(iter(self.tables.values()))

    def to_json(self) -> dict:
        """What ``zsim analyze ... --json`` prints (before ``json.dumps(default=str)``)."""
        return {"analysis": self.name, "title": self.title, "summary": self.summary,
                "findings": list(self.findings), "meta": self.meta,
                "tables": {c: clean_rows(f) for c, f in self.tables.items()}}

    def text(self) -> str:
        """What ``zsim analyze ...`` prints: title, summary, findings, every table."""
        from analyses.report_format import display_table

        out = [self.title, self.summary, *(f"- {line}" for line in self.findings)]
        for caption, frame in self.tables.items():
            headers, numeric, rows = display_table(frame)
            widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
                      for i, h in enumerate(headers)]
            out.append(f"\n{caption}")
            out.append("  ".join(h.rjust(w) if n else h.ljust(w) for h, w, n in zip(headers, widths, numeric)))
            for r in rows:
                out.append("  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(r, widths, numeric)))
        return "\n".join(out)

    def save(self, out: str | os.PathLike | None = None, plots: str | os.PathLike | None = None) -> None:
        """Write the tables (``out``: the main one as .parquet or .csv, the
        others beside it as ``OUT-<table>.<suffix>``) and the figures
        (``plots``: a folder of PNGs), all or none.

        Example:
            >>> a.save(out="hand.parquet", plots="figures")    # doctest: +SKIP
        """
        from zsim._api_inputs import check_given
        from zsim._api_outputs import check_out, check_plots, write_analysis

        out_path = check_out(out) if check_given(out, "--out") is not None else None
        plots_path = check_plots(plots) if check_given(plots, "--plots") is not None else None
        write_analysis(self, out_path, plots_path)


@dataclass
class ReportResult:
    """A report written by :func:`zsim.report`: the folder, its page, its
    Markdown twin and the key findings it opens with.

    Example:
        >>> import zsim
        >>> r = zsim.report(players=[2], games=400, out="tiny-report", progress=False)  # doctest: +SKIP
        >>> r.html.name                                                                 # doctest: +SKIP
        'index.html'
    """
    folder: Path
    html: Path
    markdown: Path
    findings: list[str]
    #: one :class:`analyses.verdicts.Verdict` per designer question, as the report opens
    verdicts: list = field(default_factory=list)

    def text(self) -> str:
        """The verdicts, then the key findings, as ``zsim report`` prints them."""
        lines = ["Verdicts", *(f"- {v.sentence}" for v in self.verdicts)] if self.verdicts else []
        return "\n".join([*lines, "Key findings", *(f"- {line}" for line in self.findings)])

    def to_dict(self) -> dict:
        """What ``zsim report --json`` prints."""
        return {"html": str(self.html), "markdown": str(self.markdown),
                "verdicts": [v.to_dict() for v in self.verdicts], "findings": list(self.findings)}


# ---------------------------------------------------------------- records and replays
@dataclass
class Records:
    """Complete game records (:func:`zsim.record`), produced game by game
    as they are iterated: each is a list of events (dicts) in the game's
    record format, game *i* of seed *s* the same game ``simulate`` plays.

    Example:
        >>> import zsim
        >>> games = list(zsim.record(players=2, seed=7, games=2))
        >>> [g[0]["e"] for g in games]
        ['start', 'start']
    """
    game: str
    seed: int
    first: int
    games: int
    _matchup: Any = field(default=None, repr=False)
    progress: bool = field(default=True, repr=False)

    def __iter__(self) -> Iterator[list[dict]]:
        from zsim.harness.search_records import record_games
        from zsim.record_files import counted    # a progress bar on a terminal once it lasts two seconds

        m = self._matchup
        return counted(record_games(m, self.seed, range(self.first, self.first + self.games)),
                       self.games, "record", quiet=not self.progress)

    def __len__(self) -> int:
        return self.games

    def jsonl(self) -> Iterator[str]:
        """Each game's record as JSON lines (one string per game)."""
        to_jsonl = self._matchup.spec.to_jsonl
        for events in self:
            yield to_jsonl(events)

    def write(self, path: str | os.PathLike) -> Path:
        """Write every record to ``path`` (JSON lines), whole or not at all.
        A named pipe or a device (``>(gzip > f)``, ``/dev/stdout``) is
        written through game by game instead: a stream has no whole."""
        from contextlib import nullcontext

        from zsim._api_inputs import check_given
        from zsim.errors import output_error
        from zsim.output import atomic_path, special_kind
        from zsim.harness.chunks import check_out_path

        target = check_out_path(check_given(path, "--out"), stream="JSON lines")
        stream = special_kind(target) is not None
        try:
            with (nullcontext(target) if stream else atomic_path(target)) as dest, open(dest, "w") as fh:
                for text in self.jsonl():
                    fh.write(text)
                    if stream:
                        fh.flush()      # a reader at the other end sees each game as it is recorded
        except OSError as exc:          # a stream's failed write (atomic_path words its own)
            raise output_error(exc, str(target)) from None
        return target


@dataclass(frozen=True)
class ReplayedGame:
    """One game of a record file: its game's name, its events and the play-by-play text.

    Example:
        >>> import zsim
        >>> recs = zsim.record(game="zahlemann", players=3, seed=1, out="zahlemann.jsonl")
        >>> [g.game for g in zsim.replay("zahlemann.jsonl")]
        ['zahlemann']
    """
    game: str
    events: list
    text: str


@dataclass
class Replay:
    """A record file re-played (:func:`zsim.replay`): iterating reads the
    file game by game, re-checks each game with the reference engine (unless
    ``check=False``, refusing one that breaks a rule, in one line naming the
    file's line) and yields it with its play-by-play before reading the next.
    Only one game is held at a time; a file can be iterated again, stdin
    (``-``) only once. ``len`` counts the games in a reading pass of its own
    (a file's; stdin's games cannot be counted ahead). A progress bar (kB of
    the file read) is drawn on a terminal's stderr when the replay lasts
    over two seconds.

    Example:
        >>> import zsim
        >>> zsim.record(players=2, seed=7, games=3).write("games.jsonl").name
        'games.jsonl'
        >>> len(zsim.replay("games.jsonl"))
        3
        >>> print(zsim.replay("games.jsonl").text())                # doctest: +ELLIPSIS
        Game 0 of seed 7: 2 players, ...
    """
    path: str
    check: bool = True
    expected: str | None = None
    _file: Any = field(default=None, repr=False)
    progress: bool = field(default=True, repr=False)

    def _source(self):
        from zsim.record_files import RecordFile

        if self._file is None:
            self._file = RecordFile(self.path)
        return self._file

    def __iter__(self) -> Iterator[ReplayedGame]:
        from zsim.record_files import MALFORMED, game_of, reading_progress

        source = self._source()
        with source.reading() as games, reading_progress(source, "replay", not self.progress) as update:
            for game in games:
                spec = game_of(game, self.expected)
                try:
                    if self.check:
                        spec.check_record(game.events)
                    text = spec.play_by_play(game.events)
                except MALFORMED as exc:    # a ZsimError among them
                    raise game.refuse(exc) from None
                update()
                yield ReplayedGame(spec.name, game.events, text)

    def __len__(self) -> int:
        return self._source().count()

    def text(self) -> str:
        """Every game's play-by-play, as ``zsim replay`` prints it."""
        return "".join(g.text for g in self)
