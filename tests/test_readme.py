"""The README is short and sound: it opens with the two set-up commands, names every
top-level verb in its table, and links only to files that exist; every verb has its
section in the docs' command-line reference."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import click

from zsim.cli import cli

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def cli_reference():
    spec = importlib.util.spec_from_file_location("zsim_docs_cli_reference", ROOT / "docs/hooks/cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verbs() -> list[str]:
    return sorted(cli.commands)


def test_the_readme_opens_with_the_two_setup_commands():
    first_block = README.split("```")[1]
    assert "make run" in first_block and "make test" in first_block


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 200


def test_every_top_level_verb_is_in_the_readme_table():
    rows = set(re.findall(r"^\| `zsim ([\w-]+)` \|", README, flags=re.M))
    assert "simulate" in rows and "replay" in rows      # the pattern reads the table
    missing = [v for v in verbs() if v not in rows]
    assert not missing, f"verbs missing from README.md's table: {missing}"


def test_every_verb_and_subcommand_has_a_section_in_the_cli_reference():
    text = cli_reference().reference_markdown()
    headings = set(re.findall(r"^#{2,3} `(zsim [^`]+)`", text, flags=re.M))
    expected = [f"zsim {v}" for v in verbs()]
    ctx = click.Context(cli)
    for name, command in cli.commands.items():
        if isinstance(command, click.Group):        # the analyses: the default game's, made from its specs
            expected += [f"zsim {name} {sub}" for sub in command.list_commands(ctx)]
    assert "zsim analyze hand-size" in expected
    missing = [c for c in expected if c not in headings]
    assert not missing, f"no CLI reference section for: {missing}"
    # each further game's analyses too, under the game they belong to
    assert "zsim analyze --game zahlemann players" in headings
    assert "zsim analyze --game baumeister prices" in headings


def test_every_relative_link_in_the_readme_points_to_a_file():
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    relative = [x for x in links if not re.match(r"[a-z]+:", x)]
    assert "docs/getting-started.md" in relative
    broken = [x for x in relative if not (ROOT / x).exists()]
    assert not broken, f"README.md links to missing files: {broken}"
