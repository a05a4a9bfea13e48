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
from sys import intern
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
from .attributes import ReadingHost, piece_attributes
from .bindable import bindable_names
from .board import Square
from .compiled import ArgumentCheck, ArgumentChecks, ArgumentTest, CallPlan, Closure, KindTest, WordTest, closure_of
from .compiled import Interpreter as Evaluator
from .scope import INTERNAL, INTERNAL_HINT, VALUE_ERRORS, Env, describe_value, fault, fault_at, is_number
from .state import Piece, Player
from .text_facts import engine_fact

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
    "direction": (WordTest(DIRECTIONS), "a direction"),
    "state": (lambda v: isinstance(v, str), "a state"),
    "resource": (WordTest(frozenset(RESOURCES)), "AP or MP"),
    "object_type": (lambda v: isinstance(v, str), "an object type"),
    "roll_side": (WordTest(frozenset(ROLL_SIDES)), "a roll side (attack, defense or check)"),
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


def _vocabulary_test(kind: str, test: KindTest | None) -> bool:
    """Whether `test` is the vocabulary's own test of `kind`, not one the content's words have given
    the type. Told by its function: the compiled engine holds a test's pair unboxed, and boxes it
    again, a new tuple, each time it is read from a table."""
    known = KIND_TESTS.get(kind)
    return test is not None and known is not None and test[0] is known[0]


def _sure_types(kind: str, test: KindTest) -> frozenset[type]:
    """The types sure to pass `test`, the test of an argument of type `kind`: the vocabulary's, unless
    the content's words have given the type a test of their own."""
    return SURE_TYPES.get(kind, NO_TYPES) if _vocabulary_test(kind, test) else NO_TYPES


def _argument_check(signature: Signature, tests: Mapping[str, KindTest]) -> ArgumentCheck:
    ranges = signature.ranges.items()
    positional = tuple(_argument_test(position, kind, tests.get(kind)) for position, kind in enumerate(signature.positional))
    classes = tuple(CLASS_TESTS[kind] if kind in CLASS_TESTS and _vocabulary_test(kind, tests.get(kind)) else (object,)
                    for kind in signature.positional)
    others = tuple((position, test.test) for position, (test, kinds) in enumerate(zip(positional, classes))
                   if test is not None and kinds == (object,))
    return ArgumentCheck(positional,
                         {name: tests[kind] for name, kind in signature.preps.items() if kind in tests},
                         tuple((key, r) for key, r in ranges if isinstance(key, int)),
                         tuple((key, r) for key, r in ranges if isinstance(key, str)),
                         classes, others, tuple(kinds[0] for kinds in classes))


def _argument_test(position: int, kind: str, test: KindTest | None) -> ArgumentTest | None:
    return None if test is None else ArgumentTest(position, _sure_types(kind, test), test[0], test[1])


def _member_test(members: tuple[str, ...], what: str, piece_too: bool = False) -> KindTest:
    return (WordTest(frozenset(members), piece_too), what)  # `piece_too`: a piece stands for its player's pile


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
        tests["zone"] = (WordTest(frozenset(words.zones), zone_too=True), "a zone")
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


class DeclarationScopes(Protocol):
    """The scope of a declaration: its params (`engine/legality.py`)."""

    def declaration_env(self, declaration: A.Declaration) -> Env: ...


