"""Errors are data: one diagnostic format for every layer.

Every problem a user can cause — a syntax error, an unknown name, a type mismatch, a schema
violation, a command the rules refuse — is reported as a `Diagnostic` with a stable `code`
(`syntax/unexpected_token`, `check/unknown_name`, `schema/out_of_range`, `rules/not_in_position`),
a position and a hint. Tools branch on the code; people read `format()`:

    content/base/commands.nexus:12:5: error: unknown name `haymaker_x`
       12 |     window after_attack_succeeds by selff
          |                                     ^^^^^
      hint: did you mean `self`?
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable


@dataclass(frozen=True)
class Diagnostic:
    """One positioned problem. `line`/`column` are 1-based; 0 means "the whole file"."""

    code: str
    message: str
    file: str = "<input>"
    line: int = 0
    column: int = 0
    end_column: int = 0
    hint: str | None = None
    severity: str = "error"

    @property
    def layer(self) -> str:
        return self.code.split("/", 1)[0]

    def location(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file

    def format(self, source: str | None = None) -> str:
        """The human form: `file:line:col: message`, the source line with a caret, and the hint."""
        lines = [f"{self.location()}: {self.severity}: {self.message}"]
        excerpt = _excerpt(source, self.line, self.column, self.end_column)
        if excerpt:
            lines.extend(excerpt)
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "hint": self.hint,
        }


def _excerpt(source: str | None, line: int, column: int, end_column: int) -> list[str]:
    if not source or line <= 0:
        return []
    source_lines = source.splitlines()
    if line > len(source_lines):
        return []
    raw = source_lines[line - 1]
    text = raw.expandtabs(4)
    # Columns count characters; the excerpt expands tabs, so the caret moves by the same amount.
    start = len(raw[: max(0, column - 1)].expandtabs(4))
    end = len(raw[: max(0, end_column - 1)].expandtabs(4)) if end_column > column else start + 1
    gutter = f"{line:>5} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * start + "^" * max(1, end - start)
    return [gutter + text, caret]


class NexusError(Exception):
    """Base of every error a user can cause. Carries one or more diagnostics."""

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic]):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))

    @property
    def code(self) -> str:
        return self.diagnostics[0].code if self.diagnostics else "error"


class SyntaxLayerError(NexusError):
    """The text is not a well-formed rule script."""


class CheckError(NexusError):
    """The script is well-formed but names, types, events or ranges are wrong."""


class SchemaError(NexusError):
    """Canonical content or YAML data violates its JSON Schema."""


class ContentError(NexusError):
    """A pack cannot be loaded: bad manifest, duplicate ids, dangling references."""


class RulesError(NexusError):
    """A legal-looking request that the rules refuse right now ("not allowed", never "malformed")."""


class ScriptRuntimeError(NexusError):
    """A script exceeded its budget or hit an impossible state while running."""


@dataclass
class DiagnosticBag:
    """Collects diagnostics so that one run reports every error in a file, not just the first."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.items.extend(diagnostics)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known names, or None when nothing is close."""
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=3, cutoff=0.6)
    if not matches:
        return None
    if len(matches) == 1:
        return f"did you mean `{matches[0]}`?"
    return "did you mean " + ", ".join(f"`{m}`" for m in matches[:-1]) + f" or `{matches[-1]}`?"


def format_all(diagnostics: Iterable[Diagnostic], sources: dict[str, str] | None = None) -> str:
    sources = sources or {}
    return "\n\n".join(d.format(sources.get(d.file)) for d in diagnostics)
