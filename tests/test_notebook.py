"""docs/examples/balance.ipynb runs end to end through the public API in a
Jupyter kernel (nbclient and ipykernel, installed with the dev extra), with a
few hundred games per point, and is kept in the repository without outputs."""
from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "examples" / "balance.ipynb"


def test_the_notebook_is_committed_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)


def test_the_notebook_answers_its_question(monkeypatch, tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    monkeypatch.setenv("ZSIM_NOTEBOOK_GAMES", "200")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(NOTEBOOK.parents[2]),
                                                                  os.environ.get("PYTHONPATH")])))
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 3                     # the two heatmaps and the best target per payday cost
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "hand_size: default 7" in text and "At 4 players and payday cost 1" in text
    tables = "".join(o["data"].get("text/plain", "") for o in outputs if "data" in o)
    assert "best_target" in tables and "win_share" in tables
