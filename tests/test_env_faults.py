"""A broken environment or odd input gives a working run or one clear line,
never a traceback: terminals that cannot show Unicode, a damaged kernel
cache, a record nested beyond reason, ``bench --reference-games 0``, and a
``--rule`` key or strategy parameter given twice.

The terminal, cache and command-line cases run the real entry point in a
subprocess (``python -m zsim.cli``), as a user would.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from zsim import _cache, terminal
from zsim.errors import ZsimError
from zsim.games.zahltag.replay import read_records
from zsim.games.zahltag.rules import parse_rule_options
from zsim.strategy_registry import parse_one

BOX_UTF8 = (b"\xe2\x94", b"\xe2\x95")      # how U+2500..U+257F start in UTF-8


def zsim(*args: str, env: dict | None = None, timeout: float = 900,
         input: bytes | None = None) -> subprocess.CompletedProcess:
    """The console entry point in a subprocess; stdout and stderr as bytes."""
    return subprocess.run([sys.executable, "-m", "zsim.cli", *args], capture_output=True,
                          timeout=timeout, env=env if env is not None else dict(os.environ),
                          input=input, check=False)


def with_env(**changes: str | None) -> dict:
    env = dict(os.environ)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def assert_one_error_line(proc: subprocess.CompletedProcess, fragments: list[str]) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert proc.returncode == 2, (proc.returncode, err)
    assert proc.stdout == b"", proc.stdout
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: error: "), err
    for frag in fragments:
        assert frag in lines[0], (frag, lines[0])
    return lines[0]


# ================================================================= 1. terminals without UTF-8
TERMINAL_COMMANDS = {
    "simulate": (["simulate", "--players", "2", "--games", "1000"],
                 [r"^\| 0 +\| simple +\| 0\.\d{3} ", r"^\| 1 +\| simple +\| 0\.\d{3} "]),
    "tournament": (["tournament", "--players", "2", "--field", "simple,random", "--games", "200"],
                   [r"^\| simple +\| 0\.\d{3} ", r"^\| random +\| 0\.\d{3} ", r"^Head to head",
                    r"^\| 0 +\| 0\.\d{3} "]),
    "rules": (["rules"], [r"^payday_cost +1 +0\.\.100 ", r"^supply +14,16,10,12 "]),
    "strategies": (["strategies"], [r"^fixed +bids k", r"^    k=3  \(1\.\.99\)"]),
}


def decoded(data: bytes, encoding: str) -> str:
    """``data`` as text of ``encoding``, checked to hold no UTF-8 in disguise
    (latin-1 decodes any bytes, so decoding alone would prove nothing there)."""
    text = data.decode(encoding)                     # strict: fails on a byte the encoding lacks
    assert not any(b in data for b in BOX_UTF8), data[:400]
    assert not re.search("[\x80-\x9f]", text), text[:400]   # C1 controls: UTF-8 read as latin-1
    return text


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("command", list(TERMINAL_COMMANDS))
def test_a_non_utf8_terminal_gets_readable_output(command, encoding):
    args, rows = TERMINAL_COMMANDS[command]
    proc = zsim(*args, env=with_env(PYTHONIOENCODING=encoding))
    err = proc.stderr.decode(encoding, "replace")
    assert proc.returncode == 0 and "Traceback" not in err, err
    out = decoded(proc.stdout, encoding)
    decoded(proc.stderr, encoding)
    for row in rows:
        assert re.search(row, out, re.MULTILINE), (row, out)
    if command in ("simulate", "tournament"):
        assert re.search(r"^\+-+\+", out, re.MULTILINE), out     # an ASCII table frame
        assert "?" not in out, out                                 # nothing fell through to "?"


def test_the_c_locale_without_utf8_mode_gets_ascii_output():
    env = with_env(LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONIOENCODING=None)
    proc = zsim("simulate", "--players", "2", "--games", "1000", env=env)
    assert proc.returncode == 0, proc.stderr.decode("ascii", "replace")
    out = decoded(proc.stdout, "ascii")
    assert re.search(r"^\| 0 +\| simple ", out, re.MULTILINE), out


@pytest.mark.parametrize("encoding,shown", [("ascii", b"within +/-0.05;"), ("latin-1", b"within \xb10.05;")])
def test_zsims_own_characters_get_a_stand_in_only_where_missing(encoding, shown):
    # latin-1 has a plus-minus sign of its own: kept; ASCII gets "+/-"
    proc = zsim("simulate", "--players", "2", "--games", "5000", "--precision", "0.05",
                env=with_env(PYTHONIOENCODING=encoding))
    assert proc.returncode == 0, proc.stderr
    decoded(proc.stdout, encoding)
    assert shown in proc.stdout.splitlines()[0], proc.stdout[:200]


def test_an_error_line_on_an_ascii_terminal_is_one_ascii_line():
    proc = zsim("simulate", "--strategies", "b\u00f6gus", env=with_env(PYTHONIOENCODING="ascii"))
    line = assert_one_error_line(proc, ["unknown strategy 'b?gus'"])
    proc.stderr.decode("ascii")
    assert line.isascii()


def _cells(text: str) -> list[list[str]]:
    """The cells of every data row of a table, whichever lines draw it."""
    rows = []
    for line in text.splitlines():
        parts = [p.strip() for p in re.split(r"[|\u2502\u2506]", line)]
        if len(parts) > 2 and parts[1] and not set(parts[1]) <= set("-=+"):
            rows.append(parts[1:-1])
    return rows


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_a_utf8_terminal_keeps_its_box_tables(command):
    args, _ = TERMINAL_COMMANDS[command]
    utf8 = zsim(*args, env=with_env(PYTHONIOENCODING="utf-8"))
    ascii_ = zsim(*args, env=with_env(PYTHONIOENCODING="ascii"))
    assert utf8.returncode == 0 and ascii_.returncode == 0, (utf8.stderr, ascii_.stderr)
    text = utf8.stdout.decode("utf-8")
    for char in "\u250c\u2500\u2502\u2506\u255e\u2550\u2518":   # polars' own frame: unchanged
        assert char in text, text
    assert not re.search(r"^\+-+\+", text, re.MULTILINE), text
    # the same table either way, cell for cell
    assert _cells(text) == _cells(ascii_.stdout.decode("ascii")) != []


@pytest.mark.parametrize("char,shown", [
    ("\u00b1", "+/-"), ("\u00b7", "-"), ("\u00d7", "x"), ("\u2013", "-"), ("\u2014", "-"),
    ("\u2026", "..."), ("\u2500", "-"), ("\u2550", "-"), ("\u2502", "|"), ("\u2506", "|"),
    ("\u250c", "+"), ("\u253c", "+"), ("\u255e", "+"), ("\u2561", "+"), ("\u2518", "+"),
    ("\u4e2d", "?"), ("\u00e9", "?"),
])
def test_stand_ins(char, shown):
    assert terminal.standin(char) == shown


def test_setup_streams_on_an_ascii_stream(monkeypatch):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    monkeypatch.setattr(sys, "stdout", stream)
    terminal.setup_streams()
    assert terminal.table_formatting() == {"tbl_formatting": "ASCII_FULL_CONDENSED"}
    click.echo("\u00b1 \u00b7 \u00d7 \u2013 \u2026 \u250c\u2500\u2510 \u00e9")   # as zsim's commands print
    stream.flush()
    assert raw.getvalue() == b"+/- - x - ... +-+ ?\n"


def test_setup_streams_leaves_a_utf8_stream_alone(monkeypatch):
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stream)
    terminal.setup_streams()
    assert (stream.encoding, stream.errors) == ("utf-8", "strict")
    assert terminal.table_formatting() == {}


def test_setup_streams_keeps_what_latin1_can_show(monkeypatch):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="latin-1", write_through=True)
    monkeypatch.setattr(sys, "stdout", stream)
    terminal.setup_streams()
    click.echo("\u00b1\u00e9\u2500\u2026")
    stream.flush()
    assert raw.getvalue() == b"\xb1\xe9-...\n"


# ================================================================= 2. a damaged kernel cache
SIMULATE = ("simulate", "--players", "2", "--games", "200")


def cache_folder(root: Path) -> Path:
    (folder,) = (root / "numba").iterdir()
    return folder


@pytest.fixture(scope="module")
def healthy_cache(tmp_path_factory) -> tuple[Path, bytes]:
    """A copy of the suite's own kernel cache, filled by one run (warm when
    other tests ran first), and that run's output. The copy is what the
    tests damage; the suite's cache is never touched."""
    from zsim import NUMBA_CACHE

    proc = zsim(*SIMULATE)
    assert proc.returncode == 0, proc.stderr
    root = tmp_path_factory.mktemp("kernel-cache")
    shutil.copytree(NUMBA_CACHE, root / "numba" / NUMBA_CACHE.name)
    assert list(root.rglob("*.nbi")) and list(root.rglob("*.nbc"))
    return root, proc.stdout


