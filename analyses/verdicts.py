"""Verdicts: one plain sentence per designer question, decided against a
practical margin rather than by a significance test.

A designer asks "are the seats even?", not "can a test tell them apart?".
With enough games any gap is significant, and with too few none is; so a
verdict is an equivalence statement (two one-sided tests, the interval read
against the margin):

* **within** the margin (the seats are *balanced*; for a skill or rule
  question, it makes no difference worth the name): the whole 95% interval
  lies inside ±margin;
* **beyond** it (*uneven*, *skill decides*, *the rule matters*): the whole
  interval lies outside the margin, on one side;
* **can't tell yet**: the interval straddles the margin; the verdict then
  says about how many games would decide it, scaling the half-width as
  1/√games.

The margin is in percentage points of win share (``--margin``, default 1;
docs/analyses.md says why). Every verdict carries its estimate, interval,
margin and games, in the sentence and as fields (``--json``, the API).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist

import numpy as np

from analyses.stats import Z95, seat_moments

#: the default practical margin, in percentage points of win share
MARGIN_PP = 1.0

#: a verdict's ``outcome``: the interval inside the margin, beyond it, or across it
WITHIN, BEYOND, UNSURE = "within", "beyond", "unsure"
#: the most games a "can't tell yet" verdict names before it says "far more than"
MOST_GAMES = 100_000_000


@dataclass(frozen=True)
class Verdict:
    """One question's answer: ``outcome`` is WITHIN, BEYOND or UNSURE and
    ``label`` says it in the question's words ("balanced", "uneven", "skill
    decides", "can't tell yet"); ``estimate``, ``lo`` and ``hi`` in
    percentage points; ``games_needed`` only for UNSURE (None where no count
    of games would decide it, an estimate sitting on the margin)."""
    question: str
    outcome: str
    label: str
    headline: str
    detail: str
    estimate_pp: float
    lo_pp: float
    hi_pp: float
    margin_pp: float
    games: int
    games_needed: int | None = None
    #: the table size the verdict speaks of, where it speaks of one
    players: int | None = None

    @property
    def sentence(self) -> str:
        """The verdict as one sentence: its headline, a colon, the figures."""
        return f"{self.headline}: {self.detail}"

    def to_dict(self) -> dict:
        return {**asdict(self), "sentence": self.sentence}


def decide(lo: float, hi: float, margin: float) -> str:
    """WITHIN when [lo, hi] lies inside ±margin, BEYOND when it lies wholly
    beyond it on one side, else UNSURE."""
    if -margin <= lo and hi <= margin:
        return WITHIN
    if lo > margin or hi < -margin:
        return BEYOND
    return UNSURE


def games_to_decide(estimate: float, half: float, margin: float, games: int) -> int | None:
    """About how many games in all would shrink the half-width ``half`` (at
    ``games`` games) until the interval clears the margin on one side, the
    estimate staying where it is; None when it sits on the margin."""
    gap = abs(abs(estimate) - margin)
    if half <= 0 or games <= 0:
        return games
    if gap < 1e-9:
        return None
    needed = math.ceil(games * (half / gap) ** 2)
    return min(max(needed, games + 1), MOST_GAMES)


def _pp(x: float) -> str:
    """A signed number of percentage points, one decimal, or two below 0.1,
    with a true minus sign."""
    return (f"{x:+.2f}" if 0 < abs(x) < 0.1 else f"{x:+.1f}").replace("-", "−")


def _half(h: float) -> str:
    """A 95% half-width in percentage points: one decimal, or 2 significant
    digits below 0.1, so that a very long run never prints "± 0.0"."""
    if h >= 0.1 or h <= 0 or not math.isfinite(h):
        return f"{h:.1f}"
    return f"{h:.{1 - math.floor(math.log10(h))}f}"


def _games(n: int | None) -> str:
    if n is None:
        return "the estimate sits on the margin, so no number of games would settle it"
    if n >= MOST_GAMES:
        return f"far more than {MOST_GAMES:,} games would be needed"
    return f"about {_round_games(n):,} games would decide it"


def _round_games(n: int) -> int:
    """Two significant digits: an estimate of games needed is no more precise."""
    if n < 100:
        return n
    k = 10 ** (len(str(n)) - 2)
    return -(-n // k) * k


def seats(row: dict, players: int, margin_pp: float = MARGIN_PP) -> Verdict:
    """Are the seats even? ``row``: one group's summed seat win columns
    (:func:`analyses.stats.seat_win_columns`); see :func:`seats_from_shares`."""
    n, share, cov = seat_moments(row, players)
    return seats_from_shares(share, Z95 * np.sqrt(np.maximum(np.diag(cov), 0.0) / max(n, 1.0)), int(n), margin_pp)


def seats_from_shares(shares, halves, games: int, margin_pp: float = MARGIN_PP) -> Verdict:
    """Are the seats even? Each seat's win share (``shares``, in seat order)
    less par (1/players) with its 95% half-width (``halves``): balanced when
    every seat's interval lies within ±margin; uneven when some seat's lies
    beyond it (that interval Bonferroni-widened over the seats, since any
    one of them may show it); else can't tell yet."""
    players = len(shares)
    n = games
    delta = 100 * (np.asarray(shares, float) - 1.0 / players)
    se = 100 * np.asarray(halves, float) / Z95
    z_any = NormalDist().inv_cdf(1 - 0.025 / players)
    worst = max(range(players), key=lambda s: (round(abs(delta[s]), 9), delta[s] > 0))   # the favoured of equals
    inside = all(decide(d - Z95 * s, d + Z95 * s, margin_pp) == WITHIN for d, s in zip(delta, se))
    beyond = [s for s in range(players)
              if decide(delta[s] - z_any * se[s], delta[s] + z_any * se[s], margin_pp) == BEYOND]
    where = f"at {players} players"
    if inside:
        outcome, label = WITHIN, "balanced"
        seat, z = worst, Z95
        detail = (f"every seat within ±{margin_pp:g} pp of par (largest gap: {_seat(seat, players)}, "
                  f"{_pp(delta[seat])} ± {_half(Z95 * se[seat])} pp).")
    elif beyond:
        outcome, label = BEYOND, "uneven"
        seat = max(beyond, key=lambda s: (delta[s] > 0, abs(delta[s])))     # the favoured seat first
        z = z_any
        detail = (f"{_seat(seat, players)} {_pp(delta[seat])} ± {_half(z * se[seat])} pp against par "
                  f"{100 / players:.1f}% (margin ±{margin_pp:g} pp).")
    else:
        outcome, label = UNSURE, "can't tell yet"
        seat, z = worst, Z95
        detail = (f"{_seat(seat, players)} {_pp(delta[seat])} ± {_half(Z95 * se[seat])} pp against a margin of "
                  f"±{margin_pp:g} pp; {_games(games_to_decide(delta[seat], Z95 * se[seat], margin_pp, int(n)))}.")
    return Verdict("seats", outcome, label, f"Seats: {label} {where}", detail, float(delta[seat]), float(delta[seat] - z * se[seat]),
                   float(delta[seat] + z * se[seat]), margin_pp, int(n),
                   games_to_decide(delta[seat], Z95 * se[seat], margin_pp, int(n)) if outcome == UNSURE else None,
                   players)


