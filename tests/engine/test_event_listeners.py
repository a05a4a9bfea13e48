"""What runs when an event fires: each listener's condition is asked with the event's names and
`self` its owner (or the event's own `self` for one listening for the whole bout); a listener whose
condition holds runs its body in a scope of its own, so what the body `set`s stays its own."""

from __future__ import annotations

import pytest

from nexus_dsl import Bout, ScriptRuntimeError, cached_ruleset, parse, standard_setup
from nexus_dsl.engine.events import (DECLARED_FALSE, DECLARED_REST, EVERY_PIECE, WHOLE_BOUT, Events, Listener,
                                     listeners_of, mark_test)

SOURCE = '''trait_ability heard "Heard" {
    when probe if has_mark(self, "go") and 10 / count > 1 {
        mark self "heard" with count
        set count = count + 10
    }
}
rule whole "Whole" {
    when probe if count == 1 {
        mark self "whole" with count
    }
}
'''


def _wired(events: Events) -> Events:
    """Events made beside a bout's own, handed the bout's other mechanisms as the bout hands its own."""
    events.wire()
    return events


def _events() -> tuple[Bout, Events]:
    """A bout whose event `probe` is heard by an ability every piece owns, then by a rule."""
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    ability, rule = parse(SOURCE, "t.nexus").declarations
    listeners = (Listener(ability, ability.clauses[0], EVERY_PIECE), Listener(rule, rule.clauses[0], WHOLE_BOUT))
    return bout, _wired(Events(bout, {"probe": listeners}, {}))


def test_each_owner_is_asked_as_itself_and_a_body_s_names_stay_its_own() -> None:
    bout, events = _events()
    first, second = events.pieces_in_turn()
    second.marks["go"] = True
    assert list(events.fire("probe", self=first, count=1)) == []  # no decision on the way
    assert "heard" not in first.marks and second.marks["heard"] == 1
    # The rule, for the whole bout, reads the event's `self` and its `count`, not the ability's `set`.
    assert first.marks["whole"] == 1 and "whole" not in second.marks
    assert (events.trigger_depth, events.under_way()) == (0, [])


def test_a_condition_that_faults_names_its_listener_and_leaves_nothing_under_way() -> None:
    bout, events = _events()
    first, second = events.pieces_in_turn()
    second.marks["go"] = True
    with pytest.raises(ScriptRuntimeError) as raised:
        list(events.fire("probe", self=first, count=0))
    fault = raised.value.diagnostics[0]
    assert fault.code == "runtime/division_by_zero" and "trait_ability `heard`" in fault.message
    assert (fault.file, fault.line) == ("t.nexus", 2)
    assert "whole" not in first.marks and "heard" not in second.marks
    assert (events.trigger_depth, events.under_way()) == (0, [])


MARKS = '''trait_ability first "First" {
    when probe if has_mark(target, "go") and count > 0 {
        mark self "first" with count
    }
}
trait_ability second "Second" {
    when probe if target == self and has_mark(self, "go") {
        mark self "second"
    }
}
trait_ability later "Later" {
    when probe if count > 0 and has_mark(self, "go") {
        mark self "later"
    }
}
'''


def _mark_events() -> tuple[Bout, Events, list[Listener]]:
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    listeners = [Listener(d, d.clauses[0], EVERY_PIECE) for d in parse(MARKS, "m.nexus").declarations]
    return bout, _wired(Events(bout, {"probe": tuple(listeners)}, {})), listeners


def test_the_mark_a_condition_asks_first_is_read_where_nothing_before_it_can_fault() -> None:
    _, _, (first, second, later) = _mark_events()
    assert first.gate is not None and (first.gate.marked, first.gate.mark, first.gate.after_equal) == ("target", "go", False)
    # after `target == self`, which `_passing` asks
    assert second.gate is not None and (second.gate.marked, second.gate.mark, second.gate.after_equal) == ("self", "go", True)
    assert later.gate is None  # after a test the engine does not ask itself (and no `self ==` first)
    assert mark_test(None, False) is None


def test_a_listener_whose_mark_is_missing_is_passed_over_as_its_condition_would_be() -> None:
    bout, events, _ = _mark_events()
    first, second = events.pieces_in_turn()
    second.marks["go"] = True
    assert list(events.fire("probe", self=first, target=first, count=2)) == []
    assert first.marks == {} and second.marks == {"go": True, "later": True}
    assert list(events.fire("probe", self=first, target=second, count=2)) == []
    assert first.marks == {"first": 2}
    assert second.marks == {"go": True, "later": True, "first": 2, "second": True}


