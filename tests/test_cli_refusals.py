"""The command line refuses alike everywhere.

An empty entry in any comma list (a doubled, leading or trailing comma, or
nothing at all) is refused, never dropped; a negative count is refused; and
every refusal is one ``zsim: error:`` line, exit status 2, that names only
options of the command the user ran. The runs are forks of one server that
has imported ``zsim.cli`` (tests/cli_forks.py), each in an empty folder that
must stay empty.
"""
from __future__ import annotations

import re

import click
import pytest
from cli_forks import CommandForks

from zsim.cli import cli

HUGE = "100000000000000000000000000"

# (id, arguments, fragments the error line must hold)
CASES = [
    # strategy lists
    ("tournament-doubled-comma", ["tournament", "--field", "value,,budget"],
     ["--field 'value,,budget'", "empty entry"]),
    ("tournament-doubled-comma-zahltag", ["tournament", "--field", "simple,,random"], ["--field", "empty entry"]),
    ("tournament-leading-comma", ["tournament", "--field", ",simple,random"], ["--field", "empty entry"]),
    ("tournament-trailing-comma", ["tournament", "--field", "simple,random,"], ["--field", "empty entry"]),
    ("tournament-baumeister", ["tournament", "--game", "baumeister", "--field", "value,,budget"],
     ["--field", "empty entry"]),
    ("simulate-empty-strategies", ["simulate", "--strategies", ""], ["--strategies is empty"]),
    ("simulate-blank-strategies", ["simulate", "--strategies", " , "], ["--strategies is empty"]),
    ("simulate-trailing-comma", ["simulate", "--strategies", "simple,"], ["--strategies 'simple,'", "empty entry"]),
    ("simulate-leading-comma", ["simulate", "--strategies", ",simple"], ["--strategies", "empty entry"]),
    ("simulate-doubled-comma", ["simulate", "-p", "3", "--strategies", "simple,,random"],
     ["--strategies", "empty entry"]),
    ("record-doubled-comma", ["record", "-p", "3", "--strategies", "simple,,random"],
     ["--strategies", "empty entry"]),
    ("tune-vs-doubled-comma", ["tune", "fixed", "--vs", "simple,,random"], ["--vs", "empty entry"]),
    ("tune-vs-empty", ["tune", "fixed", "--vs", ""], ["--vs is empty"]),
    ("analyze-field-doubled-comma", ["analyze", "players", "--field", "simple,,random"], ["--field", "empty entry"]),
    ("analyze-field-empty", ["analyze", "players", "--field", ""], ["--field is empty"]),
    ("analyze-baumeister-field", ["analyze", "--game", "baumeister", "prices", "--field", "value,"],
     ["--field", "empty entry"]),
    ("report-field-trailing-comma", ["report", "--out", "r", "--field", "simple,"], ["--field", "empty entry"]),
    # number lists
    ("analyze-players-doubled-comma", ["analyze", "players", "--players", "2,,3"], ["--players '2,,3'", "empty entry"]),
    ("analyze-targets-trailing-comma", ["analyze", "tradeoff", "--targets", "1,"], ["--targets", "empty entry"]),
    ("analyze-costs-leading-comma", ["analyze", "tradeoff", "--costs", ",1"], ["--costs", "empty entry"]),
    ("analyze-hand-sizes-empty", ["analyze", "tradeoff", "--hand-sizes", ""], ["--hand-sizes is empty"]),
    ("zahlemann-hand-sizes", ["analyze", "--game", "zahlemann", "hand-size", "--hand-sizes", "3,,4"],
     ["--hand-sizes", "empty entry"]),
    ("report-players-leading-comma", ["report", "--out", "r", "--players", ",2"], ["--players", "empty entry"]),
    # counts
    ("bench-memory-negative", ["bench", "--memory", "-5"], ["--memory", "got -5"]),
    ("bench-games-zero", ["bench", "--games", "0"], ["--games", "got 0"]),
    ("bench-repeat-zero", ["bench", "--repeat", "0"], ["--repeat", "got 0"]),
    ("bench-workers-zero", ["bench", "--scaling", "--workers", "0"], ["--workers", "got 0"]),
    ("report-tournament-games-zero", ["report", "--out", "r", "--tournament-games", "0"],
     ["--tournament-games", "got 0"]),
    # only the options of the command run
    ("simulate-games-huge", ["simulate", "--games", HUGE], ["--games must be at most 2**62", HUGE]),
    ("record-games-huge", ["record", "--games", HUGE], ["--games must be at most 2**62", HUGE]),
    ("tournament-games-huge", ["tournament", "--field", "simple", "--games", HUGE], ["--games", HUGE]),
    ("tournament-independent-huge", ["tournament", "--field", "simple", "--games", str(1 << 62),
                                     "--compare-independent"], ["--games", "--compare-independent", "2**62"]),
    ("record-first-past-the-end", ["record", "--first", "5", "--games", str(1 << 62)], ["--first 5", "2**62"]),
    ("simulate-workers-local", ["simulate", "--workers", "2", "--out", "run"], ["--workers needs --backend dask"]),
]


def options_of(args: list[str]) -> set[str]:
    """The long options of the command ``args`` runs (its groups' included)."""
    names: set[str] = set()
    cmd, rest, parent = cli, list(args), None
    while True:
        ctx = cmd.make_context(cmd.name or "zsim", list(rest), parent=parent, resilient_parsing=True)
        for p in cmd.params:
            names.update(o for o in p.opts + p.secondary_opts if o.startswith("--"))
        held = ctx._protected_args if hasattr(ctx, "_protected_args") else ctx.protected_args  # click 8.2 renamed it
        more = [*held, *ctx.args] if isinstance(cmd, click.Group) else []
        if not more:
            return names
        _, cmd, rest = cmd.resolve_command(ctx, more)
        parent = ctx


@pytest.fixture(scope="module")
def refused():
    forks = CommandForks()
    yield lambda args, cwd: forks.run(list(args), cwd)
    forks.close()


@pytest.mark.parametrize("args,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refused_in_one_line_naming_the_commands_own_options(args, fragments, refused, tmp_path):
    proc = refused(args, tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert (proc.returncode, proc.stdout) == (2, ""), (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: error: ") and lines[0] != "zsim: error: ", proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", lines[0]))
    assert named <= options_of(args), (named - options_of(args), lines[0])
    assert list(tmp_path.iterdir()) == []


def test_options_of_knows_each_commands_own():
    assert "--first" in options_of(["record"]) and "--first" not in options_of(["simulate"])
    assert "--hand-sizes" in options_of(["analyze", "--game", "zahlemann", "hand-size"])
    assert "--tournament-games" not in options_of(["analyze", "players"])
