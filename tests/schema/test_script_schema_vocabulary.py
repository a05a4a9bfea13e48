"""The JSON Schemas accept every word the vocabulary accepts, where the language puts it.

`nexus check` runs the checker and the schemas on every script; a word the checker accepts (a
preposition of an effect, a clause a kind may hold, a compass direction in a choice, a mixed-case
param name) must not be refused by the schema. Each test writes the word into a script, parses it,
and validates its canonical form against the schema of its kind.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import base_words

from nexus_dsl import vocabulary as V
from nexus_dsl.schema import load_schema, validate
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax.canonical import to_canonical
from nexus_dsl.syntax.parser import parse

WORDS = base_words()  # the base game's declared words
GRAMMAR_TEXT = (Path(__file__).resolve().parents[2] / "nexus_dsl" / "grammar" / "nexus.lark").read_text(encoding="utf-8")

# What every kind needs besides the clause under test (the schemas require these).
SKELETON = {"command": ["cost 1 AP"], "trait_ability": ["cost 1 PHYS", "window any_time"]}


def schema_problems(kind: str, clauses: list[str]) -> list[str]:
    body = "\n".join(f"    {clause}" for clause in SKELETON.get(kind, []) + clauses)
    (declaration,) = parse(f'{kind} item "Item" {{\n{body}\n}}\n', "t.nexus").declarations
    return [f"{d.code}: {d.message}" for d in validate(to_canonical(declaration), kind, file="t.nexus")]


def in_effect(kind: str, statement: str) -> list[str]:
    return schema_problems(kind, ["effect {", f"    {statement}", "}"])


# ---------------------------------------------------------------- statements and expressions
@pytest.mark.parametrize("verb", sorted(V.PRIMITIVES))
def test_every_effect_with_every_preposition_it_takes(verb: str) -> None:
    signature = V.PRIMITIVES[verb]
    statement = " ".join([verb] + ["x"] * len(signature.positional) + [f"{prep} x" for prep in signature.preps])
    assert in_effect("command", statement) == []


def test_draw_for_a_helot_as_documented() -> None:
    assert in_effect("drawn_card", "draw influence for self") == []


def test_the_schema_knows_exactly_the_grammar_s_prepositions() -> None:
    statement = load_schema("script")["$defs"]["stmt_do"]["properties"]["preps"]["items"]
    prepositions = set(statement["properties"]["prep"]["enum"])
    used = {prep for signature in V.PRIMITIVES.values() for prep in signature.preps}
    assert used <= prepositions
    grammar = re.search(r'!prep: (.*)', GRAMMAR_TEXT).group(1)
    assert prepositions == set(re.findall(r'"([a-z]+)"', grammar))


@pytest.mark.parametrize("function", sorted(V.FUNCTIONS))
def test_every_function(function: str) -> None:
    args = ", ".join(["x"] * len(V.FUNCTIONS[function].positional))
    assert schema_problems("rule", [f"param p = {function}({args})"]) == []


def test_every_enumeration_member_helot_attribute_and_sds_level_as_a_value() -> None:
    members = sorted({member for values in V.ENUM_TYPES.values() for member in values}
                     | set(WORDS.states) | set(WORDS.stats) | set(WORDS.piles))
    assert schema_problems("rule", [f"param members = [{', '.join(members)}]"]) == []
    attributes = ", ".join(f"self.{name}" for name in (*V.PIECE_ATTRIBUTES, *WORDS.stats))
    assert schema_problems("rule", [f"param attributes = [{attributes}]"]) == []
    assert schema_problems("rule", ["param levels = [-3SDS, -2SDS, -SDS, SD, +SDS, +2SDS, +3SDS]"]) == []


def test_names_of_any_case_where_the_language_allows_them() -> None:
    """docs/language.md: names (params, args, local names) mix cases freely (`param Rule = 1`)."""
    assert schema_problems("rule", ["param Rule = 1", "param d8_Bonus = 2"]) == []
    assert schema_problems("command", ["arg Where: square", "arg PHYS_points: number 1..3"]) == []
    assert in_effect("command", "let Owed = 1") == []
    assert in_effect("command", "choose self from [1] into Pick") == []


# ---------------------------------------------------------------- clauses
CLAUSE_EXAMPLES = {
    "property": "text \"t\"", "arg": "arg where: square", "cost": "cost 1 AP", "requires": "requires true",
    "roll": "roll attack SD vs defense", "on": "on success {}", "effect": "effect {}", "param": "param p = 1",
    "when": "when bout_starts {}", "window": "window any_time",
}


@pytest.mark.parametrize(("kind", "clause"), [(k, c) for k, clauses in V.CLAUSES.items() for c in clauses])
def test_every_clause_every_kind_may_hold(kind: str, clause: str) -> None:
    extra = ["roll attack SD vs defense"] if clause == "on" else []
    assert schema_problems(kind, [CLAUSE_EXAMPLES[clause]] + extra) == []


@pytest.mark.parametrize("kind", sorted(V.CLAUSES))
def test_each_kind_schema_lists_exactly_the_clauses_of_the_vocabulary(kind: str) -> None:
    items = load_schema(kind)["properties"]["clauses"]["items"]
    assert set(items["properties"]["clause"]["enum"]) == set(V.CLAUSES[kind])


@pytest.mark.parametrize("kind", sorted(V.PROPERTIES))
def test_every_property_of_every_kind(kind: str) -> None:
    assert schema_problems(kind, [f"{name} 1" for name in V.PROPERTIES[kind]]) == []


@pytest.mark.parametrize("event", sorted(WORDS.events))
def test_every_event(event: str) -> None:
    assert schema_problems("rule", [f"when {event} {{", "    log \"x\"", "}"]) == []


@pytest.mark.parametrize("window", sorted(WORDS.windows))
def test_every_window_and_role(window: str) -> None:
    for role in V.WINDOW_ROLES:
        assert schema_problems("hand_card", [f"window {window} by {role}"]) == []


@pytest.mark.parametrize("resource", V.COST_RESOURCES + WORDS.group("trait"))
def test_every_cost_resource(resource: str) -> None:
    kind = "trait_ability" if resource in WORDS.group("trait") else "command"
    assert schema_problems(kind, [f"cost 2 {resource}"]) == []


def test_every_roll_kind_and_outcome() -> None:
    assert schema_problems("command", ["roll attack SD vs defense", "on success {}", "on failure {}"]) == []
    assert schema_problems("command", ["roll check 6+"]) == []
    assert set(V.ROLL_KINDS) == {"attack", "check"} and set(V.OUTCOMES) == {"success", "failure"}


@pytest.mark.parametrize("arg_type", V.ARG_TYPES)
def test_every_argument_type(arg_type: str) -> None:
    assert schema_problems("command", [f"arg a: {arg_type}"]) == []


ENUMERATIONS = {**V.ENUM_TYPES, **WORDS.groups, "state": WORDS.states, "pile": WORDS.piles}


@pytest.mark.parametrize("enumeration", sorted(ENUMERATIONS))
def test_a_choice_of_every_enumeration_s_members(enumeration: str) -> None:
    """`arg direction: {N, E}` and `arg trait: {PHYS, DEFT}` are choices the checker accepts."""
    options = ", ".join(ENUMERATIONS[enumeration])
    assert schema_problems("command", [f"arg a: {{{options}}}"]) == []


def test_declaration_kinds_and_traits_match() -> None:
    definitions = load_schema("script")["$defs"]
    assert definitions["kind"]["enum"] == list(A.DECLARATION_KINDS)
    # A trait is any name: which ones exist is content (stats of the `trait` group), the checker's to hold.
    assert definitions["trait"]["$ref"] == "#/$defs/identifier" and "enum" not in definitions["trait"]
