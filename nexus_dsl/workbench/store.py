"""Saving content so that work is never lost.

- Check and write are one step: every save holds a lock on its file (`fcntl.flock` on
  `.history/.<name>.lock` beside it) from the fingerprint check, through the copy of the previous
  version, to the atomic replace. Of several editors (threads or processes) who opened the same
  version, exactly one saves; every other gets `ConflictError`, carrying its own text.
- Every write is atomic: a temporary file in the same folder, fsync, `os.replace`, fsync of the
  folder. A save killed midway leaves the old file whole; the temporaries it leaves are removed by
  the next save in that folder (only those no live save is using: the lock tells).
- A file keeps its mode; a new file gets the mode the umask gives any new file.
- The previous version of a file is kept, byte for byte, in `<folder>/.history/<name>.<UTC timestamp>`
  (the loader never reads hidden folders).
- A file changed on disk since it was opened is never silently overwritten: `save` raises
  `ConflictError` carrying both versions unless told `overwrite=True` (the editor's "keep mine").
- Nothing is written outside its root whatever name is typed: every write goes through
  `confine_write`, which builds on `nexus_dsl.files.confine` and refuses symbolic links on the way.
- Content that does not validate is refused; it can be kept as a draft (`<name>.draft`), which the
  loader never reads.
- `save_data_item` and `save_declaration` replace one item of a file (by id) or append it, keeping
  the rest of the file, comments included.
- Whatever the operating system refuses (a name too long, no permission, a full disk) becomes a
  `StoreError` saying the file was not saved, with the text still on the error.
- A file is opened for editing (`open_for_edit`) as the loader reads content: at most
  `max_file_bytes`, UTF-8 with a byte-order mark dropped. A file that is not UTF-8 text is not
  opened (`NotEditableError`, positioned): text decoded with replacement characters would lose its
  bytes once saved back; a whole new text may still replace it, its bytes kept in the history.
"""

from __future__ import annotations

import difflib
import errno
import fcntl
import hashlib
import os
import re
import secrets
import shutil
import stat
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import yaml

from ..content.loader import MANIFEST, SCRIPT_SUFFIX, YAML_SUFFIXES, discover_packs, read_manifest
from ..errors import ContentError, Diagnostic, NexusError, source_lines
from ..files import check_text_size, confine, decode_content, display_path, inside
from ..files import fsync_folder as _fsync_folder
from ..files import remove_quietly as _remove_quietly
from ..files import write_atomically as _write_whole
from ..limits import INPUT_LIMITS, InputLimits
from ..model.ruleset import Ruleset
from ..schema import compose_yaml, load_yaml_with_positions, validate
from ..syntax import ast_nodes as A
from ..syntax.parser import parse
from ..validate_files import check_script_module, check_yaml_text
from .packs import load_packs, pack_of

HISTORY_FOLDER = ".history"
HISTORY_KEEP = 50  # versions kept per file
DRAFT_SUFFIX = ".draft"
ALLOWED_SUFFIXES = (SCRIPT_SUFFIX, ".yaml")
PACK_ID = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")  # used with fullmatch: `$` would let a newline through
MAX_PACK_ID_LENGTH = INPUT_LIMITS.max_identifier_length
_NAME_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*")
MAX_NAME_LENGTH = 200
# File systems refuse names of more than 255 bytes, and a saved name grows by up to ~50 characters
# in its history copies and temporaries (`.<name>.<timestamp>-N.<token>.tmp`, `.draft`).
MAX_NAME_PART_LENGTH = 120
ABSENT = "absent"  # the fingerprint of a file that does not exist yet
LOCK_TIMEOUT = 30.0  # seconds to wait for another save of the same file before giving up
# A save's temporary file: `.<owner>.<16 hex digits>.tmp`, beside the owner (or in its history
# folder, for a copy being kept). The fixed token length makes the owner's name unambiguous.
TEMPORARY = re.compile(r"\.(?P<owner>.+)\.[0-9a-f]{16}\.tmp")
_PACKS_LOCK = ".new-pack.lock"  # in the content root's history folder: creating packs, one at a time


class StoreError(Exception):
    """A save that was refused, with a message a designer can act on. `text` is the work that was
    not saved, when there was some, so a caller can still offer it."""

    def __init__(self, message: str, text: str | None = None):
        super().__init__(message)
        self.text = text


class ConflictError(StoreError):
    """The file changed on disk since it was opened. Both versions are kept on the error."""

    def __init__(self, path: Path, disk_text: str | None, your_text: str, disk_fingerprint: str):
        self.path = path
        self.disk_text = disk_text  # None when the file was deleted meanwhile
        self.your_text = your_text
        self.disk_fingerprint = disk_fingerprint
        what = "was deleted" if disk_text is None else "was changed"
        super().__init__(f"{path.name} {what} on disk since you opened it; keep yours (overwrite) or reload theirs",
                         your_text)


