"""``zsim play``: a person at the table against the bots (zsim/play_app.py)."""
from __future__ import annotations

import json
from pathlib import Path

import click

from zsim.cli_options import GAME, RULE, SEED
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


@click.command()
@GAME
@click.option("--players", "-p", type=int, default=None, help="players at the table [default: the game's]")
@click.option("--seat", type=int, default=0, show_default=True, help="your seat (0 plays first)")
@click.option("--bots", default=None, metavar="SPECS",
              help="the other seats' strategies, one for all or a comma list in turn [default: the game's best bot]")
@RULE
@SEED
@click.option("--deal", type=int, default=0, show_default=True,
              help="which game of the seed to deal (the same seed and deal give the same cards)")
@click.option("--hint", default="ismcts", show_default=True, metavar="SPEC", help="the search that gives hints")
@click.option("--hint-iterations", type=int, default=256, show_default=True,
              help="the hint's budget per decision (a count: the same position gives the same hint)")
@click.option("--out", default=None, metavar="FILE",
              help="where the game's record goes [default: zsim-play-GAME-seedS-dealD.jsonl]")
def play(game, players, seat, bots, rules, seed, deal, hint, hint_iterations, out):
    """Play a game against the bots in the terminal.

    You see only what your seat may see. Keys 1-9 (or the list and Enter,
    or the mouse) choose; h asks the search what it would do and what it
    makes of each option; q leaves. No take-backs: --seed and --deal deal
    the same cards again. The record is saved when the game ends, in the
    game's record format (zsim replay reads it)."""
    from zsim.play_app import PlayApp, summary

    table, path = prepare(game, players, seat, bots, rules, seed, deal, hint, hint_iterations, out)
    app = PlayApp(table, seat, hint_iterations)
    app.run()
    if not app.finished:
        click.echo("left before the end: nothing was saved", err=True)
        raise SystemExit(130)
    events = table.record()
    part = path.with_name(path.name + ".part")          # whole or not at all
    part.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    part.replace(path)
    places = table.places()
    click.echo(f"you finished {places[seat]} of {len(places)}; the record: {path}")
    for line in summary(app.choices, hint_iterations):
        click.echo(line)
