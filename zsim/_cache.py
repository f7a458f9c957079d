"""Where numba keeps zsim's compiled kernels.

numba's own cache checks only the timestamp of the file that defines a
kernel, not of the kernels it calls, so an edited strategy could silently run
stale machine code.  zsim therefore points numba at a cache folder named by a
digest of every engine and strategy source file (and the numba version):
change any of them and the next process compiles afresh into a new folder.
The folder lives under ``$ZSIM_CACHE_DIR`` (default ``$XDG_CACHE_HOME/zsim`` or
``~/.cache/zsim``), so a read-only install still caches; when that is not
writable either, a folder under the system temp directory is used.

A damaged cache entry (a file cut short by a full disk or a killed process,
or garbled on disk) is treated as a miss: zsim removes that entry, says so
in one line on stderr, and numba compiles the kernel again and re-caches it.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

import numba

#: the sources compiled into kernels: the kernels themselves, the constants
#: they freeze in, the generator and every strategy
_KERNEL_SOURCES = ("zsim/rng.py", "zsim/jit.py", "zsim/_link.py", "zsim/roster.py", "zsim/games/**/*_nb.py",
                   "zsim/harness/forward.py", "zsim/harness/*_nb.py", "zsim/tape.py", "zsim/search_specs.py",
                   "zsim/games/**/constants.py", "zsim/strategy_registry.py", "zsim/dispatch.py", "strategies/**/*.py")


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
    global _folder
    _folder = folder
    _guard_cache_loads()
    return folder


# ---------------------------------------------------------------- damaged entries
#: the folder :func:`configure_numba_cache` chose, named in the damage notice
_folder: Path | None = None
_damage_reported = False


def _remove_entry(cache_file) -> None:
    """Delete one kernel's index (``*.nbi``) and its data files (``*.N.nbc``):
    with the index unreadable there is no telling which data files are sound."""
    index = Path(cache_file._index_path)
    base = index.name[:-len(".nbi")]
    data = re.compile(re.escape(base) + r"\.\d+\.nbc\Z")
    victims = [index]
    try:
        victims += [p for p in index.parent.iterdir() if data.match(p.name)]
    except OSError:
        pass
    for path in victims:
        try:
            path.unlink()
        except OSError:     # gone already (another process cleaned it), or not ours to remove
            pass


def _report_damage(cache_path: str) -> None:
    global _damage_reported
    if _damage_reported:
        return
    _damage_reported = True
    folder = _folder or cache_path
    try:
        print(f"zsim: the kernel cache in {folder} was damaged; compiling afresh",
              file=sys.stderr, flush=True)
    except (OSError, ValueError):     # no usable stderr: the run itself still goes on
        pass


#: the module numba's typing registries import only to ask whether np.correlate may use BLAS
BLAS_MODULE = "scipy.linalg.cython_blas"


def _load_registries_without_blas(target_context) -> None:
    """Load numba's typing registries without importing scipy.linalg.

    Before the first kernel a process compiles, numba imports its numpy
    support, which imports scipy.linalg (when scipy is installed, as
    nevergrad's dependency) only to learn whether np.correlate and
    np.convolve may use BLAS: about 0.3 s, for functions no zsim kernel
    calls. With the import held off, those two fall back to numba's own
    loop; np.dot and np.linalg in a plugin strategy import scipy themselves
    when they compile, as before."""
    key = BLAS_MODULE
    if "numba.np.arraymath" in sys.modules or key in sys.modules:
        return
    sys.modules[key] = None          # `import scipy.linalg.cython_blas` fails at once, scipy untouched
    try:
        target_context.refresh()
    finally:
        if key in sys.modules and sys.modules[key] is None:
            del sys.modules[key]


def _runtime_only(target_context):
    """What a cached kernel needs of the context it is loaded into: numba's
    runtime (its allocator's symbols), not the typing registries.

    numba refreshes the context before every cache load, and the first
    refresh imports and installs all its typing and lowering registries
    (numba.np, numba.cpython, typed containers: about 0.2 s of every warm
    start). Machine code read back from the cache is never typed or lowered
    again, so zsim loads it with only the runtime started; a process that
    does compile gets the full refresh from numba's compiler, which
    refreshes the context itself before it types anything."""
    from numba.core.runtime import rtsys

    return lambda: rtsys.initialize(target_context)


def _guard_cache_loads() -> None:
    """Make numba treat a cache entry that fails to load as a miss.

    numba reads an index and a data file with pickle and lets whatever that
    raises (EOFError, UnpicklingError, ...) escape from the kernel's first
    call, so one truncated file would stop every later run. The wrapper
    removes the entry and returns None: numba compiles as if nothing were
    cached and writes a fresh entry."""
    from numba.core.caching import Cache

    if getattr(Cache.load_overload, "_zsim_guarded", False):
        return
    original = Cache.load_overload

    @functools.wraps(original)
    def load_overload(self, sig, target_context):
        target_context.refresh = _runtime_only(target_context)     # for this load only
        try:
            loaded = original(self, sig, target_context)
        except Exception:   # KeyboardInterrupt and SystemExit are not Exceptions: they go through
            _remove_entry(self._cache_file)
            _report_damage(self._cache_path)
            loaded = None
        finally:                         # (a load inside this one may have taken it off already)
            vars(target_context).pop("refresh", None)
        if loaded is None:               # numba compiles next: its registries, without BLAS
            _load_registries_without_blas(target_context)
        return loaded

    load_overload._zsim_guarded = True
    Cache.load_overload = load_overload


# ---------------------------------------------------------------- a kernel read back, or not
def load_cached(kernel, *args) -> bool:
    """Whether numba ``kernel`` has machine code for the types of ``args``, in this
    process or in the disk cache (then read back now, as its first call would);
    compiles nothing (``zsim.blocks.play_in_blocks`` asks it before its
    ``compile_first``)."""
    from numba.core.compiler_lock import global_compiler_lock

    sig = tuple(kernel.typeof_pyval(a) for a in args)
    with global_compiler_lock:
        if sig in kernel.overloads:
            return True
        cres = kernel._cache.load_overload(sig, kernel.targetctx)
        if cres is None:
            return False
        # what numba's Dispatcher.compile does with a kernel it read back
        kernel._cache_hits[sig] += 1
        kernel.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
        kernel.add_overload(cres)
        return True
