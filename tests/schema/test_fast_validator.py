"""The fast validator (jsonschema_rs) answers only "valid?", and must never say yes where
jsonschema, which writes the positioned errors, would say no: a wrong yes would let invalid content
load silently. Both are asked about every real item and about many damaged copies of them."""

from __future__ import annotations

import copy
import glob
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.model.ruleset import DATA_TYPES
from nexus_dsl.schema.validate import _surely_valid, canonical_as, schema_name_for_kind, validate, validator_for
from nexus_dsl.syntax.canonical import to_canonical
from nexus_dsl.syntax.parser import parse
from support import value_paths

ROOT = Path(__file__).resolve().parents[2]


def _real_items() -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    ruleset = cached_ruleset(("base",))
    for path in sorted(glob.glob(str(ROOT / "content/**/*.nexus"), recursive=True)):
        for declaration in parse(Path(path).read_text(encoding="utf-8"), path).declarations:
            like = ruleset.words.base_kind(declaration.kind)  # the base game's kinds are built-in ones' likes
            assert like is not None, declaration.kind
            items.append((schema_name_for_kind(like), canonical_as(to_canonical(declaration), like)))
    for data_type, schema in DATA_TYPES.items():
        for item in ruleset.data.get(data_type, {}).values():
            items.append((schema, _thawed(item.data)))
    return items


def _thawed(value: Any) -> Any:
    if hasattr(value, "items"):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_thawed(v) for v in value]
    return value


REAL = _real_items()


def test_every_real_item_is_valid_to_both():
    assert len(REAL) > 150
    for schema, item in REAL:
        assert _surely_valid(item, schema), (schema, item.get("id"))
        assert validator_for(schema).is_valid(item)


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    value[path[0]] = _replace(value[path[0]], path[1:], new)
    return value


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | st.sampled_from(["AP", "MP", "SD", "+SDS", "self", "effect", "when", "cost", "id", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["clause", "kind", "id", "name", "value", "args", "op", "items", "amount", "resource", "x"]), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=600, derandomize=True, deadline=None)
@given(st.integers(0, len(REAL) - 1), st.integers(0, 10**6), json_values)
def test_a_damaged_item_gets_the_same_verdict_from_both(which, where, new):
    schema, original = REAL[which]
    paths = value_paths(original)
    damaged = _replace(copy.deepcopy(original), paths[where % len(paths)], new)
    assert _surely_valid(damaged, schema) == validator_for(schema).is_valid(damaged)


def test_what_the_fast_validator_cannot_take_goes_to_the_detailed_one():
    barge = {"id": "odd", "name": "Odd", "objects": [], 3: "a key that is not text"}
    assert not _surely_valid(barge, "barge")
    problems = validate(barge, "barge", file="barges.yaml")
    assert problems and all(p.code.startswith("schema/") for p in problems)
