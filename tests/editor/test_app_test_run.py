"""Stepping through one bout on the test-run page: "Run to the end" keeps every step, numbered as
Step would number them, and each step's dice say whose they were and what a location die meant."""

from __future__ import annotations

from pathlib import Path

from editor_app import open_page


def test_run_to_the_end_keeps_every_step_and_the_dice_say_whose_and_what(app_env: Path) -> None:
    at = open_page("test_run.py")
    at.button(key="tr_start").click().run()
    at.button(key="tr_step").click().run()
    at.button(key="tr_finish").click().run()
    assert not at.exception, at.exception
    steps = at.session_state["tr_steps"]
    assert len(steps) > 10 and [view.index for view in steps] == list(range(1, len(steps) + 1))
    assert at.subheader[0].value.startswith(f"Step {len(steps)}: ")
    dice = next(d.value for d in at.dataframe if "rolled" in d.value.columns)
    assert list(dice.columns) == ["whose", "for", "d", "rolled", "means", "in"]


def test_start_plays_the_settings_changed_in_the_same_run_as_its_click(app_env: Path) -> None:
    """A seed typed and a card stacked just before Start is clicked reach the server in the run of
    the click: the bout started is the one they set, not the one the page drew before."""
    at = open_page("test_run.py")
    assert at.number_input(key="tr_seed").value != 41
    at.number_input(key="tr_seed").set_value(41)
    at.multiselect(key="tr_stack").select("fan_favourite")
    at.button(key="tr_start").click().run()
    assert not at.exception, at.exception
    settings = at.session_state["tr_stepper"].settings
    assert settings.seed == 41 and settings.stack_turning_points == ("fan_favourite",)
    assert any(info.value == "Seed 41 set up; press Step." for info in at.info)
