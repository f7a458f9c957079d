"""zsim's built-in strategies, one package per game.

``strategies.<game>`` holds the bots of that game, one module each; the
game's strategy contract (which numba kernels a module defines and what a
fair one may read) is in that package's docstring and in
``zsim/games/<game>/game.py``. Modules whose name starts with ``_`` are
helpers, not strategies.
"""
