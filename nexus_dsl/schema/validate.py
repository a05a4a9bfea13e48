"""JSON Schema glue: load the schemas in `schemas/`, validate, and report `Diagnostic`s.

Every schema is JSON Schema Draft 2020-12 with an `$id` under `https://nexus-dsl.dev/schemas/`; one file
refers to another by a relative `$ref` (`script.schema.json#/$defs/id`), which resolves against the
`$id` here and against the file itself in an editor's YAML language server, offline either way.
They are registered together in one `referencing.Registry`, so `$ref`s between files resolve
offline. `validate()` reports every violation (not just the first), each with a stable code
`schema/<category>`, the JSON path of the offending value in its message, a position when a
`locate` callback knows one, and a hint where one helps.

Verdicts are remembered: an instance found valid against a schema (by the digest of its JSON text)
is not validated again, in this process nor, through the load cache (`nexus_dsl/cache.py`), in
the next one, as long as the schemas and the validating code are the same (`remember=True`; the
loader asks for it). Only "valid" is remembered: problems are always found anew, with their
positions. The validating libraries are imported only when something has to be validated.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from cachetools import LRUCache

from .. import cache, shipped
from ..errors import Diagnostic, SchemaError, did_you_mean
from ..syntax import ast_nodes as A

if TYPE_CHECKING:  # imported where used: a load whose verdicts are all remembered needs none of them
    import jsonschema_rs
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

__all__ = [
    "SCHEMA_DIR",
    "DECLARATION_SCHEMAS",
    "DATA_SCHEMAS",
    "schema_dir",
    "schema_names",
    "load_schema",
    "registry",
    "validator_for",
    "validate",
    "validate_declaration",
    "save_verdicts",
    "forget_verdicts",
    "canonical_as",
    "declaration_positions",
    "schema_name_for_kind",
    "format_path",
]

SCHEMA_DIR = shipped.schemas_folder()
SCHEMA_BASE_URI = "https://nexus-dsl.dev/schemas/"

#: Declaration kind -> schema name (one schema per kind).
DECLARATION_SCHEMAS: dict[str, str] = {kind: kind for kind in A.DECLARATION_KINDS}
#: The YAML data schemas (each validates one item of a file).
DATA_SCHEMAS = ("pack", "barge", "lanista", "motivation")
#: Unknown keys of one mapping reported one by one; those beyond are counted in one more diagnostic.
UNKNOWN_KEYS_NAMED = 20

Locate = Callable[[tuple[str | int, ...]], "tuple[int, int] | None"]


# ---------------------------------------------------------------- loading
def schema_dir() -> Path:
    return SCHEMA_DIR


def _bare_name(name: str) -> str:
    """`command`, `command.schema.json` and the full `$id` URI all name the same schema."""
    if name.startswith(SCHEMA_BASE_URI):
        name = name[len(SCHEMA_BASE_URI) :]
    if name.endswith(".schema.json"):
        name = name[: -len(".schema.json")]
    return name


def schema_names() -> list[str]:
    """The names of every schema file in `schemas/` (without `.schema.json`)."""
    return sorted(p.name[: -len(".schema.json")] for p in SCHEMA_DIR.glob("*.schema.json"))


@lru_cache(maxsize=None)
def _load_raw(name: str) -> str:
    path = SCHEMA_DIR / f"{name}.schema.json"
    if not path.is_file():
        known = schema_names()
        raise SchemaError(
            Diagnostic(
                code="schema/unknown_schema",
                message=f"no schema named `{name}` in {SCHEMA_DIR}",
                hint=did_you_mean(name, known) or ("known schemas: " + ", ".join(known)),
            )
        )
    return path.read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """The schema `name` (`command`, `command.schema.json` or its `$id`), as a fresh dict."""
    return json.loads(_load_raw(_bare_name(name)))


@lru_cache(maxsize=1)
def registry() -> Registry:
    """Every schema in `schemas/`, registered under its `$id` (built once per process)."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources = []
    for name in schema_names():
        contents = load_schema(name)
        resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources).crawl()


