"""Events: `fire` runs every `when` listener of the content, in its order, and keeps what is under way.

Pieces affected together by one event are met from the triggering player clockwise (pg.15):
`pieces_in_turn` is that order, used by the script functions that list pieces and by the
listeners an event runs for each piece that owns them.
"""

from __future__ import annotations

from sys import intern
from types import MappingProxyType
from typing import Any, Final, Mapping, Protocol, Sequence

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .compiled import DECLARATION_ATTRIBUTES, And, ArgumentChecks, Closure, closure_of, is_constant
from .interpreter import BlockPlan, Interpreter, Limits, Run, block_plan
from .scope import Dynamic, Env
from .legality import Legality
from .state import BoutState, Piece
from .text_facts import role_named

# Who listens by a `when` clause: the whole bout once (no owner), or each piece that owns it (every
# piece, the piece holding the weapon, the piece holding the card, the pieces of the roles owning it).
# Final: compiled code reads them as the numbers they are, not from the module's names.
WHOLE_BOUT: Final = 0
EVERY_PIECE: Final = 1
WEAPON_HOLDER: Final = 2
CARD_HOLDER: Final = 3
ROLE_HOLDER: Final = 4
_NO_OWNER: tuple[None] = (None,)
# What a listener's first tests on an event's declaration say of it (`Listener.declared`): false,
# so is the condition; true, and they are the whole condition; true, and the rest is to be asked
# (`Listener.rest`); not known (they fault), and the whole condition is to be asked.
DECLARED_FALSE: Final = 0
DECLARED_WHOLE: Final = 1
DECLARED_TRUE: Final = 2
DECLARED_REST: Final = 3
# The syntax tree's declaration class, held here: compiled code reads a module's attribute by name.
_DECLARATION: Final = A.Declaration
# How many entries at the bottom of `Events.nesting` stand for nothing under way: they stay for the
# whole bout, so that pushing and popping an event never shrinks the list below half its room
# (CPython gives a list's room back whenever it does: near empty, every event would reallocate it).
NESTING_FLOOR: Final = 4


class Gate:
    """What a `when` condition asks first that the engine answers itself, worked out once from the
    condition: for an owned listener, a first `<name> == self` (only the owners equal to the
    event's `<name>` are asked, compared as the condition compares them), and a `has_mark(<name>,
    "<mark>")` asked first, or right after that comparison (a piece without the mark is passed
    over: the condition would be false, whatever follows)."""

    __slots__ = ("equal", "on_left", "marked", "mark", "after_equal")

    def __init__(self, equal: tuple[str, bool] | None, marked: tuple[str, str, bool] | None):
        # Names interned, as the event's own names are: found in its names at once, by identity.
        self.equal = intern(equal[0]) if equal is not None else None  # the name compared with `self`
        self.on_left = equal is not None and equal[1]  # whether it is written on the left
        self.marked = intern(marked[0]) if marked is not None else None  # the name whose mark is asked
        self.mark = marked[1] if marked is not None else ""
        self.after_equal = marked is not None and marked[2]  # asked second, after the comparison


