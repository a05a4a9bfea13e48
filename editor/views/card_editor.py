"""Card editor: new items from a template, duplicates, or existing items opened from their file;
the script in a code editor (coloured by the grammar, checked whenever typing pauses, problems on
their lines) beside the problems and a live card preview, form fields for the data, and saving into
a pack (drafts when invalid, conflicts when the file changed on disk). Everything goes through
`nexus_dsl.workbench` (authoring, store); the code editor is `editor.code_editor`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st
import yaml

from editor import navigation, pack_choice, state, widgets
from editor.code_editor import code_editor, language_help
from nexus_dsl.cards import KIND_TITLES
from nexus_dsl.errors import NexusError
from nexus_dsl.model.ruleset import ScriptItem
from nexus_dsl.schema import load_yaml_with_positions
from nexus_dsl.workbench import authoring, store
from nexus_dsl.workbench import card_svg  # the printed face of the preview

TEXT = "ed_text"  # the text being edited (what the code editor last reported, or what the app put there)
REVISION = "ed_text_revision"  # raised whenever the app replaces TEXT, so the code editor takes it
SCRIPT_EDITOR = "ed_script"
TARGET = "ed_target"  # {"path", "fingerprint", "pack"} of the file the item was opened from or saved to
CONFLICT = "ed_conflict"
FILE = "ed_file"
PACK = pack_choice.key("ed")
NEW_PACK = pack_choice.NEW_PACK
MODES = ("New", "Duplicate", "Open")


def kind_title(rules, kind: str) -> str:
    """A kind as the picker names it: by the loaded packs' (`rules`) declaration of it (`kind`), else its title."""
    declared = rules.declaration("kind", kind) if rules is not None else None
    if declared is not None:
        return declared.name
    return KIND_TITLES.get(kind, kind.replace("_", " ").capitalize())


def items_of(rules, kind: str) -> list[str]:
    if authoring.is_script_kind(kind):
        return sorted(rules.scripts.get(kind, {}))
    return sorted(rules.data.get(authoring.DATA_KINDS[kind], {}))


def default_file(kind: str, ident: str) -> str:
    """Where a new item goes in its pack: a script file of its own, or its data type's list file."""
    if authoring.is_script_kind(kind):
        return authoring.declaration_file(kind, ident)
    return f"{authoring.DATA_KINDS[kind]}.yaml"


def set_text(text: str) -> None:
    """The app replaces the text being edited (the designer's typing arrives through `typed`)."""
    st.session_state[TEXT] = text
    st.session_state[REVISION] = st.session_state.get(REVISION, 0) + 1


def typed(text: str) -> None:
    st.session_state[TEXT] = text


def begin(kind: str, text: str, ident: str, target: dict[str, Any] | None) -> None:
    """Put an item in the editor (callbacks only: the editor is drawn after them)."""
    set_text(text)
    st.session_state[TARGET] = target
    st.session_state.pop(CONFLICT, None)
    if target and target.get("pack"):
        st.session_state[PACK] = target["pack"]
        st.session_state[FILE] = file_in_pack(Path(target["path"]), target["pack"]) or default_file(kind, ident)
    else:
        st.session_state[FILE] = default_file(kind, ident)


def file_in_pack(path: Path, pack_id: str) -> str | None:
    """`path` as a name inside its pack's folder, None when it does not lie there."""
    folder = widgets.pack_folder(pack_id)
    if folder is None:
        return None
    for base in (folder, folder.resolve()):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return None


# ---------------------------------------------------------------- starting an item
def start_new() -> None:
    kind, rules = st.session_state["ed_kind"], state.ruleset()
    ident, name = st.session_state.get("ed_new_id", ""), st.session_state.get("ed_new_name", "")
    try:
        begin(kind, authoring.template(kind, ident, name or ident.replace("_", " ").title(), rules), ident, None)
    except authoring.AuthoringError as error:
        state.flash("error", str(error))


def start_duplicate() -> None:
    kind, rules = st.session_state["ed_kind"], state.ruleset()
    source = st.session_state.get("ed_source")
    ident, name = st.session_state.get("ed_new_id", ""), st.session_state.get("ed_new_name", "")
    try:
        begin(kind, authoring.duplicate(rules, source, ident, name or ident.replace("_", " ").title()), ident, None)
    except authoring.AuthoringError as error:
        state.flash("error", str(error))


def origin_of(rules, kind: str, ident: str):
    for item in rules.find(ident):
        is_script = isinstance(item, ScriptItem)
        if is_script == authoring.is_script_kind(kind):
            return item
    return None


