"""A new tab opens where the last one left off: the packs loaded last from a content root, and the
content root typed last (unless $NEXUS_CONTENT_ROOT names one). What is remembered is only offered:
a pack no longer under the root, or a root no longer a folder, is left out."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from editor_app import open_page


def test_the_packs_loaded_last_are_loaded_in_a_new_tab(app_env: Path, content_copy: Path) -> None:
    first = open_page("browser.py")
    assert first.sidebar.multiselect(key="loaded_packs").value == ["base"]
    first.sidebar.multiselect(key="loaded_packs").select("steady_on_three").run()
    assert not first.exception, first.exception
    remembered = json.loads((app_env.parent / "editor.json").read_text())
    assert remembered["packs"][str(content_copy)] == ["base", "steady_on_three"]

    second = open_page("browser.py")  # a new tab: a session of its own
    assert second.sidebar.multiselect(key="loaded_packs").value == ["base", "steady_on_three"]
    assert "from base, steady_on_three" in " ".join(c.value for c in second.sidebar.caption)


def test_a_remembered_pack_gone_from_the_root_is_left_out(app_env: Path, content_copy: Path) -> None:
    (app_env.parent / "editor.json").write_text(json.dumps({"packs": {str(content_copy): ["base", "gone_pack"]}}))
    at = open_page("browser.py")
    assert at.sidebar.multiselect(key="loaded_packs").value == ["base"]


def test_an_unreadable_remembered_file_is_nothing_remembered(app_env: Path) -> None:
    (app_env.parent / "editor.json").write_text("{not json")
    at = open_page("browser.py")
    assert not at.exception, at.exception
    assert at.sidebar.multiselect(key="loaded_packs").value == ["base"]


def test_the_root_typed_last_is_the_root_of_a_new_tab(app_env: Path, content_copy: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NEXUS_CONTENT_ROOT")
    other = tmp_path / "other-root"
    shutil.copytree(content_copy / "base", other / "base")
    first = open_page("browser.py")
    first.sidebar.text_input(key="content_root").input(str(other)).run()
    assert not first.exception, first.exception
    second = open_page("browser.py")
    assert second.sidebar.text_input(key="content_root").value == str(other)
    shutil.rmtree(other)  # a root gone: the default again
    third = open_page("browser.py")
    assert third.sidebar.text_input(key="content_root").value != str(other)
