"""Saving content so that work is never lost.

- Every write is atomic: a temporary file in the same folder, fsync, `os.replace`.
- The previous version of a file is kept in `<folder>/.history/<name>.<UTC timestamp>` (the loader
  never reads hidden folders).
- A file changed on disk since it was opened is never silently overwritten: `save` raises
  `ConflictError` carrying both versions unless told `overwrite=True` (the editor's "keep mine").
- Nothing is written outside the content root whatever name is typed (`safe_path`).
- Content that does not validate is refused; it can be kept as a draft (`<name>.draft`), which the
  loader never reads.
- `save_data_item` and `save_declaration` replace one item of a file (by id) or append it, keeping
  the rest of the file, comments included.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

from ..content.loader import MANIFEST, SCRIPT_SUFFIX, YAML_SUFFIXES, discover_packs, is_set_aside
from ..content.ruleset import Ruleset
from ..errors import Diagnostic, NexusError
from ..schema import load_yaml_with_positions, validate
from ..syntax.parser import parse
from ..validate_files import check_script_text, check_yaml_text
from .packs import load_packs, pack_of

HISTORY_FOLDER = ".history"
HISTORY_KEEP = 50  # versions kept per file
DRAFT_SUFFIX = ".draft"
ALLOWED_SUFFIXES = (SCRIPT_SUFFIX, ".yaml")
PACK_ID = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
_NAME_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$")
MAX_NAME_LENGTH = 200
ABSENT = "absent"  # the fingerprint of a file that does not exist yet


class StoreError(Exception):
    """A save that was refused, with a message a designer can act on."""


class ConflictError(StoreError):
    """The file changed on disk since it was opened. Both versions are kept on the error."""

    def __init__(self, path: Path, disk_text: str | None, your_text: str, disk_fingerprint: str):
        self.path = path
        self.disk_text = disk_text  # None when the file was deleted meanwhile
        self.your_text = your_text
        self.disk_fingerprint = disk_fingerprint
        what = "was deleted" if disk_text is None else "was changed"
        super().__init__(f"{path.name} {what} on disk since you opened it; keep yours (overwrite) or reload theirs")


class InvalidContentError(StoreError):
    """The content does not validate; it may be saved as a draft instead."""

    def __init__(self, path: Path, diagnostics: Sequence[Diagnostic]):
        self.path = path
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0].message if self.diagnostics else "it does not validate"
        super().__init__(f"{path.name} was not saved: {first} ({len(self.diagnostics)} problem(s)); "
                         f"save it as a draft to keep the work")


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


# ---------------------------------------------------------------- fingerprints and atomic writes
def fingerprint_of(path: Path) -> str:
    """A digest of the file's bytes (ABSENT when it does not exist): equal exactly when the content is."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return ABSENT
    return hashlib.sha256(data).hexdigest()


def open_for_edit(path: Path) -> Opened:
    """The file's text and fingerprint; a file that does not exist yet opens empty."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Opened("", ABSENT)
    return Opened(data.decode("utf-8", errors="replace"), hashlib.sha256(data).hexdigest())


def atomic_write(path: Path, text: str) -> None:
    """Write all of `text` or nothing: a temporary file beside the target, fsynced, then renamed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the platform allows opening a folder)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def keep_previous(path: Path) -> Path | None:
    """Copy the current version of a file into `.history/` beside it; None when there is none."""
    path = Path(path)
    if not path.is_file():
        return None
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    backup = path.parent / HISTORY_FOLDER / f"{path.name}.{stamp}"
    counter = 1
    while backup.exists():
        backup = path.parent / HISTORY_FOLDER / f"{path.name}.{stamp}-{counter}"
        counter += 1
    atomic_write(backup, path.read_bytes().decode("utf-8", errors="replace"))
    for old in history_of(path)[:-HISTORY_KEEP]:  # the oldest go once a file has many versions
        old.unlink(missing_ok=True)
    return backup


