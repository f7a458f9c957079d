"""Where Hol's der Geier's analyses and report plan will go (none yet).

zsim's analyses registry (``Game.analyses``) names a module of analysis and
report specs; once they are written here, ``zsim_geier.game.Geier.analyses``
names that module and ``zsim analyze --game geier`` and ``zsim report --game
geier`` run them. Until then the game has no analyses.
"""
