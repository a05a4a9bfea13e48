"""Going from one page to another with something to open there: the content browser's "Open in the
editor" buttons. The request waits in Session State until the target page takes it, before it
draws its widgets (so it can set them)."""

from __future__ import annotations

import streamlit as st

from nexus_dsl.workbench import authoring

REQUEST = "open_request"
CARD_EDITOR = "views/card_editor.py"
BARGE_EDITOR = "views/barge_editor.py"
# Content browser kinds are the loader's: data items by their list's name (`lanistas`).
_EDITOR_KIND = {data_type: kind for kind, data_type in authoring.DATA_KINDS.items()}


def editor_kind(browser_kind: str) -> str:
    """The card editor's kind of an item the browser lists (`lanistas` -> `lanista`)."""
    return _EDITOR_KIND.get(browser_kind, browser_kind)


def page_for(browser_kind: str) -> str:
    return BARGE_EDITOR if editor_kind(browser_kind) == "barge" else CARD_EDITOR


def open_in_editor(browser_kind: str, ident: str) -> None:
    """Leave for the editor of this item, which opens it. (Not from a callback: it switches page.)"""
    st.session_state[REQUEST] = {"page": page_for(browser_kind), "kind": editor_kind(browser_kind), "id": ident}
    st.switch_page(page_for(browser_kind))


def take_request(page: str) -> dict[str, str] | None:
    """The item this page was asked to open, once."""
    request = st.session_state.get(REQUEST)
    if request and request.get("page") == page:
        return st.session_state.pop(REQUEST)
    return None
