"""The packs a batch plays, as bytes: shipped with a job to workers that hold no copy of the content.

A `PackBundle` holds every file the loader reads of the packs a Ruleset was layered from (each
pack's manifest and content files, the packs it builds on included), read as the loader reads them:
confined to the pack's folder, with drafts, hidden files and folders entered through a link left
out. A worker writes the files into a temporary folder, loads the Ruleset from there once and
removes the folder again: it plays the Ruleset the caller loaded, from the same bytes, whatever its
own file system holds.

The worker's copy lives at another path than the caller's, so a script fault a worker reports
would name a file the caller has never seen; `RebuiltRuleset.as_caller_names` gives it back the
name the caller's own load gives that file (the one its `Ruleset.sources` are keyed by).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from ..content.loader import MANIFEST, content_files, load_ruleset
from ..content.loader import _display as loader_name
from ..errors import Diagnostic
from ..files import read_content_bytes
from ..model.ruleset import Ruleset


@dataclass(frozen=True)
class ShippedPack:
    ident: str
    shown_as: str  # how the caller's load names the pack's folder in diagnostics
    files: tuple[tuple[str, bytes], ...]  # (path inside the pack with `/` between folders, bytes), manifest first


@dataclass(frozen=True)
class PackBundle:
    packs: tuple[ShippedPack, ...]  # in load order: each after the packs it builds on

    def digest(self) -> str:
        """A fingerprint of every pack's id and every file's path and bytes: two bundles with the
        same digest load the same Ruleset, so a worker loads each digest once."""
        hasher = hashlib.sha256()
        for pack in self.packs:
            hasher.update(b"pack\0" + pack.ident.encode("utf-8") + b"\0")
            for path, data in pack.files:
                hasher.update(path.encode("utf-8") + b"\0" + str(len(data)).encode("ascii") + b"\0" + data)
        return hasher.hexdigest()

    @property
    def size(self) -> int:
        return sum(len(data) for pack in self.packs for _, data in pack.files)


def bundle_of(ruleset: Ruleset) -> PackBundle:
    """The files of every pack `ruleset` was layered from, read now from their folders."""
    return PackBundle(tuple(_ship(Path(info.path), info.id) for info in ruleset.packs))


def _ship(folder: Path, ident: str) -> ShippedPack:
    paths = [folder / MANIFEST, *content_files(folder)]
    files = tuple((path.relative_to(folder).as_posix(), read_content_bytes(path, folder, loader_name(path)))
                  for path in paths)
    return ShippedPack(ident, loader_name(folder), files)


@dataclass(frozen=True)
class RebuiltRuleset:
    """A Ruleset loaded from a bundle, and how to give its file names back their caller's names."""

    ruleset: Ruleset
    renames: tuple[tuple[str, str], ...]  # (this copy's name of a pack folder, the caller's)

    def as_caller_names(self, diagnostic: Diagnostic) -> Diagnostic:
        for here, caller in self.renames:
            if diagnostic.file.startswith(here + os.sep):
                return replace(diagnostic, file=caller + diagnostic.file[len(here):])
        return diagnostic


def rebuild(bundle: PackBundle) -> RebuiltRuleset:
    """Load the bundle's packs from a temporary copy of their files, removed once they are loaded
    (a loaded Ruleset reads no file again). Raises `ContentError` as loading the packs would."""
    with tempfile.TemporaryDirectory(prefix="nexus-packs-") as temporary:
        root = Path(temporary)
        folders = [root / f"pack{index}" for index in range(len(bundle.packs))]
        for folder, pack in zip(folders, bundle.packs):
            for path, data in pack.files:
                target = folder / _relative(path)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        ruleset = load_ruleset(folders, root)
        renames = tuple((loader_name(folder), pack.shown_as) for folder, pack in zip(folders, bundle.packs))
    return RebuiltRuleset(ruleset, renames)


def _relative(path: str) -> PurePosixPath:
    """A shipped file's path, refused unless it stays inside its pack's folder."""
    relative = PurePosixPath(path)
    if relative.is_absolute() or not relative.parts or any(part in ("", ".", "..") for part in relative.parts):
        raise ValueError(f"a shipped pack file has a path that leads outside its pack: {path!r}")
    return relative
