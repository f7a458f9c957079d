"""How the report, and the CLI's tables, print numbers and cells (the same in
HTML, Markdown and the terminal):

* floats get 4 significant digits in plain decimal notation (0.25 -> 0.2500,
  12.3456 -> 12.35, 123456.7 -> 123457); only magnitudes below 1e-5 or from
  1e15 up fall back to scientific notation; exactly zero prints as ``0``;
* integers print as they are, booleans as true/false;
* None and NaN print as an en dash, infinities as ``inf`` / ``-inf``;
* a column ``X`` followed anywhere by ``X_ci95`` (both numeric) becomes one
  column ``X`` holding "value ± ci": the half-width is rounded to 2
  significant digits and the value to the same number of decimals, so a win
  share of 0.25 with a half-width of 0.003 reads ``0.2500 ± 0.0030`` (in
  plain decimals down to half-widths of 1e-10: a strategy that wins 1 game
  in 200,000 reads ``0.0000050 ± 0.0000085``);
* a column ``X`` with the columns ``X_lo`` and ``X_hi`` (all three numeric;
  the ends of an interval such as Wilson's, which need not be symmetric)
  becomes one column ``X`` holding "value [lo, hi]", always in plain decimal
  notation. Each of the three numbers shows at least 2 significant digits,
  and at least as many decimals as show the interval's width (hi - lo) at 2
  significant digits, so the ends of a narrow interval never print alike:
  ``0.000010 [0.0000018, 0.000057]``, ``0.2500 [0.2467, 0.2533]``. Integer
  digits are never rounded away. A value of exactly 0 prints as "< hi" with
  hi at 2 significant digits (``< 0.00019``): nothing was seen, and the rate
  is below that bound (about 3.84/n for a Wilson interval on n trials). A
  missing end prints the value alone; a missing value is an en dash. The
  ``_lo`` and ``_hi`` columns disappear (an ``X_ci95`` next to an interval
  stays a column of its own).
* a p-value (a column named ``p`` or ``..._p``) prints at 3 decimals, and
  below 0.001 as ``< 0.001``: its digits beyond say nothing a reader uses.
"""
from __future__ import annotations

import math
from decimal import Decimal

import polars as pl

#: significant digits of plain floats
SIG_DIGITS = 4
#: significant digits of a 95% half-width (the value gets as many decimals)
CI_DIGITS = 2
#: significant digits of a value and the ends of its [lo, hi] interval
INTERVAL_DIGITS = 2
#: suffix that pairs a confidence half-width column with its value column
CI_SUFFIX = "_ci95"
#: suffixes of the columns holding the lower and upper end of a value's interval
LO_SUFFIX, HI_SUFFIX = "_lo", "_hi"
#: suffix of the count of games behind a share column of its own (a head-to-head cell)
GAMES_SUFFIX = "_games"
#: what an empty cell (None / NaN) shows
MISSING = "\u2013"
#: more decimals than this never help a reader of simulation output
MAX_DECIMALS = 12


def _decimals_for(x: float, sig: int) -> int:
    """Decimals that show |x| (finite, non-zero) with `sig` significant digits.

    Rounding can carry into a new leading digit (9.99996 -> 10.000), so the
    exponent is taken again after rounding; the result is never negative
    (integer digits are not rounded away)."""
    e = math.floor(math.log10(abs(x)))
    decimals = max(0, sig - 1 - e)
    rounded = round(abs(x), decimals)
    if rounded != 0 and math.floor(math.log10(rounded)) > e:
        decimals = max(0, decimals - 1)
    return min(decimals, MAX_DECIMALS)


def _is_missing(x: object) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def format_float(x: float | None, sig: int = SIG_DIGITS) -> str:
    """A float with `sig` significant digits, without scientific notation for
    ordinary magnitudes (1e-5 <= |x| < 1e15)."""
    if x is None:
        return MISSING
    x = float(x)
    if math.isnan(x):
        return MISSING
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    if abs(x) < 1e-5 or abs(x) >= 1e15:
        return f"{x:.{sig - 1}e}"
    return f"{x:.{_decimals_for(x, sig)}f}"