class NotEditableError(StoreError):
    """A file that cannot be opened for editing: larger than a content file may be, or not UTF-8
    text (text decoded with replacement characters would lose the file's bytes once saved back).
    `diagnostics` say where, as loading the file would."""

    def __init__(self, path: Path, diagnostic: Diagnostic):
        self.path = path
        self.diagnostics = [diagnostic]
        where = f" (line {diagnostic.line}, column {diagnostic.column})" if diagnostic.line else ""
        advice = f"; {diagnostic.hint}" if diagnostic.hint else ""
        super().__init__(f"{shown_name(path.name)} cannot be opened for editing: {diagnostic.message}{where}{advice}")


class InvalidContentError(StoreError):
    """The content does not validate; it may be saved as a draft instead."""

    def __init__(self, path: Path, diagnostics: Sequence[Diagnostic], text: str | None = None):
        self.path = path
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0].message if self.diagnostics else "it does not validate"
        super().__init__(f"{path.name} was not saved: {first} ({len(self.diagnostics)} problem(s)); "
                         f"save it as a draft to keep the work", text)


@dataclass(frozen=True)
class Opened:
    """A file's text as opened for editing, and the fingerprint `save` compares against."""

    text: str
    fingerprint: str


@dataclass(frozen=True)
class Saved:
    path: Path
    fingerprint: str
    backup: Path | None = None
    warnings: list[Diagnostic] = field(default_factory=list)


# ---------------------------------------------------------------- what the operating system refuses
# errno -> (what happened, what the designer can do), for the errors a save can meet.
_REFUSALS: dict[int, tuple[str, str]] = {
    errno.ENAMETOOLONG: ("the name is too long for the file system", "choose a shorter file, folder or pack name"),
    errno.EACCES: ("permission denied", "check that you may write to that folder, or save into another pack"),
    errno.EPERM: ("the operation is not permitted", "check that you may write to that folder, or save elsewhere"),
    errno.EROFS: ("the disk is read-only", "save into a pack on another disk"),
    errno.ENOSPC: ("the disk is full", "free some space and save again"),
    errno.EDQUOT: ("your disk quota is used up", "free some space and save again"),
    errno.ELOOP: ("the path goes through a symbolic link", "save to a plain file inside the pack"),
    errno.EISDIR: ("a folder of that name is in the way", "choose another file name"),
    errno.ENOTDIR: ("a file is in the way of a folder of that name", "choose another folder name"),
    errno.EEXIST: ("a file of that name appeared meanwhile", "reload and save again"),
}


def shown_name(name: str, width: int = 60) -> str:
    """A name as a message shows it: long ones shortened, so the message stays readable."""
    return name if len(name) <= width else name[: width - 1] + "…"


def not_saved(path: Path, error: OSError, text: str | None = None, done: str = "saved") -> StoreError:
    """A `StoreError` for an `OSError` met while saving (or opening: `done`) `path`, saying that it
    was not, and that the text is kept."""
    what, advice = _REFUSALS.get(error.errno or 0, (error.strerror or type(error).__name__, "try again"))
    kept = " (your text is kept in the editor)" if text is not None else ""
    return StoreError(f"{shown_name(Path(path).name)} was not {done}{kept}: {what}; {advice}", text)


@contextmanager
def _saving(path: Path, text: str | None, done: str = "saved") -> Iterator[None]:
    """Turn the operating system's refusals met while saving `path` into a `StoreError`, and put the
    work (`text`) on every `StoreError` that does not carry it yet."""
    try:
        yield
    except OSError as error:
        raise not_saved(path, error, text, done) from None
    except StoreError as error:
        if error.text is None:
            error.text = text
        raise


# ---------------------------------------------------------------- reading
def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint_of(path: Path) -> str:
    """A digest of the file's bytes (ABSENT when it does not exist): equal exactly when the content is."""
    return _on_disk(Path(path)).fingerprint


def fingerprint_of_data(data: bytes) -> str:
    """The fingerprint of a file holding exactly `data` (bytes read by another reader, such as
    `files.read_content_bytes`), for a save that must find the file unchanged since."""
    return _digest(data)


