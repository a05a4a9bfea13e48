"""Load YAML safely, remembering where every value came from.

`load_yaml_with_positions(text, file)` returns the data and a map from JSON paths (tuples of keys
and list indices, the same paths `jsonschema` reports) to 1-based (line, column). For a mapping
entry the position is that of its key (where a reader looks); for a list item, that of the item.
The root is stored under `()`.

YAML problems never escape as raw PyYAML tracebacks: a syntax error raises `SchemaError` with a
`yaml/syntax` diagnostic at the problem mark, and duplicate keys in a mapping (which PyYAML would
silently collapse) raise `SchemaError` with one `yaml/duplicate_key` diagnostic per duplicate.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Diagnostic, SchemaError

__all__ = ["PositionLoader", "load_yaml_with_positions", "Positions"]

Positions = dict[tuple[Any, ...], tuple[int, int]]

_MERGE_TAG = "tag:yaml.org,2002:merge"


class PositionLoader(yaml.SafeLoader):
    """A `SafeLoader` (only plain data: no Python object tags); positions are read from its nodes."""


def _pos(node: Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _key_of(loader: PositionLoader, key_node: Node) -> Any:
    if isinstance(key_node, ScalarNode):
        return loader.construct_object(key_node, deep=True)
    # A complex key (rare in data files): PyYAML's safe constructor refuses unhashable ones.
    return _hashable(loader.construct_object(key_node, deep=True))


def _walk(
    loader: PositionLoader,
    node: Node,
    path: tuple[Any, ...],
    positions: Positions,
    duplicates: list[Diagnostic],
    file: str,
    visiting: set[int],
) -> None:
    if id(node) in visiting:  # a recursive alias: positions of the first visit are enough
        return
    if isinstance(node, MappingNode):
        visiting.add(id(node))
        seen: dict[Any, Node] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                # `<<: *base` — the merged keys belong to this mapping; point them at the merge.
                merged = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
                for source in merged:
                    if isinstance(source, MappingNode):
                        for sub_key, _ in source.value:
                            if isinstance(sub_key, ScalarNode):
                                positions.setdefault(path + (_key_of(loader, sub_key),), _pos(key_node))
                continue
            key = _key_of(loader, key_node)
            if key in seen:
                first_line, _ = _pos(seen[key])
                line, column = _pos(key_node)
                duplicates.append(
                    Diagnostic(
                        code="yaml/duplicate_key",
                        message=f"duplicate key `{key}` (first defined on line {first_line})",
                        file=file,
                        line=line,
                        column=column,
                        end_column=column + len(str(key)),
                        hint="each key may appear once in a mapping; remove or rename one of them",
                    )
                )
                continue
            seen[key] = key_node
            child = path + (key,)
            positions[child] = _pos(key_node)
            _walk(loader, value_node, child, positions, duplicates, file, visiting)
        visiting.discard(id(node))
    elif isinstance(node, SequenceNode):
        visiting.add(id(node))
        for index, item in enumerate(node.value):
            child = path + (index,)
            positions[child] = _pos(item)
            _walk(loader, item, child, positions, duplicates, file, visiting)
        visiting.discard(id(node))


def _yaml_error(error: yaml.YAMLError, file: str) -> Diagnostic:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None)
    context = getattr(error, "context", None)
    hint = None
    if problem:
        message = f"{problem} ({context})" if context else str(problem)
        if "\\t" in str(problem) or "\t" in str(problem):
            hint = "YAML indentation must use spaces, not tabs"
    else:
        message = str(error).strip().splitlines()[0] if str(error).strip() else "invalid YAML"
    line = mark.line + 1 if mark is not None else 0
    column = mark.column + 1 if mark is not None else 0
    if mark is None and hasattr(error, "position"):  # ReaderError: a bad character at an offset
        message = str(error).strip().splitlines()[0]
    return Diagnostic(code="yaml/syntax", message=message, file=file, line=line, column=column, hint=hint)


def load_yaml_with_positions(text: str, file: str) -> tuple[Any, Positions]:
    """Parse `text` (YAML) safely. Returns `(data, positions)`; raises `SchemaError` on bad YAML.

    `positions[path]` is the 1-based (line, column) of the value at `path` — for a mapping entry,
    of its key. Empty input gives `(None, {})`.
    """
    try:
        loader = PositionLoader(text)
    except yaml.YAMLError as error:  # the reader refuses control characters before parsing starts
        raise SchemaError(_yaml_error(error, file)) from None
    try:
        try:
            node = loader.get_single_node()
            if node is None:
                return None, {}
            positions: Positions = {(): _pos(node)}
            duplicates: list[Diagnostic] = []
            _walk(loader, node, (), positions, duplicates, file, set())
            if duplicates:
                raise SchemaError(duplicates)
            data = loader.construct_document(node)
        except yaml.YAMLError as error:
            raise SchemaError(_yaml_error(error, file)) from None
        except RecursionError:
            raise SchemaError(
                Diagnostic(code="yaml/syntax", message="the document is nested too deeply", file=file)
            ) from None
    finally:
        loader.dispose()
    return data, positions