class ScriptHost(ReadingHost, Protocol):
    """What scripts read of the bout: its rules and object types, its state (for the attributes of
    its fighters: `ReadingHost`), the attributes of its declarations, and the scope a procedure
    runs in."""

    ruleset: Ruleset
    object_types: frozenset[str]

    @property
    def legality(self) -> DeclarationScopes: ...

    def is_declaration_id(self, name: str) -> bool: ...

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
        # Every name a scope may bind with this ruleset: any other is read with no scope searched.
        ruleset = host.ruleset
        self.bindable = ruleset.derived("bindable_names", lambda: bindable_names(ruleset))
        self.attributes = piece_attributes(host.ruleset)

    def has_state(self, value: Any, state: str) -> bool:
        """Whether a value is in a state (`value is <state>`)."""
        return self.attributes.has_state(value, state)

    def asking(self) -> Asking:
        """`with interpreter.asking():` around every evaluation of a cost or a requirement."""
        return self._asking

    def reset_budget(self) -> None:
        self.steps = 0

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
        closure: Closure | None = expr._closure
        if closure is None:
            closure = closure_of(expr)
        return closure.run(self, env)

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

    def attribute_of(self, obj: Any, expr: A.Attr, env: Env) -> Any:
        try:
            if isinstance(obj, (Piece, Player)):
                return self.attributes.read(self.host, obj, expr.name)
            if isinstance(obj, Square) and expr.name in ("col", "row"):
                return getattr(obj, expr.name)
            if isinstance(obj, A.Declaration) and expr.name in ("id", "group", "tags"):
                return self.host.declaration_attribute(obj, expr.name)
        except AttributeError:
            pass
        raise fault(expr, env, "wrong_type", f"{describe_value(obj)} has no attribute `{expr.name}`")

    def run_procedure(self, procedure: A.Declaration, values: tuple[Any, ...] = ()) -> Run | None:
        """Run a procedure the engine itself calls (a game's verdict, a turn's closing), with no one
        acting, `values` bound to its args (the checker holds their number to the call's), as far as
        it goes without waiting (`run_plan`): None once it ran to its end, else the rest to run."""
        plan = procedure_plan(procedure)
        # The args' scope, made for this one call (its dictionary its own, not copied). A lone effect
        # (nearly every procedure) binds its names there (`run_in`); of several, each binds its own
        # in a scope of its own, so that none sees what another bound.
        body = Env(dict(zip(plan.args, values)), self.host.legality.declaration_env(procedure), None, None, True)
        return self._run_bodies(plan, body, 0)

    def _run_procedure(self, procedure: A.Declaration, plan: ProcedurePlan, action: EffectStep,
                       env: Env) -> Run | None:
        """Run a procedure's effects with the values of the call bound to its args (each checked
        against its arg's type), its params, and nothing of the caller's but who is acting, as far
        as they go without waiting (a generator of the rest, or None: no generator is made for a
        procedure that runs whole). `action` is the effect statement calling it, its plan
        (`procedure_plan`) at hand."""
        args = plan.args
        if len(action.arg_nodes) != len(args) or action.prepositions:
            raise fault(action.node, env, "wrong_type", f"`{procedure.id}` takes {len(args)} argument(s), in order")
        names: dict[str, Any] = {}
        tests = self.checks.tests
        for position in range(len(args)):
            expr = action.arg_nodes[position]
            value = self._argument(action, position, env)
            kind = plan.kinds[position]
            test = tests.get(kind) if kind is not None else None
            if test is not None and not test[0](value):
                raise fault(expr, env, "wrong_type", f"`{procedure.id}` needs {test[1]} for `{args[position]}`, "
                                                     f"got {describe_value(value)}")
            names[args[position]] = value
        if self.procedure_depth >= self.limits.max_procedure_depth:
            raise fault(action.node, env, "budget_exceeded",
                        f"procedures ran procedures more than {self.limits.max_procedure_depth} deep")
        self.procedure_depth += 1
        try:
            # As in `run_procedure`: the args' scope made for this call, a lone effect binding there.
            body = Env(names, self.host.legality.declaration_env(procedure), env.source, None, True)
            rest = self._run_bodies(plan, body, 0)
        except BaseException:
            self.procedure_depth -= 1
            raise
        if rest is None:
            self.procedure_depth -= 1
            return None
        return self._procedure_rest(rest)

    def _procedure_rest(self, rest: Run) -> Run:
        """The rest of a procedure that waits; its depth given back once it ends (or is let go of)."""
        try:
            yield from rest
        finally:
            self.procedure_depth -= 1

    def _run_bodies(self, plan: ProcedurePlan, body: Env, start: int) -> Run | None:
        """A procedure's effects from the `start`th on in the args' scope `body`, as far as they go
        without waiting: a lone one binding there (`run_in`), each of several in a scope of its own."""
        bodies = plan.bodies
        if start == 0 and len(bodies) == 1:
            return self.run_in(bodies[0], body)
        for index in range(start, len(bodies)):
            rest = self.run_plan(bodies[index], body)
            if rest is not None:
                return self._bodies_rest(rest, plan, body, index + 1)
        return None

    def _bodies_rest(self, rest: Run, plan: ProcedurePlan, body: Env, following: int) -> Run:
        """A procedure's effect that waits, then the effects following it."""
        yield from rest
        more = self._run_bodies(plan, body, following)
        if more is not None:
            yield from more

    def _argument(self, action: EffectStep, position: int, env: Env) -> Any:
        """The value of an effect statement's argument (apart from its frame: a suspended bout's
        frames are read as state, and a closure is none of it)."""
        closure = action.closures[position]
        return (closure_of(action.arg_nodes[position]) if closure is None else closure).run(self, env)

    def call_plan(self, call: A.Call) -> CallPlan:
        """How `call` runs with this interpreter's functions and argument checks (its closure keeps
        the plan while they stay the same): the function it names, or None (a fault when it is
        called), and the tests and ranges of its arguments."""
        function = self.functions.get(call.func)
        check = self.checks.functions.get(call.func)
        if check is None:
            return CallPlan(self.functions, self.checks, function, (), (), self._within, len(call.args))
        given = len(call.args)  # a test or range for an argument the call leaves out is not applied
        tests = tuple(test for test in check.positional if test is not None and test.position < given)
        ranges = tuple((position, number_range.low, number_range.high, number_range)
                       for position, number_range in check.positional_ranges if position < given)
        return CallPlan(self.functions, self.checks, function, tests, ranges, self._within, len(call.args))

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
    # Each block is compiled once into a plan kept on its node (`BlockPlan`): each statement a step
    # object holding its parts read from the syntax tree once (its expressions' closures, the plans
    # of its blocks), run by the step's own method. A step does what needs no decision at once and
    # hands back what is left to run as a generator (an effect that opens a window or asks a player,
    # and the block or loop around it from there on), or None: most statements (marking, sliding a
    # roll, setting a stat, an `if` whose branch does such things) run whole in the call, and a block
    # runs as far as it can the same way (`run_block`), so no generator is made until something waits.
    def execute(self, block: A.Block, env: Env) -> Run:
        yield from self.run_block(block, env) or ()

    def run_block(self, block: A.Block, env: Env) -> Run | None:
        """Run a block as far as it goes without waiting: None once it ran to its end, else a
        generator running the rest (the statement that waits, then those after it)."""
        plan = block._closure
        if plan is None:
            plan = block_plan(block)
        return self.run_plan(plan, env)

    def run_plan(self, plan: BlockPlan, env: Env) -> Run | None:
        """`run_block` of the block a plan was made for, the plan at hand (`block_plan`)."""
        # A block binds its names (`let`, `choose ... into`) in a scope of its own; one binding none
        # runs in the scope it is given, the same names seen through it.
        return self.run_in(plan, Env.owning({}, env) if plan.binds else env)

    def run_in(self, plan: BlockPlan, local: Env) -> Run | None:
        """`run_plan` of a block in `local`, a scope made for this one run of it (a loop's turn, a
        procedure's body): the names the block binds are bound there, beside those it was made
        with, rather than in a scope of their own below it. Every read and `set` finds what it
        would find through the two scopes, as no name is read between their making."""
        waiting = self._run_until_waiting(plan.steps, 0, local)
        return None if waiting is None else self._run_waiting(waiting, plan, local)

    def _run_until_waiting(self, steps: tuple[Step, ...], start: int, local: Env) -> _Waiting | None:
        """Run statements from `start` on until one hands back something to wait for: that, the
        statement, and where to go on from; None once they all ran."""
        limit = self.limits.max_steps
        for index in range(start, len(steps)):
            step = steps[index]
            self.steps += 1
            if self.steps > limit:
                raise fault(step.node, local, "budget_exceeded", f"the script ran more than {limit} steps")
            try:
                rest = step.run(self, local)
            except ScriptRuntimeError as error:
                raise fault_at(error, step.node, local) from None
            if rest is not None:
                return rest, step.node, index + 1
        return None

    def _run_waiting(self, waiting: _Waiting | None, plan: BlockPlan, local: Env) -> Run:
        """The rest of a block once a statement waits: that statement's rest, then the following ones."""
        while waiting is not None:
            # Nothing but this frame's `yield from` holds what it waits for: a suspended bout is read
            # as state frame by frame (`fingerprint.py`, which reads a plan as the block it was made
            # for), and each reference would be read again.
            rest, stmt, index = waiting
            waiting = None
            try:
                yield from rest
            except ScriptRuntimeError as error:
                raise fault_at(error, stmt, local) from None
            waiting = self._run_until_waiting(plan.steps, index, local)

    def _loop(self, loop: LoopStep, items: Sequence[Any], local: Env) -> Run | None:
        """A loop's body run once per item (`for each` binds each in a scope of its own; `repeat`
        binds nothing), as far as it goes without waiting, like a block."""
        waiting = self._loop_until_waiting(loop.node, loop.var, loop.body, items, 0, local)
        return None if waiting is None else self._loop_waiting(waiting, loop, items, local)

    def _loop_until_waiting(self, node: A.Stmt, var: str | None, body: BlockPlan, items: Sequence[Any], start: int,
                            local: Env) -> tuple[Run, int] | None:
        limit = self.limits.max_steps
        scope: Env | None = None  # `for each`: the scope of the turns run here (`_turn_scope`)
        for index in range(start, len(items)):
            self.steps += 1  # a step for each turn, as for each statement
            if self.steps > limit:
                raise fault(node, local, "budget_exceeded", f"the script ran more than {limit} steps")
            if var is None:
                rest = self.run_plan(body, local)
            else:
                scope = self._turn_scope(scope, var, items[index], body, local)
                rest = self.run_in(body, scope)
            if rest is not None:
                return rest, index + 1
        return None

    @staticmethod
    def _turn_scope(last: Env | None, var: str, item: Any, body: BlockPlan, local: Env) -> Env:
        """The scope of a turn of `for each`: the item bound to its name, and the body's own names
        bound beside it (`run_in`). The last turn's scope made again in place when there is one: a
        turn that ran to its end leaves nothing holding its scope (a statement is handed its scope
        for the statement alone, and one that waits ends the turns run here), so the scope is
        emptied of that turn's names and given the item as a new scope would be."""
        if last is None:
            return Env.owning({var: item}, local)
        names = last.names
        if body.binds:
            names.clear()
        names[var] = item
        return last

    def _loop_waiting(self, waiting: tuple[Run, int] | None, loop: LoopStep, items: Sequence[Any],
                      local: Env) -> Run:
        # The frame holds the loop's step, read as its statement (`fingerprint.py`), as in `_run_waiting`.
        while waiting is not None:
            rest, index = waiting
            waiting = None  # held once, as in `_run_waiting`
            yield from rest
            waiting = self._loop_until_waiting(loop.node, loop.var, loop.body, items, index, local)

    def _effect(self, step: EffectStep, env: Env) -> Run | None:
        action = step.action
        if step.primitives is not self.primitives or step.checks is not self.checks:
            step.bind(self.primitives, self.checks)
        primitive = step.primitive
        if primitive is None:
            if step.procedures is not self.procedures:
                step.bind_procedure(self.procedures)
            procedure = step.procedure
            plan = step.procedure_plan
            if procedure is None or plan is None:
                raise fault(action, env, "feature_not_available", f"effect `{step.verb}` is not available")
            return self._run_procedure(procedure, plan, step, env)
        if step.quick:
            return self._effect_quick(primitive, step, env)
        # An event or a window is named by its word (`record deceived`), whatever a script has
        # given the same name to: the two are apart, as the checker reads them.
        words = step.words
        closures = step.closures
        args: list[Any] = []
        for position in range(len(closures)):
            closure = closures[position]
            args.append(words[position] if closure is None else closure.run(self, env))
        checks = step.check
        assert checks is not None  # every effect has its checks (`argument_checks`)
        if step.prepositions:
            return self._effect_with_preps(primitive, step, checks, args, env)
        # `_check_arguments`, asking each class with no call; once one fails, asked in full, in order,
        # so the fault is at the first argument that fails.
        classes = checks.positional_classes
        firsts = checks.positional_first
        for position in range(min(len(classes), len(args))):
            arg = args[position]
            if type(arg) is not firsts[position] and not isinstance(arg, classes[position]):
                self._check_arguments(step.verb, checks.positional, args, step.arg_nodes, env)
        for position, test in checks.positional_others:
            if position < len(args) and not test(args[position]):
                self._check_arguments(step.verb, checks.positional, args, step.arg_nodes, env)
        for position, low, high, number_range in step.ranged:
            value = args[position]
            if not low <= value <= high:
                args[position] = self._within(number_range, value, action, env)
        try:
            result = primitive(self.host, env, action, *args)
        except ScriptRuntimeError as error:
            raise fault_at(error, action, env) from None
        except VALUE_ERRORS as error:
            raise self._failed(action, env, error) from None
        return None if result is None else self._effect_rest(result, action, env)

    def _effect_quick(self, primitive: Callable[..., Any], step: EffectStep, env: Env) -> Run | None:
        """An effect of up to three arguments and no preposition (nearly every one): what `_effect`
        does, each argument worked out in order, checked (once one fails, all asked in full, in
        order, so the fault is at the first that fails), held to its range, and handed to the
        effect as it is, with no list."""
        words = step.words
        closures = step.closures
        count = len(closures)
        a: Any = None
        b: Any = None
        c: Any = None
        if count > 0:
            closure = closures[0]
            a = words[0] if closure is None else closure.run(self, env)
            if count > 1:
                closure = closures[1]
                b = words[1] if closure is None else closure.run(self, env)
                if count > 2:
                    closure = closures[2]
                    c = words[2] if closure is None else closure.run(self, env)
        if not (count == 0 or step.check0.passes(a) and (count == 1 or step.check1.passes(b)
                                                         and (count == 2 or step.check2.passes(c)))):
            checks = step.check
            assert checks is not None
            self._check_arguments(step.verb, checks.positional, [a, b, c][:count], step.arg_nodes, env)
        action = step.action
        for position, low, high, number_range in step.ranged:
            if position == 0:
                if not low <= a <= high:
                    a = self._within(number_range, a, action, env)
            elif position == 1:
                if not low <= b <= high:
                    b = self._within(number_range, b, action, env)
            elif not low <= c <= high:
                c = self._within(number_range, c, action, env)
        host = self.host
        try:
            if count == 1:
                result = primitive(host, env, action, a)
            elif count == 2:
                result = primitive(host, env, action, a, b)
            elif count == 3:
                result = primitive(host, env, action, a, b, c)
            else:
                result = primitive(host, env, action)
        except ScriptRuntimeError as error:
            raise fault_at(error, action, env) from None
        except VALUE_ERRORS as error:
            raise self._failed(action, env, error) from None
        return None if result is None else self._effect_rest(result, action, env)

    def _effect_with_preps(self, primitive: Callable[..., Any], step: EffectStep, checks: ArgumentCheck,
                           args: list[Any], env: Env) -> Run | None:
        """An effect with prepositions (`damage target by 2 at where`): each worked out after the
        arguments and before any is checked, checked once the arguments are, and handed to the
        effect by name."""
        action = step.action
        # A `name` argument (`choose ... into pick`) is the name to bind, not a value to look up.
        preps: dict[str, Any] = {}
        for name, closure, value in step.prepositions:
            preps[name] = value if closure is None else closure.run(self, env)
        # The arguments' checks (`_check_arguments`): asked of each class with no call first, as
        # `_effect_quick` asks them, and in full (placing the fault) once one fails.
        count = len(args)
        if count > 3 or not (count == 0 or step.check0.passes(args[0]) and (
                count == 1 or step.check1.passes(args[1]) and (count == 2 or step.check2.passes(args[2])))):
            self._check_arguments(step.verb, checks.positional, args, step.arg_nodes, env)
        for name, test, value in step.prep_tests:
            if test is not None and not test[0](preps[name]):
                raise fault(value, env, "wrong_type",
                            f"`{step.verb} ... {name}` needs {test[1]}, got {describe_value(preps[name])}")
        for position, low, high, number_range in step.ranged:
            value = args[position]
            if not low <= value <= high:
                args[position] = self._within(number_range, value, action, env)
        for name, low, high, number_range in step.prep_ranged:
            if name in preps:
                value = preps[name]
                if not low <= value <= high:
                    preps[name] = self._within(number_range, value, action, env)
        host = self.host
        try:
            # One or two arguments (nearly every such effect) handed as they are, not through a list.
            if count == 1:
                result = primitive(host, env, action, args[0], **preps)
            elif count == 2:
                result = primitive(host, env, action, args[0], args[1], **preps)
            else:
                result = primitive(host, env, action, *args, **preps)
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


