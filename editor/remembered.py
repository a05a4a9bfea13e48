"""What the editor remembers from one visit to the next, so a new tab opens where the last one left
off: the content root typed last, and the packs loaded last from each content root.

Kept per user beside the playtest sessions (`editor.json` in the folder above them: `~/.nexus/`),
written through the store like every file the editor writes. A file that cannot be read, or holds anything else, is taken as nothing
remembered: what is remembered only saves typing, and it is never trusted beyond being offered
again (a root must still be a folder, a pack must still be under it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from nexus_dsl.workbench import store

from . import state

FILE = "editor.json"
# A remembered file larger than this is not read: it holds a root and a few pack ids per root.
MAX_BYTES = 64 * 1024


def path() -> Path:
    return state.sessions_dir().parent / FILE


def _read() -> dict[str, Any]:
    try:
        file = path()
        if not file.is_file() or file.stat().st_size > MAX_BYTES:
            return {}
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(data: dict[str, Any]) -> None:
    """Through the store, as every write of the editor: atomically, confined to its folder, whatever
    another tab wrote meanwhile (the last choice is the one remembered)."""
    try:
        store.save(path(), json.dumps(data, indent=1, sort_keys=True) + "\n", store.ABSENT, overwrite=True,
                   check=False, root=path().parent, keep_history=False)
    except (store.StoreError, OSError):
        pass  # remembering saves typing; a folder that cannot be written costs only that


def content_root() -> str | None:
    """The content root typed last, when it is still a folder (`$NEXUS_CONTENT_ROOT`, when set,
    comes first: `state.default_content_root`)."""
    root = _read().get("content_root")
    return root if isinstance(root, str) and root and Path(root).is_dir() else None


def packs(root: Path) -> list[str] | None:
    """The packs loaded last from `root`, as they were chosen (None: nothing remembered for it)."""
    by_root = _read().get("packs")
    chosen = by_root.get(str(root)) if isinstance(by_root, dict) else None
    if not isinstance(chosen, list) or not all(isinstance(ident, str) for ident in chosen):
        return None
    return chosen


def remember(root: Path, chosen: list[str]) -> None:
    """The content root now in use and the packs loaded from it."""
    data = _read()
    by_root = data.get("packs") if isinstance(data.get("packs"), dict) else {}
    by_root[str(root)] = list(chosen)
    data["packs"] = by_root
    data["content_root"] = str(root)
    _write(data)