def test_a_mark_asked_of_what_is_no_piece_faults_as_before() -> None:
    bout, events, _ = _mark_events()
    with pytest.raises(ScriptRuntimeError) as raised:
        list(events.fire("probe", self=events.pieces_in_turn()[0], target=3, count=2))
    assert raised.value.diagnostics[0].code == "runtime/wrong_type"
    assert (events.trigger_depth, events.under_way()) == (0, [])


NAMES = '''rule setter "Setter" {
    when probe {
        set count = count + 10
        mark self "setter" with count
    }
}
rule chooser "Chooser" {
    when probe {
        if count > 0 {
            choose self from [5] into count
            mark self "chooser" with count
        }
    }
}
rule reader "Reader" {
    when probe {
        mark self "reader" with count
    }
}
'''


def test_a_body_that_binds_no_name_runs_over_the_event_s_own_names_and_sees_them_as_given() -> None:
    """A whole-bout listener whose body binds nothing where it runs (no `set`, no effect binding a
    name `into`, anywhere in it) runs over the event's names themselves; the others over a copy,
    so what one `set`s is never seen by the next."""
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    listeners = tuple(Listener(d, d.clauses[0], WHOLE_BOUT) for d in parse(NAMES, "n.nexus").declarations)
    assert [listener.shares_names for listener in listeners] == [False, False, True]
    events = _wired(Events(bout, {"probe": listeners}, {}))
    first, _ = events.pieces_in_turn()
    assert list(events.fire("probe", self=first, count=1)) == []
    assert (first.marks["setter"], first.marks["chooser"], first.marks["reader"]) == (11, 5, 1)


UNMARKS = '''trait_ability own "Own" {
    when probe {
        unmark self "a"
        unmark self "b"
    }
}
rule named "Named" {
    when probe {
        unmark target "a"
    }
}
rule other "Other" {
    when probe {
        unmark target "a"
        mark target "b"
    }
}
'''


def _unmark_events() -> tuple[Bout, Events, list[Listener]]:
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    own, named, other = parse(UNMARKS, "u.nexus").declarations
    listeners = [Listener(own, own.clauses[0], EVERY_PIECE), Listener(named, named.clauses[0], WHOLE_BOUT),
                 Listener(other, other.clauses[0], WHOLE_BOUT)]
    return bout, _wired(Events(bout, {"probe": tuple(listeners[:2])}, {})), listeners


def test_a_body_of_unmarks_alone_is_known_with_its_names_and_marks() -> None:
    _, _, (own, named, other) = _unmark_events()
    assert own.unmarks == (("self", "a"), ("self", "b")) and named.unmarks == (("target", "a"),)
    assert other.unmarks == ()


def test_unmarks_of_pieces_without_the_marks_count_their_steps_and_do_nothing_else() -> None:
    bout, events, _ = _unmark_events()
    first, second = events.pieces_in_turn()
    steps = bout.interpreter.steps
    assert list(events.fire("probe", self=first, target=second)) == []
    assert bout.interpreter.steps == steps + 5  # two owners' two statements, then the rule's one
    second.marks["b"] = True
    first.marks["a"] = 1
    assert list(events.fire("probe", self=first, target=first)) == []
    assert first.marks == {} and second.marks == {}
    assert bout.interpreter.steps == steps + 10


def test_unmarks_that_would_meet_the_step_budget_run_and_fault_where_they_did() -> None:
    bout, events, _ = _unmark_events()
    first, second = events.pieces_in_turn()
    bout.interpreter.steps = bout.limits.max_steps - 1  # the first owner's second statement is one too many
    with pytest.raises(ScriptRuntimeError) as raised:
        list(events.fire("probe", self=first, target=second))
    fault = raised.value.diagnostics[0]
    assert fault.code == "runtime/budget_exceeded" and (fault.file, fault.line) == ("u.nexus", 4)
    assert (events.trigger_depth, events.under_way()) == (0, [])


def test_an_unmark_of_what_is_no_piece_faults_as_before() -> None:
    bout, events, _ = _unmark_events()
    first, _ = events.pieces_in_turn()
    with pytest.raises(ScriptRuntimeError) as raised:
        list(events.fire("probe", self=first, target=3))
    fault = raised.value.diagnostics[0]
    assert fault.code == "runtime/wrong_type" and (fault.file, fault.line) == ("u.nexus", 9)


DECLARED = '''rule tagged "Tagged" {
    when probe if command.id == "move_forward" and count > -1 and 10 / count > 1 {
        mark self "tagged" with count
    }
}
'''


