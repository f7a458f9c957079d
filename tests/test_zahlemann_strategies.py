"""Each Zahlemann strategy does what docs/strategies.md says it does.

Hand-made decisions (cards written as in the rules, ``"50R"``, ``"1V"``)
check each bot's idea against a contrasting one; then every registered
strategy plays a few thousand games, under the default rules and with every
variant on, at 2, 3 and 4 players, through the harness (which refuses an
illegal move), and a few of those games again in the reference engine,
which must agree with the fast one column for column.
"""
from __future__ import annotations

import numpy as np
import pytest

from zsim.games.zahlemann import constants as K
from zsim.games.zahlemann.engine_nb import decide_one_nb
from zsim.games.zahlemann.batch import rules_array
from zsim.games.zahlemann.rules import Rules
from zsim.harness.chunks import Matchup, play_chunk
from zsim.roster import roster_for as roster
from zsim.strategy_registry import bots, strategy_arrays

ALL_VARIANTS = {"one_plays_again": True, "fifty_skips": True, "two_passes_hands": True}
NAMES = sorted(s.name for s in bots("zahlemann"))   # the searches are tests/test_search.py's


def card(code: str) -> int:
    return K.VALUES.index(int(code[:-1])) * K.N_COLOURS + K.COLOURS.index(code[-1])


def mask(codes) -> int:
    m = 0
    for c in codes:
        m |= 1 << card(c)
    return m


