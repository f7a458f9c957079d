"""The bots of Wettstreit der Baumeister's analyses unless a command names others: the field
of every analysis, and the two sides of the bot edge (strategy specs): a heuristic bot in one
seat among weak ones, whose win share above par is its edge over weak play, not the game's
skill. The help of the analyses (analyses/baumeister/specs.py) and the analyses themselves
(measure.py) read them here."""

FIELD = "budget"
SKILLED = "budget"
WEAK = "value"
