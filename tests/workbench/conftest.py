"""Shared fixtures for the workbench tests: a private content root holding a copy of the base pack."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nexus_dsl import shipped
from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.model.ruleset import Ruleset

CONTENT = shipped.content_folder()


@pytest.fixture
def content_root(tmp_path: Path) -> Path:
    """A content root of our own: a copy of the base pack, free to write into."""
    root = tmp_path / "content"
    shutil.copytree(CONTENT / "base", root / "base")
    return root


@pytest.fixture(scope="session")
def base() -> Ruleset:
    return cached_ruleset(("base",))