@lru_cache(maxsize=None)
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name), registry=registry())


@lru_cache(maxsize=None)
def _fast_validator(name: str) -> jsonschema_rs.Draft202012Validator:
    """The same schema compiled by `jsonschema_rs` (Rust): it answers "valid?" a few hundred times
    faster than `jsonschema`, which keeps checking a pack near the limits' size in a fraction of a
    second. Only its yes is used; the detailed, positioned errors come from `jsonschema`."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(load_schema(name), registry=_fast_registry())


@lru_cache(maxsize=1)
def _fast_registry() -> jsonschema_rs.Registry:
    """Every schema in `schemas/` for `jsonschema_rs`, built once for all the validators."""
    import jsonschema_rs

    return jsonschema_rs.Registry([(contents["$id"], contents) for contents in map(load_schema, schema_names())])


def _surely_valid(instance: Any, name: str) -> bool:
    """Whether the fast validator finds `instance` valid. Anything it cannot take (a YAML mapping
    with a key that is not a string, say) is left to `jsonschema`, which reports it."""
    try:
        return bool(_fast_validator(name).is_valid(instance))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - a Rust panic derives from BaseException; the slow path decides
        return False


def validator_for(name: str) -> Draft202012Validator:
    """A cached Draft 2020-12 validator for the schema `name`, with the shared registry."""
    return _validator(_bare_name(name))


def schema_name_for_kind(kind: str) -> str:
    """The schema name (`command`, ...) that validates a declaration of `kind`."""
    try:
        return DECLARATION_SCHEMAS[kind]
    except (KeyError, TypeError):
        raise SchemaError(
            Diagnostic(
                code="schema/not_allowed",
                message=f"unknown declaration kind `{kind}`",
                hint=did_you_mean(str(kind), DECLARATION_SCHEMAS)
                or "one of: " + ", ".join(DECLARATION_SCHEMAS),
            )
        ) from None


# ---------------------------------------------------------------- paths
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def format_path(path: Iterable[str | int]) -> str:
    """`("clauses", 2, "items", 0, "amount")` -> `clauses[2].items[0].amount`."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        elif isinstance(part, str) and _PLAIN_KEY.match(part):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(str(part))}]"
    return out


def _prefixed(path: str, text: str) -> str:
    return f"{path}: {text}" if path else text


def _locate(locate: Locate | None, path: tuple[str | int, ...]) -> tuple[int, int]:
    """The position of `path`, or of its nearest locatable ancestor; (0, 0) when none is known."""
    if locate is None:
        return 0, 0
    current = path
    while True:
        try:
            found = locate(current)
        except (LookupError, TypeError, ValueError):
            found = None
        if found and found[0]:
            return int(found[0]), int(found[1])
        if not current:
            return 0, 0
        current = current[:-1]


# ---------------------------------------------------------------- categories
_CATEGORY = {
    "minimum": "out_of_range",
    "maximum": "out_of_range",
    "exclusiveMinimum": "out_of_range",
    "exclusiveMaximum": "out_of_range",
    "required": "required",
    "dependentRequired": "required",
    "additionalProperties": "unknown_key",
    "unevaluatedProperties": "unknown_key",
    "type": "wrong_type",
    "enum": "not_allowed",
    "const": "not_allowed",
    "pattern": "not_allowed",
    "not": "not_allowed",
    "minItems": "too_few",
    "minContains": "too_few",
    "contains": "too_few",
    "minProperties": "too_few",
    "maxItems": "too_many",
    "maxContains": "too_many",
    "maxProperties": "too_many",
}


def _category(error: ValidationError) -> str:
    return _CATEGORY.get(str(error.validator), "invalid")


_JSON_TYPE_NAMES = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null", list: "array", dict: "object"}


def _json_type(value: Any) -> str:
    for python_type, name in _JSON_TYPE_NAMES.items():
        if type(value) is python_type:
            return name
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__


