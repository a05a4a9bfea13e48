"""Statements run by the step of their kind; a block binds its names (`let`, `choose ... into`) in a
scope of its own, so none outlives the block, and `set` binds a name again where it was bound."""

from __future__ import annotations

from typing import Any

import pytest

from nexus_dsl import Bout, ScriptRuntimeError, cached_ruleset, parse, standard_setup
from nexus_dsl.engine.actions import CHOICE, Action
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


def test_each_turn_of_a_loop_sees_none_of_the_last_turn_s_names() -> None:
    # A turn's `let` binds beside its item, in a scope emptied for each turn: the next turn reads
    # the name from around the loop until its own `let` binds it again.
    _, outer = _run("        let seen = []\n        for each k in [1, 2, 3] {\n            set seen = append(seen, x)\n"
                    "            let x = k * 10\n            set total = total + x\n        }\n"
                    "        set result = seen\n", {"x": 5, "total": 0, "result": ()})
    assert outer.names["result"] == (5, 5, 5)
    assert outer.names["total"] == 60
    assert outer.names["x"] == 5 and "k" not in outer.names


def test_a_loop_s_item_bound_again_by_set_is_the_next_item_next_turn() -> None:
    _, outer = _run("        for each k in [1, 2, 3] {\n            set total = total + k\n            set k = 100\n"
                    "        }\n", {"total": 0})
    assert outer.names["total"] == 6


def test_each_statement_and_loop_turn_spends_a_step() -> None:
    steps, _ = _run("        let n = 0\n        for each k in [1, 2, 3] {\n            set n = n + k\n        }\n"
                   "        repeat 2 {\n            set n = n + 1\n        }\n", {})
    # let, for each, 3 turns of it and their 3 statements, repeat, 2 turns and their 2 statements
    assert steps == 13



def _asking_body(after: str) -> tuple[Bout, Any, Env]:
    """A bout, a listener's body whose `choose` from two values, in an `if` in a `for each`, asks
    the piece's player each turn of the loop, then runs `after`; and the scope it runs in."""
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    body = ("        let picks = []\n"
            "        for each k in [1, 2] {\n"
            "            if true {\n"
            "                choose self from [k, k + 10] into pick\n"
            "                set picks = append(picks, pick)\n"
            "            }\n"
            "            set seen = append(seen, k)\n"
            "        }\n"
            f"{after}")
    source = f'rule r "R" {{\n    when round_ends {{\n{body}    }}\n}}\n'
    when = parse(source, "t.nexus").declarations[0].clauses[0]
    outer = Env({"self": bout.state.pieces[next(iter(bout.state.pieces))], "seen": (), "result": ()})
    return bout, when.body, outer


def test_a_block_waiting_for_a_decision_goes_on_where_it_stopped() -> None:
    bout, body, outer = _asking_body("        set result = picks\n")
    label = next(iter(bout.state.pieces))
    before = bout.interpreter.steps
    run = bout.interpreter.execute(body, outer)
    first = next(run)
    assert [option.arg("pick") for option in first.options] == [1, 11]
    assert outer.names["seen"] == ()  # nothing after the question has run yet
    second = run.send(Action.make(CHOICE, label, "pick", pick=11))
    assert [option.arg("pick") for option in second.options] == [2, 12]
    assert outer.names["seen"] == (1,)
    with pytest.raises(StopIteration):
        run.send(Action.make(CHOICE, label, "pick", pick=2))
    assert outer.names["seen"] == (1, 2) and outer.names["result"] == (11, 2)
    # let, for each, 2 turns, each: if, choose, set, set; then the last set
    assert bout.interpreter.steps - before == 1 + 1 + 2 * (1 + 4) + 1


def test_a_fault_after_a_decision_is_placed_at_its_statement() -> None:
    bout, body, outer = _asking_body("        let ratio = 10 / (picks[1] - 2)\n")
    label = next(iter(bout.state.pieces))
    run = bout.interpreter.execute(body, outer)
    next(run)
    run.send(Action.make(CHOICE, label, "pick", pick=1))
    with pytest.raises(ScriptRuntimeError) as raised:
        run.send(Action.make(CHOICE, label, "pick", pick=2))
    fault = raised.value.diagnostics[0]
    assert fault.code == "runtime/division_by_zero"
    assert (fault.file, fault.line, fault.column) == ("t.nexus", 11, 21)  # at `/`, inside the `let`
