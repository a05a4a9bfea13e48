"""Playtest: a person against the heuristic agent takes a few decisions; the session is saved after
each one and resumed in a fresh app from the `session` query parameter."""

from __future__ import annotations

import json
from pathlib import Path

from editor_app import APP, TIMEOUT, open_page, texts
from streamlit.testing.v1 import AppTest

NAME = "trial-1"


def option_buttons(at) -> list:
    return [b for b in at.button if (b.key or "").startswith("pt_option_")]


def test_playtest_decisions_then_resume(app_env: Path) -> None:
    at = open_page("playtest.py")
    at.text_input(key="pt_new_name").input(NAME)
    at.number_input(key="pt_seed").set_value(4)
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    assert at.query_params.get("session") == NAME or at.session_state["pt_name"] == NAME
    for _ in range(3):
        buttons = option_buttons(at)
        assert buttons, texts(at)
        buttons[0].click().run()
        assert not at.exception, at.exception
        assert not at.error, [e.value for e in at.error]
    played = at.session_state["pt_session"].actions
    saved = json.loads((app_env / f"{NAME}.playtest.json").read_text())
    assert len(saved["actions"]) == len(played) >= 3
    assert any("<svg" in m.value for m in at.markdown), "the board is drawn"
    hands = next(d.value for d in at.dataframe if "hand" in d.value.columns)
    assert hands[hands["helot"] == "blue"].iloc[0]["hand"].endswith("hidden")  # the agent's hand stays hidden

    again = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    again.query_params["session"] = NAME
    again.run()
    again.switch_page("views/playtest.py").run()
    assert not again.exception, again.exception
    resumed = again.session_state["pt_session"]
    assert [a.to_json() for a in resumed.actions] == [a.to_json() for a in played]
    assert f"Session `{NAME}`" in texts(again)
    option_buttons(again)[0].click().run()
    assert not again.exception, again.exception
    assert len(json.loads((app_env / f"{NAME}.playtest.json").read_text())["actions"]) > len(played)


def start_hot_seat(name: str):
    """A session of two people on one screen, started."""
    at = open_page("playtest.py")
    at.text_input(key="pt_new_name").input(name)
    at.selectbox(key="pt_seat_1").select("person").run()
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    return at


def test_hot_seat_hands_only_for_the_chosen_view(app_env: Path) -> None:
    at = start_hot_seat("hot-seat")
    at.toggle(key="pt_follow").set_value(False).run()
    for viewer, other in (("red", "blue"), ("blue", "red")):
        at.selectbox(key="pt_viewer").select(viewer).run()
        assert not at.exception, at.exception
        hands = next(d.value for d in at.dataframe if "hand" in d.value.columns).set_index("helot")["hand"]
        assert not hands[viewer].endswith("hidden"), hands
        assert hands[other].endswith("hidden"), hands


def test_ending_a_round_with_points_unspent_asks_first(app_env: Path) -> None:
    at = open_page("playtest.py")
    at.text_input(key="pt_new_name").input("careful")
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    for _ in range(12):  # through the deal, to a command decision of the person's
        end = [b for b in option_buttons(at) if b.label.startswith("End the command round")]
        if end:
            break
        option_buttons(at)[0].click().run()
    assert end, texts(at)
    session = at.session_state["pt_session"]
    viewer = session.pending_decision().actor
    unspent = session.unspent_points(viewer)
    assert unspent, session.bout.state.pieces[viewer]
    held = session.bout.state.pieces[viewer].hand  # the cards kept at the deal, each by its name and id
    hands = next(d.value for d in at.dataframe if "hand" in d.value.columns).set_index("helot")["hand"]
    assert held, hands
    card = session.ruleset.declaration("influence", held[0])
    assert f"{card.name} ({card.id})" in hands[viewer], hands
    played = len(session.actions)
    end[0].click().run()
    assert not at.exception, at.exception
    assert len(at.session_state["pt_session"].actions) == played  # nothing applied: asked first
    assert any("leaves" in w.value and "unspent" in w.value for w in at.warning), texts(at)
    again = next(b for b in option_buttons(at) if b.label.startswith("End the command round"))
    assert again.label.endswith("unspent)") and "anyway" in again.label
    again.click().run()
    assert not at.exception, at.exception
    assert len(at.session_state["pt_session"].actions) > played


def test_hot_seat_on_the_board_hides_every_hand_until_the_screen_is_handed_over(app_env: Path) -> None:
    at = start_hot_seat("pass-the-device")
    first = at.session_state["pt_session"].pending_decision().actor
    assert any(f"hand the screen to {first}" in w.value for w in at.warning), texts(at)
    assert not option_buttons(at)
    hands = next(d.value for d in at.dataframe if "hand" in d.value.columns)
    assert all(hand.endswith("hidden") for hand in hands["hand"])
    at.button(key="pt_hand_over").click().run()
    assert not at.exception, at.exception
    assert option_buttons(at)  # now the first person's choices, and their hand
    hands = next(d.value for d in at.dataframe if "hand" in d.value.columns).set_index("helot")["hand"]
    assert not hands[first].endswith("hidden")
