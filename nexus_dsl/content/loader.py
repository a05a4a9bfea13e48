"""Load content packs: find them, parse and validate every file, layer them into a Ruleset.

One pass per pack (boardgame.io's ProcessGameConfig in spirit): YAML is safe-loaded with positions,
rule scripts are parsed; everything is checked against JSON Schema; then the layered result is
checked as a whole (names resolve across packs, references are not dangling) and frozen.
Every problem found is collected, so `nexus check` reports them all in one run.

Packs come from strangers. Every file is read through `files.read_content` with its pack folder as
the root: a file that leads outside the pack (a symbolic link) is refused (`content/outside_root`)
and its text is never kept in `sources`, so no error excerpt can show it. A pack holds at most
`max_pack_files` content files of at most `max_pack_bytes` together, a data file at most
`max_items_per_file` items (`limits.py`); the limits a caller hands over reach every read, parse
and YAML load of the packs, manifests included. A pack's files are walked lazily, so a folder of a
million files costs no more than its first `max_pack_files` + 1. A file that cannot be read or
loaded is reported and the other files and packs are still loaded and checked; the texts that were
read are kept (`LoadOutcome.sources`) whether or not the packs loaded, for the excerpts under
their errors. Each manifest is read once per load (`find_manifests`) and handed on (`Manifest`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from ..check.checker import Checker
from ..check.context import context_of, setting_type
from ..errors import ContentError, Diagnostic, NexusError, did_you_mean
from ..files import decode_content, inside, read_content, read_content_bytes
from ..limits import INPUT_LIMITS, InputLimits
from ..model.ruleset import DATA_TYPES, DataItem, Origin, PackInfo, Ruleset, ScriptItem, freeze_mapping
from ..model.values import constant_value
from ..schema import canonical_as, load_yaml_with_positions, schema_name_for_kind, validate
from ..schema.validate import save_verdicts
from ..syntax import ast_nodes as A
from ..syntax.canonical import to_canonical
from ..syntax.parse_cache import parse_file
from .root import default_content_root

SCRIPT_SUFFIX = ".nexus"
YAML_SUFFIXES = (".yaml", ".yml")
MANIFEST = "pack.yaml"


@dataclass
class LoadedPack:
    info: PackInfo
    scripts: list[ScriptItem] = field(default_factory=list)
    data: list[DataItem] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # the texts read, the manifest's included


@dataclass(frozen=True)
class LoadOutcome:
    """What loading packs gave: the ruleset (None when anything is wrong), every problem, and the
    text of every file read, by the name diagnostics give it, for the excerpts under the problems.
    The sources are kept whether or not the ruleset loaded, and hold only what was read: never a
    file that leads outside its pack, and no more than the pack limits let the loader read."""

    ruleset: Ruleset | None
    diagnostics: list[Diagnostic]
    sources: dict[str, str]


def _display(path: Path) -> str:
    """How a file is named in messages and `sources`: relative to the working folder when below it.
    No link is followed: a file or folder that is a link is named as the link, never as its target."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(os.path.abspath(os.getcwd())))
    except (ValueError, OSError):
        return str(path)


# Folders inside a pack that are never loaded: the editor's drafts of unfinished content and any
# hidden folder (such as `.history`, where saving keeps the previous versions of a file).
SET_ASIDE_FOLDERS = ("drafts",)


def is_set_aside(path: Path, folder: Path) -> bool:
    """Whether a file under a pack (or content) folder is kept out of loading: anything in a hidden
    folder or a `drafts/` folder, and hidden files (e.g. a save's temporary file)."""
    try:
        parts = path.relative_to(folder).parts
    except ValueError:
        parts = path.parts
    return any(part.startswith(".") or part in SET_ASIDE_FOLDERS for part in parts[:-1]) or path.name.startswith(".")


