"""The rules options of Wettstreit der Baumeister, validated.

The keys are those of the options table in docs/rules.md (Baumeister part,
following the shared RULES.md); ``--rule key=value`` and a record's ``rules``
object use them. Defaults are the rulebook's, the variant off. Every error is
one line naming the option and the limit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from zsim import rule_options
from zsim.errors import ZsimError
from zsim.rule_options import RuleSpec, check_value, option_pairs

MIN_PLAYERS, MAX_PLAYERS = 2, 4

RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("start_money", "int", 10, 0, 1000, help="Thaler per player at setup"),
    RuleSpec("max_bid", "int", 200, 1, 10_000, help="highest legal bid"),
    RuleSpec("overbid", "choice", "allow", choices=("allow", "forbid"),
             help="allow: a bid may exceed the bidder's purse (insolvency is punished); forbid: it may not"),
    RuleSpec("saboteurs", "int", 5, 0, 20, help="saboteur stones in the reserve at setup"),
    RuleSpec("first_build_min", "int", 3, 1, 10, help="fewest cards in a player's first build"),
    RuleSpec("max_cards_per_build", "int", 3, 1, 10, help="most cards in one build"),
    RuleSpec("saboteur", "choice", "weakest", choices=("weakest", "any"),
             help="weakest: attack the city with the fewest shields (printed); any: the variant with offers"),
    RuleSpec("hand_sabotage_min", "int", 5, 1, 100, help="hand size open to a hand attack"),
    RuleSpec("bonus_middle", "int", 10, 0, 100, help="bonus: a town hall exactly in the middle"),
    RuleSpec("bonus_churches", "int", 5, 0, 100, help="bonus: as many churches left of the town hall as right"),
    RuleSpec("bonus_corners", "int", 5, 0, 100, help="bonus: both corner towers of one value"),
    RuleSpec("max_turns", "int", 500, 1, 100_000, help="turn cap: the final round starts after this turn"),
)
SPEC_BY_KEY = {s.key: s for s in RULE_SPECS}


@dataclass(frozen=True)
class Rules(rule_options.GameRules):
    SPECS: ClassVar[dict] = SPEC_BY_KEY

    start_money: int = 10
    max_bid: int = 200
    overbid: str = "allow"
    saboteurs: int = 5
    first_build_min: int = 3
    max_cards_per_build: int = 3
    saboteur: str = "weakest"
    hand_sabotage_min: int = 5
    bonus_middle: int = 10
    bonus_churches: int = 5
    bonus_corners: int = 5
    max_turns: int = 500

    def validate(self, players: int | None = None) -> None:
        """Refuse an impossible setup with one line naming the options."""
        for spec in RULE_SPECS:
            check_value(spec, getattr(self, spec.key))
        if self.first_build_min > self.max_cards_per_build:
            raise ZsimError(f"rule first_build_min={self.first_build_min} is above max_cards_per_build="
                            f"{self.max_cards_per_build}: no first build could be made")
        if players is not None and (type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ZsimError(f"Wettstreit der Baumeister takes {MIN_PLAYERS}..{MAX_PLAYERS} players, "
                            f"not {players!r}")

    @property
    def forbid_overbid(self) -> bool:
        return self.overbid == "forbid"

    @property
    def any_saboteur(self) -> bool:
        return self.saboteur == "any"



def parse_rule_options(options, base: Rules | None = None, players: int | None = None) -> Rules:
    """``["key=value", ...]`` (a command line's ``--rule``s) into validated :class:`Rules`."""
    rules = (base or Rules()).with_overrides(option_pairs(options, SPEC_BY_KEY))
    rules.validate(players)
    return rules
