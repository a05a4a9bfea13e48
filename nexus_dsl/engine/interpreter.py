"""The rule-script interpreter: an allow-list over the syntax tree, with budgets.

Expressions are compiled once into closures kept on their nodes (`compiled.py`), which call back
here for what needs the bout (names no scope binds, attributes, functions); statements run as generators so that an
effect can open a timing window and wait for a player's decision. Every statement and loop
iteration spends one step of a per-execution budget (`Limits`), so even a script that slipped past
the checker cannot run away: it stops with a clear `ScriptRuntimeError`.

Every value a script computes is checked where it is used: arithmetic stays within
`Limits.max_number`, and each argument of a function or an effect must be of the kind the
vocabulary declares (a piece where a piece is needed, a number where a number is...). Whatever goes
wrong while a script runs — here, inside a function or an effect, or in the mechanisms an effect
sets off — leaves as a `ScriptRuntimeError` positioned at the innermost expression or statement
that caused it and naming its declaration (`fault_at`), never as a Python exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Final, Generator, Mapping, Protocol, Sequence, cast
from weakref import WeakKeyDictionary

from ..errors import ScriptRuntimeError
from ..limits import MAX_NUMBER
from ..model.ruleset import Ruleset
from ..model.values import is_symbol
from ..model.words import GameWords
from ..syntax import ast_nodes as A
from ..vocabulary import COMPASS
from ..vocabulary import FUNCTIONS as VOCABULARY_FUNCTIONS
from ..vocabulary import RELATIVE, RESOURCES, ROLL_SIDES, NumberRange, Signature
from ..vocabulary import PURPOSES as VOCABULARY_PURPOSES
from ..vocabulary import PRIMITIVES as VOCABULARY_PRIMITIVES
from .board import Square
from .compiled import ArgumentCheck, ArgumentChecks, ArgumentTest, CallPlan, Closure, KindTest, closure_of
from .compiled import Interpreter as Evaluator
from .scope import INTERNAL, INTERNAL_HINT, VALUE_ERRORS, Env, describe_value, fault, fault_at, is_number
from .state import Piece, OwnedZone, Player

if TYPE_CHECKING:
    from .actions import Action, Decision

Run = Generator["Decision", "Action", None]


@dataclass(frozen=True)
class Limits:
    """Budgets that keep every script finite, per Ruleset (never module globals)."""

    max_steps: int = 20_000  # statements and loop iterations between two of a player's own decisions
    max_trigger_depth: int = 8  # events raised by effects raised by events ...
    max_repeat: int = 100  # the largest `repeat N`
    max_collection: int = 256  # the largest list a `for each` walks, a `choose` offers or a mark holds
    # A Command Round given this many commands, abilities and cards (timing-window uses included)
    # ends by itself: a safety net for content whose free commands could be repeated forever.
    max_actions_per_round: int = 200
    # The largest number a script may compute or hold, either sign: the parser's literal limit, so
    # no script can grow a number (a cost, a mark, a pile) without bound by computing it.
    max_number: int = MAX_NUMBER
    # Argument combinations one command, ability or card may offer (each one is checked for
    # legality): the base box's largest is Throw, 64 squares for each of up to 3 targets.
    max_options: int = 4_096
    # Objects on the board at once: the base box holds fewer than 60 pieces; a script placing
    # objects at every event must not fill memory.
    max_board_objects: int = 1_024
    # How deep lists a mark holds may nest (a list of lists...): marks outlive the script that sets
    # them and are copied with the state at every action, so a value nested without bound would
    # slow every later copy. As deep as the parser lets a script nest its own lists, so any list a
    # script can write fits.
    max_mark_depth: int = 32
    # Procedures running procedures: the checker refuses any that could run itself, so this only
    # bounds a Ruleset put together without the checker.
    max_procedure_depth: int = 16


# ---------------------------------------------------------------- argument kinds
def _one_square(value: Any) -> bool:
    return isinstance(value, (Square, Piece)) or isinstance(value, frozenset) and len(value) == 1


DIRECTIONS = frozenset(COMPASS + RELATIVE)
# What a value must be for each argument type of the vocabulary (`any`, `bool` and `name` take
# anything); the types whose members content declares are added per Ruleset (`argument_checks`).
KIND_TESTS: dict[str, KindTest] = {
    "number": (is_number, "a number"),
    "text": (lambda v: isinstance(v, str), "text"),
    "piece": (lambda v: isinstance(v, Piece), "a piece"),
    "player": (lambda v: isinstance(v, Player), "a player"),
    "actor": (lambda v: isinstance(v, (Piece, Player)), "a piece or a player"),
    "square": (_one_square, "a square"),
    "squares": (lambda v: isinstance(v, frozenset), "a set of squares"),
    "direction": (lambda v: isinstance(v, str) and v in DIRECTIONS, "a direction"),
    "state": (lambda v: isinstance(v, str), "a state"),
    "resource": (lambda v: isinstance(v, str) and v in RESOURCES, "AP or MP"),
    "object_type": (lambda v: isinstance(v, str), "an object type"),
    "roll_side": (lambda v: isinstance(v, str) and v in ROLL_SIDES, "a roll side (attack, defense or check)"),
    "purpose": (lambda v: isinstance(v, str), "a dice purpose"),
    "list": (lambda v: isinstance(v, (tuple, frozenset)), "a list"),
    "event": (lambda v: isinstance(v, str), "an event"),
    "window": (lambda v: isinstance(v, str), "a timing window"),
    "command": (lambda v: isinstance(v, str), "a command"),

}
# The kinds whose test asks no more than the value's class: an effect's arguments, checked at every
# statement, are held to these with `isinstance` itself (`ArgumentCheck.positional_classes`).
CLASS_TESTS: dict[str, tuple[type, ...]] = {
    "text": (str,), "piece": (Piece,), "player": (Player,), "actor": (Piece, Player), "squares": (frozenset,),
    "state": (str,), "object_type": (str,), "purpose": (str,), "list": (tuple, frozenset), "event": (str,),
    "window": (str,), "command": (str,),
}


# The types of value sure to pass the test of a vocabulary type, so that a call's argument of one
# of them is accepted without calling the test (`_sure_types`); any other value is given the test.
SURE_TYPES: dict[str, frozenset[type]] = {
    "number": frozenset({int}),
    "text": frozenset({str}),
    "piece": frozenset({Piece}),
    "player": frozenset({Player}),
    "actor": frozenset({Piece, Player}),
    "square": frozenset({Square, Piece}),
    "squares": frozenset({frozenset}),
    "state": frozenset({str}),
    "object_type": frozenset({str}),
    "purpose": frozenset({str}),
    "list": frozenset({tuple, frozenset}),
    "event": frozenset({str}),
    "window": frozenset({str}),
    "command": frozenset({str}),
}
NO_TYPES: frozenset[type] = frozenset()


def _sure_types(kind: str, test: KindTest) -> frozenset[type]:
    """The types sure to pass `test`, the test of an argument of type `kind`: the vocabulary's, unless
    the content's words have given the type a test of their own."""
    return SURE_TYPES.get(kind, NO_TYPES) if test is KIND_TESTS.get(kind) else NO_TYPES


