"""A non-editable install carries every package and data file zsim loads.

pip installs exactly what pyproject.toml lists; a package left out of that
list works in a source checkout (``pip install -e``) and fails only after a
real install, where ``import strategies.baumeister`` would find nothing.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = ("zsim", "strategies", "analyses")


def _config():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_in_the_tree_is_installed():
    listed = set(_config()["packages"])
    in_tree = {".".join(p.parent.relative_to(ROOT).parts)
               for top in TOP for p in (ROOT / top).rglob("__init__.py")}
    assert in_tree - listed == set(), "packages a real install would leave out"
    assert listed - in_tree == set(), "listed packages that do not exist"


def test_every_data_file_is_installed():
    data = _config()["package-data"]
    for package, patterns in data.items():
        folder = ROOT.joinpath(*package.split("."))
        assert any(f for pattern in patterns for f in folder.glob(pattern)), package
    files = [p for top in TOP for p in (ROOT / top).rglob("data/*") if p.is_file() and "__pycache__" not in p.parts]
    assert any(p.suffix == ".js" for p in files) and any(p.suffix == ".csv" for p in files)
    for f in files:                     # each matched by its package's patterns (zsim view's script and style too)
        package = ".".join(f.parent.parent.relative_to(ROOT).parts)
        patterns = data.get(package, [])
        assert any(f.match(pattern) for pattern in patterns), f"{f} would be left out of a real install"
