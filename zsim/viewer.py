"""One game, move by move, as ``zsim view`` shows it: every position's view
in words for each seat and for a spectator, every move as each seat could
tell it, the search's statistics where a search decided (or hinted), and
each seat's chance of winning after every move, with its interval.

The game is the one zsim deals for (matchup, run seed, game number), its
decisions replayed through the forward model from a *script* (seat, kind,
option per decision): a played game's record keeps one, and a game of bots
and searches is played again to find it (the searches, seeded by the game,
decide as they did, and their visit counts come with it). Nothing here
knows a game by name; the page is drawn from :func:`game_data` by
``zsim/viewer_page.py``.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from zsim.errors import ZsimError

#: the estimates' interval (Wilson's, at 95%)
Z95 = 1.959963984540054


class Strings:
    """Each distinct text once, and each distinct list of texts once: a page's
    views repeat most lines and rows from one move to the next, so they are
    kept as numbers into ``items`` (texts) and ``parts`` (lists of text numbers)."""

    def __init__(self):
        self.items: list[str] = []
        self._index: dict[str, int] = {}
        self.parts: list[list[int]] = []
        self._parts: dict[tuple, int] = {}

    def part(self, texts) -> int:
        key = tuple(self(t) for t in texts)
        i = self._parts.get(key)
        if i is None:
            i = self._parts[key] = len(self.parts)
            self.parts.append(list(key))
        return i

    def __call__(self, text) -> int:
        text = str(text)
        i = self._index.get(text)
        if i is None:
            i = self._index[text] = len(self.items)
            self.items.append(text)
        return i


def view_data(view, strings: Strings) -> dict:
    """A SeatView (``zsim.seat_view``) as the page keeps it: [status, own, keys,
    table, counted, row...], each a number into ``strings`` (the status) or its
    parts (the others: a pair list flattened, label then text)."""
    flat = lambda items: strings.part(x for pair in items for x in pair)   # noqa: E731
    keys = list(view.seats[0]) if view.seats else []
    return [strings(view.status), flat(view.own), strings.part(keys), flat(view.table), flat(view.counted),
            *(strings.part(str(row.get(k, "")) for k in keys) for row in view.seats)]


def wilson(mean: np.ndarray, n: int, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's interval (95% by default) around shares ``mean`` of ``n`` continuations each."""
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * np.sqrt(np.clip(mean * (1 - mean), 0, None) / n + z2 / (4 * n * n))
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def logged(matchup, seed: int, game: int):
    """A game of bots and searches played again: its script [decisions, 3] and,
    per decision, the search's (option, visits, mean share) rows (None where
    no search decided)."""
    from zsim.harness.search_records import play_logged
    from zsim.harness.stepping import SearchSetup
    from zsim.strategy_registry import strategy_arrays

    specs = list(matchup.strategies)
    _, params = strategy_arrays(matchup.game, specs)
    setup = SearchSetup(matchup, specs, params.shape[1])
    decisions, rows, _ = play_logged(setup, seed, game, setup.workspace())
    searched = [rows[k, :int(decisions[k, 4])].copy() if decisions[k, 4] > 0 else None
                for k in range(decisions.shape[0])]
    return decisions[:, [0, 1, 3]].copy(), searched


