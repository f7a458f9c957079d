"""Hol's der Geier's strategies: each module here is one strategy, registered
under the entry-point group ``zsim.strategies.geier`` (see ``pyproject.toml``).

A strategy module defines ``NAME``, ``DESCRIPTION``, ``PARAMS`` (a tuple of
``zsim.strategy.Param``), optionally ``FAIR`` (default True) and one numba
kernel, decorated ``zsim.jit.hot_inline``::

    bid_nb(seat, params, hands, won, deck, pub, rules, rng) -> int64

The answer is a bid card of ``hands[seat]``: a value ``b`` in ``1 .. N``
whose bit ``b`` is set. The engine checks every answer; an illegal one stops
the game and is reported as an error. Every slot named below is in
``zsim_geier/constants.py``; ``zsim_geier/hand_nb.py`` has small helpers
(the k-th card of a hand, a prize's value).

- ``params``: the seat's float64 row, its ``PARAMS`` in order.
- ``hands``: int64[P], each seat's bid cards as a bitmask (bit b = card b).
  Every bid is shown once the round's bids are in, so another seat's hand is
  public: it is the cards that seat has not shown.
- ``won``: int64[P], the prizes each seat has taken, a bitmask of prize
  indices (public).
- ``deck``: int64[N], the prize indices in the order they are turned up.
  HIDDEN beyond the cards already turned: ``deck[:pub[PUB_ROUND]]``. A fair
  strategy reads the set of prizes still to come from ``pub[PUB_LEFT]`` and
  never ``deck``.
- ``pub``: the public scalars ``PUB_*`` (the round, the players, the card
  turned up, the table's value and cards, the prizes still to come, the
  carries so far); ``rules``: the int64 rules array ``R_*``.
- ``rng``: the game's uint64 stream states; a strategy draws only from
  stream ``1 + seat`` (``zsim.rng.below_nb(rng, 1 + seat, n)``).

The other seats' bids of the round are not among the arguments: the bids
are sealed, and the engine keeps them apart until every seat has bid.

The strategies:

- ``random``: a card of its hand, uniform (a noise floor);
- ``matcher``: the card of its hand ranked like the stake among the prizes
  still to come;
- ``greedy``: its highest card for a big stake, its lowest otherwise.
"""
