"""Validate what a user points at: a pack, a folder of packs, a single script or YAML file.

Used by `nexus check` and the editor. Every layer reports in the same `Diagnostic` format, and
every problem in every file is collected before anything is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .check.checker import CheckContext, check_declarations
from .content.barge_checks import barge_problems
from .content.loader import MANIFEST, SCRIPT_SUFFIX, YAML_SUFFIXES, _data_type_of, _script_locator, load_ruleset_collecting
from .content.loader import barge_warnings, is_set_aside
from .content.ruleset import DATA_TYPES, Ruleset
from .errors import Diagnostic, NexusError
from .schema import load_yaml_with_positions, schema_name_for_kind, validate
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


def _context_from(ruleset: Ruleset | None, extra_settings: dict[str, str]) -> CheckContext:
    if ruleset is None:
        return CheckContext(settings=extra_settings)
    settings = {name: value_type(value) for name, value in ruleset.settings.items()}
    settings.update(extra_settings)
    return CheckContext(object_types=frozenset(ruleset.data.get("objects", {})), settings=settings,
                        declaration_ids=frozenset(i for items in ruleset.scripts.values() for i in items))


def value_type(value: object) -> str:
    """The checker's type word for a setting's value."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "number"
    if isinstance(value, tuple):
        return "list"
    return "any"


def check_script_text(text: str, file: str, base: Ruleset | None = None) -> list[Diagnostic]:
    """Parse, check and schema-validate one script file on top of `base` (e.g. the base pack)."""
    try:
        module = parse(text, file)
    except NexusError as error:
        return list(error.diagnostics)
    local_settings = {
        p.name: "any" for d in module.declarations if d.kind == "rule" for p in d.clauses_of(A.Param)
    }
    diagnostics = check_declarations(module.declarations, _context_from(base, local_settings))
    for declaration in module.declarations:
        diagnostics.extend(validate(to_canonical(declaration), schema_name_for_kind(declaration.kind), file=file,
                                    locate=_script_locator(declaration)))
    return sorted(diagnostics, key=lambda d: (d.line, d.column))


def check_yaml_text(text: str, file: str, path: Path, base: Ruleset | None = None) -> list[Diagnostic]:
    """Schema-validate one YAML data file; barges are also checked against the box's counts and the
    starting squares, with the object types and hazards of `base` (e.g. the base pack)."""
    try:
        data, positions = load_yaml_with_positions(text, file)
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
        prefix: tuple = (index,) if isinstance(data, list) else ()
        item_problems = validate(item, DATA_TYPES[data_type], file=file,
                                 locate=lambda p, prefix=prefix: positions.get(prefix + tuple(p)))
        problems.extend(item_problems)
        if data_type == "barges" and base is not None and not item_problems:
            line = (positions.get(prefix) or (0, 0))[0]
            problems.extend(barge_problems(item, base, file=file, line=line,
                                           locate=lambda p, prefix=prefix: positions.get(prefix + tuple(p))))
    return problems


def check_paths(paths: Iterable[str | Path], packs_for_files: tuple[str, ...] = ("base",)) -> CheckReport:
    report = CheckReport()
    base: Ruleset | None = None
    base_loaded = False
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            report.add([Diagnostic("content/not_found", f"{raw}: no such file or folder", str(raw))])
            continue
        pack_folders = _pack_folders(path)
        if pack_folders:
            for folder in pack_folders:
                ruleset, diagnostics = load_ruleset_collecting([folder])
                report.add(diagnostics)
                report.checked.append(str(folder))
                if ruleset is not None:
                    report.sources.update(ruleset.sources)
                    report.add(barge_warnings(ruleset))
                else:
                    _remember_sources(folder, report)
            continue
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file_path in files:
            if file_path.suffix != SCRIPT_SUFFIX and file_path.suffix not in YAML_SUFFIXES:
                continue
            text = file_path.read_text(encoding="utf-8")
            file = str(file_path)
            report.sources[file] = text
            report.checked.append(file)
            if file_path.suffix == SCRIPT_SUFFIX:
                if not base_loaded:
                    base, _ = load_ruleset_collecting(list(packs_for_files))
                    base_loaded = True
                report.add(check_script_text(text, file, base))
            else:
                if not base_loaded and _data_type_of(file_path) == "barges":
                    base, _ = load_ruleset_collecting(list(packs_for_files))
                    base_loaded = True
                report.add(check_yaml_text(text, file, file_path, base))
    return report


def _pack_folders(path: Path) -> list[Path]:
    if path.is_file():
        return []
    if (path / MANIFEST).is_file():
        return [path]
    return sorted(manifest.parent for manifest in path.rglob(MANIFEST) if not is_set_aside(manifest, path))


def _remember_sources(folder: Path, report: CheckReport) -> None:
    for file_path in folder.rglob("*"):
        if file_path.is_file() and (file_path.suffix == SCRIPT_SUFFIX or file_path.suffix in YAML_SUFFIXES):
            try:
                text = file_path.read_text(encoding="utf-8")
            except OSError:
                continue
            report.sources[str(file_path)] = text
            try:
                report.sources[str(file_path.resolve().relative_to(Path.cwd().resolve()))] = text
            except ValueError:
                pass
