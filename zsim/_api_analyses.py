"""Every balance analysis of every game, as :func:`zsim.analyze` runs it.

Each analysis is one function here, keyword arguments with the defaults
``zsim analyze`` shows, that checks its options (before any game is
played) and returns the games it will play and the call that plays them.
``ANALYSES`` maps (game, name) to it; ``zsim analyze --game G NAME`` and
``zsim.analyze(NAME, game=G)`` both come here.

Private: only the names in ``zsim.api.__all__`` are stable.
"""
from __future__ import annotations

from typing import Callable

from zsim._api_inputs import check_int, game_deck, game_of, game_rules, int_list, spec_list
from zsim.errors import ZsimError

Prepared = tuple[int, Callable]      # (games in all, call(advance) -> AnalysisResult)


def _games_seed(games, seed) -> None:
    from zsim.runner import check_games_and_seed

    check_games_and_seed(check_int(games, "--games"), check_int(seed, "--seed"))


def _zahltag(rules, deck):
    game = game_of("zahltag")
    return game_rules(game, rules), game_deck(game, deck)


# ---------------------------------------------------------------- Zahltag
def hand_size(*, players=4, targets="0..12", deck=None, games=100_000, seed=0, field=None, rules=None) -> Prepared:
    from analyses.zahltag import hand_size as analysis

    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ZsimError(f"--players must be 2..4, got {players}")
    ks = int_list(targets, "--targets", 0, 12)
    r, d = _zahltag(rules, deck)
    _games_seed(games, seed)
    field = spec_list(field, "--field entry")
    total = sum(p.games for p in analysis.points(players, field, games, r, d, ks))
    return total, lambda adv: analysis.run(players, field, games, seed, r, d, adv, ks)


def payday_cost(*, players="4", deck=None, games=100_000, seed=0, field=None, rules=None) -> Prepared:
    from analyses.zahltag import payday_cost as analysis

    plist = int_list(players, "--players", 2, 4)
    r, d = _zahltag(rules, deck)
    _games_seed(games, seed)
    field = spec_list(field, "--field entry")
    total = sum(p.games for n in plist for p in analysis.points(n, field, games, r, d))
    return total, lambda adv: analysis.run(plist, field, games, seed, r, d, adv)


def players(*, players="2,3,4", deck=None, games=100_000, seed=0, field=None, rules=None) -> Prepared:
    from analyses.zahltag import players as analysis

    plist = int_list(players, "--players", 2, 4)
    r, d = _zahltag(rules, deck)
    _games_seed(games, seed)
    field = spec_list(field, "--field entry")
    main, know = analysis.points(plist, field, games, r, d)
    total = sum(p.games for p in main + know)
    return total, lambda adv: analysis.run(plist, field, games, seed, r, d, adv)


def deck(*, players="4", decks=(), perturb=3, games=100_000, seed=0, field=None, rules=None) -> Prepared:
    from analyses.zahltag import deck as analysis
    from analyses.common import field_specs
    from zsim.runner import Matchup

    plist = int_list(players, "--players", 2, 4)
    if isinstance(perturb, bool) or not isinstance(perturb, int) or not 0 <= perturb <= 50:
        raise ZsimError(f"--perturb must be 0..50, got {perturb}")
    if decks is None or isinstance(decks, str) or not hasattr(decks, "__iter__"):
        decks = () if decks is None else (decks,)
    game = game_of("zahltag")
    r = game_rules(game, rules)
    extra = [game_deck(game, f) for f in decks]
    _games_seed(games, seed)
    field = spec_list(field, "--field entry")
    for n in plist:
        seats = tuple(field_specs(field, n))
        for d in extra:
            Matchup(n, seats, r, d)   # refuses a deck the supply cannot serve, before any game
    total = games * (1 + len(extra) + perturb) * len(plist)
    return total, lambda adv: analysis.run(plist, field, games, seed, r, extra, perturb, adv)


