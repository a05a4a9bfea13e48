"""Barge editor: the schematic itself, drawn by clicking it (the board view component: a click places
the chosen object type on its square, a second click takes it away), with north and the starting
squares, the counts against the box, the problems the packs would find named as `nexus check`
names them and marked on their squares, the hazards the pieces bring, and saving and loading by id. A game played
without a board (NEXUS Pirates) has no barges: the page says so. Everything is
`nexus_dsl.workbench.barge_edit` and `.board_svg`."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from editor import board_view, navigation, pack_choice, state, widgets
from nexus_dsl.content.barge_checks import BOARD_SIZE
from nexus_dsl.errors import NexusError
from nexus_dsl.model.ruleset import DataItem
from nexus_dsl.workbench import barge_edit, board_svg, store

DRAFT = "bg_draft"
FINGERPRINTS = "bg_fingerprints"  # barges file -> its fingerprint when the barge was loaded from it
CONFLICT = "bg_conflict"
NOTES = "bg_notes"
KEPT = ("bg_type", "bg_pack", "bg_load_id")
BOARD = "bg_board"
ERASER = "(take away what is there)"
ALL_SQUARES = [board_svg.square_target(col, row) for row in range(1, BOARD_SIZE + 1) for col in range(1, BOARD_SIZE + 1)]


def draft() -> barge_edit.BargeDraft | None:
    return st.session_state.get(DRAFT)


def put_draft(new: barge_edit.BargeDraft) -> None:
    st.session_state[DRAFT] = new
    st.session_state["bg_name"] = new.name
    st.session_state["bg_description"] = new.description
    st.session_state["bg_hazards"] = list(new.hazards)
    st.session_state[NOTES] = []
    st.session_state.pop(CONFLICT, None)


# ---------------------------------------------------------------- callbacks
def new_barge() -> None:
    ident = (st.session_state.get("bg_new_id") or "").strip()
    if not ident:
        state.flash("error", "give the new barge an id (snake_case)")
        return
    put_draft(barge_edit.BargeDraft(id=ident, name=ident.replace("_", " ").title()))


def fingerprint_key(path: Path) -> str:
    """How the fingerprints of barges files are keyed: the file's real path."""
    return str(Path(path).resolve())


def load_barge() -> None:
    rules = state.ruleset()
    ident = st.session_state.get("bg_load_id")
    try:
        put_draft(barge_edit.load_barge(rules, ident))
    except KeyError as error:
        state.flash("error", str(error.args[0]))
        return
    for item in rules.find(ident):
        if isinstance(item, DataItem) and item.type == "barges":
            remember_fingerprint(Path(item.origin.file))
            st.session_state["bg_pack"] = item.origin.pack
    state.flash("info", f"Loaded barge `{ident}`")


def remember_fingerprint(path: Path) -> None:
    """The version of the file a barge was loaded from, read the way a save would write it back
    (confined to the content root); a file that cannot be is noted, and a save will say why."""
    try:
        opened = store.open_for_edit(path, state.content_root())
    except store.StoreError as error:
        state.flash("warning", f"The barge's file cannot be saved back: {error}")
        return
    st.session_state.setdefault(FINGERPRINTS, {})[fingerprint_key(path)] = opened.fingerprint


def click_square(current: barge_edit.BargeDraft) -> None:
    """The last click on the picture: the chosen type placed on its square, taken away when it is
    already there, or the square emptied with the eraser."""
    click = board_view.clicked(BOARD)
    square = board_svg.square_of_target(click.target) if click else None
    object_type = st.session_state.get("bg_type")
    if square is None or not object_type:
        return
    edit = current.remove(square) if object_type == ERASER else current.toggle(object_type, square)
    st.session_state[NOTES] = [edit.note] if edit.note else []


def name_woken_hazards() -> None:
    """Add to the barge's hazards those its pieces bring into play and it does not name yet."""
    current = draft()
    if current is None:
        return
    woken = [h for h in current.woken_hazards(state.ruleset()) if h not in current.hazards]
    current.hazards = current.hazards + woken
    st.session_state["bg_hazards"] = list(current.hazards)