def format_ci(value: float | None, ci: float | None, signed: bool = False) -> str:
    """``value ± ci`` with the half-width at 2 significant digits and the
    value at the same decimals; a missing or unusable half-width leaves the
    value alone, a missing value leaves the cell empty. ``signed`` writes a
    plus before a positive value (an edge or a change, in a sentence).

    A zero half-width means every observation behind the mean gave the same
    value (Zahlemann's money range at 2 players is 224 in every game; a
    measure no game ever moved is 0 in all of them): it prints as
    ``always 224.0``, never as ``224.0 ± 0``, which reads like a measured
    interval. A share never (or always) seen has a better answer, its
    bound, where its games are known (:func:`format_share_bound`)."""
    if _is_missing(value):
        return MISSING
    plus = "+" if signed else ""
    value = float(value)
    alone = _signed(format_float(value), plus, value)
    if ci is None:
        return alone
    ci = float(ci)
    if not math.isfinite(ci) or ci < 0:
        return alone
    if not math.isfinite(value):
        return f"{alone} ± {format_float(ci)}"
    if ci == 0:
        return f"always {alone}"
    if ci < 1e-10 or ci >= 1e15 or abs(value) >= 1e15:   # a tiny win share stays in plain decimals
        return f"{alone} ± {format_float(ci, CI_DIGITS)}"
    decimals = _decimals_for(ci, CI_DIGITS)
    return f"{value:{plus}.{decimals}f} ± {ci:.{decimals}f}"


def _signed(text: str, plus: str, value: float) -> str:
    """``text`` (``value`` printed) with a plus in front when asked for and
    the value is above 0 and finite."""
    return plus + text if plus and math.isfinite(value) and value > 0 else text


def format_share_bound(value: float, games: int) -> str | None:
    """A share of ``games`` games that was never (or always) seen, as its
    bound instead of "0 ± 0": ``< hi`` (or ``> lo``) with the end of the
    interval zsim prints for a count of 0 (or of all), at 2 significant
    digits; None for any other share."""
    from analyses.stats import share_interval

    if not games or games <= 0 or value not in (0.0, 1.0):
        return None
    if value == 0:
        hi = share_interval(0, games)[1]
        return f"< {_plain(hi, _decimals_for(hi, INTERVAL_DIGITS))}"
    lo = share_interval(games, games)[0]
    return f"> {_plain(lo, _decimals_for(1 - lo, INTERVAL_DIGITS))}"


def format_interval(value: float | None, lo: float | None, hi: float | None) -> str:
    """``value [lo, hi]`` in plain decimals (see the module docstring): each
    number at 2 significant digits or more, and at least at the decimals that
    show the width hi - lo at 2 significant digits. A value of exactly 0
    reads ``< hi``; a missing or non-finite end leaves the value alone; a
    missing value is an en dash."""
    if _is_missing(value):
        return MISSING
    value = float(value)
    if _is_missing(lo) or _is_missing(hi) or not math.isfinite(value):
        return format_float(value)
    lo, hi = float(lo), float(hi)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return format_float(value)
    if value == 0:
        return f"< {_plain(hi, _decimals_for(hi, INTERVAL_DIGITS))}" if hi > 0 else "0"
    width = hi - lo
    floor = _decimals_for(width, INTERVAL_DIGITS) if width > 0 else 0

    def show(x: float) -> str:
        return "0" if x == 0 else _plain(x, max(floor, _decimals_for(x, INTERVAL_DIGITS)))

    return f"{show(value)} [{show(lo)}, {show(hi)}]"


def _plain(x: float, decimals: int) -> str:
    return f"{x:.{decimals}f}"


#: p-values below this print as "< P_FLOOR"
P_FLOOR = 0.001


def is_p_value(name: str) -> bool:
    """Whether a column holds p-values, by its name (``p``, ``seat_p``)."""
    return name == "p" or name.endswith("_p")


