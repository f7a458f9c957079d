"""The docs site builds in strict mode (a broken link, a missing page or a bad anchor
fails it), offline, and its generated pages follow zsim itself: a new option of a command
shows up in the command-line reference and every public name in the API reference."""
from __future__ import annotations

import os
import re
from pathlib import Path

import click
import pytest
import yaml

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built once for this module, with an option added to `zsim games` that
    exists nowhere else: the generated reference must show it."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from zsim.cli import cli

    out = tmp_path_factory.mktemp("site")
    probe = click.Option(["--docs-probe-option"], is_flag=True, help="an option only this test adds")
    command = cli.commands["games"]
    command.params.append(probe)
    here, banner = Path.cwd(), os.environ.get("NO_MKDOCS_2_WARNING")
    try:
        os.chdir(ROOT)
        os.environ["NO_MKDOCS_2_WARNING"] = "1"      # mkdocs-material's notice of its end of life
        config = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(out), strict=True)
        build(config)           # raises mkdocs.exceptions.Abort on any warning in strict mode
    finally:
        os.chdir(here)
        command.params.remove(probe)
        if banner is None:
            os.environ.pop("NO_MKDOCS_2_WARNING", None)
        else:
            os.environ["NO_MKDOCS_2_WARNING"] = banner
    return out


def nav_pages(nav) -> list[str]:
    pages = []
    for entry in nav:
        for value in entry.values():
            pages += nav_pages(value) if isinstance(value, list) else [value]
    return pages


def test_the_config_is_strict_offline_and_lists_every_page():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    assert config["strict"] is True and config["site_dir"] == "build/site"
    assert all(config["validation"][k] == "warn" for k in ("omitted_files", "unrecognized_links", "anchors"))
    plugins = [p if isinstance(p, str) else next(iter(p)) for p in config["plugins"]]
    assert set(plugins) == {"search", "mkdocstrings"}      # nothing that fetches (no social cards)
    pages = nav_pages(config["nav"])
    on_disk = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").glob("*.md"))
    assert sorted(pages) == on_disk


def test_every_page_is_built(site):
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    for page in nav_pages(config["nav"]):
        html = site / page.replace(".md", ".html")
        assert html.is_file() and "<h1" in html.read_text(encoding="utf-8"), page


def test_a_new_option_shows_up_in_the_cli_reference(site):
    html = (site / "cli.html").read_text(encoding="utf-8")
    section = html[html.index('id="zsim-games"'):html.index('id="zsim-record"')]
    assert "--docs-probe-option" in section and "an option only this test adds" in section
    for verb in ("simulate", "tournament", "analyze-hand-size", "analyze-zahlemann-money", "replay"):
        assert f'id="zsim-{verb}"' in html, verb
    assert "--precision" in html and "Exit codes and failures" in html


def test_every_public_name_has_its_entry_and_the_verbs_their_examples(site):
    from zsim import api

    html = (site / "reference.html").read_text(encoding="utf-8")
    for name in api.__all__:
        assert f'id="zsim.api.{name}"' in html, name
    # a doctest renders as a Python session, not as nested quotes
    assert "<blockquote>" not in html
    assert html.count('class="gp">&gt;&gt;&gt;') >= len([n for n in api.__all__ if n[0].islower()])


def test_the_site_needs_no_network(site):
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<link[^>]+href="https?://', text), page.name     # no web fonts or remote CSS
        assert not re.search(r'<script[^>]+src="https?://', text), page.name


def test_no_list_is_glued_to_the_paragraph_above_it(site):
    """Python-Markdown needs a blank line before a list: without one, its items
    run on as one paragraph of text with the dashes in it. Held on the pages'
    sources and on the built pages, where a glued list shows as ' - ' in a <p>."""
    glued = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        lines, fenced = page.read_text().splitlines(), False
        for i, line in enumerate(lines):
            if line.startswith("```"):
                fenced = not fenced
            previous = lines[i - 1] if i else ""
            if not fenced and re.match(r"(- |\d+\. )", line) and previous.strip() \
                    and not re.match(r"(\s*- |\s*\d+\. |\s+|\|)", previous):
                glued.append(f"{page.name}:{i + 1}")
    assert glued == [], f"a list follows a paragraph line with no blank line between: {glued}"
    built = [p.name for p in site.glob("*.html") if re.search(r"<p>[^<]*:\n- ", p.read_text())]
    assert built == [], built
