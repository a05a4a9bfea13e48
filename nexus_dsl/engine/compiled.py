"""Expressions compiled once into closures.

An expression of a rule script is asked for its value thousands of times a bout (legality asks
each cost and requirement per option), always with the same tree. Walking the tree each time costs
a dispatch on the node's type, a method call and an attribute read per node; a closure built once
per node does the same work with the node's parts (its operator, its name, its children's
closures) already in hand. The closure is kept on the node itself, beside its dataclass fields, so
equality and printing ignore it and every bout and preview of every ruleset holding the node
shares it: it captures nothing but the node, and reads the bout through the interpreter it is given.

Each closure does exactly what the interpreter's evaluators do, in the same order, with the same
faults at the same nodes (`interpreter.py`): values, errors and dice stay the same.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ..syntax import ast_nodes as A
from .scope import Dynamic, Env, describe_value, fault, is_number
from .state import Piece


class Interpreter(Protocol):
    """What a closure asks of the interpreter it runs in (`interpreter.py`)."""

    @property
    def max_number(self) -> int: ...

    def bounded(self, value: int, node: A.Node | None, env: Env | None, what: str = "the result") -> int: ...

    def resolve_unbound(self, name: A.Name, env: Env) -> Any: ...

    def has_state(self, value: Any, state: str) -> bool: ...

    def attribute_of(self, obj: Any, expr: A.Attr, env: Env) -> Any: ...

    def index_of(self, container: Any, index: Any, expr: A.Index, env: Env) -> Any: ...

    def function_for(self, call: A.Call, env: Env) -> Callable[..., Any]: ...

    def call_function(self, function: Callable[..., Any], call: A.Call, args: list[Any], env: Env) -> Any: ...


Closure = Callable[[Interpreter, Env], Any]

_CLOSURE = "_closure"


def closure_of(expr: A.Expr) -> Closure:
    """The closure computing `expr`, built the first time it is asked for."""
    found = expr.__dict__.get(_CLOSURE)
    if found is None:
        found = _compile(expr)
        object.__setattr__(expr, _CLOSURE, found)
    return found


def _compile(expr: A.Expr) -> Closure:
    compiler = _COMPILERS.get(type(expr))
    if compiler is None:
        return _not_available(expr)
    return compiler(expr)


def _constant(value: Any) -> Closure:
    return lambda interpreter, env: value


def _not_available(expr: A.Expr) -> Closure:
    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        raise fault(expr, env, "feature_not_available", f"{type(expr).__name__} cannot be evaluated")

    return evaluate


def _name(expr: A.Name) -> Closure:
    ident = expr.id

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        scope: Env | None = env
        while scope is not None:  # Env.lookup, inlined: the commonest node of all
            names = scope.names
            if ident in names:
                value = names[ident]
                return value.read() if isinstance(value, Dynamic) else value
            scope = scope.parent
        return interpreter.resolve_unbound(expr, env)

    return evaluate


def _number_of(expr: A.Expr) -> Closure:
    """The operand's closure, faulting at the operand unless its value is a whole number."""
    operand = closure_of(expr)

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        value = operand(interpreter, env)
        if not is_number(value):
            raise fault(expr, env, "wrong_type", f"expected a number, got {describe_value(value)}")
        return value

    return evaluate


def _binary(expr: A.Binary) -> Closure:
    op = expr.op
    if op in ("and", "or"):
        left, right = closure_of(expr.left), closure_of(expr.right)
        if op == "and":
            return lambda interpreter, env: bool(left(interpreter, env)) and bool(right(interpreter, env))
        return lambda interpreter, env: bool(left(interpreter, env)) or bool(right(interpreter, env))
    left_number, right_number = _number_of(expr.left), _number_of(expr.right)
    what = f"the result of `{op}`"

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        left = left_number(interpreter, env)
        right = right_number(interpreter, env)
        if op == "+":
            result = left + right
        elif op == "-":
            result = left - right
        elif op == "*":
            result = left * right
        elif right == 0:
            raise fault(expr, env, "division_by_zero", "division by zero")
        else:
            result = left // right
        limit = interpreter.max_number
        if -limit <= result <= limit:
            return result
        return interpreter.bounded(result, expr, env, what)  # beyond the limit: the fault

    return evaluate


