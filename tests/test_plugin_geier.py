"""Hol's der Geier, a game plugged in from outside zsim (examples/geier).

tests/conftest.py installs the package with pip before zsim is imported;
tests/test_games_conformance.py covers it with every registered game. This
file checks what is the plugin's own: that zsim plays the installed
package, the rules as its README states them, the two engines equal game by
game, the strategies fair, and every command of zsim on it.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from numba import njit

from zsim.cli import cli, main
from zsim.errors import ZsimError
from zsim.jit import highest_bit_nb, lowest_bit_nb
from zsim.games import get_game
from zsim.harness.chunks import Matchup, play_chunk
from zsim.strategy_registry import bots, registry, strategy_arrays

from conftest import EXAMPLE_GAME_SITE

import zsim_geier
from zsim_geier import constants as K
from zsim_geier.engine_nb import bid_one_nb
from zsim_geier.batch import reference_rows, rules_array
from zsim_geier.reference_kernels import play_reference_game
from zsim_geier.reference import Game, RuleError
from zsim_geier.rules import Rules

GAME = get_game("geier")
SEED = 20261207
BOTS = ("random", "matcher", "greedy")
#: rule sets every game-by-game comparison runs under
RULE_SETS = {"default": {}, "discard": {"carry_over": "false"},
             "mice_only": {"vultures": "0", "top_prize": "15"}, "small": {"vultures": "10", "top_prize": "5"}}


def rules_of(options: dict, players: int | None = None) -> Rules:
    return GAME.parse_rules([f"{k}={v}" for k, v in options.items()], players)


# ---------------------------------------------------------------- the installed package
def test_zsim_plays_the_package_pip_installed():
    from importlib.metadata import distribution

    from zsim.strategy_discovery import plugin_sources

    assert zsim_geier.__file__.startswith(EXAMPLE_GAME_SITE)
    eps = distribution("zsim-geier").entry_points
    assert {(e.group, e.name, e.value) for e in eps} >= {("zsim.games", "geier", "zsim_geier.game"),
                                                         ("zsim.strategies.geier", "matcher",
                                                          "zsim_geier.strategies.matcher")}
    assert type(GAME).__module__ == "zsim_geier.game"
    # pip installed every module of the source tree (pyproject.toml lists each package)
    source = Path(__file__).resolve().parents[1] / "examples" / "geier"
    site = Path(EXAMPLE_GAME_SITE)
    assert ({p.relative_to(source) for p in (source / "zsim_geier").rglob("*.py")}
            == {p.relative_to(site) for p in (site / "zsim_geier").rglob("*.py")})
    assert sorted(s.name for s in bots("geier")) == sorted(BOTS)
    assert {"ismcts", "pimc", "seer"} <= set(registry("geier"))     # its forward model gives it zsim's searches
    # the strategies are entry points, so their sources are in the kernel cache's digest
    sources = {str(p) for p in plugin_sources()}
    assert all(registry("geier")[b].module.replace(".", "/") + ".py" in "\n".join(sources) for b in BOTS)


# ---------------------------------------------------------------- the rules, played out
class Script:
    """Chance and decider of a hand-made game: the deck, then each round's bids."""

    def __init__(self, deck, bids):
        self.deck, self.bids = deck, [list(b) for b in bids]

    def prize_deck(self, game):
        return self.deck

    def bid(self, game, seat):
        return self.bids[game.round_no - 1][seat]


def scripted(deck, bids, players=3, **rules) -> Game:
    rules = Rules().with_overrides(rules)
    game = Game(players, rules, Script(deck, bids), Script(deck, bids), record=True)
    game.play()
    return game


def _rounds(deck: list[int], head: list[list[int]], players: int) -> list[list[int]]:
    """``head`` then, for the remaining rounds, seat s bidding its k-th lowest card left."""
    bids = [list(b) for b in head]
    for r in range(len(head), len(deck)):
        hands = [sorted(set(range(1, len(deck) + 1)) - {b[s] for b in bids}) for s in range(players)]
        bids.append([hands[s][s] if len(hands[s]) > s else hands[s][0] for s in range(players)])
    return bids


DECK = [3, -2, 10, -5, 1, 2, 4, 5, 6, 7, 8, 9, -1, -3, -4]


