"""Load YAML safely and within limits, remembering where every value came from.

`load_yaml_with_positions(text, file)` returns the data and a map from JSON paths (tuples of keys
and list indices, the same paths `jsonschema` reports) to 1-based (line, column). For a mapping
entry the position is that of its key (where a reader looks); for a list item, that of the item.
The root is stored under `()`; a key merged in with `<<: *anchor` is placed at its `<<`.

Content data is JSON-like, and a file may come from a stranger, so the loader reads YAML in three
steps, each of which refuses what it must with a positioned `SchemaError`, never a raw PyYAML or
Python exception and never after exhausting time or memory:

1. **Events.** PyYAML's parser (libyaml's when installed) is a state machine, not a recursion; its
   events are composed into nodes here by a loop, which refuses as soon as it sees them:
   lists and mappings nested deeper than `limits.max_depth` (`yaml/too_deep`); more than
   `limits.max_yaml_aliases` uses of `*alias` (`yaml/too_many_aliases`); an alias inside its own
   anchor (`yaml/recursive_alias`); more than `limits.max_yaml_nodes` nodes *counting every alias
   as a copy of its anchor* (`yaml/too_many_nodes`) — the size and depth of every finished node are
   remembered, so `[*a, *a]` costs two additions and a 500-byte "billion laughs" file is refused at
   the alias that crosses the limit, without expanding anything; a top-level list longer than
   `max_items` when the caller gives one (`yaml/too_many_items`, at the first item beyond);
   explicit tags other than the plain JSON-like ones `!!str`, `!!int`, `!!float`, `!!bool`,
   `!!null`, `!!seq`, `!!map` and `!` (`yaml/syntax`, naming the tag: no binary, sets, ordered
   maps, timestamps or objects); a list or mapping used as a mapping key (`yaml/complex_key`); a second
   document (`yaml/several_documents`); and a text longer than `limits.max_file_bytes`
   (`content/too_large`, before parsing starts).
2. **Values.** Plain scalars resolve as in YAML 1.1 (null, bool, int, float, string) except that
   **timestamps stay strings**: JSON Schema has no dates, so `2024-05-01` is the text it reads as
   (and `=` is the string `=`). A scalar with an explicit tag must be written as that type
   (`!!bool maybe`, `!!int abc`: `yaml/bad_value`); integers are refused beyond 64 bits
   (`yaml/number_too_large`, checked on the text's length before converting, so a 4,000-digit
   number costs nothing), floats must be finite (`yaml/not_finite`: JSON has no `.inf` or `.nan`).
   A key repeated in one mapping, which PyYAML would silently collapse, is `yaml/duplicate_key`;
   `<<` merging anything but a mapping or a list of mappings is `yaml/bad_merge`.
3. **Syntax errors** of the scanner and parser are `yaml/syntax` at their mark (tabs get a hint);
   a character YAML does not allow (a control character, a lone surrogate) is `yaml/bad_character`.

Positions follow the parser's convention for scripts: lines are counted by `\\n` only (YAML itself
also breaks lines at `\\r`, NEL, U+2028 and U+2029; marks carry a character index, which is turned
into line and column here), columns in characters, both 1-based.

An empty or comment-only text gives `(None, {})`, unless the caller says a document is required
(`empty_allowed=False`, for data files and manifests), when it is `yaml/empty` at 1:1.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Callable

import yaml
from yaml.events import (AliasEvent, CollectionStartEvent, DocumentStartEvent, Event, MappingEndEvent,
                         MappingStartEvent, NodeEvent, ScalarEvent, SequenceEndEvent, SequenceStartEvent,
                         StreamEndEvent)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from ..errors import Diagnostic, SchemaError, source_lines
from ..files import check_text_size, position_of_offset
from ..limits import INPUT_LIMITS, InputLimits

__all__ = ["Positions", "compose_yaml", "load_yaml_with_positions"]

Positions = dict[tuple[Any, ...], tuple[int, int]]

_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_TAG + name for name in ("str", "int", "float", "bool", "null"))
_SEQ, _MAP, _MERGE = _TAG + "seq", _TAG + "map", _TAG + "merge"
_NON_SPECIFIC = "!"
_SCALAR_TAGS = frozenset({_STR, _INT, _FLOAT, _BOOL, _NULL})
_ALLOWED_TAGS = {ScalarNode: _SCALAR_TAGS, SequenceNode: frozenset({_SEQ}), MappingNode: frozenset({_MAP})}
# The largest integer a data file may hold, either sign: 64 bits, the widest integer common JSON
# tools carry. Its text has at most 66 characters (`0b` and 64 binary digits), so a longer
# literal is refused before Python converts it (which is quadratic in its length, and refuses
# beyond 4,300 digits).
_LARGEST_INTEGER = 2**63 - 1
_LONGEST_INTEGER_TEXT = 66
_BOM = "\ufeff"
_KIND_NAMES = {ScalarNode: "a single value", SequenceNode: "a list", MappingNode: "a mapping"}


# YAML 1.1's implicit types by a plain scalar's first character, without timestamps (JSON Schema has
# no dates), `=` (YAML's "value" key) and the `!`/`&`/`*` indicators: a plain scalar is null, bool,
# int, float or text. `_PATTERNS` holds each type's patterns, to check a value with an explicit tag.
_DROPPED_TAGS = {_TAG + "timestamp", _TAG + "value", _TAG + "yaml"}
_IMPLICIT: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
_PATTERNS: dict[str, list[re.Pattern[str]]] = {}
for _first, _resolvers in Resolver.yaml_implicit_resolvers.items():
    for _tag, _regexp in _resolvers:
        if _tag not in _DROPPED_TAGS:
            _IMPLICIT.setdefault(_first, []).append((_tag, _regexp))
            if _regexp not in _PATTERNS.setdefault(_tag, []):
                _PATTERNS[_tag].append(_regexp)


def _mark(mark: Any) -> yaml.Mark:
    """An event's mark as a node's: libyaml's marks have the same fields as PyYAML's own."""
    return mark  # type: ignore[no-any-return]


def _looks_like(tag: str, value: str) -> bool:
    """Whether `value` is written the way a plain scalar of type `tag` is."""
    return any(pattern.match(value) for pattern in _PATTERNS.get(tag, ()))


# ---------------------------------------------------------------- positions
class _Lines:
    """Character index -> 1-based (line, column), lines counted by `\\n` only."""

    def __init__(self, text: str, shift: int) -> None:
        self.starts = [0] + [match.end() for match in re.finditer("\n", text)]
        self.shift = shift  # characters dropped before parsing (a byte-order mark)

    def at(self, index: int) -> tuple[int, int]:
        index += self.shift
        line = bisect_right(self.starts, index)
        return line, index - self.starts[line - 1] + 1

    def of(self, where: Node | Event | yaml.Mark) -> tuple[int, int]:
        """The position of a node or event (where it starts), or of a mark (e.g. a node's end)."""
        mark = where.start_mark if isinstance(where, (Node, Event)) else where  # libyaml's marks are its own type
        assert mark is not None  # the parser marks every event, and nodes take their event's marks
        return self.at(mark.index)


class _Refused(Exception):
    """One refusal while composing: the diagnostic says what and where."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


# ---------------------------------------------------------------- events
class _PurePythonEvents(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's own parser, for machines without libyaml."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


@dataclass(frozen=True)
class _EventParser:
    """Where events come from: libyaml's parser when installed (about fifteen times faster),
    PyYAML's otherwise. Both report marks by character index; a reader error (a character YAML
    refuses), by byte offset in libyaml."""

    make: Callable[[str], Any]
    reader_counts_bytes: bool


# CParser is libyaml's event parser; the stubs leave it out of the module's exports.
_LIBYAML_EVENTS = (_EventParser(yaml.cyaml.CParser, True)  # type: ignore[attr-defined]
                   if getattr(yaml, "__with_libyaml__", False) else None)
_PURE_PYTHON_EVENTS = _EventParser(_PurePythonEvents, False)
_EVENTS = _LIBYAML_EVENTS or _PURE_PYTHON_EVENTS


@dataclass
class _Open:
    """A list or mapping whose end event has not come yet."""

    node: SequenceNode | MappingNode
    anchored: bool  # whether an alias may copy it: its size and depth are then remembered
    size: int = 1  # nodes so far, itself included, aliases counted as copies
    depth: int = 0  # the deepest child's depth
    key: Node | None = None  # a mapping's key waiting for its value


def _resolve_plain(value: str) -> str:
    """The tag of a plain (unquoted, untagged) scalar."""
    for tag, pattern in _IMPLICIT.get(value[:1], ()):
        if pattern.match(value):
            return tag
    return _STR


@dataclass
class _Composer:
    """Builds the node graph from parser events in one loop, refusing early (see the docstring)."""

    lines: _Lines
    file: str
    limits: InputLimits
    max_items: int | None
    stack: list[_Open] = field(default_factory=list)
    anchors: dict[str, Node] = field(default_factory=dict)
    measured: dict[int, tuple[int, int]] = field(default_factory=dict)  # id(anchored node) -> (size, depth)
    open_ids: set[int] = field(default_factory=set)  # anchored lists and mappings not yet closed
    explicit: set[int] = field(default_factory=set)  # id(scalar) whose tag was written out
    nodes: int = 0
    aliases: int = 0
    root: Node | None = None
    documents: int = 0

    def compose(self, events: Any) -> Node | None:
        while True:
            event = events.get_event()
            kind = type(event)
            if kind is ScalarEvent:
                self.scalar(event)
            elif kind is SequenceEndEvent or kind is MappingEndEvent:
                self.close(event)
            elif kind is SequenceStartEvent or kind is MappingStartEvent:
                self.open(event)
            elif kind is AliasEvent:
                self.alias(event)
            elif kind is DocumentStartEvent:
                self.documents += 1
                if self.documents > 1:
                    self.refuse(event, "yaml/several_documents", "a content file holds one YAML document; this is a second",
                                "remove the `---` line, or split the file")
            elif kind is StreamEndEvent:
                return self.root

    def scalar(self, event: ScalarEvent) -> None:
        self.check_item(event)
        tag = event.tag
        if tag is None or tag == _NON_SPECIFIC:
            tag = _resolve_plain(event.value) if event.implicit[0] else _STR
        else:
            self.check_tag(event, tag, ScalarNode)
        node = ScalarNode(tag, event.value, _mark(event.start_mark), _mark(event.end_mark), style=event.style)
        if event.tag is not None and event.tag != _NON_SPECIFIC:
            self.explicit.add(id(node))
        self.count_nodes(event, 1)
        if event.anchor is not None:
            self.anchors[event.anchor] = node  # a later anchor of the same name replaces it (YAML 1.2)
            self.measured[id(node)] = (1, 0)
        self.attach(node, 1, 0)

    def open(self, event: CollectionStartEvent) -> None:
        self.check_item(event)
        if self.stack and self.stack[-1].key is None and isinstance(self.stack[-1].node, MappingNode):
            self.complex_key(event)
        if len(self.stack) + 1 > self.limits.max_depth:
            self.refuse(event, "yaml/too_deep", f"lists and mappings are nested more than {self.limits.max_depth} deep",
                        "content data is a few levels deep; flatten this structure")
        kind = SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
        tag = event.tag
        if tag is None or tag == _NON_SPECIFIC:
            tag = _SEQ if kind is SequenceNode else _MAP
        else:
            self.check_tag(event, tag, kind)
        node = kind(tag, [], _mark(event.start_mark), _mark(event.end_mark), flow_style=event.flow_style)
        self.count_nodes(event, 1)
        anchored = event.anchor is not None
        if event.anchor is not None:
            self.anchors[event.anchor] = node
            self.open_ids.add(id(node))
        self.stack.append(_Open(node, anchored))

    def close(self, event: Event) -> None:
        done = self.stack.pop()
        done.node.end_mark = event.end_mark
        size, depth = done.size, done.depth + 1
        if done.anchored:
            self.open_ids.discard(id(done.node))
            self.measured[id(done.node)] = (size, depth)
        self.attach(done.node, size, depth)

    def alias(self, event: AliasEvent) -> None:
        self.check_item(event)
        self.aliases += 1
        if self.aliases > self.limits.max_yaml_aliases:
            self.refuse(event, "yaml/too_many_aliases", f"more than {self.limits.max_yaml_aliases} aliases (`*name`) in one file",
                        "write the repeated data out, or use fewer anchors")
        target = self.anchors.get(event.anchor or "")
        if target is None:
            self.refuse(event, "yaml/syntax", f"the alias `*{event.anchor}` names no anchor defined before it",
                        f"define `&{event.anchor}` on a value earlier in the file")
        assert target is not None
        if id(target) in self.open_ids:
            self.refuse(event, "yaml/recursive_alias", f"the alias `*{event.anchor}` is inside its own anchor",
                        "data cannot contain itself")
        if not isinstance(target, ScalarNode) and self.stack and self.stack[-1].key is None \
                and isinstance(self.stack[-1].node, MappingNode):
            self.complex_key(event)
        size, depth = self.measured[id(target)]
        if len(self.stack) + depth > self.limits.max_depth:
            self.refuse(event, "yaml/too_deep",
                        f"with `*{event.anchor}` copied in, lists and mappings are nested more than {self.limits.max_depth} deep",
                        "content data is a few levels deep; flatten this structure")
        self.count_nodes(event, size, via_alias=True)
        self.attach(target, size, depth)

    def attach(self, node: Node, size: int, depth: int) -> None:
        if not self.stack:
            self.root = node
            return
        parent = self.stack[-1]
        parent.size += size
        if depth > parent.depth:
            parent.depth = depth
        if type(parent.node) is SequenceNode:
            parent.node.value.append(node)
        elif parent.key is None:
            parent.key = node
        else:
            parent.node.value.append((parent.key, node))
            parent.key = None

    # ---- checks
    def check_item(self, event: NodeEvent) -> None:
        """The first item beyond `max_items` in the top-level list, at its first character."""
        if self.max_items is None or len(self.stack) != 1:
            return
        top = self.stack[0].node
        if isinstance(top, SequenceNode) and len(top.value) >= self.max_items:
            self.refuse(event, "yaml/too_many_items", f"the file holds more than {self.max_items:,} items",
                        "split the items over several files")

    def complex_key(self, event: Event) -> None:
        self.refuse(event, "yaml/complex_key", "a mapping key must be a plain value, not a list or mapping",
                    "content data uses text keys such as `id:` or `name:`")

    def count_nodes(self, event: Event, added: int, via_alias: bool = False) -> None:
        self.nodes += added
        if self.nodes > self.limits.max_yaml_nodes:
            copied = " (counting each alias as a copy of its anchor)" if via_alias or self.aliases else ""
            self.refuse(event, "yaml/too_many_nodes",
                        f"the file holds more than {self.limits.max_yaml_nodes:,} values{copied}",
                        "split the data over several files" if not via_alias else "use fewer or smaller aliases")

    def check_tag(self, event: Event, tag: str, kind: type) -> None:
        if tag in _ALLOWED_TAGS[kind]:
            return
        shown = "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag
        if any(tag in tags for tags in _ALLOWED_TAGS.values()):
            self.refuse(event, "yaml/syntax", f"the tag `{shown}` cannot mark {_KIND_NAMES[kind]}",
                        "remove the tag, or write the value it names")
        self.refuse(event, "yaml/syntax", f"the tag `{shown}` is not allowed here",
                    "content data holds text, numbers, true/false, null, lists and mappings; remove the tag")

    def refuse(self, event: Event, code: str, message: str, hint: str | None = None) -> None:
        line, column = self.lines.of(event)
        raise _Refused(Diagnostic(code, message, self.file, line, column, hint=hint))


# ---------------------------------------------------------------- values
@dataclass
class _Builder:
    """Node graph -> plain data and positions; every bad value becomes a diagnostic."""

    lines: _Lines
    file: str
    explicit: set[int]  # id(scalar) whose tag was written out, so its text must fit the tag
    problems: list[Diagnostic] = field(default_factory=list)

    def build(self, node: Node, path: tuple[Any, ...], positions: Positions) -> Any:
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        if isinstance(node, SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                positions[path + (index,)] = self.lines.of(item)
                items.append(self.build(item, path + (index,), positions))
            return items
        assert isinstance(node, MappingNode)  # the composer makes only these three kinds
        return self.mapping(node, path, positions)

    def mapping(self, node: MappingNode, path: tuple[Any, ...], positions: Positions) -> dict[Any, Any]:
        own: dict[Any, Any] = {}
        first_seen: dict[Any, Node] = {}
        merges: list[tuple[Node, Node]] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                merges.append((key_node, value_node))
                continue
            key = self.scalar(key_node)  # keys are scalars (the composer refuses others): hashable
            if key in first_seen:
                self.duplicate(key, key_node, first_seen[key])
                continue
            first_seen[key] = key_node
            positions[path + (key,)] = self.lines.of(key_node)
            own[key] = self.build(value_node, path + (key,), positions)
        merged = self.merged(merges, path, positions, set(own))
        return {**merged, **own} if merged else own

    def merged(self, merges: list[tuple[Node, Node]], path: tuple[Any, ...], positions: Positions,
               own_keys: set[Any]) -> dict[Any, Any]:
        """`<<: *base` (or a list of anchors): keys this mapping lacks, the first source winning."""
        merged: dict[Any, Any] = {}
        for merge_key, value_node in merges:
            sources = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
            for source in sources:
                if not isinstance(source, MappingNode):
                    self.problem(source, "yaml/bad_merge", "`<<` merges a mapping or a list of mappings",
                                 "write `<<: *anchor` where the anchor is a mapping")
                    continue
                found: Positions = {}
                values = self.mapping(source, path, found)
                taken = [key for key in values if key not in own_keys and key not in merged]  # in the anchor's order
                for key in taken:
                    merged[key] = values[key]
                    positions[path + (key,)] = self.lines.of(merge_key)
                # What lies below a merged key keeps its place in the anchor's text.
                depth, taken_keys = len(path), set(taken)
                positions.update((p, at) for p, at in found.items() if len(p) > depth + 1 and p[depth] in taken_keys)
        return merged

    def duplicate(self, key: Any, key_node: Node, first: Node) -> None:
        line, column = self.lines.of(key_node)
        first_line, _ = self.lines.of(first)
        self.problems.append(Diagnostic(
            "yaml/duplicate_key", f"duplicate key `{key}` (first defined on line {first_line})", self.file, line, column,
            column + len(str(key_node.value)), hint="each key may appear once in a mapping; remove or rename one of them"))

    def scalar(self, node: ScalarNode) -> Any:
        tag = node.tag
        if tag == _STR or tag == _MERGE:
            return node.value
        if id(node) in self.explicit and not self.written_as(node):
            return None
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return node.value.lower() in ("yes", "true", "on")
        if tag == _INT:
            return self.integer(node)
        if tag == _FLOAT:
            if _looks_like(_INT, node.value):  # `!!float 3`
                number = self.integer(node)
                return float(number) if number is not None else None
            return self.real(node)
        return node.value  # the resolver gives no other tag; text is the safe reading of anything else

    def written_as(self, node: ScalarNode) -> bool:
        """Whether a scalar with an explicit tag is written the way its type is (`!!bool maybe`
        is not); a diagnostic when it is not."""
        tag = node.tag
        if _looks_like(tag, node.value) or (tag == _FLOAT and _looks_like(_INT, node.value)):
            return True
        what = {_NULL: "null", _BOOL: "true/false", _INT: "integer", _FLOAT: "number"}[tag]
        self.not_a(node, what)
        return False

    def integer(self, node: ScalarNode) -> int | None:
        text = node.value.replace("_", "")
        if len(text) > _LONGEST_INTEGER_TEXT:
            self.too_large(node)
            return None
        try:
            number = _integer(text)
        except ValueError:
            self.not_a(node, "integer")
            return None
        if abs(number) > _LARGEST_INTEGER:
            self.too_large(node)
            return None
        return number

    def real(self, node: ScalarNode) -> float | None:
        try:
            number = _real(node.value.replace("_", "").lower())
        except (ValueError, OverflowError):
            self.not_a(node, "number")
            return None
        if not math.isfinite(number):
            self.problem(node, "yaml/not_finite", f"{_shown(node.value)} is not a finite number",
                         "content data holds finite numbers only (JSON has no infinity or NaN)")
            return None
        return number

    def too_large(self, node: ScalarNode) -> None:
        self.problem(node, "yaml/number_too_large", f"the number {_shown(node.value)} is too large",
                     f"integers in content data lie between -{_LARGEST_INTEGER:,} and {_LARGEST_INTEGER:,}")

    def not_a(self, node: ScalarNode, what: str) -> None:
        self.problem(node, "yaml/bad_value", f"{_shown(node.value)} is not a valid {what}",
                     "write the value in that type's form, or remove the tag")

    def problem(self, node: Node, code: str, message: str, hint: str | None = None) -> None:
        line, column = self.lines.of(node)
        self.problems.append(Diagnostic(code, message, self.file, line, column, hint=hint))


def _shown(value: str, limit: int = 40) -> str:
    return f"`{value}`" if len(value) <= limit else f"`{value[:limit]}...`"


def _integer(text: str) -> int:
    """YAML 1.1 integer text (underscores removed) -> int, as PyYAML's safe constructor reads it."""
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    if text.startswith("0b"):
        return sign * int(text[2:], 2)
    if text.startswith("0x"):
        return sign * int(text[2:], 16)
    if len(text) > 1 and text.startswith("0"):
        return sign * int(text, 8)
    if ":" in text:  # sexagesimal, e.g. 1:30 is 90
        number = 0
        for part in text.split(":"):
            number = number * 60 + int(part)
        return sign * number
    return sign * int(text)