def test_a_condition_whose_first_tests_on_the_declaration_hold_is_asked_for_the_rest_alone() -> None:
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    (rule,) = parse(DECLARED, "d.nexus").declarations
    listener = Listener(rule, rule.clauses[0], WHOLE_BOUT)
    assert listener.declared == "command" and listener.rest is not None
    events = _wired(Events(bout, {"probe": (listener,)}, {}))
    first, _ = events.pieces_in_turn()
    command = bout.ruleset.declaration("command", "move_forward")
    other = bout.ruleset.declaration("command", "move_backward")
    # another command: false at its first test, whatever the rest would do
    assert list(events.fire("probe", self=first, command=other, count=0)) == [] and first.marks == {}
    assert list(events.fire("probe", self=first, command=command, count=2)) == [] and first.marks == {"tagged": 2}
    assert listener.met_verdicts == [DECLARED_FALSE, DECLARED_REST]
    with pytest.raises(ScriptRuntimeError) as raised:  # the rest faults where the condition did
        list(events.fire("probe", self=first, command=command, count=0))
    fault = raised.value.diagnostics[0]
    assert fault.code == "runtime/division_by_zero" and (fault.file, fault.line) == ("d.nexus", 2)


SWEEPS = '''rule swept "Swept" {
    when probe {
        for each h in pieces() {
            unmark h "a"
            unmark h "b"
        }
        unmark self "c"
    }
}
'''


def _sweep_events() -> tuple[Bout, Events, Listener]:
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    (rule,) = parse(SWEEPS, "s.nexus").declarations
    listener = Listener(rule, rule.clauses[0], WHOLE_BOUT)
    return bout, _wired(Events(bout, {"probe": (listener,)}, {})), listener


def test_a_body_of_loops_unmarking_every_piece_is_known_with_its_marks() -> None:
    _, _, listener = _sweep_events()
    assert listener.sweeps == (("a", "b"),) and listener.unmarks == (("self", "c"),)


def test_loops_unmarking_pieces_without_the_marks_count_the_steps_running_them_counts() -> None:
    bout, events, _ = _sweep_events()
    first, second = events.pieces_in_turn()
    steps = bout.interpreter.steps
    assert list(events.fire("probe", self=first)) == []  # nothing to unmark: its steps counted alone
    counted = bout.interpreter.steps - steps
    assert counted == 1 + 2 * (1 + 2) + 1  # the loop, each turn with its two statements, the last one
    second.marks["b"] = True  # now one piece has a mark: the body runs, and counts as many steps
    assert list(events.fire("probe", self=first)) == []
    assert second.marks == {} and bout.interpreter.steps - steps == 2 * counted


def test_loops_unmarking_that_would_meet_the_step_budget_run_and_fault_where_they_did() -> None:
    bout, events, _ = _sweep_events()
    first, _ = events.pieces_in_turn()
    bout.interpreter.steps = bout.limits.max_steps - 3  # the first turn's second statement is one too many
    with pytest.raises(ScriptRuntimeError) as raised:
        list(events.fire("probe", self=first))
    fault = raised.value.diagnostics[0]
    assert fault.code == "runtime/budget_exceeded" and (fault.file, fault.line) == ("s.nexus", 5)


def test_a_layout_puts_its_hazards_listeners_in_its_order_and_every_layout_shares_the_listeners() -> None:
    ruleset = cached_ruleset(("base",))
    load_order = [d.id for d in ruleset.declarations("hazard")]
    first, second = "floor_spikes", "brazier"
    tables = [listeners_of(ruleset, layout)[0] for layout in ((first, second), (second, first), ())]
    moved = [table["piece_moved"] for table in tables]
    for layout, listeners in zip(((first, second), (second, first), ()), moved):
        hazards = [listener.ident for listener in listeners if listener.hazard]
        # the rules' and abilities' listeners first, then the hazards': the layout's, then the others in load order
        assert [listener.hazard for listener in listeners] == sorted(listener.hazard for listener in listeners)
        expected = [*layout, *(h for h in load_order if h not in layout)]
        assert sorted(hazards, key=expected.index) == hazards and hazards[0] == expected[0]
        # a hazard with two clauses keeps them in the order written
        braziers = [listener.when for listener in listeners if listener.ident == "brazier"]
        assert braziers == [w for d, w in ruleset.triggers["piece_moved"] if d.id == "brazier"]
    # Each listener is made once per ruleset: the tables hold the same ones, each with its own place.
    assert {id(listener) for listener in moved[0]} == {id(listener) for listener in moved[1]}
    every = [listener for listeners in tables[0].values() for listener in listeners]
    assert sorted(listener.place for listener in every) == list(range(len(every)))
    assert listeners_of(ruleset, (first, second))[0] is tables[0]  # kept per layout