class ProcedurePlan:
    """A procedure as it runs, read from its declaration once (`procedure_plan`): the name of each
    of its args, the name of each one's type (None: a type that is not a name), and the plans of
    its effects' bodies."""

    __slots__ = ("args", "kinds", "bodies")

    def __init__(self, procedure: A.Declaration):
        args: list[A.Arg] = procedure.clauses_of(A.Arg)
        self.args = tuple(intern(arg.name) for arg in args)  # as the names reading them are (`NameRead`)
        self.kinds = tuple(arg.type.name if isinstance(arg.type, A.NamedType) else None for arg in args)
        effects: list[A.Effect] = procedure.clauses_of(A.Effect)
        self.bodies = tuple(block_plan(effect.body) for effect in effects)


@engine_fact
def procedure_plan(procedure: A.Declaration) -> ProcedurePlan:
    return ProcedurePlan(procedure)


_Waiting = tuple[Run, A.Stmt, int]  # a statement's rest to wait for, the statement, the index of the next


# ---------------------------------------------------------------- statement plans
class BlockPlan:
    """A block as it runs, worked out once and kept on the block (`block_plan`): whether it binds
    names of its own (a `let`, or an effect binding one: `... into pick`), and its statements' steps."""

    __slots__ = ("block", "binds", "steps")

    def __init__(self, block: A.Block, binds: bool, steps: tuple[Step, ...]):
        self.block = block
        self.binds = binds
        self.steps = steps


