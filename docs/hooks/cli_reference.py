"""mkdocs hook: the pages written from zsim itself at every build, so they cannot drift.

docs/cli.md holds the hand-written part and the marker ``MARKER``; at build time the
marker becomes one section per command with its ``--help``, read from ``zsim.cli.cli``
(``reference_markdown()``). docs/reference.md holds ``API_MARKER``, which becomes one
mkdocstrings block per public name of ``zsim.api`` (``api_markdown()``), so a new
command, option or public name shows up without an edit here. tests/test_docs_site.py
calls both and builds the site with them."""
from __future__ import annotations

import click

MARKER = "<!-- zsim: the command reference is written here at build time -->"
API_MARKER = "<!-- zsim: the API reference is written here at build time -->"
WIDTH = 100     # help text is wrapped at this width whatever the terminal


def _help(command: click.Command, ctx: click.Context) -> str:
    return command.get_help(ctx).rstrip()


def _section(level: int, title: str, anchor: str, command: click.Command, ctx: click.Context) -> list[str]:
    return [f"{'#' * level} `{title}` {{#{anchor}}}", "", "```text", _help(command, ctx), "```", ""]


def _anchor(path: str) -> str:
    return path.replace(" --game ", "-").replace(" ", "-")


def reference_markdown() -> str:
    """One section per command of ``zsim``: ``## zsim VERB`` with its --help, then
    ``### zsim GROUP SUB`` for a group's commands (and each game's analyses)."""
    from zsim.cli import cli

    root = click.Context(cli, info_name="zsim", terminal_width=WIDTH, max_content_width=WIDTH)
    lines = ["## `zsim` {#zsim}", "", "```text", _help(cli, root), "```", ""]
    for name in sorted(cli.commands):
        command = cli.commands[name]
        ctx = click.Context(command, info_name=name, parent=root, terminal_width=WIDTH,
                            max_content_width=WIDTH)
        lines += _section(2, f"zsim {name}", f"zsim-{name}", command, ctx)
        if isinstance(command, click.Group):
            lines += _group(command, ctx, f"zsim {name}")
    return "\n".join(lines) + "\n"


def _group(group: click.Group, ctx: click.Context, path: str) -> list[str]:
    lines = []
    for name in sorted(click.Group.list_commands(group, ctx)):
        sub = click.Group.get_command(group, ctx, name)
        sub_ctx = click.Context(sub, info_name=name, parent=ctx, terminal_width=WIDTH, max_content_width=WIDTH)
        lines += _section(3, f"{path} {name}", _anchor(f"{path} {name}"), sub, sub_ctx)
    if path == "zsim analyze":      # each further game's analyses are a click group of their own
        from zsim.cli_analyze import ANALYSES, _load

        for game, where in ANALYSES.items():
            games_group = _load(where)
            game_ctx = click.Context(games_group, info_name=f"analyze --game {game}", parent=ctx.parent,
                                     terminal_width=WIDTH, max_content_width=WIDTH)
            lines += _group(games_group, game_ctx, f"zsim analyze --game {game}")
    return lines


def api_markdown() -> str:
    """The public names of ``zsim.api`` (its ``__all__``), as mkdocstrings blocks in three
    groups: the verbs, the errors and stops, and the result types."""
    import inspect

    from zsim import api

    verbs, errors, results = [], [], []
    for name in api.__all__:
        obj = getattr(api, name)
        kind = (errors if inspect.isclass(obj) and issubclass(obj, BaseException) else
                results if inspect.isclass(obj) else verbs)
        kind.append(f"::: zsim.api.{name}\n")
    return "\n".join(["## Verbs", "", *verbs, "## Errors and stops", "", *errors,
                      "## Results", "", *results])


PAGES = {"cli.md": (MARKER, reference_markdown), "reference.md": (API_MARKER, api_markdown)}


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_uri not in PAGES:
        return markdown
    marker, write = PAGES[page.file.src_uri]
    if marker not in markdown:
        raise ValueError(f"docs/{page.file.src_uri} has lost its marker {marker}")
    return markdown.replace(marker, write())