def test_ties_cancel_and_the_sign_of_the_new_card_decides_a_carried_table():
    head = [[5, 5, 2],          # +3: 5 cancels, the lone 2 takes it
            [4, 4, 4],          # -2: no lone bid, carried
            [9, 9, 1]]          # +10 with the -2 carried: 9 cancels, 1 takes both (the new card is a mouse)
    game = scripted(DECK, _rounds(DECK, head, 3), 3)
    events = [e for e in game.events if e["e"] in ("take", "carry")][:3]
    assert events[0] == {"e": "take", "seat": 2, "bid": 2, "cards": [3], "points": 3}
    assert events[1] == {"e": "carry", "cards": [-2], "pot": -2}
    assert events[2] == {"e": "take", "seat": 2, "bid": 1, "cards": [-2, 10], "points": 8}
    assert game.carries == 1 and game.st["cancelled"] == [3, 3, 1]


def test_a_vulture_goes_to_the_lowest_lone_bid_and_a_tie_without_carry_over_is_discarded():
    head = [[7, 8, 9],          # +3: 9 takes
            [6, 6, 6],          # -2: all tie: discarded (carry_over off)
            [1, 2, 3],          # +10: 3
            [2, 3, 4]]          # -5: the lowest lone bid, 2, takes it
    game = scripted(DECK, _rounds(DECK, head, 3), 3, carry_over=False)
    firsts = [e for e in game.events if e["e"] in ("take", "discard")][:4]
    assert [(e["e"], e.get("seat"), e["cards"]) for e in firsts] == [
        ("take", 2, [3]), ("discard", None, [-2]), ("take", 2, [10]), ("take", 0, [-5])]
    assert firsts[1]["why"] == "tie" and game.discarded_points <= -2


def test_a_table_left_after_the_last_round_is_discarded_and_places_share():
    deck = [5, 6, 7, 8, 9, 10, 1, 2, 3, 4, -1, -2, -3, -4, -5]
    bids = [[r, r] for r in range(1, 16)]          # two players, every bid tied: nothing is ever taken
    game = scripted(deck, bids, 2)
    assert game.events[-2] == {"e": "discard", "cards": deck, "points": sum(deck), "why": "end"}
    assert game.events[-1]["scores"] == [0, 0] and game.events[-1]["places"] == [1, 1]
    assert game.carries == 15 and game.discarded == 15


def test_the_reference_engine_refuses_a_card_not_in_hand():
    bids = _rounds(DECK, [[1, 2, 3], [1, 4, 5]], 3)      # seat 0 bids its 1 twice
    with pytest.raises(RuleError, match="seat 0 bid 1 in round 2"):
        scripted(DECK, bids, 3)


# ---------------------------------------------------------------- the engines, game by game
def _tables(players: int) -> list[tuple[str, ...]]:
    variants = ("random", "matcher", "greedy", "matcher:bias=1:jitter=0.6", "greedy:threshold=3",
                "matcher:bias=-2:jitter=0")
    return [tuple(variants[(i + s * (1 + i)) % len(variants)] for s in range(players)) for i in range(3)]


@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_the_fast_engine_equals_the_reference_engine(rule_set):
    games = 0
    for players in (2, 3, 4):
        rules = rules_of(RULE_SETS[rule_set], players)
        for table in _tables(players):
            m = Matchup(players, table, rules, game="geier")
            so, go = play_chunk(m, SEED, 500, 90)
            for g in range(so.shape[0]):
                seat, row = GAME.reference_rows(m, SEED, 500 + g)
                assert (seat == so[g]).all() and (row == go[g]).all(), (rule_set, table, g)
                games += 1
    assert games == 810


def test_the_compiled_strategies_play_the_reference_engine_alike():
    """The reference engine asking the registered kernels (KernelDecider, how a plugin's
    own strategy is checked) plays the fast engine's games, and so the reference bots'."""
    for players, options in ((2, {}), (3, {"carry_over": "false"}), (4, {"vultures": "2"})):
        rules = rules_of(options, players)
        table = tuple(BOTS[(s + players) % 3] for s in range(players))
        so, go = play_chunk(Matchup(players, table, rules, game="geier"), SEED, 0, 40)
        for g in range(40):
            seat, row = reference_rows(play_reference_game(players, rules, list(table), SEED, g))
            assert (seat == so[g]).all() and (row == go[g]).all(), (players, table, g)


