"""Playtest: a person against the heuristic agent plays on the board (a piece clicked, then a square
or an opponent, then the command and its choices); the session is saved after each decision and
resumed in a fresh app from the `session` query parameter. The board is a custom component: AppTest
cannot run its JavaScript, so a click is the value the component would report, set in Session State
(`editor_app.click_board`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from editor_app import APP, TIMEOUT, board_data, click_board, open_page, texts
from streamlit.testing.v1 import AppTest

from nexus_dsl.engine.actions import COMMAND, END_ROUND
from nexus_dsl.workbench.board_choices import BoardChoices, board_choices
from nexus_dsl.workbench.body_figure import location_target

NAME = "trial-1"
BOARD, FIGURE = "pt_board", "pt_figure"


def option_buttons(at) -> list:
    return [b for b in at.button if (b.key or "").startswith("pt_option_")]


def keep_buttons(at) -> list:
    return [b for b in at.button if (b.key or "").startswith("pt_keep_")]


def through_the_deal(at: AppTest) -> None:
    """Keep the first cards offered until the person has a command to give."""
    for _ in range(12):
        if not keep_buttons(at):
            return
        keep_buttons(at)[0].click().run()
        assert not at.exception, at.exception


def to_a_decision_with(at: AppTest, wanted: Callable[[BoardChoices, str], bool], limit: int = 40):
    """End rounds (and agree to) until the person's command decision offers what `wanted` wants."""
    for _ in range(limit):
        session = at.session_state["pt_session"]
        pending = session.pending_decision()
        if pending is not None and pending.kind == "command":
            arranged = board_choices(session, pending.actor)
            if wanted(arranged, pending.actor):
                return session, pending.actor, arranged
        for _ in range(2):  # asked first when points are left: the same button again goes ahead
            end = [b for b in option_buttons(at) if b.label.startswith("End the command round")] or option_buttons(at)
            assert end, texts(at)
            end[0].click().run()
            assert not at.exception, at.exception
            if at.session_state["pt_session"].log_length != session.log_length:
                break
    raise AssertionError("no command decision offered what was wanted")


def a_square(arranged: BoardChoices, actor: str) -> bool:
    return any(target.startswith("sq:") for target in arranged.targets(actor))


def a_combo(arranged: BoardChoices, actor: str) -> bool:
    """An opponent in reach of a command with two further choices (a combo: location, attacks)."""
    return any(len(offer.steps) == 2 for target in arranged.targets(actor) if target.startswith("piece:")
               for offer in arranged.offers(actor, target))


def start(name: str, seed: int = 4, lanista: str | None = None) -> AppTest:
    at = open_page("playtest.py")
    at.text_input(key="pt_new_name").input(name)
    at.number_input(key="pt_seed").set_value(seed)
    if lanista is not None:
        at.selectbox(key="pt_lanista_0").select(lanista)
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    return at


def test_the_deal_says_how_many_to_keep_with_each_cards_face_in_a_steady_order(app_env: Path) -> None:
    at = start("the-deal", lanista="madame_oorl")  # who keeps three cards of the deal
    session = at.session_state["pt_session"]
    assert any(m.value.startswith("**Keep ") and " more of these cards** (" in m.value for m in at.markdown), texts(at)
    first = [b.key for b in keep_buttons(at)]
    names = [b.label.removeprefix("Keep ") for b in keep_buttons(at)]
    assert names == sorted(names) and len(names) > 3
    card = session.ruleset.declaration("influence", first[1].removeprefix("pt_keep_"))
    assert any(m.value.startswith(f"**{card.name}**") for m in at.markdown)  # the card's face
    keep_buttons(at)[1].click().run()
    assert not at.exception, at.exception
    assert [b.key for b in keep_buttons(at)] == [key for key in first if key != first[1]]
    assert f"kept: {card.name}" in texts(at)


