"""Every name a scope may bind while a ruleset plays, so that a name outside them is read as the
word it is without searching any scope (`compiled.NameRead`).

A scope binds names of two sources. The content's: what its statements bind (`let`, `set`, a
`for each`'s name, an effect's `into` name), its declarations' args and params, and the names
each declared event and window binds. And the engine's own (`ENGINE_NAMES`): who acts, the
target and the command, the names of a roll's outcome, and the names its events and windows
are raised with (a test collects them from the engine's source and holds this list to them).
A name that is neither is bound by no scope of the ruleset: its value is the ruleset's alone.
"""

from __future__ import annotations

from typing import Final

from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from ..vocabulary import PRIMITIVES, ROLL_NAMES
from .text_facts import player_arg_name

#: The names the engine binds in a scope itself: who acts, the target and the command (the
#: scopes of commands, uses, listeners, rules and cards), and the names of the events and
#: windows the engine raises (`Events.fire`, `Timing.open_window` keywords).
ENGINE_NAMES: Final = frozenset({
    "self", "target", "command",
    "amount", "at", "attacker", "by", "cause", "defender", "direction", "doubles", "location", "mover",
    "object", "origin", "player", "roller", "side", "square", "state", "total", "victim", "was_incapacitated",
    "weapon",
}) | frozenset(ROLL_NAMES)
#: The prepositions naming a name an effect binds (`choose ... into pick`), not a value.
NAMING: Final = frozenset(prep for signature in PRIMITIVES.values() for prep, kind in signature.preps.items()
                          if kind == "name")


def bindable_names(ruleset: Ruleset) -> frozenset[str]:
    """Every name a scope may bind while `ruleset` plays: the engine's and its content's."""
    names = set(ENGINE_NAMES)
    seen: set[int] = set()
    declarations = [item.declaration for items in ruleset.scripts.values() for item in items.values()]
    declarations += [declaration for listeners in ruleset.triggers.values() for declaration, _ in listeners]
    for declaration in declarations:
        if id(declaration) not in seen:
            seen.add(id(declaration))
            _bound_in(declaration, names)
    words = ruleset.words
    for declared in (*words.events.values(), *words.windows.values()):
        names.update(declared)
    return frozenset(names)


def _bound_in(declaration: A.Declaration, names: set[str]) -> None:
    """The names a declaration's text binds anywhere in it (more than any one scope does): its
    args and params, and what the statements of its blocks bind (expressions bind nothing)."""
    for clause in declaration.clauses:
        if isinstance(clause, (A.Arg, A.Param)):
            names.add(clause.name)
            names.add(player_arg_name(clause.name))
        for field in clause.__dataclass_fields__:
            value = getattr(clause, field)
            if isinstance(value, A.Block):
                _bound_in_block(value, names)


def _bound_in_block(block: A.Block, names: set[str]) -> None:
    for stmt in block.statements:
        if isinstance(stmt, (A.Let, A.Set)):
            names.add(stmt.name)
        elif isinstance(stmt, A.Action):
            names.update(prep.value.id for prep in stmt.preps if prep.prep in NAMING and isinstance(prep.value, A.Name))
        elif isinstance(stmt, A.If):
            for branch in stmt.branches:
                _bound_in_block(branch.body, names)
            if stmt.otherwise is not None:
                _bound_in_block(stmt.otherwise, names)
        elif isinstance(stmt, (A.ForEach, A.Repeat)):
            if isinstance(stmt, A.ForEach):
                names.add(stmt.var)
            _bound_in_block(stmt.body, names)