def test_the_same_seed_deals_the_same_prize_deck_to_every_field():
    m1 = Matchup(3, ("random",) * 3, game="geier")
    m2 = Matchup(3, ("greedy", "matcher", "greedy"), game="geier")
    d1 = [e for e in GAME.record_games(m1, SEED, [7])][0][1]
    d2 = [e for e in GAME.record_games(m2, SEED, [7])][0][1]
    assert d1["e"] == "deck" and d1 == d2
    assert d1 != [e for e in GAME.record_games(m1, SEED, [8])][0][1]


# ---------------------------------------------------------------- fairness
def random_position(rnd: np.random.Generator):
    """A position some round into a game: (seat, hands, won, deck, pub, rules array)."""
    players = int(rnd.integers(2, 5))
    rules = rules_of([{}, {"vultures": "8", "top_prize": "12"}, {"vultures": "0"}][int(rnd.integers(3))])
    n = rules.n_prizes
    r = int(rnd.integers(1, n + 1))                         # this round's card is deck[r - 1]
    deck = np.zeros(K.MAX_PRIZES, np.int64)
    deck[:n] = rnd.permutation(n)
    table = deck[max(0, r - int(rnd.integers(1, 4))):r]    # this card and any carried ones
    won = np.zeros(players, np.int64)
    for i in deck[:r]:
        if i not in table and rnd.random() < 0.8:
            won[int(rnd.integers(players))] |= 1 << int(i)
    hands = np.array([sum(1 << int(b) for b in rnd.choice(np.arange(1, n + 1), n - r + 1, replace=False))
                      for _ in range(players)], np.int64)
    value = [i - rules.vultures if i < rules.vultures else i - rules.vultures + 1 for i in range(n)]
    pub = np.zeros(K.N_PUB, np.int64)
    pub[[K.PUB_ROUND, K.PUB_PLAYERS, K.PUB_N_PRIZES]] = r, players, n
    pub[K.PUB_PRIZE] = value[int(deck[r - 1])]
    pub[K.PUB_POT] = sum(value[int(i)] for i in table)
    pub[K.PUB_TABLE] = sum(1 << int(i) for i in table)
    pub[K.PUB_LEFT] = sum(1 << int(i) for i in deck[r:n])
    pub[K.PUB_CARRIES] = len(table) - 1
    return int(rnd.integers(players)), hands, won, deck, pub, rules_array(rules)


def _check(decide, params, states: int = 1500) -> int:
    """Decisions changed when what the seat cannot see changes: the order of the prizes
    to come and the other seats' streams. Asserts every bid legal and the streams but
    the seat's own untouched."""
    rnd = np.random.default_rng(20261208)
    changed = 0
    for _ in range(states):
        seat, hands, won, deck, pub, rules = random_position(rnd)
        rng = rnd.integers(1, 2**63, K.N_STREAMS).astype(np.uint64)
        after = rng.copy()
        bid = int(decide(seat, params, hands, won, deck, pub, rules, after))
        assert (int(hands[seat]) >> bid) & 1 and bid >= 1, (seat, bin(int(hands[seat])), bid)
        others = np.arange(K.N_STREAMS) != 1 + seat
        assert (after[others] == rng[others]).all(), "drew from another seat's stream"
        r, n = int(pub[K.PUB_ROUND]), int(pub[K.PUB_N_PRIZES])
        deck2, rng2 = deck.copy(), rng.copy()
        deck2[r:n] = rnd.permutation(deck[r:n])
        rng2[others] = rnd.integers(1, 2**63, int(others.sum())).astype(np.uint64)
        again = int(decide(seat, params, hands, won, deck2, pub, rules, rng2))
        changed += again != bid
        assert rng2[1 + seat] == after[1 + seat], "the same bid drew differently"
    return changed