class Step:
    """A statement as it runs: its parts read from the syntax tree once, and run by `run`, which
    hands back what is left to wait for (or None). `node` is where its faults are placed."""

    __slots__ = ("node",)

    def __init__(self, node: A.Stmt):
        self.node: A.Stmt = node

    def run(self, interpreter: Interpreter, local: Env) -> Run | None:
        raise fault(self.node, local, "feature_not_available", f"{type(self.node).__name__} cannot be executed")


class LetStep(Step):
    __slots__ = ("name", "value")

    def __init__(self, node: A.Let):
        super().__init__(node)
        self.name = intern(node.name)  # as the names reading it are (`NameRead`)
        self.value = closure_of(node.value)

    def run(self, interpreter: Interpreter, local: Env) -> Run | None:
        local.names[self.name] = self.value.run(interpreter, local)
        return None


class SetStep(Step):
    __slots__ = ("name", "value")

    def __init__(self, node: A.Set):
        super().__init__(node)
        self.name = node.name
        self.value = closure_of(node.value)

    def run(self, interpreter: Interpreter, local: Env) -> Run | None:
        # The checker holds `set` to names a `let` bound; a Ruleset put together without it meets
        # a fault here rather than a new name.
        if not local.reassign(self.name, self.value.run(interpreter, local)):
            raise fault(self.node, local, "unknown_name", f"`set {self.name}`: `{self.name}` is not bound here")
        return None


