"""``zsim analyze --game G drama``: when a game is decided, lead changes,
comebacks and how far the winner trailed, from win-probability traces."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import zsim
from analyses import drama
from conftest import warm_trace
from test_view import page_data


def _est(rows) -> np.ndarray:
    return np.asarray(rows, float)


def test_a_game_decided_late_with_one_clear_lead_change():
    # seat 0 leads clearly, then seat 1 takes over and wins; n large: little noise
    est = _est([[0.5, 0.5], [0.8, 0.2], [0.85, 0.15], [0.3, 0.7], [0.05, 0.95], [0.02, 0.98], [0.0, 1.0]])
    m = drama.game_measures(est, 10_000, 0.9)
    assert m["moves"] == 6 and m["decided_move"] == 4 and m["decided_at"] == pytest.approx(4 / 6)
    assert m["lead_changes"] == 1
    assert m["lowest_chance"] == pytest.approx(0.15)
    assert m["trailing_share"] == pytest.approx(2 / 6)               # positions 1 and 2 of 6
    assert m["trailing_gap"] == pytest.approx(((0.8 - 0.2) + (0.85 - 0.15)) / 2)
    assert m["winner"] == "1"
    assert m["comeback"]                          # 0.15 of 10,000 continuations: clearly below 0.25
    # the same lowest estimate from 16 continuations is no comeback: the interval reaches past 0.25
    assert not drama.game_measures(est, 16, 0.9)["comeback"]


def test_noise_is_not_a_lead_change_and_a_game_sure_from_the_deal_is_decided_at_once():
    wobble = _est([[0.55, 0.45], [0.45, 0.55], [0.52, 0.48], [0.47, 0.53], [1.0, 0.0]])
    m = drama.game_measures(wobble, 16, 0.9)          # 16 continuations: 0.1 apart is noise
    assert m["lead_changes"] == 0 and m["trailing_share"] == 0
    sure = _est([[0.95, 0.05], [0.97, 0.03], [1.0, 0.0]])
    m = drama.game_measures(sure, 64, 0.9)
    assert m["decided_at"] == 0 and m["lowest_chance"] == pytest.approx(0.95)


def test_a_shared_first_place_weighs_both_winners():
    est = _est([[0.4, 0.4, 0.2], [0.5, 0.5, 0.0]])
    m = drama.game_measures(est, 1000, 0.9)
    assert m["winner"] == "0,1" and m["lowest_chance"] == pytest.approx(0.4)


def test_the_summary_gives_intervals_and_the_examples_pick_the_games():
    per = pl.DataFrame({"players": [2] * 5, "game": [0, 1, 2, 3, 4], "moves": [10, 12, 8, 10, 10],
                        "decided_at": [0.9, 0.5, 1.0, 0.6, 0.7], "decided_move": [9, 6, 8, 6, 7],
                        "lead_changes": [1, 0, 3, 1, 0], "lowest_chance": [0.3, 0.6, 0.05, 0.2, 0.5],
                        "comeback": [False, False, True, True, False],
                        "trailing_share": [0.1, 0.0, 0.5, 0.2, 0.0], "trailing_gap": [0.2, 0.0, 0.4, 0.3, 0.0],
                        "winner": ["0", "1", "0", "1", "0"]})
    s = drama.summary(per).row(0, named=True)
    assert s["decided_at"] == pytest.approx(0.74) and s["decided_at_ci95"] > 0
    assert s["comeback_share"] == pytest.approx(0.4) and s["comeback_share_lo"] < 0.4 < s["comeback_share_hi"]
    # three different games: the latest decided is the comeback already shown, so the next latest
    assert drama.examples(per, 2) == {"the biggest comeback": 2, "the closest game": 0, "a typical game": 4}
    assert drama.examples(per.head(1), 2) == {"the biggest comeback": 0, "the closest game": 0, "a typical game": 0}


@pytest.mark.parametrize("game", ["zahltag", "zahlemann", "baumeister"])
def test_every_game_has_a_drama_analysis(game, background, tmp_path):
    warm_trace(background, game)
    r = zsim.analyze("drama", game=game, players="2,4", games=3, continuations=4, seed=1, progress=False,
                     plots=tmp_path)
    t = r.tables["Per player count"]
    assert t["players"].to_list() == [2, 4] and t["games"].to_list() == [3, 3]
    assert all(0 <= v <= 1 for v in t["decided_at"].to_list())
    assert r.findings[0].startswith("At 2 players a game is decided ")
    assert len(r.figures) == 2
    per = r.tables["Per game"]
    assert per.height == 6 and (per["moves"] > 0).all()
    # the example games, each a page to step through beside the figures, its answer from the same trace
    for p in (2, 4):
        for label, g in drama.examples(per, p).items():
            page = tmp_path / f"{game}-{p}p-game{g}.html"
            data = page_data(page)
            row = per.filter((pl.col("players") == p) & (pl.col("game") == g)).row(0, named=True)
            assert len(data["moves"]) == row["moves"] and data["trace"]["observers"] == [-1, *range(p)]
            assert data["decided"] == row["decided_move"]
            assert f"{label} (game {g})" in next(x for x in r.findings if x.startswith(f"At {p} players, games"))


@pytest.mark.parametrize("options, message", [
    ({"threshold": 0.3}, "--threshold must be at least 0.5 and below 1, got 0.3"),
    ({"continuations": 1}, "--continuations"),
    ({"players": "5"}, "--players"),
])
def test_bad_input_is_one_line(options, message):
    with pytest.raises(zsim.ZsimError) as e:
        zsim.analyze("drama", game="zahltag", progress=False, **options)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)
