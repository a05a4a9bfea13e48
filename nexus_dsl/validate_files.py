"""Validate what a user points at: a pack, a folder of packs, a single script or YAML file.

Used by `nexus check` and the editor. Every layer reports in the same `Diagnostic` format, and
every problem in every file is collected before anything is reported.

Every file is read through `files.read_content`, confined to its pack folder (or, for files that
belong to no pack, to the folder given, or the folder of the file given): a file that leads outside
is refused with `content/outside_root` and its text is never kept in `sources`, so no excerpt shows
it. A file that cannot be read or checked is reported, and every other file and pack is still checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from .check.checker import CheckContext, check_declarations
from .check.context import context_of, setting_type
from .check.costs import unpaid_costs
from .content.barge_checks import barge_problems
from .content.loader import MANIFEST, SCRIPT_SUFFIX, YAML_SUFFIXES, _data_type_of, _display, _script_locator
from .content.loader import barge_warnings, internal_error, is_set_aside, linked_pack_folders, linked_pack_problem
from .content.loader import load_collecting_sources, load_ruleset_collecting
from .errors import Diagnostic, NexusError
from .files import read_content
from .limits import INPUT_LIMITS, InputLimits
from .model.ruleset import DATA_TYPES, Ruleset
from .schema import canonical_as, load_yaml_with_positions, schema_name_for_kind, validate
from .schema.validate import Locate
from .schema.yaml_positions import Positions
from .syntax import ast_nodes as A
from .syntax.canonical import to_canonical
from .syntax.parser import parse


@dataclass
class CheckReport:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    checked: list[str] = field(default_factory=list)  # what was checked: pack ids and files

    @property
    def ok(self) -> bool:
        """No errors (warnings, e.g. a barge with unusually many hazard types, are reported only)."""
        return not self.errors

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def add(self, diagnostics: Iterable[Diagnostic]) -> None:
        seen = {_key(d) for d in self.diagnostics}
        for diagnostic in diagnostics:
            if _key(diagnostic) not in seen:
                seen.add(_key(diagnostic))
                self.diagnostics.append(diagnostic)


def _key(d: Diagnostic) -> tuple:
    return (d.file, d.line, d.column, d.code, d.message)


def check_context(ruleset: Ruleset | None, local: Sequence[A.Declaration]) -> CheckContext:
    """What declarations checked on their own may name: the words of `ruleset` (e.g. the base pack)
    and those the `local` declarations themselves declare (their ids, a rule's params, states,
    stats, piles, events, windows). `nexus check` of a lone script file and the editor's item
    validation both check this way; the loader builds each pack's context with the same
    `context_of`."""
    settings = {name: setting_type(value) for name, value in ruleset.settings.items()} if ruleset else {}
    settings.update({p.name: "any" for d in local if d.kind == "rule" for p in d.clauses_of(A.Param)})
    declarations = [item.declaration for items in ruleset.scripts.values() for item in items.values()] if ruleset else []
    objects = ruleset.data.get("objects", {}) if ruleset else {}
    return context_of([*declarations, *local], settings, objects)


def card_warnings(ruleset: Ruleset) -> list[Diagnostic]:
    """What is legal but surely not meant in the cards of the ruleset's own pack (its last): a cost
    nobody pays (`check/costs.py`)."""
    own = ruleset.packs[-1].id if ruleset.packs else None
    declarations = [item.declaration for items in ruleset.scripts.values() for item in items.values()
                    if item.origin.pack == own]
    return unpaid_costs(declarations, check_context(ruleset, []))


def check_script_text(text: str, file: str, base: Ruleset | None = None,
                      limits: InputLimits = INPUT_LIMITS) -> list[Diagnostic]:
    """Parse, check and schema-validate one script file on top of `base` (e.g. the base pack)."""
    try:
        module = parse(text, file, limits)
    except NexusError as error:
        return list(error.diagnostics)
    return check_script_module(module, file, base)


def check_script_module(module: A.Module, file: str, base: Ruleset | None = None) -> list[Diagnostic]:
    """Check and schema-validate one parsed script file on top of `base` (e.g. the base pack)."""
    context = check_context(base, module.declarations)
    diagnostics = check_declarations(module.declarations, context) + unpaid_costs(module.declarations, context)
    # The schema restates some of the checker's refusals (a clause the kind cannot have): a line the
    # checker found wrong is reported once, in the checker's words.
    refused_lines = {d.line for d in diagnostics if d.severity == "error"}
    for declaration in module.declarations:
        like = context.base_kind(declaration.kind)  # None: a kind not in view, which the checker reports
        if like is not None:
            found = validate(canonical_as(to_canonical(declaration), like if like != declaration.kind else None),
                             schema_name_for_kind(like), file=file, locate=_script_locator(declaration))
            diagnostics.extend(d for d in found if d.line not in refused_lines)
    return sorted(diagnostics, key=lambda d: (d.line, d.column))


def check_yaml_text(text: str, file: str, path: Path, base: Ruleset | None = None,
                    limits: InputLimits = INPUT_LIMITS) -> list[Diagnostic]:
    """Schema-validate one YAML data file; barges are also checked against the box's counts and the
    starting squares, with the object types and hazards of `base` (e.g. the base pack)."""
    try:
        data, positions = load_yaml_with_positions(text, file, limits=limits, empty_allowed=False,
                                                   max_items=None if path.name == MANIFEST else limits.max_items_per_file)
    except NexusError as error:
        return list(error.diagnostics)
    if path.name == MANIFEST:
        return validate(data, "pack", file=file, locate=positions.get)
    data_type = _data_type_of(path)
    if data_type is None:
        return [Diagnostic("content/unknown_file", f"cannot tell what {path.name} holds", file,
                           hint="YAML data lives in barges/, lanistas/, motivations/ or objects/ (or a file of that name)")]
    items = data if isinstance(data, list) else [data]
    problems: list[Diagnostic] = []
    for index, item in enumerate(items):
        locate = _item_locator(positions, (index,) if isinstance(data, list) else ())
        item_problems = validate(item, DATA_TYPES[data_type], file=file, locate=locate)
        problems.extend(item_problems)
        if data_type == "barges" and base is not None and not item_problems:
            line = (locate(()) or (0, 0))[0]
            problems.extend(barge_problems(item, base, file=file, line=line, locate=locate))
    return problems


def _item_locator(positions: Positions, prefix: tuple[int, ...]) -> Locate:
    """Where a path inside one item of a YAML file is: `prefix` is the item's place in the file
    (its index when the file holds a list of items, nothing when it holds one)."""

    def locate(path: tuple[str | int, ...]) -> tuple[int, int] | None:
        return positions.get(prefix + tuple(path))

    return locate


def check_paths(paths: Iterable[str | Path], packs_for_files: tuple[str, ...] = ("base",)) -> CheckReport:
    report = CheckReport()
    base = _Base(packs_for_files)
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            report.add([Diagnostic("content/not_found", f"{raw}: no such file or folder", str(raw))])
            continue
        if path.is_dir():  # the search for packs never enters a linked folder: say so, never pass one over in silence
            report.add(linked_pack_problem(linked, path) for linked in linked_pack_folders(path))
        pack_folders = _pack_folders(path)
        if pack_folders:
            for folder in pack_folders:
                _check_pack(folder, report)
            continue
        root = path if path.is_dir() else path.parent
        files = [path] if not path.is_dir() else sorted(p for p in path.rglob("*") if p.is_file())
        for file_path in files:
            if file_path.suffix == SCRIPT_SUFFIX or file_path.suffix in YAML_SUFFIXES:
                _check_file(file_path, root, base, report)
    return report


class _Base:
    """The packs loose files are checked on top of, loaded the first time a file needs them."""

    def __init__(self, packs: tuple[str, ...]) -> None:
        self.packs = packs
        self.loaded = False
        self.ruleset: Ruleset | None = None

    def get(self) -> Ruleset | None:
        if not self.loaded:
            self.ruleset, _ = load_ruleset_collecting(list(self.packs))
            self.loaded = True
        return self.ruleset


def _check_pack(folder: Path, report: CheckReport) -> None:
    outcome = load_collecting_sources([folder])
    report.add(outcome.diagnostics)
    report.checked.append(str(folder))
    report.sources.update(outcome.sources)  # what the loader read, within the pack limits, loaded or not
    ruleset = outcome.ruleset
    if ruleset is None:
        return
    try:
        report.add(barge_warnings(ruleset))
        report.add(card_warnings(ruleset))
    except Exception as error:  # noqa: BLE001 - a fault of the tool is reported, the other packs still checked
        report.add([internal_error(_display(folder / MANIFEST), error)])


def _check_file(file_path: Path, root: Path, base: _Base, report: CheckReport) -> None:
    """One script or YAML file that belongs to no pack, read confined to `root`."""
    file = str(file_path)
    report.checked.append(file)
    try:
        text = read_content(file_path, root, file)
    except NexusError as error:
        report.add(error.diagnostics)
        return
    report.sources[file] = text
    try:
        if file_path.suffix == SCRIPT_SUFFIX:
            report.add(check_script_text(text, file, base.get()))
        else:
            needs_base = _data_type_of(file_path) == "barges" and file_path.name != MANIFEST
            report.add(check_yaml_text(text, file, file_path, base.get() if needs_base else None))
    except Exception as error:  # noqa: BLE001 - a fault of the tool is reported, the other files still checked
        report.add([internal_error(file, error)])


def _pack_folders(path: Path) -> list[Path]:
    if path.is_file():
        return []
    if (path / MANIFEST).is_file():
        return [path]
    return sorted(manifest.parent for manifest in path.rglob(MANIFEST) if not is_set_aside(manifest, path))
