"""zsim's bidders: each module here is one strategy.

A strategy module defines ``NAME``, ``DESCRIPTION``, ``PARAMS`` (a tuple of
``(name, default, low, high, help)``) and two numba functions of the seat's
view (``zsim/strategy.py`` documents the contract):

- ``adjust_nb``: the setup adjustments (``pub[PUB_ROUND] > 0``) and the turn's
  adjustment; returns an action code (``constants.ACT_*``);
- ``bid_nb``: the bid for a revealed job; 0 = pass, else 1..max_bid.

A strategy reads only its own row of ``hand`` and public facts.
"""
