"""Expressions compiled once into closures.

An expression of a rule script is asked for its value thousands of times a bout (legality asks
each cost and requirement per option), always with the same tree. Walking the tree each time costs
a dispatch on the node's type, a method call and an attribute read per node; a closure built once
per node does the same work with the node's parts (its operator, its name, its children's
closures) already in hand. The closure is kept on the node itself, beside its dataclass fields, so
equality and printing ignore it and every bout and preview of every ruleset holding the node
shares it: it captures nothing of a bout, and reads the bout through the interpreter it is given.
What depends on the ruleset (the function a call names and the tests of its arguments, the value of
a name no scope binds) is kept with the ruleset's table it came from, and worked out again when the
closure runs in an interpreter with another.

Each closure does exactly what the interpreter's evaluators do, in the same order, with the same
faults at the same nodes (`interpreter.py`): values, errors and dice stay the same.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable, Mapping, NamedTuple, Protocol

from ..errors import ScriptRuntimeError
from ..syntax import ast_nodes as A
from ..vocabulary import NumberRange
from .scope import INTERNAL, INTERNAL_HINT, UNBOUND, VALUE_ERRORS, Dynamic, Env, describe_value, fault, fault_at, is_number
from .state import Piece, Player


class AttributeHost(Protocol):
    """What a closure reads of the bout itself: the attributes of fighters and declarations."""

    def piece_attribute(self, piece: Piece | Player, name: str) -> Any: ...

    def declaration_attribute(self, declaration: A.Declaration, name: str) -> Any: ...


class Interpreter:
    """What a closure asks of the interpreter it runs in: `interpreter.py`'s `Interpreter` is the one
    kind there is, and derives from this class. A class, not a Protocol, so that the compiled
    engine reads these fields and calls these methods directly rather than looking each up by
    name on every node a closure computes."""

    host: Any  # the bout (`AttributeHost`, and what the functions called take)
    max_number: int  # the limits' largest number, either sign
    unbound_values: dict[str, Any]  # the value of each name no scope binds, per ruleset
    functions: Mapping[str, Callable[..., Any]]  # the script functions by name
    checks: ArgumentChecks  # how their arguments are checked, per ruleset (`interpreter.argument_checks`)

    def bounded(self, value: int, node: A.Node | None, env: Env | None, what: str = "the result") -> int:
        raise NotImplementedError

    def resolve_unbound(self, name: A.Name, env: Env) -> Any:
        raise NotImplementedError

    def has_state(self, value: Any, state: str) -> bool:
        raise NotImplementedError

    def attribute_of(self, obj: Any, expr: A.Attr, env: Env) -> Any:
        raise NotImplementedError

    def index_of(self, container: Any, index: Any, expr: A.Index, env: Env) -> Any:
        raise NotImplementedError

    def call_plan(self, call: A.Call) -> CallPlan:
        raise NotImplementedError


Closure = Callable[[Interpreter, Env], Any]


class ArgumentTest(NamedTuple):
    """What one argument of a call must be: a value of a `sure` type passes at once, any other must
    pass `test`, or the call faults at the argument saying it needs `what`."""

    position: int
    sure: frozenset[type]
    test: Callable[[Any], bool]
    what: str


KindTest = tuple[Callable[[Any], bool], str]  # what a value of a type must pass, and what it is called


@dataclass(frozen=True)
class ArgumentCheck:
    """How each argument of one function or effect is checked: by its vocabulary type, and a number
    by its vocabulary range (`Signature.ranges`, the very ranges the checker holds constants to)."""

    positional: tuple[ArgumentTest | None, ...]  # None: the argument takes anything
    preps: dict[str, tuple[Callable[[Any], bool], str]]
    positional_ranges: tuple[tuple[int, NumberRange], ...]
    prep_ranges: tuple[tuple[str, NumberRange], ...]
    # `positional` again, in two parts that together ask exactly what it asks: each argument's
    # classes when its test asks no more (`object` when it has no test or another), and the other
    # tests by position.
    positional_classes: tuple[tuple[type, ...], ...] = ()
    positional_others: tuple[tuple[int, Callable[[Any], bool]], ...] = ()


@dataclass(frozen=True)
class ArgumentChecks:
    functions: dict[str, ArgumentCheck]
    primitives: dict[str, ArgumentCheck]
    tests: dict[str, KindTest]  # by type name: what a value of it must be (a procedure's args)


class CallPlan:
    """How a call runs for one table of functions and one set of argument checks (a Ruleset's words):
    the function it names (None: not available) and what its arguments must be. Worked out once
    and kept by the call's closure while the interpreter it runs in has the same tables, so a call
    costs no search by name and no test it does not need."""

    __slots__ = ("functions", "checks", "function", "tests", "ranges", "within")

    def __init__(self, functions: Any, checks: Any, function: Callable[..., Any] | None,
                 tests: tuple[ArgumentTest, ...], ranges: tuple[tuple[int, Any], ...],
                 within: Callable[[Any, int, A.Node, Env], int]):
        self.functions = functions
        self.checks = checks
        self.function = function
        self.tests = tests
        self.ranges = ranges  # (position, the NumberRange its number is held to)
        self.within = within  # holds a number to a range, or faults


def closure_of(expr: A.Expr) -> Closure:
    """The closure computing `expr`, built the first time it is asked for."""
    found: Closure | None = expr._closure
    if found is None:
        found = _compile(expr)
        object.__setattr__(expr, "_closure", found)
    return found


def _compile(expr: A.Expr) -> Closure:
    compiler = _COMPILERS.get(type(expr))
    if compiler is None:
        return _not_available(expr)
    return compiler(expr)


_CONSTANTS: dict[type, Callable[[Any], Any]] = {
    A.Num: lambda expr: expr.value,
    A.Bool: lambda expr: expr.value,
    A.Str: lambda expr: expr.value,
    A.ScaleLevel: lambda expr: expr.level,
    A.NoneLit: lambda expr: None,
}


def is_constant(expr: A.Expr) -> bool:
    """Whether `expr` is written out (a number, a truth value, a text, a level, `none`): its value
    is known when it is compiled, so the node using it holds the value, not a closure to call."""
    return type(expr) in _CONSTANTS


def constant_value(expr: A.Expr) -> Any:
    return _CONSTANTS[type(expr)](expr)


def _constant(value: Any) -> Closure:
    return lambda interpreter, env: value


def _not_available(expr: A.Expr) -> Closure:
    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        raise fault(expr, env, "feature_not_available", f"{type(expr).__name__} cannot be evaluated")

    return evaluate


def _name(expr: A.Name) -> Closure:
    ident = expr.id
    # A name no scope binds has one value per ruleset (`resolve_unbound`): the last one found is
    # kept with the ruleset's table it came from, and used again while the table is the same.
    unbound_for: dict[str, Any] | None = None
    unbound_value: Any = None

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        nonlocal unbound_for, unbound_value
        scope: Env | None = env
        while scope is not None:  # Env.lookup, inlined: the commonest node of all
            value = scope.names.get(ident, UNBOUND)  # one search of the scope, not `in` then `[]`
            if value is not UNBOUND:
                return value.read() if type(value) is Dynamic else value  # final: no subclass to test for
            scope = scope.parent
        if interpreter.unbound_values is unbound_for:
            return unbound_value
        value = interpreter.resolve_unbound(expr, env)
        unbound_for, unbound_value = interpreter.unbound_values, value
        return value

    return evaluate


def _number_of(expr: A.Expr) -> Closure:
    """The operand's closure, faulting at the operand unless its value is a whole number."""
    operand = closure_of(expr)

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        value = operand(interpreter, env)
        if type(value) is not int and not is_number(value):
            raise fault(expr, env, "wrong_type", f"expected a number, got {describe_value(value)}")
        return value

    return evaluate


def _binary(expr: A.Binary) -> Closure:
    op = expr.op
    if op in ("and", "or"):
        left, right = closure_of(expr.left), closure_of(expr.right)
        # `True if x else False` is `bool(x)` without calling it
        if op == "and":
            return lambda interpreter, env: (
                (True if right(interpreter, env) else False) if left(interpreter, env) else False)
        return lambda interpreter, env: (
            True if left(interpreter, env) else (True if right(interpreter, env) else False))
    if is_constant(expr.right) and is_number(constant_value(expr.right)):
        return _binary_by_constant(expr, constant_value(expr.right))
    left_operand, right_operand = closure_of(expr.left), closure_of(expr.right)
    what = f"the result of `{op}`"

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        # Each operand is checked to be a number as soon as it is worked out (the left one before
        # the right one is): an exact int at once, anything else by `is_number`.
        left = left_operand(interpreter, env)
        if type(left) is not int and not is_number(left):
            raise fault(expr.left, env, "wrong_type", f"expected a number, got {describe_value(left)}")
        right = right_operand(interpreter, env)
        if type(right) is not int and not is_number(right):
            raise fault(expr.right, env, "wrong_type", f"expected a number, got {describe_value(right)}")
        return _arithmetic(interpreter, expr, env, op, left, right, what)

    return evaluate


def _binary_by_constant(expr: A.Binary, right: int) -> Closure:
    """`x + 1`, `x * 2`: the number on the right is written out, so only the left is worked out."""
    op = expr.op
    left_operand = closure_of(expr.left)
    what = f"the result of `{op}`"

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        left = left_operand(interpreter, env)
        if type(left) is not int and not is_number(left):
            raise fault(expr.left, env, "wrong_type", f"expected a number, got {describe_value(left)}")
        return _arithmetic(interpreter, expr, env, op, left, right, what)

    return evaluate


def _arithmetic(interpreter: Interpreter, expr: A.Binary, env: Env, op: str, left: int, right: int, what: str) -> int:
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
    if op in ("==", "!=") and is_constant(expr.right):  # `x == "text"`: the right side is known
        known = constant_value(expr.right)
        if op == "==":
            return lambda interpreter, env: bool(left(interpreter, env) == known)
        return lambda interpreter, env: bool(left(interpreter, env) != known)
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

    if is_constant(expr.right) and is_number(constant_value(expr.right)):
        return _ordered_by_number(expr, left, constant_value(expr.right))
    in_order = _ORDERS.get(op, operator.ge)

    def ordered(interpreter: Interpreter, env: Env) -> bool:
        a = left(interpreter, env)
        b = right(interpreter, env)
        if not (type(a) is int and type(b) is int  # two exact numbers at once, else the full test
                or is_number(a) and is_number(b) or isinstance(a, str) and isinstance(b, str)):
            raise fault(expr, env, "wrong_type", f"cannot compare {describe_value(a)} with {describe_value(b)}")
        return True if in_order(a, b) else False

    return ordered


def _ordered_by_number(expr: A.Compare, left: Closure, b: int) -> Closure:
    """`x > 0`: the number on the right is written out, so only the left is worked out and tested."""
    in_order = _ORDERS.get(expr.op, operator.ge)

    def ordered(interpreter: Interpreter, env: Env) -> bool:
        a = left(interpreter, env)
        if type(a) is not int and not is_number(a):
            raise fault(expr, env, "wrong_type", f"cannot compare {describe_value(a)} with {describe_value(b)}")
        return True if in_order(a, b) else False

    return ordered


# How each ordering compares (`>=` for any other, as the evaluators had it).
_ORDERS: dict[str, Callable[[Any, Any], Any]] = {"<": operator.lt, "<=": operator.le, ">": operator.gt}


ACTORS = (Piece, Player)
DECLARATION_ATTRIBUTES = ("id", "group", "tags")


def _attr(expr: A.Attr) -> Closure:
    """An attribute read where its object is met: a fighter's by the bout, a declaration's (its id,
    group, tags) by the bout, anything else (a square's col and row, or a fault) by the interpreter."""
    obj = closure_of(expr.obj)
    name = expr.name
    of_declaration = name in DECLARATION_ATTRIBUTES
    # `self.label`: the object is nearly always a name a scope binds, looked up here without a call.
    ident = expr.obj.id if isinstance(expr.obj, A.Name) else ""  # "": not a name (no scope is searched)

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        scope: Env | None = env if ident else None
        while scope is not None:
            value = scope.names.get(ident, UNBOUND)
            if value is not UNBOUND:
                if type(value) is Dynamic:
                    value = value.read()
                break
            scope = scope.parent
        else:  # not a name, or one no scope binds: its closure works it out (or faults)
            value = obj(interpreter, env)
        host: AttributeHost = interpreter.host
        try:
            if isinstance(value, ACTORS):
                return host.piece_attribute(value, name)
            if of_declaration and isinstance(value, A.Declaration):
                return host.declaration_attribute(value, name)
        except AttributeError:
            pass
        return interpreter.attribute_of(value, expr, env)  # which faults where the bout has no such attribute

    return evaluate


def _call(expr: A.Call) -> Closure:
    """A call of a script function: the function it names, looked up before its arguments are
    worked out, then each argument checked against the vocabulary, then the function on them."""
    args = tuple(closure_of(arg) for arg in expr.args)
    count = len(args)
    # An argument written out (`has_mark(self, "some_mark")`) is held as its value, not called for it.
    written = tuple(is_constant(arg) for arg in expr.args)
    known = tuple(constant_value(arg) if is_constant(arg) else None for arg in expr.args)
    all_written = all(written)
    first = args[0] if count > 0 else None
    second = args[1] if count > 1 else None
    first_written, first_value = (written[0], known[0]) if count > 0 else (False, None)
    second_written, second_value = (written[1], known[1]) if count > 1 else (False, None)
    plan: CallPlan | None = None

    def evaluate(interpreter: Interpreter, env: Env) -> Any:
        nonlocal plan
        bound = plan
        if bound is None or bound.functions is not interpreter.functions or bound.checks is not interpreter.checks:
            bound = plan = interpreter.call_plan(expr)
        function = bound.function
        if function is None:
            raise fault(expr, env, "feature_not_available", f"function `{expr.func}` is not available")
        # The arguments of the commonest calls (one or two) are worked out without a loop.
        values: list[Any]
        if all_written:
            values = list(known)
        elif count == 1 and first is not None:
            values = [first(interpreter, env)]
        elif count == 2 and first is not None and second is not None:
            values = [first_value if first_written else first(interpreter, env),
                      second_value if second_written else second(interpreter, env)]
        else:
            values = [arg(interpreter, env) for arg in args]
        for position, sure, test, what in bound.tests:
            value = values[position]
            if type(value) not in sure and not test(value):
                raise fault(expr.args[position], env, "wrong_type",
                            f"`{expr.func}` needs {what} here, got {describe_value(value)}")
        for position, number_range in bound.ranges:
            values[position] = bound.within(number_range, values[position], expr, env)
        try:
            return function(interpreter.host, env, *values)
        except ScriptRuntimeError as error:
            raise fault_at(error, expr, env) from None
        except VALUE_ERRORS as error:
            raise fault(expr, env, INTERNAL, f"`{expr.func}` failed with "
                        f"{', '.join(describe_value(a) for a in values) or 'no arguments'}: "
                        f"{type(error).__name__}: {error}", INTERNAL_HINT) from None

    return evaluate


def _list(expr: A.ListLit) -> Closure:
    if all(is_constant(item) for item in expr.items):  # `["left", "right"]`: the same list every time
        return _constant(tuple(constant_value(item) for item in expr.items))
    items = tuple(closure_of(item) for item in expr.items)
    return lambda interpreter, env: tuple([item(interpreter, env) for item in items])


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
