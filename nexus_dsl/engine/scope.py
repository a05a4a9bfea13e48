"""What a running script is made of below the interpreter: its scopes (`Env`, `Dynamic` names), the
description of its values in messages, and its faults, positioned at the node that caused them.

The interpreter and the closures its expressions compile into (`compiled.py`) both build on these,
so neither has to import the other.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Final, Mapping, final

from ..errors import Diagnostic, ScriptRuntimeError
from ..syntax import ast_nodes as A
from .board import Square
from .options import Option
from .state import OwnedZone, Piece, Player


@final
class Dynamic:
    """A name whose value is read when it is used (e.g. `damage_bonus` grows as bonuses land).
    Final, so that a name's value is told from it by its type alone (`compiled.py`)."""

    __slots__ = ("read",)

    def __init__(self, read: Callable[[], Any]):
        self.read = read


#: What a scope's search finds for a name it does not bind (a value no script can make), so that
#: one search of a scope's names answers both whether it binds the name and to what.
UNBOUND: Final = object()


class Env:
    """A scope: local names chained to their parent, plus who is acting (the damage source)."""

    __slots__ = ("names", "parent", "source", "declaration")

    def __init__(self, names: Mapping[str, Any], parent: Env | None = None, source: Piece | None = None,
                 declaration: A.Declaration | None = None, owned: bool = False):
        # `owned`: the caller hands over a dictionary it built for this scope alone, not copied.
        self.names: dict[str, Any] = names if owned and isinstance(names, dict) else dict(names)
        self.parent = parent
        # Who acts and whose script this is, inherited from the enclosing scope unless given.
        self.source: Piece | None = source if source is not None or parent is None else parent.source
        self.declaration: A.Declaration | None = (declaration if declaration is not None or parent is None
                                                  else parent.declaration)

    @staticmethod
    def owning(names: dict[str, Any], parent: Env, source: Piece | None = None) -> Env:
        """A scope over `names` as given, not copied, inheriting whose script it is, and who acts
        unless `source` says, from `parent`."""
        return Env(names, parent, source, None, True)

    def child(self, names: Mapping[str, Any] | None = None, source: Piece | None = None) -> Env:
        return Env(names or {}, self, source)

    def lookup(self, name: str) -> tuple[bool, Any]:
        env: Env | None = self
        while env is not None:
            value = env.names.get(name, UNBOUND)
            if value is not UNBOUND:
                return True, (value.read() if isinstance(value, Dynamic) else value)
            env = env.parent
        return False, None

    def assign(self, name: str, value: Any) -> None:
        self.names[name] = value

    def rebind(self, names: dict[str, Any], parent: Env, source: Piece | None = None) -> None:
        """This scope made again in place over `names` (as given, not copied) below `parent`, as
        `Env.owning(names, parent, source)` would make it: whose script it is inherited from
        `parent`, and who acts too unless `source` says. A scope asked again and again (a condition
        per owner, a command per combination) is rebound rather than made anew each time."""
        self.names = names
        self.parent = parent
        self.declaration = parent.declaration
        self.source = source if source is not None else parent.source

    def reassign(self, name: str, value: Any) -> bool:
        """Bind `name` again where it is bound (`set`); whether it was bound anywhere."""
        env: Env | None = self
        while env is not None:
            if name in env.names:
                env.names[name] = value
                return True
            env = env.parent
        return False


# ---------------------------------------------------------------- faults
# Python errors a function, an effect or a mechanism may raise on values a script computed: they
# become positioned runtime diagnostics. (Dice errors are not among them: forced dice running out
# belong to the scenario that forced them, and every die a script rolls is checked beforehand.)
VALUE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError)
# Arguments are checked against the vocabulary before a function or effect runs, so a Python error
# inside one is the engine's own failure, not the script's: it still stops the bout at the statement
# (no traceback for a stranger's pack), but under its own code, which the test suites treat as a bug.
INTERNAL = "internal"
INTERNAL_HINT = "the engine failed on this statement; this is a fault of the engine, not of the script"


def fault(node: A.Node | None, env: Env | None, code: str, message: str, hint: str | None = None) -> ScriptRuntimeError:
    """A runtime diagnostic at `node`, naming the declaration `env` runs for: what `fault_at` makes of
    a new error, made at once (some faults are answers, met and caught at many decisions)."""
    if node is None or node.pos.line <= 0:  # nothing positions it here: an enclosing statement will
        return ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, "<engine>", hint=hint))
    pos = node.pos
    declaration = env.declaration if env is not None else None
    if declaration is not None:
        message = f"{declaration_label(declaration)}: {message}"
    located = ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, pos.file, pos.line, pos.column,
                                            pos.end_column if pos.end_line == pos.line else 0, hint))
    located.located = True  # type: ignore[attr-defined]
    located.declaration = declaration  # type: ignore[attr-defined]
    return located


def fault_at(error: ScriptRuntimeError, node: A.Node | None, env: Env | None) -> ScriptRuntimeError:
    """`error` positioned at `node` and naming `env`'s declaration, unless an inner expression or
    statement already did (the innermost place that knows is the one to report). The located error
    keeps that declaration (`faulting_declaration`), so no one has to search for it by position."""
    if getattr(error, "located", False):
        return error
    first = error.diagnostics[0]
    changes: dict[str, Any] = {}
    if first.line <= 0 and node is not None and node.pos.line > 0:
        pos = node.pos
        end = pos.end_column if pos.end_line == pos.line else 0
        changes.update(file=pos.file, line=pos.line, column=pos.column, end_column=end)
    if env is not None and env.declaration is not None:
        changes["message"] = f"{declaration_label(env.declaration)}: {first.message}"
    if first.line <= 0 and "line" not in changes:
        return error  # nothing positions it here: an enclosing statement will
    located = ScriptRuntimeError([replace(first, **changes), *error.diagnostics[1:]])
    located.located = True  # type: ignore[attr-defined]
    located.declaration = env.declaration if env is not None else None  # type: ignore[attr-defined]
    return located


def faulting_declaration(error: ScriptRuntimeError) -> A.Declaration | None:
    """The declaration a located fault names (`fault_at`), or None (a fault no script caused)."""
    return getattr(error, "declaration", None)


def declaration_label(declaration: A.Declaration) -> str:
    return f"in {declaration.kind} `{declaration.id}`"


def is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)




def describe_value(value: Any) -> str:
    """A script value in a message, as a script writer would name it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Piece):
        return f"piece {value.label}"
    if isinstance(value, Player):
        return f"player {value.label}"
    if isinstance(value, OwnedZone):
        return f"the zone `{value}`"
    if isinstance(value, Option):
        return f"the option `{value.name}`"
    if isinstance(value, Square):
        return f"square [{value.col}, {value.row}]"
    if isinstance(value, frozenset):
        return "an empty set of squares" if not value else f"a set of {len(value)} square(s)"
    if isinstance(value, tuple):
        return f"a list of {len(value)}"
    if isinstance(value, A.Declaration):
        return f"{value.kind} `{value.id}`"
    if isinstance(value, str):
        return f"`{value}`"
    return repr(value)
