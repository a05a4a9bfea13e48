"""The scenario schema (schemas/scenario.schema.json): a well-formed Draft 2020-12 schema whose
names and numbers are the project's own (vocabulary, limits, board, snapshot), that every scenario
of the project satisfies, on which the fast validator never says yes where the detailed one says no,
and the checks a schema cannot make (labels named outside `helots`, numbers written with a decimal
point), each a positioned FAIL line."""

from __future__ import annotations

import copy
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from nexus_dsl import cached_ruleset
from nexus_dsl.engine.board import DEFAULT_SIZE, Direction, Square
from nexus_dsl.engine.bout import Bout
from nexus_dsl.engine.setup import SEAT_ORDER, STATUSES
from nexus_dsl.limits import INPUT_LIMITS, MAX_NUMBER
from nexus_dsl.scenario import ScenarioResult, build_setup, contract_snapshot, is_pack_file, run_paths
from nexus_dsl.schema import load_schema, load_yaml_with_positions, registry, validate
from nexus_dsl.schema.validate import _surely_valid, validator_for
from support import value_paths

SCENARIOS = Path(__file__).parent / "scenarios"
SCHEMA = load_schema("scenario")
DEFS = SCHEMA["$defs"]
HELOT = DEFS["helot"]["properties"]


def run_text(folder: Path, text: str, name: str = "scenario.yaml") -> ScenarioResult:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    [result] = run_paths([path])
    return result


def two_helots(red: str = "", extra: str = "", steps: str = "steps: []") -> str:
    red_keys = ", ".join(["at: [4, 5]", "facing: N"] + ([red] if red else []))
    return f"name: a scenario\n{extra}helots:\n  red: {{{red_keys}}}\n  blue: {{at: [4, 4], facing: S}}\n{steps}\n"


def load_failure(result: ScenarioResult) -> list[str]:
    assert not result.passed and result.internal_error is None
    assert all(line.startswith("cannot load: ") for line in result.mismatches), result.mismatches
    return result.mismatches


# ---------------------------------------------------------------- the schema file
def test_the_schema_is_draft_2020_12_with_id_title_and_description() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] == "https://nexus-dsl.dev/schemas/scenario.schema.json"
    assert SCHEMA["title"] and SCHEMA["description"]


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref"] + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for item in node for r in _refs(item)]
    return []


def test_every_reference_resolves_offline() -> None:
    resolver = registry().resolver(base_uri=SCHEMA["$id"])
    refs = _refs(SCHEMA)
    assert refs
    for ref in refs:
        assert isinstance(resolver.lookup(ref).contents, (dict, bool)), ref


# ---------------------------------------------------------------- its names and numbers are the project's
def test_the_helot_keys_name_the_vocabulary_and_the_setup() -> None:
    assert HELOT["seat"]["enum"] == list(SEAT_ORDER)
    assert HELOT["status"]["enum"] == list(STATUSES)
    assert HELOT["states"]["items"] == {"$ref": "#/$defs/name"}  # declared by content: checked at setup
    # Traits and body locations are stats content declares: checked at setup, like states.
    assert HELOT["traits"]["propertyNames"] == {"$ref": "#/$defs/name"}
    assert DEFS["locations"]["$ref"] == "#/$defs/name"
    assert SCHEMA["properties"]["decks"]["propertyNames"] == {"$ref": "#/$defs/name"}  # zones: checked when run


def test_lengths_follow_the_input_limits() -> None:
    too_long = {"minLength": INPUT_LIMITS.max_identifier_length + 1}
    assert DEFS["name"]["not"]["anyOf"] == [{"maxLength": 0}, too_long]
    assert too_long in DEFS["label"]["not"]["anyOf"]
    assert SCHEMA["properties"]["packs"]["items"]["maxLength"] == INPUT_LIMITS.max_string_length


def test_numbers_follow_the_largest_number_and_the_board() -> None:
    assert DEFS["count"]["maximum"] == DEFS["positive"]["maximum"] == MAX_NUMBER
    assert SCHEMA["properties"]["seed"]["minimum"] == -MAX_NUMBER
    assert SCHEMA["properties"]["seed"]["maximum"] == MAX_NUMBER
    off_board = DEFS["square_pair"]["allOf"][0]["not"]["contains"]["not"]
    assert off_board == {"minimum": 1, "maximum": DEFAULT_SIZE}
    assert re.search(f"\\[1-{DEFAULT_SIZE}\\].*\\[1-{DEFAULT_SIZE}\\]", DEFS["square"]["pattern"])