class IfStep(Step):
    __slots__ = ("conditions", "bodies", "otherwise")

    def __init__(self, node: A.If):
        super().__init__(node)
        self.conditions = tuple(closure_of(branch.condition) for branch in node.branches)
        self.bodies = tuple(block_plan(branch.body) for branch in node.branches)
        self.otherwise = block_plan(node.otherwise) if node.otherwise is not None else None

    def run(self, interpreter: Interpreter, local: Env) -> Run | None:
        conditions = self.conditions
        for index in range(len(conditions)):
            if conditions[index].run(interpreter, local):
                return interpreter.run_plan(self.bodies[index], local)
        if self.otherwise is not None:
            return interpreter.run_plan(self.otherwise, local)
        return None


class LoopStep(Step):
    """A loop: its body, and the name each item is bound to (None: `repeat`, binding nothing)."""

    __slots__ = ("var", "body")

    def __init__(self, node: A.ForEach | A.Repeat, var: str | None):
        super().__init__(node)
        self.var = var
        self.body = block_plan(node.body)


class ForEachStep(LoopStep):
    __slots__ = ("iterable", "items")

    def __init__(self, node: A.ForEach):
        super().__init__(node, intern(node.var))  # as the names reading it are (`NameRead`)
        self.iterable = node.iterable
        self.items = closure_of(node.iterable)

    def run(self, interpreter: Interpreter, local: Env) -> Run | None:
        items = self.items.run(interpreter, local)
        if not isinstance(items, (tuple, frozenset)):
            raise fault(self.iterable, local, "wrong_type", f"`for each` walks a list or a set of squares, "
                                                            f"got {describe_value(items)}")
        limit = interpreter.limits.max_collection
        if len(items) > limit:
            raise fault(self.node, local, "budget_exceeded", f"`for each` over {len(items)} items (limit {limit})")
        return interpreter._loop(self, sorted(items) if isinstance(items, frozenset) else items, local)


