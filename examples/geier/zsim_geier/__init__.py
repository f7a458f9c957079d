"""Hol's der Geier (Alex Randolph, 1988) for zsim, plugged in from outside zsim.

Each player holds the bid cards 1..15; one prize card is turned up a
round, everyone bids one card at once, tied bids cancel, and the highest
lone bid takes a mouse (a positive prize), the lowest lone bid a vulture (a
negative one). The rulings are in this package's README.md, the record
format in TRACE.md beside it.

Modules, laid out as zsim's built-in games are:

* :mod:`.game` — the game object zsim's registry loads (entry point ``zsim.games``);
* :mod:`.rules` — the rules options (a frozen dataclass), validation, parsing;
* :mod:`.cards` — the prize and bid cards as the reference engine names them;
* :mod:`.reference` — the plain-Python reference engine (plays and replays);
* :mod:`.reference_bots` — a seat's view and the reference engine's own bots;
* :mod:`.reference_kernels` — the reference engine asking the compiled strategies;
* :mod:`.replay`, :mod:`.records`, :mod:`.telling` — records read back, refereed, told;
* :mod:`.constants`, :mod:`.hand_nb`, :mod:`.engine_nb`, :mod:`.batch_nb`, :mod:`.batch` —
  the fast numba engine;
* :mod:`.forward_nb` — the game one decision at a time (zsim's forward-model contract);
* :mod:`.strategies` — the strategies (entry points ``zsim.strategies.geier``);
* :mod:`.analyses` — where the game's analyses and report plan will go.
"""
