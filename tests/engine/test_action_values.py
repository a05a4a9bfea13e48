"""Actions are values: equal by their kind, actor, name and arguments, as the compiled engine also
makes them (`Action.__eq__`/`__hash__` are written out; `!=` is their negation)."""

from __future__ import annotations

import copy
import pickle

from nexus_dsl.engine.actions import Action


def test_equal_actions_are_equal_and_hash_alike() -> None:
    one = Action.make("command", "red", "move", direction="north")
    same = Action("command", "red", "move", (("direction", "north"),))
    assert one == same and not (one != same)
    assert hash(one) == hash(same)
    assert len({one, same}) == 1


def test_actions_differing_in_any_part_are_unequal() -> None:
    one = Action.make("command", "red", "move", direction="north")
    for other in (Action.make("ability", "red", "move", direction="north"),
                  Action.make("command", "blue", "move", direction="north"),
                  Action.make("command", "red", "rotate", direction="north"),
                  Action.make("command", "red", "move", direction="south")):
        assert one != other and not (one == other)


def test_an_action_is_unequal_to_other_values() -> None:
    one = Action.make("command", "red", "end_round")
    assert one != ("command", "red", "end_round", ())
    assert not (one == "end_round")


def test_copies_and_pickles_are_equal() -> None:
    one = Action.make("command", "red", "move", direction="north")
    assert copy.deepcopy(one) == one and pickle.loads(pickle.dumps(one)) == one
