"""The schema files themselves: valid Draft 2020-12, with ids, titles and resolvable references."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from jsonschema import Draft202012Validator

from nexus_dsl.errors import SchemaError
from nexus_dsl.schema import load_schema, registry, schema_name_for_kind, schema_names, validate
from nexus_dsl.schema.validate import SCHEMA_DIR, format_path, schema_dir

EXPECTED = {
    "script", "command", "trait_ability", "hazard", "drawn_card", "hand_card", "weapon", "rule",
    "state", "stat", "pile", "event", "window", "procedure", "game", "turn", "kind",
    "pack", "barge", "lanista", "motivation",
}
KINDS = ["command", "trait_ability", "hazard", "drawn_card", "hand_card", "weapon", "rule", "kind"]


def test_every_expected_schema_exists():
    assert EXPECTED <= set(schema_names())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_schema_is_valid_draft_2020_12_with_id_title_description(name):
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://nexus-dsl.dev/schemas/{name}.schema.json"
    assert schema["title"] and schema["description"]
    # The file on disk is plain JSON with that same content.
    assert json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text()) == schema


def _refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_ref_resolves_offline(name):
    schema = load_schema(name)
    resolver = registry().resolver(base_uri=schema["$id"])
    refs = list(_refs(schema))
    for ref in refs:
        resolved = resolver.lookup(ref)
        assert isinstance(resolved.contents, (dict, bool)), ref


@pytest.mark.parametrize("kind", KINDS)
def test_kind_schemas_reference_script_defs_by_id(kind):
    refs = set(_refs(load_schema(kind)))
    assert any(r.startswith("script.schema.json#/$defs/") for r in refs)
    assert load_schema(kind)["properties"]["kind"] == {"const": kind, "description": "The declaration kind."}


def test_script_defs_have_one_def_per_clause_with_closed_objects():
    defs = load_schema("script")["$defs"]
    for name in ["property", "cost", "requires", "roll", "on", "when", "window", "param", "arg", "effect"]:
        assert defs[name]["additionalProperties"] is False
        assert "clause" in defs[name]["required"]
        assert defs[name]["properties"]["clause"]["const"] == name
    for name in ["expr", "statement", "block"]:
        assert name in defs
    assert defs["id"]["pattern"] == "^[a-z][a-z0-9_]*$"


def test_load_schema_accepts_file_names_and_ids():
    assert load_schema("command.schema.json") == load_schema("command")
    assert load_schema("https://nexus-dsl.dev/schemas/command.schema.json") == load_schema("command")


def test_unknown_schema_is_a_schema_error():
    with pytest.raises(SchemaError) as caught:
        load_schema("comand")
    assert caught.value.code == "schema/unknown_schema"
    assert "command" in (caught.value.diagnostics[0].hint or "")


@pytest.mark.parametrize("kind", KINDS)
def test_schema_name_for_kind(kind):
    assert schema_name_for_kind(kind) == kind
    assert load_schema(schema_name_for_kind(kind))["properties"]["kind"]["const"] == kind


def test_schema_name_for_unknown_kind_suggests():
    with pytest.raises(SchemaError) as caught:
        schema_name_for_kind("hazzard")
    assert caught.value.code == "schema/not_allowed"
    assert "hazard" in caught.value.diagnostics[0].hint


def test_format_path():
    assert format_path(("clauses", 2, "items", 0, "amount")) == "clauses[2].items[0].amount"
    assert format_path((0, "influence")) == "[0].influence"
    assert format_path(()) == ""
    assert format_path(("preps", "not in")) == 'preps["not in"]'


def test_validate_script_root_accepts_any_kind():
    decl = {"kind": "rule", "id": "r", "name": "R", "clauses": [{"clause": "window", "name": "w", "by": None}]}
    assert validate(decl, "script", file="x") == []
    bad = dict(decl, kind="spell")
    (diag,) = validate(bad, "script", file="x")
    assert diag.code == "schema/not_allowed" and diag.message.startswith("kind:")


# Every `$ref` resolves from the schema files alone, the way an editor's YAML language server
# resolves it: relative to the file the schema was read from, never through the network. The `$id`s
# stay absolute (the validators register the schemas under them), so a ref naming a URL would send
# the language server to fetch it: none may.
def _pointer(document: Any, fragment: str) -> Any:
    """RFC 6901: the part of `document` a JSON pointer (a ref's fragment) names."""
    node = document
    for raw in unquote(fragment).split("/")[1:] if fragment else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(part)]
        else:
            assert isinstance(node, dict) and part in node, f"no `{part}` in the pointer `{fragment}`"
            node = node[part]
    return node


def _resolve(schema_file: Path, ref: str) -> Any:
    parts = urlsplit(ref)
    assert not parts.scheme and not parts.netloc, f"{schema_file.name}: `{ref}` is not relative to the file"
    target = (schema_file.parent / unquote(parts.path)).resolve() if parts.path else schema_file
    assert target.parent == schema_dir().resolve(), f"{schema_file.name}: `{ref}` leads out of the schemas' folder"
    assert target.is_file(), f"{schema_file.name}: `{ref}` names no schema file"
    return _pointer(json.loads(target.read_text(encoding="utf-8")), parts.fragment)


@pytest.mark.parametrize("name", schema_names())
def test_every_ref_resolves_from_the_files_alone(name: str) -> None:
    schema_file = schema_dir() / f"{name}.schema.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    for ref in _refs(schema):
        resolved = _resolve(schema_file, ref)
        assert isinstance(resolved, (dict, bool)), f"{name}: `{ref}` names no schema"


def test_references_between_files_are_checked() -> None:
    """The schemas do refer to one another (a test that resolved nothing would prove nothing)."""
    across = [ref for name in schema_names()
              for ref in _refs(json.loads((schema_dir() / f"{name}.schema.json").read_text(encoding="utf-8")))
              if not ref.startswith("#")]
    assert len(across) > 20
    assert all(ref.startswith("script.schema.json#/$defs/") for ref in across)
