"""The VS Code extension folder (editors/vscode) and the YAML schema settings (.vscode/settings.json):
the shape VS Code reads, every file they name present, and every YAML content file checked against
the schema its settings give it, with references resolved from the files alone."""

from __future__ import annotations

import json
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from nexus_dsl.cli import build_parser
from nexus_dsl.model.ruleset import DATA_TYPES
from nexus_dsl.textmate import GRAMMAR_PATH, SCOPE_NAME

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "editors/vscode"
PACKAGE = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
SETTINGS = json.loads((REPO / ".vscode/settings.json").read_text(encoding="utf-8"))
CONTENT_YAML = sorted(path for path in (REPO / "content").rglob("*.yaml"))


def test_package_json_declares_the_language_grammar_and_client():
    for key in ("name", "version", "publisher", "engines", "main", "activationEvents", "contributes"):
        assert key in PACKAGE, key
    assert PACKAGE["engines"]["vscode"].startswith("^")
    assert "onLanguage:nexus" in PACKAGE["activationEvents"]
    assert (EXTENSION / PACKAGE["main"]).is_file()
    assert "vscode-languageclient" in PACKAGE["dependencies"]
    [language] = PACKAGE["contributes"]["languages"]
    assert language["id"] == "nexus" and language["extensions"] == [".nexus"]
    assert (EXTENSION / language["configuration"]).is_file()
    [grammar] = PACKAGE["contributes"]["grammars"]
    assert grammar["language"] == "nexus" and grammar["scopeName"] == SCOPE_NAME
    assert (EXTENSION / grammar["path"]).resolve() == (REPO / GRAMMAR_PATH).resolve()
    command = PACKAGE["contributes"]["configuration"]["properties"]["nexus.server.command"]["default"]
    assert command == ["nexus", "lsp"] == SETTINGS["nexus.server.command"]
    assert build_parser().parse_args(command[1:]).command == "lsp"  # the command the client starts exists


def test_language_configuration_matches_the_grammar():
    configuration = json.loads((EXTENSION / "language-configuration.json").read_text(encoding="utf-8"))
    assert configuration["comments"] == {"lineComment": "#"}
    assert ["{", "}"] in configuration["brackets"]
    grammar = json.loads((REPO / GRAMMAR_PATH).read_text(encoding="utf-8"))
    comment = next(rule["match"] for rule in grammar["patterns"] if rule["name"].startswith("comment."))
    assert comment.startswith("#")


def _schema_for(path: Path) -> list[str]:
    relative = path.relative_to(REPO).as_posix()
    return [schema for schema, globs in SETTINGS["yaml.schemas"].items() if any(fnmatch(relative, g) for g in globs)]


def test_every_data_type_and_the_manifest_have_a_schema_setting():
    globs = [g for found in SETTINGS["yaml.schemas"].values() for g in found]
    for data_type in DATA_TYPES:
        assert f"**/{data_type}.yaml" in globs and f"**/{data_type}/*.yaml" in globs
    assert "**/pack.yaml" in globs


def _registry() -> Registry:
    """Schemas retrieved from the repository's files only: a file URI, or a schema's own `$id`
    (which names a file of schemas/ by its name); anything else is an error, never a download."""
    def retrieve(uri: str) -> Resource:
        if uri.startswith("file://"):
            path = Path(uri.removeprefix("file://"))
        else:
            assert uri.startswith("https://nexus-dsl.dev/schemas/"), f"a reference leads to {uri}"
            path = REPO / "schemas" / uri.rsplit("/", 1)[1]
        assert REPO in path.resolve().parents, uri
        return Resource.from_contents(json.loads(path.read_text(encoding="utf-8")), default_specification=DRAFT202012)
    return Registry(retrieve=retrieve)


@pytest.mark.parametrize("path", CONTENT_YAML, ids=lambda p: str(p.relative_to(REPO / "content")))
def test_every_content_yaml_file_is_valid_against_the_schema_its_setting_names(path: Path):
    [schema_path] = _schema_for(path)
    schema_file = (REPO / schema_path).resolve()
    assert schema_file.is_file()
    schema: dict[str, Any] = json.loads(schema_file.read_text(encoding="utf-8"))
    schema.setdefault("$id", schema_file.as_uri())  # where an editor read it from
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = list(Draft202012Validator(schema, registry=_registry()).iter_errors(data))
    assert errors == [], [error.message[:200] for error in errors[:3]]


def test_a_wrong_value_is_found_through_the_file_schemas():
    schema_file = (REPO / "editors/schemas/barges.schema.json").resolve()
    schema = {**json.loads(schema_file.read_text(encoding="utf-8")), "$id": schema_file.as_uri()}
    validator = Draft202012Validator(schema, registry=_registry())
    barges = yaml.safe_load((REPO / "content/base/barges.yaml").read_text(encoding="utf-8"))
    assert validator.is_valid(barges) and validator.is_valid(barges[0])
    assert not validator.is_valid([{**barges[0], "id": "Not An Id"}])