def history_of(path: Path) -> list[Path]:
    """The kept versions of a file, oldest first."""
    path = Path(path)
    folder = path.parent / HISTORY_FOLDER
    if not folder.is_dir():
        return []
    kept = re.compile(re.escape(path.name) + r"\.\d{8}T\d{12}Z(-\d+)?$")
    return sorted(p for p in folder.iterdir() if kept.match(p.name))


# ---------------------------------------------------------------- where a name may be written
def _refuse(message: str) -> StoreError:
    return StoreError(message)


def check_relative_name(relative_name: str) -> tuple[str, ...]:
    """The parts of a file name typed by a user, or StoreError saying why it cannot be used."""
    if not isinstance(relative_name, str) or not relative_name.strip():
        raise _refuse("give the file a name, such as `cards/bribes.nexus`")
    if len(relative_name) > MAX_NAME_LENGTH:
        raise _refuse(f"the file name is too long (at most {MAX_NAME_LENGTH} characters)")
    if "\\" in relative_name or "\x00" in relative_name:
        raise _refuse("use `/` between folders, and only letters, digits, `_`, `-` and `.` in names")
    if relative_name.startswith("/") or re.match(r"^[A-Za-z]:", relative_name):
        raise _refuse("give a name inside the pack (such as `cards/bribes.nexus`), not an absolute path")
    parts = tuple(relative_name.split("/"))
    if any(part in ("", ".", "..") for part in parts):
        raise _refuse("a file name cannot contain `..`, `.` or empty folder names: it must stay inside the pack")
    for part in parts:
        if not _NAME_PART.match(part):
            raise _refuse(f"`{part}` is not a usable name: use letters, digits, `_`, `-` and `.`, "
                          f"not starting with `.` or `-`")
    if parts[-1] == MANIFEST:
        return parts
    if not parts[-1].endswith(ALLOWED_SUFFIXES) or Path(parts[-1]).stem == "":
        raise _refuse("content files end in `.nexus` (rule scripts) or `.yaml` (data)")
    if any(part in ("drafts",) for part in parts[:-1]):
        raise _refuse("`drafts` folders are never loaded; choose another folder name")
    return parts


def pack_folder(content_root: Path, pack_id: str) -> Path:
    """The folder of a pack under the content root, or StoreError."""
    if not isinstance(pack_id, str) or not PACK_ID.match(pack_id):
        raise _refuse(f"`{pack_id}` is not a pack id (snake_case: lower-case letters, digits and `_`)")
    found = discover_packs(Path(content_root))
    if pack_id not in found:
        raise _refuse(f"there is no pack `{pack_id}` under {content_root}")
    return found[pack_id]


def safe_path(content_root: Path, pack_id: str, relative_name: str) -> Path:
    """Where `relative_name` lives inside the pack, refusing anything that could leave it: absolute
    paths, `..`, odd characters, names that are not `*.nexus`/`*.yaml`, and symbolic links."""
    parts = check_relative_name(relative_name)
    root = Path(content_root).resolve()
    folder = pack_folder(content_root, pack_id)
    if folder.is_symlink() or not _inside(folder.resolve(), root):
        raise _refuse(f"pack `{pack_id}` lies outside the content root")
    candidate = folder
    for part in parts:
        candidate = candidate / part
        if candidate.is_symlink():
            raise _refuse(f"`{relative_name}` goes through a symbolic link; write to a plain file inside the pack")
    if candidate.exists() and not candidate.is_file():
        raise _refuse(f"`{relative_name}` is a folder, not a file")
    if not _inside(candidate.resolve(), folder.resolve()):
        raise _refuse(f"`{relative_name}` leads outside the pack")
    return candidate


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


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
            return check_script_text(text, file, context) + _defined_elsewhere(path, text, context)
        if path.suffix in YAML_SUFFIXES:
            return check_yaml_text(text, file, path, context)
    except NexusError as error:
        return list(error.diagnostics)
    return [Diagnostic("content/unknown_file", f"{path.name} is not a content file (.nexus or .yaml)", file)]


