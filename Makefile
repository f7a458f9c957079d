# zsim: `make run` sets up and runs the default job; `make test` runs the suite (the notebook in
# docs/examples/ too, in a Jupyter kernel: the dev extra installs nbclient and ipykernel; the browser
# tests in headless Chromium, which tools/chromium.sh installs); `make docs` builds the docs site.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench docs install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip

# the editable install leaves zsim's modules uncompiled: compile them to bytecode here, so that a
# start where Python cannot or may not write it (a read-only tree, PYTHONDONTWRITEBYTECODE) still
# loads them in a few milliseconds instead of compiling about sixty modules (docs/performance.md)
$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install -e '.[dev]'
	$(BIN)/python -m compileall -q zsim strategies
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/zsim simulate --players 4 --games 100000

# the browser tests lay pages out in headless Chromium: tools/chromium.sh installs Debian's
# package once (as root or through sudo) or says in one line what to run
test: $(STAMP)
	bash tools/chromium.sh
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/zsim bench

# the user guide (mkdocs.yml, docs/): its CLI reference written from the click commands, its API
# reference from zsim.api's docstrings, into build/site; strict: a broken link or a missing page fails
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) build *.egg-info
