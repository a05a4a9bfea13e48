"""Every command a piece gives costs something (`cost 0 AP` at least, said outright); a player of a
game whose players control no pieces acts without points, so its commands need no `cost`."""

from __future__ import annotations

from nexus_dsl.check.checker import Checker
from nexus_dsl.check.context import context_of
from nexus_dsl.syntax.parser import parse

COMMAND = 'command wave "Wave" {\n    effect {\n        log "waved"\n    }\n}\n'
GAME = 'game cards "Cards" {\n    pieces 0\n}\n'


def diagnostics(source: str) -> list[str]:
    declarations = parse(source, "x.nexus").declarations
    checker = Checker(context_of(declarations))
    return [d.code for declaration in declarations for d in checker.check(declaration)]


def test_a_pieces_command_without_a_cost_is_refused() -> None:
    assert diagnostics(COMMAND) == ["check/missing_clause"]


def test_a_players_command_in_a_game_without_pieces_needs_no_cost() -> None:
    assert diagnostics(GAME + COMMAND) == []