def format_p(p: float | None) -> str:
    """A p-value at 3 decimals, ``< 0.001`` below that; missing, an en dash."""
    if _is_missing(p):
        return MISSING
    p = float(p)
    return f"< {P_FLOOR}" if p < P_FLOOR else f"{p:.3f}"


def format_cell(v: object) -> str:
    """Any value polars hands back from a row, as table text."""
    if v is None:
        return MISSING
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (float, Decimal)):
        return format_float(float(v))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(format_cell(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {format_cell(x)}" for k, x in v.items()) + "}"
    return str(v)


def meta_value(v: object) -> str:
    """Metadata values are shown compactly: lists as 'a, b, c', mappings as
    'k=v, k=v', floats like table floats, everything else via str()."""
    if v is None:
        return MISSING
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, (list, tuple, set, frozenset)):
        items = sorted(v, key=str) if isinstance(v, (set, frozenset)) else v
        return ", ".join(meta_value(x) for x in items)
    if isinstance(v, dict):
        return ", ".join(f"{k}={meta_value(x)}" for k, x in v.items())
    return str(v)


def display_table(df: pl.DataFrame) -> tuple[list[str], list[bool], list[list[str]]]:
    """The frame as (headers, numeric flags, rows of strings).

    ``X`` with ``X_lo`` and ``X_hi`` (all numeric) merge into one column
    ``X`` reading "value [lo, hi]"; ``X`` and ``X_ci95`` (both numeric) merge
    into one column ``X`` reading "value ± ci", except that a share (a name
    with "share" in it) of a table with a ``games`` column that was never or
    always seen reads "< bound" or "> bound" (:func:`format_share_bound`),
    not "0 ± 0"; so does a column ``X`` with ``X_ci95`` and ``X_games``, the
    games behind each of its shares (the ``X_games`` column disappears). The merged column keeps the place of ``X``; the companions
    disappear. Other columns keep their order and name."""
    schema = df.schema
    cols = list(df.columns)
    numeric = {c: schema[c].is_numeric() for c in cols}

    def companion(c: str, suffix: str) -> str | None:
        other = c + suffix
        return other if other in schema and numeric[c] and numeric[other] else None

    intervals: dict[str, tuple[str, str]] = {}       # value column -> (lo column, hi column)
    cis: dict[str, str] = {}                          # value column -> ci column
    for c in cols:
        lo, hi = companion(c, LO_SUFFIX), companion(c, HI_SUFFIX)
        if lo and hi:
            intervals[c] = (lo, hi)
    taken = {x for pair in intervals.values() for x in pair}
    intervals = {c: pair for c, pair in intervals.items() if c not in taken}   # no X_lo_lo chains
    taken = {x for pair in intervals.values() for x in pair}
    for c in cols:
        ci = companion(c, CI_SUFFIX)
        if ci and c not in intervals and c not in taken and ci not in taken:
            cis[c] = ci
    dropped = taken | set(cis.values())
    shown = [c for c in cols if c not in dropped]
    index = {c: i for i, c in enumerate(cols)}
    games_col = "games" in schema and schema["games"].is_integer()
    own_games = {c: c + GAMES_SUFFIX for c in cis
                 if c + GAMES_SUFFIX in schema and schema[c + GAMES_SUFFIX].is_integer()}
    dropped |= set(own_games.values())
    shown = [c for c in shown if c not in dropped]

    rows: list[list[str]] = []
    for row in df.iter_rows():
        out = []
        for c in shown:
            v = row[index[c]]
            if c in intervals:
                lo, hi = intervals[c]
                out.append(format_interval(v, row[index[lo]], row[index[hi]]))
            elif c in cis:
                ci = row[index[cis[c]]]
                n = (row[index[own_games[c]]] if c in own_games
                     else row[index["games"]] if games_col and "share" in c else None)
                bound = format_share_bound(float(v), n) if n and ci == 0 and not _is_missing(v) else None
                out.append(bound or format_ci(v, ci))
            elif numeric[c] and is_p_value(c):
                out.append(format_p(v))
            else:
                out.append(format_cell(v))
        rows.append(out)
    return shown, [numeric[c] for c in shown], rows