def test_a_turn_played_on_the_board_then_resumed(app_env: Path) -> None:
    at = start(NAME)
    through_the_deal(at)
    session, actor, arranged = to_a_decision_with(at, a_square)
    assert f"piece:{actor}" in board_data(at, BOARD)["selectable"]  # the piece is clickable
    click_board(at, BOARD, f"piece:{actor}")
    square = next(t for t in arranged.targets(actor) if t.startswith("sq:"))
    assert board_data(at, BOARD)["marks"][square] == "reach" and f"piece:{actor}" in board_data(at, BOARD)["selected"]
    click_board(at, BOARD, square)
    offered = [b for b in at.button if (b.key or "").startswith("pt_offer_")]
    assert offered and all(" — " in b.label for b in offered), texts(at)  # each with its cost
    played = len(session.actions)
    offered[0].click().run()
    assert not at.exception, at.exception
    session = at.session_state["pt_session"]
    assert len(session.actions) > played and session.actions[played].kind == COMMAND
    assert session.actions[played] == arranged.offers(actor, square)[0].options[0].action  # the move shown there
    saved = json.loads((app_env / f"{NAME}.playtest.json").read_text())
    assert len(saved["actions"]) == len(session.actions)
    assert any(m.value.startswith("**Dice as they fell**") for m in at.markdown)
    hands = next(d.value for d in at.dataframe if "hand" in d.value.columns)
    assert hands[hands["helot"] == "blue"].iloc[0]["hand"].endswith("hidden")  # the agent's hand stays hidden

    again = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    again.query_params["session"] = NAME
    again.run()
    again.switch_page("views/playtest.py").run()
    assert not again.exception, again.exception
    resumed = again.session_state["pt_session"]
    assert [a.to_json() for a in resumed.actions] == [a.to_json() for a in session.actions]
    assert f"Session `{NAME}`" in texts(again)


def test_a_combo_is_built_on_the_figure_and_counted_up_step_by_step(app_env: Path) -> None:
    at = start("combo", seed=1)
    through_the_deal(at)
    session, actor, arranged = to_a_decision_with(at, a_combo, limit=80)
    opponent, combo = next((t, o) for t in arranged.targets(actor) if t.startswith("piece:")
                           for o in arranged.offers(actor, t) if len(o.steps) == 2)
    click_board(at, BOARD, opponent)  # the only piece that can aim there is chosen with it
    next(b for b in at.button if b.label.startswith(f"{combo.title}…")).click().run()
    data = board_data(at, FIGURE)
    location = combo.values(combo.steps[0], {})[-1]
    assert location_target(location) in data["selectable"] and "<svg" in data["svg"]
    click_board(at, FIGURE, location_target(location))
    counts = combo.values(combo.steps[1], {combo.steps[0]: location})
    go = at.button(key="pt_go")
    first_cost = go.label
    assert "pt_fewer" not in [b.key for b in at.button]
    for _ in counts[1:]:
        at.button(key="pt_more").click().run()
        assert not at.exception, at.exception
    assert "pt_more" not in [b.key for b in at.button]  # no more than the legal count
    assert at.button(key="pt_go").label != first_cost  # the total cost follows the count
    played = len(session.actions)
    at.button(key="pt_go").click().run()
    assert not at.exception, at.exception
    # A combo opens with a focused attack (-SDS against SD, about 28%): it asks first, with its odds.
    assert len(at.session_state["pt_session"].actions) == played
    assert any("Combo hits about 28% of the time" in w.value for w in at.warning), texts(at)
    at.button(key="pt_go").click().run()  # chosen again: taken
    assert not at.exception, at.exception
    taken = at.session_state["pt_session"].actions[played]
    assert taken.name == combo.command.split(":")[1] and taken.arg(combo.steps[0]) == location
    assert taken.arg(combo.steps[1]) == counts[-1]


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
    at = start("careful")
    through_the_deal(at)
    for _ in range(12):  # to a command decision of the person's
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
    assert again.label.endswith("anyway")
    again.click().run()
    assert not at.exception, at.exception
    assert len(at.session_state["pt_session"].actions) > played
    assert at.session_state["pt_session"].actions[played].kind == END_ROUND


def test_hot_seat_on_the_board_hides_every_hand_until_the_screen_is_handed_over(app_env: Path) -> None:
    at = start_hot_seat("pass-the-device")
    first = at.session_state["pt_session"].pending_decision().actor
    assert any(f"hand the screen to {first}" in w.value for w in at.warning), texts(at)
    assert not keep_buttons(at) and not option_buttons(at)
    hands = next(d.value for d in at.dataframe if "hand" in d.value.columns)
    assert all(hand.endswith("hidden") for hand in hands["hand"])
    at.button(key="pt_hand_over").click().run()
    assert not at.exception, at.exception
    assert keep_buttons(at)  # now the first person's choices (the deal), and their hand
    hands = next(d.value for d in at.dataframe if "hand" in d.value.columns).set_index("helot")["hand"]
    assert not hands[first].endswith("hidden")


def test_resume_opens_the_session_chosen_in_the_same_run_as_its_click(app_env: Path) -> None:
    """A saved session chosen and Resume clicked reach the server in one run: the session resumed is
    the one chosen, not the one the page drew as chosen before."""
    for name in ("resume-first", "resume-second"):
        start(name)
    at = open_page("playtest.py")
    choice = at.selectbox(key="pt_saved")
    wanted = next(option for option in choice.options if option != choice.value and option.startswith("resume-"))
    choice.select(wanted)
    at.button(key="pt_resume").click().run()
    assert not at.exception, at.exception
    assert at.session_state["pt_name"] == wanted
