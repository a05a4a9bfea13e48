"""`nexus --help` and `nexus --version` answer without importing what the commands use: the parser,
the schema validators, YAML, the numeric libraries, Streamlit and the engine are imported by the
command that needs them, when it runs. What is imported is checked, not how long it takes (the
time is the `cli_help` figure of `make bench`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("lark", "jsonschema", "jsonschema_rs", "referencing", "yaml", "scipy", "numpy", "statsmodels", "icepool",
         "streamlit", "ray", "nexus_dsl.engine", "nexus_dsl.agents", "nexus_dsl.content", "nexus_dsl.schema",
         "nexus_dsl.syntax", "nexus_dsl.workbench", "nexus_dsl.shipped", "importlib.resources")
PROBE = """
import json, sys
from nexus_dsl.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def imported_by(*arguments: str) -> set[str]:
    """The modules loaded in a fresh process by `import nexus_dsl.cli` and parsing `arguments`."""
    done = subprocess.run([sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def heavy(modules: set[str]) -> set[str]:
    return {name for name in modules if name.startswith(HEAVY)}


def test_help_imports_only_the_command_line() -> None:
    modules = imported_by("--help")
    assert {"argparse", "nexus_dsl.cli"} <= modules
    assert not heavy(modules)
    assert not heavy(imported_by("editor", "--help"))
    assert not heavy(imported_by("check", "--help"))


def test_a_command_imports_what_it_needs_when_it_runs() -> None:
    # The probe is sound: a command that loads content does import the loader.
    assert {"nexus_dsl.content.loader", "nexus_dsl.shipped"} <= imported_by("check", "--format", "json")
