"""Zahlemann & Söhne's strategies: each module here is one strategy.

A strategy module defines ``NAME``, ``DESCRIPTION``, ``PARAMS`` (a tuple of
``(name, default, low, high, help)``; the registry puts the common ``forget``
parameter in front of them), optionally ``FAIR`` (default True) and one numba
kernel, decorated ``zsim.jit.hot_inline``::

    decide_nb(seat, kind, options, params, hands, passed, discards, money, pub, rules, rng) -> int64

Cards are the ints ``6 * value_index + colour_index`` (0..35, canonical
order), sets of cards int64 bitmasks (bit c = card c); every slot named below
is in ``zsim/games/zahlemann/constants.py``.

- ``kind``: ``D_PLAY`` (0): the seat holds a matching card and must play one
  of ``options``; ``D_DRAWN`` (1): the no_match draw matched: play it or keep
  it; ``D_BONUS`` (2): ``one_plays_again``, after a 1: play one of
  ``options`` or stop.
- ``options``: the bitmask of the cards that may be played. The answer is a
  card whose bit is in ``options``, or -1 (``KEEP``/``STOP``), which is only
  allowed for ``D_DRAWN`` and ``D_BONUS``. The engine checks every answer;
  an illegal one stops the game and is reported as an error.
- ``params``: the seat's float64 row: ``params[0]`` is ``forget`` (the chance
  of forgetting to announce; the engine draws the announcement itself), the
  strategy's own ``PARAMS`` follow from index 1.
- ``hands``: int64[P] hand bitmasks; ``passed``: int64[P], the hand each seat
  most recently passed on this round (``two_passes_hands``; 0 if none).
- ``discards``: int64[36], the discard pile bottom first;
  ``discards[pub[PUB_N_DISCARDS] - 1]`` is the top.
- ``money``: int64[P, 7]: per seat the coins of 50, 20, 10, 5, 2, 1, then the
  total value (under ``money=total`` only column 6 is set).
- ``pub``: the public scalars ``PUB_*`` (top card, round, turn, starter, pile
  sizes, players, whose turn, ..., and ``PUB_DISCARDED``, the discard pile's
  cards as one bitmask); ``rules``: the int64 rules array ``R_*``.
- ``rng``: the game's uint64 stream states; a strategy draws only from
  stream ``1 + seat`` (``zsim.rng.below_nb(rng, 1 + seat, n)``).

A fair strategy reads only ``hands[seat]`` and ``passed[seat]`` of the hidden
facts (other hands' sizes are public: their popcounts); one that reads more
sets ``FAIR = False`` and is a labelled baseline, never a fair result.

The strategies (docs/strategies.md measures each; ``zsim strategies --game
zahlemann`` lists their parameters); shared helpers are in ``_card_odds.py``:

- ``random``: uniform over the options (a noise floor);
- ``first``: always the lowest playable card;
- ``shedder``: the highest-valued card; ``flex`` trades value for cover;
- ``flexible``: the card whose loss keeps the hand matching the most unknown cards;
- ``counter``: the card the next player is least likely to match, most of all
  when they are nearly out (from the discards, hand sizes and passed hands);
- ``variant``: plays the variants on purpose (a 1 that plays again, a 50 that
  skips a rival nearly out, a 2 that passes a dear hand), else sheds;
- ``keeper``: sheds, but keeps a cheap drawn match or stops a bonus when the
  old top blocks the next player better;
- ``oracle`` (not fair): ``counter`` reading the other hands, an upper bound.
"""