class Listener:
    """One `when` clause of the content, with who listens to it, worked out once from its declaration."""

    __slots__ = ("declaration", "ident", "when", "body", "owners", "hazard", "wakers", "body_plan",
                 "gate", "condition", "place", "by_role", "declared", "declared_tests", "declared_whole",
                 "met", "met_verdicts", "last_declaration", "last_verdict", "shares_names", "unmarks", "sweeps",
                 "rest")

    def __init__(self, declaration: A.Declaration, when: A.When, owners: int, wakers: frozenset[str] = frozenset(),
                 place: int = -1, rebinds: bool | None = None):
        self.declaration = declaration
        # Its declaration's id, read here once: the declaration is an uncompiled node, and every
        # event asks a hazard's id (and a weapon's or a card's, for who holds it).
        self.ident = declaration.id
        self.when = when
        self.body = when.body  # read here once, as the id (the clause is an uncompiled node too)
        # Its body's plan (`block_plan`), found the first time the body runs and held here: the
        # plan kept on the uncompiled block would be read from it at every run.
        self.body_plan: BlockPlan | None = None
        self.owners = owners
        self.hazard = declaration.kind == "hazard"
        # A hazard's: the object types whose standing on the board wakes it (a tuple: read by a loop,
        # where compiled code calls a frozenset's own method as interpreted code would).
        self.wakers = tuple(sorted(wakers))
        equal = self_test(when.condition) if owners != WHOLE_BOUT else None
        marked = mark_test(when.condition, equal is not None)
        # Both first tests as one, None when there is neither (most listeners): one question per event.
        self.gate = Gate(equal, marked) if equal is not None or marked is not None else None
        # The condition's compiled closure (`compiled.py`), asked by its `run` as `Interpreter.evaluate` asks it.
        self.condition: Closure | None = closure_of(when.condition) if when.condition is not None else None
        # Its place among every listener of the ruleset (`_every_listener`), where a bout keeps its
        # declaration's scope (`Events._scope`); -1: in no table, the scope is asked each time.
        self.place = place
        # Listening by role: whether a piece of each role owns it, asked once per role (a role's
        # ownership depends on the ruleset alone: `Legality.owns_ability`).
        self.by_role: dict[str | None, bool] = {}
        # The condition's first tests that read only what a declaration the event names is (`command.id
        # == "some_id"`, `"some_tag" in command.tags`): the name, their closures, whether they are the
        # whole condition, and their verdict on each declaration met (side by side, found by the
        # declaration itself: a search of a few, cheaper than hashing it). What a declaration is never changes.
        declared, tests, whole = declared_tests(when.condition)
        self.declared = intern(declared) if declared is not None else None
        self.declared_tests: tuple[Closure, ...] = tuple(closure_of(test) for test in tests)
        self.declared_whole = whole
        # The condition's tests after those, joined as the condition joins them: asked alone once
        # those hold (`DECLARED_REST`), for they would be true again, with nothing else done.
        self.rest: Closure | None = _joined(_conjuncts(when.condition)[len(tests):]) if tests and not whole else None
        self.met: list[A.Declaration] = []
        self.met_verdicts: list[int] = []
        # The last verdict asked, at hand: an event names the same declaration to its listeners
        # over and over (the command being used), and this answers without reading its facts.
        self.last_declaration: A.Declaration | None = None
        self.last_verdict = DECLARED_TRUE
        # Whether its body may run in a scope over the event's own names, not a copy: it listens
        # for the whole bout (no `self` of its own to bind), and nothing in it binds a name in the
        # scope it is given (no `set`, no effect binding a name `into`; a `let` binds in a scope of
        # its block's own). No listener changes those names, so each sees them as the event gave them.
        # (`rebinds`: whether the body binds a name, when already known: `listeners_of` keeps the answer.)
        self.shares_names = owners == WHOLE_BOUT and not (_rebinds(when.body) if rebinds is None else rebinds)
        # A body made of `unmark <name> "<mark>"` statements alone: each name with its mark (none
        # for any other body). Run for pieces without those marks, it does nothing but count its
        # steps (`Events._unmarks_nothing`).
        self.unmarks = unmarks_of(when.body)
        # A body made of such statements and of loops over every piece (`for each <v> in pieces()`)
        # whose bodies unmark the piece alone: the marks of each loop (none for any other body),
        # and, for it, the plain statements' names and marks (`unmarks` holds those of a body
        # with no loop). Run where no piece has those marks, it too only counts its steps.
        self.sweeps, plain = sweeps_of(when.body)
        if self.sweeps:
            self.unmarks = plain


def self_test(condition: A.Expr | None) -> tuple[str, bool] | None:
    """The name a condition first compares with `self` (`when attack_roll if attacker == self and ...`),
    and whether it is written on the left: the first test of the condition, so for an owner it does
    not equal the condition is false, whatever follows. None when the condition starts otherwise."""
    first = condition
    while isinstance(first, A.Binary) and first.op == "and":
        first = first.left
    if not isinstance(first, A.Compare) or first.op != "==":
        return None
    left, right = first.left, first.right
    if isinstance(left, A.Name) and isinstance(right, A.Name) and (left.id == "self") != (right.id == "self"):
        return (right.id, False) if left.id == "self" else (left.id, True)
    return None


def unmarks_of(body: A.Block) -> tuple[tuple[str, str], ...]:
    """The name (interned, as the event's names are) and the mark of each statement of a body
    made of `unmark <name> "<mark>"` statements alone, in order; none for any other body."""
    found: list[tuple[str, str]] = []
    for stmt in body.statements:
        unmarked = _unmark_of(stmt)
        if unmarked is None:
            return ()
        found.append(unmarked)
    return tuple(found)


def _unmark_of(stmt: A.Stmt) -> tuple[str, str] | None:
    """The name (interned) and the mark of an `unmark <name> "<mark>"` statement; None for any other."""
    if type(stmt) is not A.Action or stmt.verb != "unmark" or stmt.preps or len(stmt.args) != 2:
        return None
    piece, mark = stmt.args
    if not isinstance(piece, A.Name) or not isinstance(mark, A.Str):
        return None
    return intern(piece.id), mark.value