@dataclass(frozen=True)
class Manifest:
    """A pack's `pack.yaml`, read, loaded and validated once (when packs are discovered, or when a
    pack is named by its folder) and handed to every step that needs it: ordering the packs,
    loading the pack, the editor's list of packs."""

    folder: Path
    file: str  # as messages name it
    text: str | None  # None when it could not be read
    data: Any  # the YAML it holds; None when it could not be loaded
    info: PackInfo | None  # None when it is not a valid manifest: `problems` say why
    problems: tuple[Diagnostic, ...] = ()

    @property
    def ident(self) -> str | None:
        """The id it gives, even when the rest of it is not valid (loading the pack says why)."""
        ident = self.data.get("id") if isinstance(self.data, dict) else None
        return ident if isinstance(ident, str) else None


def read_manifest(folder: Path, limits: InputLimits = INPUT_LIMITS) -> Manifest:
    """The manifest of the pack in `folder`, read confined to the folder and within `limits`."""
    manifest = folder / MANIFEST
    file = _display(manifest)
    if not manifest.is_file():
        return Manifest(folder, file, None, None, None, (Diagnostic(
            "content/no_manifest", f"{_display(folder)} is not a pack: it has no {MANIFEST}", file),))
    try:
        text = read_content(manifest, folder, file, limits)
    except NexusError as error:
        return Manifest(folder, file, None, None, None, tuple(error.diagnostics))
    try:
        data, positions = load_yaml_with_positions(text, file, limits=limits, empty_allowed=False)
    except NexusError as error:
        return Manifest(folder, file, text, None, None, tuple(error.diagnostics))
    problems = validate(data, "pack", file=file, locate=positions.get, remember=True)
    if problems:
        return Manifest(folder, file, text, data, None, tuple(problems))
    builds_on = tuple(data.get("builds_on", []))
    info = PackInfo(
        id=data["id"], name=data["name"], version=str(data["version"]),
        builds_on=builds_on, path=str(folder), kind=data.get("kind", "base"),
        description=data.get("description", ""),
        builds_on_positions=tuple(positions.get(("builds_on", i), (1, 1)) for i in range(len(builds_on))),
    )
    return Manifest(folder, file, text, data, info)


def manifest_files(root: Path) -> list[Path]:
    """Every manifest under the content root that discovery reads (none in a hidden or `drafts/`
    folder; links to folders are not entered), in the order of their paths."""
    return [path for path in sorted(root.rglob(MANIFEST)) if not is_set_aside(path, root)]


def find_manifests(root: Path | None = None, limits: InputLimits = INPUT_LIMITS,
                   files: Sequence[Path] | None = None) -> dict[str, Manifest]:
    """The manifest of every pack under the content root, by the id it gives (the first found, in
    the order of their paths, when two give the same id). A manifest that gives no id is passed
    over here; loading that pack by its folder reports why. `files`: the root's `manifest_files`,
    where the caller has listed them already."""
    root = root or default_content_root()
    found: dict[str, Manifest] = {}
    for path in manifest_files(root) if files is None else files:
        manifest = read_manifest(path.parent, limits)
        if manifest.ident is not None:
            found.setdefault(manifest.ident, manifest)
    return found


def discover_packs(root: Path | None = None) -> dict[str, Path]:
    """Every pack under the content root, by id (a pack is a folder holding pack.yaml). A manifest
    that cannot be read or loaded is passed over here; loading that pack reports why."""
    return {ident: manifest.folder for ident, manifest in find_manifests(root).items()}


def linked_pack_folders(root: Path) -> list[Path]:
    """Folders under `root` (outside hidden and `drafts/` folders) that are symbolic links leading
    outside it and hold a pack.yaml. Discovery never follows them (their files would be read from
    outside the root); they are listed only to say why such a pack is not loaded: `nexus check`
    reports each (`linked_pack_problem`), and asking for one by name says so (`unknown_pack`)."""
    resolved_root = root.resolve()
    found: list[Path] = []
    for folder, subfolders, _ in os.walk(root):  # links to folders are listed, never entered
        subfolders[:] = sorted(name for name in subfolders
                               if not name.startswith(".") and name not in SET_ASIDE_FOLDERS)
        for name in subfolders:
            candidate = Path(folder) / name
            if candidate.is_symlink() and (candidate / MANIFEST).is_file() \
                    and not inside(candidate.resolve(), resolved_root):
                found.append(candidate)
    return found