def sync_fields() -> None:
    current = draft()
    if current is None:
        return
    current.name = st.session_state.get("bg_name", "")
    current.description = st.session_state.get("bg_description", "")
    current.hazards = list(st.session_state.get("bg_hazards", []))


def save_barge(overwrite: bool = False) -> None:
    current, root = draft(), state.content_root()
    if current is None:
        return
    try:
        pack_id = pack_choice.target("bg")
        path = barge_edit.barges_path(root, pack_id)  # confined: a symlinked barges.yaml is refused
        expected = (st.session_state.get(FINGERPRINTS, {}).get(fingerprint_key(path))
                    or store.open_for_edit(path, root).fingerprint)
        saved = barge_edit.save_barge(current, path, expected, overwrite=overwrite, content_root=root)
    except store.ConflictError as error:
        st.session_state[CONFLICT] = {"message": str(error), "diff": store.overwrite_diff(error, script=False)}
        return
    except store.InvalidContentError as error:
        state.flash("error", "Not saved: " + "; ".join(widgets.diagnostic_text(d) for d in error.diagnostics[:5]), state.AT_SAVE)
        return
    except (store.StoreError, NexusError) as error:
        state.flash("error", widgets.not_saved_text(error), state.AT_SAVE)
        return
    st.session_state.setdefault(FINGERPRINTS, {})[fingerprint_key(path)] = saved.fingerprint
    st.session_state.pop(CONFLICT, None)
    state.add_loaded_pack(pack_id)
    state.flash("success", f"Saved barge `{current.id}` into {saved.path}", state.AT_SAVE)


# ---------------------------------------------------------------- drawing
def picture(rules, current: barge_edit.BargeDraft, problems: list[barge_edit.SquareProblem]) -> None:
    """The schematic itself, every square clickable, each problem's squares tinted."""
    marks: dict[str, str] = {}
    for problem in sorted(problems, key=lambda p: p.is_error):  # an error's tint over a warning's
        for col, row in problem.squares:
            marks[board_svg.square_target(col, row)] = "problem" if problem.is_error else "warning"
    board_view.board_view(board_svg.barge_svg(current.to_data(), rules), key=BOARD, selectable=ALL_SQUARES,
                          marks=marks)
    st.caption("Click a square to place the chosen object; click it again to take it away. North is at the "
               "top; the dashed squares are the seats' starting squares.")


def problem_list(problems: list[barge_edit.SquareProblem]) -> None:
    """Errors and warnings as `nexus check` names them, each led by the square it is drawn on."""
    errors = sum(1 for p in problems if p.is_error)
    if not problems:
        st.success("No problems: the packs would accept this barge.")
        return
    st.markdown(f"**{widgets.counted(errors, 'error')}, {widgets.counted(len(problems) - errors, 'warning')}** "
                "(marked on their squares)")
    for problem in problems:
        (st.error if problem.is_error else st.warning)(problem.text())


def hazards_field(rules, current: barge_edit.BargeDraft) -> None:
    hazards = {d.id: d for d in rules.declarations("hazard")}
    st.multiselect("Hazards (in activation order)", list(hazards), key="bg_hazards", on_change=sync_fields,
                   format_func=lambda h: f"{hazards[h].name} ({h})" if h in hazards and hazards[h].name else h)
    woken = current.woken_hazards(rules)
    if woken:
        st.caption("In play through the pieces placed: " + "; ".join(
            f"{hazards[h].name or h} (by {', '.join(by)})" for h, by in woken.items()))
    if any(h not in current.hazards for h in woken):
        st.button("Name the hazards the pieces bring", on_click=name_woken_hazards, key="bg_name_woken")


