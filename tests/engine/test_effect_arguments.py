"""An effect's arguments are checked against the vocabulary at every statement: the classes a test
asks no more than are asked with `isinstance` itself, and together with the other tests they must
let through exactly what the tests themselves let through, and fault at the same argument."""

from __future__ import annotations

from typing import Any

import pytest

from nexus_dsl import Bout, ScriptRuntimeError, cached_ruleset, parse, standard_setup
from nexus_dsl.engine.board import Square
from nexus_dsl.engine.interpreter import argument_checks
from nexus_dsl.engine.scope import Env
from nexus_dsl.engine.state import Player


def _values(bout: Bout) -> list[Any]:
    piece = next(iter(bout.state.pieces.values()))
    return [piece, Player("p1", "north", "north"), "head", "forward", "AP", "attack", 3, -2, True, None,
            Square(1, 1), frozenset({Square(1, 1)}), frozenset(), (1, 2), ()]


def test_the_class_checks_and_the_other_tests_agree_with_the_tests_of_every_effect() -> None:
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    values = _values(bout)
    checks = argument_checks(bout.ruleset.words).primitives
    asked = 0
    for verb, check in checks.items():
        assert len(check.positional_classes) == len(check.positional)
        others = dict(check.positional_others)
        for position, test in enumerate(check.positional):
            for value in values:
                full = test is None or test.test(value)
                quick = isinstance(value, check.positional_classes[position]) and \
                    (position not in others or others[position](value))
                assert quick == full, (verb, position, value)
                asked += 1
    assert asked > 500


def test_a_wrong_argument_faults_at_the_first_that_is_wrong() -> None:
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    source = 'rule r "R" {\n    when round_ends {\n        mark 3 7\n    }\n}\n'
    when = parse(source, "t.nexus").declarations[0].clauses[0]
    with pytest.raises(ScriptRuntimeError) as raised:
        list(bout.interpreter.execute(when.body, Env({})))
    fault = raised.value.diagnostics[0]
    assert fault.code == "runtime/wrong_type" and "needs a piece" in fault.message
    assert (fault.line, fault.column) == (3, 14)  # the `3`, not the `7`
