"""Expressions compiled once into closures.

An expression of a rule script is asked for its value thousands of times a bout (legality asks
each cost and requirement per option), always with the same tree. Walking the tree each time costs
a dispatch on the node's type, a method call and an attribute read per node; a closure built once
per node does the same work with the node's parts (its operator, its name, its children's
closures) already in hand. A closure is an object of a class per kind of node (`Closure`), whose
`run` calls its children's `run` directly: in the compiled engine a method of a known class, not
a call of a Python callable with its arguments parsed. The closure is kept on the node itself, beside its dataclass fields, so
equality and printing ignore it and every bout and preview of every ruleset holding the node
shares it: it captures nothing of a bout, and reads the bout through the interpreter it is given.
What depends on the ruleset (the function a call names and the tests of its arguments, the value of
a name no scope binds) is kept with the ruleset's table it came from, and worked out again when the
closure runs in an interpreter with another.

Each closure does exactly what the interpreter's evaluators do, in the same order, with the same
faults at the same nodes (`interpreter.py`): values, errors and dice stay the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from sys import intern
from typing import Any, Callable, Final, Mapping, NamedTuple, Protocol

from ..errors import ScriptRuntimeError
from ..syntax import ast_nodes as A
from ..vocabulary import NumberRange
from .attributes import PieceAttributes, PieceReader, StateTest
from .scope import INTERNAL, INTERNAL_HINT, UNBOUND, VALUE_ERRORS, Dynamic, Env, describe_value, fault, fault_at, is_number
from .state import OwnedZone, Piece, Player


class AttributeHost(Protocol):
    """What a closure reads of the bout itself: the attributes of declarations."""

    def declaration_attribute(self, declaration: A.Declaration, name: str) -> Any: ...


class Interpreter:
    """What a closure asks of the interpreter it runs in: `interpreter.py`'s `Interpreter` is the one
    kind there is, and derives from this class. A class, not a Protocol, so that the compiled
    engine reads these fields and calls these methods directly rather than looking each up by
    name on every node a closure computes."""

    host: Any  # the bout (`AttributeHost`, and what the functions called take)
    attributes: PieceAttributes  # how each attribute of a fighter is read, per ruleset
    max_number: int  # the limits' largest number, either sign
    unbound_values: dict[str, Any]  # the value of each name no scope binds, per ruleset
    bindable: frozenset[str]  # every name a scope may bind, per ruleset (`bindable.bindable_names`)
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


class Closure:
    """An expression compiled: `run` works out its value in a scope, with the interpreter it runs
    in. Each kind of node has a class of its own holding the node's parts, so that a node's
    closure calls its children's by their class's method, directly in the compiled engine, rather
    than as Python callables. Called as a function (`closure(interpreter, env)`), it runs."""

    __slots__ = ()

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        raise NotImplementedError

    def __call__(self, interpreter: Interpreter, env: Env) -> Any:
        return self.run(interpreter, env)


class ArgumentTest(NamedTuple):
    """What one argument of a call must be: a value of a `sure` type passes at once, any other must
    pass `test`, or the call faults at the argument saying it needs `what`."""

    position: int
    sure: frozenset[type]
    test: Callable[[Any], bool]
    what: str


KindTest = tuple[Callable[[Any], bool], str]  # what a value of a type must pass, and what it is called


class WordTest:
    """The test of a value that must be one of a set of words (a direction, a stat of a group, a
    pile...): a text among `words`, or a piece where one stands for its player's pile
    (`piece_too`), or an owned zone where one may stand (`zone_too`). Called as a function, as the
    other tests are; the checks of calls and effects ask `holds` of it directly, with no call of a
    Python callable."""

    __slots__ = ("words", "piece_too", "zone_too")

    def __init__(self, words: frozenset[str], piece_too: bool = False, zone_too: bool = False):
        self.words = words
        self.piece_too = piece_too
        self.zone_too = zone_too

    def holds(self, value: Any) -> bool:
        if isinstance(value, str):
            return value in self.words
        return self.piece_too and isinstance(value, Piece) or self.zone_too and isinstance(value, OwnedZone)

    def __call__(self, value: Any) -> bool:
        return self.holds(value)


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
    # The first of each argument's classes: a value of that very class passes with no `isinstance`.
    positional_first: tuple[type, ...] = ()


@dataclass(frozen=True)
class ArgumentChecks:
    functions: dict[str, ArgumentCheck]
    primitives: dict[str, ArgumentCheck]
    tests: dict[str, KindTest]  # by type name: what a value of it must be (a procedure's args)


class PositionTest:
    """The test of one argument of a call (`ArgumentTest`), held where compiled code reads its parts
    directly: a value of the `quick` type passes at once, then one of a `sure` type, else it must
    pass `test`, or the call faults at the argument saying it needs `what`."""

    __slots__ = ("position", "quick", "sure", "test", "what", "words")

    def __init__(self, test: ArgumentTest):
        self.position: int = test.position
        # The one type sure to pass (None: none, or several): a value of it passes with no search.
        self.quick: Any = next(iter(test.sure)) if len(test.sure) == 1 else None
        self.sure: frozenset[type] = test.sure
        self.test: Callable[[Any], bool] = test.test
        self.what: str = test.what
        # The test again when it is a test of words, asked directly (None: another test).
        self.words: WordTest | None = test.test if isinstance(test.test, WordTest) else None

    def passes(self, value: Any) -> bool:
        if type(value) is self.quick or type(value) in self.sure:
            return True
        words = self.words
        return words.holds(value) if words is not None else self.test(value)


class CallPlan:
    """How a call runs for one table of functions and one set of argument checks (a Ruleset's words):
    the function it names (None: not available) and what its arguments must be. Worked out once
    and kept by the call's closure while the interpreter it runs in has the same tables, so a call
    costs no search by name and no test it does not need."""

    __slots__ = ("functions", "checks", "function", "tests", "ranges", "within", "listed", "at0", "at1", "at2")

    def __init__(self, functions: Any, checks: Any, function: Callable[..., Any] | None,
                 tests: tuple[ArgumentTest, ...], ranges: tuple[tuple[int, int, int, Any], ...],
                 within: Callable[[Any, int, A.Node, Env], int], count: int):
        self.functions = functions
        self.checks = checks
        self.function = function
        self.tests = tuple(PositionTest(test) for test in tests)  # in the order of their arguments
        # (position, the bounds of the NumberRange its number is held to, the range): a number
        # within the bounds is taken as it is; the range is asked of one beyond them (`within`).
        self.ranges = ranges
        self.within = within  # holds a number beyond the bounds to its range, or faults
        # A call of up to three arguments none of which is held to a range (nearly every call) is
        # run without gathering its arguments into a list: each argument's test, if it has one.
        self.listed = count > 3 or bool(ranges)
        at: list[PositionTest | None] = [None, None, None]
        for test in self.tests:
            if test.position < 3:
                at[test.position] = test
        self.at0: PositionTest | None = at[0]
        self.at1: PositionTest | None = at[1]
        self.at2: PositionTest | None = at[2]


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


class Constant(Closure):
    """A value written out (a number, a text, a list of them...): the same every time."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        return self.value


def _constant(value: Any) -> Closure:
    return Constant(value)


class NotAvailable(Closure):
    __slots__ = ("expr",)

    def __init__(self, expr: A.Expr):
        self.expr = expr

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        raise fault(self.expr, env, "feature_not_available", f"{type(self.expr).__name__} cannot be evaluated")


def _not_available(expr: A.Expr) -> Closure:
    return NotAvailable(expr)


class NameRead(Closure):
    """A name: the innermost scope binding it, else its value as a name no scope binds."""

    __slots__ = ("expr", "ident", "unbound_for", "unbound_value", "free_for")

    def __init__(self, expr: A.Name):
        self.expr = expr
        # Interned, as the names scripts bind are: a scope binding it holds this very string, found
        # at once, with no comparison of the characters.
        self.ident = intern(expr.id)
        # A name no scope binds has one value per ruleset (`resolve_unbound`): the last one found is
        # kept with the ruleset's table it came from, and used again while the table is the same.
        self.unbound_for: dict[str, Any] | None = None
        self.unbound_value: Any = None
        # That table again when no scope of its ruleset may bind the name at all (it is none of the
        # ruleset's `bindable` names), else None: its value is then read with no scope searched.
        self.free_for: dict[str, Any] | None = None

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        if self.free_for is interpreter.unbound_values:
            return self.unbound_value
        ident = self.ident
        scope: Env | None = env
        while scope is not None:  # Env.lookup, inlined: the commonest node of all
            value = scope.names.get(ident, UNBOUND)  # one search of the scope, not `in` then `[]`
            if value is not UNBOUND:
                return value.read() if type(value) is Dynamic else value  # final: no subclass to test for
            scope = scope.parent
        if interpreter.unbound_values is self.unbound_for:
            return self.unbound_value
        value = interpreter.resolve_unbound(self.expr, env)
        table = interpreter.unbound_values
        self.unbound_for, self.unbound_value = table, value
        self.free_for = None if ident in interpreter.bindable else table
        return value


def _name(expr: A.Name) -> Closure:
    return NameRead(expr)


class NumberOf(Closure):
    """The operand's value, faulting at the operand unless it is a whole number."""

    __slots__ = ("expr", "operand")

    def __init__(self, expr: A.Expr):
        self.expr = expr
        self.operand = closure_of(expr)

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        value = self.operand.run(interpreter, env)
        if type(value) is not int and not is_number(value):
            raise fault(self.expr, env, "wrong_type", f"expected a number, got {describe_value(value)}")
        return value


class And(Closure):
    __slots__ = ("left", "right")

    def __init__(self, left: Closure, right: Closure):
        self.left = left
        self.right = right

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        # `True if x else False` is `bool(x)` without calling it
        return (True if self.right.run(interpreter, env) else False) if self.left.run(interpreter, env) else False


class Or(Closure):
    __slots__ = ("left", "right")

    def __init__(self, left: Closure, right: Closure):
        self.left = left
        self.right = right

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        return True if self.left.run(interpreter, env) else (True if self.right.run(interpreter, env) else False)


def _binary(expr: A.Binary) -> Closure:
    op = expr.op
    if op in ("and", "or"):
        left, right = closure_of(expr.left), closure_of(expr.right)
        return And(left, right) if op == "and" else Or(left, right)
    if is_constant(expr.right) and is_number(constant_value(expr.right)):
        return BinaryByConstant(expr, constant_value(expr.right))
    return BinaryOp(expr)


class BinaryOp(Closure):
    """Arithmetic on two worked-out numbers."""

    __slots__ = ("expr", "op", "left", "right", "what")

    def __init__(self, expr: A.Binary):
        self.expr = expr
        self.op = expr.op
        self.left = closure_of(expr.left)
        self.right = closure_of(expr.right)
        self.what = f"the result of `{expr.op}`"

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        # Each operand is checked to be a number as soon as it is worked out (the left one before
        # the right one is): an exact int at once, anything else by `is_number`.
        left = self.left.run(interpreter, env)
        if type(left) is not int and not is_number(left):
            raise fault(self.expr.left, env, "wrong_type", f"expected a number, got {describe_value(left)}")
        right = self.right.run(interpreter, env)
        if type(right) is not int and not is_number(right):
            raise fault(self.expr.right, env, "wrong_type", f"expected a number, got {describe_value(right)}")
        return _arithmetic(interpreter, self.expr, env, self.op, left, right, self.what)


class BinaryByConstant(Closure):
    """`x + 1`, `x * 2`: the number on the right is written out, so only the left is worked out."""

    __slots__ = ("expr", "op", "left", "right", "what")

    def __init__(self, expr: A.Binary, right: int):
        self.expr = expr
        self.op = expr.op
        self.left = closure_of(expr.left)
        self.right = right
        self.what = f"the result of `{expr.op}`"

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        left = self.left.run(interpreter, env)
        if type(left) is not int and not is_number(left):
            raise fault(self.expr.left, env, "wrong_type", f"expected a number, got {describe_value(left)}")
        return _arithmetic(interpreter, self.expr, env, self.op, left, self.right, self.what)


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


class Negate(Closure):
    __slots__ = ("operand",)

    def __init__(self, operand: Closure):
        self.operand = operand

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        return -self.operand.run(interpreter, env)


def _negate(expr: A.Neg) -> Closure:
    return Negate(NumberOf(expr.operand))


class NotOf(Closure):
    __slots__ = ("operand",)

    def __init__(self, operand: Closure):
        self.operand = operand

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        return not self.operand.run(interpreter, env)


def _not(expr: A.Not) -> Closure:
    return NotOf(closure_of(expr.operand))


class Misplaced(Closure):
    """`x is <not a state>`: the left side worked out, then the fault."""

    __slots__ = ("expr", "left")

    def __init__(self, expr: A.Compare, left: Closure):
        self.expr = expr
        self.left = left

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        self.left.run(interpreter, env)
        raise fault(self.expr, env, "wrong_type", "`is` is followed by a state")


class InState(Closure):
    """`x is <state>` (`wanted`), `x is not <state>`."""

    __slots__ = ("left", "state", "wanted", "test")

    def __init__(self, left: Closure, state: str, wanted: bool):
        self.left = left
        self.state = state
        self.wanted = wanted
        # The state's test in the ruleset of the interpreter it last ran in (`has_state`, worked out once).
        self.test: StateTest | None = None

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        value = self.left.run(interpreter, env)
        test = self.test
        if test is None or test.attributes is not interpreter.attributes:
            test = self.test = interpreter.attributes.state_test(self.state)
        found = test.holds(value)
        return found if self.wanted else not found


class EqualsKnown(Closure):
    """`x == "text"` (`equal`), `x != 3`: the right side is known."""

    __slots__ = ("left", "known", "equal")

    def __init__(self, left: Closure, known: Any, equal: bool):
        self.left = left
        self.known = known
        self.equal = equal

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        if self.equal:
            return bool(self.left.run(interpreter, env) == self.known)
        return bool(self.left.run(interpreter, env) != self.known)


class Equals(Closure):
    """`x == y` (`equal`), `x != y`."""

    __slots__ = ("left", "right", "equal")

    def __init__(self, left: Closure, right: Closure, equal: bool):
        self.left = left
        self.right = right
        self.equal = equal

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        if self.equal:
            return bool(self.left.run(interpreter, env) == self.right.run(interpreter, env))
        return bool(self.left.run(interpreter, env) != self.right.run(interpreter, env))


class Membership(Closure):
    """`x in y` (`wanted`), `x not in y`."""

    __slots__ = ("expr", "op", "left", "right", "wanted")

    def __init__(self, expr: A.Compare, left: Closure, right: Closure):
        self.expr = expr
        self.op = expr.op
        self.left = left
        self.right = right
        self.wanted = expr.op == "in"

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        member = self.left.run(interpreter, env)
        collection = self.right.run(interpreter, env)
        if not isinstance(collection, (tuple, frozenset)):
            raise fault(self.expr, env, "wrong_type", f"`{self.op}` needs a list or a set of squares on its right, "
                                                      f"got {describe_value(collection)}")
        if isinstance(member, Piece) and isinstance(collection, frozenset):
            member = member.square
        try:
            found = member in collection
        except TypeError:  # an unhashable value looked up in a set of squares: not in it
            found = False
        return found if self.wanted else not found


def _compare(expr: A.Compare) -> Closure:
    op = expr.op
    left = closure_of(expr.left)
    if op in ("is", "is not"):
        if not isinstance(expr.right, A.Name):
            return Misplaced(expr, left)
        return InState(left, expr.right.id, op == "is")
    if op in ("==", "!=") and is_constant(expr.right):  # `x == "text"`: the right side is known
        return EqualsKnown(left, constant_value(expr.right), op == "==")
    right = closure_of(expr.right)
    if op in ("in", "not in"):
        return Membership(expr, left, right)
    if op in ("==", "!="):
        return Equals(left, right, op == "==")
    if is_constant(expr.right) and is_number(constant_value(expr.right)):
        return OrderedByNumber(expr, left, constant_value(expr.right))
    return Ordered(expr, left, right)


# How each ordering compares (`>=` for any other, as the evaluators had it), as a number compared
# with the numbers themselves: the comparison made in place, with no call of a Python callable.
LESS: Final = 0
AT_MOST: Final = 1
MORE: Final = 2
AT_LEAST: Final = 3
_ORDERS: dict[str, int] = {"<": LESS, "<=": AT_MOST, ">": MORE}


def in_order(order: int, a: Any, b: Any) -> bool:
    """Whether `a` and `b` (two numbers or two texts) are in `order`."""
    if order == MORE:
        return True if a > b else False
    if order == LESS:
        return True if a < b else False
    if order == AT_MOST:
        return True if a <= b else False
    return True if a >= b else False


class Ordered(Closure):
    __slots__ = ("expr", "left", "right", "order")

    def __init__(self, expr: A.Compare, left: Closure, right: Closure):
        self.expr = expr
        self.left = left
        self.right = right
        self.order = _ORDERS.get(expr.op, AT_LEAST)

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        a = self.left.run(interpreter, env)
        b = self.right.run(interpreter, env)
        if not (type(a) is int and type(b) is int  # two exact numbers at once, else the full test
                or is_number(a) and is_number(b) or isinstance(a, str) and isinstance(b, str)):
            raise fault(self.expr, env, "wrong_type", f"cannot compare {describe_value(a)} with {describe_value(b)}")
        return in_order(self.order, a, b)


class OrderedByNumber(Closure):
    """`x > 0`: the number on the right is written out, so only the left is worked out and tested."""

    __slots__ = ("expr", "left", "b", "order")

    def __init__(self, expr: A.Compare, left: Closure, b: int):
        self.expr = expr
        self.left = left
        self.b = b
        self.order = _ORDERS.get(expr.op, AT_LEAST)

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        a = self.left.run(interpreter, env)
        b = self.b
        if type(a) is not int and not is_number(a):
            raise fault(self.expr, env, "wrong_type", f"cannot compare {describe_value(a)} with {describe_value(b)}")
        return in_order(self.order, a, b)


DECLARATION_ATTRIBUTES = ("id", "group", "tags")
# The class of a declaration, held where compiled code reads it without searching the module's names.
DECLARATION: Final = A.Declaration


class AttributeRead(Closure):
    """An attribute read where its object is met: a fighter's by the reader of its name
    (`attributes.py`), a declaration's (its id, group, tags) by the bout, anything else (a square's
    col and row, or a fault) by the interpreter."""

    __slots__ = ("expr", "obj", "name", "of_declaration", "ident", "reader")

    def __init__(self, expr: A.Attr):
        self.expr = expr
        self.obj = closure_of(expr.obj)
        self.name = expr.name
        self.of_declaration = expr.name in DECLARATION_ATTRIBUTES
        # `self.label`: the object is nearly always a name a scope binds, looked up here without a call.
        self.ident = intern(expr.obj.id) if isinstance(expr.obj, A.Name) else ""  # "": not a name (no scope is searched)
        # The reader of the name in the ruleset of the interpreter it last ran in (its table's own).
        self.reader: PieceReader | None = None

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        ident = self.ident
        scope: Env | None = env if ident else None
        while scope is not None:
            value = scope.names.get(ident, UNBOUND)
            if value is not UNBOUND:
                if type(value) is Dynamic:
                    value = value.read()
                break
            scope = scope.parent
        else:  # not a name, or one no scope binds: its closure works it out (or faults)
            value = self.obj.run(interpreter, env)
        try:
            if isinstance(value, Piece) or isinstance(value, Player):
                reader = self.reader
                if reader is None or reader.ruleset is not interpreter.attributes.ruleset:
                    reader = self.reader = interpreter.attributes.reader(self.name)
                return reader.read(interpreter.host, value)
            if self.of_declaration and isinstance(value, DECLARATION):
                host: AttributeHost = interpreter.host
                return host.declaration_attribute(value, self.name)
        except AttributeError:
            pass
        return interpreter.attribute_of(value, self.expr, env)  # which faults where the bout has no such attribute


def _attr(expr: A.Attr) -> Closure:
    return AttributeRead(expr)


class CallOf(Closure):
    """A call of a script function: the function it names, looked up before its arguments are
    worked out, then each argument checked against the vocabulary, then the function on them."""

    __slots__ = ("expr", "args", "count", "known", "all_written", "first", "second", "third",
                 "known0", "known1", "known2", "plan")

    def __init__(self, expr: A.Call):
        self.expr = expr
        # An argument written out (`has_mark(self, "some_mark")`) is held as its value (`known`), its
        # closure then None: it is not called for it.
        self.args: tuple[Closure | None, ...] = tuple(
            None if is_constant(arg) else closure_of(arg) for arg in expr.args)
        self.count = len(expr.args)
        self.known = tuple(constant_value(arg) if is_constant(arg) else None for arg in expr.args)
        self.all_written = all(is_constant(arg) for arg in expr.args)
        # The first three arguments, each its closure or (None) its written value, read without a tuple.
        self.first = self.args[0] if self.count > 0 else None
        self.second = self.args[1] if self.count > 1 else None
        self.third = self.args[2] if self.count > 2 else None
        self.known0: Any = self.known[0] if self.count > 0 else None
        self.known1: Any = self.known[1] if self.count > 1 else None
        self.known2: Any = self.known[2] if self.count > 2 else None
        self.plan: CallPlan | None = None

    def _values(self, interpreter: Interpreter, env: Env) -> list[Any]:
        if self.all_written:
            return list(self.known)
        args = self.args
        known = self.known
        values: list[Any] = []
        for position in range(self.count):
            arg = args[position]
            values.append(known[position] if arg is None else arg.run(interpreter, env))
        return values

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        bound = self.plan
        if bound is None or bound.functions is not interpreter.functions or bound.checks is not interpreter.checks:
            bound = self.plan = interpreter.call_plan(self.expr)
        function = bound.function
        if function is None:
            expr = self.expr
            raise fault(expr, env, "feature_not_available", f"function `{expr.func}` is not available")
        if bound.listed:
            return self._run_listed(interpreter, env, bound, function)
        # Each argument worked out in order, then each tested in order (the fault at the first that
        # fails), then the function called with them as they are: what `_run_listed` does, without
        # a list. A test is held for an argument the call gives, so none is asked beyond `count`.
        count = self.count
        a: Any = None
        b: Any = None
        c: Any = None
        if count > 0:
            first = self.first
            a = self.known0 if first is None else first.run(interpreter, env)
            if count > 1:
                second = self.second
                b = self.known1 if second is None else second.run(interpreter, env)
                if count > 2:
                    third = self.third
                    c = self.known2 if third is None else third.run(interpreter, env)
        at = bound.at0
        if at is not None and type(a) is not at.quick and not at.passes(a):
            raise self._wrong(at, a, env)
        at = bound.at1
        if at is not None and type(b) is not at.quick and not at.passes(b):
            raise self._wrong(at, b, env)
        at = bound.at2
        if at is not None and type(c) is not at.quick and not at.passes(c):
            raise self._wrong(at, c, env)
        host = interpreter.host
        try:
            if count == 1:
                return function(host, env, a)
            if count == 2:
                return function(host, env, a, b)
            if count == 3:
                return function(host, env, a, b, c)
            return function(host, env)
        except ScriptRuntimeError as error:
            raise fault_at(error, self.expr, env) from None
        except VALUE_ERRORS as error:
            raise self._failed((a, b, c)[:count], error, env) from None

    def _run_listed(self, interpreter: Interpreter, env: Env, bound: CallPlan, function: Callable[..., Any]) -> Any:
        """A call of more than three arguments, or with a number held to a range."""
        values = self._values(interpreter, env)
        for at in bound.tests:
            value = values[at.position]
            if type(value) is not at.quick and not at.passes(value):
                raise self._wrong(at, value, env)
        expr = self.expr
        for position, low, high, number_range in bound.ranges:
            value = values[position]
            if not low <= value <= high:
                values[position] = bound.within(number_range, value, expr, env)
        try:
            return function(interpreter.host, env, *values)
        except ScriptRuntimeError as error:
            raise fault_at(error, expr, env) from None
        except VALUE_ERRORS as error:
            raise self._failed(tuple(values), error, env) from None

    def _wrong(self, at: PositionTest, value: Any, env: Env) -> ScriptRuntimeError:
        expr = self.expr
        return fault(expr.args[at.position], env, "wrong_type",
                     f"`{expr.func}` needs {at.what} here, got {describe_value(value)}")

    def _failed(self, values: tuple[Any, ...], error: Exception, env: Env) -> ScriptRuntimeError:
        expr = self.expr
        return fault(expr, env, INTERNAL, f"`{expr.func}` failed with "
                     f"{', '.join(describe_value(a) for a in values) or 'no arguments'}: "
                     f"{type(error).__name__}: {error}", INTERNAL_HINT)


def _call(expr: A.Call) -> Closure:
    return CallOf(expr)


class ListOf(Closure):
    __slots__ = ("items",)

    def __init__(self, items: tuple[Closure, ...]):
        self.items = items

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        return tuple([item.run(interpreter, env) for item in self.items])


def _list(expr: A.ListLit) -> Closure:
    if all(is_constant(item) for item in expr.items):  # `["left", "right"]`: the same list every time
        return Constant(tuple(constant_value(item) for item in expr.items))
    return ListOf(tuple(closure_of(item) for item in expr.items))


class IndexOf(Closure):
    __slots__ = ("expr", "obj", "index")

    def __init__(self, expr: A.Index):
        self.expr = expr
        self.obj = closure_of(expr.obj)
        self.index = closure_of(expr.index)

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        return interpreter.index_of(self.obj.run(interpreter, env), self.index.run(interpreter, env), self.expr, env)


def _index(expr: A.Index) -> Closure:
    return IndexOf(expr)


_COMPILERS: dict[type, Callable[[Any], Closure]] = {
    A.Num: lambda expr: Constant(expr.value),
    A.Bool: lambda expr: Constant(expr.value),
    A.Str: lambda expr: Constant(expr.value),
    A.ScaleLevel: lambda expr: Constant(expr.level),
    A.NoneLit: lambda expr: Constant(None),
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
