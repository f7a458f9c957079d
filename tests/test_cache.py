"""Where compiled kernels are cached, including on read-only installs."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from zsim import _cache


def test_cache_folder_is_named_by_the_kernel_sources(tmp_path, monkeypatch):
    monkeypatch.setenv("ZSIM_CACHE_DIR", str(tmp_path))
    folder = _cache.configure_numba_cache()
    assert folder == tmp_path / "numba" / _cache.source_digest()
    assert folder.is_dir()


def test_digest_follows_kernel_sources_only(tmp_path):
    root = Path(_cache.__file__).resolve().parent.parent
    copy = tmp_path / "tree"
    for rel in ("zsim", "strategies"):
        shutil.copytree(root / rel, copy / rel, ignore=shutil.ignore_patterns("__pycache__"))
    before = _cache.source_digest(copy)
    assert before == _cache.source_digest(root)
    (copy / "zsim" / "cli.py").write_text("# not compiled into kernels\n")
    assert _cache.source_digest(copy) == before
    digests = {before}
    for path in ("strategies/zahltag/simple.py", "strategies/zahlemann/shedder.py",
                 "zsim/games/zahlemann/engine_nb.py", "zsim/games/fold_nb.py"):
        edited = copy / path
        edited.write_text(edited.read_text() + "\n# edited\n")
        digests.add(_cache.source_digest(copy))
    assert len(digests) == 5              # every game's kernels and strategies count


def test_an_unwritable_cache_falls_back_to_a_temp_folder(monkeypatch):
    # a path below a regular file can never be created, whoever runs the test
    monkeypatch.setenv("ZSIM_CACHE_DIR", "/dev/null/zsim-cache")
    folder = _cache.configure_numba_cache()
    assert folder == _cache.fallback_folder()
    assert os.access(folder, os.W_OK)


def _cache_files(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def test_zsim_runs_with_an_unwritable_cache_setting_and_reuses_its_kernels(tmp_path):
    import zsim
    from zsim.harness.chunks import Matchup, play_chunk

    # the fallback folder under a temp directory of this test's own: empty
    # to begin with, whatever earlier runs left in the system's
    env = dict(os.environ, ZSIM_CACHE_DIR="/dev/null/zsim-cache", TMPDIR=str(tmp_path))
    folder = tmp_path / f"zsim-{os.getuid()}" / "numba" / _cache.source_digest()
    # Seeded with this session's kernels (the game's take a minute to compile)
    # but for the fold of its results, which the first run compiles into the
    # fallback folder.
    play_chunk(Matchup(4, ("simple",) * 4), 1, 0, 10)
    session = Path(zsim.NUMBA_CACHE)
    for path in session.rglob("*"):
        if path.is_file() and not path.name.startswith("fold_nb."):
            (folder / path.relative_to(session)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, folder / path.relative_to(session))
    seeded = _cache_files(folder) if folder.is_dir() else {}
    args = [sys.executable, "-m", "zsim.cli", "simulate", "--games", "50", "--json"]
    first = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
    assert first.returncode == 0, first.stderr
    assert '"win_share"' in first.stdout
    files = _cache_files(folder)
    assert any(name.endswith(".nbi") and name not in seeded for name in files)   # compiled, and cached there
    second = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
    assert second.stdout == first.stdout
    assert _cache_files(folder) == files  # loaded, not compiled again


def _probe(folder: Path, code: str, *args: str) -> list[str]:
    """The output lines of ``code`` run in a fresh Python that imports the modules in
    ``folder`` and keeps its kernel cache in ``folder``/cache (the same each run)."""
    env = dict(os.environ, ZSIM_CACHE_DIR=str(folder / "cache"),
               PYTHONPATH=os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


_BLAS_PROBE = """
import sys
import numpy as np
from numba import njit
from zsim.rng import game_key, game_key_nb

assert game_key_nb(np.uint64(7), np.uint64(3)) == game_key(7, 3)   # a kernel compiled, or loaded from the cache
print("after zsim", "scipy.linalg" in sys.modules, "numba.np.arraymath" in sys.modules)

