# Two set-up commands: `make editor` and `make test`. Each creates .venv when it is missing.
# `make test` also needs Debian's chromium for the editor's end-to-end test, the cairo library
# with the DejaVu fonts for `nexus print`, and Node.js with npm for the TextMate grammar's test;
# `make chromium`, `make cairo` and `make node` install them with apt when they are missing (CI runs as root).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin

.PHONY: editor test typecheck lint chromium cairo node screenshots play check bench bench-editor clean fuzz native grammar

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The marker files record which extras are installed, so a second run is instant.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test,editor,cluster,native]'
	touch $@

$(VENV)/.installed-editor: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[editor]'
	touch $@

CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The editor in the browser (`nexus editor`, which warns when it is shared): prints the address to
# open. It listens on this machine only; whoever can open it can read and write the content, and it
# has no login. `make editor ADDRESS=0.0.0.0` (or NEXUS_EDITOR_ADDRESS in the environment) shares it
# on the network: see the README's Editor section.
# `:=` so that a stray ADDRESS in the environment never opens it up: only the command line does.
ADDRESS := $(or $(NEXUS_EDITOR_ADDRESS),127.0.0.1)
editor: $(VENV)/.installed-editor
	$(BIN)/nexus editor --address $(ADDRESS)

chromium:
	@[ -x $(CHROMIUM) ] || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

# `nexus print` draws its PDF with cairo (through CairoSVG) in the faces' own type, DejaVu Sans.
cairo:
	@{ /sbin/ldconfig -p | grep -q 'libcairo\.so\.2 ' && fc-list | grep -q 'DejaVuSans\.ttf'; } || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libcairo2 fonts-dejavu-core fontconfig; }

# The TextMate grammar is checked on the engine VS Code runs it on, vscode-textmate over vscode-oniguruma
# (tests/syntax/test_textmate.py, which installs them itself with `npm ci` into build/textmate_node/).
node:
	@{ command -v node && command -v npm; } >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs npm; }

# The suite spread over the cores with pytest-xdist, a test file to a worker so that a module's
# fixtures (the editor's server, the compiled build, the hostile cases measured together) are made
# once, the longest files first (tests/conftest.py): about 19 minutes on 2 cores against 35-46 in one process. `make test TEST_WORKERS=` runs it in
# one process, as `.venv/bin/python -m pytest` does.
TEST_WORKERS ?= -n auto --maxprocesses=4 --dist loadfile --no-loadscope-reorder
test: $(VENV)/.installed-test chromium cairo node
	$(BIN)/python -m pytest $(TEST_WORKERS)

# mypy over the whole package, with pyproject.toml's configuration; `make test` (tests/test_typecheck.py)
# holds the package to no type errors as well.
typecheck: $(VENV)/.installed-test
	$(BIN)/mypy nexus_dsl

# ruff over the whole tree, with pyproject.toml's rule set; `make test` (tests/test_lint.py) holds the
# tree to no finding as well.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

# The README's pictures, taken by the editor's end-to-end test.
screenshots: $(VENV)/.installed-test chromium
	NEXUS_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest tests/e2e

# The engine and the agents compiled to C with mypyc (nexus_dsl/native.py, docs/native.md): about twice
# the bouts per CPU-second. Used by every later run while the sources are those it was built from; any
# edit and the sources run as they are until the next `make native`. Profile-guided: compiled by gcc,
# trained on bouts, compiled again with their profile, about 10-20% faster again (5.5 to 20 minutes
# of one core; `python -m nexus_dsl.native build` alone makes a plain build in half that).
native: $(VENV)/.installed-native
	$(BIN)/python -m nexus_dsl.native build --profile-guided

$(VENV)/.installed-native: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[native]'
	touch $@

check: $(VENV)/.installed
	$(BIN)/nexus check content/base

# The TextMate grammar of rule scripts (editors/vscode), generated from the Lark grammar's terminals;
# `make test` (tests/syntax/test_textmate.py) fails while the checked-in file differs from it.
grammar: $(VENV)/.installed
	$(BIN)/nexus grammar --textmate --out editors/vscode/syntaxes/nexus.tmLanguage.json

# The speed figures of this tree beside the same figures of the reference commit the speed work
# started from (a git worktree under build/bench/), and the targets; 9 to 25 minutes on an idle 2-core machine.
# Options through BENCH: `make bench BENCH="--quick"`, `--only heuristic_2p,load_cold`,
# `--reference REV`, `--runs N` (docs/benchmarks.md). Also written to build/bench/latest.json.
BENCH ?=
bench: native
	$(BIN)/python benchmarks/bench.py $(BENCH)

# The editor's answer times: a typical click on every page (server time, target 300 ms) and the first
# page usable after the server is up (target 2 s, in chromium). Measures; never asserts.
bench-editor: $(VENV)/.installed-test chromium
	$(BIN)/python benchmarks/editor_latency.py $(BENCH)

# The full fuzzing campaign (tests/fuzz): 20,000 mutated rule scripts, 5,000 mutated YAML data files
# and 2,000 mutated scenarios through the real pipeline on every core, then the hypothesis properties.
# Prints inputs per second and failures by kind; minimised failing inputs go to build/fuzz/.
# `make test` plays a seeded share of the same inputs.
fuzz: $(VENV)/.installed-test
	NEXUS_FUZZ_SCRIPTS=20000 NEXUS_FUZZ_DATA=5000 NEXUS_FUZZ_SCENARIOS=2000 NEXUS_FUZZ_EXAMPLES=500 \
		NEXUS_FUZZ_MINIMISE_SECONDS=30 \
		$(BIN)/python -m pytest tests/fuzz -q -s -p no:cacheprovider

clean:
	rm -rf $(VENV) build *.egg-info