def linked_pack_problem(linked: Path, root: Path) -> Diagnostic:
    """A pack folder that is a symbolic link leading outside `root`, at its manifest (which is not read)."""
    return Diagnostic("content/outside_root", f"the pack folder `{linked.name}` is a symbolic link leading outside "
                      f"{_display(root)}; it is not read", _display(linked / MANIFEST), 1, 1,
                      hint=f"copy the pack into {_display(root)} instead of linking to it")


def unknown_pack(ident: str, root: Path, available: Mapping[str, Any]) -> Diagnostic:
    """Why the pack asked for by `ident` cannot be loaded: its folder is a link leading outside the
    root (its manifest is not read, so only the folder's name tells), or there is no such pack."""
    linked = next((folder for folder in linked_pack_folders(root) if folder.name == ident), None)
    if linked is not None:
        return linked_pack_problem(linked, root)
    return Diagnostic("content/unknown_pack", f"no pack `{ident}` under {_display(root)}", "<packs>",
                      hint=did_you_mean(ident, available))


def _script_locator(declaration: A.Declaration):
    """Map a JSON path in a declaration's canonical form back to a source position."""

    def locate(path: tuple) -> tuple[int, int] | None:
        node: Any = declaration
        if len(path) >= 2 and path[0] == "clauses" and isinstance(path[1], int) and path[1] < len(declaration.clauses):
            node = declaration.clauses[path[1]]
            if isinstance(node, A.Cost) and len(path) >= 4 and path[2] == "items" and isinstance(path[3], int):
                if path[3] < len(node.items):
                    item = node.items[path[3]]
                    node = item.amount if len(path) >= 5 and path[4] == "amount" else item
        return (node.pos.line, node.pos.column) if node.pos.line else None

    return locate


def load_pack_folder(folder: Path, diagnostics: list[Diagnostic], limits: InputLimits = INPUT_LIMITS,
                     manifest: Manifest | None = None) -> LoadedPack | None:
    """The pack in `folder`, every file read within `limits` (`manifest`: its manifest, when already
    read); None when its manifest is not valid. Every problem is added to `diagnostics`."""
    manifest = manifest or read_manifest(folder, limits)
    diagnostics.extend(manifest.problems)
    if manifest.info is None:
        return None
    info = manifest.info
    pack = LoadedPack(info, sources={manifest.file: manifest.text} if manifest.text is not None else {})
    seen: dict[tuple[str, str], Origin] = {}
    total_bytes = 0
    for count, path in enumerate(content_files(folder), start=1):
        file = _display(path)
        if count > limits.max_pack_files:
            diagnostics.append(Diagnostic(
                "content/too_many_files", f"pack `{info.id}` holds more than {limits.max_pack_files:,} content files; "
                "this one and those after it are not loaded", file, hint="split the pack into several packs"))
            break
        try:
            data = read_content_bytes(path, folder, file, limits)
        except NexusError as error:
            diagnostics.extend(error.diagnostics)
            continue
        total_bytes += len(data)
        if total_bytes > limits.max_pack_bytes:
            diagnostics.append(Diagnostic(
                "content/pack_too_large", f"pack `{info.id}` holds more than {limits.max_pack_bytes:,} bytes of content; "
                "this file and those after it are not loaded", file, hint="split the pack into several packs"))
            break
        try:
            text = decode_content(data, file)
        except NexusError as error:
            diagnostics.extend(error.diagnostics)
            continue
        pack.sources[file] = text
        _guarded(file, diagnostics, lambda: _load_file(pack, path, text, file, seen, diagnostics, limits))
    return pack


