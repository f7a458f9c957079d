"""Parameter tuning: search a strategy's parameters for the best win share
against a field, then measure the winner on games the search never saw.

How a candidate is scored
    A candidate (one value per parameter, each a float in its ``[low, high]``)
    plays *duplicate deals*: every deal (one game index of the run seed) is
    played once with the tuned strategy in each seat, the field filling the
    other seats in the same cyclic order. Its score is its mean win share over
    all those games (a shared first place is split, as in ``simulate``), so no
    seat's advantage favours one candidate over another, and the deal's luck
    is the same for every seat. The unit of noise is the deal: the 95%
    confidence half-width comes from the spread of the per-deal means.

The search
    nevergrad (Meta's gradient-free optimisation library, maintained, with
    wheels for every platform) proposes the candidates. We chose it because
    it is built for noisy black-box objectives, which is what a win share
    measured on a few thousand games is, and because it offers a whole
    registry of optimisers behind one ask/tell interface, so ``--optimizer``
    can name any of them. The default is its differential evolution
    (``DE``, a population of 30 that evolves by recombining differences of
    its members, so it keeps exploring the whole range): on the problems we
    measured it was at most one seed in twenty behind the best, while the
    noise-specific (1+1) and population-control methods (NoisyOnePlusOne,
    TBPSA) often settled on a plateau (README, ``zsim tune``).
    nevergrad draws all its randomness from the parametrization's
    ``random_state``, which we seed from ``seed``; the games are a pure
    function of (seed, game index); so a tune is reproducible bit for bit
    under the same nevergrad version (``tests/test_tune.py`` checks it).

The race
    A candidate's score is one batch of games, so the best score of many is
    flattered by luck. ``RACE_SHARE`` of the budget therefore goes to a
    race: the optimiser's own recommendation and the candidates with the best
    scores (``MAX_FINALISTS`` in all) play the same further deals, and the best
    of those wins. Its figure is still flattered a little, which is why the
    figures reported come from the fresh deals only.

Which games are used (the seeds)
    Everything is played under the run seed ``seed``. The search and the race
    use the game indices from ``TUNE_FIRST`` up: each candidate gets its own
    block of deals (no two candidates share a game), then the finalists all
    play one further block. The final evaluation uses the indices from
    ``EVAL_FIRST`` (2**61) up, and the search may never reach them (the
    budget is capped). A game's key is a bijective hash of its index under a
    given seed (:func:`zsim.rng.game_key`), so disjoint index ranges are
    distinct games: the reported win shares are measured on fresh deals.
    The best and the default parameters play the same fresh deals, so their
    difference is measured deal by deal (a paired comparison).
"""
from __future__ import annotations

import functools

import math
import warnings
from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

from zsim.errors import ZsimError
from zsim.game_registry import DEFAULT_GAME, get_game
from zsim.harness.chunks import DEFAULT_CHUNK, MAX_GAME_INDEX, MAX_SEED, Matchup, chunk_outputs, play_chunk
from zsim.strategy import Param
from zsim.strategy_registry import parse_one, registry

#: first game index of the search's deals
TUNE_FIRST = 0
#: first game index of the final evaluation's deals; the search may use at most
#: EVAL_FIRST deals, so the two ranges can never meet
EVAL_FIRST = 1 << 61
MAX_EVAL_DEALS = MAX_GAME_INDEX - EVAL_FIRST + 1
DEFAULT_OPTIMIZER = "DE"
DEFAULT_BATCH = 2000            # games per candidate at most, by default (see auto_batch)
DEFAULT_EVAL_GAMES = 20_000
#: share of the budget spent racing the finalists, and how many there are at most
RACE_SHARE = 0.2
MAX_FINALISTS = 8
#: mixed with the seed to seed the optimiser (its randomness is not the games')
_OPTIMIZER_STREAM = 0x74756E65  # "tune"


@dataclass(frozen=True)
class Estimate:
    """A mean win share over ``deals`` duplicate deals, with its 95% half-width."""
    win_share: float
    ci95: float
    games: int
    deals: int


@dataclass(frozen=True)
class TuneResult:
    strategy: str
    field: tuple[str, ...]          # the opponents, in cyclic order after the tuned seat
    players: int
    seed: int
    optimizer: str
    budget: int                     # games the search and the race were allowed
    tuning_games: int               # games they played (<= budget)
    tuning_first: int               # their game indices: tuning_first .. tuning_first + tuning_deals - 1
    tuning_deals: int
    candidates: int                 # candidates the optimiser tried (one evaluation each)
    distinct_candidates: int        # distinct parameter vectors among them
    batch_games: int                # games per candidate
    finalists: int                  # candidates in the race (0: budget too small for one)
    race_games: int                 # games per finalist, the same deals for each
    recommended: dict[str, float]   # the optimiser's own pick (a finalist)
    best_params: dict[str, float]   # the race's winner
    best_spec: str
    default_spec: str
    eval_first: int                 # the fresh deals: eval_first .. eval_first + eval deals - 1
    best: Estimate                  # the best parameters on the fresh deals
    default: Estimate               # the default parameters on the same fresh deals
    difference: Estimate            # best - default, paired deal by deal

    def to_json(self) -> dict:
        d = asdict(self)
        d["field"] = list(self.field)
        return d