@pytest.mark.parametrize("bot", BOTS)
def test_every_bot_bids_from_what_its_seat_may_know(bot):
    from zsim.roster import roster_for

    ids, params = strategy_arrays("geier", [bot])
    roster = roster_for("geier")

    def decide(seat, p, hands, won, deck, pub, rules, rng):
        return bid_one_nb(roster, ids[0], seat, p, hands, won, deck, pub, rules, rng)

    assert registry("geier")[bot].fair
    assert _check(decide, params[0]) == 0


@njit(cache=True)
def _peeker_nb(seat, params, hands, won, deck, pub, rules, rng):
    """Not fair: its highest card when the next prize to come is a mouse, read from the deck."""
    r, hand = pub[K.PUB_ROUND], hands[seat]
    if r < pub[K.PUB_N_PRIZES] and deck[r] >= rules[K.R_VULTURES]:
        return highest_bit_nb(hand)
    return lowest_bit_nb(hand)


def test_the_check_catches_a_strategy_that_reads_the_deck():
    assert _check(_peeker_nb, np.zeros(1), 400) > 20


# ---------------------------------------------------------------- bad input, one line each
def _cli(*args) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``zsim ARGS`` as the console script runs it."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exc:
        main(list(args))
    return exc.value.code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("args,needle", [
    (["--rule", "top_prize=4"], "rule top_prize=4 is out of range 5..15"),
    (["--rule", "vultures=11"], "rule vultures=11 is out of range 0..10"),
    (["--rule", "carry_over=maybe"], "rule carry_over needs true or false, got 'maybe'"),
    (["--rule", "top_prize=ten"], "rule top_prize needs a whole number"),
    (["--rule", "decks=2"], "unknown rule key 'decks'"),
    (["-p", "5"], "--players must be 2..4, got 5"),
    (["--strategies", "matcher:bias=9"], "matcher:bias=9 is out of range -3..3"),
    (["--deck", "x.csv"], "geier has no --deck"),
])
def test_bad_input_is_refused_in_one_line(args, needle):
    code, _, err = _cli("simulate", "--game", "geier", "-n", "10", *args)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("zsim: error: "), err
    assert needle in lines[0], lines[0]


def test_bad_rules_are_refused_in_the_api_and_in_a_record():
    with pytest.raises(ZsimError, match="^rule vultures=-1 is out of range 0..10$"):
        rules_of({"vultures": "-1"})
    with pytest.raises(ZsimError, match="takes 2..4 players, not 1"):
        rules_of({}, 1)
    with pytest.raises(ZsimError, match="top_prize needs a whole number"):
        Rules.from_dict({"top_prize": 7.5})


