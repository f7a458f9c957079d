"""Files zsim writes: never half-written.

Every output goes to a temporary file beside its target and is renamed over
it only when complete; on any error or Ctrl-C the temporary file is removed.
"""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from zsim.errors import ZsimError


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """A temporary path that becomes ``target`` when the block succeeds."""
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise ZsimError(f"cannot write in folder {str(folder)!r}: {exc.strerror or exc}") from None
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual mode
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


class ParquetChunks:
    """Appends polars frames to one Parquet file, chunk by chunk."""

    def __init__(self, path: Path):
        self.path = path
        self.writer: pq.ParquetWriter | None = None

    def write(self, frame: pl.DataFrame | pa.Table) -> None:
        table = frame if isinstance(frame, pa.Table) else frame.to_arrow()
        if self.writer is None:
            self.writer = pq.ParquetWriter(str(self.path), table.schema, compression="zstd")
        self.writer.write_table(table)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


@contextmanager
def parquet_output(target: Path) -> Iterator[ParquetChunks]:
    with atomic_path(target) as tmp:
        chunks = ParquetChunks(tmp)
        try:
            yield chunks
        finally:
            chunks.close()
