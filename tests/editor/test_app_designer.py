"""The designer's flow: a new influence card with a typo, its positioned error, the fix, saving it
into a new pack, finding it in the content browser, and dealing it into a test run."""

from __future__ import annotations

from pathlib import Path

from editor_app import board_data, code_editor_data, open_page, save_into_new_pack, script_text, texts, type_script
from nexus_dsl.workbench import authoring
from nexus_dsl.workbench.authoring import KINDS

CARD_ID = "crowd_bribe"


def _error_texts(at) -> list[str]:
    return [e.value for e in at.error]


def write_card(at, typo: bool) -> None:
    text = script_text(at)
    if typo:
        text = text.replace("slide_roll attack", "slde_roll attack")
    else:
        text = text.replace("slde_roll attack", "slide_roll attack")
    type_script(at, text)


def test_designer_flow(app_env, content_copy: Path) -> None:
    at = open_page("card_editor.py")
    at.selectbox(key="ed_kind").select("influence").run()
    at.radio(key="ed_mode").set_value("New").run()
    at.text_input(key="ed_new_id").input(CARD_ID)
    at.text_input(key="ed_new_name").input("Crowd Bribe")
    at.button(key="ed_start").click().run()
    assert not at.exception, at.exception
    assert f"influence {CARD_ID}" in script_text(at)
    editor = code_editor_data(at)
    assert editor["text"] == script_text(at) and editor["lexer"]["language"] == "nexus"
    started = editor["revision"]

    write_card(at, typo=True)
    errors = _error_texts(at)
    assert any("line 10, column 9" in e and "slde_roll" in e for e in errors), errors
    assert at.button(key="ed_save").disabled
    # The code editor is handed the problem at its place (and keeps the designer's text: same revision).
    editor = code_editor_data(at)
    assert editor["revision"] == started and "slde_roll" in editor["text"]
    assert [(e["line"], e["column"], e["severity"]) for e in editor["errors"]] == [(10, 9, "error")]
    assert "did you mean `slide_roll`" in editor["errors"][0]["message"]

    # Invalid work is kept as a draft, in a new pack made for it.
    save_into_new_pack(at, "bribes_galore", "Bribes Galore", "house_rules", button="ed_save_draft")
    draft = content_copy / "house-rules" / "bribes_galore" / "influence" / f"{CARD_ID}.nexus.draft"
    assert draft.is_file() and "slde_roll" in draft.read_text()
    assert any("DRAFT" in w.value for w in at.warning)
    assert at.selectbox(key="ed_pack").value == "bribes_galore"
    assert at.button(key="ed_open_draft")  # the draft is announced beside the save buttons

    write_card(at, typo=False)
    assert not _error_texts(at)
    assert any("Valid" in s.value for s in at.success)
    assert "nexus-card" in texts(at)  # the live preview
    at.button(key="ed_save").click().run()
    assert not at.exception, at.exception
    assert any("Saved into pack `bribes_galore`" in s.value for s in at.success), texts(at)
    saved = content_copy / "house-rules" / "bribes_galore" / "influence" / f"{CARD_ID}.nexus"
    assert saved.is_file()
    assert "bribes_galore" in at.sidebar.multiselect(key="loaded_packs").value

    # Someone changes the file on disk: saving again shows the conflict; "keep mine" overwrites.
    saved.write_text(saved.read_text() + "\n# a note from elsewhere\n")
    type_script(at, script_text(at).replace("bribe_bonus = +SDS", "bribe_bonus = +2SDS"))
    at.button(key="ed_save").click().run()
    assert any("changed on disk" in w.value for w in at.warning), texts(at)
    at.button(key="ed_keep_mine").click().run()
    assert not at.exception, at.exception
    assert "+2SDS" in saved.read_text() and "a note from elsewhere" in saved.read_text()

    # Again, and this time take the version on disk.
    saved.write_text(saved.read_text().replace("+2SDS", "+3SDS"))
    type_script(at, script_text(at).replace("One line of colour", "A line"))
    at.button(key="ed_save").click().run()
    assert any("changed on disk" in w.value for w in at.warning), texts(at)
    # What keeping mine would change, as a diff: their +3SDS out, my line and +2SDS in.
    diff = next(c.value for c in at.code if c.value.startswith(f"--- {CARD_ID}.nexus (on disk)"))
    assert "-" in diff and any(line.startswith("-") and "+3SDS" in line for line in diff.splitlines())
    assert any(line.startswith("+") and "A line" in line for line in diff.splitlines())
    at.button(key="ed_reload").click().run()
    assert not at.exception, at.exception
    assert "+3SDS" in script_text(at)
    assert "A line" not in script_text(at)
    # Reloading replaced the text, so the code editor is told to take it (a new revision).
    assert code_editor_data(at)["revision"] > started and "+3SDS" in code_editor_data(at)["text"]

    at.switch_page("views/browser.py").run()
    at.text_input(key="browser_query").input(CARD_ID).run()
    assert not at.exception, at.exception
    assert any(CARD_ID in e.label for e in at.expander)
    assert f"house-rules/bribes_galore/influence/{CARD_ID}.nexus" in texts(at)

    # Deal it into blue's hand and step through the bout.
    at.switch_page("views/test_run.py").run()
    assert not at.exception, at.exception
    at.selectbox(key="tr_deal_to").select("blue")
    at.multiselect(key="tr_deal_cards").select(CARD_ID).run()
    assert not at.exception, at.exception
    at.button(key="tr_start").click().run()
    assert not at.exception, at.exception
    at.button(key="tr_step").click().run()
    assert not at.exception, at.exception
    first = texts(at)
    assert "Step 1" in first
    conditions = next(d.value for d in at.dataframe if "overall" in d.value.columns)
    assert list(conditions["helot"]) == ["red", "blue"] and "head" in conditions.columns
    assert all(conditions["overall"] > 0)
    helots = next(d.value for d in at.dataframe if "influence" in d.value.columns)
    blue = helots[helots["helot"] == "blue"].iloc[0]
    assert CARD_ID in blue["influence"], blue["influence"]
    for _ in range(3):
        at.button(key="tr_step").click().run()
        assert not at.exception, at.exception
    assert "Step 4" in texts(at)
    assert "<svg" in board_data(at, "tr_board")["svg"], "the board is drawn"

    # Replaying the seed plays the same first step.
    first_lines = at.session_state["tr_steps"][0].lines
    at.button(key="tr_start").click().run()
    at.button(key="tr_step").click().run()
    assert at.session_state["tr_steps"][0].lines == first_lines