@njit
def dot(a, b):
    return np.dot(a, b)

print("dot", dot(np.arange(3.0), np.arange(3.0)))
"""


def test_a_zsim_start_does_not_import_scipy_linalg_yet_np_dot_still_compiles(tmp_path):
    """A compile loads numba's registries without scipy.linalg; a load from the cache loads neither
    (the machine code is not typed again), and a compile after it still gets them all."""
    for loaded in ("True", "False"):                 # the kernel compiled, then loaded from the cache
        lines = _probe(tmp_path, _BLAS_PROBE)
        assert lines[0] == f"after zsim False {loaded}"
        assert lines[1] == "dot 5.0"


_LOAD_PROBE = """
import sys
import numpy as np
from zsim._cache import load_cached
from twice_mod import twice

print("int", load_cached(twice, 3), len(twice.overloads), dict(twice.stats.cache_hits) != {})
print("float", load_cached(twice, 1.5), len(twice.overloads))
print("call", twice(3), len(twice.overloads))
"""


def test_load_cached_reads_a_kernel_back_from_the_cache_and_never_compiles(tmp_path):
    """What lets a warm Zahlemann or Baumeister start skip reading back the game kernel: the
    batch kernel is looked up in the disk cache first, and a miss compiles nothing."""
    (tmp_path / "twice_mod.py").write_text("from zsim.jit import cold\n\n\n@cold\ndef twice(x):\n    return 2 * x\n")
    # an empty cache, then the entry the first run's call wrote
    runs = [_probe(tmp_path, _LOAD_PROBE) for _ in range(2)]
    assert runs[0] == ["int False 0 False", "float False 0", "call 6 1"]
    assert runs[1] == ["int True 1 True", "float False 1", "call 6 1"]


_LINK_MODULE = """
from zsim.jit import cold, hot


@hot
def inner(x):
    return 3 * x + 1


@cold
def first(x):
    return inner(x)


@cold
def second(x):
    return inner(x) + 100
"""

_LINK_PROBE = """
import sys
from zsim._link import LinkLibrary
from linked_mod import first, inner, second

caller = first if sys.argv[1] == "first" else second
print(caller(4), caller(2.5))
libraries = [cres.library for cres in inner.overloads.values()]
print(len(libraries), all(isinstance(lib, LinkLibrary) and not lib._emitted for lib in libraries),
      sum(inner.stats.cache_hits.values()))
"""


def test_a_linked_kernel_is_cached_as_ir_and_read_back_for_a_new_caller(tmp_path):
    """A ``hot`` kernel's cache entry is its optimized IR: a later process that compiles another
    kernel calling it reads it back, links it in and never emits it on its own."""
    (tmp_path / "linked_mod.py").write_text(_LINK_MODULE)
    # compiled; read back for a new caller; all read back
    runs = [_probe(tmp_path, _LINK_PROBE, caller) for caller in ("first", "second", "second")]
    assert runs[0] == ["13 8.5", "2 True 0"]
    assert runs[1] == ["113 108.5", "2 True 2"]
    assert runs[2] == ["113 108.5", "0 True 0"]      # the caller itself came from the cache, whole


_PRINT_MODULE = """
from zsim.jit import cold, hot, hot_flat


@hot_flat
def louder(x):
    print("louder", x)
    return x + 1


@hot
def shout(x):
    print("shout", x)
    return louder(x) * 2


@cold
def call(x):
    return shout(x)
"""


def test_a_linked_kernel_that_needs_its_environment_finds_it_compiled_or_cached(tmp_path):
    """A ``print`` in a kernel that is only linked (a strategy author debugging) needs numba's
    environment of that kernel, which zsim sets in its caller's code, since the kernel's own
    code is never emitted: it prints, whether the caller was compiled or read back."""
    (tmp_path / "print_mod.py").write_text(_PRINT_MODULE)
    for _ in range(2):                     # compiled, then read back
        assert _probe(tmp_path, "from print_mod import call; print(call(4))") == ["shout 4", "louder 4", "10"]
