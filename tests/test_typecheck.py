"""mypy over the whole package (the configuration is pyproject.toml's `[tool.mypy]`): no type errors.
`make typecheck` runs the same check and shows every error.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# `path:line: error: message` (with `:column` after the line when mypy is told to show columns).
_ERROR_LINE = re.compile(r"^(?P<path>[^:\s][^:]*):\d+(?::\d+)?: error: ")


def test_no_type_errors_in_the_package() -> None:
    # Run from the root so that mypy finds its configuration and keeps its cache in .mypy_cache:
    # a warm run takes a second or two, a cold one about ten.
    run = subprocess.run([sys.executable, "-m", "mypy", "nexus_dsl"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    output = run.stdout + run.stderr
    # 0: no errors; 1: type errors; anything else (2) means mypy could not check at all.
    assert run.returncode in (0, 1), f"mypy did not run (exit {run.returncode}):\n{output}"
    errors = [match.string for line in run.stdout.splitlines() if (match := _ERROR_LINE.match(line))]
    # Type errors reported in lines of another shape would pass unseen: refuse to read them.
    assert errors or run.returncode == 0, f"mypy failed but no line reads `path:line: error:`:\n{output}"
    assert not errors, f"{len(errors)} type error(s):\n" + "\n".join(errors)
