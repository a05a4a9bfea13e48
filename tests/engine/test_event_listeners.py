"""What runs when an event fires: each listener's condition is asked with the event's names and
`self` its owner (or the event's own `self` for one listening for the whole bout); a listener whose
condition holds runs its body in a scope of its own, so what the body `set`s stays its own."""

from __future__ import annotations

import pytest

from nexus_dsl import Bout, ScriptRuntimeError, cached_ruleset, parse, standard_setup
from nexus_dsl.engine.events import EVERY_PIECE, WHOLE_BOUT, Events, Listener

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


def _events() -> tuple[Bout, Events]:
    """A bout whose event `probe` is heard by an ability every piece owns, then by a rule."""
    bout = Bout(cached_ruleset(("base",)), standard_setup(2), seed=0)
    ability, rule = parse(SOURCE, "t.nexus").declarations
    listeners = (Listener(ability, ability.clauses[0], EVERY_PIECE), Listener(rule, rule.clauses[0], WHOLE_BOUT))
    return bout, Events(bout, {"probe": listeners}, {})


def test_each_owner_is_asked_as_itself_and_a_body_s_names_stay_its_own() -> None:
    bout, events = _events()
    first, second = events.pieces_in_turn()
    second.marks["go"] = True
    assert list(events.fire("probe", self=first, count=1)) == []  # no decision on the way
    assert "heard" not in first.marks and second.marks["heard"] == 1
    # The rule, for the whole bout, reads the event's `self` and its `count`, not the ability's `set`.
    assert first.marks["whole"] == 1 and "whole" not in second.marks
    assert (events.trigger_depth, events.nesting) == (0, [])


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
    assert (events.trigger_depth, events.nesting) == (0, [])