def tradeoff(*, players="2,3,4", targets="0..12", costs="0..3", hand_sizes="3..11", deck=None, games=100_000,
             seed=0, field=None, rules=None) -> Prepared:
    from analyses.zahltag import tradeoff as analysis
    from zsim._api_inputs import rule_options
    from zsim.games.zahltag.rules import SPEC_BY_KEY

    plist = int_list(players, "--players", 2, 4)
    ks = int_list(targets, "--targets", *analysis.target_limits())
    cost, hand = SPEC_BY_KEY["payday_cost"], SPEC_BY_KEY["hand_size"]
    cs = int_list(costs, "--costs", cost.low, cost.high)
    hs = int_list(hand_sizes, "--hand-sizes", hand.low, hand.high)
    analysis.check_rule_keys(item.partition("=")[0].strip() for item in rule_options(rules))
    r, d = _zahltag(rules, deck)
    _games_seed(games, seed)
    field = spec_list(field, "--field entry")
    total = analysis.total_games(plist, field, games, r, d, ks, cs, hs)
    return total, lambda adv: analysis.run(plist, field, games, seed, r, d, adv, ks, cs, hs)


# ---------------------------------------------------------------- Zahlemann & Söhne
def _zahlemann(players, rules, games, seed, refuse=(), analysis=""):
    from analyses.zahlemann.questions import refuse_keys
    from zsim._api_inputs import rule_options

    game = game_of("zahlemann")
    plist = int_list(players, "--players", game.min_players, game.max_players)
    refuse_keys(rule_options(rules), refuse, analysis)
    r = game_rules(game, rules, max(plist))
    _games_seed(games, seed)
    return plist, r


def _zahlemann_skill(skilled, weak):
    from analyses.zahlemann.measure import check_spec

    return check_spec(spec_list(skilled), "--skilled"), check_spec(spec_list(weak), "--weak")


def _zahlemann_total(pts) -> int:
    from analyses.zahlemann.measure import games_of

    return games_of(pts)


def zahlemann_players(*, players="2,3,4", skilled="counter", weak="random", games=100_000, seed=0, field=None,
                      rules=None) -> Prepared:
    from analyses.zahlemann import questions as q

    plist, r = _zahlemann(players, rules, games, seed)
    skill, field = _zahlemann_skill(skilled, weak), spec_list(field, "--field entry")
    total = _zahlemann_total(q.players_points(plist, field, games, r, skill))
    return total, lambda adv: q.players_run(plist, field, games, seed, r, adv, skill)


def zahlemann_variants(*, players="2,4", skilled="counter", weak="random", games=100_000, seed=0, field=None,
                       rules=None) -> Prepared:
    from analyses.zahlemann import questions as q

    plist, r = _zahlemann(players, rules, games, seed, q.VARIANT_KEYS, "variants")
    skill, field = _zahlemann_skill(skilled, weak), spec_list(field, "--field entry")
    total = _zahlemann_total(q.variants_points(plist, field, games, r, skill))
    return total, lambda adv: q.variants_run(plist, field, games, seed, r, adv, skill)


def zahlemann_hand_size(*, players="2,4", hand_sizes="3..8", skilled="counter", weak="random", games=100_000,
                        seed=0, field=None, rules=None) -> Prepared:
    from analyses.zahlemann import questions as q
    from zsim.games.zahlemann.rules import SPEC_BY_KEY

    spec = SPEC_BY_KEY["hand_size"]
    sizes = int_list(hand_sizes, "--hand-sizes", spec.low, spec.high)
    plist, r = _zahlemann(players, rules, games, seed, ("hand_size",), "hand-size")
    skill, field = _zahlemann_skill(skilled, weak), spec_list(field, "--field entry")
    total = _zahlemann_total(q.hand_points(plist, field, games, r, sizes, skill))  # refuses a hand too large
    return total, lambda adv: q.hand_run(plist, field, games, seed, r, adv, sizes, skill)


def zahlemann_money(*, players="2,4", games=100_000, seed=0, field=None, rules=None) -> Prepared:
    from analyses.zahlemann import questions as q

    plist, r = _zahlemann(players, rules, games, seed, q.MONEY_KEYS, "money")
    field = spec_list(field, "--field entry")
    total = _zahlemann_total(q.money_points(plist, field, games, r))
    return total, lambda adv: q.money_run(plist, field, games, seed, r, adv)


