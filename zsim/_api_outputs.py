"""Progress, stops and output paths for the public API's runs.

Every run of :mod:`zsim.api` reports its chunks to a progress display
(:mod:`zsim.progress`: a bar on a terminal's stderr, a line in a notebook,
nothing elsewhere or with ``progress=False``; a callable ``progress(done,
total)`` is called after every chunk instead). A Ctrl-C, a notebook's
interrupt, SIGTERM or SIGHUP during a run stops it at the end of the chunk
and surfaces as :class:`zsim.Interrupted`, saying how far the run got, with
every output it would have written left unwritten.

Private: only the names in ``zsim.api.__all__`` are stable.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from zsim._api_inputs import check_given
from zsim._api_results import Interrupted
from zsim.errors import ZsimError


class _Watch:
    """A run's progress: the bar's count, and the caller's callback after each chunk."""

    def __init__(self, bar, total: int, callback: Callable[[int, int], None] | None):
        self._bar, self._total, self._callback = bar, total, callback

    @property
    def done(self) -> int:
        return self._bar.done

    def advance(self, n: int) -> None:
        self._bar.advance(n)            # raises at a chunk's end after a Ctrl-C
        if self._callback is not None:
            self._callback(self._bar.done, self._total)


def check_progress(progress) -> None:
    if not (isinstance(progress, bool) or callable(progress)):
        from zsim._api_inputs import shown

        raise ZsimError(f"progress must be True, False or a callable(done, total), got {shown(progress)}")


@contextmanager
def watching(total: int, label: str, progress) -> Iterator[_Watch]:
    """A progress display for ``total`` games (``progress``: True, False or
    a callable ``(done, total)``); Ctrl-C waits for the chunk's end inside it."""
    from zsim.progress import progress as progress_bar

    check_progress(progress)
    callback = progress if callable(progress) and not isinstance(progress, bool) else None
    with progress_bar(total, label, quiet=progress is False or callback is not None) as bar:
        yield _Watch(bar, total, callback)


def play(label: str, total: int, progress, threads, call, unwritten: str = "nothing was written"):
    """``call(advance)`` under a progress display; a stop raises
    :class:`Interrupted` saying how far it got."""
    from zsim.harness.chunks import set_threads

    set_threads(threads)
    with watching(total, label, progress) as bar:
        try:
            return call(bar.advance)
        except KeyboardInterrupt as exc:
            done, stop = bar.done, exc
    raise Interrupted(f"after {done:,} of {total:,} games; {unwritten}", done, total) from stop


# ---------------------------------------------------------------- analyses' outputs
def check_out(out) -> Path | None:
    """An analysis's ``out``: a .parquet or .csv file in a writable folder."""
    from zsim.harness.chunks import check_out_path

    if check_given(out, "--out") is None:
        return None
    suffix = Path(out).suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise ZsimError(f"--out {str(out)!r} must end in .parquet or .csv")
    path = check_out_path(out, form="CSV" if suffix == ".csv" else "Parquet")
    if path.suffix.lower() != suffix:
        raise ZsimError(f"--out {str(out)!r} is a link to {str(path)!r}, whose name does not end in {suffix}; "
                        f"give the file's own name")
    return path


def check_plots(plots) -> Path | None:
    """An analysis's ``plots``: a folder, or one that can be made."""
    if check_given(plots, "--plots") is None:
        return None
    import os

    path = Path(plots)
    if path.exists() and not path.is_dir():
        raise ZsimError(f"--plots {str(plots)!r} is a file, not a folder")
    parent = path.parent if str(path.parent) else Path(".")
    if not path.exists() and not parent.is_dir():
        raise ZsimError(f"--plots folder {str(parent)!r} does not exist")
    where = path if path.exists() else parent
    if not os.access(where, os.W_OK | os.X_OK):
        raise ZsimError(f"--plots folder {str(where)!r} is not writable")
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "table"


def write_analysis(result, out: Path | None, plots: Path | None) -> None:
    """Every table to ``out`` (and beside it) and every figure into ``plots``,
    renamed into place together at the end: a full disk or a Ctrl-C leaves none."""
    from zsim.output import output_set

    if out is None and plots is None:
        return
    with output_set() as outs:
        if out is not None:
            for i, (caption, frame) in enumerate(result.tables.items()):
                target = out if i == 0 else out.with_name(f"{out.stem}-{_slug(caption)}{out.suffix}")
                tmp = outs.path(target)
                if out.suffix.lower() == ".csv":
                    frame.write_csv(tmp)
                else:
                    frame.write_parquet(tmp)
        if plots is not None:
            outs.folder(plots)
            for i, fig in enumerate(result.figures.values(), 1):
                fig.savefig(outs.path(plots / f"{result.name}-{i}.png"), format="png", dpi=110,
                            bbox_inches="tight")
            for rel, page in getattr(result, "pages", {}).items():       # games to step through
                outs.path(plots / Path(rel).name).write_text(page, encoding="utf-8")
