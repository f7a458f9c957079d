"""The README documents every command the CLI has."""
from __future__ import annotations

import re
from pathlib import Path

import click

from zsim.cli import cli

README = (Path(__file__).parents[1] / "README.md").read_text()


def commands(group: click.Group, prefix: str = "zsim") -> list[str]:
    out = []
    for name, cmd in sorted(group.commands.items()):
        path = f"{prefix} {name}"
        out.append(path)
        if isinstance(cmd, click.Group):
            out += commands(cmd, path)
    return out


def test_every_command_is_in_the_readme():
    found = commands(cli)
    assert "zsim analyze hand-size" in found and "zsim report" in found   # the walk sees subcommands
    missing = [c for c in found if not re.search(re.escape(c) + r"(?![\w-])", README)]
    assert not missing, f"commands missing from README.md: {missing}"


def test_every_top_level_command_has_its_own_section():
    headings = set(re.findall(r"^### `(zsim [\w-]+)`", README, flags=re.M))
    missing = [c for c in commands(cli) if c.count(" ") == 1 and c not in headings]
    assert not missing, f"no README section for: {missing}"


def test_the_readme_opens_with_the_two_setup_commands():
    first_block = README.split("```")[1]
    assert "make run" in first_block and "make test" in first_block
