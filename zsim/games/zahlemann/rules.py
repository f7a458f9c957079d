"""The rules options of Zahlemann & Söhne: every number and variant, validated.

The keys are those of the options table in docs/rules.md (and the shared
RULES.md); ``--rule key=value`` on a command line and the ``rules`` object of
a game record use them. Defaults are the rulebook's, variants off. Every
error is a :class:`~zsim.errors.ZsimError` whose message is one line naming
the option and the limit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from zsim.errors import ZsimError
from zsim import rule_options
from zsim.rule_options import RuleSpec, check_value, option_pairs

MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: the cards that can be dealt: one of the 36 is always turned up
DEALABLE = 35
#: a denomination count above this is refused (payments stay fast)
MAX_COINS_PER_DENOMINATION = 99
DENOMINATIONS = (50, 20, 10, 5, 2, 1)
DEFAULT_COINS = (1, 1, 2, 2, 4, 4)


RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("hand_size", "int", 5, 1, DEALABLE // MIN_PLAYERS,
             help="cards dealt to each player (at most 35 // players)"),
    RuleSpec("coins", "ints", DEFAULT_COINS, 0, MAX_COINS_PER_DENOMINATION,
             help="each player's coins of 50,20,10,5,2,1 (e.g. 1,1,2,2,4,4)",
             length=len(DENOMINATIONS), names=",".join(map(str, DENOMINATIONS))),
    RuleSpec("money", "choice", "coins", choices=("coins", "total"),
             help="coins: pay in coins; total: one number per player, paid exactly"),
    RuleSpec("change", "choice", "receiver", choices=("receiver", "none", "bank"),
             help="who returns an overpayment: the round's winner, nobody, or the bank"),
    RuleSpec("notice", "prob", 1.0, help="chance a forgotten announcement is noticed (0..1)"),
    RuleSpec("max_rounds", "int", 200, 1, 1_000_000, help="round cap, void rounds included"),
    RuleSpec("max_turns", "int", 1000, 1, 1_000_000, help="turn cap per round (skipped turns count)"),
    RuleSpec("one_plays_again", "bool", False, help="a 1 allows one more play from hand"),
    RuleSpec("fifty_skips", "bool", False, help="a 50 skips the next player, who draws a card"),
    RuleSpec("two_passes_hands", "bool", False, help="a 2 moves every hand to the left neighbour"),
)
SPEC_BY_KEY = {s.key: s for s in RULE_SPECS}


@dataclass(frozen=True)
class Rules(rule_options.GameRules):
    SPECS: ClassVar[dict] = SPEC_BY_KEY

    hand_size: int = 5
    coins: tuple = DEFAULT_COINS
    money: str = "coins"
    change: str = "receiver"
    notice: float = 1.0
    max_rounds: int = 200
    max_turns: int = 1000
    one_plays_again: bool = False
    fifty_skips: bool = False
    two_passes_hands: bool = False

    def __post_init__(self):
        # normalise the two forms JSON and callers give loosely; validate() checks the rest
        if isinstance(self.coins, list):
            object.__setattr__(self, "coins", tuple(self.coins))
        if type(self.notice) is int:
            object.__setattr__(self, "notice", float(self.notice))

    # -------------------------------------------------------------- building
    def validate(self, players: int | None = None) -> None:
        """Refuse an impossible setup with one line naming the option and the limit."""
        for spec in RULE_SPECS:
            check_value(spec, getattr(self, spec.key))
        if sum(self.coins) == 0:
            raise ZsimError(f"rule coins={list(self.coins)} gives no coin: at least one is needed")
        if players is not None:
            if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
                raise ZsimError(f"Zahlemann takes {MIN_PLAYERS}..{MAX_PLAYERS} players, not {players!r}")
            most = DEALABLE // players
            if self.hand_size > most:
                raise ZsimError(f"rule hand_size={self.hand_size} is too large for {players} players: "
                                f"at most {most} (35 // {players}; one card is turned up)")

    # -------------------------------------------------------------- views
    @property
    def start_value(self) -> int:
        """What each player's money is worth at the start."""
        return sum(n * d for n, d in zip(self.coins, DENOMINATIONS))



def parse_rule_options(options, base: Rules | None = None, players: int | None = None) -> Rules:
    """``["key=value", ...]`` (a command line's ``--rule``s) into validated :class:`Rules`."""
    rules = (base or Rules()).with_overrides(option_pairs(options, SPEC_BY_KEY))
    rules.validate(players)
    return rules
