"""A barge edit: a new barge, a pillar placed by clicking its square on the picture, the count
against the box, problems marked on their squares and named as `nexus check` names them, saved into
a pack, and loaded again by id in a fresh session."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from editor_app import APP, TIMEOUT, board_data, click_board, in_page_order, open_page, save_into_new_pack, texts
from streamlit.testing.v1 import AppTest

BARGE_ID = "practice_yard"
BOARD = "bg_board"
SVG = "{http://www.w3.org/2000/svg}"


def objects_drawn(at: AppTest) -> dict[tuple[int, int], str]:
    """The objects on the picture the page hands the board view: square -> type."""
    root = ET.fromstring(board_data(at, BOARD)["svg"])
    return {(int(g.get("data-col")), int(g.get("data-row"))): g.get("data-type")
            for g in root.iter(f"{SVG}g") if g.get("class") == "object"}


def click_square(at: AppTest, col: int, row: int) -> None:
    click_board(at, BOARD, f"sq:{col},{row}")


def test_barge_edit_save_and_load(app_env, content_copy: Path) -> None:
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input(BARGE_ID)
    at.button(key="bg_new").click().run()
    assert not at.exception, at.exception
    at.multiselect(key="bg_hazards").select("brazier").select("floor_spikes").run()
    at.selectbox(key="bg_type").select("pillar").run()
    click_square(at, 3, 3)
    assert objects_drawn(at) == {(3, 3): "pillar"}
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
    assert objects_drawn(again) == {(3, 3): "pillar"}


def test_a_barge_saved_into_a_new_pack(app_env, content_copy: Path) -> None:
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input("shipyard").run()
    at.button(key="bg_new").click().run()
    at.selectbox(key="bg_type").select("crate").run()
    click_square(at, 4, 5)
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
    click_square(at, 2, 2)
    save_into_new_pack(at, "quarrel_barges", "Quarrel Barges", "expansion", button="bg_save", prefix="bg")
    barges = content_copy / "expansions" / "quarrel_barges" / "barges.yaml"
    barges.write_text(barges.read_text().replace("[2, 2]", "[2, 3]"))  # someone else moved the crate
    click_square(at, 7, 7)
    at.button(key="bg_save").click().run()
    assert not at.exception, at.exception
    assert any("changed on disk" in w.value for w in at.warning), texts(at)
    diff = next(c.value for c in at.code if c.value.startswith("--- barges.yaml (on disk)")).splitlines()
    assert any(line.startswith("-") and "[2, 3]" in line for line in diff)
    assert any(line.startswith("+") and "[7, 7]" in line for line in diff)


def test_clicking_the_picture_places_replaces_and_takes_away(app_env) -> None:
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input("click_deck").run()
    at.button(key="bg_new").click().run()
    assert board_data(at, BOARD)["selectable"] == [f"sq:{c},{r}" for r in range(1, 9) for c in range(1, 9)]
    at.selectbox(key="bg_type").select("crate").run()
    click_square(at, 4, 4)
    click_square(at, 5, 4)
    assert objects_drawn(at) == {(4, 4): "crate", (5, 4): "crate"}
    assert "Crate: **2** placed (4 in the box)" in texts(at)
    click_square(at, 4, 4)  # the same type again: taken away
    assert objects_drawn(at) == {(5, 4): "crate"}
    at.selectbox(key="bg_type").select("pillar").run()
    click_square(at, 5, 4)  # another type: replaced
    assert objects_drawn(at) == {(5, 4): "pillar"}
    at.selectbox(key="bg_type").select("(take away what is there)").run()
    click_square(at, 5, 4)
    click_square(at, 6, 6)  # an empty square stays empty
    assert objects_drawn(at) == {}
    assert "Nothing placed yet." in texts(at)


def test_problems_are_marked_on_their_squares_and_named_as_the_cli_names_them(app_env) -> None:
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input("crowded_deck").run()
    at.button(key="bg_new").click().run()
    at.multiselect(key="bg_hazards").select("brazier").select("crate").run()
    at.selectbox(key="bg_type").select("pillar").run()
    assert board_data(at, BOARD)["marks"] == {}
    click_square(at, 1, 8)  # the south seat's starting square
    assert board_data(at, BOARD)["marks"] == {"sq:1,8": "problem"}
    errors = [e.value for e in at.error]
    assert any(e.startswith("[1, 8]: error: barge `crowded_deck` places `pillar` on [1, 8], the south seat's "
                            "starting square") and e.endswith("[content/barge_start_occupied]") for e in errors), errors
    assert any("south seat's starting square" in w.value for w in at.warning)  # the note on the click
    for col, row in [(2, 2), (3, 3), (4, 4), (5, 5)]:
        click_square(at, col, row)
    assert board_data(at, BOARD)["marks"] == {"sq:1,8": "problem", "sq:5,5": "problem"}
    assert any(e.startswith("[5, 5]: error: barge `crowded_deck` places 5 `pillar` but the box holds 4")
               and "[content/barge_over_supply]" in e for e in (x.value for x in at.error))
    assert "**2 errors, 0 warnings**" in texts(at)
    click_square(at, 1, 8)  # taken away: its problem and its mark go
    click_square(at, 5, 5)
    assert board_data(at, BOARD)["marks"] == {}
    assert any("No problems" in s.value for s in at.success)


def test_the_hazards_the_pieces_bring_are_named_and_can_be_added(app_env) -> None:
    at = open_page("barge_editor.py")
    at.text_input(key="bg_new_id").input("hot_deck").run()
    at.button(key="bg_new").click().run()
    assert at.multiselect(key="bg_hazards").options == ["Brazier (brazier)", "Crates (crate)", "Floor Saws (floor_saw)",
                                                        "Floor Spikes (floor_spikes)",
                                                        "Pulled into the Hazard (pulled_into_hazard)"]
    at.selectbox(key="bg_type").select("brazier").run()
    click_square(at, 4, 1)
    assert "In play through the pieces placed: Brazier (by brazier)" in texts(at)
    assert any(w.value.startswith("the barge: warning: barge `hot_deck` names 0 hazard types") for w in at.warning)
    at.button(key="bg_name_woken").click().run()
    assert at.multiselect(key="bg_hazards").value == ["brazier"]
    assert not [b for b in at.button if b.key == "bg_name_woken"]
    assert any(w.value.startswith("the barge: warning: barge `hot_deck` names 1 hazard type") for w in at.warning)