def test_every_kind_starts_from_a_valid_template(app_env) -> None:
    at = open_page("card_editor.py")
    for kind in KINDS:
        at.selectbox(key="ed_kind").set_value(kind).run()
        at.radio(key="ed_mode").set_value("New").run()
        at.text_input(key="ed_new_id").input(f"new_{kind}")
        at.button(key="ed_start").click().run()
        assert not at.exception, (kind, at.exception)
        assert not _error_texts(at), (kind, _error_texts(at))
        assert "nexus-card" in texts(at), kind
        assert any("Apply" in b.label for b in at.button), kind  # the form's fields
        language = "nexus" if authoring.is_script_kind(kind) else "yaml"
        assert code_editor_data(at)["lexer"]["language"] == language, kind


def test_form_fields_write_into_the_text(app_env) -> None:
    at = open_page("card_editor.py")
    for kind, new_name in (("influence", "Grease the Ref"), ("lanista", "Oily Magistrate")):
        at.selectbox(key="ed_kind").set_value(kind).run()
        at.radio(key="ed_mode").set_value("New").run()
        at.text_input(key="ed_new_id").input(f"form_{kind}")
        at.button(key="ed_start").click().run()
        next(t for t in at.text_input if t.label == "name").input(new_name)
        before = code_editor_data(at)["revision"]
        next(b for b in at.button if "Apply" in b.label).click().run()
        assert not at.exception, at.exception
        assert new_name in script_text(at), kind
        assert code_editor_data(at)["revision"] > before and new_name in code_editor_data(at)["text"], kind
        assert not _error_texts(at), _error_texts(at)
