"""The harness every game is played through, and which knows no game by name.

``chunks`` (a matchup, one chunk of games played and folded, the summary), ``plan`` and
``runs`` (a run's plan, its run folder, precision stops), ``backends`` (local threads or a
dask cluster), ``tournament``, ``tune`` and ``bench``. It asks a game's object (:mod:`zsim.games`) for everything game-specific; the
package face (:mod:`zsim`, :mod:`zsim.api`) sits above it and nothing here imports that.
What the games' engines call themselves (:mod:`zsim.blocks`, a chunk's games over threads;
:mod:`zsim.jit`, :mod:`zsim.rng`, :mod:`zsim.roster`) lies below the games, outside this folder.
"""
