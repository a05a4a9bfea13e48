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
from functools import lru_cache
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
    """The named line of `source` and a caret under the named columns.

    Lines are counted by `\\n` only (`source_lines`), as the parser and the YAML loader count them. A
    character that would move or hide the rest of the line is shown as one visible character and a
    tab as four spaces, so the caret stays under the column; a very long line is cut around it.
    """
    if not source or line <= 0:
        return []
    lines = _lines_of(source)
    if line > len(lines):
        return []
    raw = lines[line - 1]
    if raw.endswith("\r"):  # the rest of a Windows line ending
        raw = raw[:-1]
    shown = raw.translate(_VISIBLE)
    text = shown.expandtabs(4)
    # Columns count characters; the excerpt expands tabs, so the caret moves by the same amount.
    start = len(shown[: max(0, column - 1)].expandtabs(4))
    end = len(shown[: max(0, end_column - 1)].expandtabs(4)) if end_column > column else start + 1
    text, start, end = _around(text, start, max(end, start + 1))
    gutter = f"{line:>5} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * start + "^" * max(1, end - start)
    return [gutter + text, caret]


@lru_cache(maxsize=8)
def _lines_of(source: str) -> tuple[str, ...]:
    """A source's lines, split once however many diagnostics it has."""
    return tuple(source_lines(source))


def source_lines(text: str, keepends: bool = False) -> list[str]:
    """The lines of a source text as the parser, the YAML loader and every diagnostic count them:
    broken at `\\n` only. `str.splitlines()` also breaks at `\\r`, form feed, NEL, U+2028 and U+2029,
    which may stand inside a comment or a quoted value, so its line N is not the line a diagnostic
    or a syntax tree names. As with `splitlines`, a final `\\n` ends the last line rather than
    starting another, and `keepends` keeps each line's `\\n` (a `\\r` before it always stays)."""
    pieces = text.split("\n")
    last = pieces.pop()
    lines = [piece + "\n" for piece in pieces] if keepends else pieces
    if last:
        lines.append(last)
    return lines


def _visible_table() -> dict[int, str]:
    table = {code: chr(0x2400 + code) for code in range(0x20) if code != 0x09}  # C0 controls: ␀ ... ␟
    table[0x7F] = "\u2421"  # DEL: ␡
    table.update({code: "\ufffd" for code in range(0x80, 0xA0)})  # C1 controls
    for breaking in (0x85, 0x2028, 0x2029):  # NEL, line and paragraph separators: ␤
        table[breaking] = "\u2424"
    # Bidirectional controls reorder what a terminal shows; invisible marks hide where the caret is.
    for invisible in (0x061C, 0x200B, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF):
        table[invisible] = "\ufffd"
    return table


_VISIBLE = _visible_table()
_EXCERPT_WIDTH = 160  # characters of a line shown around the caret


def _around(text: str, start: int, end: int) -> tuple[str, int, int]:
    """A line too long to show whole, cut to `_EXCERPT_WIDTH` characters around the caret (marked
    by `…` where cut); the caret's columns shifted to match."""
    if len(text) <= _EXCERPT_WIDTH:
        return text, start, end
    left = max(0, min(start - _EXCERPT_WIDTH // 4, len(text) - _EXCERPT_WIDTH))
    right = left + _EXCERPT_WIDTH
    piece = ("…" if left else "") + text[left:right] + ("…" if right < len(text) else "")
    shift = left - (1 if left else 0)
    return piece, start - shift, min(end, right) - shift


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
    known = sorted(set(candidates))
    same_letters = [name for name in known if name.lower() == word.lower()]  # `Prone`, `self.AP`
    matches = same_letters or difflib.get_close_matches(word, known, n=3, cutoff=0.6)
    if not matches:
        return None
    if len(matches) == 1:
        return f"did you mean `{matches[0]}`?"
    return "did you mean " + ", ".join(f"`{m}`" for m in matches[:-1]) + f" or `{matches[-1]}`?"


def format_all(diagnostics: Iterable[Diagnostic], sources: dict[str, str] | None = None) -> str:
    sources = sources or {}
    return "\n\n".join(d.format(sources.get(d.file)) for d in diagnostics)
