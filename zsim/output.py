"""Files zsim writes: never half-written, and written together or not at all.

Every output goes to a temporary file beside its target and is renamed over
it only when complete; on any error, Ctrl-C, SIGTERM or SIGHUP the temporary
file is removed. A user's ``--out`` that is a symbolic link is followed
first (:func:`link_end`: the file it leads to is replaced, the link kept),
and nothing is ever renamed over a named pipe, a device or a socket: those
are written through as streams where the format allows it
(:func:`special_kind` tells them) or refused before a game is played. A failed write (disk full, no permission, ...) becomes one
:class:`~zsim.errors.OutputError` line naming the file.

Temporary names carry the writing process: ``.NAME.<host>-<pid>-<token>.part``
(a file) or ``.NAME.tmp-<host>-<pid>-<token>`` (a folder). What a killed run
(``kill -9``, a power cut) leaves behind is removed by the next zsim run that
writes into the same place, once the process named in it is gone; a live
run's temporaries, on this machine or another sharing the folder, are never
touched.

:class:`OutputSet` writes several files as one: each to its temporary, then
all renamed at the end with the stop signals held off, and on a failure the
files already renamed are put back as they were.
"""
from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import signal
import socket
import stat
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import polars as pl

from zsim.data_files import special_kind_of
from zsim.errors import OutputError, ZsimError, output_error

if TYPE_CHECKING:
    import pyarrow as pa      # imported where a Parquet file is written: most runs write none
    import pyarrow.parquet as pq


def _write_failures() -> tuple[type[BaseException], ...]:
    return (OSError, pl.exceptions.PolarsError)


def is_write_failure(exc: BaseException) -> bool:
    """An OSError, or a polars error that wraps one (polars reports a full
    disk under write_parquet as a ComputeError naming the os error)."""
    if isinstance(exc, OSError):
        return True
    text = str(exc).lower()
    return isinstance(exc, pl.exceptions.PolarsError) and ("os error" in text or "io error" in text)


def file_digest(path: Path) -> tuple[int, str]:
    """(size in bytes, SHA-256 in hex) of a file, read in blocks."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


# ---------------------------------------------------------------- what a name is
def special_kind(path: str | os.PathLike, option: str = "--out") -> str | None:
    """What ``path`` is, following symbolic links, when it is neither a
    regular file nor a folder ("a named pipe (FIFO)", "a character device",
    ...); None for a regular file, a folder, or a name not taken yet. A
    name that cannot be looked at (a loop of links, a folder not searchable)
    is one :class:`ZsimError` line."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ZsimError(f"{option} {os.fspath(path)!r} cannot be used: {exc.strerror or exc}") from None
    return special_kind_of(mode)


def link_end(target: Path) -> Path:
    """The file a write to ``target`` replaces: ``target`` itself, or, when it
    is a symbolic link, the name its links lead to (which may not exist
    yet), so that the file is replaced and the link kept."""
    target = Path(target)
    return Path(os.path.realpath(target)) if target.is_symlink() else target


def _refuse_special(path: Path) -> None:
    """Never rename over anything but a regular file or a link: a device, a
    named pipe or a socket in the way is left as it is."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise output_error(exc, str(path)) from None
    if stat.S_ISLNK(mode) or stat.S_ISREG(mode):
        return
    kind = "a folder" if stat.S_ISDIR(mode) else special_kind_of(mode)
    raise OutputError(f"cannot write {str(path)!r}: it is {kind}, not a regular file; it was left as it is")


# ---------------------------------------------------------------- temporary names
def _host_tag() -> str:
    return hashlib.sha256(socket.gethostname().encode()).hexdigest()[:6]


def temp_tag() -> str:
    """``<host>-<pid>-<token>``: who writes this temporary, unique per call."""
    return f"{_host_tag()}-{os.getpid()}-{secrets.token_hex(4)}"


_TAG = re.compile(r"(?P<host>[0-9a-f]{6})-(?P<pid>\d+)-[0-9a-f]{8}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:      # somebody else's live process
        return True
    return True


def tag_is_stale(tag: str) -> bool:
    """Whether the process that wrote a temporary with ``tag`` is gone (only
    a tag of this machine can be judged; any other is presumed alive)."""
    m = _TAG.fullmatch(tag)
    if m is None or m["host"] != _host_tag():
        return False
    pid = int(m["pid"])
    return pid != os.getpid() and not _alive(pid)


def temp_file_for(target: Path) -> Path:
    return target.with_name(f".{target.name}.{temp_tag()}.part")


def clean_stale(folder: Path, name: str) -> list[Path]:
    """Remove the temporaries that dead zsim processes left for ``name`` in
    ``folder`` (files ``.name.TAG.part``, folders ``.name.tmp-TAG`` and
    ``.name.old-TAG``); returns what was removed."""
    removed = []
    pattern = re.compile(re.escape(f".{name}.") + r"(?:(?P<a>[^/]+)\.part|(?:tmp|old)-(?P<b>[^/]+))")
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return removed
    for p in entries:
        m = pattern.fullmatch(p.name)
        if m is None or not tag_is_stale(m["a"] or m["b"]):
            continue
        try:
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            else:
                p.unlink()
            removed.append(p)
        except OSError:
            pass
    return removed


def _remove(path: Path) -> None:
    """Remove a temporary, file or folder, if it is still there."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
    except OSError:
        pass


