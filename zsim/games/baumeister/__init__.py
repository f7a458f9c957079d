"""Wettstreit der Baumeister: auctions, city building and saboteurs (2–4 players, 40 cards).

Every turn a player collects income by the die (and the coins of their city
gates), auctions the top card of the open or the hidden stack (half the
price goes to them, the rest to the bank), then builds up to three cards
into their city or sends a saboteur. The game ends when a stack runs out;
after a final round of building, cities score their values, three bonuses
for complete cities, less the cards left in hand. The rules are
``docs/rules.md`` (Baumeister part), following the shared ``RULES.md``; the
record is the shared ``TRACE.md``.

Modules: :mod:`.cards` (the building cards, ``--deck``), :mod:`.rules`,
:mod:`.city` (a row's building rules and scoring), :mod:`.strategies` (the
decisions and the reference strategies), :mod:`.reference` (the plain-Python
engine, which also replays records).
"""
