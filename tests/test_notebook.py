"""docs/examples/balance.ipynb runs end to end through the public API in a
Jupyter kernel (nbclient and ipykernel, installed with the dev extra), with a
few hundred games per point, and is kept in the repository without outputs."""
from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "examples" / "balance.ipynb"


def _pythonpath() -> str:
    """The kernel's PYTHONPATH: the checkout first, so its strategies import."""
    return os.pathsep.join(filter(None, [str(NOTEBOOK.parents[2]), os.environ.get("PYTHONPATH")]))


def test_the_notebook_is_committed_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)


def test_the_notebook_answers_its_question(monkeypatch, tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    monkeypatch.setenv("ZSIM_NOTEBOOK_GAMES", "200")
    monkeypatch.setenv("PYTHONPATH", _pythonpath())
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 4         # the two heatmaps, the best target per payday cost, the sweep
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "hand_size: default 7" in text and "At 4 players and payday cost 1" in text
    tables = "".join(o["data"].get("text/plain", "") for o in outputs if "data" in o)
    assert "best_target" in tables and "win_share" in tables
    # the new rule question, answered by a sweep and a comparison on the same deals
    assert "tie_discount=0 against the printed rules" in text and "4 players: seats balanced" in text
    assert "seat_gap_pp" in tables and "independent_ci95" in tables


def test_the_stop_button_in_a_real_kernel_ends_the_run_at_a_chunk_and_writes_nothing(tmp_path):
    """The notebook's stop button, for real: the kernel manager sends the
    kernel SIGINT while ``zsim.simulate`` plays into a Parquet file. The run
    ends at the end of a chunk with ``zsim.Interrupted`` carrying the games
    finished, no half-written file is left, and the kernel lives on."""
    import time

    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=_pythonpath()))
    try:
        # compile (or load) the engine first, so that the stop lands inside the long run
        warm = kc.execute_interactive("import zsim; zsim.simulate(players=2, games=100, progress=False)", timeout=600)
        assert warm["content"]["status"] == "ok"
        out = tmp_path / "games.parquet"
        # stop_on_error=False: after an error ipykernel aborts the requests that
        # reach it until its event loop turns once more, so a check sent at once
        # could come back "aborted" instead of running
        run = kc.execute(f"zsim.simulate(players=2, games=200_000_000, chunk=20_000, out={str(out)!r}, "
                         f"progress=False)", stop_on_error=False)
        deadline = time.monotonic() + 120
        while not any(p.name.endswith(".part") for p in tmp_path.iterdir()):   # the run is writing
            assert time.monotonic() < deadline, "the run never started writing"
            time.sleep(0.1)
        time.sleep(0.5)
        km.interrupt_kernel()
        while True:
            reply = kc.get_shell_msg(timeout=120)
            if reply["parent_header"].get("msg_id") == run:
                break
        assert reply["content"]["status"] == "error"
        assert reply["content"]["ename"] == "Interrupted"
        assert [p.name for p in tmp_path.iterdir()] == []          # no .part, no games.parquet
        seen = []
        check = kc.execute_interactive(
            "import sys; stop = sys.last_value; "
            "print(isinstance(stop, KeyboardInterrupt), stop.partial.games, stop.partial.games % 20_000)",
            timeout=60, output_hook=lambda msg: seen.append(msg["content"].get("text", "")))
        assert check["content"]["status"] == "ok"
        is_stop, games, rest = "".join(seen).split()
        assert is_stop == "True" and int(games) >= 20_000 and int(rest) == 0   # whole chunks only
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
