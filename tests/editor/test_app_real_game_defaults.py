"""The test run and the playtest play the real game unless told otherwise: each helot's motivation and
lanista drawn with the bout's dice, and a barge the d8 picks; "(none)" and "(empty barge)" are still
offered, and a drawn bout is the one the seed gives every time."""

from __future__ import annotations

from pathlib import Path

from editor_app import open_page

from nexus_dsl import cached_ruleset


def test_the_test_run_draws_motivations_lanistas_and_the_barge_by_default(app_env: Path) -> None:
    at = open_page("test_run.py")
    assert at.selectbox(key="tr_barge").value == "random"
    for index in range(2):
        for what in ("motivation", "lanista"):
            box = at.selectbox(key=f"tr_{what}_{index}")
            assert box.value == "random" and box.options[:2] == ["random", "(none)"]
    assert at.selectbox(key="tr_barge").options[:2] == ["random", "(empty barge)"]
    at.button(key="tr_start").click().run()
    assert not at.exception, at.exception
    bout = at.session_state["tr_stepper"].bout
    base = cached_ruleset(("base",))
    pieces = list(bout.state.pieces.values())
    assert all(p.role in base.data["motivations"] and p.profile in base.data["lanistas"] for p in pieces)
    assert bout.state.meta["layout"] in base.data["barges"]
    drawn = [(p.role, p.profile) for p in pieces]
    at.button(key="tr_start").click().run()  # the same seed again: the same draw
    assert [(p.role, p.profile) for p in at.session_state["tr_stepper"].bout.state.pieces.values()] == drawn


def test_the_playtest_draws_them_too(app_env: Path) -> None:
    at = open_page("playtest.py")
    assert at.selectbox(key="pt_barge").value == "random"
    assert at.selectbox(key="pt_motivation_0").value == "random" and at.selectbox(key="pt_lanista_1").value == "random"
    at.text_input(key="pt_new_name").input("drawn")
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    session = at.session_state["pt_session"]
    assert session.settings.motivations == ("random", "random") and session.settings.barge == "random"
    base = cached_ruleset(("base",))
    assert all(p.role in base.data["motivations"] for p in session.bout.state.pieces.values())


def test_the_setting_dropdowns_show_names_beside_ids(app_env: Path) -> None:
    at = open_page("test_run.py")
    shown = at.selectbox(key="tr_motivation_0")
    base = cached_ruleset(("base",))
    hoarder = base.data["motivations"]["hoarder"].data["name"]
    assert shown.format_func("hoarder") == f"{hoarder} (hoarder)" and shown.format_func("random") == "random"
    assert at.multiselect(key="tr_stack").format_func("crowd_riot").endswith("(crowd_riot)")
    assert at.selectbox(key="tr_barge").format_func("(empty barge)") == "(empty barge)"