# ---------------------------------------------------------------- setup checks
def tunable_params(strategy: str, game: str = DEFAULT_GAME) -> tuple[Param, ...]:
    """The parameters of ``strategy`` (a bare name), or a one-line error. The
    parameters every strategy of the game shares (Zahlemann's ``forget``: how
    a person plays, not a choice of the strategy) are not tuned."""
    name = strategy.strip()
    if ":" in name:
        raise ZsimError(f"give the strategy to tune as a bare name (all its parameters are tuned), "
                        f"got {strategy!r}")
    parse_one(name, game)                # unknown name -> the registry's own message
    params = tuple(p for p in registry(game)[name].params[len(get_game(game).strategies.common_params):] if p.tuned)
    if not params:
        raise ZsimError(f"strategy {name} has no parameters to tune")
    return params


def parse_field(vs: str, players: int, game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """``--vs``: one spec for every other seat, or exactly ``players - 1``
    specs (an empty entry is refused, not dropped)."""
    from zsim.errors import entries

    specs = [parse_one(s, game) for s in entries(vs, "--vs", "strategy")]
    if len(specs) == 1:
        return tuple(specs * (players - 1))
    if len(specs) != players - 1:
        raise ZsimError(f"--vs lists {len(specs)} strategies for the {players - 1} other seats "
                        f"(give one for all, or one per other seat)")
    return tuple(specs)


def seating(spec: str, field: tuple[str, ...], seat: int) -> tuple[str, ...]:
    """The table with ``spec`` in ``seat`` and the field after it, cyclically."""
    order = (spec, *field)
    p = len(order)
    seats = [""] * p
    for j, s in enumerate(order):
        seats[(seat + j) % p] = s
    return tuple(seats)


def candidate_spec(name: str, params: tuple[Param, ...], values: dict[str, float],
                   game: str = DEFAULT_GAME) -> str:
    """The canonical spec of a candidate (what the engine will read)."""
    return parse_one(":".join([name, *(f"{p.name}={values[p.name]!r}" for p in params)]), game)


def representable(params: tuple[Param, ...], values: dict[str, float]) -> dict[str, float]:
    """Each value clipped to its bounds and rounded as a canonical spec stores
    it (``%g``), so the values reported are exactly the values played."""
    out = {}
    for p in params:
        v = min(max(float(values[p.name]), p.low), p.high)
        r = float(f"{v:g}")
        out[p.name] = r if p.low <= r <= p.high else v
    return out


# ---------------------------------------------------------------- playing deals
def deal_win_shares(spec: str, field: tuple[str, ...], rules, deck, seed: int,
                    first: int, deals: int, chunk: int = DEFAULT_CHUNK,
                    on_games: Callable[[int], None] | None = None, game: str = DEFAULT_GAME) -> np.ndarray:
    """Win share of ``spec`` per deal, averaged over its seats: float64 [deals].

    Deal *d* is game index ``first + d`` of ``seed``, played ``players``
    times, once with ``spec`` in each seat. ``on_games(n)`` is told the games
    of every chunk played (a progress report)."""
    players = len(field) + 1
    out = np.zeros(deals, np.float64)
    tables = [Matchup(players, seating(spec, field, s), rules, deck, game) for s in range(players)]
    place = get_game(game).seat_index("place")
    outputs = chunk_outputs(tables[0], min(chunk, deals))
    done = 0
    while done < deals:
        n = min(chunk, deals - done)
        for s, m in enumerate(tables):
            seat_out, _ = play_chunk(m, seed, first + done, n, *outputs)
            top = seat_out[:, :, place] == 1
            out[done:done + n] += top[:, s] / np.maximum(top.sum(axis=1), 1)
            if on_games is not None:
                on_games(n)
        done += n
    return out / players


def estimate(per_deal: np.ndarray, players: int) -> Estimate:
    n = per_deal.shape[0]
    sd = float(per_deal.std(ddof=1)) if n > 1 else math.nan
    return Estimate(float(per_deal.mean()), 1.96 * sd / math.sqrt(n), n * players, n)


# ---------------------------------------------------------------- the search
def check_tune_args(players: int, budget: int, batch: int | None, eval_games: int, seed: int) -> None:
    if budget <= 0:
        raise ZsimError(f"--budget must be at least 1 game, got {budget}")
    if budget < players:
        raise ZsimError(f"--budget must be at least {players} games (one deal from every seat), "
                        f"got {budget}")
    if budget // players > EVAL_FIRST - TUNE_FIRST:
        raise ZsimError(f"--budget must stay below {players} * 2**61 games, got {budget}")
    if batch is not None and batch < players:
        raise ZsimError(f"--batch must be at least {players} games (one deal from every seat), "
                        f"got {batch}")
    if eval_games < 2 * players:
        raise ZsimError(f"--eval-games must be at least {2 * players} games (two deals from "
                        f"every seat), got {eval_games}")
    if eval_games // players > MAX_EVAL_DEALS:
        raise ZsimError(f"--eval-games must stay below {players} * 2**61 games, got {eval_games}")
    if not 0 <= seed <= MAX_SEED:
        raise ZsimError(f"--seed must be in 0..2**64-1, got {seed}")


@dataclass(frozen=True)
class BudgetPlan:
    candidates: int
    deals_per_candidate: int
    finalists: int
    race_deals: int             # per finalist (0: no race)


def auto_batch(budget: int, players: int) -> int:
    """The default games per candidate: enough candidates for the search to
    explore (a hundredth of the budget each), at most ``DEFAULT_BATCH``, at
    least one deal."""
    return max(players, min(DEFAULT_BATCH, budget // 100))


def plan_budget(budget: int, batch: int, players: int) -> BudgetPlan:
    """Split ``budget`` games into the search and the race (whole deals only).

    The race gets ``RACE_SHARE`` of the budget and one finalist per five
    candidates the search could otherwise try (``MAX_FINALISTS`` at most);
    with fewer than two finalists there is no race."""
    per = max(1, min(batch, budget) // players)
    finalists = min(MAX_FINALISTS, budget // (per * players) // 5)
    race_deals = int(budget * RACE_SHARE) // (finalists * players) if finalists >= 2 else 0
    if race_deals == 0:
        finalists = 0
    search = budget - race_deals * finalists * players
    return BudgetPlan(search // (per * players), per, finalists, race_deals)


def planned_games(players: int, budget: int, batch: int | None = None,
                  eval_games: int = DEFAULT_EVAL_GAMES) -> int:
    """The games :func:`tune` will play at most: the search and the race as
    planned, then the fresh evaluation of the best and of the default (fewer
    when the race has fewer distinct finalists, or when the best is the
    default and its evaluation serves for both). The total of a progress bar."""
    batch = auto_batch(budget, players) if batch is None else batch
    plan = plan_budget(budget, batch, players)
    tuning = (plan.candidates * plan.deals_per_candidate + plan.finalists * plan.race_deals) * players
    return tuning + 2 * (eval_games // players) * players


def optimizer_class(name: str, examples: str = "DE, TwoPointsDE, NoisyDE, TBPSA, OnePlusOne"):
    """nevergrad's optimiser ``name``, refused in one line naming a few (``examples``)."""
    import nevergrad as ng

    cls = ng.optimizers.registry.get(name)
    if cls is None:
        raise ZsimError(f"unknown optimizer {name!r} (one of nevergrad's, e.g. {examples})")
    return cls


def _mean_share(values: dict[str, float], first: int, deals: int, *, name, params, field, rules, deck, seed,
                on_games, game) -> float:
    """The candidate ``values``' mean win share over ``deals`` deals from deal ``first``."""
    return float(deal_win_shares(candidate_spec(name, params, values, game), field, rules, deck, seed, first, deals,
                                 on_games=on_games, game=game).mean())


def _key(params, values: dict[str, float]) -> tuple[float, ...]:
    return tuple(values[p.name] for p in params)


def _search(params, plan, optimizer: str, seed: int, play, on_candidate):
    """The optimiser's search: each candidate on its own deals, in turn. Returns every
    candidate's scores (insertion order = first evaluation) and the optimiser's recommendation."""
    import nevergrad as ng

    cls = optimizer_class(optimizer)
    parametrization = ng.p.Dict(**{
        p.name: ng.p.Scalar(init=p.default, lower=p.low, upper=p.high) for p in params})
    parametrization.function.deterministic = False    # tells noise-aware optimisers the truth
    parametrization.random_state = np.random.RandomState(
        np.random.MT19937(np.random.SeedSequence([seed, _OPTIMIZER_STREAM])))
    next_deal = TUNE_FIRST
    scores: dict[tuple[float, ...], list[float]] = {}
    with warnings.catch_warnings():
        # nevergrad warns about budgets it finds small for an optimiser; not the user's problem
        warnings.simplefilter("ignore")
        try:
            opt = cls(parametrization=parametrization, budget=plan.candidates, num_workers=1)
            for i in range(plan.candidates):
                cand = opt.ask()
                values = representable(params, cand.value)
                share = play(values, next_deal, plan.deals_per_candidate)
                next_deal += plan.deals_per_candidate
                opt.tell(cand, -share)
                scores.setdefault(_key(params, values), []).append(share)
                if on_candidate is not None:
                    on_candidate(i, plan.candidates, values, share)
            recommended = representable(params, opt.provide_recommendation().value)
        except ImportError as exc:   # a few of nevergrad's optimisers need optional packages
            raise ZsimError(f"optimizer {optimizer} needs a package zsim does not install: "
                            f"{exc}") from None
    return scores, recommended


def _race(params, plan, scores, recommended, play, first: int):
    """The race: the optimiser's recommendation and the candidates with the best mean
    scores play the same fresh tuning deals from ``first``; the best of them wins (the
    first of equals: the recommendation). Returns the winner's key and the race's shares."""
    by_score = sorted(scores, key=lambda k: -float(np.mean(scores[k])))   # stable: ties by first seen
    top = _key(params, recommended)
    finalists = ([top] + [k for k in by_score if k != top])[:max(1, plan.finalists)]
    if not plan.race_deals:
        return finalists[0], []
    race = [play(dict(zip((p.name for p in params), k)), first, plan.race_deals) for k in finalists]
    return finalists[int(np.argmax(race))], race


def tune(strategy: str, field: tuple[str, ...], *, budget: int, seed: int = 0,
         batch: int | None = None, eval_games: int = DEFAULT_EVAL_GAMES, rules=None,
         deck=None, optimizer: str = DEFAULT_OPTIMIZER, game: str = DEFAULT_GAME,
         on_candidate: Callable[[int, int, dict[str, float], float], None] | None = None,
         on_games: Callable[[int], None] | None = None) -> TuneResult:
    """Search ``strategy``'s parameters for the best win share against
    ``field`` (canonical specs of the other seats) with at most ``budget``
    games, then evaluate the winner and the defaults on ``eval_games`` fresh
    games each (rounded down to whole deals).

    The budget is split: ``RACE_SHARE`` of it races the finalists, the rest
    goes to the optimiser, ``batch`` games (whole deals; default
    :func:`auto_batch`) per candidate.
    ``on_candidate(i, n, values, win_share)`` is told every search evaluation;
    ``on_games(n)`` the games of every chunk played, search, race and
    evaluation alike (at most :func:`planned_games` in all)."""
    spec = get_game(game)
    rules = rules or spec.default_rules()
    deck = deck or spec.default_deck()
    players = len(field) + 1
    params = tunable_params(strategy, game)
    name = strategy.strip()
    batch = auto_batch(budget, players) if batch is None else batch
    check_tune_args(players, budget, batch, eval_games, seed)
    Matchup(players, seating(name, field, 0), rules, deck, game)   # rules, deck and players checked once

    plan = plan_budget(budget, batch, players)
    play = functools.partial(_mean_share, name=name, params=params, field=field, rules=rules, deck=deck, seed=seed,
                             on_games=on_games, game=game)
    scores, recommended = _search(params, plan, optimizer, seed, play, on_candidate)
    next_deal = TUNE_FIRST + plan.candidates * plan.deals_per_candidate
    winner, race = _race(params, plan, scores, recommended, play, next_deal)
    next_deal += plan.race_deals if plan.race_deals else 0
    best = dict(zip((p.name for p in params), winner))

    tuning_deals = next_deal - TUNE_FIRST
    assert TUNE_FIRST + tuning_deals <= EVAL_FIRST      # the search never reaches the fresh deals
    best_spec = candidate_spec(name, params, best, game)
    default_spec = parse_one(name, game)
    eval_deals = eval_games // players
    best_deals = deal_win_shares(best_spec, field, rules, deck, seed, EVAL_FIRST, eval_deals,
                                 on_games=on_games, game=game)
    if best_spec == default_spec:
        default_deals = best_deals
    else:
        default_deals = deal_win_shares(default_spec, field, rules, deck, seed, EVAL_FIRST, eval_deals,
                                        on_games=on_games, game=game)

    tuning_games = (plan.candidates * plan.deals_per_candidate
                    + len(race) * plan.race_deals) * players
    return TuneResult(
        strategy=name, field=field, players=players, seed=seed, optimizer=optimizer,
        budget=budget, tuning_games=tuning_games, tuning_first=TUNE_FIRST, tuning_deals=tuning_deals,
        candidates=plan.candidates, distinct_candidates=len(scores),
        batch_games=plan.deals_per_candidate * players, finalists=len(race),
        race_games=plan.race_deals * players, recommended=recommended, best_params=best,
        best_spec=best_spec, default_spec=default_spec, eval_first=EVAL_FIRST,
        best=estimate(best_deals, players), default=estimate(default_deals, players),
        difference=estimate(best_deals - default_deals, players))
