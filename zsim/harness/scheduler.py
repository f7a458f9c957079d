"""What ``--scheduler`` and the dask time limits may be, checked before anything connects:
a scheduler's address in one of the forms dask reads, and a number of seconds from the
environment. The dask backend (:mod:`zsim.harness.backends`) takes them from here.
"""
from __future__ import annotations

import ipaddress
import math
import os
import re

from zsim.errors import ZsimError

SCHEDULER_FORMS = "tcp://HOST:PORT (e.g. tcp://head:8786), tls://HOST:PORT, or HOST:PORT for tcp"

# ---------------------------------------------------------------- checking what the user gave
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_HOSTNAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")


def _bad_address(address: str, why: str) -> ZsimError:
    return ZsimError(f"--scheduler {address!r} is not a dask scheduler address ({why}); "
                     f"give {SCHEDULER_FORMS}")


def parse_scheduler(address: str) -> str:
    """The scheduler address ``--scheduler`` names, as ``tcp://HOST:PORT`` or
    ``tls://HOST:PORT``. HOST is a host name, an IPv4 address or an IPv6
    address in brackets; PORT is 1..65535; a bare ``HOST:PORT`` means tcp.
    Anything else is refused with one line that shows what an address looks
    like (dask itself would fail later with a traceback, or not at all)."""
    text = address.strip()
    if not text:
        raise _bad_address(address, "it is empty")
    scheme = "tcp"
    if "://" in text:
        scheme, text = text.split("://", 1)
        scheme = scheme.lower()
        if scheme not in ("tcp", "tls"):
            raise _bad_address(address, f"zsim talks to a scheduler over tcp:// or tls://, not {scheme}://")
    if "/" in text or "@" in text or "?" in text or "#" in text or any(c.isspace() for c in text):
        raise _bad_address(address, "it has more than HOST:PORT after the scheme")
    if text.startswith("["):
        close = text.find("]")
        if close < 0:
            raise _bad_address(address, "the '[' of an IPv6 host is never closed")
        host, rest = text[1:close], text[close + 1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise _bad_address(address, f"{host!r} in brackets is not an IPv6 address") from None
        host_part = f"[{host}]"
        if not rest.startswith(":"):
            raise _bad_address(address, "there is no :PORT")
        port = rest[1:]
    else:
        if ":" not in text:
            raise _bad_address(address, "there is no :PORT")
        host, port = text.rsplit(":", 1)
        if ":" in host:
            raise _bad_address(address, "an IPv6 host goes in brackets, e.g. tcp://[::1]:8786")
        if not host:
            raise _bad_address(address, "there is no HOST")
        if not _HOSTNAME.fullmatch(host) or len(host) > 253:
            raise _bad_address(address, f"{host!r} is not a host name or IPv4 address")
        if re.fullmatch(r"[0-9.]+", host):
            try:
                ipaddress.IPv4Address(host)
            except ValueError:
                raise _bad_address(address, f"{host!r} is not an IPv4 address") from None
        host_part = host
    if not port:
        raise _bad_address(address, "there is no :PORT")
    if not re.fullmatch(r"[0-9]{1,5}", port) or not 1 <= int(port) <= 65535:
        raise _bad_address(address, f"the port must be a number in 1..65535, got {port!r}")
    return f"{scheme}://{host_part}:{int(port)}"


def seconds_from_env(name: str, default: float) -> float:
    """A time limit in seconds from the environment variable ``name``
    (``default`` when it is unset or empty)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise ZsimError(f"${name} must be a number of seconds above 0, got {raw!r}")
    return value


