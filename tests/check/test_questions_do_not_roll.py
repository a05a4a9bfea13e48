"""Costs and requirements are questions: the checker refuses a function that rolls dice in them.

A `cost die(check) AP` once passed `nexus check`; asking what the command costs (to list it, to
explain a refusal, to show it on a button) then rolled the bout's dice, and the cost listed was not
the cost paid. The vocabulary marks the functions that roll (`Signature.rolls`); inside a `cost` or
a `requires` each is refused at the call, and everywhere else it is welcome.
"""

from __future__ import annotations

import pytest

from support import base_context

from nexus_dsl import check_declarations, parse
from nexus_dsl import vocabulary as V

ROLLING = sorted(name for name, signature in V.FUNCTIONS.items() if signature.rolls)
CALLS = {"die": "die(check)", "check": "check(4)", "random_location": "random_location()",
         "compass": "compass()", "random_square": "random_square()", "random_weapon": 'random_weapon("shiv")',
         "dice_pool": "dice_pool(check, 3, 4)", "rank": "rank([[self, 1]], tiebreak)"}
# Each call as a value of the type a cost (a number) or a requirement (true or false) needs.
AS_NUMBER = {"die": "{}", "check": "pick({}, 1, 2)", "random_location": "pick({} == head, 1, 2)",
             "compass": "pick({} == N, 1, 2)", "random_square": "pick({} == self.square, 1, 2)",
             "random_weapon": "pick({} == none, 1, 2)", "dice_pool": "{}", "rank": "count({})"}


def found(source: str) -> list[tuple[str, int, int, int]]:
    return [(d.code, d.line, d.column, d.end_column) for d in check_declarations(parse(source, "t.nexus").declarations, base_context())]


def test_the_vocabulary_marks_every_function_that_rolls() -> None:
    assert ROLLING == ["check", "compass", "dice_pool", "die", "random_location", "random_square", "random_weapon",
                       "rank"]
    assert set(CALLS) == set(ROLLING)


@pytest.mark.parametrize("name", ROLLING)
def test_a_rolling_function_in_a_cost_is_refused_at_the_call(name: str) -> None:
    amount = AS_NUMBER[name].format(CALLS[name])
    source = f'command gamble "Gamble" {{\n    cost {amount} AP\n}}\n'
    column = 10 + amount.index(name)
    assert found(source) == [("check/impure", 2, column, column + len(name))]


@pytest.mark.parametrize("name", ROLLING)
def test_a_rolling_function_in_a_requirement_is_refused_at_the_call(name: str) -> None:
    condition = f"{AS_NUMBER[name].format(CALLS[name])} > 1"
    source = f'command gamble "Gamble" {{\n    cost 1 AP\n    requires {condition}\n}}\n'
    assert found(source) == [("check/impure", 3, 14 + condition.index(name), 14 + condition.index(name) + len(name))]


@pytest.mark.parametrize("kind", ["rule", "trait_ability", "hand_card"])
def test_a_rule_ability_or_card_requirement_is_a_question_too(kind: str) -> None:
    window = "    window any_time\n" if kind != "rule" else ""
    cost = "    cost 1 PHYS\n" if kind == "trait_ability" else ""
    source = f'{kind} lucky "Lucky" {{\n{window}{cost}    requires check(4)\n}}\n'
    assert [code for code, *_ in found(source)] == ["check/impure"]


def test_the_message_says_why_and_where_to_roll_instead() -> None:
    (diagnostic,) = check_declarations(parse('command g "G" {\n    cost die(check) AP\n}\n', "t.nexus").declarations)
    assert diagnostic.message == "`die` rolls dice, and a cost is a question: asking it must not change the bout"
    assert diagnostic.hint == "roll in an `effect` or with a `roll` clause"


def test_rolling_functions_are_welcome_outside_questions() -> None:
    source = ('command gamble "Gamble" {\n    cost 1 AP\n    requires self.ap > 0\n    effect {\n'
              '        let n = die(check)\n        if check(4) {\n            damage self by n at random_location()\n'
              '        }\n    }\n}\n'
              'rule jitter "Jitter" {\n    text "x"\n    when round_starts if check(6) {\n        face self compass()\n    }\n}\n')
    assert found(source) == []