def _real(text: str) -> float:
    """YAML 1.1 float text (underscores removed, lower case) -> float."""
    sign = -1.0 if text.startswith("-") else 1.0
    text = text.lstrip("+-")
    if text == ".inf":
        return sign * math.inf
    if text == ".nan":
        return math.nan
    if ":" in text:
        number = 0.0
        for part in text.split(":"):
            number = number * 60 + float(part)
        return sign * number
    return sign * float(text)


# ---------------------------------------------------------------- errors of the parser
def _parser_error(error: yaml.YAMLError, text: str, lines: _Lines, file: str) -> Diagnostic:
    if isinstance(error, yaml.reader.ReaderError):
        return _bad_character(error, text, lines, file)
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None)
    context = getattr(error, "context", None)
    if problem:
        message = f"{problem} ({context})" if context else str(problem)
    else:
        message = source_lines(str(error).strip())[0] if str(error).strip() else "invalid YAML"
    line, column = lines.at(mark.index) if mark is not None else (1, 1)
    if "maximum nesting depth" in message:  # PyYAML's own bound, met before ours when it reads far ahead
        return Diagnostic("yaml/too_deep", "lists and mappings are nested deeper than YAML is read", file, line, column,
                          hint="content data is a few levels deep; flatten this structure")
    index = mark.index if mark is not None else -1
    tab = "\t" in message or "\\t" in message or (0 <= index < len(text) and text[index] == "\t")
    hint = "YAML indentation must use spaces, not tabs" if tab else None
    return Diagnostic("yaml/syntax", message, file, line, column, hint=hint)


