"""Two facts of this install that any part of zsim may read without importing
the package's face or anything else of zsim: the version (a run folder's
manifest, a report's metadata) and the folder of compiled kernels (the
strategy dispatch modules are written there)."""
from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

#: the kernel cache folder of this process: set once by ``import zsim`` (the package's
#: face), from zsim._cache.configure_numba_cache, before any kernel is compiled
_kernel_folder: Path | None = None


def kernel_folder() -> Path:
    """The folder holding this process's compiled kernels."""
    if _kernel_folder is None:
        raise RuntimeError("the kernel cache is not configured yet: import zsim first")
    return _kernel_folder


def set_kernel_folder(folder: Path) -> None:
    global _kernel_folder
    _kernel_folder = Path(folder)
