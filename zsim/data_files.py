"""Reading a data file a user names (``--deck FILE``): one line for each way it can fail."""
from __future__ import annotations

from pathlib import Path

from zsim.errors import ZsimError


def read_data_file(path: str | Path, what: str) -> str:
    """The text of ``path`` (UTF-8, a byte-order mark allowed); ``what`` names
    the file in messages, e.g. ``"deck file"``."""
    p = Path(path)
    if not p.exists():
        raise ZsimError(f"{what} {str(p)!r} does not exist")
    if p.is_dir():
        raise ZsimError(f"{what} {str(p)!r} is a folder")
    try:
        return p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ZsimError(f"{what} {str(p)!r} cannot be read: {exc.__class__.__name__}") from None
