"""``--deck FILE`` is read within bounds: a bad file is one line, never a traceback or a hang.

Both games with a deck (Zahltag's jobs, Wettstreit der Baumeister's buildings)
read it through :mod:`zsim.data_files`: a regular UTF-8 file of at most 1 MiB
and 1,000 rows. Each refusal is checked through the API (``zsim.simulate``),
a sample through the command line, and a fuzz test feeds both loaders random
bytes and mutations of the shipped decks: every outcome is a valid deck or a
:class:`zsim.ZsimError` of one printable line.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cli_forks import CommandForks
from hypothesis import given, settings
from hypothesis import strategies as st

import zsim
from zsim.data_files import MAX_BYTES, MAX_ROWS
from zsim.errors import ZsimError
from zsim.games.baumeister import cards as bm_cards
from zsim.games.zahltag import deck as zt_deck

ROOT = Path(__file__).parents[1]
SHIPPED = {
    "zahltag": (ROOT / "zsim/games/zahltag/data/jobs.csv").read_bytes(),
    "baumeister": (ROOT / "zsim/games/baumeister/data/buildings.csv").read_bytes(),
}
HEADER = {"zahltag": "job,foreman,worker,crane,excavator\n", "baumeister": "card,type,value,shields,coins\n"}
PLAYERS = {"zahltag": 2, "baumeister": 3}
WHAT = {"zahltag": "deck", "baumeister": "building file"}
LOADERS = {"zahltag": zt_deck.load_deck, "baumeister": bm_cards.load_deck}


def row(game: str, i: int) -> str:
    """A valid row ``i`` (1-based) of ``game``'s deck file."""
    return f"{i},1,1,0,0\n" if game == "zahltag" else f"{i},tower,{i % 7},1,0\n"


def assert_one_line(msg: str, fragments) -> None:
    assert "\n" not in msg and "\r" not in msg and msg.isprintable(), repr(msg)
    assert len(msg) < 400, msg
    assert "Traceback" not in msg and "_csv" not in msg, msg
    for f in fragments:
        assert f in msg, (f, msg)


