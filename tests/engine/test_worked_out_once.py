"""What events and windows need of the content is worked out once per ruleset and kept with it: each
event's listeners with who listens to them, and each window's uses with who may use them. Worked
out once, it must answer exactly what asking every declaration at every event and window answers."""

from __future__ import annotations

import pickle

from nexus_dsl import Bout, cached_ruleset, make_agent, play, standard_setup
from nexus_dsl.engine.events import (DECLARED_FALSE, DECLARED_REST, DECLARED_WHOLE, WHOLE_BOUT, Events, _passing,
                                     declared_tests, mark_test, self_test)
from nexus_dsl.engine.scope import Dynamic, Env
from nexus_dsl.syntax import ast_nodes as A


def _bout(players: int = 4, seed: int = 5) -> Bout:
    ruleset = cached_ruleset(("base",))
    setup = standard_setup(players)
    return play(ruleset, setup, {piece.label: make_agent("heuristic", 1) for piece in setup.pieces}, seed=seed)


def test_every_bout_of_a_ruleset_shares_its_listeners_and_window_uses() -> None:
    first, second = _bout(seed=5), _bout(seed=6)
    assert first.events.listeners is second.events.listeners
    assert first.timing._by_window is second.timing._by_window


def test_a_pickled_ruleset_leaves_its_listeners_and_window_uses_behind() -> None:
    ruleset = _bout().ruleset
    assert {"_event_listeners", "_window_uses"} <= set(ruleset.__dict__)
    kept = ruleset.__getstate__()  # what a pickled copy carries (the load cache's)
    assert kept and not {"_event_listeners", "_window_uses"} & set(kept)
    listeners = ruleset.__dict__["_event_listeners"]
    copies = pickle.loads(pickle.dumps([listener.declaration for found, _ in listeners.values()
                                        for heard in found.values() for listener in heard]))
    assert copies and not any(A.DERIVED & set(declaration.__dict__) for declaration in copies)


def test_each_listener_hears_the_pieces_owning_its_declaration_in_turn() -> None:
    bout = _bout()
    pieces = bout.state.pieces
    some = list(pieces.values())
    some[0].weapon, some[1].weapon = None, some[2].weapon  # a weapon held by two, one holding none
    checked = 0
    for listeners in bout.events.listeners.values():
        for listener in listeners:
            declaration = listener.declaration
            heard = list(bout.events._owners(listener))
            if listener.owners == WHOLE_BOUT:
                assert heard == [None]
                continue
            if declaration.kind == "weapon":
                owning = [h for h in bout.events.pieces_in_turn() if h.weapon == declaration.id]
            else:
                owning = [h for h in bout.events.pieces_in_turn() if bout.legality.owns_ability(h, declaration)]
            assert heard == owning, declaration.id
            checked += 1
    assert checked > 10


def test_the_pieces_in_turn_start_with_the_triggering_player() -> None:
    bout = _bout()
    for label in bout.state.pieces:
        bout.events.triggers.append(label)
        try:
            assert list(bout.events.pieces_in_turn()) == bout.state.clockwise_from(label)
        finally:
            bout.events.triggers.pop()


def test_each_window_offers_a_piece_the_uses_its_role_owns() -> None:
    bout = _bout()
    for window, uses in bout.timing._by_window.items():
        for piece in bout.state.pieces.values():
            owned = uses.owned_by(piece, bout.legality)
            assert [plan.declaration for plan in owned if not plan.held] == [
                plan.declaration for plan in uses.plans
                if not plan.held and bout.legality.owns_ability(piece, plan.declaration)], window
            assert [plan for plan in owned if plan.held] == [plan for plan in uses.plans if plan.held]


def _and(*tests: A.Expr) -> A.Expr:
    expr = tests[0]
    for test in tests[1:]:
        expr = A.Binary("and", expr, test)
    return expr


def test_a_condition_s_first_comparison_with_self_is_found() -> None:
    attacker_is_self = A.Compare("==", A.Name("attacker"), A.Name("self"))
    marked = A.Call("has_mark", (A.Name("self"), A.Str("x")))
    assert self_test(attacker_is_self) == ("attacker", True)
    assert self_test(A.Compare("==", A.Name("self"), A.Name("defender"))) == ("defender", False)
    assert self_test(_and(attacker_is_self, marked, marked)) == ("attacker", True)
    # Only a first test that must hold: not one after another test, nor in an `or`, nor `!=`.
    assert self_test(_and(marked, attacker_is_self)) is None
    assert self_test(A.Binary("or", attacker_is_self, marked)) is None
    assert self_test(A.Compare("!=", A.Name("attacker"), A.Name("self"))) is None
    assert self_test(A.Compare("==", A.Name("self"), A.Name("self"))) is None
    assert self_test(None) is None