def content_files(folder: Path) -> Iterator[Path]:
    """The files of a pack the loader reads, in the order of their paths: rule scripts and YAML
    data, not the manifest, nothing set aside (`is_set_aside`), no folder entered through a link.
    The walk is lazy: it goes no further than its caller asks (the loader stops one file beyond
    `max_pack_files`), and lists one folder at a time."""
    pending = [iter(_entries(folder))]  # the folders being walked, innermost last
    while pending:
        entry = next(pending[-1], None)
        if entry is None:
            pending.pop()
        elif entry.is_dir(follow_symlinks=False):
            if not entry.name.startswith(".") and entry.name not in SET_ASIDE_FOLDERS:
                pending.append(iter(_entries(Path(entry.path))))
        elif _is_content_file(entry):
            yield Path(entry.path)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    """A folder's entries sorted by name: walked depth-first, they come in the order of their paths."""
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda entry: entry.name)
    except OSError:  # a folder that cannot be listed holds nothing the loader can read
        return []


def _is_content_file(entry: os.DirEntry[str]) -> bool:
    name = entry.name
    suffix = os.path.splitext(name)[1]
    if suffix not in (SCRIPT_SUFFIX, *YAML_SUFFIXES) or name == MANIFEST or name.startswith("."):
        return False
    try:
        return entry.is_file()  # a link to a file counts: reading it refuses it when it leads outside the pack
    except OSError:  # a link to itself, say: nothing to read
        return False


def _load_file(pack: LoadedPack, path: Path, text: str, file: str, seen: dict, diagnostics: list[Diagnostic],
               limits: InputLimits) -> None:
    if path.suffix == SCRIPT_SUFFIX:
        _load_script_file(pack, text, file, seen, diagnostics, limits)
    else:
        _load_data_file(pack, path, text, file, seen, diagnostics, limits)


def _guarded(file: str, diagnostics: list[Diagnostic], work: Callable[[], None]) -> None:
    """Run one file's loading; a fault of the tool itself on that file (an exception that is not a
    user's error) becomes a diagnostic for that file, so the other files are still loaded."""
    try:
        work()
    except NexusError as error:
        diagnostics.extend(error.diagnostics)
    except Exception as error:  # noqa: BLE001 - the boundary between one file and the rest
        diagnostics.append(internal_error(file, error))


def internal_error(file: str, error: BaseException) -> Diagnostic:
    """A fault of nexus_dsl met while checking `file`, reported instead of a traceback."""
    return Diagnostic("internal/error", f"nexus_dsl failed while checking this file ({type(error).__name__})", file,
                      hint="this is a fault of the tool, not of the file's author; please report it with the file")


def _load_script_file(pack: LoadedPack, text: str, file: str, seen: dict, diagnostics: list[Diagnostic],
                      limits: InputLimits) -> None:
    try:
        module = parse_file(text, file, limits)
    except NexusError as error:
        diagnostics.extend(error.diagnostics)
        return
    for declaration in module.declarations:
        origin = Origin(pack.info.id, file, declaration.pos.line)
        key = (declaration.kind, declaration.id)
        if key in seen:
            first = seen[key]
            diagnostics.append(Diagnostic(
                "content/duplicate_id", f"{declaration.kind} `{declaration.id}` is defined twice in pack `{pack.info.id}`",
                file, declaration.pos.line, declaration.pos.column, declaration.pos.column + len(declaration.id),
                hint=f"first defined at {first.file}:{first.line}",
            ))
            continue
        seen[key] = origin
        if declaration.kind in A.DECLARATION_KINDS:  # a declared kind's schema is known once the kinds in view are
            diagnostics.extend(_validate_declaration(declaration, file))
        pack.scripts.append(ScriptItem(declaration, origin))


def _validate_declaration(declaration: A.Declaration, file: str, like: str | None = None) -> list[Diagnostic]:
    """`declaration` against the schema of its kind, or of `like`: the built-in kind a kind content
    declares is like, which it is validated as (its canonical form's kind read as that one).
    Schema validation is much of the cost of loading a pack: a declaration already proved valid is
    remembered (`validate(remember=True)`), so a reload only validates what changed."""
    schema = schema_name_for_kind(like or declaration.kind)
    canonical = canonical_as(to_canonical(declaration), like)
    return validate(canonical, schema, file=file, locate=_script_locator(declaration), remember=True)


def _data_type_of(path: Path) -> str | None:
    for candidate in (path.parent.name, path.stem):
        if candidate in DATA_TYPES:
            return candidate
    return None


