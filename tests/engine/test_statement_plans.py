"""Blocks compile once into plans kept on their nodes (`interpreter.BlockPlan`), and expressions into
closure objects: what a plan or a closure keeps must never go stale when the same node runs again
in a scope of another shape, in another ruleset, or after a fault."""

from __future__ import annotations

import pickle
from typing import Any

from nexus_dsl import Bout, cached_ruleset, standard_setup
from nexus_dsl.engine.interpreter import BlockPlan
from nexus_dsl.engine.scope import Env
from nexus_dsl.errors import ScriptRuntimeError
from nexus_dsl.syntax import ast_nodes as A

AT = A.Pos(3, 5, 3, 20, "t.nexus")


def _bout(packs: tuple[str, ...] = ("base",)) -> Bout:
    return Bout(cached_ruleset(packs), standard_setup(2), seed=0)


def _run(bout: Bout, block: A.Block, env: Env) -> Any:
    """Run `block` to its end in `env`: None, or the fault it met as (code, line)."""
    try:
        assert bout.interpreter.run_block(block, env) is None  # nothing here waits
    except ScriptRuntimeError as error:
        return error.diagnostics[0].code, error.diagnostics[0].line
    return None


def _add(name: str, amount: int) -> A.Binary:
    return A.Binary("+", A.Name(name), A.Num(amount))


def test_a_block_s_plan_is_made_once_and_kept_on_it() -> None:
    bout = _bout()
    block = A.Block((A.Let("x", A.Num(1)),))
    assert _run(bout, block, Env({})) is None
    plan = block.__dict__["_closure"]
    assert isinstance(plan, BlockPlan)
    assert _run(bout, block, Env({})) is None
    assert block.__dict__["_closure"] is plan
    copy = pickle.loads(pickle.dumps(block))  # what was worked out stays behind
    assert copy == block and "_closure" not in copy.__dict__


def test_the_same_block_runs_right_in_scopes_of_different_shapes() -> None:
    bout = _bout()
    # let x = y + 1; set y = x
    block = A.Block((A.Let("x", _add("y", 1)), A.Set("y", A.Name("x"), pos=AT)))
    near = Env({"y": 1})
    assert _run(bout, block, near) is None and near.names == {"y": 2}
    outer = Env({"y": 5})
    deep = Env({"z": 0}, Env({}, outer))
    assert _run(bout, block, deep) is None and outer.names == {"y": 6} and deep.names == {"z": 0}
    assert _run(bout, block, near) is None and near.names == {"y": 3}
    # a scope where `y` is bound to nothing: the fault, at the expression reading it
    code, _ = _run(bout, block, Env({}))
    assert code == "runtime/unknown_name"
    assert _run(bout, block, Env({"y": 10})) is None


def test_a_set_of_a_name_no_scope_binds_faults_at_the_set_in_any_scope() -> None:
    bout = _bout()
    block = A.Block((A.Set("w", A.Num(1), pos=AT),))
    assert _run(bout, block, Env({})) == ("runtime/unknown_name", 3)
    scope = Env({"w": 0})
    assert _run(bout, block, scope) is None and scope.names == {"w": 1}
    assert _run(bout, block, Env({}, Env({}))) == ("runtime/unknown_name", 3)


def test_a_loop_binds_each_item_and_counts_a_step_per_turn_and_statement() -> None:
    bout = _bout()
    # for each i in [1, 2, 3] { let z = i + 0; set total = total + z }
    body = A.Block((A.Let("z", _add("i", 0)), A.Set("total", A.Binary("+", A.Name("total"), A.Name("z")))))
    loop = A.Block((A.ForEach("i", A.ListLit((A.Num(1), A.Num(2), A.Num(3))), body),))
    for scope in (Env({"total": 0}), Env({"i": 99}, Env({"total": 0}))):
        bout.interpreter.reset_budget()
        assert _run(bout, loop, scope) is None
        found, total = scope.lookup("total")
        assert found and total == 6
        assert bout.interpreter.steps == 1 + 3 + 3 * 2  # the loop, its turns, their statements
        assert scope.lookup("i") == ((True, 99) if scope.parent is not None else (False, None))


def test_a_repeat_and_an_if_run_their_blocks_by_their_plans() -> None:
    bout = _bout()
    # repeat n { if n > 2 { set hits = hits + 1 } else { set misses = misses + 1 } }
    choice = A.If((A.Branch(A.Compare(">", A.Name("n"), A.Num(2)), A.Block((A.Set("hits", _add("hits", 1)),))),),
                  A.Block((A.Set("misses", _add("misses", 1)),)))
    block = A.Block((A.Repeat(A.Name("n"), A.Block((choice,))),))
    for n, expected in ((3, {"n": 3, "hits": 3, "misses": 0}), (2, {"n": 2, "hits": 0, "misses": 2}),
                        (0, {"n": 0, "hits": 0, "misses": 0})):
        scope = Env({"n": n, "hits": 0, "misses": 0})
        assert _run(bout, block, scope) is None and scope.names == expected
    assert _run(bout, block, Env({"n": "many", "hits": 0, "misses": 0}))[0] == "runtime/wrong_type"


def test_a_name_s_value_follows_the_scope_and_the_ruleset_it_is_read_in() -> None:
    node = A.Name("scale_cap", pos=AT)  # a rule param of the base game, unknown to Pirates
    base, pirates = _bout(), _bout(("nexus_pirates",))
    assert base.interpreter.evaluate(node, Env({})) == 3
    assert base.interpreter.evaluate(node, Env({}, Env({"scale_cap": 7}))) == 7
    assert base.interpreter.evaluate(node, Env({})) == 3
    try:
        pirates.interpreter.evaluate(node, Env({}))
        raise AssertionError("no fault")
    except ScriptRuntimeError as error:
        assert error.diagnostics[0].code == "runtime/unknown_name"
    assert pirates.interpreter.evaluate(node, Env({"scale_cap": 1})) == 1
    assert base.interpreter.evaluate(node, Env({})) == 3