def test_a_label_may_not_hide_any_key_of_the_snapshot() -> None:
    snapshot = contract_snapshot(Bout(cached_ruleset(("base",)), build_setup({"helots": {"red": {}, "blue": {}}})))
    [refused] = [rule["enum"] for rule in DEFS["label"]["not"]["anyOf"] if "enum" in rule]
    # `piles` shows only where the loaded packs declare shared piles, `views` only in a game of players alone.
    assert set(refused) == set(snapshot) - {"red", "blue"} | {"piles", "views"}


# ---------------------------------------------------------------- the project's scenarios
def _project_scenarios() -> list[tuple[str, Any]]:
    found = []
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        if not is_pack_file(path):
            data, _ = load_yaml_with_positions(path.read_text(encoding="utf-8"), str(path))
            found.append((str(path.relative_to(SCENARIOS)), data))
    return found


PROJECT = _project_scenarios()


def test_every_project_scenario_is_valid_to_both_validators() -> None:
    assert len(PROJECT) >= 764
    for name, data in PROJECT:
        assert _surely_valid(data, "scenario"), name
        assert validator_for("scenario").is_valid(data), name


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value[path[0]] = _replace(value[path[0]], path[1:], new)
    return value


# Values a scenario holds, right and wrong: words of the format, squares, directions, labels.
scenario_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**10), 10**10) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8) | st.text(min_size=60, max_size=70)
    | st.sampled_from(["end_round", "next_round", "N", " sw ", "Q", "4,5", "[9, 1]", "red", "blue", "crowd", "a.b",
                       "head", "knee", "prone", "dead", "cycle", "south", "WILL", "influence", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["helot", "command", "ability", "card", "control", "to", "choices", "reactions", "at", "facing", "red",
         "seat", "states", "marks", "objects", "id", "attack", "x"]), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=600, derandomize=True, deadline=None)
@given(st.integers(0, len(PROJECT) - 1), st.integers(0, 10**6), scenario_values)
def test_a_damaged_scenario_gets_the_same_verdict_from_both(which: int, where: int, new: Any) -> None:
    _, original = PROJECT[which]
    paths = value_paths(original)
    damaged = _replace(copy.deepcopy(original), paths[where % len(paths)], new)
    assert _surely_valid(damaged, "scenario") == validator_for("scenario").is_valid(damaged)


def test_every_problem_of_a_scenario_is_one_positioned_diagnostic() -> None:
    text = two_helots("ap: -1, seat: middle", extra="seed: many\n")
    data, positions = load_yaml_with_positions(text, "s.yaml")
    problems = validate(data, "scenario", file="s.yaml", locate=positions.get)
    assert [(p.line, p.message) for p in problems] == [
        (2, 'seed: expected integer, got string "many"'),
        (4, "helots.red.ap: -1 is less than the minimum of 0"),
        (4, 'helots.red.seat: "middle" is not allowed here'),
    ]


# ---------------------------------------------------------------- the FAIL lines
def test_each_problem_is_its_own_fail_line_at_its_key(tmp_path: Path) -> None:
    first, second = load_failure(run_text(tmp_path, two_helots("ap: -1", extra="seed: many\n")))
    assert first.endswith('scenario.yaml:2:1: seed: expected integer, got string "many"')
    assert second.endswith("scenario.yaml:4:32: helots.red.ap: -1 is less than the minimum of 0")


def test_a_hint_follows_its_message_on_the_same_line(tmp_path: Path) -> None:
    [line] = load_failure(run_text(tmp_path, two_helots("weapon: shield, protects: chset")))
    assert line.endswith("helot `red`: `protects: chset` is not a location of the loaded packs; did you mean `chest`? "
                         "(head, chest, midsection, left_upper, right_upper, left_lower, right_lower)")


def test_an_empty_file_is_refused_at_its_first_line(tmp_path: Path) -> None:
    [line] = load_failure(run_text(tmp_path, "# only a comment\n"))
    assert "scenario.yaml:1:1: the file holds no YAML data" in line


# ---------------------------------------------------------------- a helot's label
def test_a_label_as_long_as_an_identifier_may_be_is_accepted(tmp_path: Path) -> None:
    label = "r" * INPUT_LIMITS.max_identifier_length
    text = f"name: long\nhelots:\n  {label}: {{at: [4, 5], facing: N}}\n  blue: {{at: [4, 4], facing: S}}\n" \
           f"steps: []\nexpect:\n  {label}.overall: 50\n"
    result = run_text(tmp_path, text)
    assert result.passed, result.report()


