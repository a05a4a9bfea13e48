"""ruff over the whole tree (the rule set is pyproject.toml's `[tool.ruff.lint]`): no finding.
`make lint` runs the same check and shows every finding."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# `path:line:column: CODE message`, ruff's concise form.
_FINDING = re.compile(r"^[^:\s][^:]*:\d+:\d+: [A-Z]+\d+ ")


def test_no_lint_findings_in_the_tree() -> None:
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise", "--no-cache", "."],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    output = run.stdout + run.stderr
    # 0: no findings; 1: findings; anything else (2) means ruff could not check at all.
    assert run.returncode in (0, 1), f"ruff did not run (exit {run.returncode}):\n{output}"
    findings = [line for line in run.stdout.splitlines() if _FINDING.match(line)]
    assert findings or run.returncode == 0, f"ruff failed but no line reads `path:line:col: CODE`:\n{output}"
    assert not findings, f"{len(findings)} finding(s):\n" + "\n".join(findings)


def test_the_check_finds_what_it_is_set_to_find(tmp_path: Path) -> None:
    # The instrument works: an unused import in a file under the configured rules is a finding.
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "sample.py").write_text("import os\n")
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise", "--no-cache", "."],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "F401" in run.stdout, run.stdout + run.stderr
