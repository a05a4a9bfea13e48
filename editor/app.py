"""The NEXUS workbench: `streamlit run editor/app.py` (or `make editor`).

Navigation and the sidebar (content root and loaded packs). Every page lives in `editor/views/`
and only calls the package API (`nexus_dsl.workbench`, `nexus_dsl.cards`, the content loader). The
folder is not called `pages/`: Streamlit takes a `pages/` folder beside the main script for an
old-style multipage app and would then run a page without this script, so without the sidebar.
"""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run editor/app.py` puts only editor/ on the path; the folder holding it (the repository,
# or `nexus_dsl/_shipped/` of an installed wheel) makes `editor` importable as a package.
EDITOR_PARENT = Path(__file__).resolve().parents[1]
if str(EDITOR_PARENT) not in sys.path:
    sys.path.insert(0, str(EDITOR_PARENT))

import streamlit as st  # noqa: E402

from editor import widgets  # noqa: E402

PAGES = [
    ("views/home.py", "Home", ":material/home:"),
    ("views/browser.py", "Content browser", ":material/search:"),
    ("views/card_editor.py", "Card editor", ":material/edit_note:"),
    ("views/barge_editor.py", "Barge editor", ":material/grid_on:"),
    ("views/test_run.py", "Test run", ":material/play_circle:"),
    ("views/playtest.py", "Playtest", ":material/groups:"),
    ("views/odds.py", "Odds", ":material/casino:"),
    ("views/reference.py", "Language reference", ":material/menu_book:"),
]


def main() -> None:
    st.set_page_config(page_title="NEXUS workbench", page_icon=":material/swords:", layout="wide")
    pages = [st.Page(path, title=title, icon=icon, default=index == 0)
             for index, (path, title, icon) in enumerate(PAGES)]
    navigation = st.navigation(pages)
    widgets.sidebar()
    navigation.run()


# Streamlit runs this file as `__main__`. Worker processes of a batch (started from a fork server)
# import the parent's main module as `__mp_main__`: the guard keeps them from running the app.
if __name__ == "__main__":
    main()
