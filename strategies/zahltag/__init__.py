"""zsim's bidders: each module here is one strategy.

A strategy module defines ``NAME``, ``DESCRIPTION``, ``PARAMS`` (a tuple of
``(name, default, low, high, help)``) and two numba functions of the seat's
view (``zsim/strategy.py`` documents the contract):

- ``adjust_nb``: the setup adjustments (``pub[PUB_ROUND] > 0``) and the turn's
  adjustment; returns an action code (``constants.ACT_*``);
- ``bid_nb``: the bid for a revealed job; 0 = pass, else 1..max_bid.

A strategy reads only its own row of ``hand`` plus public facts (everyone's
money, hand sizes and table areas, the stacks, ``demand`` of the rest of the
deck, ``pub``, ``rules``).

The card counts (``hand``, ``left``, ``right`` [P, 4], ``stacks`` [4] and a
job's ``need`` [4]) are int16, so that a row of four is eight bytes:
``zsim.games.zahltag.lanes_nb.lanes_nb`` reads it as one int64, type t in bits
16t..16t+15, and ``zsim.games.zahltag.moves_nb`` compares or sums all four at
once (``lanes_cover_nb``, ``lanes_sum_nb``). Indexing them one by one works as
well. ``pub[PUB_HANDS]`` (every hand's cards together) and
``pub[PUB_KNOWN + seat]`` (what a seat must hold, ``facts_nb.known_nb``) are
kept as lanes too.
"""