# ---------------------------------------------------------------- bad files
def make_bad(kind: str, game: str, folder: Path) -> tuple[str, list[str]]:
    """A path of the bad ``kind`` and the fragments its one line must hold."""
    path = folder / f"{kind}.csv"
    head = HEADER[game]
    if kind == "unclosed_quote":
        path.write_text(head + row(game, 1).replace(",", ',"', 1) + row(game, 2))
        return str(path), ["line 2", "quote"]
    if kind == "cell_200k":
        path.write_text(head + row(game, 1) + '2,"' + "7" * (200 << 10) + '",1,0,0\n')
        return str(path), ["line 3", "131,072 characters"]
    if kind == "file_2m":
        with open(path, "w") as f:
            f.write(head)
            f.writelines(row(game, i % 50 + 1) for i in range((2 << 20) // 8))
        return str(path), ["larger than 1 MiB"]
    if kind == "rows_1001":
        path.write_text(head + "".join(row(game, i) for i in range(1, MAX_ROWS + 2)))
        return str(path), ["more than the limit of 1,000 rows"]
    if kind == "dev_zero":
        return "/dev/zero", ["character device", "not a regular file"]
    if kind == "folder":
        path.mkdir()
        return str(path), ["is a folder"]
    if kind == "latin1":
        path.write_bytes((head + row(game, 1) + row(game, 2) + "# Straße\n").encode("latin-1"))
        return str(path), ["not UTF-8", "0xdf", "line 4"]
    raise AssertionError(kind)


BAD = ("unclosed_quote", "cell_200k", "file_2m", "rows_1001", "dev_zero", "folder", "latin1")


@pytest.mark.parametrize("game", ["zahltag", "baumeister"])
@pytest.mark.parametrize("kind", BAD)
def test_a_bad_deck_is_one_line_through_the_api(kind, game, tmp_path):
    path, fragments = make_bad(kind, game, tmp_path)
    with pytest.raises(ZsimError) as exc:
        zsim.simulate(game=game, players=PLAYERS[game], deck=path, games=1, progress=False)
    assert_one_line(str(exc.value), [path, *fragments])


def load_in_a_thread(load, path) -> BaseException | object:
    """``load(path)``'s result or exception; a load still waiting after 20 s fails the test
    (the thread is a daemon: a loader stuck on a FIFO cannot hold up the suite)."""
    out: list = []

    def run():
        try:
            out.append(load(path))
        except BaseException as exc:          # noqa: BLE001 - handed to the test
            out.append(exc)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(20)
    assert not t.is_alive(), "the loader blocked on the FIFO"
    return out[0]


@pytest.mark.parametrize("game", ["zahltag", "baumeister"])
def test_a_fifo_is_refused_without_waiting_for_its_writer(game, tmp_path):
    fifo = tmp_path / "deck.csv"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)   # a writer that never writes
    try:
        got = load_in_a_thread(LOADERS[game], str(fifo))
        assert isinstance(got, ZsimError), got
        assert_one_line(str(got), [str(fifo), "FIFO", "not a regular file"])
        with pytest.raises(ZsimError, match="FIFO"):
            zsim.simulate(game=game, players=PLAYERS[game], deck=str(fifo), games=1, progress=False)
    finally:
        os.close(writer)


def test_dev_zero_is_refused_at_once():
    for game, load in LOADERS.items():
        got = load_in_a_thread(load, "/dev/zero")
        assert isinstance(got, ZsimError), got
        assert_one_line(str(got), ["'/dev/zero'", "character device"])


def test_a_file_at_the_limits_loads(tmp_path):
    """1,000 jobs in just under 1 MiB: the limits are inclusive."""
    path = tmp_path / "full.csv"
    body = HEADER["zahltag"] + "".join(row("zahltag", i) for i in range(1, MAX_ROWS + 1))
    pad = "\n" * (MAX_BYTES - len(body.encode()))          # blank lines are skipped
    path.write_text(body + pad)
    assert path.stat().st_size == MAX_BYTES
    assert zt_deck.load_deck(path).n_jobs == MAX_ROWS
    path.write_text(body + pad + "\n")
    with pytest.raises(ZsimError, match="larger than 1 MiB"):
        zt_deck.load_deck(path)


# ---------------------------------------------------------------- edge layouts
@pytest.mark.parametrize("game", ["zahltag", "baumeister"])
def test_a_bom_and_crlf_line_ends_load(game, tmp_path):
    path = tmp_path / "bom.csv"
    text = HEADER[game] + row(game, 1) + "\n" + row(game, 2)
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    deck = LOADERS[game](path)
    assert (deck.n_jobs if game == "zahltag" else deck.n) == 2


def num_row(game: str, cell: str) -> str:
    """Row 1 of ``game``'s file with ``cell`` in its first number column after the first."""
    return f"1,{cell},1,0,0\n" if game == "zahltag" else f"1,tower,{cell},1,0\n"


EDGE = [  # (name, the file's text from its header H and a row R(cell), fragments of the one line)
    ("empty", lambda H, R: "", ["the file is empty"]),
    ("header only", lambda H, R: H, ["no jobs|0 cards, but the open and the hidden stack need at least 2"]),
    ("NUL in the header", lambda H, R: "\x00" + H + R("1"), ["columns must be", "found \\x00"]),
    ("NUL in a cell", lambda H, R: H + R("1\x00"), ["line 2", "not a whole number: '1\\x00'"]),
    ("NUL line", lambda H, R: H + "\x00\n" + R("1"), ["line 2 has 1 field,"]),
    ("negative", lambda H, R: H + "\n\n" + R("-5"), ["line 4", "negative: -5"]),
    ("huge", lambda H, R: H + R("9" * 60), ["line 2", "out of range", "(60 characters)"]),
    ("huge negative", lambda H, R: H + R("-" + "9" * 40), ["line 2", "out of range"]),
    ("above the limit", lambda H, R: H + R("1001"), ["line 2", "1001, more than"]),
    ("underscore", lambda H, R: H + R("1_0"), ["line 2", "not a whole number: '1_0'"]),
    ("arabic digit", lambda H, R: H + R("\u0661"), ["line 2", "not a whole number"]),
    ("fraction", lambda H, R: H + R("1.5"), ["line 2", "not a whole number: '1.5'"]),
    ("quote over lines", lambda H, R: H + R('"1\n"'), ["line 2 opens a quote that runs on to line 3"]),
    ("quote never closed", lambda H, R: H + R('"1'), ["line 2 opens a quote that is never closed"]),
    ("short row", lambda H, R: H + R("1").replace(",0\n", "\n"), ["line 2 has 4 fields, expected 5"]),
]


@pytest.mark.parametrize("game", ["zahltag", "baumeister"])
@pytest.mark.parametrize("name, make, fragments", EDGE, ids=[e[0] for e in EDGE])
def test_edge_files_are_one_line(game, name, make, fragments, tmp_path):
    path = tmp_path / "edge.csv"
    path.write_bytes(make(HEADER[game], lambda cell: num_row(game, cell)).encode())
    with pytest.raises(ZsimError) as exc:
        LOADERS[game](path)
    msg = str(exc.value)
    assert_one_line(msg, [str(path)])
    assert msg.startswith(f"{WHAT[game]} ")
    for f in fragments:
        assert any(alt in msg for alt in f.split("|")), (f, msg)


@pytest.mark.parametrize("game", ["zahltag", "baumeister"])
def test_duplicate_columns_are_one_line(game, tmp_path):
    cols = HEADER[game].strip().split(",")
    path = tmp_path / "dup.csv"
    path.write_text(",".join(cols[:2] + [cols[1]] + cols[3:]) + "\n" + row(game, 1) + row(game, 2))
    with pytest.raises(ZsimError) as exc:
        LOADERS[game](path)
    assert_one_line(str(exc.value), ["columns must be", f"found {cols[0]},{cols[1]},{cols[1]},"])


def test_a_huge_header_is_shown_short(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text(",".join(["x" * 50] * 2000) + "\n1,1,1,0,0\n")
    with pytest.raises(ZsimError) as exc:
        zt_deck.load_deck(path)
    assert_one_line(str(exc.value), ["columns must be", "characters)"])


# ---------------------------------------------------------------- the command line
@pytest.fixture(scope="module")
def forks():
    f = CommandForks()
    yield f
    f.close()


def assert_cli_one_line(proc, fragments) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zsim: error: "), proc.stderr
    assert_one_line(lines[0], fragments)


@pytest.mark.parametrize("game", ["zahltag", "baumeister"])
@pytest.mark.parametrize("kind", ["unclosed_quote", "cell_200k", "dev_zero", "latin1"])
def test_a_bad_deck_is_one_line_on_the_command_line(forks, kind, game, tmp_path):
    path, fragments = make_bad(kind, game, tmp_path)
    before = sorted(tmp_path.iterdir())
    proc = forks.run(["simulate", "--game", game, "-p", str(PLAYERS[game]), "--games", "1", "--deck", path],
                     cwd=tmp_path, timeout=60)
    assert_cli_one_line(proc, [path, *fragments])
    assert sorted(tmp_path.iterdir()) == before                      # nothing written


def test_analyze_refuses_a_bad_deck_in_one_line(forks, tmp_path):
    path, fragments = make_bad("cell_200k", "zahltag", tmp_path)
    proc = forks.run(["analyze", "deck", "--deck", path, "--games", "10"], cwd=tmp_path, timeout=60)
    assert_cli_one_line(proc, [path, *fragments])
    path, fragments = make_bad("unclosed_quote", "baumeister", tmp_path)
    proc = forks.run(["analyze", "--game", "baumeister", "players", "--deck", path, "--games", "10"],
                     cwd=tmp_path, timeout=60)
    assert_cli_one_line(proc, [path, *fragments])


def test_a_fifo_on_the_command_line_started_afresh(tmp_path):
    """The real entry point, not a fork: a FIFO with a writer that never writes."""
    fifo = tmp_path / "jobs.csv"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    try:
        proc = subprocess.run([sys.executable, "-m", "zsim.cli", "simulate", "--games", "1", "--deck", str(fifo)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
    finally:
        os.close(writer)
    assert_cli_one_line(proc, [str(fifo), "FIFO"])


# ---------------------------------------------------------------- fuzz
CSV_CHARS = list("0123456789,,,,-+\"\"\n\n\r \t\x00;'abcxyz\ufeff\u2028\u00e9") + [
    "tower", "church", "corner_tower", "job", "foreman", "card", "type", "\r\n"]


def mutated(game: str):
    """The shipped deck with a few random byte edits: cut, insert, replace, repeat a line."""
    base = SHIPPED[game]

    @st.composite
    def build(draw):
        data = bytearray(base)
        for _ in range(draw(st.integers(1, 4))):
            op = draw(st.sampled_from(["cut", "insert", "replace", "repeat"]))
            at = draw(st.integers(0, len(data)))
            if op == "cut":
                del data[at:at + draw(st.integers(1, 40))]
            elif op == "insert":
                data[at:at] = draw(st.binary(min_size=1, max_size=12)
                                   | st.sampled_from([b'"', b",", b"\n", b"-", b"999999", b"\x00", b"\xff"]))
            elif op == "replace" and at < len(data):
                data[at] = draw(st.integers(0, 255))
            elif op == "repeat":
                lines = bytes(data).split(b"\n")
                i = draw(st.integers(0, len(lines) - 1))
                data = bytearray(b"\n".join(lines[:i + 1] + [lines[i]] * draw(st.integers(1, 3)) + lines[i + 1:]))
        return bytes(data)
    return build()


def random_files(game: str):
    header = HEADER[game].encode()
    text = st.lists(st.sampled_from(CSV_CHARS), max_size=300).map("".join)
    return st.one_of(
        mutated(game),
        st.binary(max_size=600),
        text.map(lambda t: t.encode()),
        text.map(lambda t: header + t.encode()),
    )


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def check_outcome(game: str, path: Path) -> None:
    try:
        deck = LOADERS[game](path)
    except ZsimError as exc:
        assert_one_line(str(exc), [WHAT[game]])
        return
    if game == "zahltag":
        assert deck.needs.ndim == 2 and deck.needs.shape[1] == 4
        assert 1 <= deck.n_jobs <= MAX_ROWS
        assert (deck.needs >= 0).all() and (deck.needs <= zt_deck.MAX_NEED).all()
        assert (deck.needs.sum(axis=1) >= 1).all()
    else:
        assert bm_cards.MIN_CARDS <= deck.n <= bm_cards.MAX_CARDS
        assert [c.number for c in deck.cards] == list(range(1, deck.n + 1))
        assert all(0 <= x <= bm_cards.MAX_NUMBER for c in deck.cards for x in (c.value, c.shields, c.coins))


@pytest.mark.parametrize("game", ["zahltag", "baumeister"])
def test_fuzz_decks(fuzz_dir, game):
    """Random bytes, CSV-like text and mutations of the shipped deck, loaded by the game's loader."""
    @settings(max_examples=100, deadline=None)
    @given(data=random_files(game))
    def loads_or_refuses(data):
        path = fuzz_dir / f"{game}.csv"
        path.write_bytes(data)
        check_outcome(game, path)

    loads_or_refuses()


def test_the_shipped_decks_load_as_files(tmp_path):
    """The fuzz starts from these: unmutated, each is a valid deck."""
    for game, data in SHIPPED.items():
        path = tmp_path / f"{game}.csv"
        path.write_bytes(data)
        deck = LOADERS[game](path)
        assert (deck.n_jobs if game == "zahltag" else deck.n) == (32 if game == "zahltag" else 40)