class RepeatStep(LoopStep):
    __slots__ = ("count", "counted")

    def __init__(self, node: A.Repeat):
        super().__init__(node, None)
        self.count = node.count
        self.counted = closure_of(node.count)

    def run(self, interpreter: Interpreter, local: Env) -> Run | None:
        count = self.counted.run(interpreter, local)
        if not is_number(count):
            raise fault(self.count, local, "wrong_type", f"expected a number, got {describe_value(count)}")
        limit = interpreter.limits.max_repeat
        if count > limit:
            raise fault(self.node, local, "budget_exceeded", f"`repeat {count}` is more than the limit of {limit}")
        # A turn for each item of a plain tuple (not a range: a waiting loop's frame is read as state).
        return interpreter._loop(self, (None,) * max(0, count), local)


# The argument types named by a word of the game, never a value: the events and the windows; and
# where each effect takes one (worked out once, not at every call).
WORD_ARGUMENTS = frozenset({"event", "window"})
WORD_POSITIONS: dict[str, frozenset[int]] = {
    verb: frozenset(position for position, kind in enumerate(signature.positional) if kind in WORD_ARGUMENTS)
    for verb, signature in VOCABULARY_PRIMITIVES.items()}


class ClassCheck:
    """What `_effect` asks of one argument of an effect before calling it: its classes (a value of the
    first passes with no `isinstance`; `object`: any value, asked nothing), then its other test
    (None: none). A value failing either fails the argument's full test (`_check_arguments`), which
    places the fault."""

    __slots__ = ("first", "classes", "any_class", "other", "words", "number")

    def __init__(self, first: type, classes: tuple[type, ...], other: Callable[[Any], bool] | None):
        self.first = first
        self.classes = classes
        self.any_class = classes == (object,)
        self.other = other
        # The other test asked directly where it is a test of words or of a number (no call of a
        # Python callable): its `WordTest` (None: another), and whether it is `is_number`.
        self.words: WordTest | None = other if isinstance(other, WordTest) else None
        self.number = other is is_number

    def passes(self, value: Any) -> bool:
        if not self.any_class and type(value) is not self.first and not isinstance(value, self.classes):
            return False
        other = self.other
        if other is None:
            return True
        words = self.words
        if words is not None:
            return words.holds(value)
        if self.number:
            return type(value) is int or is_number(value)
        return other(value)


