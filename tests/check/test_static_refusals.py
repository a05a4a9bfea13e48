"""The checker refuses what is wrong whatever happens in a bout.

Numbers it can work out while reading — literals, arithmetic on them, `min`/`max`/`abs` of them and
the names `param` and `let` bind to them — are held to the ranges of the vocabulary: costs to
0..MAX_COST, every number to ±MAX_NUMBER, no division by zero, and each ranged argument of a
function or effect to its `Signature.ranges` (a die has at least 2 sides, a radius is not negative).
"""

from __future__ import annotations

import pytest

from support import base_context

from nexus_dsl import check_declarations, parse
from nexus_dsl import vocabulary as V
from nexus_dsl.errors import Diagnostic
from nexus_dsl.limits import MAX_NUMBER
from nexus_dsl.validate_files import check_script_text

CONTEXT = base_context(object_types=frozenset({"pillar", "fire"}), settings={"sds_cap": "number"})


def diagnostics(source: str) -> list[Diagnostic]:
    return check_declarations(parse(source, "t.nexus").declarations, CONTEXT)


def refusals(source: str) -> list[tuple[str, int, int, str]]:
    return [(d.code, d.line, d.column, d.message) for d in diagnostics(source)]


def command_with(cost: str = "1 AP", effect: str = "", params: str = "") -> str:
    lines = ['command c "C" {'] + ([f"    {params}"] if params else []) + [f"    cost {cost}"]
    if effect:
        lines += ["    effect {"] + [f"        {line}" for line in effect.splitlines()] + ["    }"]
    return "\n".join(lines + ["}"]) + "\n"


# ---------------------------------------------------------------- costs
@pytest.mark.parametrize(
    ("cost", "column", "value"),
    [
        ("-5 AP", 10, -5),  # crashed the engine before
        ("6 * 3 AP", 10, 18),
        ("2 - 3 MP", 10, -1),
        ("max(-1, -2) PHYS", 10, -1),
        ("0 - 12 overall", 10, -12),
    ],
)
def test_a_constant_cost_outside_0_to_12_is_refused(cost: str, column: int, value: int) -> None:
    assert refusals(command_with(cost)) == [
        ("check/out_of_range", 2, column, f"a cost must be 0 to {V.MAX_COST}, not {value:,}")]


def test_a_cost_from_a_param_is_held_to_the_range_too() -> None:
    assert refusals(command_with("reach AP", params="param reach = 20")) == [
        ("check/out_of_range", 3, 10, "a cost must be 0 to 12, not 20")]
    assert refusals(command_with("reach AP", params="param reach = 2")) == []


@pytest.mark.parametrize("cost", ["0 AP", "12 AP", "2 * 3 AP", "-(-2) MP", "self.weapon_draw AP", "pick(true, 1, 2) MP"])
def test_costs_within_the_range_or_worked_out_in_play_are_accepted(cost: str) -> None:
    assert diagnostics(command_with(cost)) == []


def test_a_literal_cost_out_of_range_is_reported_once_by_the_schema() -> None:
    found = check_script_text(command_with("13 AP"), "t.nexus")
    assert [(d.code, d.line, d.column) for d in found] == [("schema/out_of_range", 2, 10)]


def test_the_product_that_was_once_accepted_is_refused_where_it_first_overflows() -> None:
    (diagnostic,) = diagnostics(command_with("999999999*999999999*999999999 AP"))
    assert diagnostic.code == "check/out_of_range"
    assert (diagnostic.line, diagnostic.column, diagnostic.end_column) == (2, 10, 29)  # the first product
    assert diagnostic.message == "this comes to 999,999,998,000,000,001, beyond the largest number a script may use"
    assert diagnostic.hint == f"numbers stay within ±{MAX_NUMBER:,}"


# ---------------------------------------------------------------- arithmetic
@pytest.mark.parametrize(
    "expression",
    ["999999999 + 1", "-999999999 - 1", "999999999 * 2", "(0 - 999999999) * 3", "-SDS - 999999999",
     "max(999999999, 1) + 1", "abs(-999999999) + 1"],
)
def test_constant_arithmetic_beyond_max_number_is_refused(expression: str) -> None:
    (diagnostic,) = diagnostics(command_with(effect=f"let v = {expression}"))
    assert diagnostic.code == "check/out_of_range"
    assert diagnostic.line == 4


