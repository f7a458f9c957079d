"""Each game's view of the table in words (``describe`` of its forward
model, ``zsim/seat_view.py``): what ``zsim play`` shows a person and
``zsim view`` shows per seat.

* A seat's view reads only what the seat knows: every position the seat
  cannot tell apart from the true one (drawn by ``determinize_nb``) gives
  the same view, word for word.
* It says something: a status line, the seat's own hand, one row per seat
  with the same facts, and the spectator's view (-1) shows every hand.
"""
from __future__ import annotations

import pytest

from conftest import warm_stepped
from zsim.harness.chunks import Matchup
from zsim.harness.table import Table

SEED = 4242
TABLES = {"zahltag": ("simple", "undercut", "counter", "simple"),
          "zahlemann": ("counter", "shedder", "flexible", "keeper"),
          "baumeister": ("budget", "value", "builder", "seller")}


@pytest.mark.parametrize("game", sorted(TABLES))
@pytest.mark.parametrize("players", [2, 4])
def test_a_seats_view_in_words_reads_only_what_the_seat_knows(game, players, background):
    warm_stepped(background, game)
    m = Matchup(players, TABLES[game][:players], game=game)
    checked = 0
    for g in range(2):
        t = Table(m, SEED, g, people=())
        assert t.describe(0) is not None, f"{game}'s forward model has no describe"
        k = 0
        while True:
            p = t.pending()
            if k % 5 == g:
                for seat in range(players):
                    v = t.describe(seat)
                    assert v.seat == seat and v.status and v.own and len(v.seats) == players
                    assert all(list(row) == list(v.seats[0]) for row in v.seats)
                    for draw in range(2):
                        other = t.describe(seat, t.determinized(seat, 10 * k + draw))
                        assert other == v, (f"game {g}, decision {k}, seat {seat}: the view changed with what "
                                            f"the seat cannot see:\n{v.lines()}\n{other.lines()}")
                    checked += 1
                everyone = t.describe(-1)
                assert everyone.seat == -1 and everyone.status
            if p.seat < 0:
                break
            t.play(t.bot_option())
            k += 1
        t.describe(-1)
    assert checked > 10