def sweeps_of(body: A.Block) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...]]:
    """The marks each loop of a body unmarks (`for each <v> in pieces() { unmark <v> "<mark>" ... }`),
    in order, and the name (interned) and mark of each plain `unmark` statement beside them: both
    empty unless the body is made of such statements alone and holds a loop."""
    sweeps: list[tuple[str, ...]] = []
    plain: list[tuple[str, str]] = []
    for stmt in body.statements:
        if type(stmt) is A.ForEach:
            marks = _swept_marks(stmt)
            if not marks:
                return (), ()
            sweeps.append(marks)
            continue
        unmarked = _unmark_of(stmt)
        if unmarked is None:
            return (), ()
        plain.append(unmarked)
    return (tuple(sweeps), tuple(plain)) if sweeps else ((), ())


def _swept_marks(loop: A.ForEach) -> tuple[str, ...]:
    """The marks a loop over every piece unmarks from each, its body nothing but `unmark <v> "<mark>"`
    statements on its own name; none for any other loop."""
    iterable = loop.iterable
    if type(iterable) is not A.Call or iterable.func != "pieces" or iterable.args or iterable.kwargs:
        return ()
    found = unmarks_of(loop.body)
    if not found or any(name != loop.var for name, _ in found):
        return ()
    return tuple(mark for _, mark in found)


def _rebinds(body: A.Block) -> bool:
    """Whether a body may bind a name again in the scope it runs in: a `set` anywhere in it, or
    an effect binding a name (`choose ... into pick`). A procedure it runs has a scope of its own."""
    for node in A.subtree(body):
        if isinstance(node, A.Set) or isinstance(node, A.Action) and node.prep("into") is not None:
            return True
    return False


def _rebinds_known(known: dict[int, bool], when: A.When) -> bool:
    """`_rebinds` of a clause's body, kept in `known` by the clause's identity."""
    found = known.get(id(when))
    if found is None:
        found = known[id(when)] = _rebinds(when.body)
    return found


def _joined(tests: list[A.Expr]) -> Closure | None:
    """The closure of tests joined by `and`, asked left to right as a condition asks them."""
    if not tests:
        return None
    joined = closure_of(tests[0])
    for test in tests[1:]:
        joined = And(joined, closure_of(test))
    return joined


def _conjuncts(condition: A.Expr | None) -> list[A.Expr]:
    """The tests a condition's `and`s join, in the order they are asked (none for no condition)."""
    tests: list[A.Expr] = []
    first = condition
    while isinstance(first, A.Binary) and first.op == "and":
        tests.append(first.right)
        first = first.left
    if first is None:
        return tests
    tests.append(first)
    tests.reverse()
    return tests


def mark_test(condition: A.Expr | None, self_tested: bool) -> tuple[str, str, bool] | None:
    """The name and the mark of a condition's `has_mark(<name>, "<mark>")` asked first, or right
    after a first test `<name> == self` that `_passing` asks itself, and which of the two: for a
    piece without that mark the condition is false, whatever follows. None when there is none."""
    tests = _conjuncts(condition)
    if not tests:
        return None
    for position in range(min(2, len(tests))):
        call = tests[position]
        if position == 1 and not self_tested:
            break
        if isinstance(call, A.Call) and call.func == "has_mark" and len(call.args) == 2 and not call.kwargs \
                and isinstance(call.args[0], A.Name) and isinstance(call.args[1], A.Str):
            return call.args[0].id, call.args[1].value, position == 1
    return None


def declared_tests(condition: A.Expr | None) -> tuple[str | None, tuple[A.Expr, ...], bool]:
    """A condition's first tests that compare what one name's declaration is (its id, group or
    tags, as `AttributeRead` reads a declaration's) with a written value, that name (never `self`),
    and whether they are the whole condition: (None, (), False) when it starts otherwise."""
    tests = _conjuncts(condition)
    if not tests:
        return None, (), False
    name: str | None = None
    taken: list[A.Expr] = []
    for test in tests:
        read = _declaration_read(test)
        if read is None or read == "self" or (name is not None and read != name):
            break
        name = read
        taken.append(test)
    return name, tuple(taken), bool(taken) and len(taken) == len(tests)


def _declaration_read(test: A.Expr) -> str | None:
    """The name of `<name>.<id|group|tags> ==/!= <written>` or `<written> in/not in <name>.<...>`."""
    if not isinstance(test, A.Compare):
        return None
    if test.op in ("==", "!="):
        read, other = test.left, test.right
    elif test.op in ("in", "not in"):
        read, other = test.right, test.left
    else:
        return None
    if isinstance(read, A.Attr) and isinstance(read.obj, A.Name) and read.name in DECLARATION_ATTRIBUTES \
            and is_constant(other):
        return read.obj.id
    return None


