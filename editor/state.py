"""Session-state helpers: where content and playtest sessions live, which packs are loaded, and
messages that survive the rerun a button causes."""

from __future__ import annotations

import os
from pathlib import Path
import streamlit as st

# The content root the sidebar starts from is the package's (the variable named, else the content
# that ships); the pages read both through this module.
from nexus_dsl.content.root import CONTENT_ROOT_ENV as CONTENT_ROOT_ENV
from nexus_dsl.content.root import default_content_root
from nexus_dsl.workbench import packs as packs_api
SESSIONS_DIR_ENV = "NEXUS_SESSIONS_DIR"
DEFAULT_PACKS = ("base",)
PACKS_KEY = "loaded_packs"
ROOT_KEY = "content_root"
FLASH_KEY = "_flash"


def sessions_dir() -> Path:
    """Where playtest sessions are kept: per user, outside any content root."""
    env = os.environ.get(SESSIONS_DIR_ENV)
    return Path(env) if env else Path.home() / ".nexus" / "sessions"


def content_root() -> Path:
    """The content root chosen in the sidebar (the default until one is typed)."""
    return Path(st.session_state.get(ROOT_KEY) or default_content_root())


def first_root() -> str:
    """The content root a new tab opens on: the one $NEXUS_CONTENT_ROOT names, else the one chosen
    last (`remembered`), else the content that ships."""
    from . import remembered  # it reads where sessions live from this module

    return (None if CONTENT_ROOT_ENV in os.environ else remembered.content_root()) or str(default_content_root())


def first_packs(root: Path, ids: list[str]) -> list[str]:
    """The packs a new tab loads from `root`, of the packs `ids` found there: those loaded last
    from it (`remembered`), else the default."""
    from . import remembered

    chosen = remembered.packs(root) or DEFAULT_PACKS
    return [p for p in chosen if p in ids]


def selected_packs() -> list[str]:
    return list(st.session_state.get(PACKS_KEY) or DEFAULT_PACKS)


def add_loaded_pack(pack_id: str) -> None:
    """Load one more pack (call from a widget callback: the sidebar's selector is already drawn
    by the time a page's body runs)."""
    current = selected_packs()
    if pack_id not in current:
        st.session_state[PACKS_KEY] = current + [pack_id]
        remember_choice()


def remember_choice() -> None:
    """Keep the content root and the packs loaded from it for the next visit (`remembered`)."""
    from . import remembered  # it reads where sessions live from this module

    remembered.remember(content_root(), selected_packs())


def available() -> list[packs_api.PackInfo]:
    return packs_api.available_packs(content_root())


def loaded() -> packs_api.LoadResult:
    """The chosen packs as one ruleset; cached by the workbench until a file of theirs changes."""
    return packs_api.load_packs(selected_packs(), content_root())


def ruleset():
    """The loaded ruleset, or None (the sidebar shows why it did not load)."""
    return loaded().ruleset


# Where a message about saving is shown: beside the Save button that caused it, not at the top of
# the page, out of sight of the button pressed.
AT_SAVE = "save"


def flash(kind: str, message: str, where: str | None = None) -> None:
    """A message for the next run of the page (`kind`: success, info, warning, error), shown where
    the page calls `show_flashes(where)` (None: the page's usual place)."""
    st.session_state.setdefault(FLASH_KEY, []).append((kind, message, where))


def show_flashes(where: str | None = None) -> None:
    """The messages for this place, each once."""
    kept = []
    for kind, message, place in st.session_state.pop(FLASH_KEY, []):
        if place == where:
            getattr(st, kind)(message)
        else:
            kept.append((kind, message, place))
    if kept:
        st.session_state[FLASH_KEY] = kept


def keep_widgets(*keys: str) -> None:
    """Carry widget values over pages: Streamlit forgets the value of a widget that a run did not
    draw, so each page restores its own from a shadow copy and `remember_widgets` refreshes it."""
    for key in keys:
        shadow = f"_kept_{key}"
        if key not in st.session_state and shadow in st.session_state:
            st.session_state[key] = st.session_state[shadow]


def remember_widgets(*keys: str) -> None:
    for key in keys:
        if key in st.session_state:
            st.session_state[f"_kept_{key}"] = st.session_state[key]
