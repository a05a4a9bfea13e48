"""The packs a document is checked, explained and navigated with.

A file belongs to the pack whose `pack.yaml` is in its folder or the nearest folder above it; the
packs loaded for it are that pack and those it builds on, found as `nexus check` finds them: under
the content root (`default_content_root`) when the pack lies there, else under the editor's
workspace folder that holds it, else beside the pack. A file in no pack is checked as `nexus
check` checks a lone file: on top of the base pack.

When the pack itself does not load (the file being edited is broken on disk, say), the packs it
builds on are loaded instead, so that the words of the game stay known; when those do not load
either, only the language's own words are. Rulesets are kept until a file is saved (any save may
change what a pack holds: the saved file's and those built on it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from ..content.loader import MANIFEST, default_content_root, load_collecting_sources, read_manifest
from ..files import inside
from ..model.ruleset import Ruleset

# What a file in no pack is checked on top of, as `nexus check FILE` does (its `--packs` default).
LONE_FILE_PACKS = ("base",)


@dataclass(frozen=True)
class Loaded:
    """The ruleset a document is served with (None: only the language's own words are known) and
    the pack folder it was found from (None: the file belongs to no pack)."""

    ruleset: Ruleset | None
    pack: Path | None


def pack_folder_of(path: Path) -> Path | None:
    """The folder of the pack a file belongs to: its own or the nearest above it with a manifest."""
    for folder in Path(path).resolve().parents:
        if (folder / MANIFEST).is_file():
            return folder
    return None


class Packs:
    """The rulesets of the packs documents belong to, each loaded once until a save."""

    def __init__(self, workspace_folders: Sequence[Path] = ()) -> None:
        self.workspace_folders = [Path(folder).resolve() for folder in workspace_folders]
        self._loaded: dict[Path | None, Loaded] = {}

    def for_file(self, path: Path) -> Loaded:
        pack = pack_folder_of(path)
        if pack not in self._loaded:
            self._loaded[pack] = Loaded(self._load(pack), pack)
        return self._loaded[pack]

    def forget(self) -> None:
        """Load every pack anew when next asked (a file was saved)."""
        self._loaded.clear()

    def content_root(self, pack: Path) -> Path:
        """Where the packs a pack builds on are looked for."""
        for root in (default_content_root(), *self.workspace_folders):
            resolved = root.resolve()
            if inside(pack, resolved) and pack != resolved:
                return resolved
        return pack.parent

    def _load(self, pack: Path | None) -> Ruleset | None:
        if pack is None:
            return _first_loading([list(LONE_FILE_PACKS)], default_content_root())
        builds_on = read_manifest(pack).info
        fallback: list[list[str | Path]] = [list(builds_on.builds_on)] if builds_on is not None and builds_on.builds_on else []
        return _first_loading([[pack], *fallback], self.content_root(pack))


def _first_loading(choices: Iterable[list[str | Path]], root: Path) -> Ruleset | None:
    """The ruleset of the first list of packs that loads without a problem."""
    for packs in choices:
        try:
            ruleset = load_collecting_sources(packs, root).ruleset
        except Exception:  # noqa: BLE001 - a pack that cannot be loaded is one that does not load
            ruleset = None
        if ruleset is not None:
            return ruleset
    return None