def _usual_mode(path: Path) -> None:
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def _new_temp(target: Path) -> Path:
    """Create the temporary file for ``target`` (empty, the usual mode)."""
    folder = target.parent if str(target.parent) else Path(".")
    clean_stale(folder, target.name)
    tmp = temp_file_for(target)
    try:
        fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
    except OSError as exc:
        raise OutputError(f"cannot write in folder {str(folder)!r}: {exc.strerror or exc}") from None
    os.close(fd)
    return tmp


# ---------------------------------------------------------------- signals held off
@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block ends (a few renames),
    so that a set of outputs is renamed whole; a signal that came meanwhile
    is delivered when the block is left."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    from zsim.signals import STOP_SIGNALS

    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


# ---------------------------------------------------------------- one file
@contextmanager
def atomic_path(target: Path, what: str | None = None) -> Iterator[Path]:
    """A temporary path that becomes ``target`` when the block succeeds.

    An OSError inside the block (the writer's) or in the rename becomes an
    OutputError naming ``what`` (default: the target's path)."""
    target = Path(target)
    _refuse_special(target)
    tmp = _new_temp(target)
    try:
        try:
            yield tmp
            _refuse_special(target)     # nothing that turned up meanwhile is renamed over either
            os.replace(tmp, target)
        except _write_failures() as exc:
            if not is_write_failure(exc):
                raise
            raise output_error(exc, what or str(target)) from None
    except BaseException:
        _remove(tmp)
        raise


# ---------------------------------------------------------------- several files as one
class OutputSet:
    """Files written as one output: ``path(target)`` gives the temporary to
    write ``target`` to; :meth:`commit` renames them all into place."""

    def __init__(self):
        self._pending: list[tuple[Path, Path]] = []     # (temporary, target)
        self._made_dirs: list[Path] = []
        self.current: Path | None = None                # the target written last

    def folder(self, path: Path) -> Path:
        """Make sure folder ``path`` exists (it is removed again if this
        output set fails and the folder was made for it and is empty)."""
        path = Path(path)
        if not path.is_dir():
            try:
                path.mkdir()
            except OSError as exc:
                raise output_error(exc, f"folder {str(path)!r}") from None
            self._made_dirs.append(path)
        return path

    def path(self, target: Path) -> Path:
        target = Path(target)
        _refuse_special(target)
        tmp = _new_temp(target)
        self._pending.append((tmp, target))
        self.current = target
        return tmp

    def commit(self) -> None:
        done: list[tuple[Path, Path, Path | None]] = []   # (target, temporary, old file set aside)
        with signals_held():
            try:
                for tmp, target in self._pending:
                    aside = None
                    _refuse_special(target)
                    if target.exists():
                        aside = target.with_name(f".{target.name}.old-{temp_tag()}")
                        os.replace(target, aside)
                    try:
                        os.replace(tmp, target)
                    except BaseException:
                        if aside is not None:
                            os.replace(aside, target)
                        raise
                    done.append((target, tmp, aside))
            except (OSError, OutputError) as exc:
                for target, tmp, aside in reversed(done):
                    try:
                        os.replace(target, tmp)
                        if aside is not None:
                            os.replace(aside, target)
                    except OSError:
                        pass
                if isinstance(exc, OutputError):
                    raise
                raise output_error(exc, str(target)) from None
            for _, _, aside in done:
                if aside is not None:
                    _remove(aside)
            self._pending = []

    def discard(self) -> None:
        for tmp, _ in self._pending:
            _remove(tmp)
        self._pending = []
        for d in reversed(self._made_dirs):
            try:
                d.rmdir()
            except OSError:
                pass
        self._made_dirs = []


@contextmanager
def output_set() -> Iterator[OutputSet]:
    """An :class:`OutputSet` committed when the block succeeds and discarded
    (every temporary removed) when it raises; an OSError while writing
    becomes one OutputError line."""
    outs = OutputSet()
    try:
        try:
            yield outs
        except _write_failures() as exc:
            if not is_write_failure(exc):
                raise
            raise output_error(exc, str(outs.current or "the output files")) from None
        outs.commit()
    except BaseException:
        outs.discard()
        raise


# ---------------------------------------------------------------- Parquet in chunks
class ParquetChunks:
    """Appends polars frames to one Parquet file, chunk by chunk."""

    def __init__(self, path: Path):
        self.path = path
        self.writer: pq.ParquetWriter | None = None

    def write(self, frame: pl.DataFrame | pa.Table) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = frame if isinstance(frame, pa.Table) else frame.to_arrow()
        if self.writer is None:
            self.writer = pq.ParquetWriter(str(self.path), table.schema, compression="zstd")
        self.writer.write_table(table)

    def close(self) -> None:
        if self.writer is not None:
            writer, self.writer = self.writer, None
            writer.close()


@contextmanager
def parquet_output(target: Path) -> Iterator[ParquetChunks]:
    with atomic_path(target) as tmp:
        chunks = ParquetChunks(tmp)
        try:
            yield chunks
        except BaseException:
            try:
                chunks.close()
            except OSError:
                pass
            raise
        chunks.close()


__all__ = ["OutputSet", "ParquetChunks", "atomic_path", "clean_stale", "file_digest", "link_end", "output_set",
           "parquet_output", "signals_held", "special_kind", "tag_is_stale", "temp_tag"]
