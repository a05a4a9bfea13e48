"""The packages are layered: the shared types (`nexus_dsl/model`) sit below both the content
package and the engine, and neither of those two imports the other, so the engine reads a Ruleset
without the loader and the loader checks content without the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "nexus_dsl"


def imported_packages(package: str) -> set[tuple[str, str]]:
    """(module file, imported nexus_dsl subpackage) for every import inside `package`."""
    found: set[tuple[str, str]] = set()
    for path in sorted((PACKAGE / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level >= 2 and node.module:
                found.add((path.name, node.module.split(".")[0]))  # `from ..engine.board import ...`
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("nexus_dsl."):
                found.add((path.name, node.module.split(".")[1]))
            elif isinstance(node, ast.Import):
                found.update((path.name, alias.name.split(".")[1]) for alias in node.names
                             if alias.name.startswith("nexus_dsl."))
    return found


@pytest.mark.parametrize(("package", "forbidden"), [("content", "engine"), ("engine", "content"),
                                                     ("model", "content"), ("model", "engine")])
def test_a_package_does_not_import_the_other_side(package: str, forbidden: str) -> None:
    offending = sorted(module for module, imported in imported_packages(package) if imported == forbidden)
    assert not offending, f"nexus_dsl/{package} imports nexus_dsl/{forbidden} in {offending}"


def test_the_check_finds_an_import_across() -> None:
    """The walk sees the imports it is meant to refuse (the engine does import the shared types)."""
    assert ("bout.py", "model") in imported_packages("engine")
    assert ("loader.py", "model") in imported_packages("content")