# ---------------------------------------------------------------- every command on the plugin
def _ok(*args) -> str:
    r = CliRunner().invoke(cli, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_simulate_runs_here_and_in_a_zsim_subprocess_alike():
    args = ["simulate", "--game", "geier", "-p", "3", "-n", "3000", "--strategies", "random,matcher,greedy",
            "--rule", "carry_over=false", "--json", "-q"]
    here = json.loads(_ok(*args))
    assert [row["strategy"] for row in here] == list(BOTS)
    assert abs(sum(row["win_share"] for row in here) - 1) < 1e-9
    done = subprocess.run([sys.executable, "-m", "zsim.cli", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == here


def test_tournament_plays_every_bot_from_every_seat():
    out = json.loads(_ok("tournament", "--game", "geier", "-p", "3", "--field", ",".join(BOTS), "-n", "40",
                         "--json", "-q"))
    assert [row["strategy"] for row in out["strategies"]] == list(BOTS)
    assert out["games"] == 40 * 6 and all(row["games"] == out["games"] for row in out["strategies"])


def test_tune_searches_a_parameter_within_its_bounds():
    out = json.loads(_ok("tune", "--game", "geier", "greedy", "--vs", "matcher", "-p", "2", "--budget", "300",
                         "--eval-games", "60", "--json", "-q"))
    assert out["strategy"] == "greedy" and 0 <= out["best_params"]["threshold"] <= 15
    assert out["best"]["games"] == 60 and out["tuning_games"] <= 300


def test_record_then_replay_and_a_corrupted_record_is_refused_naming_its_line(tmp_path):
    path = tmp_path / "geier.jsonl"
    _ok("record", "--game", "geier", "-p", "3", "-n", "2", "--strategies", "random,matcher,greedy",
        "--out", str(path))
    lines = path.read_text().splitlines()
    events = [json.loads(line) for line in lines]
    assert [e["e"] for e in events].count("start") == 2 and events[0]["name"] == "geier"
    told = _ok("replay", str(path))
    assert told.count("Hol's der Geier, game") == 2 and "End: points" in told
    # a bid of a card the seat played a round earlier, in the second game
    second = max(i for i, e in enumerate(events) if e["e"] == "start")
    bids = [i for i, e in enumerate(events) if e["e"] == "bids" and i > second]
    bad = events[bids[1]]
    bad["bids"][0] = events[bids[0]]["bids"][0]
    path.write_text("\n".join(json.dumps(e) if i == bids[1] else line for i, (e, line)
                              in enumerate(zip(events, lines))) + "\n")
    code, _, err = _cli("replay", str(path))
    assert code == 2 and f"line {bids[1] + 1} " in err and "seat 0 cannot bid" in err, err
    # a derived field changed: the line is named with what the rules give
    events = [json.loads(line) for line in lines]
    take = next(i for i, e in enumerate(events) if e["e"] == "take")
    events[take]["points"] += 1
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    code, _, err = _cli("replay", str(path))
    assert code == 2 and f"line {take + 1} " in err and "points should be" in err, err


def test_games_lists_the_plugin_in_a_subprocess():
    done = subprocess.run([sys.executable, "-m", "zsim.cli", "games", "--json"], capture_output=True, text=True,
                          timeout=120)
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert rows["geier"]["players"] == [2, 4] and rows["geier"]["rules"] == ["carry_over", "top_prize", "vultures"]


# ---------------------------------------------------------------- the analyses registry: carry-over and the report
CARRY_ARGS = ("analyze", "--game", "geier", "carry-over", "-p", "2,3", "-n", "600", "--seed", str(SEED))


@pytest.fixture(scope="module")
def carry_json() -> dict:
    """``zsim analyze --game geier carry-over ... --json``'s output."""
    return json.loads(_ok(*CARRY_ARGS, "--json", "-q"))


def _settings(tables: dict) -> dict:
    return {(r["players"], r["carry_over"]): r for r in tables["Per setting"]}


def test_analyze_help_lists_the_plugins_analysis_and_its_options():
    assert "carry-over" in _ok("analyze", "--game", "geier", "--help")
    text = _ok("analyze", "--game", "geier", "carry-over", "--help")
    for flag in ("--players", "--skilled", "--weak", "--games", "--seed", "--field", "--rule", "--json"):
        assert flag in text
    import zsim

    # its own analysis, and the ladder every game with a forward model shares
    assert zsim.analyses("geier") == ["carry-over", "ladder"]
    assert zsim.analysis("carry-over", game="geier").option("players").default == "2,3,4"


def test_carry_over_tables_hold_every_setting_with_its_intervals(carry_json):
    assert carry_json["analysis"] == "geier-carry-over" and list(carry_json["tables"]) == [
        "Per setting", "Win share per seat"]
    rows = _settings(carry_json["tables"])
    assert list(rows) == [(2, True), (2, False), (3, True), (3, False)]      # the printed rule first
    for (p, carry), r in rows.items():
        assert r["games"] == 600 and r["rounds"] == 15
        for name in ("mean_score", "fully_tied_share", "discarded_points", "seat_gap", "bot_win_share"):
            assert r[f"{name}_ci95"] is not None and r[f"{name}_ci95"] >= 0, name
        assert 0 <= r["seat_p"] <= 1 and r["best_seat"] in range(p) and r["worst_seat"] in range(p)
        assert r["bot_edge"] == pytest.approx(r["bot_win_share"] - 1 / p, abs=1e-12)
        assert r["fully_tied_share"] <= r["tied_share"] + 1e-12
        if p == 2:                  # two bids tie only with each other: every tie is a full one
            assert r["fully_tied_share"] == pytest.approx(r["tied_share"], abs=1e-12)
        assert r["discarded"] >= r["any_discarded_rate"] > 0      # a game with a discard loses a card or more
        if not carry:               # nothing is carried, and ties throw away far more than a last table
            assert r["carries"] == 0 and r["carries_ci95"] == 0 and rows[(p, True)]["carries"] > 0
            assert r["discarded_points"] > rows[(p, True)]["discarded_points"]


def test_the_reports_glossary_defines_every_column_of_the_analysis(carry_json):
    from zsim_geier.analyses.report_run import DEFINITIONS

    for caption, rows in carry_json["tables"].items():
        for column in rows[0]:
            base = column.removesuffix("_ci95").removesuffix("_lo").removesuffix("_hi")
            assert base in DEFINITIONS, (caption, column)


def test_carry_over_seat_shares_sum_to_one_and_are_simulates_on_the_same_deals(carry_json):
    import zsim

    rows = _settings(carry_json["tables"])
    seats = carry_json["tables"]["Win share per seat"]
    for (p, carry), r in rows.items():
        shares = [s["win_share"] for s in seats if s["players"] == p and s["carry_over"] == carry]
        assert len(shares) == p and abs(sum(shares) - 1) < 1e-9
        assert r["seat_gap"] == pytest.approx(max(shares) - min(shares), abs=1e-12)
        alone = zsim.simulate(game="geier", players=p, games=600, seed=SEED, rules={"carry_over": carry},
                              progress=False).summary
        assert alone["win_share"].to_list() == pytest.approx(shares, abs=1e-12)
        assert alone["points_mean"].mean() == pytest.approx(r["mean_score"], abs=1e-9)


def test_the_api_gives_the_clis_numbers_for_the_same_seed(carry_json):
    import zsim

    a = zsim.analyze("carry-over", game="geier", players=[2, 3], games=600, seed=SEED, progress=False)
    assert a.to_json()["tables"] == carry_json["tables"] and a.findings == carry_json["findings"]
    other = zsim.analyze("carry-over", game="geier", players="2", games=600, seed=SEED + 1, progress=False)
    assert other.to_json()["tables"]["Per setting"][0] != carry_json["tables"]["Per setting"][0]


@pytest.mark.parametrize("args,needle", [
    (["--rule", "carry_over=false"], "--rule carry_over is swept by the carry-over analysis"),
    (["--players", "7"], "--players 7 is outside 2..4"),
    (["--skilled", "nosuch"], "unknown geier strategy 'nosuch'"),
    (["--weak", "matcher:bias=9"], "matcher:bias=9 is out of range -3..3"),
    (["--field", "matcher,,random"], "--field 'matcher,,random' has an empty entry"),
    (["--rule", "hand_size=3"], "rule key 'hand_size' belongs to"),
])
def test_a_bad_analysis_option_is_refused_in_one_line(args, needle):
    code, _, err = _cli("analyze", "--game", "geier", "carry-over", "-n", "20", *args)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("zsim: error: "), err
    assert needle in lines[0], lines[0]


def test_the_api_refuses_a_swept_rule_and_an_unknown_option():
    import zsim

    with pytest.raises(ZsimError, match="carry_over is swept"):
        zsim.analyze("carry-over", game="geier", rules={"carry_over": False}, games=20, progress=False)
    with pytest.raises(ZsimError, match="has no option 'decks'"):
        zsim.analyze("carry-over", game="geier", decks=2, games=20, progress=False)


def test_report_writes_the_carry_over_analysis_and_the_tournament(tmp_path):
    out = tmp_path / "report"
    _ok("report", "--game", "geier", "--out", str(out), "-n", "300", "--tournament-games", "20", "-q")
    md = (out / "report.md").read_text()
    assert (out / "index.html").is_file() and (out / "figures" / "geier-carry-over-1.png").is_file()
    assert "Carry-over: ties kept or discarded" in md and "zsim report --game geier" in md
    for p in (2, 3, 4):
        assert f"Tournament of the built-in field ({p} players)" in md
    findings = md.split("## Key findings", 1)[1].split("\n## ", 1)[0]
    assert "Carry-over: a fully tied table carried over" in findings and "Skill:" not in findings
    assert "matcher in one seat among random wins" in findings and "skill itself is measured" in findings
    assert "random" in findings and "greedy" in md
    code, _, err = _cli("report", "--game", "geier", "--out", str(tmp_path / "no"), "--rule", "carry_over=false")
    assert code == 2 and "carry_over is swept" in err and not (tmp_path / "no").exists()
