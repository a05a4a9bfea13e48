"""Choosing the pack to save into, a new one included: the card editor and the barge editor share
it. The widgets are keyed by a page prefix: `<prefix>_pack` (the choice), and for a new pack
`<prefix>_pack_id`, `<prefix>_pack_name`, `<prefix>_pack_kind`."""

from __future__ import annotations

import streamlit as st

from nexus_dsl.workbench import store

from . import state

NEW_PACK = "(a new pack)"


def key(prefix: str) -> str:
    return f"{prefix}_pack"


def chooser(prefix: str, column, label: str = "Into pack", help: str | None = None) -> str:
    """The pack selectbox in `column` (a new pack first, then every pack under the content root);
    a choice not (or no longer) on disk falls back to a new pack: nothing is written into an existing
    pack unless it is chosen."""
    ids = [p.id for p in state.available()]
    choices = [NEW_PACK] + ids
    if st.session_state.get(key(prefix)) not in choices:
        st.session_state[key(prefix)] = NEW_PACK
    return column.selectbox(label, choices, key=key(prefix), help=help)


def new_pack_fields(prefix: str) -> None:
    """The new pack's id, name and kind, side by side (drawn when a new pack is chosen)."""
    fields = st.columns(3)
    fields[0].text_input("New pack id", key=f"{prefix}_pack_id", placeholder="my_house_rules")
    fields[1].text_input("New pack name", key=f"{prefix}_pack_name")
    fields[2].selectbox("Kind", list(store.PACK_KINDS), key=f"{prefix}_pack_kind")


def game_packs() -> tuple[str, ...]:
    """The packs a new pack builds on: the loaded packs that build on nothing (base for NEXUS Arena,
    nexus_pirates for NEXUS Pirates), so the new pack plays the game it was made for."""
    rules = state.ruleset()
    roots = tuple(p.id for p in rules.packs if not p.builds_on) if rules is not None else ()
    return roots or ("base",)


def target(prefix: str) -> str:
    """The chosen pack's id, creating the new pack first (building on the loaded game's own packs,
    `game_packs`) when one is chosen; the new pack becomes the choice and is loaded.
    `store.StoreError` when it cannot be made."""
    pack_id = st.session_state.get(key(prefix))
    if pack_id in (None, NEW_PACK):
        pack_id = (st.session_state.get(f"{prefix}_pack_id") or "").strip()
        name = st.session_state.get(f"{prefix}_pack_name") or pack_id.replace("_", " ").title()
        store.create_pack(state.content_root(), pack_id, name,
                          st.session_state.get(f"{prefix}_pack_kind", "house_rules"), game_packs())
        st.session_state[key(prefix)] = pack_id
        state.add_loaded_pack(pack_id)
    return pack_id