def _bad_character(error: yaml.reader.ReaderError, text: str, lines: _Lines, file: str) -> Diagnostic:
    # PyYAML's reader counts characters; libyaml's counts bytes of the UTF-8 text.
    if _EVENTS.reader_counts_bytes:
        line, column = position_of_offset(text.encode("utf-8"), error.position)
        line, column = (line, column + lines.shift) if line == 1 else (line, column)
    else:
        line, column = lines.at(error.position)
    return _character_diagnostic(error.character, file, line, column)


def _character_diagnostic(character: int | str, file: str, line: int, column: int) -> Diagnostic:
    code = character if isinstance(character, int) else ord(character)
    return Diagnostic("yaml/bad_character", f"the character U+{code:04X} is not allowed in YAML", file, line, column,
                      column + 1, hint="remove it (control characters and lone surrogates cannot appear in a YAML file; "
                      'in a double-quoted string write an escape such as "\\t")')


# ---------------------------------------------------------------- entry points
def _check_encodable(text: str, lines: _Lines, file: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        line, column = lines.at(error.start)
        raise SchemaError(_character_diagnostic(text[error.start], file, line, column)) from None


def compose_yaml(text: str, file: str, *, limits: InputLimits = INPUT_LIMITS, max_items: int | None = None
                 ) -> tuple[Node | None, Callable[[Node | yaml.Mark], tuple[int, int]]]:
    """The node graph of `text` (None when it holds no document) and a function giving the 1-based
    (line, column) where a node starts, or of a mark (`node.end_mark`), lines counted by `\\n` only
    (a node's own `mark.line` counts YAML's line breaks, which include U+2028 and NEL); every limit
    of the module docstring applied. Raises `SchemaError`."""
    root, lines, _ = _compose(text, file, limits, max_items)
    return root, lines.of


def _compose(text: str, file: str, limits: InputLimits, max_items: int | None) -> tuple[Node | None, _Lines, set[int]]:
    too_large = check_text_size(text, file, limits)  # before any parsing
    if too_large is not None:
        raise SchemaError(too_large)
    shift = 1 if text.startswith(_BOM) else 0
    body = text[shift:]
    lines = _Lines(text, shift)
    _check_encodable(body, lines, file)
    events = None
    try:
        events = _EVENTS.make(body)
        composer = _Composer(lines, file, limits, max_items)
        return composer.compose(events), lines, composer.explicit
    except _Refused as refused:
        raise SchemaError(refused.diagnostic) from None
    except yaml.YAMLError as error:
        raise SchemaError(_parser_error(error, body, lines, file)) from None
    finally:
        if events is not None:
            events.dispose()


def load_yaml_with_positions(text: str, file: str, *, limits: InputLimits = INPUT_LIMITS,
                             max_items: int | None = None, empty_allowed: bool = True) -> tuple[Any, Positions]:
    """Parse `text` (YAML) safely and within `limits`. Returns `(data, positions)`; raises
    `SchemaError` with positioned diagnostics on anything the module docstring refuses.

    `positions[path]` is the 1-based (line, column) of the value at `path` — for a mapping entry,
    of its key. `max_items` bounds the items of a top-level list (a data file's items). Empty input
    gives `(None, {})`, or `yaml/empty` when `empty_allowed` is false.
    """
    root, lines, explicit = _compose(text, file, limits, max_items)
    if root is None:
        if empty_allowed:
            return None, {}
        raise SchemaError(Diagnostic("yaml/empty", "the file holds no YAML data (it is empty or only comments)", file,
                                     1, 1, hint="write the data, or delete the file"))
    builder = _Builder(lines, file, explicit)
    positions: Positions = {(): lines.of(root)}
    data = builder.build(root, (), positions)
    if builder.problems:  # a problem inside an anchor merged twice is found twice: reported once
        raise SchemaError(list(dict.fromkeys(builder.problems)))
    return data, positions