def owners_of(ruleset: Ruleset, declaration: A.Declaration) -> int:
    """Who a `when` clause listens for: rules, states, hazards and the cards played when drawn for
    the whole bout; abilities, weapons and the cards played from a hand for each piece that owns
    them. A rule naming a role (by the game's role word: a role's talent) listens for each piece of
    that role."""
    kind = declaration.kind
    role_word = ruleset.game.role_word
    if kind in ("hazard", "state") or kind in ruleset.words.played_kinds \
            or kind == "rule" and (role_word is None or declaration.property(role_word) is None):
        return WHOLE_BOUT
    if kind == "weapon":
        return WEAPON_HOLDER
    if kind in ruleset.words.hand_kinds:
        return CARD_HOLDER
    if role_word is None or not role_named(declaration, role_word)[0]:
        return EVERY_PIECE
    return ROLE_HOLDER


Listeners = dict[str, tuple[Listener, ...]]  # event -> its listeners, in the order they run
HazardObjects = dict[str, frozenset[str]]  # hazard -> the object types whose standing on the board wakes it


def listeners_of(ruleset: Ruleset, layout_hazards: tuple[str, ...]) -> tuple[Listeners, HazardObjects]:
    """The listeners of every event for a board layout naming these hazards, worked out once per
    ruleset and layout and kept beside the ruleset's fields (never pickled: `Ruleset.__getstate__`).
    Rules, abilities, weapons and cards listen in load order; then the hazards: the layout's in their
    activation order (left to right), then the others in load order. A hazard listens once the
    layout names it or one of its `object`s has stood on the board (`Events.hazard_active`)."""
    known: dict[tuple[str, ...], tuple[Listeners, HazardObjects]] = ruleset.derived("event_listeners", dict)
    found = known.get(layout_hazards)
    if found is None:
        every, hazard_objects = ruleset.derived("every_listener", lambda: _every_listener(ruleset))
        # Each hazard's place in the order (its first, should the layout name one twice).
        hazard_order: dict[str, int] = {}
        for hazard in [*layout_hazards, *(d.id for d in ruleset.declarations("hazard"))]:
            hazard_order.setdefault(hazard, len(hazard_order))
        ordered: Listeners = {}
        for event, (first, hazards) in every.items():
            placed = sorted((listener for listener in hazards if listener.ident in hazard_order),
                            key=lambda listener: hazard_order[listener.ident])
            ordered[event] = first + tuple(placed)
        found = known[layout_hazards] = (ordered, hazard_objects)
    return found


#: Per event, its listeners that are not hazards' and those that are, each in load order.
EveryListener = dict[str, tuple[tuple[Listener, ...], tuple[Listener, ...]]]


def _every_listener(ruleset: Ruleset) -> tuple[EveryListener, HazardObjects]:
    """Every `when` clause's listener, made once per ruleset and shared by every layout's table
    (`listeners_of` only puts the hazards' in the layout's order): what a listener works out and
    keeps depends on its declaration alone. Each has a place of its own among them all
    (`Listener.place`), whatever table it stands in."""
    hazard_objects: HazardObjects = {}
    for hazard in ruleset.declarations("hazard"):
        prop = hazard.property("object")
        objects = {v.id for v in prop.values if isinstance(v, A.Name)} if prop else set()
        hazard_objects[hazard.id] = frozenset(objects | {hazard.id})
    # Whether each clause's body binds a name, read from its whole subtree: found once per clause
    # and ruleset (by the clause's identity: the ruleset keeps its clauses).
    rebinding: dict[int, bool] = ruleset.derived("listener_rebinds", dict)
    every: EveryListener = {}
    placed = 0
    for event, pairs in ruleset.triggers.items():
        listeners = []
        for declaration, when in pairs:
            listeners.append(Listener(declaration, when, owners_of(ruleset, declaration),
                                      hazard_objects.get(declaration.id, frozenset()), placed,
                                      _rebinds_known(rebinding, when)))
            placed += 1
        every[intern(event)] = (tuple(listener for listener in listeners if not listener.hazard),
                                tuple(listener for listener in listeners if listener.hazard))
    return every, hazard_objects


