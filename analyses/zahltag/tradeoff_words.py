"""The trade-off analysis in words: numbers as text and the sentences of its findings.

Pure functions of the tables :mod:`analyses.zahltag.tradeoff` builds (or of
hand-made frames with the same columns): runs of whole numbers
(:func:`span_text`), a value with its 95% half-width (:func:`pm`), how the
best target hand moves with payday cost (:func:`trend`), the sentence on a
best target at the edge of the range tried, and the sentence on what the dealt
hand does to the field's game (income less payday, eliminations). The figures'
alt texts are written from the same sentences.
"""
from __future__ import annotations

from itertools import pairwise

import polars as pl

from analyses.report_format import format_ci
from analyses.zahltag.hand_size import TESTED

#: share of games with an elimination above which the text calls them common
ELIMINATIONS_COMMON = 0.05


def span_text(values) -> str:
    """Whole numbers as runs: [2, 3, 4, 7] -> '2..4, 7'."""
    vs = sorted(set(values))
    runs, start = [], None
    for i, v in enumerate(vs):
        if start is None:
            start = v
        if i + 1 == len(vs) or vs[i + 1] != v + 1:
            runs.append(str(v) if v == start else f"{start}..{v}")
            start = None
    return ", ".join(runs)



def pm(value: float | None, ci: float | None) -> str:
    """'value ± ci' with the half-width to 2 significant digits, as the tables print it."""
    if value is None:
        return "n/a"
    return format_ci(value, ci)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def join_words(items: list[str]) -> str:
    """['a', 'b', 'c'] -> 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def trend(costs: list[int], best: list[int]) -> str:
    """How the best target moves with payday cost, in words."""
    if len(set(best)) == 1:
        return f"stays at {best[0]} at every payday cost tried" if len(best) > 1 else \
            f"is {best[0]} at payday cost {costs[0]}"
    steps = [b - a for a, b in pairwise(best)]
    if all(s <= 0 for s in steps) or all(s >= 0 for s in steps):
        verb = "falls" if best[-1] < best[0] else "rises"
        return f"{verb} from {best[0]} at payday cost {costs[0]} to {best[-1]} at cost {costs[-1]}"
    return ("moves between " + f"{min(best)} and {max(best)} ("
            + ", ".join(f"{b} at cost {c}" for c, b in zip(costs, best)) + ")")


def edge_sentences(p: int, part: pl.DataFrame, limits: tuple[int, int]) -> list[str]:
    """A sentence for each edge of the targets tried (``limits``: the smallest
    and largest target the strategy takes) where the best target sits, at ``p``
    players; ``part`` holds that player count's rows of the best-target table."""
    out = []
    for edge, more, beyond in (("smallest", "smaller", "below"), ("largest", "larger", "above")):
        at = part.filter(pl.col("best_at_edge") == edge)
        if at.is_empty():
            continue
        costs = join_words([str(c) for c in at["payday_cost"].to_list()])
        k = at["best_target"][0]
        limit = limits[0] if edge == "smallest" else limits[1]
        if k == limit == 0:
            tail = ("target 0 never takes a card, and no hand can aim lower: at this cost the best "
                    "play is to take no cards at all and live on the hand dealt")
        elif k == limit:
            tail = f"a {more} hand might do better, but {TESTED} takes no target {beyond} {k}"
        else:
            tail = f"a {more} hand might do better"
        out.append(f"At {p} players and payday cost {costs} the best target, {k}, sits at the edge of the "
                   f"range tried (the {edge} target): {tail}.")
    return out