def zahlemann_forget(*, players="2,4", forgets="0,0.1,0.2,0.3,0.4,0.5", games=100_000, seed=0, field=None,
                     rules=None) -> Prepared:
    from analyses.zahlemann import forget as analysis

    if not isinstance(forgets, str):
        try:
            forgets = ",".join(repr(float(f)) for f in forgets)
        except (TypeError, ValueError):
            raise ZsimError(f"--forgets must be a comma list of chances within 0..1, got {forgets!r}") from None
    fs = analysis.parse_forgets(forgets)
    plist, r = _zahlemann(players, rules, games, seed)
    field = spec_list(field, "--field entry")
    total = _zahlemann_total(analysis.points(plist, field, games, r, fs))
    return total, lambda adv: analysis.run(plist, field, games, seed, r, adv, fs)


# ---------------------------------------------------------------- Wettstreit der Baumeister
def _baumeister(players, rules, deck, games, seed, field, refuse=(), analysis=""):
    from analyses.baumeister.measure import check_spec
    from analyses.baumeister.questions import refuse_keys
    from zsim._api_inputs import rule_options

    game = game_of("baumeister")
    plist = int_list(players, "--players", game.min_players, game.max_players)
    refuse_keys(rule_options(rules), refuse, analysis)
    r = game_rules(game, rules, max(plist))
    d = game_deck(game, deck)
    field = spec_list(field, "--field entry")
    if field is not None:
        for spec in field.split(","):
            check_spec(spec, "--field entry")
    _games_seed(games, seed)
    return plist, r, d, field


def _baumeister_skill(skilled, weak):
    from analyses.baumeister import measure

    return (measure.check_spec(spec_list(skilled) or measure.SKILLED, "--skilled"),
            measure.check_spec(spec_list(weak) or measure.WEAK, "--weak"))


def baumeister_players(*, players="2,3,4", skilled=None, weak=None, games=100_000, seed=0, field=None,
                       rules=None, deck=None) -> Prepared:
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, field = _baumeister(players, rules, deck, games, seed, field)
    skill = _baumeister_skill(skilled, weak)
    total = measure.games_of(q.players_points(plist, field, games, r, d, skill))
    return total, lambda adv: q.players_run(plist, field, games, seed, r, d, adv, skill)


def baumeister_prices(*, players="2,4", games=100_000, seed=0, field=None, rules=None, deck=None) -> Prepared:
    from analyses.baumeister import prices

    plist, r, d, field = _baumeister(players, rules, deck, games, seed, field)
    return prices.total_games(plist, field, games, r, d), lambda adv: prices.run(plist, field, games, seed, r, d, adv)


def baumeister_gates(*, players="2,4", games=100_000, seed=0, field=None, rules=None, deck=None) -> Prepared:
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, field = _baumeister(players, rules, deck, games, seed, field)
    total = measure.games_of(q.gates_points(plist, field, games, r, d))
    return total, lambda adv: q.gates_run(plist, field, games, seed, r, d, adv)


def baumeister_bonuses(*, players="2,4", games=100_000, seed=0, field=None, rules=None, deck=None) -> Prepared:
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, field = _baumeister(players, rules, deck, games, seed, field)
    total = measure.games_of(q.bonuses_points(plist, field, games, r, d))
    return total, lambda adv: q.bonuses_run(plist, field, games, seed, r, d, adv)


def baumeister_sabotage(*, players="2,4", skilled=None, weak=None, games=100_000, seed=0, field=None, rules=None,
                        deck=None) -> Prepared:
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, field = _baumeister(players, rules, deck, games, seed, field, q.SABOTAGE_KEYS, "sabotage")
    skill = _baumeister_skill(skilled, weak)
    total = measure.games_of(q.sabotage_points(plist, field, games, r, d, skill))
    return total, lambda adv: q.sabotage_run(plist, field, games, seed, r, d, adv, skill)


def baumeister_auctioneer(*, players="2,3,4", games=100_000, seed=0, field=None, rules=None, deck=None) -> Prepared:
    from analyses.baumeister import measure
    from analyses.baumeister import questions as q

    plist, r, d, field = _baumeister(players, rules, deck, games, seed, field)
    total = measure.games_of(q.auctioneer_points(plist, field, games, r, d))
    return total, lambda adv: q.auctioneer_run(plist, field, games, seed, r, d, adv)


