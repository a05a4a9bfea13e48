"""Playtest with content that faults at run time: the fault ends the play, whether it comes in a
person's action or in the agents' turns; the page shows the positioned fault instead of option
buttons, the session file records it, and a resumed session shows it again.

The fixture pack and what a page showing a fault must show are in `script_fault_app.py`."""

from __future__ import annotations

import json
from pathlib import Path

from editor_app import APP, TIMEOUT, texts
from streamlit.testing.v1 import AppTest
from script_fault_app import (PACK_ID, SETUP_LINE, SETUP_MESSAGE, SETUP_PACK_ID, SETUP_WHERE, assert_fault_shown,
                              faulty_env, open_with_pack, plain_bout)  # noqa: F401 (faulty_env: a fixture)

# With a person against the heuristic agent, seed 0 faults on the person's second action and seed 3
# in the agents' turns before the person has anything to decide.
PERSON_SEED = 0
AGENTS_SEED = 3


def option_buttons(at: AppTest) -> list:
    return [b for b in at.button if (b.key or "").startswith("pt_option_")]


def start(name: str, seed: int, pack_id: str = PACK_ID) -> AppTest:
    at = open_with_pack("playtest.py", pack_id)
    plain_bout(at, "pt")
    at.text_input(key="pt_new_name").input(name)
    at.number_input(key="pt_seed").set_value(seed)
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    return at


def saved_fault(sessions: Path, name: str) -> dict:
    return json.loads((sessions / f"{name}.playtest.json").read_text())["fault"]


def test_a_fault_in_a_persons_action_ends_the_play(faulty_env: Path) -> None:
    at = start("stopped-by-me", PERSON_SEED)
    clicks = 0
    while option_buttons(at) and clicks < 10:
        option_buttons(at)[0].click().run()
        assert not at.exception, at.exception
        clicks += 1
    assert clicks == 3, texts(at)  # the second action ends the round with points left: asked, then confirmed
    assert_fault_shown(at)
    assert not option_buttons(at)
    assert at.button(key="pt_open_fault").label.endswith("in the card editor")
    fault = saved_fault(faulty_env, "stopped-by-me")
    assert fault["code"] == "runtime/bad_value" and f"{fault['line']}:{fault['column']}" == "6:17"
    assert len(at.session_state["pt_session"].actions) == 2


def test_a_fault_in_the_agents_turns_ends_the_play_at_once(faulty_env: Path) -> None:
    at = start("stopped-by-them", AGENTS_SEED)
    assert_fault_shown(at)
    assert not option_buttons(at)
    session = at.session_state["pt_session"]
    assert session.people() == ["red"]
    assert session.actions and {action.actor for action in session.actions} == {"blue"}  # the agent's only
    assert saved_fault(faulty_env, "stopped-by-them")["line"] == 6


def test_a_session_whose_bout_stops_at_setup_shows_the_fault_at_start(faulty_env: Path) -> None:
    at = start("stopped-at-setup", 0, SETUP_PACK_ID)
    assert_fault_shown(at, SETUP_WHERE, SETUP_MESSAGE, SETUP_LINE)
    assert not option_buttons(at) and at.session_state["pt_session"].actions == []
    assert saved_fault(faulty_env, "stopped-at-setup")["line"] == 7


def test_a_resumed_session_shows_its_fault_again(faulty_env: Path) -> None:
    start("stopped-then-resumed", AGENTS_SEED)
    (faulty_env.parent / "editor.json").unlink()  # a tab on another machine: base alone, nothing remembered
    again = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    again.query_params["session"] = "stopped-then-resumed"
    again.run()
    again.switch_page("views/playtest.py").run()
    assert not again.exception, again.exception
    assert_fault_shown(again)
    assert not option_buttons(again)
    # This app loads only base: the rule is offered once its pack is loaded in the sidebar.
    assert f"Load pack `{PACK_ID}` in the sidebar" in texts(again)
    again.sidebar.multiselect(key="loaded_packs").select(PACK_ID).run()
    assert "dud_die" in again.button(key="pt_open_fault").label