def _load_data_file(pack: LoadedPack, path: Path, text: str, file: str, seen: dict, diagnostics: list[Diagnostic],
                    limits: InputLimits = INPUT_LIMITS) -> None:
    data_type = _data_type_of(path)
    if data_type is None:
        diagnostics.append(Diagnostic(
            "content/unknown_file", f"cannot tell what {path.name} holds",
            file, hint="YAML data lives in barges/, lanistas/, motivations/ or objects/ (or a file of that name)",
        ))
        return
    try:
        data, positions = load_yaml_with_positions(text, file, limits=limits, max_items=limits.max_items_per_file,
                                                   empty_allowed=False)
    except NexusError as error:
        diagnostics.extend(error.diagnostics)
        return
    items = data if isinstance(data, list) else [data]
    for index, item in enumerate(items):
        prefix: tuple = (index,) if isinstance(data, list) else ()

        def locate(p: tuple, prefix: tuple = prefix) -> tuple[int, int] | None:
            return positions.get(prefix + tuple(p))

        problems = validate(item, DATA_TYPES[data_type], file=file, locate=locate, remember=True)
        diagnostics.extend(problems)
        if problems or not isinstance(item, dict):
            continue
        line = (positions.get(prefix) or positions.get(prefix + ("id",)) or (0, 0))[0]
        key = (data_type, item["id"])
        if key in seen:
            diagnostics.append(Diagnostic(
                "content/duplicate_id", f"{data_type[:-1]} `{item['id']}` is defined twice in pack `{pack.info.id}`",
                file, line, 1, hint=f"first defined at {seen[key].file}:{seen[key].line}",
            ))
            continue
        origin = Origin(pack.info.id, file, line)
        seen[key] = origin
        own_positions = {path[len(prefix):]: at for path, at in positions.items() if path[:len(prefix)] == prefix}
        pack.data.append(DataItem(data_type, item["id"], freeze_mapping(dict(item)), origin, own_positions))


# ---------------------------------------------------------------- layering
def _resolve_order(requested: Iterable[str | Path], root: Path, diagnostics: list[Diagnostic],
                   manifests: Mapping[str, Manifest], limits: InputLimits) -> list[Manifest]:
    """The manifests of the packs to load, in load order: each after the packs it builds on,
    otherwise in the order asked. A pack asked for may be named by id or folder; a pack built on,
    by id only. `manifests` are those discovered under the root: each is read once."""
    by_folder = {_folder_key(manifest.folder): manifest for manifest in manifests.values()}
    order: list[Manifest] = []
    placed: set[str] = set()
    trail: list[tuple[PackInfo, int]] = []  # the packs being visited, each with the builds_on entry followed

    def manifest_for(ref: str | Path) -> Manifest | None:
        as_path = Path(ref)
        if (as_path / MANIFEST).is_file():
            return by_folder.get(_folder_key(as_path)) or read_manifest(as_path, limits)
        if str(ref) in manifests:
            return manifests[str(ref)]
        diagnostics.append(unknown_pack(str(ref), root, manifests))
        return None

    def visit(manifest: Manifest) -> None:
        key = _folder_key(manifest.folder)
        if key in placed:
            return
        info = manifest.info
        if info is None:
            placed.add(key)
            order.append(manifest)  # loading it reports the manifest problems
            return
        if any(info.id == visiting.id for visiting, _ in trail):
            diagnostics.append(_cycle(info.id, trail))
            return
        trail.append((info, 0))
        for index, base in enumerate(info.builds_on):
            trail[-1] = (info, index)
            if base in manifests:
                visit(manifests[base])
            else:
                diagnostics.append(_entry_problem(
                    info, index, "content/unknown_pack", f"pack `{info.id}` builds on `{base}`, and there is no such pack "
                    f"under {_display(root)}", did_you_mean(base, manifests)))
        trail.pop()
        placed.add(key)
        order.append(manifest)

    for ref in requested:
        manifest = manifest_for(ref)
        if manifest is not None:
            visit(manifest)
    return order


