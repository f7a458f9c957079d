"""The playing half of ``zsim play``: the table set and checked before it
opens, the Textual app run, and the record written whole at the end
(``zsim/play_app.py``). Private: the command line reaches it through
``zsim.api``."""
from __future__ import annotations

import json
from pathlib import Path

from zsim.errors import ZsimError


def prepare(game: str, players: int | None, seat: int, bots: str | None, rules, seed: int, deal: int, hint: str,
            iterations: int, out: str | None, numbered: bool = False):
    """The table and the record's path, every option checked before anything starts.
    ``numbered``: an existing record is no refusal; the game's record goes to
    the first free name of FILE, FILE-2, FILE-3... when it ends (a served
    table: one record per browser session)."""
    from analyses.common import field_specs
    from zsim._api_inputs import game_of, game_rules
    from zsim.harness.chunks import Matchup
    from zsim.harness.forward import forward_model
    from zsim.harness.table import Table

    g = game_of(game)
    n = g.default_players if players is None else int(players)
    if not g.min_players <= n <= g.max_players:
        raise ZsimError(f"--players {n} is outside {g.min_players}..{g.max_players} for {g.name}")
    if not 0 <= seat < n:
        raise ZsimError(f"--seat {seat} is not a seat of a {n}-player game (0..{n - 1})")
    if not 1 <= iterations <= 1 << 20:
        raise ZsimError(f"--hint-iterations must be 1..{1 << 20}, got {iterations}")
    if deal < 0:
        raise ZsimError(f"--deal must be 0 or more, got {deal}")
    model = forward_model(g.name)
    if not hasattr(model, "describe"):
        raise ZsimError(f"{g.name}'s forward model cannot show a seat its table yet, so it cannot be played here")
    others = field_specs(bots or g.strategies.best_bot or g.strategies.default, n - 1, g.name)
    specs = others[:seat] + [g.strategies.default] + others[seat:]
    m = Matchup(n, tuple(specs), game_rules(g, rules, n), None, g.name)
    path = Path(out) if out else Path(f"zsim-play-{g.name}-seed{seed}-deal{deal}.jsonl")
    if path.exists() and not numbered:
        raise ZsimError(f"--out {path} exists; give another file (zsim never writes over a record)")
    if not path.parent.exists():
        raise ZsimError(f"--out {path}: its folder {path.parent} does not exist")
    return Table(m, seed, deal, people=(seat,), hint=hint), path


def free_path(path: Path) -> Path:
    """``path``, or the first of path-2, path-3... (before the suffix) that does not exist."""
    n, free = 1, path
    while free.exists():
        n += 1
        free = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return free


def write_record(table, path: Path, numbered: bool = False) -> str:
    """The game's record to ``path`` (with ``numbered``, the first free name
    like it), whole or not at all, at the game's end; the line that says so."""
    events = table.record()
    if numbered:
        path = free_path(path)
    part = path.with_name(path.name + ".part")
    part.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    part.replace(path)
    return f"the record: {path}"


def play_in_terminal(game, players, seat, bots, rules, seed, deal, hint, iterations, out,
                     numbered: bool = False) -> list[str] | None:
    """Play one game at the terminal; the lines to print at the end, or None
    when the person left before it (nothing written)."""
    from zsim.play_app import PlayApp, summary

    table, path = prepare(game, players, seat, bots, rules, seed, deal, hint, iterations, out, numbered)
    written = []
    app = PlayApp(table, seat, iterations, on_end=lambda: written.append(write_record(table, path, numbered))
                  or written[-1])
    app.run()
    if not app.finished:
        return None
    places = table.places()
    return [f"you finished {places[seat]} of {len(places)}; {written[-1]}", *summary(app.choices, iterations)]


def command_line(game, players, seat, bots, rules, seed, deal, hint, iterations, out) -> list[str]:
    """The ``zsim play`` command that plays this table in a terminal (what ``--serve`` runs per browser)."""
    import sys

    args = [sys.executable, "-m", "zsim.cli", "play", "--game", game, "--seat", str(seat), "--seed", str(seed),
            "--deal", str(deal), "--hint", hint, "--hint-iterations", str(iterations)]
    if players is not None:
        args += ["--players", str(players)]
    if bots:
        args += ["--bots", bots]
    for r in rules or ():
        args += ["--rule", r]
    if out:
        args += ["--out", str(out)]
    return args


def serve(game, players, seat, bots, rules, seed, deal, hint, iterations, out, host: str, port: int,
          announce=print) -> None:
    """Serve the table in a browser (textual-serve) until Ctrl-C: each page
    opened runs ``zsim play`` with these options, as a terminal would. The
    options are checked first, as for a terminal; a port that cannot be
    opened is one line."""
    import shlex

    from textual_serve.server import Server

    if not 1 <= int(port) <= 65535:
        raise ZsimError(f"--port must be 1..65535, got {port}")
    _, path = prepare(game, players, seat, bots, rules, seed, deal, hint, iterations, out, numbered=True)
    _check_port(host, int(port))
    command = shlex.join(command_line(game, players, seat, bots, rules, seed, deal, hint, iterations, str(path))
                         + ["--numbered"])
    server = Server(command, host=host, port=int(port), title=f"zsim play --game {game}")
    announce(f"zsim play is served at http://{host}:{port}: each page opened plays the deal and writes its record "
             f"to {path} (then {path.stem}-2{path.suffix}, ...); Ctrl-C stops")
    try:
        server.serve()
    except OSError as exc:
        raise ZsimError(f"--port {port}: cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def _check_port(host: str, port: int) -> None:
    """Refuse, before announcing anything, a port this machine will not let us listen on."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ZsimError(f"--host {host}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            raise ZsimError(f"--port {port}: cannot serve on {host}:{port}: {exc.strerror or exc}") from None

