"""The packs a designer can load, and a cache that reloads them when their files change.

`available_packs` lists every pack under a content root (nested, as `nexus check content/` finds
them). `load_packs` layers the chosen packs (and the packs they build on) into a Ruleset, keyed by
the pack ids and a fingerprint of every file in those packs' folders, so an edit on disk is picked
up at the next call while an unchanged selection costs only a directory walk (the manifests under
the root are read again only when one of them is added, removed or written: `_manifests`). Load problems come
back as positioned diagnostics, never as exceptions: whatever the packs' files hold (they are read
confined to their pack folders, within the limits of `limits.py`, by the loader), and whatever ids
are asked for (only the ids of packs under the content root are loaded, never a path).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from cachetools import LRUCache

from ..content.loader import (MANIFEST, Manifest, _display, find_manifests, internal_error, load_collecting_sources,
                              load_pack_folder, manifest_files, unknown_pack)
from ..errors import Diagnostic
from ..model.ruleset import PackInfo, Ruleset


@dataclass(frozen=True)
class LoadResult:
    """A loaded ruleset, or None with the diagnostics saying why it did not load."""

    ruleset: Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.ruleset is not None


def available_packs(content_root: Path) -> list[PackInfo]:
    """Every pack folder under the content root with a valid manifest, sorted by id."""
    return _valid(_manifests(Path(content_root)))


def _valid(manifests: dict[str, Manifest]) -> list[PackInfo]:
    return sorted((m.info for m in manifests.values() if m.info is not None), key=lambda info: info.id)


def pack_closure(ids: Sequence[str], packs: Sequence[PackInfo]) -> list[PackInfo]:
    """The packs asked for and every pack they build on (those that exist), each once."""
    by_id = {p.id: p for p in packs}
    order: list[PackInfo] = []
    seen: set[str] = set()

    def visit(ident: str) -> None:
        if ident in seen or ident not in by_id:
            return
        seen.add(ident)
        for base in by_id[ident].builds_on:
            visit(base)
        order.append(by_id[ident])

    for ident in ids:
        visit(ident)
    return order


Fingerprint = tuple[tuple[str, int, int], ...]


def folder_fingerprint(folder: Path) -> Fingerprint:
    """(path, mtime_ns, size) of every file the loader could read in a pack folder: cheap (no
    reading), and it changes whenever a file is saved, added or removed."""
    entries: list[tuple[str, int, int]] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "drafts")
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            path = os.path.join(dirpath, name)
            try:
                stat = os.stat(path)
            except OSError:
                continue
            entries.append((path, stat.st_mtime_ns, stat.st_size))
    return tuple(entries)


#: Loaded selections kept, the most recently used: a designer switches between a few.
KEPT_LOADS = 8
_CACHE: LRUCache[tuple, LoadResult] = LRUCache(maxsize=KEPT_LOADS)
#: Content roots whose manifests are kept, and packs whose ids are kept for `packs_holding`.
KEPT_ROOTS, KEPT_PACK_IDS = 4, 64
_MANIFESTS: LRUCache[tuple, dict[str, Manifest]] = LRUCache(maxsize=KEPT_ROOTS)
_PACK_IDS: LRUCache[tuple, tuple[str, ...] | None] = LRUCache(maxsize=KEPT_PACK_IDS)
_LOCK = threading.Lock()  # the editor serves several sessions from threads; the caches are not thread-safe
#: The selections being loaded, each with the lock its loader holds until the result is cached.
_LOADING: dict[tuple, threading.Lock] = {}


def _stamp(path: Path) -> tuple[str, int, int, int, int] | tuple[str]:
    """What changes whenever a file is written, replaced or removed, without reading it."""
    try:
        stat = os.stat(path)
    except OSError:
        return (str(path),)
    return str(path), stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns


def _manifests(root: Path) -> dict[str, Manifest]:
    """`find_manifests(root)`, read again only when a manifest under the root is added, removed or
    written (every page of the editor asks for the packs several times a run)."""
    files = manifest_files(root)
    # A manifest names its file relative to the working folder: that is part of what was read.
    key = (os.path.abspath(root), os.getcwd(), tuple(_stamp(path) for path in files))
    with _LOCK:
        found = _MANIFESTS.get(key)
    if found is None:
        found = find_manifests(root, files=files)
        with _LOCK:
            _MANIFESTS[key] = found
    return dict(found)


def load_packs(ids: Sequence[str], content_root: Path) -> LoadResult:
    """Load and layer the packs (by id) from the content root; cached until any of their files change.
    Never raises: every problem, even a fault of the tool itself, is a diagnostic of the result."""
    try:
        return _load_packs(tuple(str(i) for i in ids), Path(content_root))
    except Exception as error:  # noqa: BLE001 - documented never to raise: the editor shows it as a problem
        return LoadResult(None, [internal_error(_display(Path(content_root)), error)])


def _load_packs(ids: tuple[str, ...], root: Path) -> LoadResult:
    manifests = _manifests(root)  # read once: for the closure, the cache key and the load
    summaries = _valid(manifests)
    folders = {p.id: p.folder for p in summaries}
    unknown = [unknown_pack(i, root, folders) for i in ids if i not in folders]
    if unknown:
        return LoadResult(None, unknown)
    closure = pack_closure(ids, summaries)
    fingerprint = tuple((str(p.folder), folder_fingerprint(p.folder)) for p in closure)
    key = (ids, os.path.abspath(root), fingerprint)
    with _LOCK:
        cached = _CACHE.get(key)  # a hit is the most recently used from now on
        if cached is not None:
            return cached
        loading = _LOADING.setdefault(key, threading.Lock())
    # One load of a selection at a time: whoever asks while it loads (a second tab, the page's first
    # run while the editor's warm-up loads the same packs) waits for it and takes its result.
    with loading:
        with _LOCK:
            cached = _CACHE.get(key)
        if cached is not None:
            return cached
        try:
            # The folders found under the root, not the ids: an id is never taken for a path.
            outcome = load_collecting_sources([folders[i] for i in ids], root, manifests=manifests)
            result = LoadResult(outcome.ruleset, list(outcome.diagnostics))
            with _LOCK:
                _CACHE[key] = result  # the least recently used selection goes when there are too many
        finally:
            with _LOCK:
                _LOADING.pop(key, None)
    return result


def packs_holding(query: str, content_root: Path, loaded: Sequence[str]) -> dict[str, list[str]]:
    """Where else to look for what a search did not find: the packs under the content root, other
    than `loaded`, holding items whose id is `query` or contains every word of it (as typed, any
    case), each pack with those ids in its files' order; packs in id order. Each pack is read on its
    own (confined to its folder, within the loader's limits; parsing is cached by file content, and
    a pack's ids are kept until a file of its folder changes), and one that does not load is passed
    over: this only points the way."""
    words = [word for word in query.lower().replace("-", "_").split() if word]
    if not words:
        return {}
    found: dict[str, list[str]] = {}
    for manifest in sorted(_manifests(Path(content_root)).values(), key=lambda m: m.ident or ""):
        if manifest.info is None or manifest.info.id in loaded:
            continue
        ids = _pack_ids(manifest)
        hits = [ident for ident in ids or () if all(word in ident.lower() for word in words)]
        if hits:
            found[manifest.info.id] = hits
    return found


def _pack_ids(manifest: Manifest) -> tuple[str, ...] | None:
    """The ids of the items of a pack read on its own, in its files' order, each once; None when it
    does not load. Read again only when a file of its folder changes (`folder_fingerprint`)."""
    key = (str(manifest.folder), manifest.text, folder_fingerprint(manifest.folder))
    with _LOCK:
        if key in _PACK_IDS:
            return _PACK_IDS[key]
    try:
        pack = load_pack_folder(manifest.folder, [], manifest=manifest)
    except Exception:  # noqa: BLE001 - a pack that cannot be read here is reported when it is loaded
        pack = None
    ids = None if pack is None else tuple(dict.fromkeys(
        [item.declaration.id for item in pack.scripts] + [item.id for item in pack.data]))
    with _LOCK:
        _PACK_IDS[key] = ids
    return ids


def clear_cache() -> None:
    """Forget every cached ruleset (tests; the editor's "reload everything" button)."""
    with _LOCK:
        _CACHE.clear()
        _MANIFESTS.clear()
        _PACK_IDS.clear()


def pack_of(path: Path) -> Path | None:
    """The pack folder holding a file: the nearest folder above it with a pack.yaml."""
    for folder in Path(path).parents:
        if (folder / MANIFEST).is_file():
            return folder
    return None
