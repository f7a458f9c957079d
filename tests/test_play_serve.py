"""``zsim play --serve``: the table in a browser through textual-serve. The
test speaks to the server as the browser's page does (its websocket: keys
in, the terminal's output back) and plays a whole game to its record."""
from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import sys
import time
import urllib.request

import aiohttp
import pytest

import zsim
from conftest import warm_stepped

#: a terminal's control sequences, stripped to leave the text on the screen
LIMIT = 20.0
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _serve(args, port):
    proc = subprocess.Popen([sys.executable, "-m", "zsim.cli", "play", "--serve", "--port", str(port), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://localhost:{port}/", timeout=2) as r:
                return proc, r.read().decode()
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"the server stopped: {proc.stderr.read()}")
            time.sleep(0.3)
    proc.kill()
    raise AssertionError("the server did not answer within 60 s")


async def _play(url: str, presses: int) -> tuple[str, int]:
    """Press 1 at every decision until the game is over; the screen's text and the presses."""
    seen = []
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url + "?width=120&height=40") as ws:
            async def settle(limit=60.0):
                got, end = b"", time.monotonic() + limit
                while time.monotonic() < end:
                    try:
                        msg = await ws.receive(timeout=0.5)
                    except asyncio.TimeoutError:
                        if got:
                            break
                        continue
                    if msg.type == aiohttp.WSMsgType.BINARY:
                        got += msg.data
                    elif msg.type != aiohttp.WSMsgType.TEXT:
                        break
                seen.append(ANSI.sub(b"", got).decode("utf-8", "replace"))
            await settle()
            n = 0
            while n < presses and "you finished " not in "".join(seen[-3:]):
                await ws.send_json(["stdin", "1"])
                await settle(LIMIT)
                n += 1
            await ws.send_json(["stdin", "q"])
            await settle(5.0)
    return "".join(seen), n


def test_a_whole_game_in_the_browser_writes_its_record(tmp_path, background):
    warm_stepped(background, "zahltag")
    port = _free_port()
    out = tmp_path / "served.jsonl"
    proc, page = _serve(["--game", "zahltag", "-p", "2", "--seed", "4", "--hint-iterations", "8", "--out", str(out)],
                        port)
    try:
        assert f"ws://localhost:{port}/ws" in page              # the page's terminal talks to this websocket
        text, presses = asyncio.run(_play(f"ws://localhost:{port}/ws", 400))
        assert "(you)" in text and "you finished " in text and 5 < presses < 400
        assert "the record: " in text and "where they differed" in text
        events = [json.loads(line) for line in out.read_text().splitlines()]
        assert events[0]["strategies"][0] == "person" and events[0]["seed"] == 4
        assert len(list(zsim.replay(str(out), progress=False))) == 1
    finally:
        proc.terminate()
        proc.wait(20)
    assert "zsim play is served at http://localhost" in proc.stderr.read()


def test_a_port_that_cannot_be_served_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("localhost", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for p, message in [(port, f"--port {port}: cannot serve"), (0, "--port must be 1..65535")]:
            done = subprocess.run([sys.executable, "-m", "zsim.cli", "play", "--serve", "--port", str(p),
                                   "--out", str(tmp_path / "x.jsonl")], capture_output=True, text=True, timeout=120)
            assert done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_each_served_session_keeps_a_record_of_its_own(tmp_path):
    from zsim._api_play import free_path

    first = tmp_path / "served.jsonl"
    assert free_path(first) == first
    first.write_text("one")
    assert free_path(first) == tmp_path / "served-2.jsonl"
    (tmp_path / "served-2.jsonl").write_text("two")
    assert free_path(first) == tmp_path / "served-3.jsonl" and first.read_text() == "one"
