"""``zsim view RECORD --out DIR``: each game of a record as a page of its own
(``zsim/viewer.py`` gathers, ``zsim/viewer_page.py`` writes), and an index.
Private: the command line and the API reach it through ``zsim.api``.

A game is shown only as zsim deals it: the record's start line gives the
game, the players, the rules, the seed and the game's number; its decisions
are replayed from the start line's ``script`` (a game played with ``zsim
play``) or found by playing the seats' bots again; and the record zsim
writes for those decisions must be the file's, event for event (the
searches' statistics and the strategies' names aside). A record edited by
hand, or dealt from another deck, is refused in one line naming where the
two part. The folder is written whole or not at all.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from zsim.errors import ZsimError

#: keys a record may carry that the game itself does not write
NOT_COMPARED = ("search", "strategies", "script")


def check_out(out) -> Path:
    path = Path(out)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise ZsimError(f"--out {path} exists and is not an empty folder; give a new one "
                        f"(zsim view never writes over files)")
    if not path.absolute().parent.is_dir():
        raise ZsimError(f"--out {path}: its folder {path.absolute().parent} does not exist")
    return path


def check_options(record, out, continuations, hint, hint_iterations, threshold, games, quiet):
    """Every argument checked, each refusal one line naming its option: (record, out folder, the rest)."""
    from zsim._api_inputs import flag, path_arg, real, whole, word
    from zsim.harness.trace import MAX_CONTINUATIONS

    record = path_arg(record, "RECORD", none_ok=False)
    out = path_arg(out, "--out", none_ok=False)
    continuations = whole(continuations, "--continuations", 0, MAX_CONTINUATIONS)
    hint = word(hint, "--hint")
    hint_iterations = whole(hint_iterations, "--hint-iterations", 0, 1 << 20)
    threshold = real(threshold, "--threshold")
    if not 0.5 <= threshold < 1:
        raise ZsimError(f"--threshold must be at least 0.5 and below 1, got {threshold:g}")
    games = whole(games, "--games", 1, none_ok=True)
    flag(quiet, "quiet")
    return record, check_out(out), continuations, hint, hint_iterations, threshold, games


def matchup_of(record):
    """(matchup, seed, game number, script or None, the people's seats) from a
    game of a record file (``zsim.record_files.GameRecord``)."""
    from zsim.harness.chunks import Matchup
    from zsim.record_files import game_of

    g = game_of(record)
    start = record.events[0]
    where = record.where(0, "start")
    for key in ("players", "seed", "game", "rules", "strategies"):
        if key not in start:
            raise ZsimError(f"{where}: the start event has no {key!r}; zsim view deals the game again from it")
    players, seed, game = start["players"], start["seed"], start["game"]
    for key, value in (("players", players), ("seed", seed), ("game", game)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ZsimError(f"{where}: the start event's {key} {value!r} is not a whole number")
    if not g.min_players <= players <= g.max_players:
        raise ZsimError(f"{where}: {players} players is outside {g.min_players}..{g.max_players} for {g.name}")
    try:
        rules = g.rules_from_dict(start["rules"])
    except ZsimError as exc:
        raise ZsimError(f"{where}: {exc}") from None
    strategies = start["strategies"]
    if not (isinstance(strategies, list) and len(strategies) == players and all(isinstance(s, str) for s in strategies)):
        raise ZsimError(f"{where}: the start event's strategies are not {players} names")
    people = tuple(s for s, name in enumerate(strategies) if name == "person")
    script = start.get("script")
    if people and script is None:
        raise ZsimError(f"{where}: a person played seat {people[0]} but the start event keeps no script "
                        f"of the game's decisions")
    if script is not None:
        if not (isinstance(script, list) and all(isinstance(r, list) and len(r) == 3 and
                                                  all(isinstance(v, int) for v in r) for r in script)):
            raise ZsimError(f"{where}: the start event's script is not a list of [seat, kind, option] rows")
    return Matchup(players, tuple(strategies), rules, None, g.name), seed, game, script, people


def compare(record, events: list[dict]) -> None:
    """Refuse a record that is not, event for event, the one zsim writes for its game."""
    def bare(e):
        return {k: v for k, v in e.items() if k not in NOT_COMPARED}
    for k, (mine, theirs) in enumerate(zip(events, record.events)):
        if bare(mine) != bare(theirs):
            keys = sorted(set(bare(mine)) | set(bare(theirs)))
            key = next((x for x in keys if mine.get(x) != theirs.get(x)), "?")
            raise ZsimError(f"{record.where(k, theirs.get('e'))}: the record's {key!r} is not what zsim deals for "
                            f"its seed and game (edited, or dealt from another deck): zsim view shows only games it "
                            f"can deal again")
    if len(events) != len(record.events):
        raise ZsimError(f"{record.where()}: the record has {len(record.events)} events where zsim writes "
                        f"{len(events)} for its game")


def game_page(record, game_of_record, continuations: int, hint: str, hint_iterations: int, threshold: float,
              back: str | None):
    """The page of one game of a record (``game_of_record``: its :func:`matchup_of`): (its HTML, its
    one-line answer)."""
    from analyses.drama import game_measures
    from analyses.report_parts import rule_texts
    from zsim import viewer, viewer_page

    matchup, seed, game, script, people = game_of_record
    try:
        data, events = viewer.game_data(matchup, seed, game, script=script, people=people,
                                        continuations=continuations, hint=hint, hint_iterations=hint_iterations,
                                        with_record=True)
    except ZsimError as exc:
        raise ZsimError(f"{record.where()}: {exc}") from None
    compare(record, events)
    meta = [viewer_page.seats_line(data, rule_texts(matchup.rules, matchup.spec.default_rules()),
                                   f"From {os.path.basename(record.name)}, game {record.number}."),
            viewer_page.estimate_line(data, people)]
    return viewer_page.render(data, game_measures, threshold, meta, people, back)


def view(record: str, out, *, continuations: int = 64, hint: str = "ismcts", hint_iterations: int = 256,
         threshold: float = 0.9, games: int | None = None, quiet: bool = True) -> list[Path]:
    """Write each game of ``record`` (the first ``games``) as a page under
    ``out``, with ``index.html``; returns the pages' paths, the index first."""
    from zsim import viewer_page
    from zsim.harness.table import check_hint
    from zsim.record_files import RecordFile, advancing

    record, path, continuations, hint, hint_iterations, threshold, games = check_options(
        record, out, continuations, hint, hint_iterations, threshold, games, quiet)
    source = RecordFile(record)
    source.check()
    total = games
    if total is None and source.path != "-":
        total = source.count()
    pages: list[tuple[str, str, str, str]] = []       # (file name, page, link text, first line)
    with advancing(total or 0, "viewing", quiet=quiet or not total) as advance:
        for rec in source:
            if games is not None and len(pages) >= games:
                break
            found = matchup_of(rec)
            matchup, seed, game, _, _ = found
            check_hint(hint, matchup.game)            # before the game is played again
            name = f"{matchup.game}-seed{seed}-game{game}.html"
            if any(p[0] == name for p in pages):
                name = name.replace(".html", f"-{rec.number}.html")
            html, line = game_page(rec, found, continuations, hint, hint_iterations, threshold, back="index.html")
            pages.append((name, html, f"{matchup.spec.title}, {matchup.players} players: seed {seed}, game {game}",
                          line))
            advance(1)
    title = f"{len(pages)} game{'s' if len(pages) != 1 else ''} of {os.path.basename(source.name)}"
    index = viewer_page.index(title, [(n, text, line) for n, _, text, line in pages],
                              ["Each page steps through one game move by move, with each seat's view and its "
                               "chance of winning after every move."])
    parent = path.absolute().parent
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=parent))
    try:
        mask = os.umask(0)
        os.umask(mask)
        tmp.chmod(0o777 & ~mask)          # a folder as any other the user makes, not mkdtemp's private one
        (tmp / "index.html").write_text(index, encoding="utf-8")
        for name, html, _, _ in pages:
            (tmp / name).write_text(html, encoding="utf-8")
        if path.exists():
            path.rmdir()               # empty: checked above
        tmp.rename(path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return [path / "index.html", *(path / name for name, _, _, _ in pages)]