def counts_table(counts: list[barge_edit.BoxCount]) -> None:
    placed = [c for c in counts if c.placed]
    if placed:
        st.markdown(" · ".join(f"{c.name}: **{c.placed}** placed ("
                               + ("no limit" if c.limit is None else f"{c.limit} in the box") + ")" for c in placed))
    else:
        st.caption("Nothing placed yet.")
    # Every type the packs define; the box's limit, when it has one (walls and fire have none).
    rows = [{"type": c.type, "name": c.name, "symbol": c.symbol, "placed": c.placed,
             "in the box": "no limit" if c.limit is None else str(c.limit),
             "left": "" if c.left is None else str(c.left),
             "over": "OVER" if c.over else ""} for c in counts]
    st.dataframe(pd.DataFrame(rows), hide_index=True)


def picker(rules) -> None:
    # One row: an existing barge to load, or the id of a new one; each button beside its field.
    existing, load, new_id, new = st.columns([3, 1, 3, 1.4], vertical_alignment="bottom")
    existing.selectbox("Barge", sorted(rules.data.get("barges", {})), key="bg_load_id")
    load.button("Load", on_click=load_barge, key="bg_load", width="stretch")
    new_id.text_input("New barge id", key="bg_new_id", placeholder="snake_case id")
    new.button("New empty barge", on_click=new_barge, key="bg_new", width="stretch")


def editor(rules, current: barge_edit.BargeDraft) -> None:
    click_square(current)  # before anything is drawn: the picture, counts and problems show the click
    types = barge_edit.placeable_types(rules)
    counts = current.counts(rules)
    symbols = {c.type: c.symbol for c in counts}
    st.subheader(f"Editing `{current.id}`")
    for key, value in (("bg_name", current.name), ("bg_description", current.description),
                       ("bg_hazards", list(current.hazards))):
        st.session_state.setdefault(key, value)  # after a visit to another page
    fields = st.columns(2)
    fields[0].text_input("Name", key="bg_name", on_change=sync_fields)
    fields[1].text_input("Description", key="bg_description", on_change=sync_fields)
    hazards_field(rules, current)
    st.selectbox("Object to place", [*types, ERASER], key="bg_type",
                 format_func=lambda t: t if t == ERASER else f"{symbols.get(t, t)} — {rules.object_flags(t).get('name') or t}")
    problems = current.square_problems(rules)
    board, side = st.columns([3, 2])
    with board:
        picture(rules, current, problems)
    with side:
        for note in st.session_state.get(NOTES, []):
            st.warning(note)
        problem_list(problems)
        st.markdown("**Against the box**")
        counts_table(counts)
    with st.expander("As YAML"):
        st.code(current.to_yaml(), language="yaml")


def save_panel() -> None:
    st.subheader("Save")
    left, right = st.columns(2, vertical_alignment="bottom")
    pack = pack_choice.chooser("bg", left, "Save into pack", help="Into the pack's barges.yaml")
    right.button("Save barge", on_click=save_barge, key="bg_save", type="primary")
    if pack == pack_choice.NEW_PACK:
        pack_choice.new_pack_fields("bg")
    state.show_flashes(state.AT_SAVE)
    conflict = st.session_state.get(CONFLICT)
    if conflict:
        st.warning(conflict["message"])
        if conflict["diff"]:
            widgets.overwrite_diff(conflict["diff"])
        st.button("Keep mine (overwrite)", on_click=save_barge, kwargs={"overwrite": True}, key="bg_keep_mine")


def render() -> None:
    st.title("Barge editor")
    rules = widgets.require_ruleset()
    if widgets.no_board(rules, "no board, so no barges to edit"):
        return
    state.keep_widgets(*KEPT)
    request = navigation.take_request(navigation.BARGE_EDITOR)
    if request:  # sent from the content browser
        st.session_state["bg_load_id"] = request["id"]
        load_barge()
    picker(rules)
    state.show_flashes()
    current = draft()
    if current is None:
        st.info("Load a barge or start a new one.")
    else:
        editor(rules, current)
        save_panel()
    state.remember_widgets(*KEPT)


render()