def damaged_copy(healthy_cache, tmp_path: Path) -> Path:
    root = tmp_path / "cache"
    shutil.copytree(healthy_cache[0], root)
    return root


def assert_repaired(root: Path, expected: bytes) -> None:
    env = with_env(ZSIM_CACHE_DIR=str(root))
    first = zsim(*SIMULATE, env=env)
    err = first.stderr.decode()
    assert first.returncode == 0, err
    assert first.stdout == expected
    notice = f"zsim: the kernel cache in {cache_folder(root)} was damaged; compiling afresh"
    assert err.splitlines() == [notice], err
    again = zsim(*SIMULATE, env=env)                 # the entries written afresh load cleanly
    assert again.returncode == 0 and again.stdout == expected, again.stderr
    assert b"damaged" not in again.stderr, again.stderr


def test_truncated_cache_indexes_are_compiled_afresh(healthy_cache, tmp_path):
    root = damaged_copy(healthy_cache, tmp_path)
    # every index but the game loop's own: rebuilding that one is a full
    # compile (~45 s), and its loader is the same code as every other's
    cut = [p for p in root.rglob("*.nbi") if "play_blocks_nb" not in p.name]
    assert any("fold_nb" in p.name for p in cut)          # a kernel `simulate` loads
    for index in cut:
        data = index.read_bytes()
        index.write_bytes(data[:len(data) // 2])
    assert_repaired(root, healthy_cache[1])


def test_garbled_cache_data_is_compiled_afresh(healthy_cache, tmp_path):
    root = damaged_copy(healthy_cache, tmp_path)
    # every data file but the game loop's own (as above)
    garbled = [p for p in root.rglob("*.nbc") if "play_blocks_nb" not in p.name]
    assert any("fold_nb" in p.name for p in garbled)      # a kernel `simulate` loads
    for path in garbled:
        path.write_bytes(b"\x80\x05not a pickle" + bytes(range(256)))
    # zsim's strategy dispatch source beside the kernels, garbled, and a bytecode
    # file of it cut short after a header Python would trust without a check
    folder = cache_folder(root)
    (folder / "zsim_dispatch.py").write_bytes(b"\xff\xfe garbled \x00")
    pycache = folder / "__pycache__"
    pycache.mkdir(exist_ok=True)
    unchecked_hash_pyc = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + b"\x00" * 8
    (pycache / f"zsim_dispatch.{sys.implementation.cache_tag}.pyc").write_bytes(unchecked_hash_pyc + b"\xe3")
    assert_repaired(root, healthy_cache[1])


class _FakeContext:
    """A target context: numba refreshes it before a load, and zsim before a compile."""

    def refresh(self):
        pass


class _FakeCache:
    """A cache whose entry fails to load with ``exc``, as a damaged file makes pickle fail."""

    def __init__(self, folder: Path, exc: BaseException):
        self._cache_path = str(folder)
        self._cache_file = type("F", (), {"_index_path": str(folder / "m.f-3.py311.nbi")})()
        self.exc = exc

    def _guard_against_spurious_io_errors(self):
        return contextlib.nullcontext()

    def _load_overload(self, sig, target_context):
        raise self.exc


def test_a_failed_load_removes_the_entry_and_says_so_once(tmp_path, monkeypatch, capsys):
    from numba.core.caching import Cache

    monkeypatch.setattr(_cache, "_damage_reported", False)
    monkeypatch.setattr(_cache, "_folder", tmp_path)
    names = ["m.f-3.py311.nbi", "m.f-3.py311.1.nbc", "m.f-3.py311.12.nbc",
             "m.f-30.py311.nbi", "m.f-30.py311.1.nbc", "m.g-3.py311.1.nbc"]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    assert Cache.load_overload(_FakeCache(tmp_path, EOFError("Ran out of input")), None, _FakeContext()) is None
    assert Cache.load_overload(_FakeCache(tmp_path, ValueError("bad marshal")), None, _FakeContext()) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[3:])   # only m.f-3's files
    assert capsys.readouterr().err == \
        f"zsim: the kernel cache in {tmp_path} was damaged; compiling afresh\n"
    with pytest.raises(KeyboardInterrupt):        # a Ctrl-C while loading is not damage
        Cache.load_overload(_FakeCache(tmp_path, KeyboardInterrupt()), None, _FakeContext())


# ================================================================= 3. a record nested beyond reason
def test_replay_of_a_pathologically_nested_record(tmp_path):
    path = tmp_path / "deep.jsonl"
    start = json.dumps({"e": "start", "game": 0})
    path.write_text(start + "\n" + '{"e":"start","x":' + "[" * 100_000 + "]" * 100_000 + "}\n")
    assert_one_error_line(zsim("replay", str(path)), [str(path), "line 2", "nests too deeply"])
    with pytest.raises(ZsimError, match="line 2: the event nests too deeply"):
        read_records(str(path))


def test_replay_of_a_number_too_long_to_convert(tmp_path):
    path = tmp_path / "long.jsonl"
    path.write_text('{"e":"start","x":' + "7" * 5000 + "}\n")
    assert_one_error_line(zsim("replay", str(path)), [str(path), "line 1", "digits"])


def test_replay_of_stdin_that_is_not_utf8():
    proc = zsim("replay", "-", input=b'{"e":"start"}\n\xff\xfe\n',
                env=with_env(PYTHONIOENCODING="ascii"))
    assert_one_error_line(proc, ["<stdin>", "not UTF-8"])


# ================================================================= 4. bench --reference-games 0
BENCH = ("bench", "--games", "2000", "--repeat", "1", "--no-startup")


def test_bench_reference_games_0_skips_the_reference():
    proc = zsim(*BENCH, "--reference-games", "0", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert rows and all(r["engine"] == "fast" for r in rows)
    assert not any("vs_reference" in r or "decisions_per_s" in r for r in rows)   # counted by the reference
    assert all(r["games_per_s"] > 0 for r in rows)
    assert {(r["players"], r["threads"]) for r in rows} >= {(2, 1), (4, 1)}


def test_bench_reference_games_0_text_says_skipped():
    proc = zsim(*BENCH, "--reference-games", "0")
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    assert "reference: skipped" in out.splitlines()[0], out
    assert "x reference" not in out and "reference " not in out.split("\n", 1)[1], out
    assert "games/s" in out


@pytest.mark.parametrize("extra", [(), ("--scaling",)])
def test_bench_negative_reference_games_is_refused(extra):
    assert_one_error_line(zsim(*BENCH, "--reference-games", "-1", *extra),
                          ["--reference-games", "got -1"])


# ================================================================= 5. a key given twice
def test_a_repeated_rule_key_is_refused():
    with pytest.raises(ZsimError) as exc:
        parse_rule_options(["payday_cost=2", "max_bid=5", "payday_cost=3"])
    msg = str(exc.value)
    assert "payday_cost=2" in msg and "payday_cost=3" in msg and "twice" in msg, msg


@pytest.mark.parametrize("spec,both", [("fixed:k=2:k=5", ("k=2", "k=5")),
                                       ("handsize:target=7:shed=0.5: target = 9", ("target=7", "target=9")),
                                       ("fixed:k=4:k=4", ("k=4", "k=4"))])
def test_a_repeated_strategy_parameter_is_refused(spec, both):
    with pytest.raises(ZsimError) as exc:
        parse_one(spec)
    msg = str(exc.value)
    assert "twice" in msg and all(b in msg for b in both), msg


def test_distinct_strategy_parameters_still_parse():
    assert parse_one("handsize:target=7:shed=0.5") == "handsize:target=7:shed=0.5"


RULE_TWICE = ("--rule", "payday_cost=2", "--rule", "payday_cost=3")
RULE_FRAGMENTS = ["payday_cost", "payday_cost=2", "payday_cost=3", "twice"]
PARAM_FRAGMENTS = ["fixed", "k=2", "k=5", "twice"]


@pytest.mark.parametrize("args,fragments", [
    (("simulate", *RULE_TWICE), RULE_FRAGMENTS),
    (("simulate", "--strategies", "fixed:k=2:k=5"), PARAM_FRAGMENTS),
    (("tournament", "--field", "simple", *RULE_TWICE), RULE_FRAGMENTS),
    (("tournament", "--field", "simple,fixed:k=2:k=5"), PARAM_FRAGMENTS),
    (("analyze", "hand-size", *RULE_TWICE), RULE_FRAGMENTS),
    (("analyze", "payday-cost", "--field", "fixed:k=2:k=5"), PARAM_FRAGMENTS),
    (("tune", "handsize", *RULE_TWICE), RULE_FRAGMENTS),
    (("tune", "handsize", "--vs", "fixed:k=2:k=5"), PARAM_FRAGMENTS),
], ids=["simulate-rule", "simulate-param", "tournament-rule", "tournament-field", "analyze-rule",
        "analyze-field", "tune-rule", "tune-vs"])
def test_a_key_given_twice_reaches_the_cli_as_one_line(args, fragments):
    assert_one_error_line(zsim(*args), fragments)
