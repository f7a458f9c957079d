"""Rules options of any game: their specs, and ``--rule key=value`` parsing.

Every game keeps its rules as a frozen dataclass whose fields are options
with a :class:`RuleSpec` each (kind, default, range, one line of help). The
same keys serve ``--rule key=value`` on the command line, the ``rules``
object of a game record and ``zsim rules``. What is common to every game
lives here: reading a value of each kind from text or JSON, checking it
against its spec, and splitting a command line's ``--rule`` options into
pairs. Every refusal is a :class:`~zsim.errors.ZsimError` of one line that
names the option; checks that tie options together (a hand too large for
the deck, a coin set with no coin) stay with the game.

Kinds: ``int`` (a whole number in low..high), ``bool``, ``choice`` (one of
``choices``), ``prob`` (a number in 0..1) and ``ints`` (``length`` whole
numbers in low..high, named ``names`` in messages, e.g. Zahltag's supply
F,W,C,E or Zahlemann's coins 50,20,10,5,2,1).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from typing import Any

from zsim.errors import ZsimError

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off"}
_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


@dataclass(frozen=True)
class RuleSpec:
    key: str
    kind: str          # "int", "bool", "choice", "prob", "ints"
    default: Any
    low: int = 0
    high: int = 0
    choices: tuple = ()
    help: str = ""
    length: int = 0    # ints: how many
    names: str = ""    # ints: what each one is, e.g. "F,W,C,E"


def _ints_message(spec: RuleSpec, raw: Any) -> str:
    example = ",".join(map(str, spec.default))
    count = _WORDS.get(spec.length, str(spec.length))
    return f"rule {spec.key} needs {count} whole numbers {spec.names} (e.g. {example}), got {raw!r}"


def _parse_ints(spec: RuleSpec, raw: Any) -> tuple:
    parts = raw
    if isinstance(raw, str):
        text = raw.strip()
        try:
            parts = json.loads(text) if text.startswith("[") else text.replace("/", ",").split(",")
        except ValueError:
            parts = None
    if not isinstance(parts, (list, tuple)) or len(parts) != spec.length:
        raise ZsimError(_ints_message(spec, raw))
    out = []
    for p in parts:
        if isinstance(p, (bool, float)):
            raise ZsimError(_ints_message(spec, raw))
        try:
            out.append(p if isinstance(p, int) else int(str(p).strip()))
        except ValueError:
            raise ZsimError(_ints_message(spec, raw)) from None
    return tuple(out)


def parse_value(spec: RuleSpec, raw: Any) -> Any:
    """``raw`` (a string from a command line, or a JSON value) as the option's
    value, checked against its spec."""
    if spec.kind == "int":
        if isinstance(raw, (bool, float)):
            raise ZsimError(f"rule {spec.key} needs a whole number, got {raw!r}")
        try:
            value = raw if isinstance(raw, int) else int(str(raw).strip())
        except ValueError:
            raise ZsimError(f"rule {spec.key} needs a whole number, got {raw!r}") from None
    elif spec.kind == "bool":
        text = str(raw).strip().lower()
        if isinstance(raw, bool):
            value = raw
        elif text in TRUE:
            value = True
        elif text in FALSE:
            value = False
        else:
            raise ZsimError(f"rule {spec.key} needs true or false, got {raw!r}")
    elif spec.kind == "choice":
        value = raw.strip() if isinstance(raw, str) else raw
    elif spec.kind == "prob":
        if isinstance(raw, bool):
            raise ZsimError(f"rule {spec.key} needs a number in 0..1, got {raw!r}")
        try:
            value = float(raw if isinstance(raw, (int, float)) else str(raw).strip())
        except ValueError:
            raise ZsimError(f"rule {spec.key} needs a number in 0..1, got {raw!r}") from None
    elif spec.kind == "ints":
        value = _parse_ints(spec, raw)
    else:
        raise ValueError(f"rule {spec.key} has an unknown kind {spec.kind!r}")
    check_value(spec, value)
    return value


def check_value(spec: RuleSpec, value: Any) -> None:
    """One option's value is of its kind and in its range."""
    if spec.kind == "int":
        if type(value) is not int:
            raise ZsimError(f"rule {spec.key} needs a whole number, got {value!r}")
        if not spec.low <= value <= spec.high:
            raise ZsimError(f"rule {spec.key}={value} is out of range {spec.low}..{spec.high}")
    elif spec.kind == "bool":
        if not isinstance(value, bool):
            raise ZsimError(f"rule {spec.key} needs true or false, got {value!r}")
    elif spec.kind == "choice":
        if value not in spec.choices:
            raise ZsimError(f"rule {spec.key} must be one of {', '.join(spec.choices)}, got {value!r}")
    elif spec.kind == "prob":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0.0 <= value <= 1.0:
            raise ZsimError(f"rule {spec.key}={value!r} is out of range 0..1")
    else:
        if not isinstance(value, tuple) or len(value) != spec.length or any(type(v) is not int for v in value):
            raise ZsimError(_ints_message(spec, value))
        if any(not spec.low <= v <= spec.high for v in value):
            raise ZsimError(f"rule {spec.key}={list(value)}: each count must be in {spec.low}..{spec.high}")


def option_pairs(options, keys) -> dict[str, str]:
    """``["key=value", ...]`` (a command line's ``--rule`` options) as a dict;
    a malformed item or a key given twice is refused in one line (the key
    itself is checked by the game, which knows its ``keys``)."""
    pairs: dict[str, str] = {}
    for item in options:
        key, sep, value = str(item).partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise ZsimError(f"rule {item!r} is not of the form key=value (valid keys: {', '.join(keys)})")
        if key in pairs:
            raise ZsimError(f"rule {key} is given twice ({key}={pairs[key]} and {key}={value}); "
                            f"give each --rule key once")
        pairs[key] = value
    return pairs


def with_overrides(rules, spec_by_key: dict[str, RuleSpec], pairs: dict[str, Any]):
    """A copy of the frozen dataclass ``rules`` with ``key -> value`` overrides
    (values may be strings), each checked by its spec, then the whole by the
    game's own ``validate()``."""
    changes = {}
    for key, raw in pairs.items():
        spec = spec_by_key.get(key)
        if spec is None:
            raise ZsimError(f"unknown rule key {key!r} (valid keys: {', '.join(spec_by_key)})")
        changes[key] = parse_value(spec, raw)
    out = replace(rules, **changes)
    out.validate()
    return out


class GameRules:
    """What a game's frozen rules dataclass inherits: overrides checked by
    ``SPECS`` (key -> RuleSpec) and the class's own ``validate()``, rules from a
    record's object, and the record's form of itself."""

    SPECS: dict = {}

    def with_overrides(self, pairs: dict[str, Any]):
        """A validated copy with ``key -> value`` overrides (values may be strings)."""
        return with_overrides(self, self.SPECS, pairs)

    @classmethod
    def from_dict(cls, data: dict[str, Any]):
        """Rules from a record's ``rules`` object; missing keys take their defaults."""
        if not isinstance(data, dict):
            raise ZsimError(f"rules must be an object of options, got {data!r}")
        return cls().with_overrides(dict(data))

    def as_dict(self) -> dict[str, Any]:
        """Every option under its key, JSON-ready (the record's ``rules``)."""
        out = {}
        for key in self.SPECS:
            value = getattr(self, key)
            out[key] = list(value) if isinstance(value, tuple) else value
        return out