class EventsHost(Protocol):
    """What events need of the bout: its state and rules, the trigger depth limit, the interpreter
    that runs the listeners, and legality for the listeners' scopes and owners."""

    state: BoutState
    ruleset: Ruleset
    limits: Limits
    interpreter: Interpreter
    legality: Legality

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Events:
    """The listeners of a bout, and the events, performed commands and triggering players under way."""

    interpreter: Interpreter  # kept at hand by `wire`
    legality: Legality

    def __init__(self, host: EventsHost, listeners: Listeners | None = None,
                 hazard_objects: HazardObjects | None = None):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state
        self.trigger_depth = 0
        # The events and performed commands under way, outermost first, above the floor (`NESTING_FLOOR`).
        self.nesting: list[str] = [""] * NESTING_FLOOR
        self.triggers: list[str] = []  # whose command, ability or card is resolving (pg.15's triggering player)
        if listeners is not None and hazard_objects is not None:
            # the listeners never change during a bout: a preview's copy shares them
            self.listeners, self._hazard_objects = listeners, hazard_objects
        else:
            layout = tuple(host.state.meta.get("hazards", ()))
            self.listeners, self._hazard_objects = listeners_of(host.ruleset, layout)
        self._depth_limit = host.limits.max_trigger_depth  # the limits are the bout's, fixed from its start
        # The names each event binds (the game's words, fixed for the bout), read by `signal` and `record`.
        self.event_names: Mapping[str, Mapping[str, str]] = host.ruleset.words.events
        # The pieces round the table from each triggering player (`pieces_in_turn`), for the table
        # of pieces they were worked out for: seats never change once a bout is set up.
        self._table: dict[str, Piece] | None = None
        self._rings: dict[str, list[Piece]] = {}
        # The scope of each listener's declaration, by the listener's place (`Listener.place`):
        # legality's own (`Legality.declaration_env`, one per declaration and bout), kept at hand.
        self._scopes: list[Env | None] = []
        # The scope every condition is asked in, set anew for each (`fire`): a condition binds
        # nothing and keeps nothing of its scope, and fires no event, so one serves them all.
        self._asking = Env({})
        # Whether a table of script functions has the engine's own `has_mark` (`_marks_read`): the
        # last read-only table asked about, and its answer.
        self._functions_asked: Mapping[str, Any] | None = None
        self._engine_marks = False
        # Whether a table of effects has the engine's own `unmark` (`_engine_unmarks`), likewise.
        self._primitives_asked: Mapping[str, Any] | None = None
        self._checks_asked: ArgumentChecks | None = None
        self._engine_unmark = False
        self._step_limit = host.limits.max_steps  # the interpreter's step budget: the bout's limits are its
        self._collection_limit = host.limits.max_collection  # the longest list a `for each` walks

    def wire(self) -> None:
        """Keep the interpreter and legality at hand (`Bout._wire`: both are built after events)."""
        self.interpreter = self.host.interpreter
        self.legality = self.host.legality

    def copy_for(self, host: EventsHost) -> Events:
        """The events of a preview's copy of the bout: the same listeners and scopes (the copy's
        legality starts with the same scopes); what is under way copied."""
        events = Events(host, self.listeners, self._hazard_objects)
        events._scopes = list(self._scopes)
        events.take_under_way(self)
        return events

    def take_under_way(self, other: Events) -> None:
        """What is under way in `other` (its trigger depth, triggering players and events), copied."""
        self.trigger_depth = other.trigger_depth
        self.triggers = list(other.triggers)
        self.nesting[:] = other.nesting  # in place: a copy refilled again and again keeps the list's room

    def reset(self) -> None:
        """Nothing under way any more (a script fault stopped the bout)."""
        self.triggers, self.nesting, self.trigger_depth = [], [""] * NESTING_FLOOR, 0

    def fire(self, event: str, /, **names: Any) -> Run:
        """Run every `when <event>` listener: rules, abilities, weapons and cards in load order, then
        the board layout's hazards in their activation order, left to right (pg.15, pg.40)."""
        return self.fire_with(event, names)

    def fire_with(self, event: str, names: dict[str, Any]) -> Run:
        """`fire`, the event's names handed as a dictionary made for this event alone (no listener
        changes it): the engine's own callers hand it so, with no keyword arguments to parse."""
        listeners = self.listeners.get(event)
        if not listeners:
            return
        limit = self._depth_limit
        if self.trigger_depth >= limit:
            raise self.host.runtime_error("budget_exceeded", f"events nested more than {limit} deep: "
                                                             f"this statement raised `{event}` inside {self.describe_nesting()}")
        self.trigger_depth += 1
        self.nesting.append(event)
        interpreter, state = self.interpreter, self.state
        # The scope a condition is asked in (`_asking`), set to the event's names (with `self` its
        # owner for an owned listener) over the listener's declaration; a listener that runs gets a
        # scope of its own, built only then (a body may `set` an event's name).
        asking = self._asking
        owned_names: dict[str, Any] | None = None  # the event's names, `self` to be each owner
        scopes = self._scopes
        # What every listener of the event reads alike, worked out once for the event, again after
        # a body has run (it may change whose doing is resolving, or the hazards in play): the
        # pieces round the table from the triggering player, and the hazards the layout names.
        # (The bout's state itself is the same all event: a bout is given another only between actions.)
        ring: list[Piece] | None = None
        layout: Any = None
        quiet = False  # no hazard in play: the layout names none and no object has stood yet
        try:
            for listener in listeners:
                if listener.hazard:  # `hazard_active`, with the objects that wake it in hand
                    if layout is None:
                        layout = state.meta.get("hazards", ())
                        quiet = not layout and not state.seen_objects
                    if quiet or listener.ident not in layout and not _wakes(listener.wakers, state.seen_objects):
                        continue
                # The first tests on the event's declaration, answered once per declaration (a
                # name the event binds to a declaration is what the condition reads by that name).
                whole = the_rest = False
                declared = listener.declared
                if declared is not None:
                    value = names.get(declared)
                    if isinstance(value, _DECLARATION):
                        if value is listener.last_declaration:
                            verdict = listener.last_verdict
                        else:
                            verdict = self._declared_verdict(listener, value, interpreter)
                        if verdict == DECLARED_FALSE:
                            continue
                        whole = verdict == DECLARED_WHOLE
                        the_rest = verdict == DECLARED_REST
                gate = listener.gate
                kind = listener.owners
                owned: list[Piece] | None = None  # the owners in turn, or None: the whole bout's
                if kind != WHOLE_BOUT:
                    if ring is None:
                        ring = self._ring(state)
                    owned = ring if kind == EVERY_PIECE else self._holders(listener, ring)
                    if gate is not None and gate.equal is not None and owned:
                        owned = _passing(owned, gate.equal, gate.on_left, names)
                    if not owned:
                        continue
                place = listener.place
                scope = scopes[place] if 0 <= place < len(scopes) else None
                if scope is None:
                    scope = self._scope(listener)
                # whole: true, as they said; the rest: what is left to ask once they hold
                condition = None if whole else listener.rest if the_rest else listener.condition
                # A mark test standing for the condition's own first `has_mark` (`_mark_asked`):
                # on each owner (`self`), or on the event's piece, read once for them all.
                owners_marked = False
                if gate is not None and gate.marked is not None and condition is not None \
                        and self._mark_asked(gate, names, interpreter):
                    if gate.marked == "self" and owned is not None:
                        owners_marked = True
                    elif _lacks_mark(gate, None, names):
                        continue  # the condition's first test is false: so is the condition
                for at in range(1 if owned is None else len(owned)):
                    owner = None if owned is None else owned[at]
                    if condition is not None:
                        if owners_marked and owner is not None and gate is not None and gate.mark not in owner.marks:
                            continue  # the condition's first test is false: so is the condition
                        if owner is None:
                            asked = names
                        else:  # in an owned declaration `self` is always its owner
                            if owned_names is None:
                                owned_names = dict(names)
                            asked = owned_names
                            asked["self"] = owner
                        asking.rebind(asked, scope, owner)
                        if not condition.run(interpreter, asking):
                            continue
                    # A body that would only unmark pieces without those marks: its steps counted, as
                    # running it would count them, and nothing else done (no scope built for it).
                    unmarks, sweeps = listener.unmarks, listener.sweeps
                    if (unmarks or sweeps) and self._unmarks_nothing(unmarks, sweeps, owner, names, interpreter):
                        continue
                    plan = listener.body_plan
                    if plan is None:
                        plan = listener.body_plan = block_plan(listener.body)
                    # The body runs in a scope made for this run (`run_in`): the names it binds are
                    # bound beside the event's, in a dictionary of its own, not in a second scope.
                    if owner is None:
                        bound = names if listener.shares_names and not plan.binds else dict(names)
                    else:
                        bound = dict(names)
                        bound["self"] = owner
                    # (No name holds the rest of the body: a suspended bout is read as state frame by frame.)
                    rest = interpreter.run_in(plan, Env.owning(bound, scope, source=owner))
                    if rest is not None:
                        yield from rest
                    ring, layout = None, None
        finally:
            self.trigger_depth -= 1
            self.nesting.pop()

    def under_way(self) -> list[str]:
        """The events and performed commands under way, outermost first (`nesting` above its floor)."""
        return self.nesting[NESTING_FLOOR:]

    def describe_nesting(self) -> str:
        """The events (and performed commands) under way, outermost first, for a depth error."""
        return " > ".join(f"`{name}`" for name in self.under_way())

    def hazard_active(self, hazard: A.Declaration) -> bool:
        """A hazard plays once the board layout names it or one of its objects has stood on the board
        (an object a script placed, or one destroyed this very moment)."""
        if hazard.id in self.state.meta.get("hazards", ()):
            return True
        return not self._hazard_objects.get(hazard.id, frozenset()).isdisjoint(self.state.seen_objects)

    def _scope(self, listener: Listener) -> Env:
        """The scope of a listener's declaration: legality's (`declaration_env`), the same scope
        each time, kept by the listener's place once asked."""
        place, scopes = listener.place, self._scopes
        if 0 <= place < len(scopes):
            kept = scopes[place]
            if kept is not None:
                return kept
        scope = self.legality.declaration_env(listener.declaration)
        if place >= 0:
            if place >= len(scopes):
                scopes.extend([None] * (place + 1 - len(scopes)))
            scopes[place] = scope
        return scope

    @staticmethod
    def _declared_verdict(listener: Listener, declaration: A.Declaration, interpreter: Interpreter) -> int:
        """What a listener's first tests on a declaration say (`Listener.declared`): asked once per
        declaration in a scope binding their name alone (all they read), and kept by the listener
        (`Listener.met`). Tests that fault are left to the condition, which faults as it would."""
        met = listener.met
        for at in range(len(met)):  # the declarations a name may hold are few: the ruleset's
            if met[at] is declaration:
                verdict = listener.met_verdicts[at]
                listener.last_declaration, listener.last_verdict = declaration, verdict
                return verdict
        name = listener.declared
        assert name is not None
        scope = Env({name: declaration})
        verdict = DECLARED_WHOLE if listener.declared_whole else DECLARED_REST
        try:
            for test in listener.declared_tests:
                if not test.run(interpreter, scope):
                    verdict = DECLARED_FALSE
                    break
        except Exception:  # pylint: disable=broad-except  # the condition, asked in full, meets it again
            return DECLARED_TRUE
        met.append(declaration)
        listener.met_verdicts.append(verdict)
        listener.last_declaration, listener.last_verdict = declaration, verdict
        return verdict

    def _unmarks_nothing(self, unmarks: tuple[tuple[str, str], ...], sweeps: tuple[tuple[str, ...], ...],
                         owner: Piece | None, names: dict[str, Any], interpreter: Interpreter) -> bool:
        """Whether a body of `unmark` statements alone (`Listener.unmarks`), and of loops over every
        piece unmarking each (`Listener.sweeps`), would do nothing but count its steps, and if so,
        its steps counted: each statement unmarks, with the engine's own `unmark` and argument
        checks, a piece (read as the body reads it: `self` its owner, else the event's own plain
        value of the name) that lacks the mark; each loop walks the engine's own `pieces()` (the
        pieces round the table), none of which has its marks, within the longest list a loop may
        walk; and none of its steps meets the step budget (where running it would fault, it runs)."""
        if not self._engine_unmarks(interpreter):
            return False
        steps = interpreter.steps + len(unmarks)
        if sweeps:
            if interpreter.functions.get("pieces") is not _engine_pieces():
                return False
            ring = self._ring(self.state)
            if len(ring) > self._collection_limit:
                return False
            for at in range(len(sweeps)):
                marks = sweeps[at]
                for piece in ring:
                    held = piece.marks
                    for mark in marks:
                        if mark in held:
                            return False
                steps += 1 + len(ring) * (1 + len(marks))  # the loop, then each turn and its statements
        for at in range(len(unmarks)):
            name, mark = unmarks[at]
            if owner is not None and name == "self":
                value: Any = owner
            else:
                value = names.get(name)  # None: the event does not bind it
            if type(value) is not Piece or mark in value.marks:
                return False
        if steps > self._step_limit:
            return False
        interpreter.steps = steps
        return True

    def _engine_unmarks(self, interpreter: Interpreter) -> bool:
        """Whether the interpreter's `unmark` is the engine's own, with its vocabulary checks (a piece,
        then text): the last read-only table of effects asked about, and its answer, kept."""
        primitives, checks = interpreter.primitives, interpreter.checks
        if primitives is self._primitives_asked and checks is self._checks_asked:
            return self._engine_unmark
        check = checks.primitives.get("unmark")
        engine = primitives.get("unmark") is _engine_unmark() and check is not None \
            and check.positional_classes == ((Piece,), (str,)) and not check.positional_others \
            and not check.positional_ranges
        if isinstance(primitives, MappingProxyType):  # read-only: its answer holds while it is the table
            self._primitives_asked, self._checks_asked, self._engine_unmark = primitives, checks, engine
        return engine

    def _mark_asked(self, gate: Gate, names: dict[str, Any], interpreter: Interpreter) -> bool:
        """Whether a listener's mark test (`Gate.marked`) may stand for its condition's own
        `has_mark`: the call runs the engine's `has_mark` (a table of functions of its own could run
        another), and a test after the first only where the first was `_passing`'s (it read the
        event's own plain value), so the condition would ask it too and no earlier test of it can fault."""
        functions = interpreter.functions
        if functions is self._functions_asked:
            engine_marks = self._engine_marks
        else:
            engine_marks = functions.get("has_mark") is _engine_has_mark()
            if isinstance(functions, MappingProxyType):  # read-only: its answer holds while it is the table
                self._functions_asked, self._engine_marks = functions, engine_marks
        if not engine_marks:
            return False
        if not gate.after_equal:
            return True
        name = gate.equal
        if name is None or name not in names:
            return False
        return not isinstance(names[name], Dynamic)

    def _holders(self, listener: Listener, ring: list[Piece]) -> list[Piece]:
        """The pieces round the ring holding a listener's weapon or card, or of a role owning it."""
        kind, ident = listener.owners, listener.ident
        if kind == WEAPON_HOLDER:
            return [h for h in ring if h.weapon == ident]
        if kind == CARD_HOLDER:
            return [h for h in ring if ident in h.hand]
        by_role = listener.by_role
        held: list[Piece] = []
        for piece in ring:
            owns = by_role.get(piece.role)
            if owns is None:
                owns = by_role[piece.role] = self.legality.owns_ability(piece, listener.declaration)
            if owns:
                held.append(piece)
        return held

    def _owners(self, listener: Listener) -> Sequence[Piece | None]:
        """Who a listener listens for now (`owners_of`): no one in particular, or each piece owning
        its declaration, from the triggering player clockwise (pg.15)."""
        if listener.owners == WHOLE_BOUT:
            return _NO_OWNER
        ring = self._ring(self.state)
        return ring if listener.owners == EVERY_PIECE else self._holders(listener, ring)

    def triggering_piece(self) -> str:
        """The player whose doing is being resolved: the piece giving the command, using the ability
        or card, or drawing the card under way; otherwise the active player; before any round, the
        first in initiative order (or the first seated)."""
        if self.triggers:
            return self.triggers[-1]
        return _first_acting(self.state)

    def pieces_in_turn(self) -> list[Piece]:
        """Every piece from the triggering player clockwise round the table (pg.15); none in a game
        without pieces. (Shared between callers: read it, never change it.)"""
        return self._ring(self.state)

    def _ring(self, state: BoutState) -> list[Piece]:
        """`pieces_in_turn` of the bout's state."""
        pieces = state.pieces
        if not pieces:
            return []
        rings = self._rings
        if self._table is not pieces:  # a bout put back as it was before an action has a table of its own
            self._table, rings = pieces, {}
            self._rings = rings
        start = self.triggers[-1] if self.triggers else _first_acting(state)
        ring = rings.get(start)
        if ring is None:
            ring = rings[start] = state.clockwise_from(start)
        return ring


