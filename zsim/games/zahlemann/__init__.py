"""Zahlemann & Söhne: a shedding game paid in coins (2–4 players, 36 cards).

Players shed cards that match the top discard by value or colour; the first
to empty their hand wins the round and every other player pays the value of
the cards left in their hand, in coins, with change made (or not) as the
rules say. The game ends after a round that bankrupts someone, or at the
round cap. The rules are ``docs/rules.md`` (Zahlemann part), which follows the
shared ``RULES.md``; the game record is the shared ``TRACE.md``.

Modules, each usable alone:

* :mod:`.cards` — the 36 cards, their codes, canonical order, matching;
* :mod:`.rules` — the rules options (a frozen dataclass), validation, parsing;
* :mod:`.payment` — pure functions for every payment and change rule;
* :mod:`.strategies` — seat views, the decider interface, built-in strategies;
* :mod:`.reference` — the plain-Python reference engine (plays and replays);
* :mod:`.replay` — reading a record back as chance and decisions, checked;
* :mod:`.records` — JSON-lines records: write, read, referee;
* :mod:`.scenario` — stacked decks and scripted decisions for hand-made games.

A fast (numba) engine must reproduce the reference engine draw for draw; the
randomness layout is in :mod:`.reference`'s docstring and docs/rules.md.
"""
