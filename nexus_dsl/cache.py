"""A cache on disk of what loading content computes: the compiled grammar, parsed rule scripts and
schema verdicts, so that a process that loads an unchanged pack does not parse or validate it again.

Where: `$NEXUS_CACHE_DIR` when set, else `$XDG_CACHE_HOME/nexus_dsl`, else `~/.cache/nexus_dsl`.
`NEXUS_CACHE_DIR=off` (or set to nothing) turns it off. A folder that cannot be made or written,
or that someone other than the user could write into, silently means no cache.

The cache is never trusted. Every entry is keyed by everything its value depends on (the text it
was computed from and a fingerprint of the code that computed it: `code_fingerprint`), and the full
key is stored inside the entry, ahead of the pickled value, and compared on reading before anything
is unpickled, so a stale entry, one copied from
elsewhere, or a collision of file names is a miss. Each entry carries a digest of its bytes: a
truncated or corrupt entry is a miss too. A miss is computed again and written over the entry, so
the result is always what it would be without a cache.

Entries are pickles. Only files this package wrote are unpickled: the folder must be the user's own
and writable by no one else (it is made with mode 0o700), each entry must be owned by the user and
start with this format's mark and a digest of the rest. Writes are atomic (`files.write_atomically`):
a reader sees a whole entry or none. The folder is kept to `MAX_ENTRIES` entries and `MAX_BYTES`
bytes: past either, the entries used longest ago are removed.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable

from .files import remove_quietly, write_atomically

ENV_VAR = "NEXUS_CACHE_DIR"
OFF_VALUES = ("", "off")
MAX_ENTRIES = 4000
MAX_BYTES = 256 * 1024 * 1024
#: Entries written between two checks of the folder's bounds (the first write of a process checks).
PRUNE_EVERY = 64

_MARK = b"nexus_dsl cache 2\n"
_DIGEST_SIZE = 32  # sha256
_SUFFIX = ".entry"
_LEFTOVER_AGE = 3600.0  # seconds: a temporary this old belongs to a write that died


class _Miss:
    """What `read` returns for an entry that is missing or cannot be used (None is a value)."""

    def __repr__(self) -> str:
        return "MISS"


MISS: Any = _Miss()

_writes_since_prune = 0


def cache_folder() -> Path | None:
    """The folder the cache lives in, or None when it is turned off (see the module's docstring).
    The folder is not made here: `read` needs none, `write` makes it."""
    chosen = os.environ.get(ENV_VAR)
    if chosen is not None:
        if chosen.strip().lower() in OFF_VALUES:
            return None
        return Path(chosen).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "nexus_dsl"
    try:
        return Path.home() / ".cache" / "nexus_dsl"
    except RuntimeError:  # no home folder to be found
        return None


def digest(*parts: str | bytes) -> str:
    """A hex sha256 of `parts`, each length-prefixed so that no two sequences of parts collide."""
    hashed = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hashed.update(len(data).to_bytes(8, "big"))
        hashed.update(data)
    return hashed.hexdigest()


def code_fingerprint(modules: Iterable[ModuleType], files: Iterable[Path] = (), libraries: Iterable[str] = ()) -> str:
    """A digest of the code a cached value was computed by: the source of `modules`, the bytes of
    `files` (a grammar, schemas), where and when each of `libraries` was installed (a reinstall
    or upgrade changes it; reading their version would import `importlib.metadata`, which costs
    more than the whole cached load), and the version of Python. A source that cannot be read
    makes the fingerprint unique to this process, so nothing is shared through the cache."""
    parts: list[str | bytes] = [sys.version, sys.implementation.cache_tag or ""]
    try:
        for module in modules:
            parts += [module.__name__, Path(module.__file__ or "").read_bytes()]
        for file in files:
            parts += [file.name, file.read_bytes()]
    except OSError:
        parts.append(f"unreadable source, process {os.getpid()} {id(parts)}")
    for library in libraries:
        parts += [library, _installed_stamp(library)]
    return digest(*parts)


def _installed_stamp(library: str) -> str:
    """Where `library`'s package lies, its size and modification time ("" when it is not installed)."""
    from importlib.util import find_spec

    try:
        spec = find_spec(library)
    except (ImportError, ValueError):
        return ""
    origin = spec.origin if spec is not None else None
    if not origin:
        return ""
    try:
        found = os.stat(origin)
    except OSError:
        return origin
    return f"{origin} {found.st_size} {found.st_mtime_ns}"


def _entry_path(folder: Path, namespace: str, key: str) -> Path:
    return folder / f"{namespace}-{digest(namespace, key)[:40]}{_SUFFIX}"


def _usable(folder: Path) -> bool:
    """Whether `folder` is a folder of this user's that no one else may write into."""
    try:
        found = os.stat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(found.st_mode):
        return False
    if hasattr(os, "getuid") and found.st_uid != os.getuid():
        return False
    return not found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(namespace: str, key: str) -> Any:
    """The value stored under (`namespace`, `key`), or `MISS`: no cache, no entry, or an entry that
    cannot be trusted (not this user's, not of this format, truncated, corrupt, of another key)."""
    return unpickled(read_pickled(namespace, key))


def unpickled(pickled: bytes | None) -> Any:
    """The value of `read_pickled`'s bytes, or `MISS` (none, or bytes that do not unpickle)."""
    if pickled is None:
        return MISS
    try:
        return pickle.loads(pickled)
    except Exception:  # noqa: BLE001 - an entry that does not unpickle (a class since renamed) is a miss
        return MISS


def read_pickled(namespace: str, key: str) -> bytes | None:
    """The pickled value stored under (`namespace`, `key`), its entry checked as `read` checks it
    (all but unpickling); None for a miss. Each unpickling gives new objects: a caller that keeps
    these bytes can hand out a fresh copy of the value every time."""
    folder = cache_folder()
    if folder is None or not _usable(folder):
        return None
    path = _entry_path(folder, namespace, key)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        with os.fdopen(descriptor, "rb") as stream:
            found = os.fstat(stream.fileno())
            if hasattr(os, "getuid") and found.st_uid != os.getuid():
                return None
            if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_BYTES:
                return None
            data = stream.read()
    except OSError:
        return None
    pickled = _decode(data, _label(namespace, key))
    if pickled is not None:
        _touch(path)
    return pickled


def _label(namespace: str, key: str) -> bytes:
    """The full key as an entry stores it, after its length, ahead of the pickled value."""
    return f"{namespace}\0{key}".encode("utf-8")


def _decode(data: bytes, label: bytes) -> bytes | None:
    """The pickled value of an entry: the mark, a digest of all after it, the label's length and
    the label (compared with the one asked for), then the value."""
    header = len(_MARK) + _DIGEST_SIZE
    if len(data) < header + 4 or not data.startswith(_MARK):
        return None
    body = data[header:]
    if hashlib.sha256(body).digest() != data[len(_MARK):header]:
        return None
    size = int.from_bytes(body[:4], "big")
    if body[4:4 + size] != label:
        return None
    return body[4 + size:]


def _touch(path: Path) -> None:
    """Mark an entry as just used, so that pruning removes the entries used longest ago first."""
    try:
        os.utime(path)
    except OSError:
        pass


def pickled(value: Any) -> bytes | None:
    """`value` pickled as entries hold it; None when it cannot be (it is then not cached)."""
    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a value that cannot be pickled (or is too deep) is simply not cached
        return None


def write(namespace: str, key: str, value: Any) -> None:
    """Store `value` under (`namespace`, `key`), atomically. Nothing happens when there is no cache,
    or the folder cannot be made or written, or the value cannot be pickled."""
    data = pickled(value)
    if data is not None:
        write_pickled(namespace, key, data)


def write_pickled(namespace: str, key: str, data: bytes) -> None:
    """Store a value already pickled (`pickled`) under (`namespace`, `key`), as `write` does."""
    global _writes_since_prune
    folder = cache_folder()
    if folder is None:
        return
    label = _label(namespace, key)
    body = len(label).to_bytes(4, "big") + label + data
    entry = _MARK + hashlib.sha256(body).digest() + body
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _usable(folder):
            return
        write_atomically(_entry_path(folder, namespace, key), entry, 0o600, owner="entry", durable=False)
    except OSError:
        return
    if _writes_since_prune % PRUNE_EVERY == 0:
        prune(folder)
    _writes_since_prune += 1


def prune(folder: Path, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
    """Remove the entries used longest ago until at most `max_entries` entries of at most
    `max_bytes` bytes together remain (and leftover temporaries of writes cut short)."""
    entries: list[tuple[float, int, Path]] = []
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                try:
                    found = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if item.name.endswith(_SUFFIX):
                    entries.append((found.st_mtime, found.st_size, Path(item.path)))
                elif item.name.startswith(".entry.") and item.name.endswith(".tmp") \
                        and time.time() - found.st_mtime > _LEFTOVER_AGE:
                    remove_quietly(Path(item.path))  # a write cut short long ago, never to be renamed
    except OSError:
        return
    entries.sort(key=lambda entry: entry[0])
    total = sum(size for _, size, _ in entries)
    count = len(entries)
    for _, size, path in entries:
        if count <= max_entries and total <= max_bytes:
            break
        try:
            remove_quietly(path)
        except OSError:
            continue
        count -= 1
        total -= size
