"""Content browser: every item of the loaded packs, searchable and filterable by type, with its
card face (printed, to download, and as text), its script or data and the file it comes from (what
`nexus show` prints); the faces of the cards found print as A4 sheets of nine."""

from __future__ import annotations

import math

import streamlit as st
import yaml

from editor import navigation, state, widgets
from nexus_dsl.cards import CardFace, all_faces, show
from nexus_dsl.model.ruleset import thaw
from nexus_dsl.workbench import card_svg
from nexus_dsl.workbench import packs as packs_api
from nexus_dsl.workbench.highlight import highlight_html

PAGE_SIZE = 40

def matches(face: CardFace, query: str) -> bool:
    """Every word of the query appears in the id, name, text or rules lines."""
    haystack = " ".join([face.id, face.name, face.prose or "", *face.lines]).lower()
    return all(word in haystack for word in query.lower().split())


def printed_face(rules, face: CardFace, key: str) -> None:
    """The face as printed (every face its text takes), with a button downloading it."""
    drawn = card_svg.faces_of(rules, face)
    for svg in drawn:
        widgets.picture(svg)
    if len(drawn) == 1:
        st.download_button("Download face (SVG)", data=drawn[0], file_name=f"{face.id}.svg", mime="image/svg+xml",
                           key=key, on_click="ignore")
    else:  # its text continues over several faces: they download as one printable sheet
        st.download_button(f"Download faces ({len(drawn)}, printable sheet)",
                           data=lambda: card_svg.sheets_of(rules, [face]), file_name=f"{face.id}.xhtml",
                           mime="application/xhtml+xml", key=key, on_click="ignore")


def item_details(rules, face: CardFace, index: int) -> None:
    printed, text = st.columns([1, 1])
    with printed:
        printed_face(rules, face, f"browser_face_{index}")
    with text:
        widgets.card(face)
    where, action = st.columns([3, 1], vertical_alignment="center")
    where.caption(f"From `{face.origin}`")
    editor = "barge editor" if navigation.page_for(face.kind) == navigation.BARGE_EDITOR else "card editor"
    if action.button(f"Open in the {editor}", key=f"browser_open_{index}"):
        navigation.open_in_editor(face.kind, face.id)
    for shown_face, script in show(rules, face.id):
        if shown_face.kind != face.kind:
            continue
        if script:
            st.html(highlight_html(script, kinds=rules.words.kinds))
        else:
            item = rules.data.get(face.kind, {}).get(face.id)
            if item is not None:
                st.code(yaml.safe_dump(thaw(item.data), sort_keys=False, allow_unicode=True), language="yaml")


def elsewhere(query: str) -> None:
    """A search that found nothing in the loaded packs: the packs under the content root that hold
    what was asked for, each with a button that loads it."""
    holding = packs_api.packs_holding(query, state.content_root(), state.selected_packs())
    if not holding:
        st.caption("Nothing matches in the loaded packs, nor in any other pack under the content root.")
        return
    for pack, ids in holding.items():
        shown = ", ".join(f"`{ident}`" for ident in ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        text, action = st.columns([3, 1], vertical_alignment="center")
        text.info(f"Found in pack `{pack}`, which is not loaded: {shown}.")
        action.button(f"Load {pack}", key=f"browser_load_{pack}", on_click=state.add_loaded_pack, args=(pack,))


def render() -> None:
    st.title("Content browser")
    rules = widgets.require_ruleset()
    faces = all_faces(rules)
    kinds = sorted({face.kind for face in faces})
    titles = {face.kind: face.kind_title for face in faces}
    search, kind_filter = st.columns([2, 1])
    query = search.text_input("Search", key="browser_query", placeholder="id, name or rules text")
    chosen = kind_filter.multiselect("Types", kinds, key="browser_types",
                                     format_func=lambda k: titles.get(k, k))
    found = [f for f in faces if (not chosen or f.kind in chosen) and matches(f, query)]
    pages = max(1, math.ceil(len(found) / PAGE_SIZE))
    shown_page = 1
    if pages > 1:
        counter, _ = st.columns([1, 3])
        if st.session_state.get("browser_page", 1) > pages:  # a narrower search has fewer pages
            st.session_state["browser_page"] = pages
        shown_page = counter.number_input(f"Page (of {pages})", min_value=1, max_value=pages, key="browser_page")
    first = (shown_page - 1) * PAGE_SIZE
    window = found[first:first + PAGE_SIZE]
    st.caption(f"{len(found)} of {len(faces)} items"
               + (f"; {first + 1}–{first + len(window)} shown" if pages > 1 else ""))
    if not found and query.strip():
        elsewhere(query)
    if found:
        # Drawn only when clicked: the sheets of every item found take a while.
        st.download_button(f"Print faces ({widgets.counted(len(found), 'item')} found, A4 sheets of nine)",
                           data=lambda: card_svg.sheets_of(rules, found), file_name="card-faces.xhtml",
                           mime="application/xhtml+xml", key="browser_print", on_click="ignore", icon=":material/print:",
                           help="The faces of the items found, nine to an A4 page with crop marks: open the file in "
                                "a browser and print it at 100%.")
    for index, face in enumerate(window, start=first):
        title = f"{face.name} — {face.kind_title} ({face.id})"
        with st.expander(title, expanded=len(found) == 1):
            item_details(rules, face, index)


render()
