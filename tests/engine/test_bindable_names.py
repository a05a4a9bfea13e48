"""The names a scope may bind (`engine/bindable.py`): a name outside them is read with no scope
searched, so the engine's own list must hold every name the engine binds in a scope. Collected
here from the engine's source: the keywords its events and windows are raised with, and the
names written into the scopes it makes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nexus_dsl.engine.bindable import ENGINE_NAMES, bindable_names
from nexus_dsl.engine.scope import Env
from nexus_dsl.vocabulary import ROLL_NAMES

ENGINE = Path(__file__).resolve().parents[2] / "nexus_dsl" / "engine"  # the sources, compiled or not
RAISING = frozenset({"fire", "open_window"})  # `**names` given to these are bound in a scope
SCOPING = frozenset({"Env", "owning", "child", "rebind"})  # their first argument is a scope's names


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _keys(node: ast.AST | None) -> set[str]:
    if not isinstance(node, ast.Dict):
        return set()
    return {key.value for key in node.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)}


def _names_bound_in(function: ast.AST) -> set[str]:
    """What one function binds in scopes: keywords of the events and windows it raises, the keys of
    the dicts it makes scopes of, and those it writes into a dict it makes a scope of or raises with."""
    found: set[str] = set()
    scoped: set[str] = set()  # its variables holding a scope's names
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        called = _called(node)
        if called in RAISING:
            for keyword in node.keywords:
                if keyword.arg is not None:
                    found.add(keyword.arg)
                elif isinstance(keyword.value, ast.Name):
                    scoped.add(keyword.value.id)
                found |= _keys(keyword.value)
        if called in SCOPING and node.args:
            first = node.args[0]
            found |= _keys(first)
            if isinstance(first, ast.Name):
                scoped.add(first.id)
        if called == "assign" and node.args and isinstance(node.args[0], ast.Constant):
            found.add(node.args[0].value)
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if not (isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant)
                        and isinstance(target.slice.value, str)):
                    continue
                held = target.value
                if isinstance(held, ast.Name) and held.id in scoped \
                        or isinstance(held, ast.Attribute) and held.attr == "names":
                    found.add(target.slice.value)
    return found


def _engine_bound() -> set[str]:
    found: set[str] = set()
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found |= _names_bound_in(node)
    return found


def test_the_engine_names_are_every_name_the_engine_binds() -> None:
    found = _engine_bound()
    assert found <= ENGINE_NAMES, f"bound by the engine but not in ENGINE_NAMES: {sorted(found - ENGINE_NAMES)}"
    assert ENGINE_NAMES - frozenset(ROLL_NAMES) <= found, "ENGINE_NAMES lists names the engine never binds"


@pytest.mark.parametrize("packs", [("base",), ("base", "team_bouts"), ("base", "alternating_commands")])
def test_the_content_names_are_bindable(packs: tuple[str, ...]) -> None:
    """The ruleset's bindable names are the engine's and every name bound anywhere in its text, as
    a walk of every node of every declaration finds them."""
    from nexus_dsl.engine.bindable import NAMING
    from nexus_dsl.engine.text_facts import player_arg_name
    from nexus_dsl.sim.batch import BoutSpec, spec_ruleset
    from nexus_dsl.syntax import ast_nodes as A

    ruleset = spec_ruleset(BoutSpec(seed=0, packs=packs))
    expected = set(ENGINE_NAMES)
    declarations = [item.declaration for items in ruleset.scripts.values() for item in items.values()]
    declarations += [declaration for listeners in ruleset.triggers.values() for declaration, _ in listeners]
    for declaration in declarations:
        for node in A.subtree(declaration):
            if isinstance(node, (A.Let, A.Set, A.Param)):
                expected.add(node.name)
            elif isinstance(node, A.Arg):
                expected.update((node.name, player_arg_name(node.name)))
            elif isinstance(node, A.ForEach):
                expected.add(node.var)
            elif isinstance(node, A.PrepArg) and node.prep in NAMING and isinstance(node.value, A.Name):
                expected.add(node.value.id)
    for declared in (*ruleset.words.events.values(), *ruleset.words.windows.values()):
        expected.update(declared)
    assert bindable_names(ruleset) == expected


@pytest.mark.sources_only  # replaces a method of a closure class
@pytest.mark.parametrize("agent,players,packs", [("heuristic", 2, ("base",)), ("random", 2, ("base",)),
                                                 ("heuristic", 4, ("base", "team_bouts"))])
def test_a_name_read_without_a_search_is_bound_nowhere(monkeypatch: pytest.MonkeyPatch, agent: str, players: int,
                                                       packs: tuple[str, ...]) -> None:
    """Whole bouts: whenever a name is read as the ruleset's word with no scope searched, no scope
    binds it (the search would have found nothing either)."""
    from nexus_dsl.engine import compiled
    from nexus_dsl.sim.batch import BoutSpec, play_one

    reads = 0
    original = compiled.NameRead.run

    def watched(self: compiled.NameRead, interpreter: compiled.Interpreter, env: Env) -> object:
        nonlocal reads
        if self.free_for is interpreter.unbound_values:
            reads += 1
            scope: Env | None = env
            while scope is not None:
                assert self.ident not in scope.names, f"`{self.ident}` is bound but read without a search"
                scope = scope.parent
        return original(self, interpreter, env)

    monkeypatch.setattr(compiled.NameRead, "run", watched)
    for seed in range(2):
        result = play_one(BoutSpec(seed=seed, players=players, packs=packs, agents=(agent,)))
        assert result.error is None and result.fault is None
    assert reads > 0
