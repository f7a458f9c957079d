"""The playing half of ``zsim play``: the table set and checked before it
opens, the Textual app run, and the record written whole at the end
(``zsim/play_app.py``). Private: the command line reaches it through
``zsim.api``."""
from __future__ import annotations

import json
from pathlib import Path

from zsim.errors import ZsimError


def prepare(game: str, players: int | None, seat: int, bots: str | None, rules, seed: int, deal: int, hint: str,
            iterations: int, out: str | None):
    """The table and the record's path, every option checked before anything starts."""
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
    if path.exists():
        raise ZsimError(f"--out {path} exists; give another file (zsim never writes over a record)")
    if not path.parent.exists():
        raise ZsimError(f"--out {path}: its folder {path.parent} does not exist")
    return Table(m, seed, deal, people=(seat,), hint=hint), path


def play_in_terminal(game, players, seat, bots, rules, seed, deal, hint, iterations, out) -> list[str] | None:
    """Play one game at the terminal; the lines to print at the end, or None
    when the person left before it (nothing written)."""
    from zsim.play_app import PlayApp, summary

    table, path = prepare(game, players, seat, bots, rules, seed, deal, hint, iterations, out)
    app = PlayApp(table, seat, iterations)
    app.run()
    if not app.finished:
        return None
    events = table.record()
    part = path.with_name(path.name + ".part")          # whole or not at all
    part.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    part.replace(path)
    places = table.places()
    return [f"you finished {places[seat]} of {len(places)}; the record: {path}", *summary(app.choices, iterations)]
