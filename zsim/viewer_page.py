"""The HTML of ``zsim view``: one self-contained page per game (its data,
style and script inline, nothing fetched, no server) and an index of the
games. The page's data comes from :func:`zsim.viewer.game_data`; its
script (``zsim/data/viewer.js``) draws the chart, the seat views and the
moves from it. The answer a reader wants first, who won and when the game
was decided, is written here in plain HTML, readable before the script runs.
"""
from __future__ import annotations

import html
import json
from importlib import resources

import numpy as np

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _asset(name: str) -> str:
    return resources.files("zsim").joinpath("data", name).read_text(encoding="utf-8")


def _head(title: str) -> str:
    """A page's opening, up to ``<body>``: its title and the viewer's style inline."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_asset("viewer.css")}</style>
</head>
<body>"""


def _seats(seats: list[int]) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def answer(data: dict, measures: dict | None = None, threshold: float = 0.9) -> list[str]:
    """The page's first lines: who won, the places, and (with the true
    position's trace measures, ``analyses.drama.game_measures``) when the game
    was decided, how often the lead changed and how low the winner fell."""
    places, labels = data["places"], data["labels"]
    winners = [s for s, p in enumerate(places) if p == 1]
    if len(winners) == 1:
        w = winners[0]
        lines = [f"Seat {w} ({labels[w]}) won."]
    else:
        lines = [f"{_seats(winners).capitalize()} ({', '.join(labels[s] for s in winners)}) shared first place."]
    order = sorted(range(len(places)), key=lambda s: (places[s], s))
    lines.append("Places: " + ", ".join(f"seat {s} {ORDINALS[places[s] - 1] if places[s] <= len(ORDINALS) else places[s]}"
                                        for s in order) + f". {len(data['moves'])} moves.")
    if measures is None:
        return lines
    who = f"seat {winners[0]}'s" if len(winners) == 1 else "the winners'"
    moves, decided = measures["moves"], measures["decided_move"]
    if decided == 0:
        lines.append(f"Decided from the deal: {who} chance of winning never fell below {threshold:.0%}.")
    elif decided >= moves:
        lines.append(f"Open to the last move: {who} chance of winning stayed below {threshold:.0%} until the end.")
    else:
        lines.append(f"Decided after move {decided} of {moves}: from there {who} chance of winning stayed "
                     f"above {threshold:.0%}.")
    changes = measures["lead_changes"]
    low, at = lowest(data)
    lines.append(f"The lead changed {'once' if changes == 1 else f'{changes} times'} (a clear lead, beyond the "
                 f"estimates' noise); {who} chance was lowest at {low:.0%}"
                 + (" at the deal." if at == 0 else f", after move {at}."))
    return lines


def seats_line(data: dict, changed_rules, source: str = "") -> str:
    """Who sat where, the rules (``key=value`` of those changed) and where the game comes from."""
    seats = "; ".join(f"seat {s} {name}" for s, name in enumerate(data["labels"]))
    rules = "The printed rules" if not changed_rules else "Rules changed: " + ", ".join(changed_rules)
    return f"Seats: {seats}. {rules}." + (f" {source}" if source else "")


def estimate_line(data: dict, people=()) -> str:
    """How the chances of winning were estimated ("" without a trace)."""
    t = data["trace"]
    if t is None:
        return ""
    bots = "; ".join(f"seat {s} {bot}" + (" (a person's seat: the game's default bot)" if s in people else
                                          " (its search's rollout bot)" if bot != label else "")
                     for s, (bot, label) in enumerate(zip(t["continuation"], data["labels"])))
    return (f"Chances of winning: after every move the game is played on {t['n']} times by the seats' bots "
            f"({bots}), from the true position (only what no seat has seen drawn afresh) and from each seat's "
            f"view; bands and brackets are 95% intervals.")


def lowest(data: dict) -> tuple[float, int]:
    """The winners' lowest estimate from the true position before the end, and after which move."""
    t = data["trace"]
    est = np.asarray(t["mean"][t["observers"].index(-1)], float)
    result = est[-1] / est[-1].sum()
    w = est[:-1] @ result if est.shape[0] > 1 else est @ result
    return float(w.min()), int(np.argmin(w))


def render(data: dict, measure, threshold: float, meta_lines: list[str], people=(), back: str | None = None):
    """A game's page from :func:`zsim.viewer.game_data`'s ``data``: its answer
    from the true position's trace, measured by ``measure(est, n, threshold)``
    (``analyses.drama.game_measures``), and ``meta_lines`` under it; returns
    (the page, its one-line answer: who won and when it was decided)."""
    measures = None
    t = data["trace"]
    if t is not None and -1 in t["observers"]:
        measures = measure(np.asarray(t["mean"][t["observers"].index(-1)]), t["n"], threshold)
        data["decided"] = measures["decided_move"]
    lines = answer(data, measures, threshold)
    html_text = page(data, answer_lines=lines, meta_lines=[m for m in meta_lines if m],
                     start_seat=people[0] if people else -1, back=back)
    return html_text, " ".join(lines[:1] + lines[2:3])


def page(data: dict, *, answer_lines: list[str], meta_lines: list[str], start_seat: int = -1,
         back: str | None = None) -> str:
    """The self-contained page of one game."""
    payload = dict(data, start_seat=int(start_seat))
    blob = json.dumps(payload, separators=(",", ":")).replace("</", "<\\/")
    e = html.escape
    title = f"{data['title']}, {data['players']} players: seed {data['seed']}, game {data['deal']}"
    back_link = f'<p class="meta"><a href="{e(back)}">all games</a></p>' if back else ""
    return f"""{_head(title)}
<header>
{back_link}<h1>{e(title)}</h1>
<div class="answer">{"".join(f"<p>{e(line)}</p>" for line in answer_lines)}</div>
{"".join(f'<p class="meta">{e(line)}</p>' for line in meta_lines)}
</header>
<main>
<div class="controls" role="toolbar" aria-label="step through the game">
<button type="button" id="first" aria-label="the deal">|&#x25C0;</button>
<button type="button" id="prev">&#x25C0; prev</button>
<span id="counter" aria-live="polite">the deal</span>
<button type="button" id="next">next &#x25B6;</button>
<button type="button" id="last" aria-label="the end">&#x25B6;|</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="move">
</div>
<div id="as" role="group" aria-label="whose view">View as:</div>
<div class="cols">
<div>
<section><h2 id="chart-title">Each seat's chance of winning</h2><div id="chart"></div><ul id="legend"></ul></section>
<section id="move"></section>
</div>
<div>
<section id="view"></section>
<section><h2>Moves</h2><ol id="move-list"></ol></section>
</div>
</div>
</main>
<footer>Made by zsim view. Keys: &larr; &rarr; step, Home and End jump; a move's link (#move=N&amp;seat=S) opens the page there.
Hidden cards show only with "all seats"; a seat's view shows what that seat knew, and a move it could not tell from the
others is not named.</footer>
<script type="application/json" id="data">{blob}</script>
<script>{_asset("viewer.js")}</script>
</body></html>
"""


def index(title: str, entries: list[tuple[str, str, str]], intro: list[str]) -> str:
    """A page linking each game's page: (file name, link text, one line) per game."""
    e = html.escape
    items = "".join(f'<li><a href="{e(href)}">{e(text)}</a>: {e(line)}</li>' for href, text, line in entries)
    return f"""{_head(title)}
<header><h1>{e(title)}</h1>{"".join(f"<p>{e(line)}</p>" for line in intro)}</header>
<main><ol class="games">{items}</ol></main>
</body></html>
"""
