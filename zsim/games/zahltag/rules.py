"""The rules config: every number and variant of Zahltag, validated.

Defaults are the rulebook's.  ``--rule key=value`` on the command line and the
``rules`` object of a game record use the keys of :data:`RULE_SPECS`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from zsim.errors import ZsimError
from zsim import rule_options
from zsim.rule_options import RuleSpec, check_value, option_pairs
from zsim.games.zahltag import constants as K


RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("start_money", "int", 20, 0, 10_000, help="money each player starts with (millions)"),
    RuleSpec("payday_cost", "int", 1, 0, 100, help="paid per hand card above the fewest at a payday"),
    RuleSpec("paydays_to_end", "int", 5, 1, 20, help="the game ends right after this payday"),
    RuleSpec("payday_cards", "int", 6, 1, 20, help="payday cards shuffled into the deck"),
    RuleSpec("forced_payday_jobs", "int", 9, 1, 100, help="jobs since the last payday that force one (3-4 players)"),
    RuleSpec("forced_payday_jobs_2p", "int", 8, 1, 100, help="the same for a game started with 2 players"),
    RuleSpec("card_cap", "int", 12, 1, 52, help="most worker cards a player may own (hand + table)"),
    RuleSpec("max_bid", "int", 8, 1, 99, help="highest bid; bids run 1..max_bid"),
    RuleSpec("setup_rounds", "int", 3, 0, 10, help="rounds of setup adjustments"),
    RuleSpec("hand_size", "int", 7, 1, 26, help="worker cards dealt to each player"),
    RuleSpec("tie_discount", "int", 2, 0, 99, help="tied lowest bidders each receive bid minus this"),
    RuleSpec("over_cap", "choice", "forbid", choices=("forbid", "penalize"),
             help="forbid: a take over the cap is illegal; penalize: allowed, 1 to each other player per card over"),
    RuleSpec("payday_counts_table", "bool", False, help="paydays count hand and table cards, not the hand alone"),
    RuleSpec("supply", "ints", K.DEFAULT_SUPPLY, 0, 60, help="worker cards per type F,W,C,E (e.g. 14,16,10,12)",
             length=4, names="F,W,C,E"),
)
SPEC_BY_KEY = {s.key: s for s in RULE_SPECS}


@dataclass(frozen=True)
class Rules:
    start_money: int = 20
    payday_cost: int = 1
    paydays_to_end: int = 5
    payday_cards: int = 6
    forced_payday_jobs: int = 9
    forced_payday_jobs_2p: int = 8
    card_cap: int = 12
    max_bid: int = 8
    setup_rounds: int = 3
    hand_size: int = 7
    tie_discount: int = 2
    over_cap: str = "forbid"
    payday_counts_table: bool = False
    supply: tuple = K.DEFAULT_SUPPLY

    # -------------------------------------------------------------- building
    def with_overrides(self, pairs: dict[str, Any]) -> "Rules":
        """A copy with ``key -> value`` overrides (values may be strings)."""
        return rule_options.with_overrides(self, SPEC_BY_KEY, pairs)

    def validate(self, players: int | None = None) -> None:
        for spec in RULE_SPECS:
            check_value(spec, getattr(self, spec.key))
        if self.paydays_to_end > self.payday_cards:
            raise ZsimError(
                f"rule paydays_to_end={self.paydays_to_end} needs at least that many payday_cards "
                f"(have {self.payday_cards})")
        if self.card_cap < self.hand_size:
            raise ZsimError(f"rule card_cap={self.card_cap} is below hand_size={self.hand_size}")
        if players is not None and players * self.hand_size > sum(self.supply):
            raise ZsimError(
                f"{players} players x hand_size {self.hand_size} needs more than the "
                f"{sum(self.supply)} worker cards of the supply")

    def forced_threshold(self, players: int) -> int:
        return self.forced_payday_jobs_2p if players == 2 else self.forced_payday_jobs

    # -------------------------------------------------------------- views
    def as_dict(self) -> dict[str, Any]:
        """Every rule under its ``--rule`` key (JSON-ready)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def as_array(self) -> np.ndarray:
        """The int64 array kernels read (slots ``constants.R_*``)."""
        a = np.zeros(K.N_RULES, dtype=np.int64)
        a[K.R_START_MONEY] = self.start_money
        a[K.R_PAYDAY_COST] = self.payday_cost
        a[K.R_PAYDAYS_TO_END] = self.paydays_to_end
        a[K.R_PAYDAY_CARDS] = self.payday_cards
        a[K.R_FORCED_JOBS] = self.forced_payday_jobs
        a[K.R_FORCED_JOBS_2P] = self.forced_payday_jobs_2p
        a[K.R_CARD_CAP] = self.card_cap
        a[K.R_MAX_BID] = self.max_bid
        a[K.R_SETUP_ROUNDS] = self.setup_rounds
        a[K.R_HAND_SIZE] = self.hand_size
        a[K.R_TIE_DISCOUNT] = self.tie_discount
        a[K.R_OVER_CAP_PENALIZE] = 1 if self.over_cap == "penalize" else 0
        a[K.R_PAYDAY_COUNTS_TABLE] = 1 if self.payday_counts_table else 0
        a[K.R_SUPPLY:K.R_SUPPLY + 4] = self.supply
        return a

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """Rules from a record's ``rules`` object (unknown keys are refused)."""
        return cls().with_overrides(dict(data))


def parse_rule_options(options: tuple[str, ...] | list[str], base: Rules | None = None,
                       players: int | None = None) -> Rules:
    """``["key=value", ...]`` from the command line into validated :class:`Rules`
    (checked against ``players`` too, when given)."""
    rules = (base or Rules()).with_overrides(option_pairs(options, SPEC_BY_KEY))
    if players is not None:
        rules.validate(players)
    return rules