def _argument_check(signature: Signature, tests: Mapping[str, KindTest]) -> ArgumentCheck:
    ranges = signature.ranges.items()
    positional = tuple(_argument_test(position, kind, tests.get(kind)) for position, kind in enumerate(signature.positional))
    classes = tuple(CLASS_TESTS[kind] if kind in CLASS_TESTS and tests.get(kind) is KIND_TESTS[kind] else (object,)
                    for kind in signature.positional)
    others = tuple((position, test.test) for position, (test, kinds) in enumerate(zip(positional, classes))
                   if test is not None and kinds == (object,))
    return ArgumentCheck(positional,
                         {name: tests[kind] for name, kind in signature.preps.items() if kind in tests},
                         tuple((key, r) for key, r in ranges if isinstance(key, int)),
                         tuple((key, r) for key, r in ranges if isinstance(key, str)),
                         classes, others)


def _argument_test(position: int, kind: str, test: KindTest | None) -> ArgumentTest | None:
    return None if test is None else ArgumentTest(position, _sure_types(kind, test), test[0], test[1])


def _member_test(members: tuple[str, ...], what: str, piece_too: bool = False) -> KindTest:
    allowed = frozenset(members)
    if piece_too:  # a piece stands for its player's score pile
        return (lambda v: isinstance(v, Piece) or isinstance(v, str) and v in allowed, what)
    return (lambda v: isinstance(v, str) and v in allowed, what)


# Built once per Ruleset (its words), shared by every bout and preview of it.
_CHECKS_BY_WORDS: WeakKeyDictionary[GameWords, ArgumentChecks] = WeakKeyDictionary()


