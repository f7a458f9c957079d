"""How ``zsim balance`` plays a setting: block by block on the same deals,
its sums kept per player count, and (with ``--run DIR``) every block on
disk so that a stopped search replays what it kept instead of playing it
again. :mod:`analyses.balance` searches and judges; this module plays
(``p`` is always its ``BalancePlan``, passed in, so that neither module
imports the other both ways)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyses import common, rule_metrics, stats
from analyses.sweep import _label
from zsim.errors import ZsimError
from zsim.game_registry import get_game
from zsim.harness.chunks import DEFAULT_CHUNK, Matchup


def _options(p, setting: tuple) -> list[str]:
    return [*p.fixed, *(f"{a.key}={_label(v)}" for a, v in zip(p.free, setting))]


def _matchups(p, setting: tuple) -> dict[int, list[tuple[str, Matchup, int | None]]]:
    g = get_game(p.game)
    out: dict[int, list] = {}
    for n in p.players:
        seats = tuple(common.field_specs(p.field, n, p.game))
        try:
            rule_set = g.parse_rules(_options(p, setting), n)
            field_m = Matchup(n, seats, rule_set, p.deck, p.game)
        except ZsimError as exc:
            where = ", ".join(f"{a.key}={_label(v)}" for a, v in zip(p.free, setting))
            raise ZsimError(f"the setting {where} at {n} players cannot be played: {exc}") from None
        parts = [("field", field_m, None)]
        if p.needs_strong:
            for s in range(n):
                lineup = list(seats)
                lineup[s] = p.strong
                parts.append(("strong", Matchup(n, tuple(lineup), rule_set, p.deck, p.game), s))
        out[n] = parts
    return out


# ---------------------------------------------------------------- the run folder
RUN_FILE = "balance.json"


def open_run(p, run) -> Path:
    """The run folder of a resumable search: made, or found holding this same
    search (its arguments in balance.json); anything else is refused."""
    import os

    folder = Path(os.fspath(run))
    args = {"game": p.game, "free": {a.key: list(a.labels) for a in p.free}, "targets": [t.text for t in p.targets],
            "players": p.players, "budget": p.budget, "batch": p.batch, "seed": p.seed, "field": p.field,
            "fixed": list(p.fixed), "strong": p.strong, "optimizer": p.optimizer,
            "deck": None if p.deck is None else str(getattr(p.deck, "name", "deck"))}
    if folder.exists() and not folder.is_dir():
        raise ZsimError(f"--run {folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        path = folder / RUN_FILE
        if not path.is_file():
            raise ZsimError(f"--run {folder} holds other files and no {RUN_FILE}: give an empty or new folder")
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise ZsimError(f"--run {folder}: {RUN_FILE} is not a balance search's (not JSON)") from None
        if kept != args:
            differ = sorted(k for k in set(kept) | set(args) if kept.get(k) != args.get(k))
            raise ZsimError(f"--run {folder} holds another search (its {', '.join(differ)} differ); "
                            f"give the same arguments to resume it, or a new folder")
        return folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / (RUN_FILE + ".tmp")
        tmp.write_text(json.dumps(args, indent=1) + "\n", encoding="utf-8")
        tmp.replace(folder / RUN_FILE)
    except OSError as exc:
        from zsim.errors import output_error
        raise output_error(exc, folder) from None
    return folder


# ---------------------------------------------------------------- measuring a setting
@dataclass
class Measured:
    """A setting's sums so far, per player count, and the blocks they hold."""
    blocks: int = 0
    games: dict[int, pl.DataFrame] = field(default_factory=dict)      # per-game sums (field)
    seats: dict[int, pl.DataFrame] = field(default_factory=dict)      # per-seat sums (field)
    strong: dict[int, pl.DataFrame] = field(default_factory=dict)     # the strong seat's sums