def _show(value: Any, limit: int = 60) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _one_of(options: Sequence[Any]) -> str:
    return "one of: " + ", ".join(str(o) if isinstance(o, str) else _show(o) for o in options)


def _most_precise(error: ValidationError) -> ValidationError:
    """For `oneOf`/`anyOf`, the sub-error that best explains the failure (recursively)."""
    from jsonschema.exceptions import best_match

    while error.validator in ("oneOf", "anyOf") and error.context:
        best = best_match(error.context)
        if best is None:
            break
        error = best
    return error


# ---------------------------------------------------------------- diagnostics
def _is_property_name_error(error: ValidationError) -> bool:
    """Whether `error` was raised by a `propertyNames` subschema (its instance is a key)."""
    schema_path = list(error.schema_path)
    if "propertyNames" not in schema_path:
        return False
    last = len(schema_path) - 1 - schema_path[::-1].index("propertyNames")
    descends = ("properties", "items", "prefixItems", "additionalProperties", "patternProperties", "contains")
    return not any(part in descends for part in schema_path[last + 1 :])


def _diagnostics_for(
    error: ValidationError,
    root: Any,
    *,
    file: str,
    locate: Locate | None,
    prefix: tuple[str | int, ...],
) -> list[Diagnostic]:
    error = _most_precise(error)
    rel_path = tuple(error.absolute_path)
    path = prefix + rel_path
    where = format_path(path)
    category = _category(error)
    validator = str(error.validator)
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    # Any JSON value each. The stubs also allow jsonschema's `Unset`, which only a hand-built error
    # carries: every error a validator reports has both.
    instance: Any = error.instance
    keyword_value: Any = error.validator_value
    hint: str | None = None

    if _is_property_name_error(error):
        # A key rejected by `propertyNames` (e.g. an unknown expression tag): name the key itself.
        key_path = path + (instance,)
        line, column = _locate(locate, key_path)
        if validator == "enum":
            options = [str(o) for o in keyword_value]
            close = did_you_mean(str(instance), options)
            hint = f"{close} ({_one_of(options)})" if close else _one_of(options)
            return [Diagnostic("schema/unknown_key", _prefixed(where, f"unknown key `{instance}`"), file, line, column, hint=hint)]
        message = _prefixed(where, f"key {_show(instance)} is not allowed here")
        return [Diagnostic(f"schema/{category}", message, file, line, column, hint=schema.get("description"))]

    if category == "unknown_key":
        # One diagnostic per unexpected key, positioned at the key itself.
        allowed = list(schema.get("properties", {}) or {})
        extras = [k for k in instance if k not in allowed] if isinstance(instance, Mapping) else []
        out = []
        # Thousands of stray keys (a pasted table, a merged anchor) are one mistake: name the first few
        # and count the rest, so neither the report nor the time spent on suggestions grows with them.
        rest = extras[UNKNOWN_KEYS_NAMED:]
        extras = extras[:UNKNOWN_KEYS_NAMED]
        for key in extras or [None]:
            key_path = path + ((key,) if key is not None else ())
            if key is None:
                message = _prefixed(where, error.message)
            else:
                message = _prefixed(where, f"unknown key `{key}`")
            hint = did_you_mean(str(key), allowed) if key is not None else None
            if hint is None and allowed:
                hint = "allowed keys: " + ", ".join(allowed)
            line, column = _locate(locate, key_path)
            out.append(Diagnostic(f"schema/{category}", message, file, line, column, hint=hint))
        if rest:
            line, column = _locate(locate, path + (rest[0],))
            message = _prefixed(where, f"{len(rest)} more unknown keys, from `{rest[0]}` on")
            out.append(Diagnostic(f"schema/{category}", message, file, line, column,
                                  hint="allowed keys: " + ", ".join(allowed) if allowed else None))
        return out

    if validator == "required":
        missing = [k for k in keyword_value if isinstance(instance, Mapping) and k not in instance]
        key = next((k for k in missing if f"{k!r} is a required" in error.message), missing[0] if missing else None)
        message = _prefixed(where, f"missing required key `{key}`" if key is not None else error.message)
        description = (schema.get("properties", {}).get(key, {}) or {}).get("description") if key else None
        if description:
            hint = f"`{key}`: {description}"
    elif validator == "type":
        expected = keyword_value
        expected_text = " or ".join(expected) if isinstance(expected, list) else str(expected)
        message = _prefixed(where, f"expected {expected_text}, got {_json_type(instance)} {_show(instance)}")
    elif validator == "enum":
        options = list(keyword_value)
        message = _prefixed(where, f"{_show(instance)} is not allowed here")
        # A clause type the declaration kind does not allow: say which kind.
        if rel_path and rel_path[-1] == "clause" and isinstance(root, Mapping) and isinstance(root.get("kind"), str):
            kind = root["kind"]
            message = _prefixed(format_path(path[:-1]), f"a `{instance}` clause is not allowed in a {kind}")
            hint = f"a {kind} may have these clauses: " + ", ".join(options)
        else:
            close = did_you_mean(str(instance), [str(o) for o in options]) if isinstance(instance, str) else None
            hint = f"{close} ({_one_of(options)})" if close else _one_of(options)
    elif validator == "const":
        message = _prefixed(where, f"expected {_show(keyword_value)}, got {_show(instance)}")
    elif validator in ("pattern", "not"):
        message = _prefixed(where, f"{_show(instance)} is not allowed here")
        hint = schema.get("description")
        if validator == "pattern" and not hint:
            hint = f"must match {keyword_value}"
    elif validator in ("contains", "minContains"):
        minimum = schema.get("minContains", 1)
        wanted = (schema.get("contains") or {}).get("description", "matching item") if isinstance(schema.get("contains"), Mapping) else "matching item"
        message = _prefixed(where, f"must contain at least {minimum} {wanted}")
        if path == ("clauses",) and isinstance(root, Mapping) and isinstance(root.get("kind"), str):
            message = _prefixed(where, f"a {root['kind']} must have at least {minimum} {wanted}")
    else:
        message = _prefixed(where, error.message)
        if validator == "uniqueItems":
            hint = "each item may appear only once"
        elif validator == "oneOf":  # valid under more than one alternative
            message = _prefixed(where, "matches more than one alternative; exactly one is expected")
            described = [o.get("description") for o in keyword_value if isinstance(o, Mapping)]
            hint = "exactly one of: " + "; ".join(d for d in described if d) if any(described) else None
        elif validator is None or validator == "False":
            hint = schema.get("description") if schema else None

    line, column = _locate(locate, path)
    return [Diagnostic(f"schema/{category}", message, file, line, column, hint=hint)]