def rule_sentence(p: int, part: pl.DataFrame, cost0: int) -> str:
    """What the dealt hand does to the field's game at ``p`` players: income
    less payday per seat at payday cost ``cost0`` (or the lowest tried), and
    where eliminations become common; ``part`` holds that player count's rows
    of the rule table."""
    costs = sorted(set(part["payday_cost"].to_list()))
    c = cost0 if cost0 in costs else costs[0]
    at = part.filter(pl.col("payday_cost") == c).sort("hand_size")
    v = at["income_less_payday_per_seat"].to_list()
    hs = at["hand_size"].to_list()
    ci = at["income_less_payday_per_seat_ci95"].to_list()
    hi = max(range(len(v)), key=lambda i: v[i])
    lo = min(range(len(v)), key=lambda i: v[i])
    which = "the default" if c == cost0 else "the lowest tried"
    text = (f"At {p} players with the field in every seat and payday cost {c} ({which}), dealing "
            f"{hs[hi]} cards gives the most income less payday per seat ({pm(v[hi], ci[hi])} millions per game)"
            + (f" and dealing {hs[lo]} the least ({pm(v[lo], ci[lo])})" if lo != hi else ""))
    worst = part.sort("elimination_rate", descending=True).row(0, named=True)
    most = (f"dealing {worst['hand_size']} at payday cost {worst['payday_cost']}: "
            f"{pct(worst['elimination_rate'])}, 95% interval [{pct(worst['elimination_rate_lo'])}, "
            f"{pct(worst['elimination_rate_hi'])}]")
    # where the whole interval lies above ELIMINATIONS_COMMON, cost by cost in ascending order
    often = part.filter(pl.col("elimination_rate_lo") >= ELIMINATIONS_COMMON).sort("payday_cost", "hand_size")
    if often.is_empty():
        text += f"; eliminations stay below {pct(ELIMINATIONS_COMMON)} of games everywhere (the most {most})."
    else:
        where = [f"{c} (dealing {span_text(g['hand_size'].to_list())})"
                 for (c,), g in often.group_by(["payday_cost"], maintain_order=True)]
        text += (f"; games with an elimination pass {pct(ELIMINATIONS_COMMON)} (the whole 95% interval above it) at payday cost {join_words(where)}, "
                 f"the most {most}.")
    return text


def spread_sentence(p: int, part: pl.DataFrame, hand0: int, cost0: int, margin_pp: float | None = None) -> str:
    """The trade-off's seat verdict at ``p`` players, said beside its map:
    the seats' spread around par at the printed rules, read against the
    margin (:mod:`analyses.verdicts`), and the most even setting of the grid
    where eliminations stay rare; ``part`` holds that player count's rows of
    the rule table."""
    from analyses.verdicts import MARGIN_PP, decide, WITHIN, BEYOND

    margin = MARGIN_PP if margin_pp is None else margin_pp
    here = part.filter((pl.col("hand_size") == hand0) & (pl.col("payday_cost") == cost0))
    text = f"At {p} players"
    if not here.is_empty():
        r = here.row(0, named=True)
        lo, hi = r.get("seat_spread_pp_lo"), r.get("seat_spread_pp_hi")
        spread = f"{r['seat_spread_pp']:.1f} pp" + (f" [{lo:.1f}, {hi:.1f}]" if lo is not None and hi is not None
                                                      else "")
        outcome = decide(lo, hi, margin) if lo is not None and hi is not None else None
        word = {WITHIN: "balanced", BEYOND: "uneven"}.get(outcome, "can't tell yet")
        text += (f" the printed rules (deal {hand0}, payday cost {cost0}) spread the seats {spread} around par: "
                 f"{word} against a margin of {margin:g} pp")
    calm = part.filter(pl.col("elimination_rate_hi") < ELIMINATIONS_COMMON) if "elimination_rate_hi" in part.columns \
        else part
    calm = calm.filter(pl.col("seat_spread_pp").is_not_null())
    if not calm.is_empty():
        best = calm.sort("seat_spread_pp", "hand_size", "payday_cost").row(0, named=True)
        text += ("; " if not here.is_empty() else " ") + (
            f"the most even setting where eliminations stay under {pct(ELIMINATIONS_COMMON)} deals "
            f"{best['hand_size']} at payday cost {best['payday_cost']} ({best['seat_spread_pp']:.1f} pp)")
    return text + "."

