"""The JSON forms of the reports whose objects do not give their own (`nexus show`, `nexus scenario
run`). With `--format json` a command prints exactly one JSON document on stdout and nothing else
there; progress and messages go to stderr."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from ..cards.faces import CardFace
    from ..scenario import ScenarioResult


def print_json(document: Any) -> None:
    print(json.dumps(document, indent=2, allow_nan=False))


def finite(value: float) -> float | None:
    """A figure as JSON can hold it: an unbounded end of an interval is null (JSON has no infinity)."""
    return value if math.isfinite(value) else None


def shown_json(found: Sequence[tuple[CardFace, str | None]]) -> list[dict[str, Any]]:
    """Every item `nexus show` found: its face (as `nexus cards --format json` gives it) and, for a
    script, its canonical text."""
    return [{**face.to_json(), "script": script} for face, script in found]


def scenarios_json(results: Sequence[ScenarioResult]) -> dict[str, Any]:
    passed = sum(result.passed for result in results)
    return {
        "results": [{"name": r.name, "file": r.file, "passed": r.passed, "mismatches": r.mismatches} for r in results],
        "passed": passed,
        "failed": len(results) - passed,
    }
