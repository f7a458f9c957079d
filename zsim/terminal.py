"""Output on terminals that cannot show every character zsim prints.

zsim's text uses a few characters outside ASCII (``±``, ``·``, ``×``, ``–``,
``…``) and polars draws its tables with box-drawing characters. A terminal or
pipe whose encoding lacks them (``LANG=C`` on an old system, ``latin-1``,
``PYTHONIOENCODING=ascii``) would stop the command with a UnicodeEncodeError
halfway through its output. :func:`setup_streams` makes stdout and stderr
write a readable ASCII stand-in for any character their encoding lacks
(``+/-`` for ``±``, ``...`` for ``…``, ``+ - |`` for box lines, ``?`` for the
rest), and :func:`table_formatting` tells the table printers to ask polars for
ASCII tables there. A UTF-8 terminal is left exactly as it was.
"""
from __future__ import annotations

import codecs
import sys
import unicodedata

#: the error handler :func:`setup_streams` gives a stream that lacks characters
ERRORS = "zsim-standins"
#: an ASCII codec under a name of its own (see :func:`_ascii_codec`)
ASCII_CODEC = "zsim-ascii"

STANDINS = {
    "±": "+/-", "·": "-", "×": "x", "–": "-", "—": "-", "−": "-", "…": "...",
    "‘": "'", "’": "'", "“": '"', "”": '"', "≤": "<=", "≥": ">=", "≈": "~", "→": "->",
    "\u00a0": " ",
}
#: what polars' default table style draws with: a stream that cannot encode
#: these gets ASCII tables
_TABLE_CHARACTERS = "┌┬┐├┼┤└┴┘─│┆╞╪╡═…"


def standin(char: str) -> str:
    """The ASCII text shown for ``char`` where the terminal cannot show it."""
    if char in STANDINS:
        return STANDINS[char]
    if "\u2500" <= char <= "\u257f":        # box drawing
        name = unicodedata.name(char, "")
        across = any(w in name for w in ("HORIZONTAL", "LEFT", "RIGHT"))
        down = any(w in name for w in ("VERTICAL", "UP", "DOWN"))
        if "DIAGONAL" in name:
            return "x" if "CROSS" in name else "/" if "UPPER RIGHT TO LOWER LEFT" in name else "\\"
        if across and not down:
            return "-"
        if down and not across:
            return "|"
        return "+"
    return "?"


def _standins(exc: UnicodeError):
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    char = exc.object[exc.start]
    if "\udc80" <= char <= "\udcff":
        # a byte that was not text when read (a file name, say): write the byte
        # back as it came, as Python's own "surrogateescape" would
        return bytes([ord(char) - 0xDC00]), exc.start + 1
    return standin(char), exc.start + 1


class _AsciiIncrementalEncoder(codecs.IncrementalEncoder):
    def encode(self, text, final=False):
        return codecs.ascii_encode(text, self.errors)[0]


def _ascii_codec(name: str):
    # click re-wraps a stream whose encoding is named "ascii" as UTF-8 before
    # writing to it, which on an ASCII terminal shows UTF-8 bytes as garbage;
    # the same codec under another name keeps click writing through our stream.
    if name.replace("_", "-") != ASCII_CODEC:
        return None
    return codecs.CodecInfo(
        name=ASCII_CODEC,
        encode=lambda text, errors="strict": codecs.ascii_encode(text, errors),
        decode=lambda data, errors="strict": codecs.ascii_decode(data, errors),
        incrementalencoder=_AsciiIncrementalEncoder,
        incrementaldecoder=codecs.lookup("ascii").incrementaldecoder,
        streamreader=codecs.lookup("ascii").streamreader,
        streamwriter=codecs.lookup("ascii").streamwriter,
    )


_registered = False


def _register() -> None:
    global _registered
    if not _registered:
        codecs.register_error(ERRORS, _standins)
        codecs.register(_ascii_codec)
        _registered = True


def _codec_name(stream) -> str | None:
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return None
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return None


def speaks_unicode(stream) -> bool:
    """Whether ``stream`` can encode every character (a UTF encoding or GB 18030);
    a stream of unknown encoding is taken to (it is not zsim's to change)."""
    name = _codec_name(stream)
    return name is None or name.startswith("utf") or name == "gb18030"


def setup_streams() -> None:
    """Give stdout and stderr ASCII stand-ins for the characters their
    encoding lacks; streams that speak Unicode are left alone."""
    _register()
    for attr in ("stdout", "stderr"):
        stream = getattr(sys, attr)
        if stream is None or speaks_unicode(stream) or not hasattr(stream, "reconfigure"):
            continue
        changes = {"errors": ERRORS}
        if _codec_name(stream) == "ascii":
            changes["encoding"] = ASCII_CODEC
        try:
            stream.reconfigure(**changes)
        except (ValueError, OSError, LookupError):   # a closed or unusual stream: leave it
            pass


def can_show(text: str, stream=None) -> bool:
    """Whether ``stream`` (default stdout) encodes every character of ``text``."""
    _register()
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    except LookupError:
        return True
    return True


def table_formatting(stream=None) -> dict:
    """Extra ``pl.Config`` options for a table printed to ``stream`` (default
    stdout): ASCII lines where the box-drawing characters cannot be shown,
    nothing (polars' own style) elsewhere."""
    if can_show(_TABLE_CHARACTERS, stream):
        return {}
    return {"tbl_formatting": "ASCII_FULL_CONDENSED"}