def _seat(seat: int, players: int) -> str:
    names = ("first player", "second player", "third player", "fourth player")
    return names[seat] if seat < len(names) else f"seat {seat}"


def edge(question: str, estimate_pp: float, half_pp: float, games: int, margin_pp: float = MARGIN_PP, *,
         subject: str, effect: str, no_effect: str, unit: str = "pp", players: int | None = None) -> Verdict:
    """A difference with its 95% half-width (both in percentage points), read
    against the margin: ``effect`` (say, "skill decides") when it clears the
    margin, ``no_effect`` ("luck decides at this margin") when it lies
    inside, else can't tell. ``subject`` names the difference in the
    sentence ("the strong player against par 25%")."""
    lo, hi = estimate_pp - half_pp, estimate_pp + half_pp
    outcome = decide(lo, hi, margin_pp)
    figure = f"{subject} {_pp(estimate_pp)} ± {_half(half_pp)} {unit}"
    needed = None
    if outcome == BEYOND:
        label, detail = effect, f"{figure} (margin ±{margin_pp:g} {unit})."
    elif outcome == WITHIN:
        label, detail = no_effect, f"{figure}, within ±{margin_pp:g} {unit}."
    else:
        needed = games_to_decide(estimate_pp, half_pp, margin_pp, games)
        label = "can't tell yet" + (f" at {players} players" if players is not None else "")
        detail = f"{figure} against a margin of ±{margin_pp:g} {unit}; {_games(needed)}."
    return Verdict(question.lower(), outcome, label, f"{question}: {label}", detail, estimate_pp, lo, hi, margin_pp,
                   games, needed, players)


def seat_clause(part, games: int, margin_pp: float = MARGIN_PP) -> str:
    """The seat verdict of one player count as an analysis's finding words
    it ("uneven: first player +3.0 ± 1.2 pp against par 50.0% (margin ±1
    pp)"): ``part`` holds that player count's seats (columns seat,
    win_share, win_share_ci95), ``games`` the games behind each share."""
    part = part.sort("seat")
    v = seats_from_shares(part["win_share"].to_list(), part["win_share_ci95"].to_list(), games, margin_pp)
    return f"{v.label}: {v.detail.rstrip('.')}"

