"""A barge edit: a new barge, a pillar placed by clicking its square, the count against the box,
saved into a pack, and loaded again by id in a fresh session."""

from __future__ import annotations

from pathlib import Path

from editor_app import APP, TIMEOUT, in_page_order, open_page, save_into_new_pack, texts
from streamlit.testing.v1 import AppTest

BARGE_ID = "practice_yard"


def test_barge_edit_save_and_load(app_env, content_copy: Path) -> None:
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input(BARGE_ID)
    at.button(key="bg_new").click().run()
    assert not at.exception, at.exception
    at.multiselect(key="bg_hazards").select("brazier").select("floor_spikes").run()
    at.selectbox(key="bg_type").select("pillar").run()
    at.button(key="bg_sq_3_3").click().run()
    assert not at.exception, at.exception
    assert at.button(key="bg_sq_3_3").label != "·"
    assert "**1** placed (4 in the box)" in texts(at)
    assert any("No problems" in s.value for s in at.success)

    at.selectbox(key="bg_pack").select("steady_on_three")
    at.button(key="bg_save").click().run()
    assert not at.exception, at.exception
    assert any(f"Saved barge `{BARGE_ID}`" in s.value for s in at.success), texts(at)
    saved = (content_copy / "house-rules" / "steady_on_three" / "barges.yaml").read_text()
    assert BARGE_ID in saved and "{type: pillar, at: [3, 3]}" in saved

    again = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    again.sidebar.multiselect(key="loaded_packs").select("steady_on_three").run()
    again.switch_page("views/barge_editor.py").run()
    again.selectbox(key="bg_load_id").select(BARGE_ID)
    again.button(key="bg_load").click().run()
    assert not again.exception, again.exception
    assert again.button(key="bg_sq_3_3").label == at.button(key="bg_sq_3_3").label
    assert again.button(key="bg_sq_4_4").label == "·"
    pictures = [h.value for h in again.markdown if "<svg" in h.value]
    assert pictures and 'data-type="pillar"' in pictures[0]


def test_a_barge_saved_into_a_new_pack(app_env, content_copy: Path) -> None:
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input("shipyard").run()
    at.button(key="bg_new").click().run()
    at.selectbox(key="bg_type").select("crate").run()
    at.button(key="bg_sq_4_5").click().run()
    assert at.selectbox(key="bg_pack").value == "(a new pack)"  # never an existing pack unless chosen
    save_into_new_pack(at, "shipyard_barges", "Shipyard Barges", "expansion", button="bg_save", prefix="bg")
    pack = content_copy / "expansions" / "shipyard_barges"
    assert (pack / "pack.yaml").is_file()
    assert "{type: crate, at: [4, 5]}" in (pack / "barges.yaml").read_text()
    assert at.selectbox(key="bg_pack").value == "shipyard_barges"
    assert "shipyard_barges" in at.sidebar.multiselect(key="loaded_packs").value
    # The confirmation stands by the Save button, where the eye is, not at the top of the page.
    order = in_page_order(at)
    save = next(i for i, e in enumerate(order) if getattr(e, "key", None) == "bg_save")
    saved = next(i for i, e in enumerate(order) if type(e).__name__ == "Success" and "Saved barge" in e.value)
    assert save < saved, [type(e).__name__ for e in order]


def test_a_barge_changed_on_disk_meanwhile_shows_what_keeping_mine_would_change(app_env, content_copy: Path) -> None:
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input("quarrel_deck").run()
    at.button(key="bg_new").click().run()
    at.selectbox(key="bg_type").select("crate").run()
    at.button(key="bg_sq_2_2").click().run()
    save_into_new_pack(at, "quarrel_barges", "Quarrel Barges", "expansion", button="bg_save", prefix="bg")
    barges = content_copy / "expansions" / "quarrel_barges" / "barges.yaml"
    barges.write_text(barges.read_text().replace("[2, 2]", "[2, 3]"))  # someone else moved the crate
    at.button(key="bg_sq_7_7").click().run()
    at.button(key="bg_save").click().run()
    assert not at.exception, at.exception
    assert any("changed on disk" in w.value for w in at.warning), texts(at)
    diff = next(c.value for c in at.code if c.value.startswith("--- barges.yaml (on disk)")).splitlines()
    assert any(line.startswith("-") and "[2, 3]" in line for line in diff)
    assert any(line.startswith("+") and "[7, 7]" in line for line in diff)