def argument_checks(words: GameWords) -> ArgumentChecks:
    """How each function's and effect's arguments are checked for a Ruleset: the vocabulary's tests,
    and membership of the declared enumerations (each stat group, `pile`, `counter`)."""
    found = _CHECKS_BY_WORDS.get(words)
    if found is None:
        tests = dict(KIND_TESTS)
        for group, stats in words.groups.items():
            tests[group] = _member_test(stats, "a " + group.replace("_", " "))
        tests["pile"] = _member_test(words.piles, "a coin pile (a piece, " + " or ".join(words.piles) + ")", True)
        tests["counter"] = _member_test(tuple(words.counters), "a counter")
        tests["stat"] = _member_test(words.plain, "a stat")
        zones = frozenset(words.zones)
        tests["zone"] = (lambda v: isinstance(v, OwnedZone) or isinstance(v, str) and v in zones, "a zone")
        found = ArgumentChecks({name: _argument_check(sig, tests) for name, sig in VOCABULARY_FUNCTIONS.items()},
                               {name: _argument_check(sig, tests) for name, sig in VOCABULARY_PRIMITIVES.items()},
                               tests)
        _CHECKS_BY_WORDS[words] = found
    return found


_UNRESOLVED = object()  # no value worked out yet for a name
RANGE_HINT = "the checker holds a number written in the script to the same range; this one was worked out in play"


class Asking:
    """The context in which a question is asked (`with interpreter.asking():`): costs and
    requirements are questions, so while one is evaluated nothing may roll dice (`Bout.roll`
    refuses), and asking leaves the bout as it was. Questions nest; each restores the mode it found."""

    __slots__ = ("interpreter", "outer")

    def __init__(self, interpreter: Interpreter):
        self.interpreter = interpreter
        self.outer: list[bool] = []

    def __enter__(self) -> None:
        self.outer.append(self.interpreter.pure)
        self.interpreter.pure = True

    def __exit__(self, *_: object) -> None:
        self.interpreter.pure = self.outer.pop()


class StateQuestions(Protocol):
    """Whether a value is in a state (`engine/conditions.py`)."""

    def has_state(self, piece: Any, state: str) -> bool: ...


class DeclarationScopes(Protocol):
    """The scope of a declaration: its params (`engine/legality.py`)."""

    def declaration_env(self, declaration: A.Declaration) -> Env: ...


class ScriptHost(Protocol):
    """What scripts read of the bout: its rules and object types, the attributes of its fighters and
    declarations, whether a fighter is in a state, and the scope a procedure runs in."""

    ruleset: Ruleset
    object_types: frozenset[str]

    @property
    def conditions(self) -> StateQuestions: ...

    @property
    def legality(self) -> DeclarationScopes: ...

    def is_declaration_id(self, name: str) -> bool: ...

    def piece_attribute(self, piece: Piece | Player, name: str) -> Any: ...

    def declaration_attribute(self, declaration: A.Declaration, name: str) -> Any: ...


