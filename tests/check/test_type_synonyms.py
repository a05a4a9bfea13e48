"""`piece` is the type `helot` under the name a game of its own writes: in a command's arguments,
in the names an event binds, and held to the same uses."""

from __future__ import annotations

from nexus_dsl.check.checker import Checker
from nexus_dsl.check.context import context_of
from nexus_dsl.syntax.parser import parse

SOURCE = ('event nudged "Nudged" {\n    arg self: piece\n    arg mover: piece\n}\n'
          'command nudge "Nudge" {\n    cost 1 AP\n    arg other: piece\n    effect {\n        move other N\n'
          '        let mover = self\n        signal nudged\n    }\n}\n'
          'rule watching "Watching" {\n    when nudged {\n        rotate mover left\n    }\n}\n')


def codes(source: str) -> list[str]:
    declarations = parse(source, "x.nexus").declarations
    checker = Checker(context_of(declarations))
    return [d.code for declaration in declarations for d in checker.check(declaration)]


def test_a_piece_is_used_as_a_helot_is() -> None:
    assert codes(SOURCE) == []


def test_a_piece_is_held_to_the_uses_of_a_helot() -> None:
    assert codes(SOURCE.replace("move other N", "move other 3")) == ["check/wrong_type"]
    assert codes(SOURCE.replace("rotate mover left", "rotate 3 left")) == ["check/wrong_type"]