@pytest.mark.parametrize("expression", ["999999999 + 0", "-999999999", "999999999 / 2 * 2", "7 / -2", "SD + 3"])
def test_constant_arithmetic_within_max_number_is_accepted(expression: str) -> None:
    assert diagnostics(command_with(effect=f"let v = {expression}")) == []


def test_names_bound_to_constants_are_worked_out() -> None:
    found = refusals(command_with(effect="let big = 999999999\nlet twice = big + big", params="param top = 999999999"))
    assert found == [("check/out_of_range", 6, 21, "this comes to 1,999,999,998, beyond the largest number a script may use")]
    assert refusals(command_with(effect="let v = top * 2", params="param top = 999999999"))[0][0] == "check/out_of_range"


def test_a_name_rebound_in_an_inner_block_or_by_a_choice_is_not_the_outer_constant() -> None:
    source = command_with(effect="let a = 999999999\nif true {\n    let a = 1\n    let b = a + 1\n}\n"
                                 "choose self from [1, 2] into a\nlet c = a + 999999999")
    assert diagnostics(source) == []


def test_a_value_known_only_in_play_is_not_refused() -> None:
    assert diagnostics(command_with(effect="let v = self.overall * 999999999")) == []


@pytest.mark.parametrize("expression", ["1 / 0", "self.ap / (2 - 2)", "self.ap / zero"])
def test_division_by_a_constant_zero_is_refused(expression: str) -> None:
    (diagnostic,) = diagnostics(command_with(effect=f"let v = {expression}", params="param zero = 0"))
    assert diagnostic.code == "check/division_by_zero"


# ---------------------------------------------------------------- ranged arguments
@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("let v = die(d8, 0)", "a die's number of sides must be at least 2, not 0"),
        ("let v = die(d8, 1)", "a die's number of sides must be at least 2, not 1"),
        ("let v = self in area(self, -1)", "a radius must be at least 0, not -1"),
        ("let v = self in area_of(fire, 0 - 2)", "a radius must be at least 0, not -2"),
        ("let v = check(0)", "a target on a d6 must be 1 to 6, not 0"),
        ("let v = check(7)", "a target on a d6 must be 1 to 6, not 7"),
        # A positional argument is a plain value (a name, a number, a call): a negative one is a name.
        ("let n = 0 - 1\ngrant n AP", "a number of points granted must be at least 0, not -1"),
        ("roll_check self by 7 into steady", "a target on a d6 must be 1 to 6, not 7"),
    ],
)
def test_a_constant_argument_outside_its_range_is_refused(statement: str, message: str) -> None:
    assert [(code, text) for code, _, _, text in refusals(command_with(effect=statement))] == [
        ("check/out_of_range", message)]


@pytest.mark.parametrize(
    "statement",
    ["let v = die(d8, 2)", "let v = die(d8)", "let v = die(d8, 8)", "let v = self in area(self, 0)",
     "let v = check(1)", "let v = check(6)", "damage self by 0", "roll_check self by 4 into steady",
     "let r = 2\nlet v = self in area(self, r)", "let v = die(d8, self.ap)"],
)
def test_arguments_within_their_range_or_known_only_in_play_are_accepted(statement: str) -> None:
    assert diagnostics(command_with(effect=statement)) == []


@pytest.mark.parametrize(
    "statement",
    ["damage self by -2", "heal self by -1 from crowd", "let n = -1\ntransfer n from crowd to self",
     "move_condition self by -1 to head", "let v = squares_toward(self, N, -1)"],
)
def test_an_amount_below_a_range_that_clamps_is_accepted_as_moving_nothing(statement: str) -> None:
    """As in play (tests/engine/test_runtime_ranges.py): an amount moved up to a number is 0 below 0."""
    assert diagnostics(command_with(effect=statement)) == []


def test_the_refusal_points_at_the_argument() -> None:
    (diagnostic,) = diagnostics(command_with(effect="let v = die(d8, 0)"))
    assert (diagnostic.line, diagnostic.column, diagnostic.end_column) == (4, 25, 26)


