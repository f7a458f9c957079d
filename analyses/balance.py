"""``zsim balance``: search the free rules of a game for settings that meet a
designer's targets.

A target bounds one measure of :mod:`analyses.rule_metrics` at every
player count asked for: ``seat_gap<=0.01`` (the largest seat's win share
off par, as a share: 0.01 is one percentage point), ``skill_edge>=0.10``
(the strong player's win share above par), ``turns=25..40`` (the game's
length), ``knockout_rate<=0.05``, and any other measure by the name a sweep
gives it (``winner_margin``, ``lead_changes``, ``end_<reason>``, the game's
summary columns).

How a setting is measured
    Every setting plays the same deals, block after block (block *b* is
    game indices ``b * batch`` to ``(b + 1) * batch - 1`` of the run seed), so
    two settings differ by their rules, not by their luck. After each block
    each target is *met* (its 95% interval lies inside the bound), *broken*
    (outside it) or *open*; a setting plays further blocks while a target is
    open, up to ``MAX_BLOCKS`` (precision stopping per setting).

The search
    nevergrad proposes the settings: every free key is a discrete choice
    over its values (ordered values move step by step), and the loss is
    the sum over targets and player counts of how far each estimate lies
    outside its bound, in units of the bound's scale (0: every target met).
    The printed rules are measured first. ``RACE_SHARE`` of the budget
    then races the best settings on further blocks, as ``zsim tune`` does,
    since the best of many noisy losses is flattered by luck.

What it answers
    The settings that meet every target (or the closest, when none does),
    each target's value and interval at each player count, the printed
    rules' values beside them, and a one-step sensitivity table: each free
    key of the best setting moved one value down and up, and which targets
    then break.

Every count is a count of games, never a clock: the same seed and
arguments give the same answer, and a run folder (``--run DIR``) keeps each
block as it is played so that a stopped search resumes where it was.
"""
from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass

import numpy as np
import polars as pl

from analyses import rule_metrics, stats
from analyses.result import AnalysisResult
from analyses.balance_blocks import Measured, Measurer, _matchups
from analyses.sweep import Axis, parse_axis, _label
from zsim.errors import ZsimError
from zsim.game_registry import get_game

#: share of the budget that races the best settings
RACE_SHARE = 0.25
#: settings in the race at most
FINALISTS = 4
#: blocks a setting may play before the race (precision stopping stops it sooner)
MAX_BLOCKS = 4
#: the optimiser's randomness, mixed with the seed (not the games')
_STREAM = 0x62616C61
DEFAULT_OPTIMIZER = "NGOpt"
#: the loss told the optimiser for a setting the game cannot deal
UNPLAYABLE = 1e6
#: the names a target may use for a measure besides its own, and the scale it is given in
ALIASES = {"turns": "game_length", "seat_gap": "seat_gap", "skill_edge": "skill_edge"}


# ---------------------------------------------------------------- targets
@dataclass(frozen=True)
class Target:
    """``low <= metric <= high`` (either end may be open), as written."""
    metric: str
    low: float
    high: float
    text: str

    def status(self, lo: float, hi: float) -> str:
        """met, broken or open, for an estimate whose 95% interval is [lo, hi]."""
        if lo >= self.low and hi <= self.high:
            return "met"
        if hi < self.low or lo > self.high:
            return "broken"
        return "open"

    def violation(self, value: float) -> float:
        """How far ``value`` lies outside the bound, in units of its scale."""
        if value is None or math.isnan(value):
            return 1.0
        below = max(self.low - value, 0.0)
        above = max(value - self.high, 0.0)
        return (below + above) / self.scale

    @property
    def scale(self) -> float:
        if math.isfinite(self.low) and math.isfinite(self.high) and self.high > self.low:
            return self.high - self.low
        bound = self.high if math.isfinite(self.high) else self.low
        return max(abs(bound), 1e-3)


def metric_names(g, strong: bool) -> list[str]:
    """Every measure a target may name for game ``g``."""
    names = ["seat_gap"] + (["skill_edge"] if strong else [])
    names += [m.name for m in rule_metrics.game_metrics(g)]
    if "game_length" in names:
        names.append("turns")
    names += [c.name for c in g.summary_columns]
    return names


