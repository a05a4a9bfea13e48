"""Procedures: effects content declares, run with the values a script gives them, never recursive.
(In play: tests/scenarios/words/procedure_runs_with_roles_swapped.yaml.)"""

from __future__ import annotations

from support import base_word_declarations

from nexus_dsl import check_declarations, parse
from nexus_dsl.check.context import context_of

STRIKE = '''procedure strike "Strike" {
    arg striker: helot
    arg victim: helot
    arg amount: number
    effect {
        damage victim by amount to striker
    }
}
'''


def found(source: str) -> list[tuple[str, int, int, str]]:
    declarations = parse(source, "t.nexus").declarations
    context = context_of([*base_word_declarations(), *declarations])
    return [(d.code, d.line, d.column, d.message) for d in check_declarations(declarations, context)]


def test_a_procedure_is_an_effect_with_the_signature_of_its_args() -> None:
    ok = STRIKE + 'rule r "R" {\n    when attack_fails {\n        strike defender attacker 2\n    }\n}\n'
    assert found(ok) == []
    wrong = STRIKE + 'rule r "R" {\n    when attack_fails {\n        strike defender 2\n        strike defender attacker crowd\n    }\n}\n'
    assert [p[:3] for p in found(wrong)] == [("check/wrong_arity", 11, 9), ("check/wrong_type", 11, 25),
                                             ("check/wrong_type", 12, 34)]


def test_a_procedure_sees_its_args_and_params_not_the_caller_s_names() -> None:
    source = '''procedure hurt "Hurt" {
    arg victim: helot
    param extra = 1
    effect {
        damage victim by extra
        damage self by margin
    }
}
'''
    assert [(p[0], p[1], p[2], p[3]) for p in found(source)] == [
        ("check/unknown_name", 6, 16, "unknown name `self`"), ("check/unknown_name", 6, 24, "unknown name `margin`")]


def test_a_procedure_may_not_run_itself_directly_or_through_others() -> None:
    direct = 'procedure loop "Loop" {\n    arg h: helot\n    effect {\n        loop h\n    }\n}\n'
    assert [p[:3] for p in found(direct)] == [("check/recursion", 4, 9)]
    ring = ''.join(f'procedure {a} "{a}" {{\n    arg h: helot\n    effect {{\n        {b} h\n    }}\n}}\n'
                   for a, b in (("one", "two"), ("two", "three"), ("three", "one")))
    problems = found(ring)
    assert [p[:3] for p in problems] == [("check/recursion", 4, 9), ("check/recursion", 10, 9), ("check/recursion", 16, 9)]
    assert problems[0][3] == "procedure `one` would run itself (one -> two -> three -> one)"


def test_procedures_may_run_other_procedures() -> None:
    twice = STRIKE + ('procedure double_strike "Double Strike" {\n    arg a: helot\n    arg b: helot\n'
                      '    effect {\n        strike a b 1\n        strike a b 2\n    }\n}\n')
    assert found(twice) == []


def test_an_arg_may_be_of_any_type_of_value() -> None:
    source = 'procedure p "P" {\n    arg where: square\n    arg spot: location\n    arg pile: pile\n    arg n: number\n}\n'
    assert found(source) == []
    (problem,) = found('procedure p "P" {\n    arg x: colour\n}\n')
    assert problem[:3] == ("check/unknown_type", 2, 12)
