"""AppTest fixtures: the app runs against a temporary copy of content/ and a temporary sessions folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nexus_dsl import shipped

pytest.importorskip("streamlit.testing.v1")


@pytest.fixture(scope="session")
def content_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of content/ for the whole run (loading the base pack once is the slow part); tests
    that add content add it in packs of their own names."""
    target = tmp_path_factory.mktemp("content") / "content"
    shutil.copytree(shipped.content_folder(), target, ignore=shutil.ignore_patterns(".history", "*.draft"))
    return target


@pytest.fixture
def app_env(content_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    sessions = tmp_path / "sessions"
    monkeypatch.setenv("NEXUS_CONTENT_ROOT", str(content_copy))
    monkeypatch.setenv("NEXUS_SESSIONS_DIR", str(sessions))
    return sessions

