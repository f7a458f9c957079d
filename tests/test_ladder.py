"""``zsim ladder``: tables drawn in turn, Plackett-Luce ratings, the skill curve, bad input."""
from __future__ import annotations

import numpy as np
import pytest

from zsim.cli import main
from zsim.harness.ladder import budgets_between, draw_tables, rate


def test_tables_seat_every_entry_about_equally_often_and_never_twice_at_one_table():
    rows = draw_tables(11, 4, 300, seed=5)
    assert rows.shape == (300, 4)
    assert all(len(set(r)) == 4 for r in rows.tolist())
    counts = np.bincount(rows.ravel(), minlength=11)
    assert counts.max() - counts.min() <= 2
    assert np.array_equal(rows, draw_tables(11, 4, 300, seed=5))
    assert not np.array_equal(rows, draw_tables(11, 4, 300, seed=6))


def test_budgets_double_from_the_low_end():
    assert budgets_between(16, 256) == [16, 32, 64, 128, 256]
    assert budgets_between(3, 20) == [3, 6, 12]


def test_an_entry_that_always_wins_rates_highest_and_above_par():
    rng = np.random.default_rng(1)
    rows = draw_tables(5, 3, 60, seed=2)
    places = np.zeros((60, 2, 3, 3), np.int64)
    for t, row in enumerate(rows.tolist()):
        for r in range(3):
            seating = row[r:] + row[:r]
            others = [2, 3] if 0 in seating else [1, 2, 3]
            rng.shuffle(others)
            for s, e in enumerate(seating):
                places[t, :, r, s] = 1 if e == 0 else others.pop()
    table = rate([f"e{i}" for i in range(5)], rows, places)
    top = table.row(0, named=True)
    assert top["entry"] == "e0" and top["win_share"] == 1.0 and top["above_par"] == pytest.approx(2 / 3)
    assert top["rating_lo"] > table.row(1, named=True)["rating_hi"]


def test_a_small_ladder_rates_bots_and_search_and_draws_the_curve(tmp_path):
    import zsim

    a = zsim.analyze("ladder", game="zahltag", players="2", budgets="4..8", field="simple,random", tables=6,
                     deals=1, seed=3, progress=False)
    ratings = a.tables["ratings"]
    assert set(ratings["entry"]) == {"simple", "random", "ismcts:iterations=4", "ismcts:iterations=8"}
    assert ratings["games"].sum() == 6 * 1 * 2 * 2
    curve = a.tables["skill curve"]
    assert curve["budget"].to_list() == [4, 8]
    assert (ratings["rating_lo"] < ratings["rating"]).all() and (ratings["rating"] < ratings["rating_hi"]).all()
    assert list(a.figures) == ["skill curve"] and a.findings and "2 players" in a.findings[0]
    again = zsim.analyze("ladder", game="zahltag", players="2", budgets="4..8", field="simple,random", tables=6,
                         deals=1, seed=3, progress=False)
    assert again.tables["ratings"].equals(ratings)


@pytest.mark.parametrize("args,needle", [
    (["--budgets", "0..4"], "--budgets needs 1 <= low <= high"),
    (["--budgets", "a..b"], "--budgets needs LOW..HIGH"),
    (["--search", "simple"], "--search must name one of zahltag's searches"),
    (["--search", "ismcts:iterations=9"], "--budgets, not iterations="),
    (["--players", "5"], "--players"),
    (["--field", "nosuch"], "nosuch"),
])
def test_bad_input_is_one_line_and_status_2(capsys, args, needle):
    with pytest.raises(SystemExit) as exc:
        main(["ladder", "--game", "zahltag", "--tables", "1", "--deals", "1", *args])
    err = capsys.readouterr().err
    assert exc.value.code == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("zsim: error: ") and needle in lines[0], err


def test_the_command_shows_the_games_own_options(capsys):
    try:
        main(["ladder", "--game", "zahltag", "--help"])
    except SystemExit as exc:             # as `zsim --help` ends: status 0
        assert exc.code == 0
    out = capsys.readouterr().out
    assert "--budgets" in out and "--tables" in out and "Plackett-Luce" in out


def test_the_finding_names_where_the_curve_flattens_only_when_there_is_a_curve():
    import polars as pl

    from analyses.ladder import _finding

    def ratings(budgets):
        rows = [{"players": 2, "entry": "bot", "budget": None, "rating": 25.0, "rating_lo": 23.0,
                 "rating_hi": 27.0, "win_share": 0.5}]
        rows += [{"players": 2, "entry": f"ismcts:iterations={b}", "budget": b, "rating": 20.0 + i * 10,
                  "rating_lo": 18.0 + i * 10, "rating_hi": 22.0 + i * 10, "win_share": 0.4 + i * 0.2}
                 for i, b in enumerate(budgets)]
        return pl.DataFrame(rows, schema_overrides={"budget": pl.Int64})

    one = _finding(ratings([1024]), 2)
    assert "rates below the best bot, bot" in one and "stops rising" not in one
    two = _finding(ratings([512, 1024]), 2)
    assert "rates above the best bot" in two and "stops rising beyond the interval at 1024 iterations" in two
