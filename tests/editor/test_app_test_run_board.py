"""The stepped bout's board on the test-run page: a click on a piece shows its card (traits,
locations and states by their names) and changes nothing else; a second click puts it away."""

from __future__ import annotations

from pathlib import Path

from editor_app import board_data, click_board, open_page, texts

BOARD = "tr_board"


def test_clicking_a_piece_shows_its_card_and_nothing_else_changes(app_env: Path) -> None:
    at = open_page("test_run.py")
    at.button(key="tr_start").click().run()
    at.button(key="tr_step").click().run()
    assert not at.exception, at.exception
    view = at.session_state["tr_steps"][-1]
    board = board_data(at, BOARD)
    assert sorted(board["selectable"]) == sorted(f"piece:{label}" for label in view.pieces)
    assert board["selected"] == [] and "Click a piece to see its card." in texts(at)
    label = next(iter(view.pieces))
    helot = view.pieces[label]
    steps, svg, bout = len(at.session_state["tr_steps"]), board["svg"], at.session_state["tr_stepper"].bout.snapshot()

    click_board(at, BOARD, f"piece:{label}")
    shown = texts(at)
    assert f"**{label}** — {helot.status}" in shown
    assert "Willpower" in shown and "Head" in shown  # the stats' own names, not their ids
    assert f"At: [{helot.at[0]}, {helot.at[1]}], facing {helot.facing}" in shown
    assert f"Overall condition: {helot.overall}" in shown
    assert board_data(at, BOARD)["selected"] == [f"piece:{label}"]
    # only looked at: the bout, its steps and its picture stay as they were
    assert len(at.session_state["tr_steps"]) == steps and board_data(at, BOARD)["svg"] == svg
    assert at.session_state["tr_stepper"].bout.snapshot() == bout

    click_board(at, BOARD, f"piece:{label}")
    assert f"**{label}** — " not in texts(at) and board_data(at, BOARD)["selected"] == []