PASSES: Final = ClassCheck(object, (object,), None)  # an argument taking anything, or none given


_Prepositions = tuple[tuple[str, Closure | None, A.Expr], ...]  # each: its name, its closure (None: binds its name)


class EffectStep(Step):
    """An effect statement: its verb; its arguments, each the word it names (an event, a window) or
    the compiled closure of a value to work out; each preposition with its closure, or None for a
    name to bind (`choose ... into pick`). And, for the table of effects and the argument checks of
    the interpreter it last ran in (shared by every bout and preview of a ruleset), the effect its
    verb names (None: a procedure, or nothing) and that effect's checks, found again only when it
    meets others. Likewise, for the table of procedures it last ran with, the procedure its verb
    names (None: none) and its plan."""

    __slots__ = ("action", "verb", "arg_nodes", "words", "closures", "prepositions",
                 "primitives", "checks", "primitive", "check", "quick", "check0", "check1", "check2", "ranged",
                 "prep_tests", "prep_ranged", "procedures", "procedure", "procedure_plan")

    def __init__(self, node: A.Action):
        super().__init__(node)
        self.action = node  # `node`, known to be an effect
        self.verb = node.verb
        self.arg_nodes = node.args
        positions = WORD_POSITIONS.get(node.verb, frozenset())
        signature = VOCABULARY_PRIMITIVES.get(node.verb)
        binds = signature.preps if signature is not None else {}
        named = tuple(position in positions and isinstance(expr, A.Name) for position, expr in enumerate(node.args))
        self.words: tuple[str | None, ...] = tuple(
            cast(A.Name, expr).id if word else None for word, expr in zip(named, node.args))
        self.closures: tuple[Closure | None, ...] = tuple(
            None if word else closure_of(expr) for word, expr in zip(named, node.args))
        self.prepositions: _Prepositions = tuple(
            (p.prep, None if binds.get(p.prep) == "name" else closure_of(p.value), p.value) for p in node.preps)
        self.primitives: Mapping[str, Callable[..., Any]] | None = None
        self.checks: ArgumentChecks | None = None
        self.primitive: Callable[..., Any] | None = None
        self.check: ArgumentCheck | None = None
        # For the effect bound: whether it runs by `_effect_quick` (up to three arguments and no
        # preposition), the check of each of its first three arguments (`ClassCheck`), and the
        # ranges of the arguments it is given, by position, each with its bounds (a number within
        # them is taken as it is, the range itself asked only of one beyond them: `_within`).
        self.quick = False
        self.check0 = self.check1 = self.check2 = PASSES
        self.ranged: tuple[tuple[int, int, int, NumberRange], ...] = ()
        # Each preposition's name, the test of its value (None: none) and its node, in order; and
        # the range of each preposition held to one, with its bounds.
        self.prep_tests: tuple[tuple[str, KindTest | None, A.Expr], ...] = ()
        self.prep_ranged: tuple[tuple[str, int, int, NumberRange], ...] = ()
        self.procedures: Mapping[str, Any] | None = None
        self.procedure: A.Declaration | None = None
        self.procedure_plan: ProcedurePlan | None = None

    def bind(self, primitives: Mapping[str, Callable[..., Any]], checks: ArgumentChecks) -> None:
        self.primitive = primitives.get(self.verb)
        check = self.check = checks.primitives[self.verb] if self.primitive is not None else None
        self.primitives, self.checks = primitives, checks
        count = len(self.closures)
        self.quick = check is not None and not self.prepositions and count <= 3
        at = [PASSES, PASSES, PASSES]
        if check is not None:
            others = dict(check.positional_others)
            for position in range(min(len(check.positional_classes), count, 3)):
                at[position] = ClassCheck(check.positional_first[position], check.positional_classes[position],
                                          others.get(position))
            self.ranged = tuple((position, number_range.low, number_range.high, number_range)
                                for position, number_range in check.positional_ranges if position < count)
            self.prep_tests = tuple((name, check.preps.get(name), value) for name, _, value in self.prepositions)
            self.prep_ranged = tuple((name, number_range.low, number_range.high, number_range)
                                     for name, number_range in check.prep_ranges)
        self.check0, self.check1, self.check2 = at[0], at[1], at[2]

    def bind_procedure(self, procedures: Mapping[str, Any]) -> None:
        """The procedure its verb names in `procedures` (a ruleset's `ScriptItem`s by id), and its plan."""
        item = procedures.get(self.verb)
        self.procedures = procedures
        self.procedure = None if item is None else item.declaration
        self.procedure_plan = None if item is None else procedure_plan(item.declaration)

    def binds(self) -> bool:
        """Whether it binds a name (`choose ... into pick`)."""
        return any(closure is None for _, closure, _ in self.prepositions)

    def run(self, interpreter: Interpreter, local: Env) -> Run | None:
        return interpreter._effect(self, local)