class Interpreter(Evaluator):
    __deletable__ = ("_asking",)  # let go of by a preview's copy (`WhatIf.let_go`)

    def __init__(self, host: ScriptHost, limits: Limits):
        self.host = host
        self.limits = limits
        self.max_number = limits.max_number
        self.steps = 0
        self.pure = False  # True while a question is asked (`asking`): evaluating may not roll dice
        self._asking = Asking(self)
        self.functions = {}
        self.primitives: Mapping[str, Callable[..., Any]] = {}
        self.checks = argument_checks(host.ruleset.words)
        self.procedures = host.ruleset.scripts.get("procedure", {})
        self.procedure_depth = 0
        # The value of each name no scope binds, worked out once per ruleset (`resolve_unbound`).
        self.unbound_values = host.ruleset.derived("unbound_values")

    def has_state(self, value: Any, state: str) -> bool:
        """Whether a value is in a state (`value is <state>`)."""
        return self.host.conditions.has_state(value, state)

    def asking(self) -> Asking:
        """`with interpreter.asking():` around every evaluation of a cost or a requirement."""
        return self._asking

    def reset_budget(self) -> None:
        self.steps = 0

    def _spend(self, node: A.Node, env: Env) -> None:
        self.steps += 1
        if self.steps > self.limits.max_steps:
            raise fault(node, env, "budget_exceeded", f"the script ran more than {self.limits.max_steps} steps")

    # ---------------------------------------------------------------- numbers
    def bounded(self, value: int, node: A.Node | None, env: Env | None, what: str = "the result") -> int:
        """`value` if it lies within ±max_number; beyond it the script stops."""
        limit = self.limits.max_number
        if -limit <= value <= limit:
            return value
        raise fault(node, env, "number_too_large", f"{what} is {_magnitude(value)}, beyond the limit of ±{limit}",
                    hint="scripts compute with numbers up to the engine's `max_number`")

    def amount(self, value: Any, node: A.Node | None, env: Env | None, what: str, negative: bool = False) -> int:
        """A number a mechanism will use (a cost, an amount of coins or points): whole, within
        ±max_number, and not below 0 unless `negative` allows it."""
        if not is_number(value):
            raise fault(node, env, "wrong_type", f"{what} must be a number, got {describe_value(value)}")
        limit = self.limits.max_number
        if not -limit <= value <= limit:
            self.bounded(value, node, env, what)  # the fault
        if value < 0 and not negative:
            raise fault(node, env, "negative_amount", f"{what} must be 0 or more, got {value}")
        return value

    # ---------------------------------------------------------------- expressions
    def evaluate(self, expr: A.Expr, env: Env) -> Any:
        # The engine's hottest call (legality asks it per option): each node is compiled once into
        # a closure kept on the node (`compiled.py`), which does what the evaluators below do.
        closure = expr._closure
        if closure is None:
            closure = closure_of(expr)
        return closure(self, env)

    def index_of(self, container: Any, index: Any, expr: A.Index, env: Env) -> Any:
        if not isinstance(container, tuple) or not is_number(index):
            raise fault(expr, env, "bad_index", f"cannot index {describe_value(container)} with {describe_value(index)}")
        try:
            return container[index]
        except IndexError:
            raise fault(expr, env, "bad_index", f"cannot index {describe_value(container)} with {index}") from None

    def resolve_unbound(self, name: A.Name, env: Env) -> Any:
        """The value of a name no scope binds: a rule param's setting, or a word that stands for itself.
        It depends on the content alone, so it is worked out once per ruleset."""
        known = self.unbound_values.get(name.id, _UNRESOLVED)
        if known is not _UNRESOLVED:
            return known
        settings = self.host.ruleset.settings
        if name.id in settings:
            value = settings[name.id]
        elif (is_symbol(name.id) or name.id in self.host.object_types or self.host.is_declaration_id(name.id)
                or name.id in VOCABULARY_PURPOSES):  # `signal <event>` (a declaration), `die(d8, 8)`
            value = name.id
        else:
            raise fault(name, env, "unknown_name", f"`{name.id}` has no value here")
        self.unbound_values[name.id] = value
        return value

    def _number(self, expr: A.Expr, env: Env) -> int:
        value = self.evaluate(expr, env)
        if not is_number(value):
            raise fault(expr, env, "wrong_type", f"expected a number, got {describe_value(value)}")
        return value

    def attribute_of(self, obj: Any, expr: A.Attr, env: Env) -> Any:
        try:
            if isinstance(obj, (Piece, Player)):
                return self.host.piece_attribute(obj, expr.name)
            if isinstance(obj, Square) and expr.name in ("col", "row"):
                return getattr(obj, expr.name)
            if isinstance(obj, A.Declaration) and expr.name in ("id", "group", "tags"):
                return self.host.declaration_attribute(obj, expr.name)
        except AttributeError:
            pass
        raise fault(expr, env, "wrong_type", f"{describe_value(obj)} has no attribute `{expr.name}`")

    def run_procedure(self, procedure: A.Declaration, values: tuple[Any, ...] = ()) -> Run:
        """Run a procedure the engine itself calls (a game's verdict, a turn's closing), with no one
        acting, `values` bound to its args (the checker holds their number to the call's)."""
        names = {arg.name: value for arg, value in zip(procedure.clauses_of(A.Arg), values)}
        body = Env(names, self.host.legality.declaration_env(procedure))
        for effect in procedure.clauses_of(A.Effect):
            yield from self.run_block(effect.body, body) or ()

    def _run_procedure(self, procedure: A.Declaration, action: A.Action, env: Env) -> Run:
        """Run a procedure's effects with the values of the call bound to its args (each checked
        against its arg's type), its params, and nothing of the caller's but who is acting."""
        args = procedure.clauses_of(A.Arg)
        if len(action.args) != len(args) or action.preps:
            raise fault(action, env, "wrong_type", f"`{procedure.id}` takes {len(args)} argument(s), in order")
        names: dict[str, Any] = {}
        for arg, expr in zip(args, action.args):
            value = self.evaluate(expr, env)
            test = self.checks.tests.get(arg.type.name) if isinstance(arg.type, A.NamedType) else None
            if test is not None and not test[0](value):
                raise fault(expr, env, "wrong_type", f"`{procedure.id}` needs {test[1]} for `{arg.name}`, "
                                                     f"got {describe_value(value)}")
            names[arg.name] = value
        if self.procedure_depth >= self.limits.max_procedure_depth:
            raise fault(action, env, "budget_exceeded",
                        f"procedures ran procedures more than {self.limits.max_procedure_depth} deep")
        self.procedure_depth += 1
        try:
            body = Env(names, self.host.legality.declaration_env(procedure), source=env.source)
            for effect in procedure.clauses_of(A.Effect):
                yield from self.run_block(effect.body, body) or ()
        finally:
            self.procedure_depth -= 1

    def call_plan(self, call: A.Call) -> CallPlan:
        """How `call` runs with this interpreter's functions and argument checks (its closure keeps
        the plan while they stay the same): the function it names, or None (a fault when it is
        called), and the tests and ranges of its arguments."""
        function = self.functions.get(call.func)
        check = self.checks.functions.get(call.func)
        if check is None:
            return CallPlan(self.functions, self.checks, function, (), (), self._within)
        given = len(call.args)  # a test or range for an argument the call leaves out is not applied
        tests = tuple(test for test in check.positional if test is not None and test.position < given)
        ranges = tuple((position, number_range) for position, number_range in check.positional_ranges
                       if position < given)
        return CallPlan(self.functions, self.checks, function, tests, ranges, self._within)

    def _check_arguments(self, name: str, tests: tuple[ArgumentTest | None, ...],
                         values: list[Any], nodes: tuple[A.Expr, ...], env: Env) -> None:
        for test, value, node in zip(tests, values, nodes):
            # (position, sure types, test, what): a value of a sure type needs no test
            if test is not None and type(value) not in test[1] and not test[2](value):
                raise fault(node, env, "wrong_type", f"`{name}` needs {test[3]} here, got {describe_value(value)}")

    @staticmethod
    def _within(number_range: NumberRange, value: int, node: A.Node, env: Env) -> int:
        """A number argument held to its vocabulary range (its type is already checked): the value
        itself, the low end for a value below a range that clamps, or a fault at the call or effect."""
        if number_range.low <= value <= number_range.high:
            return value
        if number_range.accepts(value):
            return number_range.low
        raise fault(node, env, "bad_value", number_range.refusal(value), RANGE_HINT)

    # ---------------------------------------------------------------- statements
    # Each statement is run by the step of its kind (`_STEPS`, chosen by the statement's class once,
    # not by a chain of tests at every run). A step does what needs no decision at once and hands
    # back what is left to run as a generator (an effect that opens a window or asks a player, and
    # the block or loop around it from there on), or None: most statements (marking, sliding a roll,
    # setting a stat, an `if` whose branch does such things) run whole in the call, and a block runs
    # as far as it can the same way (`run_block`), so no generator is made until something waits.
    def execute(self, block: A.Block, env: Env) -> Run:
        yield from self.run_block(block, env) or ()

    def run_block(self, block: A.Block, env: Env) -> Run | None:
        """Run a block as far as it goes without waiting: None once it ran to its end, else a
        generator running the rest (the statement that waits, then those after it)."""
        # A block binds its names (`let`, `choose ... into`) in a scope of its own; one binding none
        # runs in the scope it is given, the same names seen through it.
        binds = block.__dict__.get("_binds")
        if binds is None:
            binds = _binds_names(block)
        local = Env.owning({}, env) if binds else env
        statements = block.statements
        waiting = self._run_until_waiting(statements, 0, local)
        return None if waiting is None else self._run_waiting(waiting, statements, local)

    def _run_until_waiting(self, statements: tuple[A.Stmt, ...], start: int, local: Env) -> _Waiting | None:
        """Run statements from `start` on until one hands back something to wait for: that, the
        statement, and where to go on from; None once they all ran."""
        limit = self.limits.max_steps
        for index in range(start, len(statements)):
            stmt = statements[index]
            self.steps += 1
            if self.steps > limit:
                raise fault(stmt, local, "budget_exceeded", f"the script ran more than {limit} steps")
            try:
                rest = self._step(stmt, local)
            except ScriptRuntimeError as error:
                raise fault_at(error, stmt, local) from None
            if rest is not None:
                return rest, stmt, index + 1
        return None

    def _run_waiting(self, waiting: _Waiting | None, statements: tuple[A.Stmt, ...], local: Env) -> Run:
        """The rest of a block once a statement waits: that statement's rest, then the following ones."""
        while waiting is not None:
            # Nothing but this frame's `yield from` holds what it waits for: a suspended bout is read
            # as state frame by frame (`fingerprint.py`), and each reference would be read again.
            rest, stmt, index = waiting
            waiting = None
            try:
                yield from rest
            except ScriptRuntimeError as error:
                raise fault_at(error, stmt, local) from None
            waiting = self._run_until_waiting(statements, index, local)

    def _step(self, stmt: A.Stmt, local: Env) -> Run | None:
        """Run one statement by the step of its kind, chosen by its exact class: a chain of tests on
        the class, not a table of steps, so that the compiled engine calls each step directly."""
        kind = type(stmt)
        if kind is _ACTION:
            return self._effect(cast(A.Action, stmt), local)
        if kind is _IF:
            return self._if(cast(A.If, stmt), local)
        if kind is _LET:
            self._let(cast(A.Let, stmt), local)
            return None
        if kind is _FOR_EACH:
            return self._for_each(cast(A.ForEach, stmt), local)
        if kind is _SET:
            self._set(cast(A.Set, stmt), local)
            return None
        if kind is _REPEAT:
            return self._repeat(cast(A.Repeat, stmt), local)
        self._unknown_step(stmt, local)  # which faults
        return None

    # The steps below ask each expression's compiled closure as `evaluate` does, without the call.
    def _let(self, stmt: A.Let, local: Env) -> None:
        value = stmt.value
        local.names[stmt.name] = (value.__dict__.get("_closure") or closure_of(value))(self, local)

    def _set(self, stmt: A.Set, local: Env) -> None:
        # The checker holds `set` to names a `let` bound; a Ruleset put together without it meets
        # a fault here rather than a new name.
        value = stmt.value
        if not local.rebind(stmt.name, (value.__dict__.get("_closure") or closure_of(value))(self, local)):
            raise fault(stmt, local, "unknown_name", f"`set {stmt.name}`: `{stmt.name}` is not bound here")

    def _if(self, stmt: A.If, local: Env) -> Run | None:
        for branch in stmt.branches:
            condition = branch.condition
            if (condition.__dict__.get("_closure") or closure_of(condition))(self, local):
                return self.run_block(branch.body, local)
        if stmt.otherwise is not None:
            return self.run_block(stmt.otherwise, local)
        return None

    def _repeat(self, stmt: A.Repeat, local: Env) -> Run | None:
        count = self._number(stmt.count, local)
        if count > self.limits.max_repeat:
            raise fault(stmt, local, "budget_exceeded",
                        f"`repeat {count}` is more than the limit of {self.limits.max_repeat}")
        # A turn for each item of a plain tuple (not a range: a waiting loop's frame is read as state).
        return self._loop(stmt, (None,) * max(0, count), local)

    def _unknown_step(self, stmt: A.Node, local: Env) -> None:
        raise fault(stmt, local, "feature_not_available", f"{type(stmt).__name__} cannot be executed")

    def _for_each(self, stmt: A.ForEach, local: Env) -> Run | None:
        items = self.evaluate(stmt.iterable, local)
        if not isinstance(items, (tuple, frozenset)):
            raise fault(stmt.iterable, local, "wrong_type", f"`for each` walks a list or a set of squares, "
                                                            f"got {describe_value(items)}")
        if len(items) > self.limits.max_collection:
            raise fault(stmt, local, "budget_exceeded",
                        f"`for each` over {len(items)} items (limit {self.limits.max_collection})")
        return self._loop(stmt, sorted(items) if isinstance(items, frozenset) else items, local)

    def _loop(self, stmt: A.ForEach | A.Repeat, items: Sequence[Any], local: Env) -> Run | None:
        """A loop's body run once per item (`for each` binds each in a scope of its own; `repeat`
        binds nothing), as far as it goes without waiting, like a block."""
        waiting = self._loop_until_waiting(stmt, items, 0, local)
        return None if waiting is None else self._loop_waiting(waiting, stmt, items, local)

    def _loop_until_waiting(self, stmt: A.ForEach | A.Repeat, items: Sequence[Any], start: int,
                            local: Env) -> tuple[Run, int] | None:
        var = stmt.var if isinstance(stmt, A.ForEach) else None
        for index in range(start, len(items)):
            self._spend(stmt, local)
            rest = self.run_block(stmt.body, local if var is None else Env.owning({var: items[index]}, local))
            if rest is not None:
                return rest, index + 1
        return None

    def _loop_waiting(self, waiting: tuple[Run, int] | None, stmt: A.ForEach | A.Repeat, items: Sequence[Any],
                      local: Env) -> Run:
        while waiting is not None:
            rest, index = waiting
            waiting = None  # held once, as in `_run_waiting`
            yield from rest
            waiting = self._loop_until_waiting(stmt, items, index, local)

    def _effect(self, action: A.Action, env: Env) -> Run | None:
        plan: EffectPlan | None = action.__dict__.get("_effect")
        if plan is None:
            plan = _effect_plan(action)
        if plan.primitives is not self.primitives or plan.checks is not self.checks:
            plan.bind(self.primitives, self.checks, action.verb)
        primitive = plan.primitive
        if primitive is None:
            procedure = self.procedures.get(action.verb)
            if procedure is None:
                raise fault(action, env, "feature_not_available", f"effect `{action.verb}` is not available")
            return self._run_procedure(procedure.declaration, action, env)
        # An event or a window is named by its word (`record deceived`), whatever a script has
        # given the same name to: the two are apart, as the checker reads them.
        args: list[Any] = []
        for word, closure in plan.arguments:
            args.append(word if closure is None else closure(self, env))
        checks = plan.check
        assert checks is not None  # every effect has its checks (`argument_checks`)
        if plan.prepositions:
            return self._effect_with_preps(primitive, plan.prepositions, checks, args, action, env)
        # `_check_arguments`, asking each class with no call; once one fails, asked in full, in order,
        # so the fault is at the first argument that fails.
        for classes, value in zip(checks.positional_classes, args):
            if not isinstance(value, classes):
                self._check_arguments(action.verb, checks.positional, args, action.args, env)
        for position, test in checks.positional_others:
            if position < len(args) and not test(args[position]):
                self._check_arguments(action.verb, checks.positional, args, action.args, env)
        for position, number_range in checks.positional_ranges:
            if position < len(args):
                args[position] = self._within(number_range, args[position], action, env)
        try:
            result = primitive(self.host, env, action, *args)
        except ScriptRuntimeError as error:
            raise fault_at(error, action, env) from None
        except VALUE_ERRORS as error:
            raise self._failed(action, env, error) from None
        return None if result is None else self._effect_rest(result, action, env)

    def _effect_with_preps(self, primitive: Callable[..., Any], prepositions: _Prepositions, checks: ArgumentCheck,
                           args: list[Any], action: A.Action, env: Env) -> Run | None:
        """An effect with prepositions (`damage target by 2 at where`): each worked out after the
        arguments and before any is checked, checked once the arguments are, and handed to the
        effect by name."""
        # A `name` argument (`choose ... into pick`) is the name to bind, not a value to look up.
        preps: dict[str, Any] = {}
        for name, closure, value in prepositions:
            preps[name] = value if closure is None else closure(self, env)
        self._check_arguments(action.verb, checks.positional, args, action.args, env)
        for prep in action.preps:
            test = checks.preps.get(prep.prep)
            if test is not None and not test[0](preps[prep.prep]):
                raise fault(prep.value, env, "wrong_type",
                            f"`{action.verb} ... {prep.prep}` needs {test[1]}, got {describe_value(preps[prep.prep])}")
        for position, number_range in checks.positional_ranges:
            if position < len(args):
                args[position] = self._within(number_range, args[position], action, env)
        for name, number_range in checks.prep_ranges:
            if name in preps:
                preps[name] = self._within(number_range, preps[name], action, env)
        try:
            result = primitive(self.host, env, action, *args, **preps)
        except ScriptRuntimeError as error:
            raise fault_at(error, action, env) from None
        except VALUE_ERRORS as error:
            raise self._failed(action, env, error) from None
        return None if result is None else self._effect_rest(result, action, env)

    def _effect_rest(self, rest: Run, action: A.Action, env: Env) -> Run:
        """What an effect still has to run once called (it opens a window, asks a player...)."""
        try:
            yield from rest
        except ScriptRuntimeError as error:
            raise fault_at(error, action, env) from None
        except VALUE_ERRORS as error:
            raise self._failed(action, env, error) from None

    @staticmethod
    def _failed(action: A.Action, env: Env, error: Exception) -> ScriptRuntimeError:
        return fault(action, env, INTERNAL, f"`{action.verb}` failed: {type(error).__name__}: {error}", INTERNAL_HINT)


