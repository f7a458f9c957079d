"""``zsim play`` headless (Textual's pilot): a scripted person plays whole
games to the end, asks for a hint, and the screen shows only what the
seat may see."""
from __future__ import annotations

import asyncio
import json

import pytest

import zsim
from conftest import warm_stepped, warm_trace
from zsim._api_play import prepare
from zsim.play_app import PlayApp
from test_view import page_data


def _screen_text(app) -> str:
    view = app.query_one("#view").render()
    log = app.query_one("#log")
    return str(view) + "\n" + "\n".join(str(line.text) for line in log.lines)


@pytest.mark.parametrize("game, bots", [("zahltag", "undercut,counter"), ("zahlemann", "counter,shedder"),
                                        ("baumeister", "budget,value")])
def test_a_person_plays_a_whole_game_with_keys_and_a_hint(game, bots, background, tmp_path):
    warm_stepped(background, game)
    table, path = prepare(game, 3, 0, bots, (), 11, 0, "ismcts", 16, str(tmp_path / "game.jsonl"))
    app = PlayApp(table, 0, hint_iterations=16)

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("h")
            assert "search (16 iterations)" in str(app.query_one("#hint").render())
            presses = 0
            scanned = [0]
            while not app.finished and presses < 2000:
                view = table.describe(0)
                assert str(app.query_one("#view").render()).splitlines() == view.lines()
                screen = _screen_text(app)
                for hand in _other_hands(table, view):
                    assert hand not in screen, f"another seat's hand {hand!r} is on the screen"
                    scanned[0] += 1
                await pilot.press("1")
                presses += 1
            assert app.finished and scanned[0] > 10          # the scan had hands to look for
            text = _screen_text(app)
            assert "game over:" in text and "(you)" in text
            return text

    text = asyncio.run(run())
    assert table.over and len(app.choices) == sum(1 for s, _, _ in table.script if s == 0)
    assert [c.mine for c in app.choices] == [table.text(table.model.KINDS[k], o) for s, k, o in table.script
                                              if s == 0]
    assert any(line.startswith("your decisions: ") for line in text.splitlines())
    told = [line for line in text.splitlines() if line.startswith("seat ")]
    assert any("(not seen)" not in line for line in told)
    if game == "zahltag":            # a bid made before the person's is sealed: never named
        assert any(line.endswith("bid (not seen)") for line in told), told[:40]
    # the record is the game's own, and zsim replay reads it to the same end
    path.write_text("".join(json.dumps(e) + "\n" for e in table.record()), encoding="utf-8")
    replayed = list(zsim.replay(str(path), progress=False))
    assert len(replayed) == 1 and "person" in json.loads(path.read_text().splitlines()[0])["strategies"]
    # and zsim view shows it: the person's seat first, each of its decisions beside the search's hint
    warm_trace(background, game)
    pages = zsim.view(path, tmp_path / "pages", continuations=4, hint_iterations=16)
    data = page_data(pages[1])
    assert data["start_seat"] == 0 and data["places"] == table.places() and data["labels"][0] == "person"
    assert [(m["seat"], m["kind"]) for m in data["moves"]] == [(s, table.model.KINDS[k]) for s, k, _ in table.script]
    hints = [m["search"] for m in data["moves"] if m["seat"] == 0]
    assert hints and all(h["source"] == "hint" and h["chosen"] in h["codes"] and sum(h["visits"]) <= 16
                         for h in hints)
    # the page's hint at each of the person's decisions is the one the table gave there
    texts = data["strings"]
    assert [texts[h["options"][h["codes"].index(h["choice"])]] for h in hints] == [c.search for c in app.choices]
    assert [h["values"][h["codes"].index(h["choice"])] for h in hints] == \
        [round(c.search_value, 4) for c in app.choices]
    assert all("search" not in m for m in data["moves"] if m["seat"] != 0)
    assert len(data["views"]) == len(table.script) + 1 and data["trace"]["n"] == 4


def _other_hands(table, view) -> list[str]:
    """The other seats' hands as a spectator's view words them, where they
    could not turn up on the seat's screen by chance (two cards or more,
    not the seat's own hand's words)."""
    own = {text for _, text in view.own}
    out = []
    for label, text in table.describe(-1).own:
        words = label.replace("'s", "").split()
        if "hand" not in words or "0" in words:
            continue
        if " " in text and "(0 cards)" not in text and text not in own:
            out.append(text)
    return out


def test_bad_options_are_one_line_before_the_table_opens(tmp_path):
    (tmp_path / "taken.jsonl").write_text("mine")
    for args, message in [((5, 0, None, (), 0, 0, "ismcts", 16, None), "--players 5 is outside 2..4"),
                          ((2, 2, None, (), 0, 0, "ismcts", 16, None), "--seat 2 is not a seat"),
                          ((2, 0, "nosuch", (), 0, 0, "ismcts", 16, None), "unknown strategy"),
                          ((2, 0, None, (), 0, 0, "simple", 16, None), "--hint simple is not a search"),
                          ((2, 0, None, (), 0, 0, "ismcts", 0, None), "--hint-iterations must be"),
                          ((2, 0, None, (), 0, 0, "ismcts", 16, str(tmp_path / "taken.jsonl")), "exists")]:
        with pytest.raises(zsim.ZsimError) as e:
            prepare("zahltag", *args)
        assert message in str(e.value) and "\n" not in str(e.value)
    assert (tmp_path / "taken.jsonl").read_text() == "mine"
