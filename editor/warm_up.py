"""What a new tab's first run needs, made ready in the server before any tab asks: the editor's
modules imported, and the packs a new tab opens on loaded into the workbench's cache
(`nexus_dsl/editor_host.py` runs this in a thread of its own while the server starts). The root and
packs are chosen by the functions the sidebar chooses them with, so the two cannot differ."""

from __future__ import annotations

from pathlib import Path

from nexus_dsl.workbench import packs as packs_api

from . import state, widgets  # noqa: F401 - imported for the first page, which imports them


def run() -> None:
    root = Path(state.first_root())
    if not root.is_dir():
        return
    ids = [pack.id for pack in packs_api.available_packs(root)]
    packs_api.load_packs(state.first_packs(root, ids), root)