def _first_acting(state: BoutState) -> str:
    """Who is doing something when no command, ability or card is resolving: the active player;
    before any round, the first in initiative order (or the first seated)."""
    if state.active is not None:
        return state.active
    if state.order:
        return state.order[0]
    return next(iter(state.pieces))


def _wakes(wakers: tuple[str, ...], seen: set[str]) -> bool:
    """Whether one of a hazard's objects has stood on the board (`wakers` meets `seen`)."""
    for waker in wakers:
        if waker in seen:
            return True
    return False


def _passing(owners: list[Piece], name: str, on_left: bool, names: dict[str, Any]) -> list[Piece]:
    """The owners for whom a condition's first test (`attacker == self`) holds, compared as the
    condition compares them; all of them when the name it reads is not the event's own plain
    value (a name of the declaration, or one read when it is used)."""
    if name not in names:
        return owners
    value = names[name]
    if isinstance(value, Dynamic):
        return owners
    if on_left:
        return [owner for owner in owners if value == owner]
    return [owner for owner in owners if owner == value]


def _lacks_mark(gate: Gate, owner: Piece | None, names: dict[str, Any]) -> bool:
    """Whether the piece a listener's mark test reads, as its condition reads it (`self` its
    owner, else the event's name), is a piece without the mark: `has_mark` on it is false."""
    name = gate.marked
    if name == "self" and owner is not None:
        value: Any = owner
    else:
        value = names.get(name) if name is not None else None
    return isinstance(value, Piece) and gate.mark not in value.marks


# The engine's own `has_mark`, imported when first asked for: the primitives import this module.
_HAS_MARK: list[object] = []


def _engine_has_mark() -> object:
    if not _HAS_MARK:
        from .primitives.marks import has_mark  # pylint: disable=import-outside-toplevel
        _HAS_MARK.append(has_mark)
    return _HAS_MARK[0]


# The engine's own `pieces`, likewise.
_PIECES: list[object] = []


def _engine_pieces() -> object:
    if not _PIECES:
        from .primitives.pieces import pieces  # pylint: disable=import-outside-toplevel
        _PIECES.append(pieces)
    return _PIECES[0]


# The engine's own `unmark`, likewise.
_UNMARK: list[object] = []


def _engine_unmark() -> object:
    if not _UNMARK:
        from .primitives.marks import unmark  # pylint: disable=import-outside-toplevel
        _UNMARK.append(unmark)
    return _UNMARK[0]
