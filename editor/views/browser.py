"""Content browser: every item of the loaded packs, searchable and filterable by type, with its
card face, its script or data and the file it comes from (what `nexus show` prints)."""

from __future__ import annotations


import streamlit as st
import yaml

from editor import widgets
from nexus_dsl.cards import KIND_TITLES, CardFace, all_faces, show
from nexus_dsl.content.ruleset import thaw

PAGE_SIZE = 40




def matches(face: CardFace, query: str) -> bool:
    """Every word of the query appears in the id, name, text or rules lines."""
    haystack = " ".join([face.id, face.name, face.prose or "", *face.lines]).lower()
    return all(word in haystack for word in query.lower().split())


def item_details(rules, face: CardFace) -> None:
    widgets.card(face)
    st.caption(f"From `{face.origin}`")
    for shown_face, script in show(rules, face.id):
        if shown_face.kind != face.kind:
            continue
        if script:
            st.code(script, language=None)
        else:
            item = rules.data.get(face.kind, {}).get(face.id)
            if item is not None:
                st.code(yaml.safe_dump(thaw(item.data), sort_keys=False, allow_unicode=True), language="yaml")


def render() -> None:
    st.title("Content browser")
    rules = widgets.require_ruleset()
    faces = all_faces(rules)
    kinds = sorted({face.kind for face in faces})
    search, kind_filter = st.columns([2, 1])
    query = search.text_input("Search", key="browser_query", placeholder="id, name or rules text")
    chosen = kind_filter.multiselect("Types", kinds, key="browser_types",
                                     format_func=lambda k: KIND_TITLES.get(k, k))
    found = [f for f in faces if (not chosen or f.kind in chosen) and matches(f, query)]
    st.caption(f"{len(found)} of {len(faces)} items" + (f"; the first {PAGE_SIZE} shown" if len(found) > PAGE_SIZE else ""))
    for face in found[:PAGE_SIZE]:
        title = f"{face.name} — {KIND_TITLES.get(face.kind, face.kind)} ({face.id})"
        with st.expander(title, expanded=len(found) == 1):
            item_details(rules, face)


render()
