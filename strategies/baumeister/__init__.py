"""Wettstreit der Baumeister's built-in strategies: one module each, with a
``decide_nb`` kernel (see ``zsim/games/baumeister/constants.py`` for what it
is given and may read)."""