def _sort_key(diagnostic_and_path: tuple[Diagnostic, tuple]) -> tuple:
    diagnostic, path = diagnostic_and_path
    return (
        diagnostic.line,
        diagnostic.column,
        tuple((0, p, "") if isinstance(p, int) else (1, 0, str(p)) for p in path),
    )


def validate(
    instance: Any,
    schema_name: str,
    *,
    file: str,
    locate: Locate | None = None,
    prefix: tuple[str | int, ...] = (),
    remember: bool = False,
) -> list[Diagnostic]:
    """Every violation of schema `schema_name` by `instance`, as positioned Diagnostics.

    `locate(path)` maps a JSON path (keys and list indices) to a 1-based (line, column); when it
    does not know a path (returns None/(0, 0) or raises LookupError) the nearest locatable ancestor
    is used. `prefix` is prepended to every path (messages and `locate`), e.g. `(3,)` for the
    fourth item of a YAML file holding a list.

    `remember`: a valid `instance` is remembered as valid (see the module's docstring), and one
    already remembered is not validated again. Only for plain JSON values (dicts, lists, strings,
    numbers, booleans, None), such as YAML data and canonical forms: a tuple would be remembered
    as the list it prints as.
    """
    name = _bare_name(schema_name)
    verdict = _verdict_key(instance, name) if remember else None
    if verdict is not None and _known(verdict):
        return []
    if _surely_valid(instance, name):
        _remember_valid(verdict)
        return []
    validator = validator_for(name)
    found: list[tuple[Diagnostic, tuple]] = []
    seen: set[tuple] = set()
    for error in validator.iter_errors(instance):
        for diagnostic in _diagnostics_for(
            error, instance, file=file, locate=locate, prefix=tuple(prefix)
        ):
            identity = (diagnostic.code, diagnostic.message)
            if identity in seen:
                continue
            seen.add(identity)
            found.append((diagnostic, tuple(prefix) + tuple(error.absolute_path)))
    found.sort(key=_sort_key)
    if not found:
        _remember_valid(verdict)
    return [d for d, _ in found]


