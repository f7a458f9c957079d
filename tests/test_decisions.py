"""The decision count behind `zsim bench`'s decisions/s: how many times a game
asks a seat's strategy to choose, as each reference engine counts it."""
from __future__ import annotations

import pytest

from zsim.games import get_game
from zsim.harness.chunks import Matchup


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strategy", ["simple", "random"])
def test_zahltag_decisions_are_the_records_adjustments_and_bids(players, strategy):
    """Zahltag asks every seat still in for each setup and turn adjustment and for
    each bid: the record, written at its own places, holds every one of them."""
    from zsim.games.zahltag.reference import play_reference
    from zsim.games.zahltag.rules import Rules
    from zsim.games.zahltag.deck import default_deck

    for game in range(8):
        r = play_reference(players, Rules(), default_deck(), [strategy] * players, 5, game, record=True)
        asked = sum(1 for e in r.events if e["e"] in ("setup", "adjust"))
        asked += sum(b is not None for e in r.events if e["e"] == "bids" for b in e["bids"])
        assert r.decisions == asked > players


@pytest.mark.parametrize("name", ["zahlemann", "baumeister"])
@pytest.mark.parametrize("players", [2, 4])
def test_decisions_count_every_question_put_to_a_strategy(monkeypatch, name, players):
    import importlib

    decider = importlib.import_module(f"zsim.games.{name}.reference_bots").StrategyDecider
    decide, asked = decider.decide, []

    def counting(self, game, seat, kind, options):      # keeps every question's options
        asked.append((kind, tuple(options)))
        return decide(self, game, seat, kind, options)

    monkeypatch.setattr(decider, "decide", counting)
    spec = get_game(name)
    for strategy in ("first", "random"):
        m = Matchup(players, (strategy,) * players, game=name)
        for game in range(6):
            asked.clear()
            assert spec.reference_decisions(m, 3, game) == len(asked) > 0
            if name == "baumeister":     # a lone option is taken without asking (a bid may pass: 0)
                for kind, options in asked:
                    assert kind == "bid" or (options[0] < options[1] if kind in ("open", "offer")
                                             else len(options) > 1), (kind, options)
