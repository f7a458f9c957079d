"""How the ``zsim`` command prints and ends: streamed text, stop lines, exit codes.

The command modules (:mod:`zsim.cli` and the ``zsim.cli_*`` modules beside
it) call :mod:`zsim.api` and print what it hands back; the terminal and
process plumbing they share lives here: the streams set up for the
terminal's encoding, SIGTERM and SIGHUP made to stop a run as Ctrl-C does,
the one line a stop or an error ends with, and its exit status.
"""
from __future__ import annotations

import json
import os
import sys
import warnings

import click

from zsim import signals
from zsim.errors import (EXIT_CANNOT_WRITE, OutputError, ZsimWarning,  # noqa: F401  (main's exit codes)
                         describe_os_error)


def setup_streams() -> None:
    """stdout and stderr that can show what zsim prints on this terminal; zsim's
    own warnings (a wait for a dask worker) shown as one ``zsim: ...`` line."""
    from zsim.terminal import setup_streams as setup

    setup()
    warnings.showwarning = _show_warning


def _show_warning(message, category, filename, lineno, file=None, line=None, _python=warnings.showwarning):
    """A :class:`ZsimWarning` as one line on stderr (``--quiet`` ignores every
    warning before it gets here); any other warning as Python shows it."""
    if issubclass(category, ZsimWarning):
        click.echo(f"zsim: {message}", err=True)
    else:
        _python(message, category, filename, lineno, file, line)


def install_signals() -> None:
    """SIGTERM and SIGHUP stop zsim as Ctrl-C does."""
    signals.install()


def echo(text: str = "", nl: bool = True) -> None:
    """Print a result on stdout. A reader that stops early (``zsim record |
    head``) ends the command quietly with status 0, as for any Unix filter
    (click would report status 1); a stdout that cannot take it (``>
    /dev/full``, a full disk) is one line saying it was standard output,
    exit status 74."""
    try:
        click.echo(text, nl=nl)
        sys.stdout.flush()
    except BrokenPipeError:
        _stdout_to_nowhere()
        raise click.exceptions.Exit(0) from None
    except OSError as exc:
        _stdout_to_nowhere()
        raise OutputError(f"cannot write to standard output: {describe_os_error(exc)}") from None


def _stdout_to_nowhere() -> None:
    """The interpreter's final flush of a stdout that failed goes nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def echo_json(doc, **kwargs) -> None:
    echo(json.dumps(doc, indent=1, **kwargs))


def stream(text: str) -> None:
    """Write a piece of streamed output (records, a play-by-play), as :func:`echo`."""
    echo(text, nl=False)


def stop_line(message: str = "") -> None:
    """The line on stderr saying how a run was stopped (``zsim: interrupted after ...``).
    Printed even with ``--quiet``: it explains why the output is short."""
    click.echo(f"zsim: {signals.describe()}{' ' + message if message else ''}", err=True)


def exit_stopped(message: str = ""):
    """End the command after a stop: one line on stderr, exit 128 + the signal."""
    stop_line(message)
    exit_after_stop()


def exit_after_stop():
    """Exit 128 + the signal that stopped the run (the line already printed)."""
    signals.forget_unhandled_interrupt()
    raise SystemExit(signals.exit_code())


def caused_by_a_stop(exc: BaseException) -> bool:
    return signals.caused_by_a_stop(exc)