# The values a script can write for each type of argument: enough to exercise every range.
SAMPLES = {
    "piece": "self", "number": "1", "purpose": "d8", "square": "self", "squares": "adjacent(self)",
    "object_type": "pillar", "direction": "N", "location": "head", "state": "prone", "trait": "PHYS",
    "resource": "AP", "pile": "crowd", "roll_side": "attack", "text": '"x"', "bool": "true", "any": "self",
    "list": "[1]", "event": "bout_starts", "command": "c", "deck": "influence", "name": "bound", "zone": "influence",
}

RANGED = [(kind, name, key, number_range)
          for kind, table in (("function", V.FUNCTIONS), ("effect", V.PRIMITIVES))
          for name, signature in table.items() for key, number_range in signature.ranges.items()]


def _use(kind: str, name: str, key: int | str, value: int) -> str:
    """A statement calling `name` with `value` (bound by `let` first) where `key` stands."""
    signature = (V.FUNCTIONS if kind == "function" else V.PRIMITIVES)[name]
    args = ["given" if position == key else SAMPLES[type_name] for position, type_name in enumerate(signature.positional)]
    if kind == "function":
        return f"let given = {value}\nlet v = {name}({', '.join(args)})"
    preps = [f"{prep} {'given' if prep == key else SAMPLES[type_name]}" for prep, type_name in signature.preps.items()
             if prep in signature.required_preps or prep == key]
    return f"let given = {value}\n" + " ".join([name] + args + preps)


@pytest.mark.parametrize(("kind", "name", "key", "number_range"), RANGED,
                         ids=[f"{name}-{key}" for _, name, key, _ in RANGED])
def test_every_range_of_the_vocabulary_is_held_by_the_checker(kind, name, key, number_range) -> None:
    def out_of_range(value: int) -> list[str]:
        source = command_with(effect=_use(kind, name, key, value))
        return [d.message for d in diagnostics(source) if d.code == "check/out_of_range"]

    assert out_of_range(number_range.low) == []
    below = [] if number_range.clamp else [
        f"{number_range.what} must be {number_range.describe()}, not {number_range.low - 1:,}"]
    assert out_of_range(number_range.low - 1) == below
    if number_range.high < MAX_NUMBER:
        assert out_of_range(number_range.high) == []
        assert len(out_of_range(number_range.high + 1)) == 1


def test_the_vocabulary_has_ranges_where_the_engine_needs_them() -> None:
    assert 1 in V.FUNCTIONS["die"].ranges and V.FUNCTIONS["die"].ranges[1].low == 2
    assert V.FUNCTIONS["area"].ranges[1].low == 0
    assert V.PRIMITIVES["damage"].ranges["by"].low == 0


# ---------------------------------------------------------------- weapon numbers
def weapon_with(line: str) -> str:
    return f'weapon w "W" {{\n    type melee\n    {line}\n}}\n'


@pytest.mark.parametrize("prop", sorted(p for p in V.PROPERTY_RANGES if p in V.PROPERTIES["weapon"]))
def test_a_weapon_number_is_a_plain_number_within_its_range(prop: str) -> None:
    assert diagnostics(weapon_with(f"{prop} 2")) == []
    (negative,) = diagnostics(weapon_with(f"{prop} -1"))
    assert (negative.code, negative.message) == (
        "check/out_of_range", f"{V.PROPERTY_RANGES[prop].what} must be at least 0, not -1")
    (computed,) = diagnostics(weapon_with(f"{prop} 1 + 1"))  # the engine reads only a number written out
    assert (computed.code, computed.line, computed.column) == ("check/not_constant", 3, 6 + len(prop))


# ---------------------------------------------------------------- in a whole file
def test_every_refusal_of_a_file_is_reported_in_one_run() -> None:
    source = command_with("-5 AP", effect="let v = die(d8, 0)\nlet w = 1 / 0\nroll_check self by 7 into steady")
    assert [code for code, *_ in refusals(source)] == [
        "check/out_of_range", "check/out_of_range", "check/division_by_zero", "check/out_of_range"]