def _folder_key(folder: Path) -> str:
    try:
        return str(folder.resolve())
    except (OSError, RuntimeError):  # a symlink loop: the folder as named
        return str(folder)


def _cycle(closing_id: str, trail: list[tuple[PackInfo, int]]) -> Diagnostic:
    """`a → b → a`, at the `builds_on` entry of the last pack that leads back to the first."""
    ids = [info.id for info, _ in trail]
    names = ids[ids.index(closing_id):] + [closing_id]
    last, _ = trail[-1]
    what = f"pack `{closing_id}` builds on itself" if len(names) == 2 else "packs build on each other in a cycle"
    return _entry_problem(last, trail[-1][1], "content/cycle", f"{what}: {' → '.join(names)}",
                          f"remove `{closing_id}` from the builds_on of `{last.id}`")


def _entry_problem(info: PackInfo, index: int, code: str, message: str, hint: str | None) -> Diagnostic:
    """A diagnostic at entry `index` of a manifest's `builds_on` list."""
    line, column = info.builds_on_positions[index] if index < len(info.builds_on_positions) else (1, 1)
    name = info.builds_on[index] if index < len(info.builds_on) else ""
    return Diagnostic(code, message, _display(info.folder / MANIFEST), line, column, column + len(name), hint=hint)


def load_ruleset(packs: Iterable[str | Path] = ("base",), root: Path | None = None,
                 limits: InputLimits = INPUT_LIMITS) -> Ruleset:
    """Load and layer packs (ids or folders). Raises ContentError listing every problem."""
    ruleset, diagnostics = load_ruleset_collecting(packs, root, limits)
    if diagnostics or ruleset is None:
        raise ContentError(diagnostics)
    return ruleset