# ---------------------------------------------------------------- remembered verdicts
#: Digests of (schema, instance) found valid; at most MAX_VERDICTS are kept, the least recently
#: used dropped first.
MAX_VERDICTS = 50_000
_VERDICTS_NAMESPACE = "verdicts"
_known_valid: LRUCache[str, bool] | None = None  # read from the load cache on first use
_unsaved = False
_verdicts_lock = threading.Lock()  # the editor validates from several threads; the cache is not thread-safe


def _verdict_key(instance: Any, name: str) -> str | None:
    """The digest an instance's verdict is remembered by; None when it is not plain JSON."""
    try:
        text = json.dumps(instance, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return cache.digest(name, text)


@lru_cache(maxsize=1)
def _verdicts_fingerprint() -> str:
    """The schemas and the code that decide validity: both validators and this module."""
    schemas = sorted(SCHEMA_DIR.glob("*.schema.json"))
    return cache.code_fingerprint([sys.modules[__name__]], schemas, ["jsonschema", "jsonschema_rs", "referencing"])


def _verdicts() -> LRUCache[str, bool]:
    """The verdicts remembered, those of the load cache read on first use."""
    global _known_valid
    known = _known_valid
    if known is None:
        known = LRUCache(maxsize=MAX_VERDICTS)
        known.update(dict.fromkeys(_stored_verdicts(_verdicts_fingerprint()), True))
        _known_valid = known
    return known


def _known(verdict: str) -> bool:
    """Whether `verdict` is remembered as valid (a hit is the most recently used from now on)."""
    known = _verdicts()
    with _verdicts_lock:
        return known.get(verdict, False)


def _stored_verdicts(key: str) -> dict[str, None]:
    stored = cache.read(_VERDICTS_NAMESPACE, key)
    if isinstance(stored, tuple) and all(isinstance(digest, str) for digest in stored):
        return dict.fromkeys(stored)
    return {}


def _remember_valid(verdict: str | None) -> None:
    global _unsaved
    if verdict is None:
        return
    known = _verdicts()
    with _verdicts_lock:
        if verdict not in known:
            known[verdict] = True  # the least recently used verdict goes when there are too many
            _unsaved = True


def forget_verdicts() -> None:
    """Drop the verdicts remembered in this process, saved or not (the next validation reads those
    of the load cache again), as a new process starts."""
    global _known_valid, _unsaved
    _known_valid = None
    _unsaved = False


def save_verdicts() -> None:
    """Write the verdicts remembered in this process to the load cache, with those another process
    wrote there meanwhile, when there are new ones."""
    global _unsaved
    if not _unsaved:
        return
    key = _verdicts_fingerprint()
    merged = _stored_verdicts(key)
    with _verdicts_lock:
        merged.update(dict.fromkeys(_verdicts()))
        _unsaved = False
    cache.write(_VERDICTS_NAMESPACE, key, tuple(merged)[-MAX_VERDICTS:])


# ---------------------------------------------------------------- declarations
def declaration_positions(declaration: Any) -> dict[tuple[str | int, ...], tuple[int, int]]:
    """Positions of a parsed `Declaration`'s parts, keyed by canonical JSON path.

    Covers the declaration, each clause, cost items and their amounts, property values, and the
    statements of clause bodies (recursively). Use `.get` as `validate(..., locate=...)`.
    """
    from ..syntax import ast_nodes as A

    positions: dict[tuple[str | int, ...], tuple[int, int]] = {}

    def put(path: tuple[str | int, ...], node: Any) -> None:
        pos = getattr(node, "pos", None)
        if pos is not None and pos.line:
            positions.setdefault(path, (pos.line, pos.column))

    def block(path: tuple[str | int, ...], body: Any) -> None:
        for k, stmt in enumerate(getattr(body, "statements", ())):
            here = path + (k,)
            put(here, stmt)
            if isinstance(stmt, A.If):
                for b, branch in enumerate(stmt.branches):
                    put(here + ("if", b), branch)
                    put(here + ("if", b, "condition"), branch.condition)
                    block(here + ("if", b, "then"), branch.body)
                if stmt.otherwise is not None:
                    block(here + ("else",), stmt.otherwise)
            elif isinstance(stmt, (A.ForEach, A.Repeat)):
                block(here + ("body",), stmt.body)
            elif isinstance(stmt, A.Action):
                for a, arg in enumerate(stmt.args):
                    put(here + ("args", a), arg)
                for prep in stmt.preps:
                    put(here + ("preps", prep.prep), prep)
            elif isinstance(stmt, (A.Let, A.Set)):
                put(here + ("value",), stmt.value)

    put((), declaration)
    put(("id",), declaration)
    for i, clause in enumerate(getattr(declaration, "clauses", ())):
        here: tuple[str | int, ...] = ("clauses", i)
        put(here, clause)
        if isinstance(clause, A.Cost):
            for j, item in enumerate(clause.items):
                put(here + ("items", j), item.amount)
                put(here + ("items", j, "amount"), item.amount)
                put(here + ("items", j, "resource"), item)
        elif isinstance(clause, A.Property):
            for j, value in enumerate(clause.values):
                put(here + ("values", j), value)
        elif isinstance(clause, A.Requires):
            put(here + ("condition",), clause.condition)
        elif isinstance(clause, A.Param):
            put(here + ("value",), clause.value)
        elif isinstance(clause, A.Roll) and isinstance(clause.spec, A.OpposedRoll):
            put(here + ("opposed", "level"), clause.spec.level)
        body = getattr(clause, "body", None)
        if body is not None:
            block(here + ("body",), body)
    return positions


def canonical_as(canonical: Any, like: str | None) -> Any:
    """A declaration's canonical form as the schema of `like` reads it: a declaration of a kind
    content declares (`kind boon "Boon" { like hand_card }`) is validated as one of the built-in
    kind it is like, its kind read as that one. Without `like`, the form itself."""
    return {**canonical, "kind": like} if like is not None and isinstance(canonical, Mapping) else canonical


def validate_declaration(declaration: Any, *, file: str | None = None, like: str | None = None) -> list[Diagnostic]:
    """Validate a parsed `Declaration` (or its canonical dict) against the schema of its kind, or,
    for a declaration of a kind content declares, of `like`: the built-in kind it is like.

    With a `Declaration`, diagnostics carry the source positions of the offending parts.
    """
    from ..syntax.canonical import to_canonical

    if isinstance(declaration, Mapping):
        canonical: Any = declaration
        locate: Locate | None = None
        file = file or "<input>"
    else:
        canonical = to_canonical(declaration)
        positions = declaration_positions(declaration)
        locate = positions.get
        file = file or getattr(getattr(declaration, "pos", None), "file", None) or "<input>"
    canonical = canonical_as(canonical, like)
    kind = canonical.get("kind") if isinstance(canonical, Mapping) else None
    if kind not in DECLARATION_SCHEMAS:
        # Unknown or missing kind: the shared script schema reports it precisely.
        return validate(canonical, "script", file=file, locate=locate)
    return validate(canonical, schema_name_for_kind(kind), file=file, locate=locate)
