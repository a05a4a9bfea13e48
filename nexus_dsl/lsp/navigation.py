"""Go to definition and find references of ids across the loaded packs.

An id is declared by a script declaration (`command standard_attack ...`), a YAML data item
(`id: iron_rampart`) or a rule's `param`; the ruleset knows the file and position of each. The
document being edited is read as it stands in the editor, not as it was saved: its declarations
and its uses of a word come from its text. References are the names spelling the id, as the
parser's lexer reads them (never inside a string or a comment), in every rule script of the loaded
packs, and the values spelling it in their YAML data.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from lsprotocol import types

from ..content.loader import SCRIPT_SUFFIX, YAML_SUFFIXES
from ..errors import NexusError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from ..syntax.parser import parse
from ..workbench.highlight import token_spans
from .positions import Text


@dataclass(frozen=True)
class Document:
    """The document a request is about: its path, the name diagnostics give it, and its text."""

    path: Path
    file: str
    text: Text


def _uri(file: str) -> str:
    return Path(os.path.abspath(file)).as_uri()


def _same_file(file: str, path: Path) -> bool:
    return os.path.abspath(file) == os.path.abspath(path)


def _location(file: str, text: Text, line: int, column: int, word: str) -> types.Location:
    """The word on a 1-based line, at or after a 1-based column (the start of its declaration)."""
    source_line = text.line(line - 1)
    found = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])").search(source_line, max(column - 1, 0))
    start = found.start() if found else max(column - 1, 0)
    return types.Location(uri=_uri(file), range=text.range(line - 1, start, start + len(word)))


def _declarations_here(document: Document) -> list[A.Declaration] | None:
    """The declarations of the document's text; None when it does not parse (the saved ones stand)."""
    if document.path.suffix != SCRIPT_SUFFIX:
        return None
    try:
        return list(parse(document.text.source, document.file).declarations)
    except NexusError:
        return None
    except Exception:  # noqa: BLE001 - a fault of the parser leaves the saved declarations standing
        return None


def _declared_in(declaration: A.Declaration, word: str) -> Iterator[A.Node]:
    """Where `word` is declared in a declaration: its id, or one of a rule's params."""
    if declaration.id == word:
        yield declaration
    for param in declaration.clauses_of(A.Param):
        if param.name == word:
            yield param


def definitions(word: str, document: Document, ruleset: Ruleset | None) -> list[types.Location]:
    found: list[types.Location] = []
    here = _declarations_here(document)
    for declaration in here or ():
        for node in _declared_in(declaration, word):
            found.append(_location(document.file, document.text, node.pos.line, node.pos.column, word))
    if ruleset is None:
        return found
    sources = ruleset.sources
    for items in ruleset.scripts.values():
        for item in items.values():
            if here is not None and _same_file(item.origin.file, document.path):
                continue  # the document's own declarations are those of its text
            for node in _declared_in(item.declaration, word):
                text = Text(sources.get(item.origin.file, ""))
                found.append(_location(item.origin.file, text, node.pos.line or item.origin.line, node.pos.column, word))
    for data_items in ruleset.data.values():
        data_item = data_items.get(word)
        if data_item is not None:
            line, column = data_item.positions.get(("id",), (data_item.origin.line, 1))
            found.append(_location(data_item.origin.file, Text(sources.get(data_item.origin.file, "")), line, column, word))
    return found


_YAML_COMMENT = re.compile(r"(^|\s)#.*$")


def _uses_in_script(word: str, source: str) -> Iterator[tuple[int, int]]:
    for start, end, cls in token_spans(source):
        if cls == "name" and source[start:end] == word:
            yield start, end


def _uses_in_yaml(word: str, source: str) -> Iterator[tuple[int, int]]:
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
    offset = 0
    for line in source.split("\n"):
        code = _YAML_COMMENT.sub("", line)
        for found in pattern.finditer(code):
            yield offset + found.start(), offset + found.end()
        offset += len(line) + 1


def references(word: str, document: Document, ruleset: Ruleset | None, include_declaration: bool) -> list[types.Location]:
    """Every use of a declared id (none for a word that is not one) in the loaded packs' files."""
    declared = definitions(word, document, ruleset)
    if not declared:
        return []
    files = {file: text for file, text in (ruleset.sources.items() if ruleset else ()) if not _same_file(file, document.path)}
    files[document.file] = document.text.source
    found: list[types.Location] = []
    for file, source in sorted(files.items()):
        suffix = Path(file).suffix
        uses = _uses_in_script(word, source) if suffix == SCRIPT_SUFFIX else \
            _uses_in_yaml(word, source) if suffix in YAML_SUFFIXES else iter(())
        text = Text(source)
        found.extend(types.Location(uri=_uri(file), range=text.offset_range(start, end)) for start, end in uses)
    if not include_declaration:
        found = [location for location in found if location not in declared]
    return found
