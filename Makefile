# Two set-up commands: `make editor` and `make test`. Each creates .venv when it is missing.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin

.PHONY: editor test play check bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The marker files record which extras are installed, so a second run is instant.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Until the editor lands, the main job is a bout played in the terminal.
editor: $(VENV)/.installed
	$(BIN)/nexus play --seed 1

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

check: $(VENV)/.installed
	$(BIN)/nexus check content/base

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info