def _defined_elsewhere(path: Path, text: str, context: Ruleset | None) -> list[Diagnostic]:
    """Declarations that another file of the same pack already defines (the pack would not load)."""
    folder = pack_of(path)
    if context is None or folder is None:
        return []
    try:
        declarations = parse(text, str(path)).declarations
    except NexusError:
        return []
    problems = []
    for declaration in declarations:
        existing = context.scripts.get(declaration.kind, {}).get(declaration.id)
        if existing is None:
            continue
        other = Path(existing.origin.file).resolve()
        if other != path.resolve() and _inside(other, folder.resolve()):
            problems.append(Diagnostic(
                "content/duplicate_id", f"{declaration.kind} `{declaration.id}` is already defined in this pack",
                str(path), declaration.pos.line, declaration.pos.column,
                hint=f"defined at {existing.origin.file}:{existing.origin.line}; choose another id or edit that one"))
    return problems


def _context_for(path: Path, content_root: Path | None) -> Ruleset | None:
    folder = pack_of(path)
    if folder is None:
        return None
    try:
        data = yaml.safe_load((folder / MANIFEST).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return None
    if not isinstance(data, dict):
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
    if _inside(pack_folder_path.resolve(), default):
        return default
    for ancestor in list(pack_folder_path.parents)[:2]:
        found = discover_packs(ancestor)
        if all(b in found for b in builds_on):
            return ancestor
    return pack_folder_path.parent


def _errors(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.severity == "error"]


# ---------------------------------------------------------------- saving
def save(path: Path, text: str, expected_fingerprint: str, *, overwrite: bool = False,
         context: Ruleset | None = None, content_root: Path | None = None, check: bool = True) -> Saved:
    """Save `text` to `path` atomically, keeping the previous version.

    Raises ConflictError when the file is no longer what was opened (unless `overwrite`), and
    InvalidContentError when the text does not validate (use `save_draft` to keep such work).
    """
    path = Path(path)
    on_disk = fingerprint_of(path)
    if on_disk != expected_fingerprint and not overwrite:
        disk_text = None if on_disk == ABSENT else open_for_edit(path).text
        raise ConflictError(path, disk_text, text, on_disk)
    diagnostics = check_file_text(path, text, context, content_root) if check else []
    errors = _errors(diagnostics)
    if errors:
        raise InvalidContentError(path, errors)
    warnings = [d for d in diagnostics if d.severity != "error"]
    if on_disk != ABSENT and on_disk == hashlib.sha256(text.encode("utf-8")).hexdigest():
        return Saved(path, on_disk, None, warnings)  # nothing changed: no write, no history entry
    backup = keep_previous(path)
    atomic_write(path, text)
    return Saved(path, fingerprint_of(path), backup, warnings)


def draft_path(path: Path) -> Path:
    """Where the draft of a file is kept: `<name>.draft` beside it (never loaded)."""
    path = Path(path)
    return path.with_name(path.name + DRAFT_SUFFIX)


def save_draft(path: Path, text: str) -> Path:
    """Keep unfinished (possibly invalid) work beside the file, clearly marked as a draft."""
    target = draft_path(path)
    keep_previous(target)
    atomic_write(target, text)
    return target


def load_draft(path: Path) -> str | None:
    target = draft_path(path)
    return target.read_text(encoding="utf-8") if target.is_file() else None


def discard_draft(path: Path) -> bool:
    """Remove a file's draft (its last version stays in `.history/`); whether there was one."""
    target = draft_path(path)
    if not target.is_file():
        return False
    keep_previous(target)
    target.unlink()
    return True


# ---------------------------------------------------------------- new packs
PACK_KINDS = {"house_rules": "house-rules", "expansion": "expansions"}


def create_pack(content_root: Path, pack_id: str, name: str, kind: str, builds_on: Sequence[str] = ("base",),
                *, description: str = "", version: str = "0.1.0") -> Path:
    """A new pack folder under the content root (house rules or an expansion) with a valid pack.yaml."""
    root = Path(content_root)
    if not isinstance(pack_id, str) or not PACK_ID.match(pack_id):
        raise _refuse(f"`{pack_id}` is not a valid pack id: use snake_case (lower-case letters, digits and `_`)")
    if kind not in PACK_KINDS:
        raise _refuse(f"a new pack is `house_rules` or `expansion`, not `{kind}`")
    existing = discover_packs(root)
    if pack_id in existing:
        raise _refuse(f"a pack `{pack_id}` already exists at {existing[pack_id]}")
    unknown = [b for b in builds_on if b not in existing]
    if unknown:
        raise _refuse(f"no pack `{unknown[0]}` to build on under {root}")
    manifest: dict[str, Any] = {"id": pack_id, "name": name, "version": version, "kind": kind,
                                "builds_on": list(builds_on)}
    if description:
        manifest["description"] = description
    problems = validate(manifest, "pack", file=MANIFEST)
    if problems:
        raise _refuse(f"the pack manifest would not be valid: {problems[0].message}")
    folder = root / PACK_KINDS[kind] / pack_id
    if folder.exists():
        raise _refuse(f"{folder} already exists; choose another id")
    folder.mkdir(parents=True)
    atomic_write(folder / MANIFEST, yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True, width=100))
    return folder


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
    """Replace or append one item in a file, refusing when the file changed since it was opened."""
    current = open_for_edit(path)
    if current.fingerprint != expected_fingerprint and not overwrite:
        raise ConflictError(path, None if current.fingerprint == ABSENT else current.text, item_text,
                            current.fingerprint)
    new_text = replace(current.text, item_text, str(path))
    return save(path, new_text, current.fingerprint, context=context, content_root=content_root)


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
    lines = file_text.splitlines(keepends=True)
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
        document = yaml.compose(file_text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        raise _refuse(f"{Path(file).name} is not readable YAML, so its entries cannot be found; fix it first") from None
    if document is None:
        return file_text.rstrip("\n") + "\n" + entry
    if not isinstance(document, yaml.SequenceNode) or document.flow_style:
        raise _refuse(f"{Path(file).name} does not hold a list of items; save the item into its own list file")
    lines = file_text.splitlines(keepends=True)
    for node in document.value:
        if isinstance(node, yaml.MappingNode) and _id_of(node) == item["id"]:
            start = node.start_mark.line
            end = last_line(node) + 1
            return "".join(lines[:start]) + entry + "".join(lines[end:])
    return file_text.rstrip("\n") + "\n" + entry


def _id_of(node: yaml.MappingNode) -> str | None:
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "id" and isinstance(value, yaml.ScalarNode):
            return value.value
    return None


def last_line(node: yaml.Node) -> int:
    """The 0-based line of the last character of a node's own text (not of what follows it)."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style:
        return max((max(last_line(k), last_line(v)) for k, v in node.value), default=node.start_mark.line)
    if isinstance(node, yaml.SequenceNode) and not node.flow_style:
        return max((last_line(v) for v in node.value), default=node.start_mark.line)
    end = node.end_mark
    line = end.line - 1 if end.column == 0 and end.line > node.start_mark.line else end.line
    return max(line, node.start_mark.line)


def _as_list_entry(item_text: str) -> str:
    """A mapping's text as an entry of a block list: `- ` before the first line, the rest indented."""
    lines = [line.rstrip() for line in item_text.strip("\n").splitlines()]
    out = []
    first = True
    for line in lines:
        if first and line.strip() and not line.lstrip().startswith("#"):
            out.append("- " + line)
            first = False
        else:
            out.append(("  " + line) if line.strip() else "")
    return "\n".join(out) + "\n"


def in_pack_files(folder: Path) -> list[Path]:
    """The files of a pack the loader reads (not drafts, history or temporary files)."""
    return sorted(p for p in Path(folder).rglob("*") if p.is_file() and not is_set_aside(p, folder)
                  and (p.suffix == SCRIPT_SUFFIX or p.suffix in YAML_SUFFIXES))