def _read_bytes(path: Path, limit: int | None = None) -> bytes | None:
    """The file's bytes, None when it does not exist; given a `limit`, at most one byte more than
    it (the caller refuses a longer file without reading the rest). A symbolic link is not followed
    (ELOOP), and a named pipe does not make the read wait."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise IsADirectoryError(errno.EISDIR, "not a regular file", str(path))
        return stream.read() if limit is None else stream.read(limit + 1)


def _text_of(data: bytes, path: Path, limits: InputLimits = INPUT_LIMITS) -> str:
    """`data` as text to edit, decoded as the loader decodes content (`files.decode_content`: a
    byte-order mark dropped); NotEditableError, positioned, when it is larger than `limits` allow or
    not UTF-8."""
    file = display_path(path)
    too_large = check_text_size(data, file, limits)
    if too_large is not None:
        raise NotEditableError(path, too_large)
    try:
        return decode_content(data, file)
    except ContentError as error:
        raise NotEditableError(path, error.diagnostics[0]) from None


@dataclass(frozen=True)
class _OnDisk:
    """What a save finds at its target: the bytes (None when there is no file) and their fingerprint."""

    path: Path
    data: bytes | None
    fingerprint: str

    def text(self) -> str:
        """The text a new version is composed from (NotEditableError when it is not UTF-8 text)."""
        return "" if self.data is None else _text_of(self.data, self.path)

    def shown(self) -> str | None:
        """The text shown beside a conflict, None when there is no file. Shown only, never saved:
        bytes that are not UTF-8 are shown as U+FFFD."""
        if self.data is None:
            return None
        try:
            return decode_content(self.data, str(self.path))
        except ContentError:
            return self.data.decode("utf-8", errors="replace")


def _on_disk(path: Path) -> _OnDisk:
    data = _read_bytes(path)
    return _OnDisk(path, data, ABSENT if data is None else _digest(data))


def open_for_edit(path: Path, root: Path | None = None, limits: InputLimits = INPUT_LIMITS) -> Opened:
    """The file's text and fingerprint; a file that does not exist yet opens empty. The file is first
    confined like a write to it (`confine_write`; `root` defaults to its pack, else its folder): what
    is opened for editing is what a save would write back. It is read as content is (at most
    `limits.max_file_bytes`, UTF-8, a byte-order mark dropped: a save writes the file without one,
    its previous version kept in the history); the fingerprint is that of the very bytes read.
    StoreError when refused; NotEditableError (a StoreError) when too large or not UTF-8 text."""
    path = Path(path)
    with _saving(path, None, "opened"):
        confine_write(path, _write_root(path, root, None), "opened")
        data = _read_bytes(path, limits.max_file_bytes)
    if data is None:
        return Opened("", ABSENT)
    return Opened(_text_of(data, path, limits), _digest(data))


# ---------------------------------------------------------------- atomic writes
def _mode_of(path: Path) -> int | None:
    """The permission bits of an existing file (kept by a save), None for a new one."""
    try:
        return stat.S_IMODE(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None


# ---------------------------------------------------------------- locks and leftovers
def history_folder(folder: Path) -> Path:
    """`<folder>/.history`, made when missing; StoreError when something other than a plain folder
    (e.g. a symbolic link a stranger's pack brought) is in its place."""
    history = Path(folder) / HISTORY_FOLDER
    try:
        os.mkdir(history)
    except FileExistsError:
        pass
    if history.is_symlink() or not history.is_dir():
        raise StoreError(f"{display_path(history)} is not a plain folder, so earlier versions cannot be kept "
                         f"there; nothing was saved. Remove it and save again")
    return history


def lock_path(target: Path) -> Path:
    """The lock file every save of `target` holds: `.history/.<name>.lock` beside it."""
    return target.parent / HISTORY_FOLDER / f".{target.name}.lock"


def _open_lock(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)


@contextmanager
def _locked(path: Path, what: str) -> Iterator[None]:
    """Hold an exclusive `flock` on the lock file `path`: between threads (each holds its own open
    file) and processes alike. A killed holder's lock goes with it. Lock files are never removed:
    removing one while another save waits on it would let two saves in at once."""
    descriptor = _open_lock(path)
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        pause = 0.0005
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise StoreError(f"{shown_name(what)} was not saved: another save of it has not finished "
                                     f"within {LOCK_TIMEOUT:.0f} s; try again") from None
                time.sleep(pause)
                pause = min(pause * 2, 0.01)
        yield
    finally:
        os.close(descriptor)  # closing the file releases the lock


@contextmanager
def file_lock(target: Path) -> Iterator[None]:
    """Hold the lock of `target` (whose folder must exist)."""
    history_folder(target.parent)
    with _locked(lock_path(target), target.name):
        yield


def _try_lock(path: Path) -> int | None:
    """The lock file `path` opened and locked, or None when a live save holds it."""
    try:
        descriptor = _open_lock(path)
    except OSError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        return None
    return descriptor


def _temporaries(folder: Path) -> dict[str, list[Path]]:
    """The save temporaries (files, not folders) in `folder`, by the name of the file they were for."""
    found: dict[str, list[Path]] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        match = TEMPORARY.fullmatch(entry.name)
        if match and not entry.is_dir(follow_symlinks=False):
            found.setdefault(match["owner"], []).append(Path(entry.path))
    return found


def clean_stale_temporaries(target: Path) -> list[Path]:
    """Remove what saves killed midway left in the folder of `target` and in its history folder:
    every temporary of `target` (call with its lock held: no live save is writing them) and those
    of other files whose lock is free. The ones removed."""
    history = target.parent / HISTORY_FOLDER
    found: dict[str, list[Path]] = {}
    for folder in (target.parent, history):
        for owner, paths in _temporaries(folder).items():
            found.setdefault(owner, []).extend(paths)
    removed: list[Path] = []
    for owner, paths in found.items():
        descriptor = None if owner == target.name else _try_lock(history / f".{owner}.lock")
        if owner != target.name and descriptor is None:
            continue  # a live save of that file: its temporaries are in use
        try:
            for path in paths:
                _remove_quietly(path)
                removed.append(path)
        finally:
            if descriptor is not None:
                os.close(descriptor)
    return removed


# ---------------------------------------------------------------- history
_STAMP = "%Y%m%dT%H%M%S%fZ"


def _keep_copy(target: Path, data: bytes, mode: int | None) -> Path:
    """Keep `data` (the version about to be replaced, byte for byte) in the history folder; call
    with the lock of `target` held. The oldest copies go once a file has many."""
    history = target.parent / HISTORY_FOLDER
    stamp = datetime.now(timezone.utc).strftime(_STAMP)
    backup = history / f"{target.name}.{stamp}"
    counter = 1
    while os.path.lexists(backup):
        backup = history / f"{target.name}.{stamp}-{counter}"
        counter += 1
    _write_whole(backup, data, mode, owner=target.name)
    for old in history_of(target)[:-HISTORY_KEEP]:
        _remove_quietly(old)
    return backup


def history_of(path: Path) -> list[Path]:
    """The kept versions of a file, oldest first."""
    path = Path(path)
    folder = path.parent / HISTORY_FOLDER
    if not folder.is_dir():
        return []
    kept = re.compile(re.escape(path.name) + r"\.(\d{8}T\d{12}Z)(?:-(\d+))?")
    versions = []
    for candidate in folder.iterdir():
        match = kept.fullmatch(candidate.name)
        if match:
            versions.append((match[1], int(match[2] or 0), candidate))
    return [candidate for _, _, candidate in sorted(versions)]


# ---------------------------------------------------------------- where a name may be written
def _refuse(message: str) -> StoreError:
    return StoreError(message)


def check_relative_name(relative_name: str) -> tuple[str, ...]:
    """The parts of a file name typed by a user, or StoreError saying why it cannot be used."""
    if not isinstance(relative_name, str) or not relative_name.strip():
        raise _refuse("give the file a name, such as `cards/bribes.nexus`")
    if len(relative_name) > MAX_NAME_LENGTH:
        raise _refuse(f"the file name is too long (at most {MAX_NAME_LENGTH} characters); nothing was saved")
    if "\\" in relative_name or "\x00" in relative_name:
        raise _refuse("use `/` between folders, and only letters, digits, `_`, `-` and `.` in names")
    if relative_name.startswith("/") or re.match(r"^[A-Za-z]:", relative_name):
        raise _refuse("give a name inside the pack (such as `cards/bribes.nexus`), not an absolute path")
    parts = tuple(relative_name.split("/"))
    if any(part in ("", ".", "..") for part in parts):
        raise _refuse("a file name cannot contain `..`, `.` or empty folder names: it must stay inside the pack")
    for part in parts:
        if not _NAME_PART.fullmatch(part):
            raise _refuse(f"`{shown_name(part)}` is not a usable name: use letters, digits, `_`, `-` and `.`, "
                          f"not starting with `.` or `-`")
        if len(part) > MAX_NAME_PART_LENGTH:
            raise _refuse(f"`{shown_name(part)}` is too long for a file or folder name (at most "
                          f"{MAX_NAME_PART_LENGTH} characters); nothing was saved")
    if parts[-1] == MANIFEST:
        return parts
    if not parts[-1].endswith(ALLOWED_SUFFIXES) or Path(parts[-1]).stem == "":
        raise _refuse("content files end in `.nexus` (rule scripts) or `.yaml` (data)")
    if any(part in ("drafts",) for part in parts[:-1]):
        raise _refuse("`drafts` folders are never loaded; choose another folder name")
    return parts


def check_pack_id(pack_id: str) -> str:
    """`pack_id` when it can name a pack (snake_case, not too long), else StoreError."""
    if not isinstance(pack_id, str) or not PACK_ID.fullmatch(pack_id):
        raise _refuse(f"`{shown_name(str(pack_id))}` is not a valid pack id: use snake_case "
                      f"(lower-case letters, digits and `_`)")
    if len(pack_id) > MAX_PACK_ID_LENGTH:
        raise _refuse(f"`{shown_name(pack_id)}` is too long for a pack id (at most {MAX_PACK_ID_LENGTH} "
                      f"characters); nothing was saved")
    return pack_id


def pack_folder(content_root: Path, pack_id: str) -> Path:
    """The folder of a pack under the content root, or StoreError."""
    check_pack_id(pack_id)
    found = discover_packs(Path(content_root))
    if pack_id not in found:
        raise _refuse(f"there is no pack `{pack_id}` under {content_root}")
    return found[pack_id]


def _write_root(path: Path, root: Path | None, content_root: Path | None) -> Path:
    """The folder a write to `path` must stay inside: the one given, else the content root, else
    the file's pack, else the file's own folder."""
    if root is not None:
        return Path(root)
    if content_root is not None:
        return Path(content_root)
    return pack_of(path) or Path(path).parent


def _symbolic_link_on_the_way(path: Path, root: Path) -> Path | None:
    """The first symbolic link between `root` (excluded) and `path` (included), if any."""
    absolute = Path(os.path.abspath(path))
    for base in (Path(os.path.abspath(root)), Path(root).resolve()):
        try:
            relative = absolute.relative_to(base)
        except ValueError:
            continue
        current = base
        for part in relative.parts:
            current = current / part
            if current.is_symlink():
                return current
        return None
    return None  # not below root as written: `confine` decides


def confine_write(path: Path, root: Path, done: str = "saved") -> Path:
    """`path` if a write there stays inside `root`, else StoreError. The one check every write of the
    workbench and the editor goes through: no `..`, no symbolic link from `root` down to the file
    (the file included), the path inside `root` once links are followed (`files.confine`), and the
    file, if it exists, a plain file. `done` names what was refused in the messages (saved, opened)."""
    path = Path(path)
    name = shown_name(path.name)
    if ".." in path.parts:
        raise _refuse(f"{name} was not {done}: its path contains `..`")
    link = _symbolic_link_on_the_way(path, root)
    if link is not None:
        raise _refuse(f"{name} was not {done}: `{shown_name(link.name)}` is a symbolic link; "
                      f"only plain files inside the pack are written")
    try:
        confine(path, root, display_path(path))
    except ContentError as error:
        outside = any(d.code == "content/outside_root" for d in error.diagnostics)
        reason = (f"it leads outside {display_path(Path(root))}" if outside
                  else "; ".join(d.message for d in error.diagnostics))
        raise _refuse(f"{name} was not {done}: {reason}") from None
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return path
    except OSError as error:
        raise not_saved(path, error, None, done) from None
    if stat.S_ISDIR(mode):
        raise _refuse(f"`{name}` is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise _refuse(f"{name} was not {done}: it is not a plain file")
    return path


def safe_path(content_root: Path, pack_id: str, relative_name: str) -> Path:
    """Where `relative_name` lives inside the pack, refusing anything that could leave it: absolute
    paths, `..`, odd characters, names that are not `*.nexus`/`*.yaml`, and symbolic links anywhere
    from the content root down (the pack's folder and the file included): `confine_write`."""
    parts = check_relative_name(relative_name)
    folder = pack_folder(content_root, pack_id)
    return confine_write(folder.joinpath(*parts), content_root)


# ---------------------------------------------------------------- validation before saving
def check_file_text(path: Path, text: str, context: Ruleset | None = None,
                    content_root: Path | None = None) -> list[Diagnostic]:
    """What is wrong with `text` as the content of `path`, in the context of its pack (the pack as
    loaded, or failing that the packs it builds on). Errors and warnings; never raises."""
    path = Path(path)
    if context is None:
        context = _context_for(path, content_root)
    file = str(path)
    try:
        if path.suffix == SCRIPT_SUFFIX:
            module = parse(text, file)  # once, for both checks
            return check_script_module(module, file, context) + _defined_elsewhere(path, module, context)
        if path.suffix in YAML_SUFFIXES:
            return check_yaml_text(text, file, path, context)
    except NexusError as error:
        return list(error.diagnostics)
    return [Diagnostic("content/unknown_file", f"{path.name} is not a content file (.nexus or .yaml)", file)]


def _defined_elsewhere(path: Path, module: A.Module, context: Ruleset | None) -> list[Diagnostic]:
    """Declarations that another file of the same pack already defines (the pack would not load)."""
    folder = pack_of(path)
    if context is None or folder is None:
        return []
    problems = []
    for declaration in module.declarations:
        existing = context.scripts.get(declaration.kind, {}).get(declaration.id)
        if existing is None:
            continue
        other = Path(existing.origin.file).resolve()
        if other != path.resolve() and inside(other, folder.resolve()):
            problems.append(Diagnostic(
                "content/duplicate_id", f"{declaration.kind} `{declaration.id}` is already defined in this pack",
                str(path), declaration.pos.line, declaration.pos.column,
                hint=f"defined at {existing.origin.file}:{existing.origin.line}; choose another id or edit that one"))
    return problems


def _context_for(path: Path, content_root: Path | None) -> Ruleset | None:
    folder = pack_of(path)
    if folder is None:
        return None
    data = read_manifest(folder).data
    if not isinstance(data, dict):  # no context: saving reports the file's own problems
        return None
    builds_on = [str(b) for b in data.get("builds_on") or [] if isinstance(b, str)]
    root = Path(content_root) if content_root else _guess_root(folder, builds_on)
    own = load_packs([str(data.get("id"))], root)
    if own.ruleset is not None:
        return own.ruleset
    return load_packs(builds_on, root).ruleset if builds_on else None


def _guess_root(pack_folder_path: Path, builds_on: Sequence[str]) -> Path:
    """The content root above a pack: the default one when the pack is inside it, else the nearest
    of its two closest ancestors where every pack it builds on is found."""
    from ..content.loader import default_content_root

    default = default_content_root().resolve()
    if inside(pack_folder_path.resolve(), default):
        return default
    for ancestor in list(pack_folder_path.parents)[:2]:
        found = discover_packs(ancestor)
        if all(b in found for b in builds_on):
            return ancestor
    return pack_folder_path.parent


def _errors(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.severity == "error"]


# ---------------------------------------------------------------- saving
Compose = Callable[[_OnDisk], tuple[str, list[Diagnostic]]]


def _commit(target: Path, expected: str | None, your_text: str, compose: Compose, *,
            keep_history: bool = True) -> Saved:
    """The step every save ends in, under the lock of `target` (confine it first): leftovers of
    killed saves removed, the file compared with `expected` (None: whatever is there, the editor's
    "keep mine"), the new text composed from what is on disk, the previous version kept, the new one
    put in place. Two saves of the same version: the second finds the first's and gets ConflictError."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(target):
        clean_stale_temporaries(target)
        current = _on_disk(target)
        if expected is not None and current.fingerprint != expected:
            raise ConflictError(target, current.shown(), your_text, current.fingerprint)
        text, warnings = compose(current)
        encoded = text.encode("utf-8")
        fingerprint = _digest(encoded)
        if current.data is not None and fingerprint == current.fingerprint:
            return Saved(target, fingerprint, None, warnings)  # nothing changed: no write, no history entry
        mode = _mode_of(target)
        backup = _keep_copy(target, current.data, mode) if keep_history and current.data is not None else None
        _write_whole(target, encoded, mode)
        return Saved(target, fingerprint, backup, warnings)


def _early_conflict(path: Path, your_text: str, expected: str, overwrite: bool) -> _OnDisk:
    """What is on disk now, or ConflictError: a conflict is reported before a slow validation (the
    check under the lock in `_commit` is the one that counts)."""
    current = _on_disk(path)
    if not overwrite and current.fingerprint != expected:
        raise ConflictError(path, current.shown(), your_text, current.fingerprint)
    return current


def _validated(path: Path, text: str, context: Ruleset | None, content_root: Path | None,
               your_text: str | None = None) -> list[Diagnostic]:
    """The warnings about `text` as the content of `path`; InvalidContentError (carrying `your_text`,
    the work, by default `text`) when it has errors."""
    diagnostics = check_file_text(path, text, context, content_root)
    errors = _errors(diagnostics)
    if errors:
        raise InvalidContentError(path, errors, text if your_text is None else your_text)
    return [d for d in diagnostics if d.severity != "error"]


def save(path: Path, text: str, expected_fingerprint: str, *, overwrite: bool = False,
         context: Ruleset | None = None, content_root: Path | None = None, check: bool = True,
         root: Path | None = None, keep_history: bool = True) -> Saved:
    """Save `text` to `path` atomically, keeping the previous version (unless `keep_history` is off).

    The write stays inside `root` (default: the content root, else the file's pack, else its folder).
    Raises ConflictError when the file is no longer what was opened (unless `overwrite`),
    InvalidContentError when the text does not validate (use `save_draft` to keep such work), and
    StoreError when the path is refused or the operating system refuses the write.
    """
    path = Path(path)
    with _saving(path, text):
        confine_write(path, _write_root(path, root, content_root))
        warnings: list[Diagnostic] = []
        if check:  # unchecked, the commit's own comparison under the lock is the only read needed
            _early_conflict(path, text, expected_fingerprint, overwrite)
            warnings = _validated(path, text, context, content_root)
        return _commit(path, None if overwrite else expected_fingerprint, text, lambda current: (text, warnings),
                       keep_history=keep_history)


def draft_path(path: Path) -> Path:
    """Where the draft of a file is kept: `<name>.draft` beside it (never loaded)."""
    path = Path(path)
    return path.with_name(path.name + DRAFT_SUFFIX)


def save_draft(path: Path, text: str, expected_fingerprint: str | None = None, *, root: Path | None = None,
               content_root: Path | None = None) -> Path:
    """Keep unfinished (possibly invalid) work beside the file, clearly marked as a draft. The draft
    it replaces goes to the history; given the fingerprint of the draft as it was opened, a draft
    saved meanwhile by someone else is a ConflictError instead."""
    target = draft_path(path)
    with _saving(target, text):
        confine_write(target, _write_root(Path(path), root, content_root))
        _commit(target, expected_fingerprint, text, lambda current: (text, []))
    return target


def load_draft(path: Path, root: Path | None = None) -> str | None:
    """The text of a file's draft, None when it has none; opened as `open_for_edit` opens a file
    (confined like a write to it, bounded, UTF-8)."""
    opened = open_for_edit(draft_path(path), _write_root(Path(path), root, None))
    return None if opened.fingerprint == ABSENT else opened.text


def discard_draft(path: Path, root: Path | None = None) -> bool:
    """Remove a file's draft (its last version stays in `.history/`); whether there was one."""
    target = draft_path(path)
    with _saving(target, None):
        confine_write(target, _write_root(Path(path), root, None))
        if not os.path.lexists(target):
            return False
        with file_lock(target):
            data = _read_bytes(target)
            if data is None:
                return False
            _keep_copy(target, data, _mode_of(target))
            os.unlink(target)
            _fsync_folder(target.parent)
    return True


# ---------------------------------------------------------------- new packs
PACK_KINDS = {"house_rules": "house-rules", "expansion": "expansions"}


def create_pack(content_root: Path, pack_id: str, name: str, kind: str, builds_on: Sequence[str] = ("base",),
                *, description: str = "", version: str = "0.1.0") -> Path:
    """A new pack folder under the content root (house rules or an expansion) with a valid pack.yaml.
    One pack is created at a time (a lock in the root's history folder), and the folder appears
    whole, manifest included: it is built under a hidden name and renamed into place."""
    root = Path(content_root)
    check_pack_id(pack_id)
    if kind not in PACK_KINDS:
        raise _refuse(f"a new pack is `house_rules` or `expansion`, not `{kind}`")
    manifest: dict[str, Any] = {"id": pack_id, "name": name, "version": version, "kind": kind,
                                "builds_on": list(builds_on)}
    if description:
        manifest["description"] = description
    problems = validate(manifest, "pack", file=MANIFEST)
    if problems:
        raise _refuse(f"the pack manifest would not be valid: {problems[0].message}")
    if not root.is_dir():
        raise _refuse(f"there is no content root at {root}; the pack was not created")
    text = yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True, width=100)
    folder = root / PACK_KINDS[kind] / pack_id
    with _saving(folder, None):
        with _locked(history_folder(root) / _PACKS_LOCK, pack_id):
            _check_pack_can_be_made(root, folder, pack_id, builds_on)
            confine_write(folder, root)
            folder.parent.mkdir(parents=True, exist_ok=True)
            _clean_unfinished_packs(root)
            _place_folder(folder, {MANIFEST: text})
    return folder


def _check_pack_can_be_made(root: Path, folder: Path, pack_id: str, builds_on: Sequence[str]) -> None:
    existing = discover_packs(root)
    if pack_id in existing:
        raise _refuse(f"a pack `{pack_id}` already exists at {existing[pack_id]}")
    unknown = [b for b in builds_on if b not in existing]
    if unknown:
        raise _refuse(f"no pack `{unknown[0]}` to build on under {root}")
    if os.path.lexists(folder):
        raise _refuse(f"{folder} already exists; choose another id")


def _clean_unfinished_packs(root: Path) -> None:
    """Remove pack folders a killed `create_pack` left half built (call with the packs lock held)."""
    for kind_folder in PACK_KINDS.values():
        try:
            entries = list(os.scandir(root / kind_folder))
        except OSError:
            continue
        for entry in entries:
            if TEMPORARY.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)


def _place_folder(folder: Path, files: dict[str, str]) -> None:
    """Make `folder` holding `files` at once: built under a hidden temporary name beside it (which
    the loader never reads), then renamed into place."""
    building = folder.parent / f".{folder.name}.{secrets.token_hex(8)}.tmp"
    os.mkdir(building)
    try:
        for name, text in files.items():
            _write_whole(building / name, text.encode("utf-8"), None)
        os.rename(building, folder)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    _fsync_folder(folder.parent)


# ---------------------------------------------------------------- one item inside a file
def save_data_item(path: Path, item_text: str, expected_fingerprint: str, *, overwrite: bool = False,
                   context: Ruleset | None = None, content_root: Path | None = None) -> Saved:
    """Put one YAML data item (a mapping with an `id`) into a YAML list file: replacing the entry
    with the same id, or appended. The other entries and the file's comments are kept."""
    return _save_one(Path(path), item_text, expected_fingerprint, replace_data_item, overwrite=overwrite,
                     context=context, content_root=content_root)


def save_declaration(path: Path, declaration_text: str, expected_fingerprint: str, *, overwrite: bool = False,
                     context: Ruleset | None = None, content_root: Path | None = None) -> Saved:
    """Put one script declaration into a `.nexus` file: replacing the declaration with the same id,
    or appended. Everything else in the file is kept as written."""
    return _save_one(Path(path), declaration_text, expected_fingerprint, replace_declaration, overwrite=overwrite,
                     context=context, content_root=content_root)


def _save_one(path: Path, item_text: str, expected_fingerprint: str, replace: Callable[[str, str, str], str], *,
              overwrite: bool, context: Ruleset | None, content_root: Path | None) -> Saved:
    """Replace or append one item in a file, refusing when the file changed since it was opened.
    The new file is composed and validated before the lock is taken; under it, only when the file
    changed meanwhile (and `overwrite` asked to keep the item anyway) is it composed again."""
    with _saving(path, item_text):
        confine_write(path, _write_root(path, None, content_root))
        prepared: dict[str, tuple[str, list[Diagnostic]]] = {}

        def compose(current: _OnDisk) -> tuple[str, list[Diagnostic]]:
            if current.fingerprint not in prepared:
                new_text = replace(current.text(), item_text, str(path))
                prepared[current.fingerprint] = (new_text, _validated(path, new_text, context, content_root, item_text))
            return prepared[current.fingerprint]

        compose(_early_conflict(path, item_text, expected_fingerprint, overwrite))  # validated before the lock
        return _commit(path, None if overwrite else expected_fingerprint, item_text, compose)


def overwrite_diff(conflict: ConflictError, script: bool) -> str:
    """What "keep mine" would change in the file as it is on disk now: a unified diff from the
    version on disk to that version with the saved item put in (a script declaration, or a YAML
    data item), so the other edit is seen before it is overwritten. Empty when nothing would change;
    the whole item as added when the file was deleted meanwhile."""
    disk = conflict.disk_text or ""
    try:
        mine = (replace_declaration if script else replace_data_item)(disk, conflict.your_text, str(conflict.path))
    except (NexusError, StoreError):  # the item does not parse: the save itself says why
        mine = disk + conflict.your_text
    name = conflict.path.name
    return "".join(difflib.unified_diff(disk.splitlines(keepends=True), mine.splitlines(keepends=True),
                                        f"{name} (on disk)", f"{name} (with yours)"))


def replace_declaration(file_text: str, declaration_text: str, file: str = "<file>") -> str:
    """The file's text with the declaration of the same kind and id replaced (or appended)."""
    try:
        new = parse(declaration_text, "<item>").declarations
    except NexusError as error:
        raise InvalidContentError(Path(file), error.diagnostics) from None
    if len(new) != 1:
        raise _refuse(f"give exactly one declaration to save (found {len(new)})")
    declaration = new[0]
    body = declaration_text.strip("\n") + "\n"
    if not file_text.strip():
        return body
    try:
        existing = parse(file_text, file).declarations
    except NexusError:
        raise _refuse(f"{Path(file).name} does not parse, so its declarations cannot be found; fix it "
                      f"or save the whole file") from None
    lines = source_lines(file_text, keepends=True)  # the lines the declarations' positions count
    for old in existing:
        if old.id == declaration.id and old.kind == declaration.kind:
            start, end = old.pos.line - 1, old.pos.end_line
            return "".join(lines[:start]) + body + "".join(lines[end:])
    return file_text.rstrip("\n") + "\n\n" + body


def replace_data_item(file_text: str, item_text: str, file: str = "<file>") -> str:
    """The list file's text with the entry of the same id replaced (or appended), text-level so
    comments and the other entries stay exactly as written."""
    try:
        item, _ = load_yaml_with_positions(item_text, "<item>")
    except NexusError as error:
        raise InvalidContentError(Path(file), error.diagnostics) from None
    if not isinstance(item, dict) or not isinstance(item.get("id"), str):
        raise _refuse("a data item is a YAML mapping with an `id`")
    entry = _as_list_entry(item_text)
    if not file_text.strip():
        return entry
    try:
        document, locate = compose_yaml(file_text, file)
    except NexusError:
        raise _refuse(f"{Path(file).name} is not readable YAML, so its entries cannot be found; fix it first") from None
    if document is None:
        return file_text.rstrip("\n") + "\n" + entry
    if not isinstance(document, yaml.SequenceNode) or document.flow_style:
        raise _refuse(f"{Path(file).name} does not hold a list of items; save the item into its own list file")
    lines = source_lines(file_text, keepends=True)  # the lines `locate` counts
    for node in document.value:
        if isinstance(node, yaml.MappingNode) and _id_of(node) == item["id"]:
            start, end = locate(node)[0], last_line(node, locate)
            return "".join(lines[:start - 1]) + entry + "".join(lines[end:])
    return file_text.rstrip("\n") + "\n" + entry


def _id_of(node: yaml.MappingNode) -> str | None:
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "id" and isinstance(value, yaml.ScalarNode):
            return value.value
    return None


Locate = Callable[[Any], tuple[int, int]]  # `compose_yaml`'s: a node's or a mark's (line, column)


def last_line(node: yaml.Node, locate: Locate) -> int:
    """The 1-based line of the last character of a node's own text (not of what follows it), lines
    counted by `\n` as `locate` (from `compose_yaml`) counts them."""
    start = locate(node)[0]
    if isinstance(node, yaml.MappingNode) and not node.flow_style:
        return max((max(last_line(k, locate), last_line(v, locate)) for k, v in node.value), default=start)
    if isinstance(node, yaml.SequenceNode) and not node.flow_style:
        return max((last_line(v, locate) for v in node.value), default=start)
    line, column = locate(node.end_mark)
    if column == 1 and line > start:  # the end is the start of the next line: the text ended before it
        line -= 1
    return max(line, start)


def _as_list_entry(item_text: str) -> str:
    """A mapping's text as an entry of a block list: `- ` before the first line, the rest indented."""
    lines = [line.rstrip() for line in source_lines(item_text.strip("\n"))]
    out = []
    first = True
    for line in lines:
        if first and line.strip() and not line.lstrip().startswith("#"):
            out.append("- " + line)
            first = False
        else:
            out.append(("  " + line) if line.strip() else "")
    return "\n".join(out) + "\n"
