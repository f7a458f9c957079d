"""The rules options of Hol's der Geier: the deck's size and the carry-over, validated.

The keys serve ``--rule key=value`` on a command line (``zsim rules --game
geier`` lists them) and the ``rules`` object of a game record. Defaults are
the published game's: five vulture cards -5..-1, mice 1..10, ties carried
over. Every error is a :class:`~zsim.errors.ZsimError` of one line naming
the option and the limit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from zsim import rule_options
from zsim.errors import ZsimError
from zsim.rule_options import RuleSpec, check_value, option_pairs

MIN_PLAYERS, MAX_PLAYERS = 2, 4

RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("carry_over", "bool", True,
             help="a fully tied prize stays on the table and goes with the next card (false: discarded)"),
    RuleSpec("top_prize", "int", 10, 5, 15,
             help="the highest mouse card: the positive prizes are 1..top_prize"),
    RuleSpec("vultures", "int", 5, 0, 10,
             help="the vulture cards -vultures..-1 (0: none); each hand holds the bids "
                  "1..vultures+top_prize"),
)
SPEC_BY_KEY = {s.key: s for s in RULE_SPECS}


@dataclass(frozen=True)
class Rules(rule_options.GameRules):
    SPECS: ClassVar[dict] = SPEC_BY_KEY

    carry_over: bool = True
    top_prize: int = 10
    vultures: int = 5

    def validate(self, players: int | None = None) -> None:
        """Refuse an impossible setup with one line naming the option and the limit."""
        for spec in RULE_SPECS:
            check_value(spec, getattr(self, spec.key))
        if players is not None and (type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ZsimError(f"Hol's der Geier takes {MIN_PLAYERS}..{MAX_PLAYERS} players, not {players!r}")

    @property
    def n_prizes(self) -> int:
        """Prize cards in the deck: rounds in a game, and bid cards in each hand."""
        return self.vultures + self.top_prize


def parse_rule_options(options, base: Rules | None = None, players: int | None = None) -> Rules:
    """``["key=value", ...]`` (a command line's ``--rule``s) into validated :class:`Rules`."""
    rules = (base or Rules()).with_overrides(option_pairs(options, SPEC_BY_KEY))
    rules.validate(players)
    return rules
