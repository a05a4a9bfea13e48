"""A playtest session file is read bounded and checked before anything is replayed: whatever it
holds (nested thousands deep, too large, not UTF-8, settings of the wrong types, a barge its packs do
not have), opening it gives a `SessionError`, positioned where it can be, never a traceback; the
editor's page shows that problem and goes on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from nexus_dsl.limits import INPUT_LIMITS
from nexus_dsl.workbench.playtest import PlaySession, PlaySettings, SessionError, read_session

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def saved(base) -> dict[str, Any]:
    """The JSON of a real session: two agents, a few decisions taken."""
    session = PlaySession(PlaySettings(seats=("heuristic", "heuristic"), seed=3), ruleset=base)
    session.advance_agents(max_steps=6)
    return session.to_json()


def refusal(path: Path, base) -> SessionError:
    with pytest.raises(SessionError) as refused:
        PlaySession.load(path, base)
    return refused.value


def with_settings(saved: dict[str, Any], **changes: Any) -> str:
    return json.dumps({**saved, "settings": {**saved["settings"], **changes}})


def test_a_real_session_still_replays(tmp_path: Path, saved, base) -> None:
    path = tmp_path / "real.playtest.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    assert [a.to_json() for a in PlaySession.load(path, base).actions] == saved["actions"]


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a": ' * 50_000 + "1" + "}" * 50_000],
                         ids=["lists", "mappings"])
def test_a_session_nested_thousands_deep_is_a_session_error(tmp_path: Path, base, text: str) -> None:
    path = tmp_path / "deep.playtest.json"
    path.write_text(text, encoding="utf-8")
    assert "nests lists and mappings more than" in refusal(path, base).diagnostics[0].message


def test_a_session_nested_beyond_the_limit_is_refused_before_it_is_replayed(tmp_path: Path, saved, base) -> None:
    nested: Any = "x"
    for _ in range(INPUT_LIMITS.max_depth):
        nested = [nested]
    path = tmp_path / "deep.playtest.json"
    path.write_text(json.dumps({**saved, "notes": nested}), encoding="utf-8")
    assert "nests lists and mappings more than" in refusal(path, base).diagnostics[0].message


def test_a_session_file_is_read_no_further_than_the_size_of_a_content_file(tmp_path: Path, saved) -> None:
    path = tmp_path / "large.playtest.json"
    path.write_text(json.dumps({**saved, "notes": "x" * INPUT_LIMITS.max_file_bytes}), encoding="utf-8")
    with pytest.raises(SessionError) as refused:
        read_session(path)
    problem = refused.value.diagnostics[0]
    assert (problem.code, problem.line) == ("playtest/bad_session", 1)
    assert f"larger than {INPUT_LIMITS.max_file_bytes:,} bytes" in problem.message


def test_a_session_that_is_not_utf8_is_refused_where_it_stops_being_text(tmp_path: Path, saved) -> None:
    path = tmp_path / "latin.playtest.json"
    text = json.dumps({**saved, "settings": {**saved["settings"], "labels": ["café", "bar"]}}, ensure_ascii=False)
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(SessionError) as refused:
        read_session(path)
    problem = refused.value.diagnostics[0]
    assert (problem.line, problem.column) == (1, text.index("é") + 1)
    assert "not UTF-8" in problem.message


@pytest.mark.parametrize("settings, expected", [
    (["seed"], "not a mapping"),
    ({"seed": "three"}, "`seed` is not a whole number"),
    ({"seed": True}, "`seed` is not a whole number"),
    ({"seats": "person"}, "`seats` is not a list of names"),
    ({"packs": [["base"]]}, "`packs` is not a list of names"),
    ({"barge": ["a", "b"]}, "`barge` is not a name"),
    ({"content_root": 7}, "`content_root` is not a name"),
    ({"stop_for_interjections": "yes"}, "`stop_for_interjections` is not true or false"),
    ({"labels": [{"red": 1}, "blue"]}, "`labels` is not a list of names"),
])
def test_settings_of_the_wrong_type_are_a_session_error(tmp_path: Path, saved, base, settings: Any,
                                                         expected: str) -> None:
    path = tmp_path / "odd.playtest.json"
    path.write_text(json.dumps({**saved, "settings": settings}), encoding="utf-8")
    assert expected in refusal(path, base).diagnostics[0].message


@pytest.mark.parametrize("change, expected", [
    ({"barge": "no_such_barge"}, "no barge `no_such_barge`"),
    ({"motivations": ["no_such_motivation"]}, "no motivation `no_such_motivation`"),
])
def test_settings_the_packs_cannot_set_up_are_a_session_error(tmp_path: Path, saved, base, change: dict[str, Any],
                                                              expected: str) -> None:
    path = tmp_path / "odd.playtest.json"
    path.write_text(with_settings(saved, **change), encoding="utf-8")
    assert expected in refusal(path, base).diagnostics[0].message


@pytest.mark.parametrize("change", [{"actions": 5}, {"actions": {"0": "pass"}}, {"version": "9" * 5000}])
def test_actions_and_versions_of_the_wrong_shape_are_a_session_error(tmp_path: Path, saved, base,
                                                                     change: dict[str, Any]) -> None:
    path = tmp_path / "odd.playtest.json"
    text = json.dumps({**saved, **change})
    path.write_text(text.replace('"' + "9" * 5000 + '"', "9" * 5000), encoding="utf-8")  # a 5,000-digit number
    assert refusal(path, base).diagnostics[0].code == "playtest/bad_session"


# ---------------------------------------------------------------- the editor's page
def test_the_editor_shows_a_malformed_session_as_a_problem(tmp_path: Path, saved,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    content = tmp_path / "content"
    shutil.copytree(REPOSITORY / "content" / "base", content / "base")
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    monkeypatch.setenv("NEXUS_CONTENT_ROOT", str(content))
    monkeypatch.setenv("NEXUS_SESSIONS_DIR", str(sessions))
    (sessions / "deep.playtest.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (sessions / "typed.playtest.json").write_text(json.dumps({**saved, "settings": ["seed"]}), encoding="utf-8")
    for name, shown in (("deep", "nests lists and mappings"), ("typed", "settings are not usable")):
        page = AppTest.from_file(str(REPOSITORY / "editor" / "app.py"), default_timeout=90)
        page.query_params["session"] = name
        page.run()
        page.switch_page("views/playtest.py").run()
        assert not page.exception, page.exception
        errors = [element.value for element in page.error]
        assert any(f"Session `{name}`" in error and shown in error for error in errors), errors