def resolved(file: str) -> Path:
    path = Path(file)
    return path if path.is_absolute() else (Path.cwd() / path).resolve()


def open_existing() -> None:
    kind, rules = st.session_state["ed_kind"], state.ruleset()
    ident = st.session_state.get("ed_source")
    item = origin_of(rules, kind, ident) if ident else None
    if item is None:
        state.flash("error", f"nothing to open: choose a {kind_title(rules, kind)}")
        return
    name = item.declaration.name if isinstance(item, ScriptItem) else str(item.data.get("name", ident))
    text = authoring.duplicate(rules, ident, ident, name)  # the item's own text under its own id
    path = resolved(item.origin.file)
    try:  # read the way a save writes it back: confined to the content root
        fingerprint = store.open_for_edit(path, state.content_root()).fingerprint
    except store.StoreError as error:
        state.flash("error", f"`{ident}` cannot be edited in its file: {error}")
        return
    begin(kind, text, ident, {"path": str(path), "fingerprint": fingerprint, "pack": item.origin.pack})


def source_picker(rules, kind: str) -> None:
    mode = st.radio("Start from", MODES, horizontal=True, key="ed_mode")
    # Only the fields the chosen way of starting needs, side by side.
    fields = {"New": ("id", "name"), "Duplicate": ("source", "id", "name"), "Open": ("source",)}[mode]
    columns = dict(zip(fields, st.columns(3)))
    if "source" in columns:
        columns["source"].selectbox(kind_title(rules, kind), items_of(rules, kind), key="ed_source")
    if "id" in columns:
        columns["id"].text_input("New id", key="ed_new_id", placeholder="snake_case id")
        columns["name"].text_input("New name", key="ed_new_name")
    action = {"New": ("Start from the template", start_new), "Duplicate": ("Duplicate", start_duplicate),
              "Open": ("Open", open_existing)}[mode]
    st.button(action[0], on_click=action[1], key="ed_start", type="primary")


# ---------------------------------------------------------------- form fields
def _field_key(name: str, version: int) -> str:
    return f"ed_field_{name}_{version}"


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return yaml.safe_dump(value, default_flow_style=True, width=10**6).strip().removesuffix("...").strip()


def apply_form(kind: str, names: list[str], originals: dict[str, Any], version: int) -> None:
    values: dict[str, Any] = {}
    for name in names:
        typed = st.session_state.get(_field_key(name, version), "")
        if name == "tags" and authoring.is_script_kind(kind):
            values[name] = [t.strip() for t in typed.split(",") if t.strip()]
        elif isinstance(originals.get(name), str) or authoring.is_script_kind(kind):
            values[name] = typed
        else:
            try:
                values[name] = load_yaml_with_positions(typed, name)[0] if typed.strip() else None
            except NexusError as error:
                problem = error.diagnostics[0]
                state.flash("error", f"{name}: not readable YAML ({problem.message}, column {problem.column})")
                return
    try:
        set_text(authoring.apply_fields(kind, st.session_state.get(TEXT, ""), values))
    except (authoring.AuthoringError, NexusError) as error:
        state.flash("error", f"the form could not be applied: {error}")


def form_fields(kind: str, text: str) -> None:
    try:
        fields = authoring.fields_of(kind, text)
    except (authoring.AuthoringError, NexusError):
        st.info("Fix the script to edit it with the form.")
        return
    version = abs(hash(text))
    names = list(fields)
    with st.form(f"ed_form_{version}", border=True):
        for name in names:
            value = fields[name]
            shown = ", ".join(value) if name == "tags" and isinstance(value, list) else _as_text(value)
            if name in ("text", "description", "flavor") and len(shown) > 60:
                st.text_area(name, value=shown, key=_field_key(name, version), height=90)
            else:
                st.text_input(name, value=shown, key=_field_key(name, version))
        st.form_submit_button("Apply the fields to the script", on_click=apply_form,
                              args=(kind, names, fields, version))


# ---------------------------------------------------------------- saving
def _target_path(root: Path) -> tuple[str, Path]:
    """The pack (created when asked) and the file to save into; StoreError when refused."""
    pack_id = pack_choice.target("ed")
    return pack_id, store.safe_path(root, pack_id, st.session_state.get(FILE, ""))


