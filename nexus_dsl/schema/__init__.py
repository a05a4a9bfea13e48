"""JSON Schema loading and validation glue (schemas live in the repository's `schemas/`).

- `load_schema(name)`, `validate(instance, schema_name, file=..., locate=...)` -> Diagnostics
- `schema_name_for_kind(kind)` picks the schema of a declaration kind
- `validate_declaration(decl)` validates a parsed declaration with source positions (one of a
  kind content declares as the built-in kind it is like: `like=`, `canonical_as`)
- `load_yaml_with_positions(text, file)` loads YAML safely, within the input limits, with a
  path -> (line, column) map; `compose_yaml(text, file)` gives the bounded node graph (for editing
  a file's text in place). Hostile YAML is a positioned `SchemaError`, never a traceback.
"""

from .validate import (
    DATA_SCHEMAS,
    DECLARATION_SCHEMAS,
    canonical_as,
    declaration_positions,
    format_path,
    load_schema,
    registry,
    schema_name_for_kind,
    schema_names,
    validate,
    validate_declaration,
    validator_for,
)
from .yaml_positions import compose_yaml, load_yaml_with_positions

__all__ = [
    "DATA_SCHEMAS",
    "DECLARATION_SCHEMAS",
    "canonical_as",
    "compose_yaml",
    "declaration_positions",
    "format_path",
    "load_schema",
    "load_yaml_with_positions",
    "registry",
    "schema_name_for_kind",
    "schema_names",
    "validate",
    "validate_declaration",
    "validator_for",
]
