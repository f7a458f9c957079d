"""The bots of Wettstreit der Baumeister's analyses unless a command names others: the field
of every analysis, and the two sides of the skill figures (strategy specs). The help of the
analyses (analyses/baumeister/specs.py) and the analyses themselves (measure.py) read them here."""

FIELD = "budget"
SKILLED = "budget"
WEAK = "value"