def test_a_label_longer_than_an_identifier_may_be_fails_at_the_label(tmp_path: Path) -> None:
    label = "r" * (INPUT_LIMITS.max_identifier_length + 1)
    [line] = load_failure(run_text(tmp_path, f"name: too long\nhelots:\n  {label}: {{}}\n  blue: {{}}\n"))
    assert "scenario.yaml:3:3: helots: key " in line
    assert f"at most {INPUT_LIMITS.max_identifier_length} characters" in line


def test_an_id_longer_than_an_identifier_may_be_fails_at_its_key(tmp_path: Path) -> None:
    weapon = "w" * (INPUT_LIMITS.max_identifier_length + 1)
    [line] = load_failure(run_text(tmp_path, two_helots(f"weapon: {weapon}")))
    assert "scenario.yaml:3:32: helots.red.weapon: " in line
    assert line.endswith(f"is not allowed here; A name or id: text of 1 to {INPUT_LIMITS.max_identifier_length} "
                         "characters.")


@pytest.mark.parametrize("label", ["red.team", "board", "7"])
def test_a_label_with_a_dot_a_snapshot_key_or_a_number_fails(tmp_path: Path, label: str) -> None:
    [line] = load_failure(run_text(tmp_path, f"name: odd label\nhelots:\n  {label}: {{}}\n  blue: {{}}\n"))
    assert "scenario.yaml:3:3: helots: key " in line and "A helot's label is a name" in line


# ---------------------------------------------------------------- what the schema cannot say
@pytest.mark.parametrize(("text", "where", "value"), [
    (two_helots("ap: 2.0"), ":3:32: helots.red.ap", "2.0"),
    (two_helots(extra="dice: {attack: [6.0]}\n"), ":2:17: dice.attack[0]", "6.0"),
    (two_helots(steps="steps:\n  - {helot: red, command: feint, amount: 1.0e+3}"), ":6:34: steps[0].amount", "1000.0"),
    (two_helots(steps="steps:\n  - {helot: red, command: feint, choices: [3.0]}"), ":6:44: steps[0].choices[0]", "3.0"),
])
def test_a_number_with_a_decimal_point_is_not_a_whole_number(tmp_path: Path, text: str, where: str, value: str) -> None:
    [line] = load_failure(run_text(tmp_path, text))
    assert line.endswith(f"{where}: expected a whole number written without a decimal point, got {value}")


def test_free_text_and_expected_values_may_hold_any_number(tmp_path: Path) -> None:
    text = two_helots(extra="rulebook: 2.5\nnotes: 0.5\n") + "expect:\n  red.ap: 0.0\n"
    assert run_text(tmp_path, text).passed


@pytest.mark.parametrize(("steps", "where"), [
    ("steps:\n  - {helot: green, command: feint}", ":6:6: steps[0].helot"),
    ("steps:\n  - {helot: red, command: feint, reactions: [{helot: green, ability: elusive}]}",
     ":6:47: steps[0].reactions[0].helot"),
])
def test_a_step_names_a_helot_by_its_label(tmp_path: Path, steps: str, where: str) -> None:
    [line] = load_failure(run_text(tmp_path, two_helots(steps=steps)))
    assert line.endswith(f"{where}: `green` is not one of the helots (red, blue)")


def test_a_fifth_helot_names_its_seat(tmp_path: Path) -> None:
    helots = "".join(f"  h{n}: {{at: [{n}, 1]}}\n" for n in range(1, 6))
    [line] = load_failure(run_text(tmp_path, f"name: five\nhelots:\n{helots}"))
    assert line.endswith("scenario.yaml:7:3: helots.h5: name a `seat` (south, north, west, east): the first 4 "
                         "helots take them in that order")


# ---------------------------------------------------------------- what the format keeps accepting
def test_a_square_written_as_text_and_a_direction_in_any_case_keep_their_meaning(tmp_path: Path) -> None:
    text = "name: text forms\nhelots:\n  red: {at: '4,5', facing: ' n '}\n  blue: {at: '[4, 4]', facing: s}\n" \
           "expect:\n  red.at: [4, 5]\n  red.facing: N\n  blue.at: [4, 4]\n  blue.facing: S\n"
    result = run_text(tmp_path, text)
    assert result.passed, result.report()


def test_the_setup_converts_what_the_schema_checked() -> None:
    data = {"helots": {"red": {"at": "4,5", "facing": "sw", "marks": ["marked"]}, "blue": {"seat": "west"}},
            "barge": {"objects": [{"type": "pillar", "at": [2, 3]}]}}
    setup = build_setup(data)
    red, blue = setup.pieces
    assert (red.seat, red.at, red.facing, red.marks) == ("south", Square(4, 5), Direction.SW, {"marked": True})
    assert (blue.seat, blue.at) == ("west", Square(1, 1))
    assert setup.objects == [("pillar", Square(2, 3))]
