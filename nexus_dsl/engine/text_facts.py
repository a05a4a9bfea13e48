"""Facts the engine reads from a declaration's own text, remembered by compiled code.

`syntax.ast_nodes.fact_of_text` memoises such a fact beside the declaration's fields; the engine
asks its facts (whether a declaration targets an opponent, its tags, who may use it at a window)
tens of thousands of times a bout, and the syntax package is never compiled (`nexus_dsl.native`):
each answer would cost an interpreted call. This decorator keeps the answers in the same table, so
that the compiled engine finds them without one. The facts every mechanism asks (whether a
declaration targets an opponent, the role it names, its tags, group and arguments) are here too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final, TypeVar

from ..syntax import ast_nodes as A

_Fact = TypeVar("_Fact")


#: What a fact asked of a declaration alone is given for its word (a value no caller passes).
_NO_WORD: Final = object()


def engine_fact(function: Callable[..., _Fact]) -> Callable[..., _Fact]:
    """Memoise `function(declaration)` or `function(declaration, word)`, a fact read from the
    declaration's own text alone, in the declaration's table of facts (`ast_nodes.fact_of_text`
    says more)."""

    # One word at most, given by position: the compiled engine calls it with no parsing of `*words`.
    def remembered(declaration: A.Declaration, word: Hashable = _NO_WORD) -> _Fact:
        facts: dict[Any, Any] | None = declaration._facts
        if facts is None:
            facts = {}
            object.__setattr__(declaration, "_facts", facts)
        # A fact asked of the declaration alone is kept under the function itself, hashed at once
        # (no key of `ast_nodes.fact_of_text` is one: those are tuples); one asked with a word too
        # under the function and the word.
        key: Hashable = function if word is _NO_WORD else (function, word)
        found = facts.get(key, facts)  # the table itself stands for "not asked yet": no answer is it
        if found is facts:
            found = facts[key] = function(declaration) if word is _NO_WORD else function(declaration, word)
        return found  # type: ignore[no-any-return]

    return remembered


@engine_fact
def targets_opponent(declaration: A.Declaration) -> bool:
    prop = declaration.property("targets")
    return bool(prop and prop.values and isinstance(prop.values[0], A.Name) and prop.values[0].id == "opponent")


@engine_fact
def role_named(declaration: A.Declaration, role_word: str) -> tuple[bool, str | None]:
    """Whether the declaration names a role by the game's role word, and the role it names."""
    prop = declaration.property(role_word)
    if prop is None:
        return False, None
    return True, prop.values[0].id if prop.values and isinstance(prop.values[0], A.Name) else None


@engine_fact
def declaration_tags(declaration: A.Declaration) -> tuple[str, ...]:
    prop = declaration.property("tags")
    return tuple(v.id for v in prop.values if isinstance(v, A.Name)) if prop else ()


def player_arg_name(name: str) -> str:
    """The name players and actions use for a script argument. An argument whose name would be a
    keyword is written with a trailing underscore in scripts (`arg to_: square`) and is called
    without it everywhere else (the action's `to`)."""
    return name[:-1] if name.endswith("_") and len(name) > 1 else name


@engine_fact
def arguments_of(declaration: A.Declaration) -> tuple[tuple[str, A.ArgType], ...]:
    """Each argument of a declaration: its name as players use it (`player_arg_name`), and its type."""
    return tuple((player_arg_name(arg.name), arg.type) for arg in declaration.clauses_of(A.Arg))


@engine_fact
def declaration_group(declaration: A.Declaration) -> str | None:
    prop = declaration.property("group")
    value = prop.values[0] if prop and prop.values else None
    return value.id if isinstance(value, A.Name) else None


@engine_fact
def argument_bindings(declaration: A.Declaration) -> tuple[tuple[str, str], ...]:
    """Each argument of a declaration: the name its script binds, and the name players and actions
    give its value by (`player_arg_name`), in order."""
    return tuple((arg.name, player_arg_name(arg.name)) for arg in declaration.clauses_of(A.Arg))
