"""Finding strategy modules without importing them.

Built-in strategies are the modules of the ``strategies`` package; plugins are
modules registered under the entry-point group ``zsim.strategies`` by any
installed package (``[project.entry-points."zsim.strategies"] mine =
"mypkg.mybidder"``). This module only locates them: the kernel cache digest
needs their source files before numba compiles anything.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import pkgutil
from pathlib import Path

ENTRY_POINT_GROUP = "zsim.strategies"
BUILTIN_PACKAGE = "strategies"


def builtin_modules() -> list[str]:
    spec = importlib.util.find_spec(BUILTIN_PACKAGE)
    folders = list(spec.submodule_search_locations or [])
    return sorted(f"{BUILTIN_PACKAGE}.{m.name}" for m in pkgutil.iter_modules(folders)
                  if not m.name.startswith("_"))


def plugin_modules() -> list[str]:
    """Module paths registered under ``zsim.strategies`` (``module`` or ``module:attr``
    values; the module part is what counts)."""
    eps = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    return sorted({ep.value.split(":")[0].strip() for ep in eps})


def module_source(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def plugin_sources() -> list[Path]:
    return [p for p in (module_source(m) for m in plugin_modules()) if p is not None]
