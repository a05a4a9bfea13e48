"""The board view component, headless: what the page hands the picture, and clicks reaching the
page once each (AppTest cannot run the JavaScript: a click is put where its callback puts it)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from editor_app import board_data, click_board


def board_page() -> None:
    import streamlit as st

    from editor.board_view import board_view, clicked

    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><rect data-target="sq:1,1"/><rect data-target="sq:2,1"/>'
           '<g data-target="piece:red"/></svg>')
    click = clicked("demo")
    st.session_state.setdefault("seen", [])
    if click is not None:
        st.session_state["seen"].append(f"{click.target}#{click.seq}")
    board_view(svg, key="demo", selectable=["sq:1,1", "piece:red"], selected=["piece:red"],
               marks={"sq:2,1": "problem"})
    st.markdown("seen: " + (", ".join(st.session_state["seen"]) or "nothing"))


def seen(at: AppTest) -> str:
    return at.markdown[0].value


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_function(board_page, default_timeout=30)
    app.run()
    assert not app.exception, app.exception
    return app


def test_the_page_hands_the_picture_its_targets_selection_and_marks(at: AppTest) -> None:
    shown = board_data(at, "demo")
    assert 'data-target="sq:2,1"' in shown["svg"]
    assert shown["selectable"] == ["sq:1,1", "piece:red"] and shown["selected"] == ["piece:red"]
    assert shown["marks"] == {"sq:2,1": "problem"} and shown["seq"] == 0
    assert seen(at) == "seen: nothing"


def test_each_click_reaches_the_page_once_even_the_same_square_twice(at: AppTest) -> None:
    click_board(at, "demo", "sq:1,1")
    assert seen(at) == "seen: sq:1,1#1"
    at.run()  # a rerun without a click hands nothing new
    assert seen(at) == "seen: sq:1,1#1"
    assert board_data(at, "demo")["seq"] == 1  # the browser numbers on from the last click
    click_board(at, "demo", "sq:1,1")
    click_board(at, "demo", "piece:red")
    assert seen(at) == "seen: sq:1,1#1, sq:1,1#2, piece:red#3"


def test_a_target_that_is_not_selectable_cannot_be_clicked(at: AppTest) -> None:
    with pytest.raises(AssertionError, match="not clickable"):
        click_board(at, "demo", "sq:2,1")


def test_an_unknown_mark_is_refused() -> None:
    def page() -> None:
        from editor.board_view import board_view

        board_view("<svg/>", key="b", marks={"sq:1,1": "purple"})

    app = AppTest.from_function(page, default_timeout=30)
    app.run()
    assert app.exception and "unknown board mark 'purple'" in app.exception[0].message
