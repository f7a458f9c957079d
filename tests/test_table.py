"""A game at the table (zsim/harness/table.py): a person's decisions among
the bots', one at a time, the same deal zsim plays for the seed, and the
search's hint from the person's own view."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import warm_stepped
from zsim.errors import ZsimError
from zsim.harness.chunks import Matchup, play_chunk
from zsim.harness.table import Table
from zsim.harness.trace import TRUE, trace
from zsim.strategy_registry import rollout_bot, spec_values

SEED = 808


def _rollout(game: str) -> str:
    info, values = spec_values("ismcts", game)
    return rollout_bot(game, info, values).name


@pytest.mark.parametrize("game, others", [("zahltag", ("undercut", "counter"))])
def test_a_person_who_answers_as_the_bot_would_plays_the_bots_game(game, others, background):
    warm_stepped(background, game)
    m = Matchup(3, (_rollout(game), *others), game=game)
    t = Table(m, SEED, 4, people=(0,))
    while not t.over:
        t.run_bots()
        if not t.over:
            p = t.pending()
            assert p.seat == 0 and p.options
            t.play(_as_bot(t))
    seats, _ = play_chunk(m, SEED, 4, 1)
    assert t.places() == seats[0, :, m.spec.seat_index("place")].tolist()
    # the script replays the same game: a trace of it ends as the game did
    traced = trace(m, SEED, [4], n=2, observers=(TRUE,), scripts=[t.script_array()])
    first = np.array(t.places()) == 1
    assert np.array_equal(traced.means(0)[-1, 0], first / first.sum())


def _as_bot(t: Table) -> int:
    """What the person's seat's bot (the hint's rollout bot) would answer."""
    from zsim.harness.table_nb import bot_nb

    return int(bot_nb(t.setup.roster, t.setup.bot_ids, t.setup.bot_params, t.pos, t.setup.consts))


def test_a_hint_comes_from_the_persons_view_and_the_same_position_gives_the_same_hint(background):
    warm_stepped(background, "zahltag")
    m = Matchup(2, ("simple", "undercut"), game="zahltag")
    t = Table(m, SEED, 0, people=(0,))
    t.run_bots()
    p = t.pending()
    h = t.hint(48)
    assert h.options == p.options and h.choice in p.options
    assert sum(h.visits) == 48 and all(0 <= v <= 1 for v in h.values)
    assert h.texts == tuple(t.text(p.kind, o) for o in p.options)
    assert t.hint(48) == h                                              # a count and a seed, never a clock
    with pytest.raises(ZsimError, match="iterations must be 1.."):
        t.hint(0)


def test_refusals_are_one_line(background):
    warm_stepped(background, "zahltag")
    m = Matchup(2, ("simple", "undercut"), game="zahltag")
    with pytest.raises(ZsimError, match="--seat 2 is not a seat of a 2-player game"):
        Table(m, SEED, 0, people=(2,))
    with pytest.raises(ZsimError, match="--hint simple is not a search"):
        Table(m, SEED, 0, people=(0,), hint="simple")
    with pytest.raises(ZsimError, match="--hint seer reads hidden cards"):
        Table(m, SEED, 0, people=(0,), hint="seer")
    t = Table(m, SEED, 0, people=(0,))
    t.run_bots()
    with pytest.raises(ZsimError, match="is not a legal option here"):
        t.play(10_000)
    with pytest.raises(ZsimError, match="no bot's decision is waiting"):
        t.bot_option()
    while not t.over:
        t.play(t.pending().options[0])
        t.run_bots()
    with pytest.raises(ZsimError, match="the game is over"):
        t.play(0)
    assert sorted(t.places()) in ([1, 2], [1, 1])
