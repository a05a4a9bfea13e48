"""Statements run by the step of their kind; a block binds its names (`let`, `choose ... into`) in a
scope of its own, so none outlives the block, and `set` binds a name again where it was bound."""

from __future__ import annotations

from typing import Any

from nexus_dsl import Bout, cached_ruleset, parse, standard_setup
from nexus_dsl.engine.scope import Env


def _run(body: str, names: dict[str, Any]) -> tuple[int, Env]:
    """Run a listener's body (no decision on the way) in a scope over `names`: the steps it spent,
    and the scope after it."""
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    before = bout.interpreter.steps
    source = f'rule r "R" {{\n    when round_ends {{\n{body}    }}\n}}\n'
    when = parse(source, "t.nexus").declarations[0].clauses[0]
    outer = Env(dict(names, self=bout.state.pieces[next(iter(bout.state.pieces))]))
    for _ in bout.interpreter.execute(when.body, outer):
        raise AssertionError("no decision expected")
    return bout.interpreter.steps - before, outer


def test_a_block_s_let_and_choose_bind_in_its_own_scope() -> None:
    _, outer = _run('        let a = 1\n        if true {\n            choose self from [7] into pick\n'
                    '            set total = total + a + pick\n        }\n', {"total": 10})
    assert outer.names["total"] == 18
    assert "a" not in outer.names and "pick" not in outer.names


def test_a_block_binding_nothing_sets_the_names_around_it() -> None:
    _, outer = _run("        if true {\n            set total = total + 1\n        }\n"
                    "        for each n in [1, 2, 3] {\n            set total = total + n\n        }\n"
                    "        repeat 2 {\n            set total = total * 2\n        }\n", {"total": 0})
    assert outer.names["total"] == 28


def test_each_statement_and_loop_turn_spends_a_step() -> None:
    steps, _ = _run("        let n = 0\n        for each k in [1, 2, 3] {\n            set n = n + k\n        }\n"
                   "        repeat 2 {\n            set n = n + 1\n        }\n", {})
    # let, for each, 3 turns of it and their 3 statements, repeat, 2 turns and their 2 statements
    assert steps == 13