def load_ruleset_collecting(packs: Iterable[str | Path] = ("base",), root: Path | None = None,
                            limits: InputLimits = INPUT_LIMITS) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Load and layer packs (ids or folders): the ruleset (None when anything is wrong) and every
    problem found. `load_collecting_sources` also gives the text of every file read."""
    outcome = load_collecting_sources(packs, root, limits)
    return outcome.ruleset, outcome.diagnostics


def load_collecting_sources(packs: Iterable[str | Path] = ("base",), root: Path | None = None,
                            limits: InputLimits = INPUT_LIMITS, manifests: Mapping[str, Manifest] | None = None
                            ) -> LoadOutcome:
    """Load and layer packs (ids or folders) from the content root, every file of every pack read
    and parsed within `limits`. `manifests`: those already discovered under the root
    (`find_manifests`), so that no manifest is read twice."""
    root = root or default_content_root()
    if manifests is None:
        manifests = find_manifests(root, limits)
    diagnostics: list[Diagnostic] = []
    sources: dict[str, str] = {}
    loaded: list[LoadedPack] = []
    for manifest in _resolve_order(list(packs), root, diagnostics, manifests, limits):
        if manifest.text is not None:
            sources[manifest.file] = manifest.text
        pack = load_pack_folder(manifest.folder, diagnostics, limits, manifest)
        if pack is not None:
            loaded.append(pack)
            sources.update(pack.sources)
    try:
        ruleset = layer(loaded, diagnostics)
    except Exception as error:  # noqa: BLE001 - a fault of the tool is reported, never raised at the caller
        where = _display(loaded[-1].info.folder / MANIFEST) if loaded else "<packs>"
        return LoadOutcome(None, diagnostics + [internal_error(where, error)], sources)
    finally:
        save_verdicts()  # the schema verdicts found, for the next process (the load cache)
    return LoadOutcome(None if diagnostics else ruleset, diagnostics, sources)


def layer(loaded: list[LoadedPack], diagnostics: list[Diagnostic]) -> Ruleset:
    scripts: dict[str, dict[str, ScriptItem]] = {}
    data: dict[str, dict[str, DataItem]] = {}
    sources: dict[str, str] = {}
    for pack in loaded:
        sources.update(pack.sources)
        for item in pack.scripts:  # later packs replace earlier ones by id
            scripts.setdefault(item.declaration.kind, {})[item.declaration.id] = item
        for data_item in pack.data:
            data.setdefault(data_item.type, {})[data_item.id] = data_item
    settings, _setting_types = _collect_settings(scripts, diagnostics)
    checkers = _pack_checkers(loaded)
    for pack in loaded:  # a declaration of a kind content declares, as the built-in kind it is like in its pack
        kinds = checkers[pack.info.id].context
        for item in pack.scripts:
            like = kinds.base_kind(item.declaration.kind)
            if like is not None and like != item.declaration.kind:
                diagnostics.extend(_validate_declaration(item.declaration, item.origin.file, like))
    for items in scripts.values():
        for item in items.values():
            checker = checkers[item.origin.pack]
            reported = len(checker.diagnostics)
            checker.check(item.declaration)
            diagnostics.extend(checker.diagnostics[reported:])
    all_declarations = [item.declaration for items in scripts.values() for item in items.values()]
    diagnostics.extend(_check_references(scripts, data))
    diagnostics.extend(_check_barges(scripts, data))
    triggers: dict[str, list[tuple[A.Declaration, A.When]]] = {}
    for declaration in all_declarations:
        for when in declaration.clauses_of(A.When):
            triggers.setdefault(when.event, []).append((declaration, when))
    return Ruleset(
        packs=tuple(p.info for p in loaded),
        scripts=freeze_mapping({k: freeze_mapping(v) for k, v in scripts.items()}),
        data=freeze_mapping({k: freeze_mapping(v) for k, v in data.items()}),
        settings=freeze_mapping(settings),
        triggers=freeze_mapping({k: tuple(v) for k, v in triggers.items()}),
        sources=freeze_mapping(sources),
    )


def _pack_checkers(loaded: list[LoadedPack]) -> dict[str, Checker]:
    """A checker per pack, knowing only the words of the pack and of the packs it builds on,
    directly or through others: their declarations (each id as its last pack among them leaves
    it), settings, the words they declare (states, stats, piles, events, windows) and object types.
    A pack that builds on nothing knows only its own."""
    visible: dict[str, frozenset[str]] = {}
    for pack in loaded:  # in load order, every pack after the packs it builds on
        visible[pack.info.id] = frozenset({pack.info.id}.union(*(visible.get(dep, ()) for dep in pack.info.builds_on)))
    checkers: dict[str, Checker] = {}
    for pack in loaded:
        in_view = [seen for seen in loaded if seen.info.id in visible[pack.info.id]]  # in load order
        scripts: dict[str, dict[str, ScriptItem]] = {}
        objects: set[str] = set()
        for seen in in_view:
            for item in seen.scripts:
                scripts.setdefault(item.declaration.kind, {})[item.declaration.id] = item
            objects.update(d.id for d in seen.data if d.type == "objects")
        _settings, setting_types = _collect_settings(scripts, [])  # duplicates are reported once, above
        declarations = [item.declaration for items in scripts.values() for item in items.values()]
        checkers[pack.info.id] = Checker(context_of(declarations, setting_types, objects))
    return checkers


def _collect_settings(scripts: Mapping[str, Mapping[str, ScriptItem]], diagnostics: list[Diagnostic]
                      ) -> tuple[dict[str, Any], dict[str, str]]:
    """Every rule's params, evaluated: the numbers a house rule changes by overriding the rule."""
    settings: dict[str, Any] = {}
    types: dict[str, str] = {}
    owners: dict[str, ScriptItem] = {}
    for item in scripts.get("rule", {}).values():
        for param in item.declaration.clauses_of(A.Param):
            if param.name in owners:
                first = owners[param.name]
                diagnostics.append(Diagnostic(
                    "check/duplicate_name", f"rule param `{param.name}` is also defined by rule `{first.declaration.id}`",
                    param.pos.file, param.pos.line, param.pos.column, param.pos.column + len(param.name),
                    hint=f"first defined at {first.origin.file}:{first.origin.line}; rule params are global settings",
                ))
                continue
            owners[param.name] = item
            try:
                value = constant_value(param.value)
            except ValueError as error:
                diagnostics.append(Diagnostic("check/not_constant", str(error), param.pos.file, param.pos.line,
                                              param.pos.column))
                continue
            settings[param.name] = value
            types[param.name] = setting_type(value)
    return settings, types


