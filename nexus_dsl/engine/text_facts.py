"""Facts the engine reads from a declaration's own text, remembered by compiled code.

`syntax.ast_nodes.fact_of_text` memoises such a fact beside the declaration's fields; the engine
asks its facts (whether a declaration targets an opponent, its tags, who may use it at a window)
tens of thousands of times a bout, and the syntax package is never compiled (`nexus_dsl.native`):
each answer would cost an interpreted call. This decorator keeps the answers in the same table, so
that the compiled engine finds them without one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from ..syntax import ast_nodes as A

_Fact = TypeVar("_Fact")


def engine_fact(function: Callable[..., _Fact]) -> Callable[..., _Fact]:
    """Memoise `function(declaration, *words)`, a fact read from the declaration's own text alone,
    in the declaration's table of facts (`ast_nodes.fact_of_text` says more)."""

    def remembered(declaration: A.Declaration, *words: Hashable) -> _Fact:
        facts: dict[Any, Any] | None = declaration._facts
        if facts is None:
            facts = {}
            object.__setattr__(declaration, "_facts", facts)
        # A fact asked of the declaration alone is kept under the function itself, hashed at once
        # (no key of `ast_nodes.fact_of_text` is one: those are tuples); one asked with words too
        # under the function and the words.
        key: Hashable = (function, *words) if words else function
        found = facts.get(key, facts)  # the table itself stands for "not asked yet": no answer is it
        if found is facts:
            found = facts[key] = function(declaration, *words)
        return found  # type: ignore[no-any-return]

    return remembered