_Waiting = tuple[Run, A.Stmt, int]  # a statement's rest to wait for, the statement, the index of the next
# The classes of statement, held as constants of the module (`Interpreter._step`).
_ACTION: Final = A.Action
_IF: Final = A.If
_LET: Final = A.Let
_FOR_EACH: Final = A.ForEach
_SET: Final = A.Set
_REPEAT: Final = A.Repeat


# The argument types named by a word of the game, never a value: the events and the windows; and
# where each effect takes one (worked out once, not at every call).
WORD_ARGUMENTS = frozenset({"event", "window"})
WORD_POSITIONS: dict[str, frozenset[int]] = {
    verb: frozenset(position for position, kind in enumerate(signature.positional) if kind in WORD_ARGUMENTS)
    for verb, signature in VOCABULARY_PRIMITIVES.items()}


_Arguments = tuple[tuple[str | None, Closure | None], ...]  # each: the word it names, or the closure working it out
_Prepositions = tuple[tuple[str, Closure | None, A.Expr], ...]  # each: its name, its closure (None: binds its name)


class EffectPlan:
    """An effect statement as it runs, worked out once and kept on the statement: its arguments
    (`_effect_plan`); and, for the table of effects and the argument checks of the interpreter it
    last ran in (shared by every bout and preview of a ruleset), the effect its verb names (None:
    a procedure, or nothing) and that effect's checks, found again only when it meets others."""

    __slots__ = ("arguments", "prepositions", "primitives", "checks", "primitive", "check")

    def __init__(self, arguments: _Arguments, prepositions: _Prepositions):
        self.arguments = arguments
        self.prepositions = prepositions
        self.primitives: Mapping[str, Callable[..., Any]] | None = None
        self.checks: ArgumentChecks | None = None
        self.primitive: Callable[..., Any] | None = None
        self.check: ArgumentCheck | None = None

    def bind(self, primitives: Mapping[str, Callable[..., Any]], checks: ArgumentChecks, verb: str) -> None:
        self.primitive = primitives.get(verb)
        self.check = checks.primitives[verb] if self.primitive is not None else None
        self.primitives, self.checks = primitives, checks


