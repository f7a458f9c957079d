"""Shared fixtures: the default deck and a few matchups every test can reuse."""
from __future__ import annotations

import os

import pytest

from zsim.games.zahltag.deck import default_deck
from zsim.games.zahltag.rules import Rules

#: the rule sets every game-by-game comparison runs under
VARIANTS = {
    "default": {},
    "penalize": {"over_cap": "penalize"},
    "counts_table": {"payday_counts_table": True},
}


def field(players: int) -> list[str]:
    """A mixed field: simple and random alternate, so both bidders and the
    penalty (which only random walks into) are exercised."""
    return [("simple", "random")[s % 2] for s in range(players)]


@pytest.fixture(scope="session")
def deck():
    return default_deck()


@pytest.fixture(scope="session")
def rules():
    return Rules()


@pytest.fixture
def no_open_figures():
    """Start and end a test with no matplotlib figure open."""
    import matplotlib.pyplot as plt

    plt.close("all")
    yield
    plt.close("all")


# ---------------------------------------------------------------- a small filesystem
class SmallFs:
    """A folder on a filesystem that fills up: a real tmpfs of ``size`` bytes
    when this process may mount one (root), else an ordinary folder whose
    subprocesses run under a file-size limit (RLIMIT_FSIZE, with SIGXFSZ
    ignored), so that their writes past ``size`` bytes fail in the kernel
    (EFBIG rather than ENOSPC: the same path through every writer).

    ``grow()`` lifts the limit (a remount, or no limit), as freeing space would."""

    def __init__(self, path, size: int):
        import subprocess

        self.path = path
        self.size = size
        path.mkdir(parents=True, exist_ok=True)
        # ZSIM_TEST_NO_MOUNT=1 tries the stand-in where a mount would work
        self.mounted = not os.environ.get("ZSIM_TEST_NO_MOUNT") and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
            capture_output=True).returncode == 0
        self.limit: int | None = None if self.mounted else size
        #: what the failed writes say
        self.errors = ("No space left on device",) if self.mounted else ("File too large",)

    def preexec(self):
        """For subprocess.Popen(preexec_fn=...): the file-size limit, if any."""
        limit = self.limit

        def apply():
            import resource
            import signal

            signal.signal(signal.SIGINT, signal.SIG_DFL)
            if limit is not None:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        return apply

    def grow(self, size: int = 256 << 20) -> None:
        import subprocess

        if self.mounted:
            subprocess.run(["mount", "-o", f"remount,size={size}", str(self.path)], check=True)
        self.limit = None

    def close(self) -> None:
        import subprocess

        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)


@pytest.fixture
def small_fs(tmp_path):
    """A 256 KiB filesystem at tmp_path/small (see :class:`SmallFs`)."""
    fs = SmallFs(tmp_path / "small", 256 << 10)
    yield fs
    fs.close()