def test_only_the_owners_a_first_comparison_with_self_lets_through_are_asked() -> None:
    bout = _bout(players=2)
    first, second = bout.state.pieces.values()
    assert _passing([first, second], "attacker", True, {"attacker": second}) == [second]
    assert _passing([first, second], "defender", False, {"defender": None}) == []
    # A name the event does not bind, or one read when it is used, is left to the condition.
    assert _passing([first, second], "attacker", True, {}) == [first, second]
    read_later = Dynamic(lambda: first)
    assert _passing([first, second], "attacker", True, {"attacker": read_later}) == [first, second]


def test_each_listener_keeps_its_declaration_s_scope_and_its_owners_by_role() -> None:
    """What a bout keeps of each listener (its declaration's scope, by the listener's place in its
    table) and what a listener keeps of each role (whether a piece of that role owns it) are what
    legality answers when asked afresh."""
    bout = _bout()
    listeners = [listener for heard in bout.events.listeners.values() for listener in heard]
    assert sorted(listener.place for listener in listeners) == list(range(len(listeners)))
    copy = bout._what_if()
    for listener in listeners:
        assert bout.events._scope(listener) is bout.legality.declaration_env(listener.declaration)
        assert copy.events._scope(listener) is copy.legality.declaration_env(listener.declaration)
    by_role = [(listener, role, owns) for listener in listeners for role, owns in listener.by_role.items()]
    assert by_role
    for listener, role, owns in by_role:
        assert owns == bout.legality._owned_by_role(role, listener.declaration), (listener.ident, role)


def test_a_listener_s_gate_holds_its_first_tests() -> None:
    bout = _bout()
    for heard in bout.events.listeners.values():
        for listener in heard:
            condition = listener.when.condition
            equal = self_test(condition) if listener.owners != WHOLE_BOUT else None
            marked = mark_test(condition, equal is not None)
            gate = listener.gate
            if equal is None and marked is None:
                assert gate is None
                continue
            assert gate is not None
            assert (gate.equal, gate.on_left) == (equal if equal is not None else (None, False))
            assert (gate.marked, gate.mark, gate.after_equal) == (marked if marked is not None else (None, "", False))


def test_a_listener_s_verdict_on_a_declaration_is_its_condition_s_first_tests_asked_afresh() -> None:
    """The verdicts a listener keeps of its first tests on an event's declaration (`command.id ==
    "x"`, `"x" in command.tags`) are what asking those tests of that declaration gives."""
    bout = _bout()
    interpreter = bout.interpreter
    declared = [listener for heard in bout.events.listeners.values() for listener in heard
                if listener.declared is not None]
    assert declared and any(listener.declared_whole for listener in declared)
    commands = list(bout.ruleset.declarations("command"))
    checked = 0
    for listener in declared:
        for command in commands:
            verdict = Events._declared_verdict(listener, command, interpreter)
            assert Events._declared_verdict(listener, command, interpreter) == verdict  # as kept
            scope = Env({listener.declared: command})
            fresh = all(test.run(interpreter, scope) for test in listener.declared_tests)
            if not fresh:
                assert verdict == DECLARED_FALSE, (listener.ident, command.id)
            else:
                assert verdict == (DECLARED_WHOLE if listener.declared_whole else DECLARED_REST)
                if listener.declared_whole:  # the whole condition holds
                    assert listener.condition is not None and listener.condition.run(interpreter, scope)
                else:  # the rest is what is left to ask
                    assert listener.rest is not None
            checked += 1
    assert checked > 20


def test_the_first_tests_on_a_declaration_are_found_up_to_the_first_other_test() -> None:
    tags = A.Compare("in", A.Str("some_tag"), A.Attr(A.Name("command"), "tags"))
    named = A.Compare("!=", A.Attr(A.Name("command"), "id"), A.Str("some_id"))
    other = A.Compare("==", A.Name("attacker"), A.Name("self"))
    assert declared_tests(_and(named, tags)) == ("command", (named, tags), True)
    assert declared_tests(_and(tags, other, named)) == ("command", (tags,), False)
    assert declared_tests(_and(other, tags)) == (None, (), False)
    assert declared_tests(A.Compare("==", A.Attr(A.Name("self"), "id"), A.Str("x"))) == (None, (), False)
    assert declared_tests(A.Compare("==", A.Attr(A.Name("command"), "ap"), A.Str("x"))) == (None, (), False)
    assert declared_tests(None) == (None, (), False)