def matching(c: int) -> int:
    return K.VALUE_MASK[c // K.N_COLOURS] | K.COLOUR_MASK[c % K.N_COLOURS]


def decide(spec, hand, top, *, kind=K.D_PLAY, others=(5,), discards=(), rules=None, seat=0,
           options=None, other_hands=None, passed=0):
    """The answer of ``spec`` (a card code, or "keep") for seat ``seat``
    holding ``hand``; the top is ``top`` on the ``discards`` (bottom first);
    ``others`` are the other seats' hand sizes in seat order from the left
    neighbour (their cards, unless ``other_hands`` names them, are the
    lowest cards not placed yet); options default to the hand's matches."""
    players = 1 + len(others)
    ids, params = strategy_arrays("zahlemann", [spec])
    pile = [card(c) for c in discards] + [card(top)]
    hands = np.zeros(players, np.int64)
    hands[seat] = mask(hand)
    placed = hands[seat] | sum(1 << c for c in pile)
    for k, size in enumerate(others):
        s = (seat + 1 + k) % players
        if other_hands is not None:
            hands[s] = mask(other_hands[k])
        else:
            free = [c for c in range(K.N_CARDS) if not placed >> c & 1][:size]
            hands[s] = sum(1 << c for c in free)
        placed |= int(hands[s])
    assert placed.bit_count() == len(pile) + sum(int(h).bit_count() for h in hands)
    match = matching(card(top))
    opts = int(hands[seat]) & match if options is None else mask(options)
    # the state is one the engine can ask about
    assert opts and opts & ~int(hands[seat]) == 0 and opts & ~match == 0
    if kind == K.D_DRAWN:
        assert opts & (opts - 1) == 0 and int(hands[seat]) & ~opts & match == 0
    if kind == K.D_BONUS:
        assert card(top) // K.N_COLOURS == K.V1
    disc = np.zeros(K.N_CARDS, np.int64)
    disc[:len(pile)] = pile
    money = np.zeros((players, K.M_COLUMNS), np.int64)
    money[:, K.M_TOTAL] = 112
    pub = np.zeros(K.N_PUB, np.int64)
    pub[K.PUB_TOP] = card(top)
    pub[K.PUB_N_DISCARDS] = len(pile)
    pub[K.PUB_DISCARDED] = sum(1 << c for c in set(pile))
    pub[K.PUB_DRAW_SIZE] = K.N_CARDS - placed.bit_count()
    pub[K.PUB_PLAYERS] = players
    pub[K.PUB_CUR] = seat
    pub[K.PUB_ROUND] = pub[K.PUB_TURN] = 1
    pass_arr = np.zeros(players, np.int64)
    pass_arr[seat] = passed
    r = rules_array(Rules().with_overrides(rules or {}))
    rng = np.arange(1, K.N_STREAMS + 1, dtype=np.uint64)
    answer = int(decide_one_nb(roster('zahlemann'), ids[0], seat, kind, np.int64(opts), params[0], hands, pass_arr, disc,
                               money, pub, r, rng))
    if answer == K.KEEP:
        return "keep"
    return f"{K.VALUES[answer // K.N_COLOURS]}{K.COLOURS[answer % K.N_COLOURS]}"


# ---------------------------------------------------------------- shedder and flexible
def test_shedder_plays_its_dearest_card():
    assert decide("shedder", ["1R", "50R", "5B"], "10R") == "50R"
    assert decide("first", ["1R", "50R", "5B"], "10R") == "1R"


# 10G on top; hand 5G 5Y 10V 1G, options 5G 10V 1G. The unknown cards the
# hand left still matches: after 5G 22, after 10V 16, after 1G 19.
FLEX_HAND, FLEX_TOP = ["5G", "5Y", "10V", "1G"], "10G"


def test_shedder_plays_the_dearest_option_first_in_card_order_of_equals():
    """At flex 0 (the default) shedder skips reckoning the cover: its answer
    must still be the dearest option, of several the first in card order,
    as ``best_shed_nb``'s score with the cover weighing nothing picks it."""
    rnd = np.random.default_rng(11)
    codes = [f"{v}{c}" for v in K.VALUES for c in K.COLOURS]
    checked = ties = 0
    while checked < 300:
        picked = rnd.choice(K.N_CARDS, size=int(rnd.integers(2, 10)), replace=False)
        top, hand = codes[picked[0]], [codes[c] for c in picked[1:]]
        options = [c for c in picked[1:] if matching(picked[0]) >> c & 1]
        if not options:
            continue
        best = max(options, key=lambda c: (c // K.N_COLOURS, -c))
        ties += sum(c // K.N_COLOURS == best // K.N_COLOURS for c in options) > 1
        assert decide("shedder", hand, top, others=(3,)) == codes[best], (hand, top)
        assert decide("keeper", hand, top, others=(3,)) == codes[best], (hand, top)
        checked += 1
    assert ties > 30                     # equal values, colour order deciding, were met


def test_shedder_trades_value_for_cover_by_flex():
    assert decide("shedder", FLEX_HAND, FLEX_TOP) == "10V"           # 10 > 5
    assert decide("shedder:flex=1", FLEX_HAND, FLEX_TOP) == "5G"     # 5 + 22 > 10 + 16


def test_flexible_keeps_the_most_cover():
    assert decide("flexible", FLEX_HAND, FLEX_TOP) == "5G"
    # 5A on top; hand 5B 1Y 2A 20A: playing 2A or 20A leaves 22 unknown
    # cards matched, 5B 20; value breaks the tie (without it: the first card)
    assert decide("flexible", ["5B", "1Y", "2A", "20A"], "5A") == "20A"
    assert decide("flexible:value_weight=0", ["5B", "1Y", "2A", "20A"], "5A") == "2A"


def test_shedders_never_keep_or_stop():
    for name in ("shedder", "flexible", "counter"):
        assert decide(name, ["5V", "10B"], "50V", kind=K.D_DRAWN, options=["5V"]) == "5V"
        assert decide(name, ["5R", "10B"], "1R", kind=K.D_BONUS, rules={"one_plays_again": True}) == "5R"


# ---------------------------------------------------------------- counter
# Two players; 1R on top of 10B 10Y 10G 10A 10V 2R 5R 50R. Every card that
# matches 10R is gone or in the seat's own hand (20R); five 20s are unknown.
COUNTER_PILE = ["10B", "10Y", "10G", "10A", "10V", "2R", "5R", "50R"]


def test_counter_turns_defensive_when_the_next_player_is_nearly_out():
    hand = ["10R", "20R"]
    # the opponent holds 2 cards (alert): 10R blocks for sure, 20R only with
    # chance 20/25 * 19/24: 10 + 40 > 20 + 40 * 0.633
    assert decide("counter", hand, "1R", others=(2,), discards=COUNTER_PILE) == "10R"
    assert decide("shedder", hand, "1R", others=(2,), discards=COUNTER_PILE) == "20R"
    # with 6 cards only a quarter of the weight counts: 20R
    assert decide("counter", hand, "1R", others=(6,), discards=COUNTER_PILE) == "20R"
    # alert=1: two cards are not close enough
    assert decide("counter:alert=1", hand, "1R", others=(2,), discards=COUNTER_PILE) == "20R"


def test_counter_knows_what_it_passed_on():
    # two_passes_hands, two players, 10B not in the pile: 10R blocks the
    # opponent's two cards with chance 25/26 * 24/25 (20R: 21/26 * 20/25); once the seat
    # knows it passed them 10B, 10R cannot block and 20R is played
    pile = ["10Y", "10G", "10A", "10V", "2R", "5R", "50R"]
    rules = {"two_passes_hands": True}
    assert decide("counter", ["10R", "20R"], "1R", others=(2,), discards=pile, rules=rules) == "10R"
    assert decide("counter", ["10R", "20R"], "1R", others=(2,), discards=pile, rules=rules,
                  passed=mask(["10B", "1B"])) == "20R"


# ---------------------------------------------------------------- variant
def test_variant_plays_a_1_that_plays_again():
    # 10R on top; 1R can be followed by 50R at once: 1R now, 50R as the bonus
    hand = ["1R", "50R", "50B"]
    assert decide("variant", hand, "10R", rules={"one_plays_again": True}) == "1R"
    assert decide("variant", hand, "10R") == "50R"
    assert decide("shedder", hand, "10R", rules={"one_plays_again": True}) == "50R"


def test_variant_keeps_a_lone_1():
    # a drawn 1R with nothing to follow it (no 1, no red card in hand) scores
    # 1 + size_weight - chain: played at the default chain (5), kept at 20;
    # with 10R behind it to play as the bonus it is played either way
    kw = {"kind": K.D_DRAWN, "options": ["1R"], "rules": {"one_plays_again": True}}
    assert decide("variant", ["1R", "10B"], "5R", **kw) == "1R"
    assert decide("variant:chain=20", ["1R", "10B"], "5R", **kw) == "keep"
    assert decide("variant:chain=20", ["1R", "10R"], "1G", **kw) == "1R"


def test_variant_spends_a_50_on_a_rival_about_to_go_out():
    rules = {"one_plays_again": True, "fifty_skips": True}
    hand = ["1R", "50R", "50B"]
    assert decide("variant", hand, "10R", rules=rules, others=(1, 5, 5)) == "50R"
    assert decide("variant", hand, "10R", rules=rules, others=(5, 5, 5)) == "1R"
    assert decide("variant:skip_at=0", hand, "10R", rules=rules, others=(1, 5, 5)) == "1R"


def test_variant_passes_a_dear_hand_and_keeps_a_cheap_one():
    rules = {"two_passes_hands": True}
    # 122 in four cards; the right neighbour (seat 2 of 3) holds one card
    assert decide("variant", ["2R", "20R", "50B", "50Y"], "5R", rules=rules, others=(5, 1)) == "2R"
    assert decide("shedder", ["2R", "20R", "50B", "50Y"], "5R", rules=rules, others=(5, 1)) == "20R"
    # 3 in two cards; the right neighbour holds seven: keep the 2
    assert decide("variant", ["2R", "1R"], "5R", rules=rules, others=(5, 7)) == "1R"
    assert decide("variant", ["2R", "1B"], "5R", rules=rules, others=(5, 7), kind=K.D_DRAWN,
                  options=["2R"]) == "keep"
    assert decide("variant", ["2R", "1B"], "5R", others=(5, 7), kind=K.D_DRAWN,
                  options=["2R"]) == "2R"


def test_without_variants_variant_is_the_plain_shedder():
    def play(first, rules):
        m = Matchup(3, (first, "random", "counter"), rules=rules, game="zahlemann")
        return play_chunk(m, 5, 0, 500)

    for rules, same in ((Rules(), True), (Rules().with_overrides(ALL_VARIANTS), False)):
        a, b = play("variant", rules), play("shedder", rules)
        assert all((x == y).all() for x, y in zip(a, b)) == same


# ---------------------------------------------------------------- keeper
# 50V on top: every other 50 and violet card is in the pile but 5V, the
# card just drawn; five 5s are unknown. Keeping 5V leaves a top the
# opponent cannot match; playing it leaves one they match with chance 5/24.
KEEP_PILE = ["50R", "50B", "50Y", "50G", "50A", "1V", "2V", "10V", "20V"]


def test_keeper_keeps_a_cheap_drawn_match_when_the_old_top_blocks():
    kw = {"kind": K.D_DRAWN, "options": ["5V"], "discards": KEEP_PILE}
    assert decide("keeper", ["5V", "10B"], "50V", others=(1,), **kw) == "keep"
    assert decide("shedder", ["5V", "10B"], "50V", others=(1,), **kw) == "5V"
    assert decide("keeper", ["5V", "10B"], "50V", others=(5,), **kw) == "5V"        # not on alert
    assert decide("keeper:keep_max=2", ["5V", "10B"], "50V", others=(1,), **kw) == "5V"
    assert decide("keeper:margin=0.3", ["5V", "10B"], "50V", others=(1,), **kw) == "5V"
    assert decide("keeper", ["5V"], "50V", others=(1,), **kw) == "5V"                # goes out


def test_keeper_stops_a_bonus_chain_when_the_1_blocks():
    pile = ["1R", "1B", "1Y", "1G", "1A", "2V", "10V", "20V", "50V"]
    kw = {"kind": K.D_BONUS, "discards": pile, "rules": {"one_plays_again": True}}
    assert decide("keeper", ["5V", "10B"], "1V", others=(1,), **kw) == "keep"       # stop
    assert decide("keeper", ["5V", "10B"], "1V", others=(6,), **kw) == "5V"
    assert decide("shedder", ["5V", "10B"], "1V", others=(1,), **kw) == "5V"


# ---------------------------------------------------------------- oracle
def test_oracle_blocks_the_player_about_to_go_out_knowing_their_hand():
    # 10R on top; seat 1 holds 20B alone: 20R it would match, 1R not
    yellow = ["2Y", "5Y", "10Y", "20Y", "50Y"]
    kw = {"others": (1, 5), "other_hands": (["20B"], yellow)}
    assert decide("oracle", ["20R", "1R"], "10R", **kw) == "1R"
    assert decide("counter", ["20R", "1R"], "10R", **kw) == "20R"
    kw = {"others": (1, 5), "other_hands": (["1B"], yellow)}
    assert decide("oracle", ["20R", "1R"], "10R", **kw) == "20R"


# ---------------------------------------------------------------- whole games
FIELDS = {
    2: lambda s: (s, "random"),
    3: lambda s: (s, "first", s),
    4: lambda s: ("random", s, "counter", s),
}


@pytest.mark.parametrize("name", NAMES)
def test_every_strategy_plays_thousands_of_legal_games(name):
    """play_chunk raises ZsimError on any illegal answer."""
    for players, field in FIELDS.items():
        for rules in (Rules(), Rules().with_overrides(ALL_VARIANTS)):
            m = Matchup(players, field(name), rules=rules, game="zahlemann")
            seats, games = play_chunk(m, 11, 0, 1_000)
            assert (games[:, K.G_ROUNDS] > 0).all()
            assert (games[:, K.G_ILLEGAL] == 0).all()
            if rules.one_plays_again:
                assert games[:, K.G_BONUS_PLAYS].sum() > 0 and games[:, K.G_HAND_PASSES].sum() > 0
    # forgetting to announce is the engine's business: it works for every bot
    seats, _ = play_chunk(Matchup(2, (f"{name}:forget=0.5", "first"), game="zahlemann"), 11, 0, 500)
    assert seats[:, 0, K.S_FORGOTTEN].sum() > 0 and seats[:, 1, K.S_FORGOTTEN].sum() == 0


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("random", "first")])
def test_every_bot_beats_random_heads_up(name):
    """Both seatings of the same 1,000 deals: a bot worth documenting wins
    well over half against uniform play."""
    wins = 0.0
    for field in ((name, "random"), ("random", name)):
        seats, _ = play_chunk(Matchup(2, field, game="zahlemann"), 3, 0, 1_000)
        mine = seats[:, field.index(name), K.S_PLACE]
        tied = seats[:, 0, K.S_PLACE] == seats[:, 1, K.S_PLACE]
        wins += ((mine == 1) / np.where(tied, 2, 1)).sum()
    assert wins / 2_000 > 0.55


@pytest.mark.parametrize("players", [2, 4])
def test_the_reference_engine_plays_the_bots_alike(players):
    """The reference engine, asking the same kernels (KernelDecider), plays
    the same games as the fast engine, every variant on."""
    from zsim.games import get_game

    bots = [n for n in NAMES if n not in ("random", "first")]
    game = get_game("zahlemann")
    rules = Rules().with_overrides(ALL_VARIANTS)
    for k in range(0, len(bots), players):
        field = tuple((bots[k:] + bots)[:players])
        m = Matchup(players, field, rules=rules, game="zahlemann")
        seats, games = play_chunk(m, 17, 0, 40)
        for g in range(40):
            ref_seats, ref_games = game.reference_rows(m, 17, g)
            assert (ref_seats == seats[g]).all() and (ref_games == games[g]).all(), (field, g)


def test_no_match_chance_is_the_hypergeometric_chance():
    """``no_match_chance_nb`` (``counter``'s block chance): the chance that the
    unknown part of a hand, drawn from the unknown cards, misses every card
    that matches. Against the exact fraction, and to the bit against the
    product of divisions, both for matches no larger than a card's (read
    from the ``NO_MATCH`` table) and for larger ones (multiplied out)."""
    from fractions import Fraction
    from math import comb

    from strategies.zahlemann._card_odds import no_match_chance_nb

    from strategies.zahlemann._card_odds import MAX_MATCHES

    rng = np.random.default_rng(5)
    zero = between = tabled = 0
    for _ in range(4_000):
        unknown = int(rng.integers(0, 1 << K.N_CARDS))
        if rng.random() < 0.5:                      # a card's matches: the table
            match = K.MATCHING[int(rng.integers(0, K.N_CARDS))]
        else:                                       # dense, mostly more: the product
            match = int(rng.integers(0, 1 << K.N_CARDS)) | int(rng.integers(0, 1 << K.N_CARDS))
        known = unknown & int(rng.integers(0, 1 << K.N_CARDS)) & int(rng.integers(0, 1 << K.N_CARDS)) \
            & int(rng.integers(0, 1 << K.N_CARDS))
        size = int(rng.integers(0, 12)) + bin(known).count("1")
        got = no_match_chance_nb(np.int64(match), size, np.int64(known), np.int64(unknown))
        pool = bin(unknown & ~known).count("1")
        bad = bin(match & unknown & ~known).count("1")
        k = min(size - bin(known).count("1"), pool)
        exact = Fraction(0) if known & match else Fraction(comb(pool - bad, k), comb(pool, k))
        assert abs(got - float(exact)) <= 1e-12, (match, size, known, unknown)
        divided = 1.0                               # the product as divisions, in the same order
        if known & match:
            divided = 0.0
        else:
            for i in range(k):
                divided *= (pool - bad - i) / (pool - i)
                if divided <= 0.0:
                    divided = 0.0
                    break
        assert got == divided
        zero += got == 0.0
        between += 0.0 < got < 1.0
        tabled += bad <= MAX_MATCHES
    assert zero > 200 and between > 600             # both sure blocks and real chances
    assert 1_000 < tabled < 3_000                   # both the table and the product


def test_no_match_table_holds_the_draw_by_draw_products():
    """Every entry of ``NO_MATCH`` (pool, cards to avoid, cards drawn) is the
    float the draw-by-draw product of ``DRAW_RATIO`` gives, and a card never
    has more matches than the table's rows."""
    from strategies.zahlemann._card_odds import DRAW_RATIO, MAX_MATCHES, NO_MATCH

    assert max(bin(m).count("1") for m in K.MATCHING) <= MAX_MATCHES == NO_MATCH.shape[0] - 1
    n = K.N_CARDS + 1
    for bad in range(NO_MATCH.shape[0]):
        for pool in range(n):
            p = 1.0
            for d in range(n):
                assert NO_MATCH[bad, pool, d] == p, (bad, pool, d)
                if 0 < pool - d and p > 0.0:
                    p *= DRAW_RATIO[pool - d, bad]
                    p = max(p, 0.0)
