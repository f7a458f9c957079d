"""Strategies are pluggable: parameters, listing, and a plugin installed from
a temporary folder through the ``zsim.strategies`` entry-point group."""
from __future__ import annotations

import json
import os
import sys
import textwrap

from click.testing import CliRunner

from zsim.cli import cli
from zsim.games import get_game
from zsim.strategy_discovery import builtin_modules
from zsim.dispatch import dispatcher_source
from zsim.strategy_registry import registry

PLUGIN = '''
"""A test plugin: bids 1 on every job it can cover, never adjusts."""
from zsim.games.zahltag import constants as K
from zsim.games.zahltag.moves_nb import hand_covers_nb
from zsim.jit import hot_inline
from zsim.strategy import Param

NAME = "lowballer"
DESCRIPTION = "bids the lowest amount on every job it covers"
PARAMS = (Param("bid", 1.0, 1.0, 8.0, "what it bids"),)


@hot_inline
def adjust_nb(seat, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    return K.ACT_NONE


@hot_inline
def bid_nb(seat, need, params, hand, left, right, stacks, money, alive, demand, pub, rules, rng):
    if hand_covers_nb(seat, need, hand):
        return int(params[0])
    return K.PASS
'''


def test_every_module_of_the_strategies_package_is_a_strategy():
    names = {info.module for info in registry().values()}
    assert set(builtin_modules("strategies.zahltag")) <= names
    assert {"random", "simple", "passive", "fixed"} <= set(registry())
    ids = sorted(info.sid for info in registry().values())
    assert ids == list(range(len(ids)))


def test_dispatcher_branches_on_every_id():
    infos = sorted(registry().values(), key=lambda s: s.sid)
    source = dispatcher_source(infos, get_game("zahltag").strategies.kernels)
    compile(source, "dispatch", "exec")
    for info in infos[:-1]:
        assert f"if sid == {info.sid}:" in source
    assert source.count(f"_m{infos[-1].sid} = importlib.import_module") == 1


def test_strategies_command_lists_names_descriptions_and_parameters():
    result = CliRunner().invoke(cli, ["strategies", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert rows["fixed"]["params"][0] == {"name": "k", "default": 3.0, "low": 1.0,
                                           "high": 99.0, "help": "the bid (capped at max_bid)"}
    assert rows["simple"]["params"] == [] and rows["simple"]["fair"] is True
    text = CliRunner().invoke(cli, ["strategies"]).output
    assert "k=3  (1..99)" in text and "passive" in text


def _plugin_commands(background, site):
    """Install the plugin in ``site`` and run ``zsim strategies``, ``simulate``
    and ``record`` with it (a new strategy set: the engine is compiled afresh
    in that cache): the three finished processes."""
    (site / "lowball_pkg").mkdir(parents=True)
    (site / "lowball_pkg" / "__init__.py").write_text("")
    (site / "lowball_pkg" / "bidder.py").write_text(textwrap.dedent(PLUGIN))
    info = site / "lowball_pkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lowball-pkg\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[zsim.strategies]\nlowballer = lowball_pkg.bidder\n")
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p)
    # a cache of its own, and the default rosters: the plugin's runs compile what they play
    env = dict(os.environ, PYTHONPATH=path, ZSIM_CACHE_DIR=str(site.parent / "cache"), ZSIM_ROSTER="exact")

    def zsim(*args):
        return background.run([sys.executable, "-m", "zsim.cli", *args], env=env, timeout=900)

    return (zsim("strategies"),
            zsim("simulate", "--players", "2", "--games", "300", "--strategies",
                 "lowballer:bid=2,simple", "--json"),
            zsim("record", "--players", "2", "--strategies", "lowballer,simple"))


def _plugin_run(background):
    """(key, work) of the plugin's commands, run in the background from the session's start."""
    return "lowball-plugin", lambda: _plugin_commands(
        background, background.tmp_path_factory.mktemp("plugin") / "site")


def start_in_background(background, items):
    if any(item.originalname == "test_a_plugin_from_a_temporary_folder_plays_in_every_command"
           for item in items):
        background.start(*_plugin_run(background))


def test_a_plugin_from_a_temporary_folder_plays_in_every_command(background):
    listed, run, record = background.result(*_plugin_run(background))
    assert listed.returncode == 0, listed.stderr
    assert "lowballer" in listed.stdout and "bid=1  (1..8)" in listed.stdout

    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)
    assert rows[0]["strategy"] == "lowballer:bid=2"
    assert rows[0]["jobs_won"] > 0
    # a lone winner at 2 earns 2, a tie at 2 earns 0: never more than 2 a job
    assert rows[0]["job_income"] <= 2 * rows[0]["jobs_won"]

    assert record.returncode == 0, record.stderr
    bids = [json.loads(line)["bids"][0] for line in record.stdout.splitlines()
            if json.loads(line)["e"] == "bids"]
    assert set(bids) <= {0, 1} and 1 in bids