def parse_target(text: str, g, strong: bool) -> Target:
    """``METRIC<=X``, ``METRIC>=X`` or ``METRIC=LO..HI``, refused in one line."""
    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z_0-9]*)\s*(<=|>=|=)\s*(\S+)\s*", str(text))
    if not m:
        raise ZsimError(f"--target {text!r} is not METRIC<=X, METRIC>=X or METRIC=LO..HI "
                        f"(e.g. seat_gap<=0.01, turns=25..40)")
    name, op, raw = m.groups()
    known = metric_names(g, True)
    if name not in known:
        raise ZsimError(f"--target {text}: unknown measure {name!r} (known: {', '.join(known)})")
    if name == "skill_edge" and not strong:
        raise ZsimError(f"--target {text}: the skill edge needs a strong player, and --strong is none "
                        f"({g.title} names no best bot; --strong SPEC names one)")
    try:
        if op == "=":
            lo_text, sep, hi_text = raw.partition("..")
            if not sep:
                raise ValueError
            low, high = float(lo_text), float(hi_text)
        else:
            bound = float(raw)
            low, high = (-math.inf, bound) if op == "<=" else (bound, math.inf)
    except ValueError:
        raise ZsimError(f"--target {text}: the bound must be a number, or LO..HI after = "
                        f"(e.g. turns=25..40)") from None
    if not all(math.isfinite(x) or math.isinf(x) for x in (low, high)) or low > high:
        raise ZsimError(f"--target {text}: the range runs from low to high")
    return Target(ALIASES.get(name, name), low, high, str(text).strip())


def check_targets(targets: list[Target]) -> None:
    """Two targets on one measure that no value can meet together are refused."""
    by: dict[str, Target] = {}
    for t in targets:
        if t.metric in by:
            o = by[t.metric]
            if max(o.low, t.low) > min(o.high, t.high):
                raise ZsimError(f"--target {o.text} and --target {t.text} contradict each other: "
                                f"no value of {t.metric} meets both")
            by[t.metric] = Target(t.metric, max(o.low, t.low), min(o.high, t.high), f"{o.text}, {t.text}")
        else:
            by[t.metric] = t
    targets[:] = list(by.values())


