"""``zsim play``: a person at the table against the bots, in a terminal
(Textual; ``textual serve`` puts the same app in a browser).

The screen shows only what the person's seat may see: the game's own view
in words (``describe`` of its forward model, ``zsim/seat_view.py``), the
options of the decision waiting (keys 1-9, or the list with arrows and
Enter, or the mouse), and the bots' moves as they are made, each named only
where the seat can tell it from the others. ``h`` asks the search what it
would do here and what it makes of each option. The game ends with the
places and the person's decisions beside the search's, and the game's
script (its decisions) is saved for the record and the traces.
"""
from __future__ import annotations

from dataclasses import dataclass

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from zsim.harness.table import Table


@dataclass(frozen=True)
class Choice:
    """A person's decision beside the search's at the same position: the
    decision's number in the game, its kind, both options in words and the
    search's estimate of the chance of winning with each."""
    move: int
    kind: str
    mine: str
    search: str
    mine_value: float
    search_value: float

    @property
    def differs(self) -> bool:
        return self.mine != self.search


def summary(choices: list[Choice], iterations: int) -> list[str]:
    """The person's decisions against the search's, where they differed."""
    apart = [c for c in choices if c.differs]
    out = [f"your decisions: {len(choices)}; the search ({iterations} iterations a decision) chose otherwise "
           f"at {len(apart)}"]
    for c in apart:
        out.append(f"  move {c.move + 1} ({c.kind}): you {c.mine} (the search's estimate {c.mine_value:.0%}), "
                   f"the search {c.search} ({c.search_value:.0%})")
    if apart:
        cost = sum(c.search_value - c.mine_value for c in apart) / len(apart)
        out.append(f"  where they differed, the search rated its choice {100 * cost:+.0f} points of chance of "
                   f"winning above yours on average (its own noise at this budget included)")
    return out


class PlayApp(App):
    """One game at ``table`` for the person in seat ``seat``."""

    CSS = """
    #view { width: 2fr; padding: 0 1; border: round $accent; }
    #side { width: 1fr; }
    #options { height: 1fr; border: round $success; }
    #hint { height: auto; max-height: 12; padding: 0 1; border: round $warning; }
    #log { height: 10; border: round $primary; }
    """
    BINDINGS = [Binding("h", "hint", "hint"), Binding("q", "quit", "quit")] + [
        Binding(str(k), f"choose({k})", show=False) for k in range(1, 10)]

    def __init__(self, table: Table, seat: int, hint_iterations: int = 256, on_end=None):
        super().__init__()
        self.table, self.seat, self.hint_iterations = table, seat, hint_iterations
        self.on_end = on_end              # at the game's end, before anything else: saves the record, says where
        self.choices: list[Choice] = []
        self.finished = False
        self.title = f"zsim play: {table.matchup.spec.title}, seat {seat}"

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield Static(id="view")
            with Vertical(id="side"):
                yield OptionList(id="options")
                yield Static("h: what the search would do", id="hint")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._advance()

    # ------------------------------------------------------------ the game
    def _advance(self) -> None:
        """Let the bots move until the person decides or the game ends; redraw."""
        log = self.query_one("#log", RichLog)
        for move in self.table.run_bots(self.seat):
            what = move.text if move.text is not None else f"{move.kind} (not seen)"
            log.write(f"seat {move.seat}: {what}")
        self._redraw()

    def _redraw(self) -> None:
        view = self.table.describe(self.seat)
        self.query_one("#view", Static).update("\n".join(view.lines()) if view is not None else "")
        options = self.query_one("#options", OptionList)
        options.clear_options()
        p = self.table.pending()
        if p.seat < 0:
            self._end()
            return
        for i, o in enumerate(p.options):
            key = f"{i + 1}: " if i < 9 else "   "
            options.add_option(Option(key + self.table.text(p.kind, o), id=str(o)))
        options.highlighted = 0
        self.query_one("#hint", Static).update(f"your {p.kind}: {len(p.options)} options · h: what the search "
                                               f"would do")

    def _play(self, option: int) -> None:
        p = self.table.pending()
        if p.seat != self.seat or option not in p.options:
            return
        h = self.table.hint(self.hint_iterations)        # the search's view, for the summary at the end
        value = dict(zip(h.options, h.values))
        self.choices.append(Choice(len(self.table.script), p.kind, self.table.text(p.kind, option),
                                   self.table.text(p.kind, h.choice), value[option], value[h.choice]))
        self.table.play(option)
        self.query_one("#log", RichLog).write(f"you: {self.choices[-1].mine}")
        self._advance()

    def _end(self) -> None:
        self.finished = True
        places = self.table.places()
        log = self.query_one("#log", RichLog)
        saved = ""
        if self.on_end is not None:           # at once: a browser closed after the end loses nothing
            saved = self.on_end()
            log.write(saved)
        order = sorted(range(len(places)), key=lambda s: places[s])
        log.write("game over: " + ", ".join(f"{places[s]}. seat {s}{' (you)' if s == self.seat else ''}"
                                             for s in order))
        for line in summary(self.choices, self.hint_iterations):
            log.write(line)
        self.query_one("#hint", Static).update(f"you finished {places[self.seat]} of {len(places)} · "
                                               + (f"{saved} · " if saved else "") + "q: quit")

    # ------------------------------------------------------------ input
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._play(int(event.option.id))

    def action_choose(self, k: int) -> None:
        p = self.table.pending()
        if p.seat == self.seat and 1 <= k <= len(p.options):
            self._play(p.options[k - 1])

    def action_hint(self) -> None:
        p = self.table.pending()
        if p.seat != self.seat:
            return
        h = self.table.hint(self.hint_iterations)
        rows = sorted(zip(h.texts, h.visits, h.values), key=lambda r: -r[1])
        text = [f"search ({self.hint_iterations} iterations): {self.table.text(p.kind, h.choice)}"]
        text += [f"  {t}: wins {v:.0%} ({n} visits)" for t, n, v in rows[:8]]
        self.query_one("#hint", Static).update("\n".join(text))