def game_data(matchup, seed: int, game: int, *, script=None, people=(), continuations: int = 64,
              hint: str = "ismcts", hint_iterations: int = 256, labels=None, with_record: bool = False):
    """Everything the page of game ``game`` of ``matchup`` shows (see the module
    doc). ``script``: the game's decisions (found by playing it when None);
    ``people``: the seats a person played, whose decisions get the search's
    hint at ``hint_iterations`` (0: none); ``continuations``: games played
    on from each position and observer for the traces (0: no traces);
    ``labels``: a name per seat (default: its strategy). ``with_record``:
    (data, the game's record as zsim writes it for these decisions)."""
    from zsim.harness.forward import forward_model
    from zsim.harness.table import Table
    from zsim.harness.trace import TRUE, trace

    model = forward_model(matchup.game)
    if not hasattr(model, "describe"):
        raise ZsimError(f"{matchup.game}'s forward model cannot show a seat its table, so its games cannot be viewed")
    players = matchup.players
    labels = list(labels or matchup.strategies)
    matchup = continued(matchup, matchup.spec.strategies.default)
    searched = None
    if script is None:
        script, searched = logged(matchup, seed, game)
    script = np.asarray(script, np.int64).reshape(-1, 3)
    table = Table(matchup, seed, game, people=range(players), hint=hint)
    strings = Strings()
    seats = list(range(-1, players))
    views = [[view_data(table.describe(s), strings) for s in seats]]
    moves = []
    for k, (seat, kind, option) in enumerate(script.tolist()):
        p = table.pending()
        if p.seat < 0:
            raise ZsimError(f"decision {k + 1} of the record comes after the game's end: "
                            f"the record is not the game zsim deals for seed {seed}, game {game}")
        kind_name = model.KINDS[kind] if 0 <= kind < len(model.KINDS) else str(kind)
        if p.seat != seat or p.kind != kind_name or option not in p.options:
            raise ZsimError(f"decision {k + 1} of the record (seat {seat}, {kind_name} {option}) is not one the game "
                            f"offers there (seat {p.seat}, {p.kind}): the record is not the game zsim deals for "
                            f"seed {seed}, game {game}")
        move = {"seat": seat, "kind": kind_name, "text": strings(table.text(kind_name, option)),
                "unseen": [s for s in range(players) if s != seat and not table.told_apart(option, s)]}
        if searched is not None and searched[k] is not None:
            rows = searched[k]
            move["search"] = _stats("searched", [int(o) for o in rows[:, 0]], rows[:, 1], rows[:, 2], option,
                                    kind_name, table, strings)
        elif seat in people and hint_iterations > 0:
            h = table.hint(hint_iterations)
            move["search"] = _stats("hint", list(h.options), np.asarray(h.visits), np.asarray(h.values), option,
                                    kind_name, table, strings, choice=h.choice)
        table.play(option)
        views.append([view_data(table.describe(s), strings) for s in seats])
        moves.append(move)
    if not table.over:
        raise ZsimError(f"the record stops after {len(script)} decisions, before the game's end")
    places = table.places()
    data = {"game": matchup.game, "title": matchup.spec.title, "players": players, "seed": int(seed),
            "deal": int(game), "labels": labels, "places": places,
            "moves": moves, "views": views, "strings": strings.items, "parts": strings.parts, "trace": None}
    if continuations > 0:
        observers = ([TRUE] if hasattr(model, "redraw_nb") else []) + list(range(players))
        from zsim.harness.trace_nb import OBSERVER_SLOTS
        observers = observers[:OBSERVER_SLOTS]
        traced = trace(matchup, seed, [game], n=continuations, observers=observers, scripts=[script])
        data["trace"] = trace_data(traced)
    return (data, table.record()) if with_record else data


def _stats(source, options, visits, values, chosen, kind, table, strings, choice=None) -> dict:
    """A search's root as the page shows it, most visited first."""
    order = sorted(range(len(options)), key=lambda i: (-int(visits[i]), i))
    return {"source": source, "chosen": int(chosen),
            "choice": int(options[order[0]]) if choice is None else int(choice),
            "options": [strings(table.text(kind, options[i])) for i in order],
            "codes": [int(options[i]) for i in order],
            "visits": [int(visits[i]) for i in order],
            "values": [round(float(values[i]), 4) for i in order]}


def trace_data(traced) -> dict:
    """One game's trace per observer: [observer][position][seat] estimates and
    the ends of their 95% intervals (the last position, the result, exact)."""
    means = traced.means(0)                          # [positions, observers, seats]
    n = traced.n
    lo, hi = wilson(np.clip(means, 0, 1), n)
    lo[-1], hi[-1] = means[-1], means[-1]
    r = lambda a: np.round(np.moveaxis(a, 1, 0), 3).tolist()   # noqa: E731
    return {"n": int(n), "observers": [int(o) for o in traced.observers], "continuation": list(traced.continuation),
            "mean": r(means), "lo": r(lo), "hi": r(hi)}


def continued(matchup, default: str):
    """``matchup`` with each person's seat held by ``default``, the bot a trace
    continues a person's seat with."""
    specs = tuple(default if s == "person" else s for s in matchup.strategies)
    return dataclasses.replace(matchup, strategies=specs)
