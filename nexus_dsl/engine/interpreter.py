"""The rule-script interpreter: an allow-list over the syntax tree, with budgets.

Expressions are evaluated by dispatching on node type; statements run as generators so that an
effect can open a timing window and wait for a player's decision. Every statement and loop
iteration spends one step of a per-execution budget (`Limits`), so even a script that slipped past
the checker cannot run away: it stops with a clear `ScriptRuntimeError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generator, Mapping

from ..errors import Diagnostic, ScriptRuntimeError
from ..syntax import ast_nodes as A
from ..vocabulary import EVENTS as VOCABULARY_EVENTS
from ..vocabulary import PURPOSES as VOCABULARY_PURPOSES
from ..vocabulary import PRIMITIVES as VOCABULARY_PRIMITIVES
from .board import Square
from .state import Helot
from .values import is_symbol

if TYPE_CHECKING:
    from .bout import Bout
    from .actions import Action, Decision

Run = Generator["Decision", "Action", None]


@dataclass(frozen=True)
class Limits:
    """Budgets that keep every script finite, per Ruleset (never module globals)."""

    max_steps: int = 20_000  # statements and loop iterations in one top-level execution
    max_trigger_depth: int = 8  # events raised by effects raised by events ...
    max_repeat: int = 100  # the largest `repeat N`
    max_collection: int = 256  # the largest list a `for each` walks
    # A Command Round given this many commands, abilities and cards ends by itself: a safety net
    # for content whose free commands could be repeated forever (a bout must always end).
    max_actions_per_round: int = 200


class Dynamic:
    """A name whose value is read when it is used (e.g. `damage_bonus` grows as bonuses land)."""

    __slots__ = ("read",)

    def __init__(self, read: Callable[[], Any]):
        self.read = read


class Env:
    """A scope: local names chained to their parent, plus who is acting (the damage source)."""

    __slots__ = ("names", "parent", "source", "declaration")

    def __init__(self, names: Mapping[str, Any], parent: Env | None = None, source: Helot | None = None,
                 declaration: A.Declaration | None = None):
        self.names = dict(names)
        self.parent = parent
        self.source = source if source is not None or parent is None else parent.source
        self.declaration = declaration if declaration is not None or parent is None else parent.declaration

    def child(self, names: Mapping[str, Any] | None = None, source: Helot | None = None) -> Env:
        return Env(names or {}, self, source)

    def lookup(self, name: str) -> tuple[bool, Any]:
        env: Env | None = self
        while env is not None:
            if name in env.names:
                value = env.names[name]
                return True, (value.read() if isinstance(value, Dynamic) else value)
            env = env.parent
        return False, None

    def assign(self, name: str, value: Any) -> None:
        self.names[name] = value


class Interpreter:
    def __init__(self, bout: Bout, limits: Limits):
        self.bout = bout
        self.limits = limits
        self.steps = 0
        self.pure = False  # while True, evaluating may not roll dice (requirements are questions)
        self.functions: dict[str, Callable[..., Any]] = {}
        self.primitives: dict[str, Callable[..., Any]] = {}

    def reset_budget(self) -> None:
        self.steps = 0

    def _spend(self, node: A.Node) -> None:
        self.steps += 1
        if self.steps > self.limits.max_steps:
            raise _runtime(node, "budget_exceeded", f"the script ran more than {self.limits.max_steps} steps")

    # ---------------------------------------------------------------- expressions
    def evaluate(self, expr: A.Expr, env: Env) -> Any:
        # One dictionary look-up by node type (the engine's hottest call: legality asks it per option).
        evaluator = _EVALUATORS.get(type(expr))
        if evaluator is None:
            raise _runtime(expr, "feature_not_available", f"{type(expr).__name__} cannot be evaluated")
        return evaluator(self, expr, env)

    def _index(self, expr: A.Index, env: Env) -> Any:
        container = self.evaluate(expr.obj, env)
        index = self.evaluate(expr.index, env)
        try:
            return container[index]
        except (TypeError, IndexError, KeyError):
            raise _runtime(expr, "bad_index", f"cannot index {_show(container)} with {_show(index)}") from None

    def resolve(self, name: A.Name, env: Env) -> Any:
        found, value = env.lookup(name.id)
        if found:
            return value
        settings = self.bout.ruleset.settings
        if name.id in settings:
            return settings[name.id]
        if (is_symbol(name.id) or name.id in self.bout.object_types or self.bout.is_declaration_id(name.id)
                or name.id in VOCABULARY_EVENTS or name.id in VOCABULARY_PURPOSES):  # `signal <event>`, `die(d8, 8)`
            return name.id
        raise _runtime(name, "unknown_name", f"`{name.id}` has no value here")

    def _number(self, expr: A.Expr, env: Env) -> int:
        value = self.evaluate(expr, env)
        if isinstance(value, bool) or not isinstance(value, int):
            raise _runtime(expr, "wrong_type", f"expected a number, got {_show(value)}")
        return value

    def _binary(self, expr: A.Binary, env: Env) -> Any:
        if expr.op == "and":
            return bool(self.evaluate(expr.left, env)) and bool(self.evaluate(expr.right, env))
        if expr.op == "or":
            return bool(self.evaluate(expr.left, env)) or bool(self.evaluate(expr.right, env))
        left = self._number(expr.left, env)
        right = self._number(expr.right, env)
        if expr.op == "+":
            return left + right
        if expr.op == "-":
            return left - right
        if expr.op == "*":
            return left * right
        if right == 0:
            raise _runtime(expr, "division_by_zero", "division by zero")
        return left // right

    def _compare(self, expr: A.Compare, env: Env) -> bool:
        left = self.evaluate(expr.left, env)
        if expr.op in ("is", "is not"):
            assert isinstance(expr.right, A.Name)
            result = self.bout.has_state(left, expr.right.id)
            return result if expr.op == "is" else not result
        right = self.evaluate(expr.right, env)
        if expr.op in ("in", "not in"):
            member = left.square if isinstance(left, Helot) and isinstance(right, frozenset) else left
            result = member in right
            return result if expr.op == "in" else not result
        if expr.op == "==":
            return bool(left == right)
        if expr.op == "!=":
            return bool(left != right)
        try:
            if expr.op == "<":
                return bool(left < right)
            if expr.op == "<=":
                return bool(left <= right)
            if expr.op == ">":
                return bool(left > right)
            return bool(left >= right)
        except TypeError:
            raise _runtime(expr, "wrong_type", f"cannot compare {_show(left)} with {_show(right)}") from None

    def _attr(self, expr: A.Attr, env: Env) -> Any:
        obj = self.evaluate(expr.obj, env)
        if isinstance(obj, Helot):
            return self.bout.helot_attribute(obj, expr.name)
        if isinstance(obj, Square) and expr.name in ("col", "row"):
            return getattr(obj, expr.name)
        if isinstance(obj, A.Declaration) and expr.name in ("id", "group", "tags"):
            return self.bout.declaration_attribute(obj, expr.name)
        raise _runtime(expr, "wrong_type", f"{_show(obj)} has no attribute `{expr.name}`")

    def _call(self, call: A.Call, env: Env) -> Any:
        function = self.functions.get(call.func)
        if function is None:
            raise _runtime(call, "feature_not_available", f"function `{call.func}` is not available")
        args = [self.evaluate(a, env) for a in call.args]
        return function(env, *args)

    # ---------------------------------------------------------------- statements
    def execute(self, block: A.Block, env: Env) -> Run:
        local = env.child()
        for stmt in block.statements:
            self._spend(stmt)
            if isinstance(stmt, A.Action):
                yield from self._action(stmt, local)
            elif isinstance(stmt, A.Let):
                local.assign(stmt.name, self.evaluate(stmt.value, local))
            elif isinstance(stmt, A.If):
                for branch in stmt.branches:
                    if self.evaluate(branch.condition, local):
                        yield from self.execute(branch.body, local)
                        break
                else:
                    if stmt.otherwise is not None:
                        yield from self.execute(stmt.otherwise, local)
            elif isinstance(stmt, A.ForEach):
                items = self.evaluate(stmt.iterable, local)
                items = sorted(items) if isinstance(items, frozenset) else items
                if len(items) > self.limits.max_collection:
                    raise _runtime(stmt, "budget_exceeded", f"`for each` over {len(items)} items (limit {self.limits.max_collection})")
                for item in items:
                    self._spend(stmt)
                    yield from self.execute(stmt.body, local.child({stmt.var: item}))
            elif isinstance(stmt, A.Repeat):
                count = self._number(stmt.count, local)
                if count > self.limits.max_repeat:
                    raise _runtime(stmt, "budget_exceeded", f"`repeat {count}` is more than the limit of {self.limits.max_repeat}")
                for _ in range(max(0, count)):
                    self._spend(stmt)
                    yield from self.execute(stmt.body, local)
            else:
                raise _runtime(stmt, "feature_not_available", f"{type(stmt).__name__} cannot be executed")

    def _action(self, action: A.Action, env: Env) -> Run:
        primitive = self.primitives.get(action.verb)
        if primitive is None:
            raise _runtime(action, "feature_not_available", f"effect `{action.verb}` is not available")
        args = [self.evaluate(a, env) for a in action.args]
        binds = VOCABULARY_PRIMITIVES[action.verb].preps
        # A `name` argument (`choose ... into pick`) is the name to bind, not a value to look up.
        preps = {p.prep: (p.value if binds.get(p.prep) == "name" else self.evaluate(p.value, env)) for p in action.preps}
        result = primitive(env, action, *args, **preps)
        if result is not None:
            yield from result


_EVALUATORS: dict[type, Callable[[Interpreter, Any, Env], Any]] = {
    A.Num: lambda _, expr, env: expr.value,
    A.Name: Interpreter.resolve,
    A.Binary: Interpreter._binary,
    A.Compare: Interpreter._compare,
    A.Attr: Interpreter._attr,
    A.Call: Interpreter._call,
    A.Not: lambda interpreter, expr, env: not interpreter.evaluate(expr.operand, env),
    A.Neg: lambda interpreter, expr, env: -interpreter._number(expr.operand, env),
    A.Bool: lambda _, expr, env: expr.value,
    A.Str: lambda _, expr, env: expr.value,
    A.Sds: lambda _, expr, env: expr.level,
    A.NoneLit: lambda _, expr, env: None,
    A.ListLit: lambda interpreter, expr, env: tuple(interpreter.evaluate(i, env) for i in expr.items),
    A.Index: Interpreter._index,
}


def _show(value: Any) -> str:
    if isinstance(value, Helot):
        return f"helot {value.label}"
    if isinstance(value, frozenset):
        return "a set of squares"
    return repr(value)


def _runtime(node: A.Node, code: str, message: str) -> ScriptRuntimeError:
    pos = node.pos
    return ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, pos.file, pos.line, pos.column))
