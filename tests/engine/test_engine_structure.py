"""The engine is made of small mechanisms, each handed the bout as a Protocol (its host), never as the
`Bout` class: no mixins, and no import cycle between the engine's modules.

The imports are read from the source (every `import` and `from ... import` of an engine module,
those made only for type checking included), so a cycle is refused before it is ever run.
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from nexus_dsl import Bout, cached_ruleset, standard_setup
from nexus_dsl.engine.fingerprint import MECHANISMS

ENGINE = Path(__file__).resolve().parents[2] / "nexus_dsl" / "engine"
# The one engine module that may read the Bout class itself: the whole-state fingerprint, which
# nothing in the engine imports.
READS_THE_BOUT = {"fingerprint"}


def _tree(module: str) -> ast.Module:
    return ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))


def engine_modules() -> list[str]:
    return sorted(path.stem for path in ENGINE.glob("*.py") if path.stem != "__init__")


def engine_imports(module: str) -> set[str]:
    """The engine modules `module` imports: `from .x import`, `from . import x`, `nexus_dsl.engine.x`."""
    found: set[str] = set()
    modules = set(engine_modules())
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                names = [node.module] if node.module else [alias.name for alias in node.names]
            elif node.level == 0 and node.module and node.module.startswith("nexus_dsl.engine"):
                rest = node.module.removeprefix("nexus_dsl.engine").lstrip(".")
                names = [rest] if rest else [alias.name for alias in node.names]
            else:
                continue
            found.update(name.split(".")[0] for name in names if name and name.split(".")[0] in modules)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("nexus_dsl.engine."):
                    found.add(alias.name.split(".")[2])
    return found


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, as the modules along it, or None when it has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                return path[path.index(imported):] + [imported]
            if imported not in state:
                found = visit(imported)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_the_engine_modules_import_one_another_without_a_cycle() -> None:
    graph = {module: engine_imports(module) - {module} for module in engine_modules()}
    assert import_cycle(graph) is None, " -> ".join(import_cycle(graph) or [])


def test_the_check_finds_a_cycle() -> None:
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_cycle({"a": {"b"}, "b": set()}) is None
    assert "interpreter" in engine_imports("bout") and "bout" in engine_imports("fingerprint")


def test_no_mechanism_imports_the_bout() -> None:
    importers = {module for module in engine_modules() if "bout" in engine_imports(module)}
    assert importers <= READS_THE_BOUT, f"{sorted(importers - READS_THE_BOUT)} import engine/bout.py"


def test_no_engine_class_mixes_classes_in() -> None:
    """A class of the engine has at most one base besides `object`, `Protocol` and `Generic` (and an
    Enum's value type: `class Status(str, Enum)`)."""
    mixed = []
    for module in engine_modules():
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(base) for base in node.bases]
                allowed = {"object", "Protocol", "Generic"} | ({"str", "int"} if "Enum" in bases else set())
                named = [base for base in bases if base.split("[")[0] not in allowed]
                if len(named) > 1:
                    mixed.append(f"{module}.{node.name}({', '.join(bases)})")
    assert mixed == []
    assert Bout.__bases__ == (object,)


def _host_protocol(mechanism: type) -> type:
    hints = typing.get_type_hints(mechanism.__init__)
    return hints["host"]


@pytest.mark.sources_only  # reads the annotations of `__init__`, which compiled functions do not keep
def test_each_mechanism_is_handed_its_host_as_a_protocol() -> None:
    bout = Bout(cached_ruleset(("base",)), standard_setup(), seed=0)
    for name in MECHANISMS:
        mechanism = getattr(bout, name)
        protocol = _host_protocol(type(mechanism))
        assert getattr(protocol, "_is_protocol", False), f"{name}: its host is a {protocol.__name__}, not a Protocol"
        assert mechanism.host is bout
        assert type(mechanism).__module__ != Bout.__module__


def _protocol_members(tree: ast.Module, protocol: str) -> set[str]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == protocol:
            return {item.target.id if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                    else item.name for item in node.body if isinstance(item, (ast.AnnAssign, ast.FunctionDef))}
    raise AssertionError(f"no class {protocol}")


def _host_uses(tree: ast.Module, protocol: str) -> set[str]:
    """The attributes read of the host: of `self.host`, and of any parameter annotated with `protocol`."""
    parameters = {arg.arg for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.Lambda))
                  for arg in node.args.args + node.args.kwonlyargs
                  if isinstance(node, ast.FunctionDef) and arg.annotation is not None
                  and ast.unparse(arg.annotation) == protocol}
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in parameters - {"host"}:
                used.add(node.attr)
            elif (isinstance(owner, ast.Attribute) and owner.attr == "host" and isinstance(owner.value, ast.Name)
                  and owner.value.id == "self") or (isinstance(owner, ast.Name) and owner.id == "host"):
                used.add(node.attr)
    return used


def _host_protocols(path: Path) -> dict[str, tuple[set[str], set[str]]]:
    """Each host Protocol of a module's file: the members it lists itself and the ones the module reads."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {f"{path.stem}.{node.name}": (_protocol_members(tree, node.name), _host_uses(tree, node.name))
            for node in tree.body
            if isinstance(node, ast.ClassDef) and node.name.endswith("Host")
            and any(ast.unparse(base) == "Protocol" for base in node.bases)}


def _shared_bases(path: Path) -> dict[str, set[str]]:
    """The members of each Protocol a primitive's host may build on (`values.Faults`, `values.Grounds`),
    with those of their own bases: what a word's host lists through them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(ast.unparse(base) == "Protocol" for base in node.bases):
            inherited = set().union(*(found.get(ast.unparse(base), set()) for base in node.bases))
            found[node.name] = _protocol_members(tree, node.name) | inherited
    return found


def test_each_host_protocol_lists_what_its_module_uses_and_no_more() -> None:
    """A module's host Protocol names exactly the attributes and methods of the bout it reads."""
    hosts = {}
    for module in engine_modules():
        hosts.update(_host_protocols(ENGINE / f"{module}.py"))
    assert len(hosts) >= len(MECHANISMS)
    for name, (members, used) in hosts.items():
        assert members == used, f"{name}: listed but unused {sorted(members - used)}, used but unlisted {sorted(used - members)}"


def test_each_word_host_lists_what_its_module_uses_and_no_more() -> None:
    """The words of the language (`primitives/`) are handed the bout as their module's `Host`. What it
    lists itself the module reads, and what the module reads it lists, itself or through the shared
    bases it builds on (which hand on to helpers in `values.py` too, so those may list more)."""
    primitives = ENGINE / "primitives"
    shared = _shared_bases(primitives / "values.py")
    assert {"Faults", "Grounds"} <= set(shared)
    checked = 0
    for path in sorted(primitives.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == "Host":
                own = _protocol_members(tree, "Host")
                inherited = set().union(*(shared.get(ast.unparse(base), set()) for base in node.bases))
                used = _host_uses(tree, "Host")
                assert own <= used, f"{path.stem}.Host: listed but unused {sorted(own - used)}"
                assert used <= own | inherited, f"{path.stem}.Host: used but unlisted {sorted(used - own - inherited)}"
                checked += 1
    assert checked >= 5  # board_objects, chance, coins, flow, geometry, marks, movement, numbers, weapons...
