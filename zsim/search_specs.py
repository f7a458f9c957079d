"""The searches every game with a forward model has, as strategy registry
entries: ``ismcts``, ``pimc`` and ``seer`` (``zsim/harness/search_nb.py``
plays them; ``zsim/harness/stepping.py`` plays their chunks).

Their parameters: ``iterations`` (the budget: a count, never a clock), ``c``
(UCB's exploration constant for shares of first place, which lie in 0..1),
``rollout`` (the game's bot that plays every iteration's game out), for a
game with a value estimate ``horizon`` (the rollout's decisions before the
estimate scores the position; 0 plays to the end), ``widen`` (progressive
widening: the options a node offers before its visits widen it) and, for
``pimc``, ``worlds``. This module sits below the registry, which lists them
after each game's own bots so that no bot's id moves.
"""
from __future__ import annotations

from zsim.game_registry import get_game
from zsim.strategy import Param

ISMCTS, PIMC, SEER = 0, 1, 2
#: the default budget: iterations per decision
ITERATIONS = 1000
C = 0.7
WORLDS = 10

SEARCHES = (
    ("ismcts", ISMCTS, True,
     "information-set MCTS over the forward model: a fresh deal from the seat's view every iteration"),
    ("pimc", PIMC, True,
     "perfect-information Monte Carlo: `worlds` deals from the seat's view, each searched as if it were true"),
    ("seer", SEER, False, "MCTS on the true position: every hand and the deck order in sight"),
)


def search_entries(game: str, bots: list[str]) -> list[tuple[str, int, bool, str, tuple[Param, ...]]]:
    """(name, mode, fair, description, parameters, the game's common ones first)
    of each search of ``game``; ``bots``: its bots' names, the rollout's choices."""
    contract = get_game(game).strategies
    rollout = contract.rollout or contract.default
    choices = tuple(bots)
    own = (Param("iterations", float(ITERATIONS), 1.0, 1_000_000.0, "search iterations per decision", tuned=False),
           Param("c", C, 0.0, 10.0, "UCB exploration constant"),
           Param("rollout", float(choices.index(rollout)), 0.0, float(len(choices) - 1),
                 "the bot that plays each iteration's game out", choices, tuned=False))
    if contract.horizon > 0:
        own += (Param("horizon", float(contract.horizon), 0.0, 1_000_000.0,
                      "rollout decisions before the game's value estimate scores the position (0: to the end)",
                      tuned=False),)
    own += (Param("widen", float(contract.widen), 1.0, 1_000_000.0,
                  "options a node offers before its visits widen it (at most max(widen, sqrt(visits)))", tuned=False),)
    out = []
    for name, mode, fair, description in SEARCHES:
        params = own + ((Param("worlds", float(WORLDS), 1.0, 10_000.0, "deals searched, each as if true", tuned=False),)
                        if mode == PIMC else ())
        out.append((name, mode, fair, description, contract.common_params + params))
    return out
