# Two set-up commands: `make editor` and `make test`. Each creates .venv when it is missing.
# `make test` also needs Debian's chromium for the editor's end-to-end test; `make chromium`
# installs it with apt when it is missing (CI runs as root).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin

.PHONY: editor test chromium screenshots play check bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The marker files record which extras are installed, so a second run is instant.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test,editor]'
	touch $@

$(VENV)/.installed-editor: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[editor]'
	touch $@

CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The editor in the browser: prints the address to open.
editor: $(VENV)/.installed-editor
	$(BIN)/streamlit run editor/app.py --server.headless true --browser.gatherUsageStats false

chromium:
	@[ -x $(CHROMIUM) ] || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

test: $(VENV)/.installed-test chromium
	$(BIN)/python -m pytest

# The README's pictures, taken by the editor's end-to-end test.
screenshots: $(VENV)/.installed-test chromium
	NEXUS_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest tests/e2e

check: $(VENV)/.installed
	$(BIN)/nexus check content/base

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info