#: (game, analysis) -> its preparation
ANALYSES: dict[tuple[str, str], Callable[..., Prepared]] = {
    ("zahltag", "hand-size"): hand_size,
    ("zahltag", "payday-cost"): payday_cost,
    ("zahltag", "players"): players,
    ("zahltag", "deck"): deck,
    ("zahltag", "tradeoff"): tradeoff,
    ("zahlemann", "players"): zahlemann_players,
    ("zahlemann", "variants"): zahlemann_variants,
    ("zahlemann", "hand-size"): zahlemann_hand_size,
    ("zahlemann", "money"): zahlemann_money,
    ("zahlemann", "forget"): zahlemann_forget,
    ("baumeister", "players"): baumeister_players,
    ("baumeister", "prices"): baumeister_prices,
    ("baumeister", "gates"): baumeister_gates,
    ("baumeister", "bonuses"): baumeister_bonuses,
    ("baumeister", "sabotage"): baumeister_sabotage,
    ("baumeister", "auctioneer"): baumeister_auctioneer,
}


def names(game: str) -> list[str]:
    """The analyses of ``game``, in the order ``zsim analyze --help`` lists them (by name)."""
    return sorted(n for g, n in ANALYSES if g == game)


def find(name: str, game: str) -> Callable[..., Prepared]:
    """The analysis ``name`` of ``game``, or one line naming what there is."""
    g = game_of(game)
    own = names(g.name)
    if not own:
        raise ZsimError(f"{g.title} has no analyses in zsim yet; `zsim simulate --game {g.name}` "
                        f"and `zsim tournament --game {g.name}` play it")
    if (g.name, name) not in ANALYSES:
        others = [other for other, n in ANALYSES if n == name and other != g.name]
        where = f" ({name!r} is an analysis of {', '.join(others)})" if others else ""
        raise ZsimError(f"{g.name} has no analysis {name!r}{where}; its analyses: {', '.join(own)}")
    return ANALYSES[(g.name, name)]


# ---------------------------------------------------------------- reports
def report_plan(*, game="zahltag", players="2,3,4", games=20_000, tournament_games=None, seed=0, field=None,
                rules=None, deck=None):
    """(module, plan, title) of ``zsim report`` for ``game``, every option checked."""
    from zsim._api_inputs import rule_options

    g = game_of(game)
    if g.name != "zahltag":
        game_deck(g, deck)                     # a deck for a game without one: one line
        if g.name not in ("zahlemann", "baumeister"):
            raise ZsimError(f"{g.title} has no report in zsim yet")
    plist = int_list(players, "--players", g.min_players, g.max_players)
    field = spec_list(field, "--field entry")
    if g.name == "zahltag":
        from analyses.zahltag import report_run

        r, d = _zahltag(rules, deck)
        _games_seed(games, seed)
        return report_run, report_run.Plan(plist, field, games, _deals(tournament_games, games), seed, r, d), \
            "zsim report"
    if g.name == "zahlemann":
        from analyses.zahlemann import report_run

        report_run.check_rules(rule_options(rules))
        r = game_rules(g, rules, max(plist))
        _games_seed(games, seed)
        return report_run, report_run.Plan(plist, field, games, _deals(tournament_games, games), seed, r), \
            "zsim report: Zahlemann & Söhne"
    from analyses.baumeister import report_run
    from analyses.baumeister.measure import check_spec

    report_run.check_rules(rule_options(rules))
    r = game_rules(g, rules, max(plist))
    d = game_deck(g, deck)
    if field is not None:
        for spec in field.split(","):
            check_spec(spec, "--field entry")
    _games_seed(games, seed)
    return report_run, report_run.Plan(plist, field, games, _deals(tournament_games, games), seed, r, d), \
        "zsim report: Wettstreit der Baumeister"


def _deals(tournament_games, games: int) -> int:
    """``tournament_games``, by default a twentieth of ``games``."""
    deals = tournament_games if tournament_games is not None else max(1, games // 20)
    if deals < 1:
        raise ZsimError(f"--tournament-games must be at least 1, got {deals}")
    return deals