def _expected(path: Path, root: Path) -> str:
    """The version of `path` the text was opened from (the same file however its path was
    written: the content root may be given through a link), else the version on disk now."""
    target = st.session_state.get(TARGET) or {}
    if target.get("path") and Path(target["path"]).resolve() == path.resolve():
        return target["fingerprint"]
    return store.open_for_edit(path, root).fingerprint


def save_item(overwrite: bool = False) -> None:
    kind, text, root = st.session_state["ed_kind"], st.session_state.get(TEXT, ""), state.content_root()
    try:
        pack_id, path = _target_path(root)
        writer = store.save_declaration if authoring.is_script_kind(kind) else store.save_data_item
        saved = writer(path, text, _expected(path, root), overwrite=overwrite, content_root=root)
    except store.ConflictError as error:
        st.session_state[CONFLICT] = {"path": str(error.path), "disk_text": error.disk_text, "message": str(error),
                                      "diff": store.overwrite_diff(error, authoring.is_script_kind(kind))}
        return
    except store.InvalidContentError as error:
        details = "; ".join(widgets.diagnostic_text(d) for d in error.diagnostics[:5])
        state.flash("error", f"Not saved: {details}. Fix it, or save it as a draft.", state.AT_SAVE)
        return
    except (store.StoreError, NexusError) as error:
        state.flash("error", widgets.not_saved_text(error), state.AT_SAVE)
        return
    st.session_state[TARGET] = {"path": str(saved.path), "fingerprint": saved.fingerprint, "pack": pack_id}
    st.session_state.pop(CONFLICT, None)
    state.add_loaded_pack(pack_id)
    state.flash("success", f"Saved into pack `{pack_id}`: {saved.path}", state.AT_SAVE)


def save_as_draft() -> None:
    text, root = st.session_state.get(TEXT, ""), state.content_root()
    try:
        _, path = _target_path(root)
        draft = store.save_draft(path, text, content_root=root)
    except store.StoreError as error:
        state.flash("error", widgets.not_saved_text(error, "Draft not saved"), state.AT_SAVE)
        return
    state.flash("warning", f"DRAFT saved (never loaded until saved properly): {draft}", state.AT_SAVE)


def chosen_path() -> Path | None:
    """The file the save panel points at, when its pack exists and the name is usable."""
    pack_id = st.session_state.get(PACK)
    if pack_id in (None, NEW_PACK):
        return None
    try:
        return store.safe_path(state.content_root(), pack_id, st.session_state.get(FILE, ""))
    except store.StoreError:
        return None


def draft_text(path: Path) -> str | None:
    """The draft of `path`, read the way it is written (confined to the content root); None when
    there is none or it cannot be read."""
    try:
        return store.load_draft(path, state.content_root())
    except store.StoreError:
        return None


def open_draft(path: str) -> None:
    draft = draft_text(Path(path))
    if draft is not None:
        set_text(draft)
        state.flash("warning", f"Opened the DRAFT {store.draft_path(Path(path))}; it is not loaded until saved.")


def draft_notice() -> None:
    path = chosen_path()
    if path is None or draft_text(path) is None:
        return
    left, right = st.columns([3, 1])
    left.warning(f"There is an unsaved DRAFT of this file: {store.draft_path(path).name}")
    right.button("Open the draft", on_click=open_draft, args=(str(path),), key="ed_open_draft")


def reload_from_disk() -> None:
    kind, conflict = st.session_state["ed_kind"], st.session_state.pop(CONFLICT, None) or {}
    path = Path(conflict.get("path", ""))
    rules = state.ruleset()
    try:
        ident = authoring.fields_of(kind, st.session_state.get(TEXT, "")).get("id")
    except (authoring.AuthoringError, NexusError):
        ident = None
    item = origin_of(rules, kind, ident) if rules is not None and ident else None
    try:
        fingerprint = store.open_for_edit(path, state.content_root()).fingerprint
    except store.StoreError as error:
        st.session_state[CONFLICT] = conflict
        state.flash("error", f"The file cannot be reloaded: {error}")
        return
    target = {"path": str(path), "fingerprint": fingerprint, "pack": st.session_state.get(PACK)}
    if item is None:
        st.session_state[TARGET] = target
        state.flash("warning", "The item is no longer on disk; your text is kept.")
        return
    name = item.declaration.name if isinstance(item, ScriptItem) else str(item.data.get("name", ident))
    set_text(authoring.duplicate(rules, ident, ident, name))
    st.session_state[TARGET] = target
    state.flash("info", f"Reloaded {ident} from {path}")