def _effect_plan(action: A.Action) -> EffectPlan:
    """An effect's arguments as it runs them, read once per statement and kept on it: each the word
    it names (an event, a window) or the compiled closure of a value to work out; and each
    preposition with its closure, or None for a name to bind (`choose ... into pick`)."""
    found = action.__dict__.get("_effect")
    if found is None:
        words = WORD_POSITIONS.get(action.verb, frozenset())
        signature = VOCABULARY_PRIMITIVES.get(action.verb)
        binds = signature.preps if signature is not None else {}
        found = EffectPlan(
            tuple((expr.id, None) if position in words and isinstance(expr, A.Name) else (None, closure_of(expr))
                  for position, expr in enumerate(action.args)),
            tuple((p.prep, None if binds.get(p.prep) == "name" else closure_of(p.value), p.value)
                  for p in action.preps))
        object.__setattr__(action, "_effect", found)
    return found  # type: ignore[no-any-return]


def _binds_names(block: A.Block) -> bool:
    """Whether a block binds a name of its own: a `let`, or an effect binding one (`... into pick`).
    Read once per block and kept on it."""
    found = block.__dict__.get("_binds")
    if found is None:
        found = any(isinstance(stmt, A.Let) or isinstance(stmt, A.Action)
                    and any(closure is None for _, closure, _ in _effect_plan(stmt).prepositions)
                    for stmt in block.statements)
        object.__setattr__(block, "_binds", found)
    return found  # type: ignore[no-any-return]


def _magnitude(value: int) -> str:
    """A huge number in a message: its sign and number of digits, not all of them."""
    digits = len(str(abs(value)))
    return str(value) if digits <= 30 else f"{'-' if value < 0 else ''}a number of {digits} digits"