def _step_of(stmt: A.Stmt) -> Step:
    """The step running `stmt`, chosen by its exact class (another class of node: a step that faults)."""
    kind = type(stmt)
    if kind is A.Action:
        return EffectStep(cast(A.Action, stmt))
    if kind is A.If:
        return IfStep(cast(A.If, stmt))
    if kind is A.Let:
        return LetStep(cast(A.Let, stmt))
    if kind is A.ForEach:
        return ForEachStep(cast(A.ForEach, stmt))
    if kind is A.Set:
        return SetStep(cast(A.Set, stmt))
    if kind is A.Repeat:
        return RepeatStep(cast(A.Repeat, stmt))
    return Step(stmt)


def block_plan(block: A.Block) -> BlockPlan:
    """The plan of `block` (and of the blocks inside it), built the first time it is asked for and
    kept on the block as its compiled form (`_closure`, which no block has otherwise)."""
    found = block._closure
    if found is None:
        steps = tuple(_step_of(stmt) for stmt in block.statements)
        binds = any(isinstance(step, LetStep) or isinstance(step, EffectStep) and step.binds() for step in steps)
        found = BlockPlan(block, binds, steps)
        object.__setattr__(block, "_closure", found)
    return found  # type: ignore[no-any-return]


def _magnitude(value: int) -> str:
    """A huge number in a message: its sign and number of digits, not all of them."""
    digits = len(str(abs(value)))
    return str(value) if digits <= 30 else f"{'-' if value < 0 else ''}a number of {digits} digits"