class Measurer:
    """Plays settings block by block, keeping their sums (and, with a run
    folder, every block on disk so that a resumed search replays it)."""

    def __init__(self, p, folder: Path | None = None, advance=None, backend=None):
        from zsim.harness.backends import LocalBackend

        self.p, self.g = p, get_game(p.game)
        self.backend = backend or LocalBackend()
        self.cache: dict[tuple, Measured] = {}
        self.advance = advance
        self.played = 0                   # games played in this process
        self.counted = 0                  # games the search has spent, replayed ones included
        self.folder = folder
        self.on_disk: dict[tuple, list[dict]] = {}
        if folder is not None:
            self._load()
        every = {s for parts in _matchups(p, p.printed).values() for _, m, _ in parts for s in m.strategies}
        self.compile_for = tuple(sorted(every))

    # ------------------------------------------------------------ the run folder
    def _blocks_file(self) -> Path:
        return self.folder / "blocks.jsonl"

    def _load(self) -> None:
        path = self._blocks_file()
        if not path.exists():
            return
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):       # cut short by a stop: drop the unfinished line
            data = data[:data.rfind(b"\n") + 1]
            with path.open("r+b") as f:
                f.truncate(len(data))
        for line in data.decode("utf-8").splitlines():
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError:              # a line cut short by a stop: that block is played again
                continue
            self.on_disk.setdefault(tuple(rec["setting"]), []).append(rec)

    def _save(self, setting: tuple, block: int, sums: dict) -> None:
        """One line per block, written whole (a stop between blocks loses nothing kept)."""
        if self.folder is None:
            return
        rec = {"setting": [_label(v) for v in setting], "block": block,
               "sums": {part: {str(n): f.to_dicts() for n, f in by.items()} for part, by in sums.items()}}
        line = json.dumps(rec) + "\n"
        with self._blocks_file().open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()

    # ------------------------------------------------------------ playing
    def measured(self, setting: tuple) -> Measured:
        return self.cache.setdefault(setting, Measured())

    def extend(self, setting: tuple, blocks: int = 1) -> Measured:
        """Play ``blocks`` more blocks of ``setting`` (its next ones)."""
        m = self.measured(setting)
        for _ in range(blocks):
            sums = self._replayed(setting, m.blocks)
            if sums is None:
                sums = self._play(setting, m.blocks)
                self._save(setting, m.blocks, sums)
            self.counted += self.p.block_games()
            for n in self.p.players:
                m.games[n] = _merge(m.games.get(n), sums["games"][n])
                m.seats[n] = _merge(m.seats.get(n), sums["seats"][n], ["seat"])
                if n in sums.get("strong", {}):
                    m.strong[n] = _merge(m.strong.get(n), sums["strong"][n])
            m.blocks += 1
        return m

    def _replayed(self, setting: tuple, block: int) -> dict | None:
        for rec in self.on_disk.get(tuple(_label(v) for v in setting), []):
            if rec["block"] == block:
                if self.advance is not None:
                    self.advance(self.p.block_games())
                return {part: {int(n): pl.DataFrame(rows) for n, rows in by.items()}
                        for part, by in rec["sums"].items()}
        return None

    def _play(self, setting: tuple, block: int) -> dict:
        """One block of ``setting``: every player count's field and strong
        seats, their chunks handed to the backend together (on a dask cluster
        they play side by side) and folded in the order planned, so that the
        sums are the same to the last digit on any backend."""
        p, g = self.p, self.g
        first = block * p.batch
        out: dict[str, dict[int, pl.DataFrame]] = {"games": {}, "seats": {}, "strong": {}}
        game_metrics, seat_metrics = rule_metrics.game_metrics(g), rule_metrics.seat_metrics(g)
        frame = rule_metrics.game_frame(g)
        tasks = BlockTasks()
        for n, parts in _matchups(p, setting).items():
            for part, m, seat in parts:
                m = Matchup(m.players, m.strategies, m.rules, m.deck, m.game, compile_for=self.compile_for)
                games = p.batch if part == "field" else p.strong_games() // n or 1
                start = first if part == "field" else block * (p.strong_games() // n or 1)
                tasks.add(m, p.seed, start, games, (n, part, seat))
        done = {}
        for res in self.backend.results(tasks, range(len(tasks.spans)), rows=True):
            done[res.index] = res.rows
            if self.advance is not None:
                self.advance(res.games)
        strong_sums: dict[int, pl.DataFrame] = {}
        for i, (n, part, seat) in enumerate(tasks.labels):
            rows = pl.from_arrow(done[i])
            self.played += rows.height // n
            rows = stats.with_win_units(rows, n)
            if part == "field":
                gf = frame(rows, [], n)
                cols = stats.metric_columns(game_metrics) + stats.seat_win_columns(n)
                out["games"][n] = _merge(out["games"].get(n), _sums(gf, cols))
                seat_cols = stats.metric_columns(seat_metrics)
                seat_sums = _sums(rows, seat_cols, ["seat"]).with_columns(pl.col("seat").cast(pl.Int64))
                out["seats"][n] = _merge(out["seats"].get(n), seat_sums, ["seat"])
            else:
                tested = rows.filter(pl.col("seat") == seat)
                strong_sums[n] = _merge(strong_sums.get(n), _sums(tested, ["win_units"]))
        out["strong"].update(strong_sums)
        return out


class BlockTasks:
    """A block's chunks, over several matchups, as a backend plays a run's
    (:meth:`task`, :meth:`span`); ``labels`` say what each chunk is for."""

    def __init__(self):
        self.spans: list[tuple[Matchup, int, int, int]] = []
        self.labels: list[tuple] = []

    def __len__(self) -> int:
        return len(self.spans)

    def add(self, m: Matchup, seed: int, first: int, games: int, label: tuple) -> None:
        done = 0
        while done < games:
            k = min(DEFAULT_CHUNK, games - done)
            self.spans.append((m, seed, first + done, k))
            self.labels.append(label)
            done += k

    def task(self, index: int) -> tuple[Matchup, int, int, int]:
        return self.spans[index]

    def span(self, index: int) -> tuple[int, int]:
        return self.spans[index][2:]


def _sums(frame: pl.DataFrame, cols: list[str], by: list[str] = ()) -> pl.DataFrame:
    if by:
        return stats.sums(frame, list(by), cols)
    return stats.sums(frame.with_columns(pl.lit(0).alias("_all")), ["_all"], cols).drop("_all")


def _merge(a: pl.DataFrame | None, b: pl.DataFrame, by: list[str] = ()) -> pl.DataFrame:
    if a is None:
        return b
    if by:
        return stats.merge(a, b, list(by))
    return pl.concat([a, b]).sum()
