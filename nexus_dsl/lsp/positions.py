"""Positions between the parser and the protocol.

The parser, the checker and `assist.py` count lines broken at `\\n` only (`errors.source_lines`)
and columns in characters, both from 1. The protocol counts both from 0, and columns in the code
units of the encoding agreed at initialization: UTF-16 unless the client offers UTF-32 or UTF-8
(pygls picks). A character beyond the Basic Multilingual Plane is two UTF-16 units.
"""

from __future__ import annotations

import re

from lsprotocol import types

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Text:
    """A document's text with its lines as the parser counts them, in the client's units."""

    def __init__(self, source: str, encoding: str = types.PositionEncodingKind.Utf16) -> None:
        self.source = source
        self.lines = source.split("\n")
        self.encoding = str(encoding)

    def line(self, index: int) -> str:
        """The 0-based line `index` without its line ending; "" past the end."""
        text = self.lines[index] if 0 <= index < len(self.lines) else ""
        return text[:-1] if text.endswith("\r") else text

    def _units(self, piece: str) -> int:
        if self.encoding == types.PositionEncodingKind.Utf32:
            return len(piece)
        if self.encoding == types.PositionEncodingKind.Utf8:
            return len(piece.encode("utf-8", "surrogatepass"))
        return len(piece.encode("utf-16-le", "surrogatepass")) // 2

    def position(self, line: int, character: int) -> types.Position:
        """The protocol's position of a 0-based line and character."""
        return types.Position(line=max(line, 0), character=self._units(self.line(line)[:max(character, 0)]))

    def range(self, line: int, start: int, end: int) -> types.Range:
        """Characters `start` to `end` (0-based, end exclusive) of the 0-based `line`."""
        return types.Range(start=self.position(line, start), end=self.position(line, max(end, start)))

    def cursor(self, position: types.Position) -> tuple[int, int]:
        """The 1-based line and column (in characters) of a protocol position, as `assist` takes them."""
        text = self.line(position.line)
        units = 0
        for index, char in enumerate(text):
            if units >= position.character:
                return position.line + 1, index + 1
            units += self._units(char)
        return position.line + 1, len(text) + 1

    def whole(self) -> types.Range:
        """The range of the whole text (what formatting replaces)."""
        last = len(self.lines) - 1
        end = types.Position(line=last, character=self._units(self.lines[last]))
        return types.Range(start=types.Position(line=0, character=0), end=end)

    def word_at(self, position: types.Position) -> tuple[str, types.Range] | None:
        """The identifier the cursor stands on or just after, and its range."""
        line, column = self.cursor(position)
        text = self.line(line - 1)
        for found in _WORD.finditer(text):
            if found.start() <= column - 1 <= found.end():
                return found.group(0), self.range(line - 1, found.start(), found.end())
        return None

    def offset_range(self, start: int, end: int) -> types.Range:
        """The range of characters `start` to `end` of the source (offsets on one line)."""
        line = self.source.count("\n", 0, start)
        line_start = self.source.rfind("\n", 0, start) + 1
        return self.range(line, start - line_start, end - line_start)


def token_end(text: str, start: int) -> int:
    """Where a problem reported at one column and no end ends: the end of the word it starts, else
    one character on (nothing past the line's end)."""
    found = _WORD.match(text, start)
    if found:
        return found.end()
    return min(start + 1, len(text)) if start < len(text) else start
