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
    if path == "zsim analyze":
        return _analyses(ctx)
    lines = []
    for name in sorted(click.Group.list_commands(group, ctx)):
        sub = click.Group.get_command(group, ctx, name)
        sub_ctx = click.Context(sub, info_name=name, parent=ctx, terminal_width=WIDTH, max_content_width=WIDTH)
        lines += _section(3, f"{path} {name}", _anchor(f"{path} {name}"), sub, sub_ctx)
    return lines


def _analyses(ctx: click.Context) -> list[str]:
    """Every game's analyses, made from their specs as ``zsim analyze`` makes them: the
    default game's as ``zsim analyze NAME``, another's as ``zsim analyze --game G NAME``."""
    from zsim import api
    from zsim.cli_analyze import command

    lines = []
    for game in api.games():
        own = game.name == api.DEFAULT_GAME
        parent = ctx if own else click.Context(ctx.command, info_name=f"analyze --game {game.name}",
                                               parent=ctx.parent, terminal_width=WIDTH, max_content_width=WIDTH)
        path = "zsim analyze" if own else f"zsim analyze --game {game.name}"
        for name in api.analyses(game.name):
            sub = command(game.name, api.analysis(name, game=game.name))
            sub_ctx = click.Context(sub, info_name=name, parent=parent, terminal_width=WIDTH,
                                    max_content_width=WIDTH)
            lines += _section(3, f"{path} {name}", _anchor(f"{path} {name}"), sub, sub_ctx)
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