# ---------------------------------------------------------------- the plan
@dataclass
class BalancePlan:
    game: str
    free: list[Axis]
    targets: list[Target]
    players: list[int]
    budget: int
    batch: int
    seed: int
    field: str
    fixed: tuple[str, ...]
    strong: str | None
    optimizer: str
    deck: object = None

    @property
    def needs_strong(self) -> bool:
        return any(t.metric == "skill_edge" for t in self.targets)

    @property
    def printed(self) -> tuple:
        """The printed rules' setting (a free key whose printed value is not among its values takes its nearest)."""
        out = []
        for a in self.free:
            if a.printed in a.values:
                out.append(a.printed)
            elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in a.values):
                out.append(min(a.values, key=lambda v: abs(v - a.printed)))
            else:
                out.append(a.values[0])
        return tuple(out)

    def block_games(self) -> int:
        """The games one block of one setting costs, the strong player's included."""
        per = self.batch * len(self.players)
        return per + (self.strong_games() * len(self.players) if self.needs_strong else 0)

    def strong_games(self) -> int:
        return max(self.batch // 4, 1)


def plan(game: str, free: list[str], targets: list[str], *, players: list[int], budget: int, batch: int | None,
         seed: int, field_spec: str | None, fixed: tuple[str, ...], strong: str | None, optimizer: str,
         deck=None) -> BalancePlan:
    from analyses.sweep import _strong

    g = get_game(game)
    if not free:
        raise ZsimError(f"give a rule to search: --free KEY=VALUES (`zsim rules --game {game}` lists the keys)")
    if not targets:
        raise ZsimError("give a target: --target METRIC<=X, METRIC>=X or METRIC=LO..HI (e.g. seat_gap<=0.01)")
    axes = [parse_axis(game, text) for text in free]
    keys = [a.key for a in axes]
    if len(set(keys)) != len(keys):
        raise ZsimError(f"--free {next(k for k in keys if keys.count(k) > 1)} is given twice")
    for item in fixed:
        key = str(item).partition("=")[0].strip()
        if key in keys:
            raise ZsimError(f"--free {key} is also fixed with --rule {key}; fix it or free it, not both")
    strong_spec = _strong(g, strong)
    parsed = [parse_target(t, g, strong_spec is not None) for t in targets]
    check_targets(parsed)
    _optimizer_class(optimizer)
    batch = batch if batch is not None else max(200, min(5_000, budget // 100))
    if batch < 2:
        raise ZsimError(f"--batch must be at least 2 games, got {batch}")
    out = BalancePlan(game, axes, parsed, list(players), budget, batch, seed, field_spec or g.strategies.default,
                      tuple(fixed), strong_spec, optimizer, deck)
    if budget < 2 * out.block_games():
        raise ZsimError(f"--budget {budget:,} is too small: one block of a setting costs {out.block_games():,} games "
                        f"(--batch {batch} at {len(players)} player count(s)); give at least "
                        f"{2 * out.block_games():,}")
    for setting in _every_checkable(out):
        _matchups(out, setting)          # every corner of the space is dealt once, before a game is played
    return out


def _every_checkable(p: BalancePlan) -> list[tuple]:
    """The printed setting and the corners of the space (lowest and highest of each key)."""
    corners = [p.printed, tuple(a.values[0] for a in p.free), tuple(a.values[-1] for a in p.free)]
    return list(dict.fromkeys(corners))


def _optimizer_class(name: str):
    from zsim.harness.tune import optimizer_class

    return optimizer_class(name, "NGOpt, DiscreteOnePlusOne, PortfolioDiscreteOnePlusOne, DE")


# ---------------------------------------------------------------- what a setting's sums say
def estimates(p: BalancePlan, m: Measured) -> dict[int, dict[str, tuple[float, float, float]]]:
    """Per player count, every measure a target may name: (value, lo, hi)."""
    g = get_game(p.game)
    out: dict[int, dict[str, tuple[float, float, float]]] = {}
    for n in p.players:
        row: dict[str, tuple[float, float, float]] = {}
        games = m.games[n].with_columns(pl.lit(0).alias("_k"))
        est = stats.estimates(games, ["_k"], rule_metrics.game_metrics(g)).row(0, named=True)
        for metric in rule_metrics.game_metrics(g):
            row[metric.name] = _triple(est, metric.name)
        count = float(games["n"][0])
        par = 1.0 / n
        shares = []
        for s in range(n):
            v, ci = stats._mean_ci(float(games[f"w{s}:s"][0]), float(games[f"w{s}:q"][0]), count)
            shares.append((v / stats.WIN_UNITS, ci / stats.WIN_UNITS))
        k = max(range(n), key=lambda s: abs(shares[s][0] - par))
        gap, ci = abs(shares[k][0] - par), shares[k][1]
        row["seat_gap"] = (gap, max(gap - ci, 0.0), gap + ci)
        seats = m.seats[n].drop("seat").sum().with_columns(pl.lit(0).alias("_k"))
        own = stats.estimates(seats, ["_k"], rule_metrics.seat_metrics(g)[1:]).row(0, named=True)
        for c in g.summary_columns:
            row[c.name] = _triple(own, c.name)
        if n in m.strong:
            sv, sci = stats._mean_ci(float(m.strong[n]["win_units:s"][0]), float(m.strong[n]["win_units:q"][0]),
                                     float(m.strong[n]["n"][0]))
            edge = sv / stats.WIN_UNITS - par
            row["skill_edge"] = (edge, edge - sci / stats.WIN_UNITS, edge + sci / stats.WIN_UNITS)
        out[n] = row
    return out


def _triple(row: dict, name: str) -> tuple[float, float, float]:
    v = row[name]
    if v is None:
        return (math.nan, math.nan, math.nan)
    if f"{name}_lo" in row:
        return (v, row[f"{name}_lo"], row[f"{name}_hi"])
    ci = row.get(f"{name}_ci95")
    ci = math.nan if ci is None else ci
    return (v, v - ci, v + ci)


@dataclass
class Judged:
    """A setting's targets: status per (target, player count), and its loss."""
    setting: tuple
    values: dict[int, dict[str, tuple[float, float, float]]]
    status: dict[tuple[str, int], str]
    loss: float
    blocks: int

    @property
    def open(self) -> int:
        return sum(s == "open" for s in self.status.values())

    @property
    def met(self) -> int:
        return sum(s == "met" for s in self.status.values())

    @property
    def meets_all(self) -> bool:
        return all(s == "met" for s in self.status.values())


def judge(p: BalancePlan, setting: tuple, m: Measured) -> Judged:
    values = estimates(p, m)
    status, loss = {}, 0.0
    for t in p.targets:
        for n in p.players:
            v, lo, hi = values[n].get(t.metric, (math.nan,) * 3)
            status[t.text, n] = t.status(lo, hi) if not math.isnan(v) else "open"
            loss += t.violation(v)
    return Judged(setting, values, status, loss, m.blocks)


def measure(p: BalancePlan, measurer: Measurer, setting: tuple, limit: int) -> Judged:
    """``setting`` played block by block until no target is open, it has
    MAX_BLOCKS blocks, or the games spent would pass ``limit``."""
    m = measurer.measured(setting)
    if m.blocks == 0:
        m = measurer.extend(setting)
    j = judge(p, setting, m)
    while j.open and m.blocks < MAX_BLOCKS and measurer.counted + p.block_games() <= limit:
        m = measurer.extend(setting)
        j = judge(p, setting, m)
    return j


# ---------------------------------------------------------------- the search
@dataclass
class Searched:
    judged: dict[tuple, Judged]
    best: Judged
    printed: Judged
    race: list[tuple]
    sensitivity: list[dict]
    search_games: int
    extra_games: int
    asked: int
    unplayable: int


def search(p: BalancePlan, measurer: Measurer) -> Searched:
    import nevergrad as ng

    cls = _optimizer_class(p.optimizer)
    choices = []
    for a in p.free:
        ordered = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in a.values)
        idx = list(range(len(a.values)))
        choices.append(ng.p.TransitionChoice(idx) if ordered and len(idx) > 2 else ng.p.Choice(idx))
    param = ng.p.Instrumentation(*choices)
    param.random_state = np.random.RandomState(np.random.MT19937(np.random.SeedSequence([p.seed, _STREAM])))
    search_limit = int(p.budget * (1 - RACE_SHARE))
    space = math.prod(len(a.values) for a in p.free)
    expected = max(2, search_limit // p.block_games())
    judged: dict[tuple, Judged] = {}
    unplayable: dict[tuple, str] = {}
    asked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # nevergrad's remarks on small budgets are not the user's concern
        opt = cls(parametrization=param, budget=expected, num_workers=1)
        printed_idx = tuple(a.values.index(v) for a, v in zip(p.free, p.printed))
        opt.suggest(*printed_idx)
        while measurer.counted + p.block_games() <= search_limit and asked < 20 * expected:
            cand = opt.ask()
            asked += 1
            setting = tuple(a.values[i] for a, i in zip(p.free, cand.args))
            if setting in unplayable:
                opt.tell(cand, UNPLAYABLE)
                continue
            if setting not in judged:
                try:
                    judged[setting] = measure(p, measurer, setting, search_limit)
                except ZsimError as exc:        # a setting the game cannot deal (too large a hand...)
                    unplayable[setting] = str(exc)
                    opt.tell(cand, UNPLAYABLE)
                    continue
            opt.tell(cand, judged[setting].loss)
            if len(judged) + len(unplayable) == space:
                break
    printed = judged.get(p.printed) or measure(p, measurer, p.printed, p.budget)
    judged[p.printed] = printed
    # the race: the best settings play further blocks, in turn, while the budget lasts
    ranked = sorted(judged.values(), key=_rank)
    finalists = [j.setting for j in ranked[:FINALISTS]]
    while finalists and measurer.counted + p.block_games() <= p.budget:
        grew = False
        for s in finalists:
            if measurer.counted + p.block_games() > p.budget:
                break
            judged[s] = judge(p, s, measurer.extend(s))
            grew = True
        if not grew:
            break
    spent = measurer.counted
    best = min(judged.values(), key=_rank)
    sensitivity = _sensitivity(p, measurer, best, judged)
    return Searched(judged, best, judged[p.printed], finalists, sensitivity, spent, measurer.counted - spent, asked,
                    len(unplayable))


def _rank(j: Judged):
    """Every target met first, then the smallest loss, then the fewest open targets, then the most games."""
    return (not j.meets_all, round(j.loss, 12), j.open, -j.blocks)


def _sensitivity(p: BalancePlan, measurer: Measurer, best: Judged, judged: dict) -> list[dict]:
    """Each free key of ``best`` moved one value down and up: which targets break (or stay open)."""
    rows = []
    for i, a in enumerate(p.free):
        at = a.values.index(best.setting[i])
        for step, j in ((-1, at - 1), (1, at + 1)):
            if not 0 <= j < len(a.values):
                continue
            setting = best.setting[:i] + (a.values[j],) + best.setting[i + 1:]
            if setting not in judged:
                try:
                    judged[setting] = measure(p, measurer, setting, math.inf)
                except ZsimError:          # a neighbour the game cannot deal
                    rows.append({"key": a.key, "value": _label(a.values[j]), "step": step,
                                 "breaks": "cannot be dealt", "still_open": ""})
                    continue
            other = judged[setting]
            broken = [f"{t} at {n}" for (t, n), s in other.status.items() if s == "broken"]
            opened = [f"{t} at {n}" for (t, n), s in other.status.items() if s == "open"]
            rows.append({"key": a.key, "value": _label(a.values[j]), "step": step,
                         "breaks": "; ".join(broken) or "nothing", "still_open": "; ".join(opened)})
    return rows


# ---------------------------------------------------------------- the answer
def _where(p: BalancePlan, setting: tuple) -> str:
    return ", ".join(f"{a.key}={_label(v)}" for a, v in zip(p.free, setting))


def _value_text(t: Target, v: tuple[float, float, float]) -> str:
    from analyses.report_format import format_interval

    value, lo, hi = v
    if math.isnan(value):
        return "–"
    return format_interval(value, lo, hi)


def tables(p: BalancePlan, s: Searched) -> dict[str, pl.DataFrame]:
    ranked = sorted(s.judged.values(), key=_rank)
    settings = []
    for j in ranked[:20]:
        row = {a.key: _label(v) for a, v in zip(p.free, j.setting)}
        row.update(meets="every target" if j.meets_all else f"{j.met} of {len(j.status)}", open=j.open,
                   loss=j.loss, games=j.blocks * p.block_games(), printed=j.setting == p.printed)
        settings.append(row)
    targets = []
    for t in p.targets:
        for n in p.players:
            b, pr = s.best, s.printed
            targets.append({"target": t.text, "players": n,
                            "best": _value_text(t, b.values[n].get(t.metric, (math.nan,) * 3)),
                            "best_status": b.status[t.text, n],
                            "printed": _value_text(t, pr.values[n].get(t.metric, (math.nan,) * 3)),
                            "printed_status": pr.status[t.text, n]})
    from analyses.sweep import typed_keys

    out = {"Settings, best first": typed_keys(pl.DataFrame(settings, infer_schema_length=None), p.free),
           "Targets at the best setting and at the printed rules": pl.DataFrame(targets)}
    if s.sensitivity:
        out["One step from the best setting"] = pl.DataFrame(s.sensitivity)
    return out


def findings(p: BalancePlan, s: Searched) -> list[str]:
    b, pr = s.best, s.printed
    meeting = [j for j in s.judged.values() if j.meets_all]
    if meeting:
        head = (f"{len(meeting)} of the {len(s.judged)} settings measured "
                f"{'meets' if len(meeting) == 1 else 'meet'} every target; the best is {_where(p, b.setting)}")
    else:
        missed = [f"{t} at {n} players ({st})" for (t, n), st in b.status.items() if st != "met"]
        head = (f"No setting of the {len(s.judged)} measured meets every target; the closest is "
                f"{_where(p, b.setting)}, which leaves {'; '.join(missed)}")
    out = [head + "."]
    out.append(f"The printed rules ({_where(p, pr.setting)}) meet {pr.met} of {len(pr.status)} targets"
               + (f", with {pr.open} still open" if pr.open else "") + ".")
    breaks = [r for r in s.sensitivity if r["breaks"] not in ("nothing",)]
    if s.sensitivity:
        out.append("One step from the best setting: " + ("; ".join(
            f"{r['key']}={r['value']} breaks {r['breaks']}" for r in breaks) if breaks else
            "no single step breaks a target") + ".")
    return out


def result(p: BalancePlan, s: Searched) -> AnalysisResult:
    g = get_game(p.game)
    t = tables(p, s)
    free = "; ".join(f"{a.key} over {', '.join(a.labels)}" for a in p.free)
    summary = (f"{g.title}: a search over {free} for {', '.join(t.text for t in p.targets)} at "
               f"{', '.join(map(str, p.players))} players, {p.field} in every seat"
               + (f", the skill edge by {p.strong}" if p.needs_strong else "")
               + f". {len(s.judged)} settings measured on the same deals, {p.batch:,} games a block and player "
               f"count, up to {MAX_BLOCKS} blocks each until every target is decided; {s.search_games:,} games "
               f"for the search and its race (budget {p.budget:,}), {s.extra_games:,} more for the one-step "
               f"table. A target is met when its 95% interval lies inside the bound (seed {p.seed}, "
               f"optimizer {p.optimizer}).")
    meta = {"game": p.game, "players": p.players, "free": {a.key: list(a.labels) for a in p.free},
            "targets": [t.text for t in p.targets], "budget": p.budget, "batch": p.batch, "seed": p.seed,
            "field": p.field, "strong": p.strong if p.needs_strong else None, "optimizer": p.optimizer,
            "settings_measured": len(s.judged), "asked": s.asked, "unplayable": s.unplayable,
            "search_games": s.search_games, "extra_games": s.extra_games,
            "best": {a.key: _label(v) for a, v in zip(p.free, s.best.setting)},
            "best_meets_every_target": s.best.meets_all}
    return AnalysisResult("balance", "Rules that meet the targets", summary, t, {}, meta, findings=findings(p, s))
