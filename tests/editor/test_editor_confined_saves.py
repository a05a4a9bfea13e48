"""The editor's saves are confined: the barge editor refuses a `barges.yaml` that is a symbolic link
(the file it points at stays as it was), a playtest session named to leave the sessions folder is
refused with a message, and a new session never overwrites a saved one of the same name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from editor_app import APP, REPOSITORY, TIMEOUT, click_board, open_page, texts
from streamlit.testing.v1 import AppTest

OUTSIDE_TEXT = "# not part of any pack: must never be written by the editor\n"


@pytest.fixture
def linked_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A content root with the base pack and a pack whose barges.yaml links to a file outside the
    root; the editor runs on it. The pack folder and the outside file."""
    root = tmp_path / "content"
    shutil.copytree(REPOSITORY / "content" / "base", root / "base")
    pack = root / "house-rules" / "linked_yard"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: linked_yard\nname: Linked Yard\nversion: 0.1.0\nkind: house_rules\n"
                                    "builds_on: [base]\n")
    outside = tmp_path / "elsewhere" / "barges.yaml"
    outside.parent.mkdir()
    outside.write_text(OUTSIDE_TEXT)
    (pack / "barges.yaml").symlink_to(outside)
    monkeypatch.setenv("NEXUS_CONTENT_ROOT", str(root))
    monkeypatch.setenv("NEXUS_SESSIONS_DIR", str(tmp_path / "sessions"))
    return pack, outside


def test_the_barge_editor_refuses_to_save_through_a_symlinked_barges_file(linked_pack: tuple[Path, Path]) -> None:
    pack, outside = linked_pack
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input("linked_barge").run()
    at.button(key="bg_new").click().run()
    at.selectbox(key="bg_type").select("pillar").run()
    click_board(at, "bg_board", "sq:3,3")
    at.selectbox(key="bg_pack").select("linked_yard").run()
    at.button(key="bg_save").click().run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert any("not saved" in e.lower() and "symbolic link" in e for e in errors), texts(at)
    assert not any("Saved barge" in s.value for s in at.success)
    assert outside.read_text() == OUTSIDE_TEXT
    assert (pack / "barges.yaml").is_symlink()
    assert sorted(p.name for p in outside.parent.iterdir()) == ["barges.yaml"]


@pytest.mark.parametrize("name", ["../../escape", "/etc/passwd", "x" * 300, "evening\n"])
def test_a_session_name_leaving_the_sessions_folder_is_refused(app_env: Path, tmp_path: Path, name: str) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["session"] = name
    at.run()
    at.switch_page("views/playtest.py").run()
    assert not at.exception, at.exception
    assert any("cannot be opened" in e.value for e in at.error), texts(at)
    assert not app_env.exists() or list(app_env.iterdir()) == []


def test_a_new_session_does_not_overwrite_a_saved_one(app_env: Path) -> None:
    at = open_page("playtest.py")
    at.text_input(key="pt_new_name").input("taken")
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    saved = (app_env / "taken.playtest.json").read_bytes()

    other = open_page("playtest.py")
    other.text_input(key="pt_new_name").input("taken")
    other.number_input(key="pt_seed").set_value(9)
    other.button(key="pt_start").click().run()
    assert not other.exception, other.exception
    assert any("already a session named `taken`" in e.value for e in other.error), texts(other)
    assert (app_env / "taken.playtest.json").read_bytes() == saved