def conflict_panel() -> None:
    conflict = st.session_state.get(CONFLICT)
    if not conflict:
        return
    st.warning(conflict["message"])
    if conflict.get("diff"):
        widgets.overwrite_diff(conflict["diff"])
    if conflict.get("disk_text") is not None:
        with st.expander("The whole version on disk"):
            st.code(conflict["disk_text"], language=None)
    left, right = st.columns(2)
    left.button("Reload from disk", on_click=reload_from_disk, key="ed_reload")
    right.button("Keep mine (overwrite)", on_click=save_item, kwargs={"overwrite": True}, key="ed_keep_mine")


def save_panel(valid: bool) -> None:
    st.subheader("Save")
    columns = st.columns([1, 1])
    pack = pack_choice.chooser("ed", columns[0])
    columns[1].text_input("File in the pack", key=FILE, help="`.nexus` for scripts, `.yaml` for data lists")
    if pack == NEW_PACK:
        pack_choice.new_pack_fields("ed")
    buttons = st.columns(2)
    buttons[0].button("Save", on_click=save_item, key="ed_save", type="primary", disabled=not valid,
                      help=None if valid else "Fix the errors first, or save a draft.")
    buttons[1].button("Save as draft", on_click=save_as_draft, key="ed_save_draft",
                      help="Keeps unfinished work beside the file as `<name>.draft`; the loader never reads it.")
    if not valid:
        st.caption("The item has errors: it can only be kept as a draft for now.")
    state.show_flashes(state.AT_SAVE)
    draft_notice()
    conflict_panel()


# ---------------------------------------------------------------- the page
def editor_body(rules, kind: str) -> None:
    text = st.session_state.get(TEXT, "")
    check = authoring.checked_item(kind, text, rules)
    target = st.session_state.get(TARGET)
    if target:
        st.caption(f"Editing `{target['path']}` (pack `{target['pack']}`)")
    else:
        st.caption("A new item, not saved yet")
    # The editor takes the page's width, so long lines and their problems are seen whole.
    script_kind = authoring.is_script_kind(kind)
    code_editor(text, key=SCRIPT_EDITOR, revision=st.session_state.get(REVISION, 0),
                language="nexus" if script_kind else "yaml", label="Rule script" if script_kind else "Data (YAML)",
                diagnostics=check.diagnostics, on_change=typed, kinds=tuple(rules.words.kinds),
                word_help=language_help(rules) if script_kind else None)
    script, verdict = st.columns([3, 2])
    with script:
        with st.expander("Fields", expanded=False):
            form_fields(kind, text)
    with verdict:
        if check.ok:
            st.success(f"Valid {kind_title(rules, kind)}" + (f": `{check.ident}`" if check.ident else ""))
        else:
            st.markdown(f"**{widgets.counted(len(check.errors), 'problem')}**")
        widgets.show_diagnostics(check.diagnostics)
        st.markdown("**Card preview**")
        if check.face is not None:
            # The printed face (at its printed size), then the same words as text.
            drawn = card_svg.faces_of(rules, check.face)
            for svg in drawn:
                widgets.picture(svg)
            st.download_button("Download face (SVG)", data=drawn[0], file_name=f"{check.face.id}.svg",
                               mime="image/svg+xml", key="ed_face_download", on_click="ignore",
                               help=None if len(drawn) == 1 else "The first of its faces: the content browser "
                                                                 "prints them all.")
            widgets.card(check.face, check.flavor)
        else:
            st.info("The preview appears once the item is valid.")
    save_panel(check.ok)


KEPT = ("ed_kind", FILE, PACK)  # TEXT is no widget's: it stays by itself


def take_open_request() -> None:
    """An item the content browser sent here: shown as if chosen and opened here."""
    request = navigation.take_request(navigation.CARD_EDITOR)
    if request:
        st.session_state.update({"ed_kind": request["kind"], "ed_mode": "Open", "ed_source": request["id"]})
        open_existing()


def render() -> None:
    st.title("Card editor")
    rules = widgets.require_ruleset()
    state.keep_widgets(*KEPT)
    take_open_request()
    # The language's kinds, those the loaded packs declare (the base game's influence cards...) and the data kinds.
    kind = st.selectbox("Content type", authoring.kinds_of(rules), key="ed_kind",
                        format_func=lambda choice: kind_title(rules, choice))
    source_picker(rules, kind)
    state.show_flashes()
    if not st.session_state.get(TEXT):
        st.info("Start a new item from a template, duplicate one, or open an existing one.")
    else:
        editor_body(rules, kind)
    state.remember_widgets(*KEPT)


render()