def _negate(expr: A.Neg) -> Closure:
    operand = _number_of(expr.operand)
    return lambda interpreter, env: -operand(interpreter, env)


def _not(expr: A.Not) -> Closure:
    operand = closure_of(expr.operand)
    return lambda interpreter, env: not operand(interpreter, env)


def _compare(expr: A.Compare) -> Closure:
    op = expr.op
    left = closure_of(expr.left)
    if op in ("is", "is not"):
        if not isinstance(expr.right, A.Name):
            def misplaced(interpreter: Interpreter, env: Env) -> Any:
                left(interpreter, env)
                raise fault(expr, env, "wrong_type", "`is` is followed by a state")
            return misplaced
        state = expr.right.id
        if op == "is":
            return lambda interpreter, env: interpreter.has_state(left(interpreter, env), state)
        return lambda interpreter, env: not interpreter.has_state(left(interpreter, env), state)
    right = closure_of(expr.right)
    if op in ("in", "not in"):
        wanted = op == "in"

        def membership(interpreter: Interpreter, env: Env) -> bool:
            member = left(interpreter, env)
            collection = right(interpreter, env)
            if not isinstance(collection, (tuple, frozenset)):
                raise fault(expr, env, "wrong_type", f"`{op}` needs a list or a set of squares on its right, "
                                                     f"got {describe_value(collection)}")
            if isinstance(member, Piece) and isinstance(collection, frozenset):
                member = member.square
            try:
                found = member in collection
            except TypeError:  # an unhashable value looked up in a set of squares: not in it
                found = False
            return found if wanted else not found

        return membership
    if op == "==":
        return lambda interpreter, env: bool(left(interpreter, env) == right(interpreter, env))
    if op == "!=":
        return lambda interpreter, env: bool(left(interpreter, env) != right(interpreter, env))

    def ordered(interpreter: Interpreter, env: Env) -> bool:
        a = left(interpreter, env)
        b = right(interpreter, env)
        if not (is_number(a) and is_number(b) or isinstance(a, str) and isinstance(b, str)):
            raise fault(expr, env, "wrong_type", f"cannot compare {describe_value(a)} with {describe_value(b)}")
        if op == "<":
            return bool(a < b)
        if op == "<=":
            return bool(a <= b)
        if op == ">":
            return bool(a > b)
        return bool(a >= b)

    return ordered


def _attr(expr: A.Attr) -> Closure:
    obj = closure_of(expr.obj)
    return lambda interpreter, env: interpreter.attribute_of(obj(interpreter, env), expr, env)


def _call(expr: A.Call) -> Closure:
    args = tuple(closure_of(arg) for arg in expr.args)

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        function = interpreter.function_for(expr, env)  # named before its arguments are worked out
        return interpreter.call_function(function, expr, [arg(interpreter, env) for arg in args], env)

    return evaluate


def _list(expr: A.ListLit) -> Closure:
    items = tuple(closure_of(item) for item in expr.items)
    return lambda interpreter, env: tuple(item(interpreter, env) for item in items)


def _index(expr: A.Index) -> Closure:
    obj, index = closure_of(expr.obj), closure_of(expr.index)
    return lambda interpreter, env: interpreter.index_of(obj(interpreter, env), index(interpreter, env), expr, env)


_COMPILERS: dict[type, Callable[[Any], Closure]] = {
    A.Num: lambda expr: _constant(expr.value),
    A.Bool: lambda expr: _constant(expr.value),
    A.Str: lambda expr: _constant(expr.value),
    A.ScaleLevel: lambda expr: _constant(expr.level),
    A.NoneLit: lambda expr: _constant(None),
    A.Name: _name,
    A.Binary: _binary,
    A.Neg: _negate,
    A.Not: _not,
    A.Compare: _compare,
    A.Attr: _attr,
    A.Call: _call,
    A.ListLit: _list,
    A.Index: _index,
}