def _check_references(scripts: Mapping[str, Mapping[str, ScriptItem]], data: Mapping[str, Mapping[str, DataItem]]
                      ) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    problems.extend(_second_games(scripts))
    abilities = set(scripts.get("trait_ability", {}))
    object_types = set(data.get("objects", {}))
    hazards = set(scripts.get("hazard", {}))
    talents = abilities | set(scripts.get("rule", {}))
    for item in data.get("motivations", {}).values():
        for ability in item.data.get("abilities", []):
            if ability not in abilities:
                problems.append(_dangling(item, f"motivation `{item.id}` names unknown trait ability `{ability}`", ability, abilities))
        talent = item.data.get("talent")
        if talent and talent not in talents:
            problems.append(_dangling(item, f"motivation `{item.id}` names unknown talent `{talent}`", talent, talents))
    for item in data.get("barges", {}).values():
        for obj in item.data.get("objects", []):
            if obj["type"] not in object_types:
                problems.append(_dangling(item, f"barge `{item.id}` places unknown object type `{obj['type']}`", obj["type"], object_types))
        for hazard in item.data.get("hazards", []):
            if hazard not in hazards:
                problems.append(_dangling(item, f"barge `{item.id}` names unknown hazard `{hazard}`", hazard, hazards))
    return problems


def _second_games(scripts: Mapping[str, Mapping[str, ScriptItem]]) -> list[Diagnostic]:
    """A Ruleset plays one game: a `game` declaration of another id than the first is refused (a
    house rule changes the game by overriding its id)."""
    games = list(scripts.get("game", {}).values())
    problems = []
    for item in games[1:]:
        pos = item.declaration.pos
        problems.append(Diagnostic(
            "content/second_game", f"game `{item.declaration.id}` is a second game: the packs loaded already play "
                                   f"`{games[0].declaration.id}`",
            pos.file, pos.line, pos.column, pos.column + len(item.declaration.id),
            hint=f"override the game by its id (`game {games[0].declaration.id} ...`), declared at "
                 f"{games[0].origin.file}:{games[0].origin.line}"))
    return problems


def _check_barges(scripts: Mapping[str, Mapping[str, ScriptItem]], data: Mapping[str, Mapping[str, DataItem]]
                  ) -> list[Diagnostic]:
    """Each barge against the box's counts and the starting squares (`barge_checks`). Only errors
    stop a pack from loading; warnings are for `nexus check` to print (`barge_warnings`)."""
    return [d for d in _barge_diagnostics(scripts, data) if d.severity == "error"]


def _barge_diagnostics(scripts: Mapping[str, Mapping[str, ScriptItem]], data: Mapping[str, Mapping[str, DataItem]]
                       ) -> list[Diagnostic]:
    from .barge_checks import barge_problems

    partial = Ruleset(packs=(), scripts=scripts, data=data, settings={}, triggers={})
    problems: list[Diagnostic] = []
    for item in data.get("barges", {}).values():
        problems.extend(barge_problems(item.data, partial, file=item.origin.file, line=item.origin.line,
                                       locate=item.positions.get))
    return problems


def barge_warnings(ruleset: Ruleset) -> list[Diagnostic]:
    """What is unusual but legal in the ruleset's barges (e.g. more hazard types than usual)."""
    return [d for d in _barge_diagnostics(ruleset.scripts, ruleset.data) if d.severity != "error"]


def _dangling(item: DataItem, message: str, name: str, known: set[str]) -> Diagnostic:
    return Diagnostic("content/dangling_reference", message, item.origin.file, item.origin.line, 1,
                      hint=did_you_mean(name, known))


@lru_cache(maxsize=16)
def cached_ruleset(packs: tuple[str, ...] = ("base",), root: str | None = None) -> Ruleset:
    """A process-wide cache: rulesets are immutable, so bouts and tests can share one."""
    return load_ruleset(packs, Path(root) if root else None)
