"""The editor's server begins the first page's work while it starts (`nexus_dsl/editor_host.py`,
`editor/warm_up.py`): the packs a new tab opens on are loaded before the tab asks, and the tab's
first run finds them loaded rather than loading them again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from editor import remembered, warm_up
from nexus_dsl import editor_host
from nexus_dsl.workbench import packs as packs_api

from editor_app import APP, TIMEOUT


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The pack folders each load of the workbench reads, in order, from an empty cache."""
    packs_api.clear_cache()
    seen: list[list[str]] = []
    real = packs_api.load_collecting_sources

    def counting(folders: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append([Path(folder).name for folder in folders])
        return real(folders, *args, **kwargs)

    monkeypatch.setattr(packs_api, "load_collecting_sources", counting)
    return seen


def test_the_warm_up_loads_the_packs_a_new_tab_opens_on(app_env: Path, content_copy: Path,
                                                         loads: list[list[str]]) -> None:
    remembered.remember(content_copy, ["base", "poison_gallery"])  # the packs loaded last from this root
    warm_up.run()
    assert loads == [["base", "poison_gallery"]]
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    assert not at.exception, at.exception
    assert at.session_state["loaded_packs"] == ["base", "poison_gallery"]
    assert loads == [["base", "poison_gallery"]]  # the first run found them loaded


def test_the_server_process_warms_up_from_the_editor_script_it_runs(app_env: Path, loads: list[list[str]]) -> None:
    editor_host.warm_up(APP)
    assert loads == [["base"]]  # nothing remembered: the default packs


def test_a_warm_up_that_fails_leaves_the_page_to_meet_the_problem(app_env: Path, loads: list[list[str]],
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    monkeypatch.setenv("NEXUS_CONTENT_ROOT", str(tmp_path / "no such folder"))
    editor_host.warm_up(APP)  # a root that is no folder: nothing loaded, nothing raised
    editor_host.warm_up(tmp_path / "nowhere" / "app.py")  # no editor there: nothing raised either
    assert loads == []
