"""Where numba keeps zsim's compiled kernels.

numba's own cache checks only the timestamp of the file that defines a
kernel, not of the kernels it calls, so an edited strategy could silently run
stale machine code.  zsim therefore points numba at a cache folder named by a
digest of every engine and strategy source file (and the numba version):
change any of them and the next process compiles afresh into a new folder.
The folder lives under ``$ZSIM_CACHE_DIR`` (default ``$XDG_CACHE_HOME/zsim`` or
``~/.cache/zsim``), so a read-only install still caches; when that is not
writable either, a folder under the system temp directory is used.
"""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

import numba

#: the sources compiled into kernels: the kernels themselves, the constants
#: they freeze in, the generator and every strategy
_KERNEL_SOURCES = ("zsim/rng.py", "zsim/jit.py", "zsim/games/**/*_nb.py",
                   "zsim/games/**/constants.py", "zsim/strategy_registry.py", "strategies/**/*.py")


def source_digest(root: Path | None = None, plugins: list[Path] | None = None) -> str:
    """A digest of the kernel sources under ``root`` (default: this install)
    and of the plugin strategies' sources (default: those installed now)."""
    from zsim.strategy_discovery import plugin_sources

    here = root or Path(__file__).resolve().parent.parent
    h = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    paths = sorted({p for pattern in _KERNEL_SOURCES for p in here.glob(pattern)})
    for path in paths:
        h.update(str(path.relative_to(here)).encode())
        h.update(path.read_bytes())
    for path in sorted(plugin_sources() if plugins is None else plugins):
        h.update(str(path).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".probe"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


def fallback_folder() -> Path:
    return Path(tempfile.gettempdir()) / f"zsim-{os.getuid()}" / "numba" / source_digest()


def configure_numba_cache() -> Path:
    base = os.environ.get("ZSIM_CACHE_DIR")
    if base:
        root = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "zsim"
    folder = root / "numba" / source_digest()
    if not _writable(folder):
        folder = fallback_folder()
        folder.mkdir(parents=True, exist_ok=True)
    numba.config.CACHE_DIR = str(folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    return folder
