"""Expressions compile once into closures kept on their nodes, and legality's plans are kept with the
ruleset: what is worked out from content is shared by every bout, and none of it travels with a
pickled copy of the content."""

from __future__ import annotations

import pickle
from typing import Any

from nexus_dsl import Bout, cached_ruleset, make_agent, parse, play, standard_setup
from nexus_dsl.engine.scope import Env
from nexus_dsl.errors import ScriptRuntimeError
from nexus_dsl.syntax import ast_nodes as A


def _played_ruleset():  # type: ignore[no-untyped-def]
    ruleset = cached_ruleset(("base",))
    setup = standard_setup(2)
    play(ruleset, setup, {piece.label: make_agent("heuristic", 1) for piece in setup.pieces}, seed=3)
    return ruleset


def test_a_played_command_s_requirements_are_compiled_on_their_nodes() -> None:
    ruleset = _played_ruleset()
    move = ruleset.declaration("command", "move_forward")
    assert move is not None
    # `can_enter(self, direction)` reads the argument, so it is asked of move_forward itself;
    # `self.grappling == none` is written alike in several commands and asked once, of the first.
    own, written_alike = [clause.condition for clause in move.clauses_of(A.Requires)][::-1]
    assert callable(own.__dict__.get("_closure"))
    alike = [clause.condition for command in ruleset.declarations("command") for clause in command.clauses_of(A.Requires)
             if clause.condition == written_alike]
    assert len(alike) > 1
    assert [callable(node.__dict__.get("_closure")) for node in alike].count(True) >= 1


def test_the_ruleset_keeps_one_plan_per_command_for_every_bout() -> None:
    ruleset = _played_ruleset()
    plans = dict(ruleset.__dict__["_legality_plans"])
    setup = standard_setup(2)
    play(ruleset, setup, {piece.label: make_agent("random", 2) for piece in setup.pieces}, seed=4)
    again = ruleset.__dict__["_legality_plans"]
    assert all(again[key] is plan for key, plan in plans.items())  # the same plans, not rebuilt


def test_a_pickled_declaration_leaves_what_was_worked_out_behind() -> None:
    ruleset = _played_ruleset()
    declarations = [item.declaration for items in ruleset.scripts.values() for item in items.values()]
    assert any(A.DERIVED & set(declaration.__dict__) for declaration in declarations)
    copies = pickle.loads(pickle.dumps(declarations))
    assert copies == declarations
    assert not any(A.DERIVED & set(node.__dict__) for declaration in copies
                   for node in [declaration, *declaration.clauses])
    assert [A.kind_column(copy) for copy in copies] == [A.kind_column(d) for d in declarations]


# ---------------------------------------------------------------- what a closure keeps between bouts
def _condition(text: str) -> A.Expr:
    """The expression `text`, parsed as a listener's condition on line 2, from column 24."""
    source = f'rule r "R" {{\n    when round_ends if {text} {{\n    }}\n}}\n'
    return parse(source, "t.nexus").declarations[0].clauses[0].condition  # type: ignore[union-attr]


def _value(packs: tuple[str, ...], node: A.Expr, bout: Bout | None = None) -> Any:
    """`node`'s value with `self` the first fighter (the first player where there is none), or the
    fault it meets as (code, message, column)."""
    bout = bout or Bout(cached_ruleset(packs), standard_setup(2), seed=0)
    actor = next(iter(bout.state.pieces.values()), None) or next(iter(bout.state.players.values()))
    try:
        return bout.interpreter.evaluate(node, Env({"self": actor}))
    except ScriptRuntimeError as error:
        first = error.diagnostics[0]
        return first.code, first.message.split(": ", 1)[-1], first.column


def test_a_name_no_scope_binds_has_the_value_of_the_ruleset_it_is_read_in() -> None:
    node = _condition("scale_cap")  # a rule param of the base game, unknown to Pirates
    assert _value(("base",), node) == 3
    assert _value(("nexus_pirates",), node) == ("runtime/unknown_name", "`scale_cap` has no value here", 24)
    assert _value(("base",), node) == 3


def test_a_call_runs_the_function_of_the_interpreter_it_is_made_in() -> None:
    node = _condition("trait_reserve(self, CUNN)")
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    assert _value(("base",), node, bout) == 1
    without = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    without.interpreter.functions = {}  # a table with no functions: the call's plan is made again
    assert _value(("base",), node, without) == ("runtime/feature_not_available",
                                                "function `trait_reserve` is not available", 24)
    assert _value(("base",), node, bout) == 1


def test_an_argument_of_the_wrong_kind_faults_at_the_argument() -> None:
    assert _value(("base",), _condition('trait_reserve(self, "CUNN")')) == 1
    code, message, column = _value(("base",), _condition("trait_reserve(self, 3)"))
    assert (code, column) == ("runtime/wrong_type", 44) and message.startswith("`trait_reserve` needs ")
    assert message.endswith(" here, got 3")
    assert _value(("nexus_pirates",), _condition('has_mark(self, "x")')) == (
        "runtime/wrong_type", "`has_mark` needs a piece here, got player red", 33)


def test_each_operand_of_arithmetic_must_be_a_number_where_it_is_written() -> None:
    assert _value(("base",), _condition("self.overall * 2 - 1")) == 99
    assert _value(("base",), _condition('"a" + 1')) == ("runtime/wrong_type", "expected a number, got `a`", 24)
    assert _value(("base",), _condition('1 + "a"')) == ("runtime/wrong_type", "expected a number, got `a`", 28)
    assert _value(("base",), _condition("true * 2")) == ("runtime/wrong_type", "expected a number, got true", 24)
    assert _value(("base",), _condition("7 / 0"))[:2] == ("runtime/division_by_zero", "division by zero")
    assert _value(("base",), _condition('self.label == "red"')) in (True, False)
    assert _value(("base",), _condition('["a", "b"]')) == ("a", "b")


def test_an_ordering_compares_two_numbers_or_two_texts_and_nothing_else() -> None:
    assert [_value(("base",), _condition(text)) for text in ("self.overall > 49", "2 <= 1", '"a" < "b"', "3 >= 3")] == [
        True, False, True, True]
    assert _value(("base",), _condition('"a" > 1')) == ("runtime/wrong_type", "cannot compare `a` with 1", 24)
    assert _value(("base",), _condition("true < 2")) == ("runtime/wrong_type", "cannot compare true with 2", 24)
    assert _value(("base",), _condition('1 < "a"')) == ("runtime/wrong_type", "cannot compare 1 with `a`", 24)


def test_a_written_out_argument_is_held_to_its_range_at_every_call() -> None:
    node = _condition("die(d8, 1)")  # a die of one side: below the vocabulary's range
    for _ in range(2):
        code, message, column = _value(("base",), node)
        assert (code, column) == ("runtime/bad_value", 24) and "1" in message
