"""`Env.rebind` makes a scope again in place exactly as `Env.owning` would make it anew: over the names
given (not copied), below the parent given, whose script it is inherited from that parent, and who
acts from the parent unless a source is given."""

from __future__ import annotations

from typing import Any

from nexus_dsl import Bout, cached_ruleset, standard_setup
from nexus_dsl.engine.scope import Env
from nexus_dsl.engine.state import Piece
from nexus_dsl.syntax import ast_nodes as A


def _pieces_and_declarations() -> tuple[Piece, Piece, A.Declaration, A.Declaration]:
    ruleset = cached_ruleset(("base",))
    bout = Bout(ruleset, standard_setup(2), seed=0)
    first, second = list(bout.state.pieces.values())[:2]
    declarations = [d for kind in ruleset.scripts.values() for d in kind.values()]
    return first, second, declarations[0].declaration, declarations[1].declaration


def _as_made(env: Env) -> tuple[Any, ...]:
    return env.names, env.parent, env.source, env.declaration


def test_rebinding_makes_the_scope_owning_would_make() -> None:
    first, second, one, other = _pieces_and_declarations()
    scope = Env({"a": 1}, source=first, declaration=one)
    elsewhere = Env({"b": 2}, source=second, declaration=other)
    env = Env.owning({"x": 0}, elsewhere, source=second)
    for source in (None, second, first):
        names: dict[str, Any] = {"self": first}
        env.rebind(names, scope, source)
        made = Env.owning(names, scope, source)
        assert _as_made(env) == _as_made(made)
        assert env.names is names  # not copied: the caller's table is the scope's
    assert env.lookup("a") == (True, 1)
    assert env.lookup("b") == (False, None)


def test_a_scope_rebound_without_a_source_acts_as_its_new_parent_does() -> None:
    first, second, one, _ = _pieces_and_declarations()
    env = Env.owning({}, Env({}, source=first, declaration=one), source=second)
    env.rebind(env.names, Env({}, source=None, declaration=None))
    assert env.source is None and env.declaration is None
