"""Options several ``zsim`` commands share.

They live here, not in :mod:`zsim.cli`, so that command modules can import
them while ``python -m zsim.cli`` is still importing the CLI itself.
"""
from __future__ import annotations

import click

PLAYERS = click.option("--players", "-p", type=int, default=4, show_default=True,
                       help="players at the table (2..4)")
SEED = click.option("--seed", "-s", type=int, default=0, show_default=True, help="run seed")
STRATEGIES = click.option("--strategies", default=None,
                          help="strategy per seat, comma-separated (one name fills every seat) "
                               "[default: simple]")
RULE = click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
                    help="override a rule (repeatable); see `zsim rules`")
DECK = click.option("--deck", default=None, metavar="FILE", help="job deck CSV [default: jobs.csv]")
QUIET = click.option("--quiet", "-q", is_flag=True,
                     help="no progress bar or warnings on stderr (errors and Ctrl-C still say so)")
THREADS = click.option("--threads", type=int, default=None, help="numba threads [default: all cores]")


def check_given(value: str | None, option: str) -> str | None:
    """``value`` of a path option, refusing an empty one (``--out ''`` would
    otherwise quietly write nothing)."""
    if value is not None and not value.strip():
        from zsim.errors import ZsimError

        raise ZsimError(f"{option} is empty; give a file or folder name")
    return value


GAME = click.option("--game", "-g", "game", default="zahltag", show_default=True, metavar="NAME",
                    help="the game to play (`zsim games` lists them)")


def game_of(name: str):
    """The game object for ``--game`` (one line naming the known games otherwise)."""
    from zsim.games import get_game

    return get_game(name)


def check_players(game, players: int) -> int:
    from zsim.errors import ZsimError

    if not game.min_players <= players <= game.max_players:
        raise ZsimError(f"--players must be {game.min_players}..{game.max_players}, got {players}"
                        + ("" if game.name == "zahltag" else f" ({game.title} takes "
                           f"{game.min_players}..{game.max_players})"))
    return players


def game_rules(game, options, players: int | None = None):
    """``--rule`` options for ``game``: a key of another game is named as such,
    with this game's keys."""
    from zsim.errors import ZsimError
    from zsim.games import game_names, get_game

    own = {s.key for s in game.rule_specs}
    for item in options:
        key = str(item).partition("=")[0].strip()
        if key and key not in own:
            owners = [other for other in game_names()
                      if other != game.name and key in {s.key for s in get_game(other).rule_specs}]
            if owners:
                raise ZsimError(f"rule key {key!r} belongs to {' and '.join(owners)}, not to {game.name} "
                                f"({game.name}'s keys: {', '.join(s.key for s in game.rule_specs)})")
    return game.parse_rules(options, players)


def game_deck(game, deck: str | None):
    """``--deck`` for ``game`` (refused for a game without one)."""
    from zsim.errors import ZsimError

    if not game.has_deck:
        if deck is not None:
            raise ZsimError(f"{game.name} has no --deck: it always plays its own cards")
        return None
    return game.load_deck(deck)


def make_matchup(game_name: str, players: int, strategies: str | None, rules, deck: str | None):
    """The matchup a command's ``--game --players --strategies --rule --deck`` describe."""
    from zsim.runner import Matchup
    from zsim.strategy_registry import parse_strategies

    game = game_of(game_name)
    check_players(game, players)
    rule_set = game_rules(game, rules, players)
    deck_obj = game_deck(game, deck)
    return Matchup(players, tuple(parse_strategies(strategies, players, game.name)), rule_set, deck_obj,
                   game.name)
