"""Expressions compile once into closures kept on their nodes, and legality's plans are kept with the
ruleset: what is worked out from content is shared by every bout, and none of it travels with a
pickled copy of the content."""

from __future__ import annotations

import pickle

from nexus_dsl import cached_ruleset, make_agent, play, standard_setup
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
