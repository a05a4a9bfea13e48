"""Semantic checks: every name resolves, every type fits, every event, window and range is known.

The checker walks a declaration with a chain of scopes (ruleset -> declaration -> clause -> local
bindings) and records every problem it finds as a `Diagnostic` — it never stops at the first, so a
file with several mistakes reports them all in one run.

It also refuses what is wrong whatever happens in a bout: numbers it can work out while reading
(literals, arithmetic on them, `min`/`max`/`abs` of them, and the names bound to them by `param` and
`let`) that leave ±`MAX_NUMBER`, a division by a constant zero, a cost outside 0..`MAX_COST`, a
constant argument outside the range its vocabulary signature gives (`die(d8, 0)`, `area(self, -1)`;
the interpreter holds values worked out in play to the same ranges), a function that rolls dice in a
question (a `cost` or a `requires`), and a rule param the engine reads holding a value of the wrong kind.

Checking is linear in the length of the script: each node is visited once (a number's value is
worked out from its operands' values as they are visited), and "did you mean" hints, which compare
a word with every name in scope, are given for the first `MAX_SUGGESTIONS` unknown names only.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable, Mapping

from .. import vocabulary as V
from ..errors import Diagnostic, did_you_mean
from ..limits import MAX_NUMBER
from ..model.game import offered_as_control
from ..model.ruleset import DATA_TYPES
from ..model.words import HOLD_PROPERTIES, Hold, base_kind, kinds_in_view, stat_amount, stat_group
from ..syntax import ast_nodes as A

ANY = "any"

#: Unknown names (per file) that get a "did you mean" hint drawn from the names in scope. Each hint
#: compares the word with every name in scope, which grows with the script; past this many, the
#: unknown names are still reported, without a hint, so a file of many misspellings stays linear.
MAX_SUGGESTIONS = 100

# Arithmetic as the engine does it (`/` rounds down).
_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv}


@dataclass(frozen=True)
class CheckContext:
    """What a declaration may refer to beyond its own text: the rest of the loaded content."""

    object_types: frozenset[str] = frozenset()
    settings: Mapping[str, str] = field(default_factory=dict)  # global rule params -> type
    declaration_ids: frozenset[str] = frozenset()
    commands: frozenset[str] = frozenset()  # the ids of the `command` declarations in view (`perform`)
    # The enumerations content declares, type -> members in load order: `state` (the `state`
    # declarations), `pile`, and each stat group (`trait`, `location` in the base game).
    members: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    stats: tuple[str, ...] = ()  # every declared stat: a number read on a piece (`self.<stat>`)
    events: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # event -> the names it binds
    windows: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # window -> the names it binds
    # Rule params the engine reads besides vocabulary.ENGINE_SETTINGS, by kind: a stat's `start`,
    # `low` and `high`.
    setting_kinds: Mapping[str, str] = field(default_factory=dict)
    # The procedures content declares: each one's signature (its args, in order) and the
    # procedures its effects run, for the effects that run it and the refusal of recursion.
    procedures: Mapping[str, V.Signature] = field(default_factory=dict)
    procedure_calls: Mapping[str, tuple[A.Action, ...]] = field(default_factory=dict)
    # Every effect each procedure runs, directly or through the procedures it runs.
    procedure_effects: Mapping[str, frozenset[str]] = field(default_factory=dict)
    turns: tuple[str, ...] = ()  # the `turn` declarations, which a game's `turn` names
    # The ways a hazard may come into play: the game's `activations` (any word where it lists none).
    activations: tuple[str, ...] = ()
    player_stats: tuple[str, ...] = ()  # the stats each player holds (`owner player`)
    # Who acts (`self`) in commands, abilities and turns: a piece, or in a game whose
    # players control no pieces (`game { pieces 0 }`), the player.
    actor_type: str = "piece"
    # The game's own names of the language's types (a game's `piece_word` for `piece`), each with the type it names.
    type_names: Mapping[str, str] = field(default_factory=dict)
    # The game's names of a hold (a state's `holding` and `held_by`), and every state declaring one.
    hold: Hold = field(default_factory=Hold)
    hold_states: tuple[str, ...] = ()
    # The groups a command may be in: the game's `groups` (any word where it declares none).
    groups: tuple[str, ...] = ()
    # The game's role word (the name of an item of its `roles` data): a piece's attribute, and the
    # property a trait ability or rule names its role by; None in a game without roles.
    role_word: str | None = None
    # The piles each player holds (`owner player`): numbers read on a piece or a player, cost resources.
    owned_piles: tuple[str, ...] = ()
    # The first reserve in view, and the first pile in view that is the default for each purpose
    # (shared piles, and piles each player holds): a game has one of each.
    reserve: str | None = None
    shared_defaults: Mapping[str, str] = field(default_factory=dict)
    owned_defaults: Mapping[str, str] = field(default_factory=dict)
    # The kinds content declares (`kind`), each with the built-in kind it is like (None where its
    # `like` names none a declared kind may be like).
    kinds: Mapping[str, str | None] = field(default_factory=dict)

    @property
    def states(self) -> tuple[str, ...]:
        return self.members.get("state", ())

    def base_kind(self, kind: str) -> str | None:
        return base_kind(kind, self.kinds)

    @property
    def kinds_in_view(self) -> tuple[str, ...]:
        return kinds_in_view(self.kinds)

    @cached_property
    def piece_attributes(self) -> dict[str, str]:
        """What a piece is read for: the language's attributes and its hold's, by the game's names."""
        role = {self.role_word: "any"} if self.role_word is not None else {}
        hold = {word: V.HOLD_ATTRIBUTES[read] for word, read in self.hold.attributes.items()}
        return {**V.PIECE_ATTRIBUTES, **role, **hold, **{pile: "number" for pile in self.owned_piles}}

    @cached_property
    def player_attributes(self) -> dict[str, str]:
        """What a player is read for: the language's attributes and the coins in each pile it holds."""
        return {**V.PLAYER_ATTRIBUTES, **{pile: "number" for pile in self.owned_piles}}

    def members_of(self, type_name: str) -> tuple[str, ...] | None:
        """The members of an enumeration type, the language's own or declared; None for another type."""
        if type_name in V.ENUM_TYPES:
            return V.ENUM_TYPES[type_name]
        return self.members.get(type_name)

    def setting_kind(self, name: str) -> str | None:
        """How the engine reads the rule param `name` (`count`, `flag`...), or None if it does not."""
        return V.ENGINE_SETTINGS.get(name) or self.setting_kinds.get(name)


class Scope:
    """A chain of name -> type maps (ruleset -> declaration -> clause -> locals), with the numbers
    known while reading (`param reach = 2`, `let n = 3`) beside the names bound to them."""

    def __init__(self, names: Mapping[str, str], parent: Scope | None = None,
                 constants: Mapping[str, int] | None = None):
        self.names = dict(names)
        self.constants = dict(constants or {})
        self.parent = parent
        self.lets: set[str] = set()  # the names a `let` bound here: the ones `set` may bind again

    def lookup(self, name: str) -> str | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def constant(self, name: str) -> int | None:
        """The number `name` is bound to, where it is bound, if it is known while reading."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.constants.get(name)
            scope = scope.parent
        return None

    def binding(self, name: str) -> Scope | None:
        """The scope that binds `name` (the innermost), or None."""
        scope: Scope | None = self
        while scope is not None and name not in scope.names:
            scope = scope.parent
        return scope

    def bind(self, name: str, type_name: str, constant: int | None = None, let: bool = False) -> None:
        self.names[name] = type_name
        if let:
            self.lets.add(name)
        else:
            self.lets.discard(name)
        if constant is None:
            self.constants.pop(name, None)
        else:
            self.constants[name] = constant

    def all_names(self) -> set[str]:
        names: set[str] = set()
        scope: Scope | None = self
        while scope is not None:
            names |= set(scope.names)
            scope = scope.parent
        return names

    def child(self, names: Mapping[str, str] | None = None, constants: Mapping[str, int] | None = None) -> Scope:
        return Scope(names or {}, self, constants)


def compatible(expected: str, actual: str) -> bool:
    if ANY in (expected, actual) or expected == actual:
        return True
    if actual == "id" and expected in ("text", "command"):
        return True  # a declaration id names a command, a weapon, a card
    if actual == "piece" and expected in ("pile", "square", "side", "actor"):
        return True  # a piece stands for its player's first pile, the square it stands on, or its side
    if actual == "player" and expected in ("pile", "side", "actor"):
        return True  # a player stands for its first pile, or its side
    if expected == "side" and actual == "text":
        return True  # a side by its name
    if expected == "text" and actual == "object_type":
        return True
    if expected == "list" and actual == "squares":
        return True  # a set of squares reads as a list, in board order (as `for each` walks it)
    return False


_TYPE_WORDS = {
    "number": "a number", "bool": "true or false", "text": "text", "piece": "a piece",
    "square": "a square", "squares": "a set of squares",
    "direction": "a direction", "state": "a state", "resource": "AP or MP",
    "pile": "a coin pile", "counter": "a counter", "object_type": "an object type", "roll_side": "`attack` or `defense`",
    "purpose": "a dice purpose", "list": "a list", ANY: "a value", "command": "a command", "id": "an id",
    "event": "an event", "zone": "a zone", "name": "a name", "side": "a side", "turn": "a turn",
    "window": "a timing window", "player": "a player", "actor": "a piece or a player",
}


def describe(type_name: str) -> str:
    """`a number`, `a piece`; a type content declares (a stat group) as `a <its name>`."""
    if type_name in _TYPE_WORDS:
        return _TYPE_WORDS[type_name]
    return ("an " if type_name[:1] in "aeiou" else "a ") + type_name.replace("_", " ")


class Checker:
    def __init__(self, context: CheckContext | None = None):
        self.context = context or CheckContext()
        self.diagnostics: list[Diagnostic] = []
        self.globals = self._global_scope()
        self.suggestions_left = MAX_SUGGESTIONS
        # The value of each number expression known while reading, by node (visited children first).
        self.values: dict[int, int] = {}
        # What is being asked while a `cost` or a `requires` is checked ("a cost"...), else None:
        # a question must leave the bout as it found it, so it may not roll dice.
        self.question: str | None = None

    def suggest(self, word: str, names: Callable[[], Iterable[str]]) -> str | None:
        """A "did you mean" hint drawn from `names` (a scope's names), while the budget lasts."""
        if self.suggestions_left <= 0:
            return None
        self.suggestions_left -= 1
        return did_you_mean(word, names())

    # ---------------------------------------------------------------- reporting
    def describe(self, type_name: str) -> str:
        """A type in a message, by the game's own name of it where it has one (`a <word>` for `piece`
        in a game whose `piece_word` is that word)."""
        own = next((word for word, named in self.context.type_names.items() if named == type_name), None)
        if own is None:
            return describe(type_name)
        return ("an " if own[:1] in "aeiou" else "a ") + own.replace("_", " ")

    def error(self, node: A.Node, code: str, message: str, hint: str | None = None, width: int = 0,
              at_kind: bool = False) -> None:
        pos = node.pos
        # `at_kind`: at a declaration's kind, the word before its id (where a declaration starts).
        column = A.kind_column(node) if at_kind and isinstance(node, A.Declaration) else pos.column
        end = column + width if width else (pos.end_column if pos.end_line == pos.line else pos.column + 1)
        self.diagnostics.append(
            Diagnostic(code=f"check/{code}", message=message, file=pos.file, line=pos.line,
                       column=column, end_column=end, hint=hint)
        )

    def _global_scope(self) -> Scope:
        names: dict[str, str] = {}
        for enumerations in (V.ENUM_TYPES, self.context.members):
            for type_name, members in enumerations.items():
                for member in members:
                    names.setdefault(member, type_name)
        for object_type in self.context.object_types:
            names.setdefault(object_type, "object_type")
        names.update({k: v for k, v in self.context.settings.items() if k not in names})
        for ident in self.context.declaration_ids:
            names.setdefault(ident, "id")
        return Scope(names)

    # ---------------------------------------------------------------- declarations
    def check(self, declaration: A.Declaration) -> list[Diagnostic]:
        start = len(self.diagnostics)
        kind = declaration.kind
        like = self.context.base_kind(kind)
        if like is None:
            if kind not in self.context.kinds:  # a kind declared like no built-in one: its declaration says so
                kinds = self.context.kinds_in_view
                self.error(declaration, "unknown_kind", f"unknown declaration kind `{kind}`",
                           did_you_mean(kind, kinds) or "declare it (`kind " + kind + ' "..." { like hand_card }`) '
                           "or use one of: " + ", ".join(kinds), width=len(kind), at_kind=True)
            return self.diagnostics[start:]
        allowed = V.CLAUSES[like]
        params = self._params(declaration)
        base = self.globals.child(params, self._param_values(declaration))
        args = self._args(declaration)
        roll = None
        for clause in declaration.clauses:
            clause_name = _clause_name(clause)
            if clause_name not in allowed:
                self.error(clause, "clause_not_allowed", f"a {kind} cannot have a `{clause_name}` clause",
                           f"a {kind} may have: " + ", ".join(allowed), width=len(clause_name))
            if isinstance(clause, A.Roll):
                if roll is not None:
                    self.error(clause, "duplicate_clause", "only one `roll` clause is allowed per declaration")
                roll = clause
        actor = self._actor_scope(declaration, base, args)
        self._check_spans(declaration, actor)
        window_names = self._window_names(declaration)  # once: a declaration may hold thousands of clauses
        for clause in declaration.clauses:
            if _clause_name(clause) in allowed:  # a clause the kind cannot have is reported once, above
                self._check_clause(declaration, clause, base, actor, window_names)
        self._check_required(declaration)
        return self.diagnostics[start:]

    def _params(self, declaration: A.Declaration) -> dict[str, str]:
        """The type of each param. Each value is checked here, once, against the global names only:
        the engine works a param out before any other name of the declaration exists."""
        params: dict[str, str] = {}
        for param in declaration.clauses_of(A.Param):
            if param.name in params:
                self.error(param, "duplicate_name", f"param `{param.name}` is declared twice", width=len(param.name))
            reported = len(self.diagnostics)
            params[param.name] = self._literal_type(param.value)
            if (declaration.kind == "rule" and self.context.setting_kind(param.name) is not None
                    and len(self.diagnostics) == reported):
                self._check_engine_setting(param)  # (a value already reported, e.g. an unknown name, once)
        return params

    def _check_engine_setting(self, param: A.Param) -> None:
        """A rule param the engine reads (a global setting) must hold what the engine reads it as,
        written out: refused here, where it is declared, rather than met by every bout."""
        kind = self.context.setting_kind(param.name)
        assert kind is not None
        code = engine_setting_problem(param.value, kind, self.context)
        if code is None:
            return
        wanted = V.SETTING_KINDS[kind]
        self.error(param.value, code, f"the rule param `{param.name}` is read by the engine as {wanted}, "
                                      f"not `{_short(param.value)}`",
                   f"e.g. `param {param.name} = {setting_example(kind, self.context)}`")

    def _literal_type(self, expr: A.Expr) -> str:
        scope = self.globals
        return self.expr_type(expr, scope)

    def _param_values(self, declaration: A.Declaration) -> dict[str, int]:
        """The params whose values are numbers known while reading (their types were worked out first)."""
        values: dict[str, int] = {}
        for param in declaration.clauses_of(A.Param):
            value = self.values.get(id(param.value))
            if value is not None:
                values.setdefault(param.name, value)
        return values

    def _args(self, declaration: A.Declaration) -> dict[str, str]:
        args: dict[str, str] = {}
        for arg in declaration.clauses_of(A.Arg):
            if arg.name in args:
                self.error(arg, "duplicate_name", f"arg `{arg.name}` is declared twice", width=len(arg.name))
            arg_type = arg.type
            if isinstance(arg_type, A.NamedType):
                types = self._arg_types(declaration.kind)
                if arg_type.name not in types:
                    what = "bound name" if declaration.kind in ("event", "window") else "argument"
                    self.error(arg_type, "unknown_type", f"unknown {what} type `{arg_type.name}`",
                               did_you_mean(arg_type.name, types) or "one of: " + ", ".join(types),
                               width=len(arg_type.name))
                args[arg.name] = self.context.type_names.get(arg_type.name, arg_type.name)
            elif isinstance(arg_type, A.ChoiceType):
                kinds = {self.globals.lookup(o) for o in arg_type.options}
                if kinds == {None}:  # words of its own, none a name the game knows: offered and read as text
                    args[arg.name] = "text"
                    continue
                for option in arg_type.options:
                    if self.globals.lookup(option) is None:
                        self.error(arg_type, "unknown_name", f"unknown choice `{option}`",
                                   self.suggest(option, self.globals.all_names))
                kind = kinds.pop() if len(kinds) == 1 else None
                args[arg.name] = kind if kind is not None else ANY
            elif isinstance(arg_type, A.ZoneCardType):
                zones = self.context.members["zone"]
                if arg_type.zone not in zones:
                    self.error(arg_type, "unknown_name", f"unknown zone `{arg_type.zone}`",
                               did_you_mean(arg_type.zone, zones) or _declared("zone", zones))
                args[arg.name] = "text"  # a card's id
            elif isinstance(arg_type, A.SpanType):
                if arg_type.name != "number":
                    self.error(arg_type, "unknown_type", f"a range argument must be a `number`, not `{arg_type.name}`")
                args[arg.name] = "number"  # its ends are checked where `self` is known (`_check_spans`)
            else:
                if arg_type.name != "number":
                    self.error(arg_type, "unknown_type", f"a range argument must be a `number`, not `{arg_type.name}`")
                if arg_type.low > arg_type.high:
                    self.error(arg_type, "out_of_range", f"the range {arg_type.low}..{arg_type.high} is empty")
                args[arg.name] = "number"
        return args

    def _check_spans(self, declaration: A.Declaration, actor: Scope) -> None:
        """The ends of a worked-out range: numbers, from what the player sees before choosing (its
        params, `self`, the table), never another argument, and without dice."""
        args = {arg.name for arg in declaration.clauses_of(A.Arg)}
        for arg in declaration.clauses_of(A.Arg):
            if not isinstance(arg.type, A.SpanType):
                continue
            for end in (arg.type.low, arg.type.high):
                read = A.names_used(end) & args
                if read:
                    self.error(end, "not_allowed", f"a range's ends cannot read an argument (`{sorted(read)[0]}`): "
                                                   "they are worked out before any is chosen")
                    continue
                self._ask("the ends of a range", end, "number", actor)

    def _arg_types(self, kind: str) -> tuple[str, ...]:
        """The types an `arg` may have: what a player can be asked for, or (for an event or a
        window) any type of value, the declared enumerations' included."""
        own = tuple(self.context.type_names)
        if kind in ("event", "window", "procedure"):
            return V.BOUND_TYPES + own + tuple(t for t in self.context.members if t not in V.BOUND_TYPES)
        return V.ARG_TYPES + tuple(word for word in own if self.context.type_names[word] in V.ARG_TYPES)

    def _actor_scope(self, declaration: A.Declaration, base: Scope, args: dict[str, str]) -> Scope:
        if declaration.kind == "procedure":  # no one acts: it sees its args and params only
            return base.child(args)
        names: dict[str, str] = {"self": self.context.actor_type}
        targets = declaration.property("targets")
        if targets is not None and targets.values and isinstance(targets.values[0], A.Name) and targets.values[0].id == "opponent":
            names["target"] = "piece"
        names.update(args)
        return base.child(names)

    def _check_required(self, declaration: A.Declaration) -> None:
        kind = declaration.kind
        # A piece's command costs points; a player of a game without pieces acts without any.
        # A control (`offered control`) is no command given: it costs nothing unless it says so.
        if (kind == "command" and not declaration.clauses_of(A.Cost) and self.context.actor_type != "player"
                and not offered_as_control(declaration)):
            self.error(declaration, "missing_clause", f"command `{declaration.id}` has no `cost` clause",
                       "every command costs something, e.g. `cost 1 MP`", width=len(declaration.id))
        if kind == "trait_ability" and not declaration.clauses_of(A.Window):
            self.error(declaration, "missing_clause", f"trait ability `{declaration.id}` has no `window` clause",
                       "say when it may be used, e.g. `window any_time`", width=len(declaration.id))
        if declaration.clauses_of(A.On) and not declaration.clauses_of(A.Roll):
            on = declaration.clauses_of(A.On)[0]
            self.error(on, "missing_clause", "`on success`/`on failure` needs a `roll` clause", width=2)
        if kind == "procedure":
            self._check_no_recursion(declaration)
        if kind == "stat":
            self._check_stat_bounds(declaration)
        if kind == "state":
            self._check_hold(declaration)
        if kind == "pile":
            self._check_counter(declaration)
            self._check_pile(declaration)
        if kind == "kind":
            self._check_kind(declaration)

    def _check_hold(self, state: A.Declaration) -> None:
        """A state naming a hold's attributes is the one a piece held is in: a game has one such
        state (the first in view; any other is refused), and its two names differ."""
        named = [prop for name in HOLD_PROPERTIES if (prop := state.property(name)) is not None]
        if not named:
            return
        first = self.context.hold_states[0] if self.context.hold_states else state.id
        if first != state.id:
            self.error(named[0], "duplicate_name", f"state `{first}` already is the state of a piece held",
                       "a game has one hold: name its attributes on that state only", width=len(named[0].name))
            return
        words = [prop.values[0].id for prop in named if len(prop.values) == 1 and isinstance(prop.values[0], A.Name)]
        if len(words) == 2 and words[0] == words[1]:
            self.error(named[1], "duplicate_name", f"`holding` and `held_by` are both `{words[0]}`",
                       "name the piece held and the piece holding it apart", width=len(named[1].name))

    def _check_hold_word(self, prop: A.Property, value: A.Expr) -> None:
        """A state's `holding` or `held_by`: a word scripts read on a piece, so none a piece already
        has (an attribute, a stat), nor a field the log already names."""
        example = f"e.g. `{prop.name} {'carrying' if prop.name == 'holding' else 'carrier'}`"
        if not isinstance(value, A.Name):
            self.error(value, "wrong_type", f"`{prop.name}` takes a word, {example}")
            return
        taken = (*V.PIECE_ATTRIBUTES, *self.context.stats, *V.LOG_FIELDS, *self.context.type_names)
        if value.id in taken:
            self.error(value, "duplicate_name", f"`{value.id}` is already a name a piece is read by or the log writes",
                       f"name the hold's `{prop.name}` for what it is, {example}", width=len(value.id))

    def _check_stat_bounds(self, stat: A.Declaration) -> None:
        """Where a stat's `low`, `start` and `high` are written out, they are in that order."""
        written = {name: (prop.values[0], amount) for name in ("low", "start", "high")
                   if (prop := stat.property(name)) is not None and len(prop.values) == 1
                   and isinstance(amount := stat_amount(stat, name, 0), int)}
        low, high, start = written.get("low"), written.get("high"), written.get("start")
        lowest = low[1] if low is not None else (0 if stat.property("low") is None else None)  # no `low`: 0
        if low is not None and high is not None and low[1] > high[1]:
            self.error(high[0], "out_of_range", f"`high` ({high[1]}) is below `low` ({low[1]})")
        if start is not None and ((lowest is not None and start[1] < lowest) or (high is not None and start[1] > high[1])):
            self.error(start[0], "out_of_range", f"`start` ({start[1]}) lies outside `low` to `high`")
        if stat_group(stat) in V.STAT_GROUPS:
            for node, amount in written.values():
                if amount < 0:
                    self.error(node, "out_of_range", f"a stat of the `{stat_group(stat)}` group never goes below 0")
        levels = stat.property("levels")
        if levels is not None and stat_group(stat) in V.STAT_GROUPS:
            self.error(levels, "unexpected_argument", f"a stat of the `{stat_group(stat)}` group has no levels",
                       "levels name the values of a stat that `add_stat` changes", width=len("levels"))

    def _check_kind(self, kind: A.Declaration) -> None:
        """A declared kind is named after a built-in kind it is `like` (one whose behaviour the engine
        reads from content: LIKE_KINDS), and its id is no built-in kind: a declaration written with it
        would be ambiguous."""
        if kind.id in A.DECLARATION_KINDS:
            self.error(kind, "duplicate_name", f"`{kind.id}` is a built-in kind of declaration",
                       f"name the kind for what its cards are, e.g. `kind my_{kind.id} ... {{ like ... }}`",
                       width=len(kind.id))
        like = kind.property("like")
        if like is None:
            self.error(kind, "missing_clause", f"kind `{kind.id}` says no kind it is like",
                       "e.g. `like hand_card` (a card used from a hand) or `like drawn_card` (played when drawn)",
                       width=len(kind.id))
            return
        value = like.values[0] if len(like.values) == 1 else None
        if not isinstance(value, A.Name) or value.id not in V.LIKE_KINDS:
            named = value.id if isinstance(value, A.Name) else None
            self.error(value if isinstance(value, A.Node) else like, "unknown_kind",
                       f"a kind is like one of the built-in kinds {', '.join(V.LIKE_KINDS)}"
                       + (f", not `{named}`" if named else ""),
                       (did_you_mean(named, V.LIKE_KINDS) if named else None) or "one of: " + ", ".join(V.LIKE_KINDS))

    def _check_counter(self, pile: A.Declaration) -> None:
        """A counter is read on a piece by its id (`self.<id>`), so its id is no attribute a piece
        already has; only a counter's coins sit on numbers, so only a counter has a `reason`."""
        numbered = pile.property("numbered")
        counter = numbered is not None and any(isinstance(v, A.Bool) and v.value for v in numbered.values)
        if counter and (pile.id in V.PIECE_ATTRIBUTES or pile.id in self.context.stats):
            self.error(pile, "duplicate_name", f"a piece already has `{pile.id}`: a counter is read on a piece by its id",
                       "name the counter for what it counts", width=len(pile.id))
        reason = pile.property("reason")
        if reason is not None and not counter:
            self.error(reason, "unexpected_argument", "only a counter (`numbered true`) has a `reason`: the log's "
                                                      "reason for a coin marked on a number", width=len("reason"))

    def _check_pile(self, pile: A.Declaration) -> None:
        """A pile is a counter, the reserve, one each player holds or one shared, and its properties
        say what that kind of pile can be: a game has one reserve and one default pile for each
        purpose (each of the shared ones and of those each player holds); a pile each player holds
        is read on a piece by its id; a shared pile's coins are a field of the log's last line."""
        def flag(name: str) -> bool:
            prop = pile.property(name)
            return prop is not None and any(isinstance(v, A.Bool) and v.value for v in prop.values)

        counter, reserve, owned = flag("numbered"), flag("reserve"), pile.property("owner") is not None
        kind = "a counter" if counter else "the reserve" if reserve else "a pile each player holds" if owned else None
        refused = {"a counter": ("owner", "reserve", "start", "per", "default_for"),
                   "the reserve": ("owner", "start", "per"), "a pile each player holds": ("per",)}.get(kind or "", ())
        for name in refused:
            prop = pile.property(name)
            if prop is not None:
                self.error(prop, "unexpected_argument", f"{kind} has no `{name}`", width=len(name))
        per = pile.property("per")
        if per is not None and pile.property("start") is None and kind is None:
            self.error(per, "missing_clause", "`per player` shares out the pile's `start`: give it one",
                       "e.g. `start 5` and `per player`", width=len("per"))
        start = pile.property("start")
        if start is not None and len(start.values) == 1 and isinstance(start.values[0], A.Neg):
            self.error(start.values[0], "out_of_range", "a pile never holds fewer than 0 coins")
        if reserve and self.context.reserve not in (None, pile.id):
            self.error(pile.property("reserve") or pile, "duplicate_name", f"pile `{self.context.reserve}` already is "
                       "the reserve", "a game has one reserve: the coins of every other pile come out of it",
                       width=len("reserve"))
        defaults = pile.property("default_for")
        if defaults is not None and not counter:
            first = self.context.owned_defaults if owned else self.context.shared_defaults
            for value in defaults.values:
                if not isinstance(value, A.Name):
                    continue
                if owned and value.id != "damage":
                    self.error(value, "wrong_type", f"a pile each player holds is the default for `damage` only: "
                               f"`{value.id}` needs a shared pile", width=len(value.id))
                elif first.get(value.id, pile.id) != pile.id:
                    self.error(value, "duplicate_name", f"pile `{first[value.id]}` already is the default for "
                               f"`{value.id}`", "a game has one default pile for each purpose", width=len(value.id))
        if owned and not counter and (pile.id in V.PIECE_ATTRIBUTES or pile.id in V.PLAYER_ATTRIBUTES
                                      or pile.id in self.context.stats):
            self.error(pile, "duplicate_name", f"a piece or a player already has `{pile.id}`: a pile each player "
                       "holds is read on them by its id", "name the pile for what it holds", width=len(pile.id))
        if kind is None and pile.id in (*V.BOUT_END_FIELDS, *V.LOG_FIELDS):
            self.error(pile, "duplicate_name", f"`{pile.id}` is a field the log already writes: the last line "
                       "names each shared pile's coins by its id", "name the pile for what it holds", width=len(pile.id))

    def _check_no_recursion(self, procedure: A.Declaration) -> None:
        """A procedure may not run itself, directly or through other procedures: every script ends.
        Refused at the first call of its effects that leads back to it."""
        calls = self.context.procedure_calls
        for call in calls.get(procedure.id, ()):
            path = _path_to(call.verb, procedure.id, calls)
            if path is not None:
                through = " -> ".join([procedure.id, *path])
                self.error(call, "recursion", f"procedure `{procedure.id}` would run itself ({through})",
                           "a procedure may run other procedures, never itself", width=len(call.verb))
                return

    # ---------------------------------------------------------------- clauses
    def _check_clause(self, declaration: A.Declaration, clause: A.Clause, base: Scope, actor: Scope,
                      window_names: Mapping[str, str]) -> None:
        kind = self.context.base_kind(declaration.kind) or declaration.kind
        if isinstance(clause, A.Property):
            self._check_property(kind, clause, base, declaration.kind)
        elif isinstance(clause, A.Cost):
            traits = self.context.members.get("trait", ())
            resources = V.COST_RESOURCES + traits + self.context.owned_piles
            for item in clause.items:
                if item.resource not in resources:
                    self.error(item, "unknown_name", f"unknown cost resource `{item.resource}`",
                               did_you_mean(item.resource, resources) or "one of: " + ", ".join(resources),
                               width=len(item.resource))
                elif kind == "trait_ability" and item.resource not in traits:
                    self.error(item, "wrong_type", f"a trait ability is paid from trait reserves, not `{item.resource}`",
                               f"e.g. `cost 5 {traits[0]}`" if traits else "the game declares no trait "
                               "(`stat <id> { group trait }`)", width=len(item.resource))
                self._ask("a cost", item.amount, "number", actor)
                # A literal amount out of range is the JSON Schema's to report (schema/out_of_range);
                # any other amount known while reading (`-5`, `6 * 3`, a param) is refused here.
                if not isinstance(item.amount, A.Num):
                    self._check_range(item.amount, V.COST_RANGE)
        elif isinstance(clause, A.Requires):
            if kind == "rule":  # a rule's requirement applies to every command a piece gives
                scope = base.child({"self": self.context.actor_type, "target": ANY, "command": "command"})
            elif "window" in V.CLAUSES[kind]:  # used in windows: their names are known when it is offered
                scope = actor.child(window_names)
            else:
                scope = actor.child({"command": "command"}) if kind == "command" else actor
            self._ask("a requirement", clause.condition, "bool", scope)
        elif isinstance(clause, A.Roll):
            if clause.kind not in V.ROLL_KINDS:
                self.error(clause, "unknown_name", f"unknown roll `{clause.kind}`",
                           did_you_mean(clause.kind, V.ROLL_KINDS) or "one of: " + ", ".join(V.ROLL_KINDS), width=len(clause.kind))
            spec = clause.spec
            if isinstance(spec, A.OpposedRoll):
                if spec.against != "defense":
                    self.error(spec, "unknown_name", f"an opposed roll is made against `defense`, not `{spec.against}`",
                               f"write `roll {clause.kind} {_short(spec.level)} vs defense`")
                if clause.kind != "attack":
                    self.error(clause, "wrong_type", "only an `attack` roll is opposed (`vs defense`)")
                self.expect(spec.level, "number", actor)
            elif isinstance(spec, A.ThresholdRoll) and not 1 <= spec.target <= 6:
                self.error(spec, "out_of_range", f"a d6 cannot roll {spec.target}+", "use 1+ to 6+")
        elif isinstance(clause, A.On):
            if clause.outcome not in V.OUTCOMES:
                self.error(clause, "unknown_name", f"unknown outcome `{clause.outcome}`",
                           did_you_mean(clause.outcome, V.OUTCOMES) or "use `on success` or `on failure`", width=len(clause.outcome))
            self.check_block(clause.body, actor.child(dict(V.ROLL_NAMES)))
        elif isinstance(clause, A.Effect):
            names = dict(V.ROLL_NAMES) if "window" in V.CLAUSES[kind] else {}
            names.update(window_names)
            self.check_block(clause.body, actor.child(names))
        elif isinstance(clause, A.When):
            events = self.context.events
            if clause.event not in events:
                self.error(clause, "unknown_event", f"unknown event `{clause.event}`",
                           did_you_mean(clause.event, events) or _declared("event", events), width=len(clause.event))
                event_names: dict[str, str] = {}
            else:
                event_names = dict(events[clause.event])
            # What listens for the whole bout is not a piece's; a rule naming a role (a talent) listens
            # for each piece of it, and everything else for the piece holding it: `self` is that piece.
            role_word = self.context.role_word
            owned = kind not in V.BOUT_LISTENERS or role_word is not None and declaration.property(role_word) is not None
            scope_base = actor if owned else base
            scope = scope_base.child(event_names)
            if clause.condition is not None:
                self.expect(clause.condition, "bool", scope)
            self.check_block(clause.body, scope)
        elif isinstance(clause, A.Window):
            windows = self.context.windows
            if clause.name not in windows:
                self.error(clause, "unknown_window", f"unknown timing window `{clause.name}`",
                           did_you_mean(clause.name, windows) or _declared("window", windows), width=len(clause.name))
            if clause.by is not None and clause.by not in V.WINDOW_ROLES:
                self.error(clause, "unknown_name", f"unknown window role `{clause.by}`",
                           did_you_mean(clause.by, V.WINDOW_ROLES) or "use `by self`, `by opponent` or `by any`")

    def _ask(self, question: str, expr: A.Expr, expected: str, scope: Scope) -> None:
        """Check `expr` as `question` ("a cost", "a requirement"): no function in it may roll dice."""
        self.question = question
        try:
            self.expect(expr, expected, scope)
        finally:
            self.question = None

    def _window_names(self, declaration: A.Declaration) -> dict[str, str]:
        names: dict[str, str] = {}
        for window in declaration.clauses_of(A.Window):
            names.update(self.context.windows.get(window.name, {}))
        return names

    def _check_property(self, kind: str, prop: A.Property, scope: Scope, written: str | None = None) -> None:
        """`prop` of a declaration of `kind` (a built-in kind; `written`: the kind it is written as)."""
        known = V.PROPERTIES[kind]
        if kind in V.ROLE_KINDS and self.context.role_word is not None:  # the role it belongs to
            known = {**known, self.context.role_word: ("text", "one")}
        if kind == "card" and prop.name not in known:  # a field of the pack's own
            self._check_card_field(prop)
            return
        if prop.name not in known:
            self.error(prop, "unknown_property", f"a {written or kind} has no property `{prop.name}`",
                       did_you_mean(prop.name, known) or "properties: " + ", ".join(known), width=len(prop.name))
            return
        value_type, arity = known[prop.name]
        if arity == "one" and len(prop.values) != 1:
            self.error(prop, "wrong_arity", f"`{prop.name}` takes one value, got {len(prop.values)}", width=len(prop.name))
        symbols = V.PROPERTY_VALUES.get(prop.name)
        if prop.name == "holds":  # a zone holds the cards of one declaration kind, built-in or declared
            symbols = self.context.kinds_in_view
        if prop.name == "owner" and kind in ("stat", "pile"):  # a stat or a pile is each piece's, or each player's
            symbols = ("player",)
        if prop.name == "group" and kind == "command":  # a section of the game's menu
            symbols = self.context.groups or None
        if prop.name == "activation":  # one of the ways the game's hazards come into play
            symbols = self.context.activations or None
        if prop.name == "layouts" or kind == "game" and prop.name in ("profiles", "roles"):  # a kind of YAML data
            symbols = tuple(DATA_TYPES)
        for value in prop.values:
            if value_type == "name":
                self._check_type_name(prop, value)
            elif value_type == "attribute":
                self._check_hold_word(prop, value)
            elif value_type == "procedure":
                self._check_procedure_named(prop, value)
            elif value_type == "turn_procedure":
                self._check_procedure_named(prop, value, arguments=1)
            elif value_type in ("event", "turn"):
                declared = tuple(self.context.events) if value_type == "event" else self.context.turns
                self._check_declared(prop, value, value_type, declared)
            elif value_type == "flag":
                if not isinstance(value, A.Bool):
                    self.error(value, "wrong_type", f"`{prop.name}` is `true` or `false`")
            elif value_type == "score":
                self._check_score(prop, value)
            elif value_type == "amount":
                self._check_amount(prop, value, scope)
            elif value_type == "number":
                self.expect(value, "number", scope)
                self._check_written_number(prop, value)
            elif isinstance(value, A.Name):
                if symbols is not None and value.id not in symbols:
                    self.error(value, "unknown_name", f"unknown {prop.name} `{value.id}`",
                               did_you_mean(value.id, symbols) or "one of: " + ", ".join(symbols), width=len(value.id))
            elif isinstance(value, A.NoneLit) and symbols is not None and "none" in symbols:
                pass  # `visible none`: the keyword is the word
            elif not isinstance(value, A.Str):
                self.error(value, "wrong_type", f"`{prop.name}` takes a word or quoted text")
            elif prop.name in V.PROPERTY_PATTERNS and not re.fullmatch(V.PROPERTY_PATTERNS[prop.name][0], value.value):
                self.error(value, "out_of_range", f"`{prop.name}` is {V.PROPERTY_PATTERNS[prop.name][1].split(', e.g.')[0]}",
                           V.PROPERTY_PATTERNS[prop.name][1])

    def _check_type_name(self, prop: A.Property, value: A.Expr) -> None:
        """A stat's `group`: a word that becomes a type of the language, so not one it has."""
        if not isinstance(value, A.Name):
            self.error(value, "wrong_type", f"`{prop.name}` takes a word, e.g. `{prop.name} trait`")
        elif value.id in _RESERVED_TYPES:
            self.error(value, "duplicate_name", f"`{value.id}` is already a type of the language",
                       "name the group for what its stats are, e.g. `group trait`", width=len(value.id))

    def _check_procedure_named(self, prop: A.Property, value: A.Expr, arguments: int = 0) -> None:
        """A game's `verdict`: a procedure the engine runs with no args; a turn's `closing`, with one
        (who took the turn)."""
        procedures = self.context.procedures
        self._check_declared(prop, value, "procedure", tuple(procedures))
        taken = len(procedures[value.id].positional) if isinstance(value, A.Name) and value.id in procedures else arguments
        if isinstance(value, A.Name) and taken != arguments:
            takes = "takes arguments" if arguments == 0 else f"takes {taken} argument(s)"
            given = "none" if arguments == 0 else "one, who took the turn"
            self.error(value, "wrong_type", f"procedure `{value.id}` {takes}; the engine runs `{prop.name}` with {given}",
                       width=len(value.id))

    def _check_declared(self, prop: A.Property, value: A.Expr, kind: str, declared: tuple[str, ...]) -> None:
        """A property naming a declaration of a kind (a turn's `starts` an event, a game's `turn` a turn)."""
        if not isinstance(value, A.Name):
            self.error(value, "wrong_type", f"`{prop.name}` names {self.describe(kind)}")
        elif value.id not in declared:
            self.error(value, "unknown_name", f"`{value.id}` is not {self.describe(kind)}",
                       did_you_mean(value.id, declared) or _declared(kind, declared), width=len(value.id))

    def _check_card_field(self, prop: A.Property) -> None:
        """A card's field: one number, word, text, or true or false, written out."""
        if len(prop.values) != 1:
            self.error(prop, "wrong_arity", f"the field `{prop.name}` takes one value, got {len(prop.values)}",
                       width=len(prop.name))
            return
        value = prop.values[0]
        if isinstance(value, A.Neg) and isinstance(value.operand, A.Num):
            return
        if not isinstance(value, (A.Num, A.Str, A.Bool, A.Name)):
            self.error(value, "not_constant", f"the field `{prop.name}` is a number, a word, text, or true or false, "
                                              "written out")

    def _check_score(self, prop: A.Property, value: A.Expr) -> None:
        """A game's `score`: a number every piece has, an attribute or a declared stat."""
        if self.context.actor_type == "player":  # a game without pieces: a stat or a pile each player holds
            numbers = self.context.player_stats + self.context.owned_piles
        else:
            numbers = (tuple(name for name, kind in V.PIECE_ATTRIBUTES.items() if kind == "number") + self.context.stats
                       + self.context.owned_piles)
        if not isinstance(value, A.Name):
            self.error(value, "wrong_type", f"`{prop.name}` names a number every piece has, e.g. `{prop.name} points`")
        elif value.id not in numbers:
            self.error(value, "unknown_name", f"`{value.id}` is not a number every piece has",
                       did_you_mean(value.id, numbers) or "one of: " + ", ".join(numbers), width=len(value.id))

    def _check_amount(self, prop: A.Property, value: A.Expr, scope: Scope) -> None:
        """A whole number written out (0 up), or the name of the rule param that holds one, which
        the engine then reads as a count (`start starting_points`)."""
        if isinstance(value, A.Name):
            if self.context.settings.get(value.id) is None:
                self.error(value, "unknown_name", f"`{value.id}` is not a rule param",
                           self.suggest(value.id, lambda: self.context.settings), width=len(value.id))
            return
        self.expect(value, "number", scope)
        if isinstance(value, A.Neg) and isinstance(value.operand, A.Num) and prop.name in ("low", "start", "high"):
            value = value.operand  # a plain stat may go below 0 (a score with penalties)
        known = self.values.get(id(value))
        if not isinstance(value, A.Num) or known is None or not 0 <= known <= MAX_NUMBER:
            self.error(value, "not_constant", f"`{prop.name}` is a whole number written out, or a rule param's name",
                       f"e.g. `{prop.name} 10` or `{prop.name} starting_points`")

    def _check_written_number(self, prop: A.Property, value: A.Expr) -> None:
        """A number property is read by the engine as a number written out, within its range."""
        number_range = V.PROPERTY_RANGES.get(prop.name)
        if number_range is None:
            return
        if self._check_range(value, number_range):
            return
        if not isinstance(value, A.Num):
            self.error(value, "not_constant", f"`{prop.name}` is read as a number written out",
                       f"write {number_range.what} as a plain number ({number_range.describe()}), "
                       f"e.g. `{prop.name} {max(number_range.low, 1)}`")

    def _check_range(self, expr: A.Expr, number_range: V.NumberRange) -> bool:
        """Refuse `expr` if its value is known while reading and outside `number_range`; whether refused."""
        value = self.values.get(id(expr))
        if value is None or number_range.accepts(value):
            return False
        self.error(expr, "out_of_range", number_range.refusal(value))
        return True

    # ---------------------------------------------------------------- statements
    def check_block(self, block: A.Block, scope: Scope) -> None:
        local = scope.child()
        for stmt in block.statements:
            self.check_statement(stmt, local)

    def check_statement(self, stmt: A.Stmt, scope: Scope) -> None:
        if isinstance(stmt, A.Let):
            scope.bind(stmt.name, self.expr_type(stmt.value, scope), self.values.get(id(stmt.value)), let=True)
        elif isinstance(stmt, A.Set):
            self._check_set(stmt, scope)
        elif isinstance(stmt, A.If):
            for branch in stmt.branches:
                self.expect(branch.condition, "bool", scope)
                self.check_block(branch.body, scope)
            if stmt.otherwise is not None:
                self.check_block(stmt.otherwise, scope)
        elif isinstance(stmt, A.ForEach):
            iterable = self.expr_type(stmt.iterable, scope)
            if iterable not in ("list", "squares", ANY):
                self.error(stmt.iterable, "wrong_type", f"`for each` needs a list, got {self.describe(iterable)}")
            element = "square" if iterable == "squares" else ("piece" if _is_piece_list(stmt.iterable) else ANY)
            self.check_block(stmt.body, scope.child({stmt.var: element}))
        elif isinstance(stmt, A.Repeat):
            self.expect(stmt.count, "number", scope)
            self.check_block(stmt.body, scope)
        elif isinstance(stmt, A.Action):
            self.check_action(stmt, scope)

    def _check_set(self, stmt: A.Set, scope: Scope) -> None:
        """`set` binds again a name an enclosing `let` bound, to a value of a kind it may hold: never
        a rule param, a declaration's param or arg, a loop's name or a word of the game, which a
        script reads and never changes."""
        binding = scope.binding(stmt.name)
        if binding is None or stmt.name not in binding.lets:
            what = "is not bound here" if binding is None else "was not bound by `let`"
            self.error(stmt, "not_a_local", f"`set {stmt.name}`: `{stmt.name}` {what}",
                       f"`set` changes a name a `let` of this effect bound before it: write `let {stmt.name} = ...` "
                       "first, or use `let` to bind a new name", width=len(stmt.name))
            self.expr_type(stmt.value, scope)
            return
        declared = binding.names[stmt.name]
        actual = self.expr_type(stmt.value, scope)
        if not compatible(declared, actual):
            self.error(stmt.value, "wrong_type", f"`{stmt.name}` holds {self.describe(declared)}, "
                                                 f"not {self.describe(actual)}")
        # Its value is no longer known while reading: the `set` may run or not, once or many times.
        binding.constants.pop(stmt.name, None)

    def check_action(self, action: A.Action, scope: Scope) -> None:
        signature = V.PRIMITIVES.get(action.verb) or self.context.procedures.get(action.verb)
        if signature is None:
            effects = [*V.PRIMITIVES, *self.context.procedures]
            self.error(action, "unknown_name", f"unknown effect `{action.verb}`",
                       _by_meaning(action.verb, V.EFFECT_SYNONYMS) or did_you_mean(action.verb, effects)
                       or "effects: " + ", ".join(sorted(effects)), width=len(action.verb))
            for arg in action.args:
                self.expr_type(arg, scope)
            for prep in action.preps:
                self.expr_type(prep.value, scope)
            return
        missing, args = self._check_missing_prepositions(action, signature, scope)
        seen: set[str] = set(missing)
        self._check_positional(action, action.verb, signature, args, scope)
        if action.verb in ("signal", "record", "open_window"):
            self._check_signalled_names(action, scope)
        for prep in action.preps:
            if prep.prep in seen:
                self.error(prep, "duplicate_name", f"`{prep.prep}` is given twice", width=len(prep.prep))
            seen.add(prep.prep)
            expected = signature.preps.get(prep.prep)
            if expected == "name":
                if isinstance(prep.value, A.Name):
                    scope.bind(prep.value.id, ANY)  # `choose ... into pick` binds `pick`
                else:
                    self.error(prep.value, "wrong_type", f"`{prep.prep}` takes a plain name to bind the choice to")
                continue
            if expected is None:
                allowed = ", ".join(f"`{p}`" for p in signature.preps) or "none"
                self.error(prep, "unexpected_argument", f"`{action.verb}` takes no `{prep.prep}` argument",
                           f"it takes: {allowed}", width=len(prep.prep))
                self.expr_type(prep.value, scope)
            else:
                self.expect(prep.value, expected, scope)
                if prep.prep in signature.ranges:
                    self._check_range(prep.value, signature.ranges[prep.prep])
        for required in signature.required_preps:
            if required not in seen:
                self.error(action, "missing_argument", f"`{action.verb}` needs a `{required}` argument",
                           _usage(action.verb, signature), width=len(action.verb))

    def _check_missing_prepositions(self, action: A.Action, signature: V.Signature,
                                    scope: Scope) -> tuple[list[str], tuple[A.Expr, ...]]:
        """`damage h 3`: a value for each required word missing (`by`) written after the positional
        arguments with its word left out (or, `damage 3 h`, before them). One error saying how to write
        it, rather than one for the extra argument and one for the missing word. Returns the words
        it stands for and the positional arguments left to check."""
        given = {prep.prep for prep in action.preps}
        missing = [prep for prep in signature.required_preps if prep not in given]
        positional = action.args[:len(signature.positional)]
        extra = action.args[len(signature.positional):]
        if not extra or len(extra) != len(missing):
            return [], action.args
        at = extra[0]
        if len(positional) == len(extra) == 1 and self._swapped(positional[0], extra[0], signature.positional[0],
                                                                signature.preps[missing[0]], scope):
            positional, extra, at = extra, positional, positional[0]
        written = " ".join([action.verb, *(_short(arg) for arg in positional),
                            *(f"{prep.prep} {_short(prep.value)}" for prep in action.preps),
                            *(f"{word} {_short(value)}" for word, value in zip(missing, extra))])
        wanted = " and ".join(f"{describe(signature.preps[word])} after the word `{word}`" for word in missing)
        self.error(at, "missing_argument",
                   f"`{action.verb}` takes {wanted}: write `{written}`", _usage(action.verb, signature))
        for word, value in zip(missing, extra):
            if signature.preps[word] != "name":
                self.expect(value, signature.preps[word], scope)
        return missing, positional

    def _swapped(self, first: A.Expr, second: A.Expr, first_type: str, second_type: str, scope: Scope) -> bool:
        """Whether two values fit their places only the other way round (`damage 3 h`)."""
        written = len(self.diagnostics), self.suggestions_left
        types = self.expr_type(first, scope), self.expr_type(second, scope)
        del self.diagnostics[written[0]:]  # only asked: each value is checked again where it belongs
        self.suggestions_left = written[1]
        return (not compatible(first_type, types[0]) and compatible(first_type, types[1])
                and compatible(second_type, types[0]))

    def _check_signalled_names(self, action: A.Action, scope: Scope) -> None:
        """`signal <event>` and `open_window <window>` bind each name the event or window declares
        to the value of that name where they are given: a name of the script's that it binds must
        be of its type."""
        raised = action.args[0] if action.args else None
        declared = self.context.windows if action.verb == "open_window" else self.context.events
        if not isinstance(raised, A.Name) or raised.id not in declared:
            return
        for name, wanted in declared[raised.id].items():
            here = scope.lookup(name) if name != "self" else None
            # a declaration's id of that name (the event `deceived`) is no name the script bound:
            # the engine binds none there
            if here is not None and here != "id" and not compatible(wanted, here):
                self.error(action, "wrong_type", f"`{action.verb} {raised.id}` binds `{name}` to the `{name}` here, "
                                                 f"which is {self.describe(here)}, not {self.describe(wanted)}",
                           width=len(action.verb))

    def _check_positional(self, node: A.Node, name: str, signature: V.Signature, args: Iterable[A.Expr],
                          scope: Scope) -> None:
        args = list(args)
        most = len(signature.positional)
        least = most - signature.optional_positional
        if not least <= len(args) <= most:
            expected = str(most) if least == most else f"{least} to {most}"
            self.error(node, "wrong_arity", f"`{name}` takes {expected} argument{'s' if most != 1 else ''}, got {len(args)}",
                       _usage(name, signature), width=len(name))
        for position, (arg, expected_type) in enumerate(zip(args, signature.positional)):
            if position in signature.ranges:
                self.expect(arg, expected_type, scope)
                self._check_range(arg, signature.ranges[position])
                continue
            if expected_type == "object_type" and isinstance(arg, A.Name) and scope.lookup(arg.id) is None:
                self.error(arg, "unknown_name", f"unknown object type `{arg.id}`",
                           did_you_mean(arg.id, self.context.object_types), width=len(arg.id))
                continue
            if expected_type in ("event", "window") and isinstance(arg, A.Name):
                declared = self.context.events if expected_type == "event" else self.context.windows
                if arg.id not in declared:
                    code = "unknown_event" if expected_type == "event" else "unknown_name"
                    self.error(arg, code, f"unknown {expected_type} `{arg.id}`",
                               did_you_mean(arg.id, declared) or _declared(expected_type, declared), width=len(arg.id))
                continue
            if expected_type == "purpose" and isinstance(arg, A.Name):
                if arg.id not in V.PURPOSES:
                    self.error(arg, "unknown_name", f"unknown die `{arg.id}`",
                               did_you_mean(arg.id, V.PURPOSES) or "dice: " + ", ".join(V.PURPOSES), width=len(arg.id))
                continue
            if expected_type == "text" and isinstance(arg, A.Str):
                continue
            if expected_type == "text" and isinstance(arg, A.Name) and scope.lookup(arg.id) is None:
                # a word meant as text (`log hello`), unless it looks like a name misspelt
                budget = self.suggestions_left > 0
                hint = self.suggest(arg.id, scope.all_names)
                if budget:
                    quoted = f'text is written in double quotes: `{name} ... "{arg.id}"`'
                    hint = f"{hint} Or, {quoted}" if hint else quoted
                self.error(arg, "unknown_name", f"unknown name `{arg.id}`", hint, width=len(arg.id))
                continue
            self.expect(arg, expected_type, scope)

    # ---------------------------------------------------------------- expressions
    def expect(self, expr: A.Expr, expected: str, scope: Scope) -> str:
        if expected == "pile" and isinstance(expr, A.Name) and expr.id in self.context.owned_piles:
            self.error(expr, "wrong_type", f"each player holds a `{expr.id}`: name whose",
                       "a piece or a player stands for its player's pile, e.g. `to self`", width=len(expr.id))
            return expected
        if isinstance(expr, A.Name) and scope.lookup(expr.id) is None and expected == "command":
            self.error(expr, "unknown_name", f"no command `{expr.id}` is in view",
                       did_you_mean(expr.id, self.context.commands)
                       or "a command is named by its id: declare it, or load the pack that does", width=len(expr.id))
            return expected
        if isinstance(expr, A.Name) and scope.lookup(expr.id) is None:
            members = self.context.members_of(expected)
            if members is not None or expected in ("state", "pile", "counter", "stat", "zone") + V.STAT_GROUPS:
                # An unknown word where a state, a direction, a trait... belongs: name the choices.
                members = members or ()
                self.error(expr, "unknown_name", f"unknown {self.describe(expected).removeprefix('a ').removeprefix('an ')} `{expr.id}`",
                           did_you_mean(expr.id, members) or (
                               "one of: " + ", ".join(members) if expected in V.ENUM_TYPES else _declared(expected, members)),
                           width=len(expr.id))
                return expected
        actual = self.expr_type(expr, scope)
        if not compatible(expected, actual):
            self.error(expr, "wrong_type", f"expected {self.describe(expected)}, got {self.describe(actual)}",
                       self._how_to_write(expr, expected) or f"`{_short(expr)}` is {self.describe(actual)}")
        return actual

    def _how_to_write(self, expr: A.Expr, expected: str) -> str | None:
        """For a value of the wrong type that is plainly the right one written the wrong way: how
        to write it (a number in quotes, a location read from a piece)."""
        if expected == "number" and isinstance(expr, A.Str) and expr.value.strip().lstrip("-").isdigit():
            return f"a number is written without quotes: `{expr.value.strip()}`"
        members = self.context.members_of(expected) or ()
        if isinstance(expr, A.Attr) and expr.name in members:
            return f"`{_short(expr)}` is a number; {self.describe(expected)} is named by itself: `{expr.name}`"
        return None

    def expr_type(self, expr: A.Expr, scope: Scope) -> str:
        if isinstance(expr, A.Num):
            self.values[id(expr)] = expr.value
            return "number"
        if isinstance(expr, A.ScaleLevel):
            self.values[id(expr)] = expr.level
            return "number"
        if isinstance(expr, A.Str):
            return "text"
        if isinstance(expr, A.Bool):
            return "bool"
        if isinstance(expr, A.NoneLit):
            return ANY
        if isinstance(expr, A.Name):
            found = scope.lookup(expr.id)
            if found is None and expr.id in V.FOREIGN_LITERALS:
                own = V.FOREIGN_LITERALS[expr.id]
                self.error(expr, "unknown_name", f"`{expr.id}` is written `{own}`",
                           "the language's words are in lower case: `true`, `false`, `none`", width=len(expr.id))
                return "bool" if own != "none" else ANY
            if found is None:
                self.error(expr, "unknown_name", f"unknown name `{expr.id}`",
                           self.suggest(expr.id, scope.all_names), width=len(expr.id))
                return ANY
            self._known(expr, scope.constant(expr.id))
            return found
        if isinstance(expr, A.ListLit):
            for item in expr.items:
                self.expr_type(item, scope)
            return "list"
        if isinstance(expr, A.Attr):
            obj = self.expr_type(expr.obj, scope)
            if obj in ("piece", "player"):  # its attributes, and the stats it holds
                attributes, stats = ((self.context.piece_attributes, self.context.stats) if obj == "piece"
                                     else (self.context.player_attributes, self.context.player_stats))
                if expr.name in attributes:
                    return attributes[expr.name]
                if expr.name in stats:
                    return "number"
                if obj == "piece" and expr.name in self.context.members.get("counter", ()):
                    return "list"  # the numbers marked on the piece's counter
                self.error(expr, "unknown_name", f"{self.describe(obj)} has no attribute `{expr.name}`",
                           did_you_mean(expr.name, list(attributes) + list(stats)))
                return ANY
            if obj == "square" and expr.name in ("col", "row"):
                return "number"
            if obj == "command":
                if expr.name not in V.COMMAND_ATTRIBUTES:
                    self.error(expr, "unknown_name", f"a command has no attribute `{expr.name}`",
                               did_you_mean(expr.name, V.COMMAND_ATTRIBUTES))
                    return ANY
                return V.COMMAND_ATTRIBUTES[expr.name]
            if obj != ANY:
                self.error(expr, "wrong_type", f"{self.describe(obj)} has no attribute `{expr.name}`")
            return ANY
        if isinstance(expr, A.Index):
            self.expr_type(expr.obj, scope)
            self.expr_type(expr.index, scope)
            return ANY
        if isinstance(expr, A.Call):
            return self._call_type(expr, scope)
        if isinstance(expr, A.Neg):
            self.expect(expr.operand, "number", scope)
            operand = self.values.get(id(expr.operand))
            self._known(expr, None if operand is None else -operand)
            return "number"
        if isinstance(expr, A.Not):
            self.expect(expr.operand, "bool", scope)
            return "bool"
        if isinstance(expr, A.Binary):
            if expr.op in ("and", "or"):
                self.expect(expr.left, "bool", scope)
                self.expect(expr.right, "bool", scope)
                return "bool"
            self.expect(expr.left, "number", scope)
            self.expect(expr.right, "number", scope)
            self._fold(expr)
            return "number"
        if isinstance(expr, A.Compare):
            return self._compare_type(expr, scope)
        raise TypeError(f"unknown expression node {type(expr).__name__}")

    def _known(self, expr: A.Expr, value: int | None) -> None:
        if value is not None:
            self.values[id(expr)] = value

    def _fold(self, expr: A.Binary) -> None:
        """Work out `left op right` when both are known; refuse a constant zero divisor and a value
        beyond ±MAX_NUMBER (where it first leaves the range)."""
        left, right = self.values.get(id(expr.left)), self.values.get(id(expr.right))
        if expr.op == "/" and right == 0:
            self.error(expr, "division_by_zero", "this divides by zero", "the engine would stop the script here")
            return
        if left is None or right is None:
            return
        self._known_within_range(expr, _ARITHMETIC[expr.op](left, right))

    def _known_within_range(self, expr: A.Expr, value: int) -> None:
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            self.values[id(expr)] = value
        else:  # left unknown, so the expressions around it are not refused again
            self.error(expr, "out_of_range", f"this comes to {value:,}, beyond the largest number a script may use",
                       f"numbers stay within ±{MAX_NUMBER:,}")

    def _compare_type(self, expr: A.Compare, scope: Scope) -> str:
        if expr.op in ("is", "is not"):
            self.expect(expr.left, "piece", scope)
            assert isinstance(expr.right, A.Name)
            states = self.context.states
            if expr.right.id not in states:
                self.error(expr.right, "unknown_name", f"unknown state `{expr.right.id}`",
                           did_you_mean(expr.right.id, states) or _declared("state", states), width=len(expr.right.id))
            return "bool"
        left = self.expr_type(expr.left, scope)
        right = self.expr_type(expr.right, scope)
        if expr.op in ("in", "not in"):
            if right not in ("squares", "list", ANY):
                self.error(expr.right, "wrong_type", f"`{expr.op}` needs a list or set of squares on its right, got {self.describe(right)}")
            return "bool"
        if expr.op in ("<", "<=", ">", ">="):
            for side, found in ((expr.left, left), (expr.right, right)):
                if not compatible("number", found):
                    self.error(side, "wrong_type", f"`{expr.op}` compares numbers, got {self.describe(found)}")
            return "bool"
        if not (compatible(left, right) or compatible(right, left)):
            self.error(expr, "wrong_type", f"cannot compare {self.describe(left)} with {self.describe(right)}")
        return "bool"

    def _call_type(self, call: A.Call, scope: Scope) -> str:
        signature = V.FUNCTIONS.get(call.func)
        if signature is None:
            self.error(call, "unknown_name", f"unknown function `{call.func}`",
                       _by_meaning(call.func, V.FUNCTION_SYNONYMS) or did_you_mean(call.func, V.FUNCTIONS)
                       or "functions: " + ", ".join(sorted(V.FUNCTIONS)), width=len(call.func))
            for arg in call.args:
                self.expr_type(arg, scope)
            return ANY
        for kwarg in call.kwargs:
            self.error(kwarg, "unexpected_argument", f"`{call.func}` takes no `{kwarg.name}:` argument", width=len(kwarg.name))
        if signature.rolls and self.question is not None:
            self.error(call, "impure", f"`{call.func}` rolls dice, and {self.question} is a question: asking it "
                                       "must not change the bout", "roll in an `effect` or with a `roll` clause",
                       width=len(call.func))
        self._check_positional(call, call.func, signature, call.args, scope)
        self._fold_call(call)
        return V.FUNCTION_RESULTS.get(call.func, ANY)

    def _fold_call(self, call: A.Call) -> None:
        """`min`, `max` and `abs` of numbers known while reading are known too."""
        known = [self.values.get(id(arg)) for arg in call.args]
        arguments = [value for value in known if value is not None]
        if call.kwargs or len(arguments) != len(known):
            return
        if call.func in ("min", "max") and len(arguments) == 2:
            self._known(call, min(arguments) if call.func == "min" else max(arguments))
        elif call.func == "abs" and len(arguments) == 1:
            self._known(call, abs(arguments[0]))


_SETTING_EXAMPLES = {"count": "5", "flag": "true", "seat_groups": "[[north, south], [east, west]]",
                     "turn_length": "one_action"}


def setting_example(kind: str, context: CheckContext) -> str:
    """A value of an engine setting's kind: a list of body locations names the first two the game
    declares (`[<location>, ...]` in a game declaring none)."""
    if kind in _SETTING_EXAMPLES:
        return _SETTING_EXAMPLES[kind]
    return "[" + ", ".join(context.members.get("location", ())[:2] or ("<location>", "...")) + "]"


def engine_setting_problem(value: A.Expr, kind: str, context: CheckContext) -> str | None:
    """The check code for a rule param the engine reads that does not hold a value of its kind
    (`vocabulary.ENGINE_SETTINGS`, or a count a stat starts at) written out, or None when it does;
    lists of locations hold the stats `context` declares in that group."""
    if kind == "count":
        if isinstance(value, A.Num):
            return None if 0 <= value.value <= MAX_NUMBER else "out_of_range"
        if isinstance(value, A.Neg) and isinstance(value.operand, A.Num):
            return None if value.operand.value == 0 else "out_of_range"  # `-0` is 0
        return "wrong_type"
    if kind == "flag":
        return None if isinstance(value, A.Bool) else "wrong_type"
    if kind == "turn_length":
        return None if isinstance(value, A.Name) and value.id in V.TURN_LENGTHS else "wrong_type"
    if kind == "seat_groups":
        groups = value.items if isinstance(value, A.ListLit) else None
        if groups is None or not all(isinstance(g, A.ListLit) and all(isinstance(s, A.Name) and s.id in V.SEATS
                                                                        for s in g.items) for g in groups):
            return "wrong_type"
        seats = [s.id for g in groups if isinstance(g, A.ListLit) for s in g.items if isinstance(s, A.Name)]
        return "out_of_range" if len(seats) != len(set(seats)) else None
    members = context.members.get("location", ())
    if not isinstance(value, A.ListLit) or not all(isinstance(i, A.Name) and i.id in members for i in value.items):
        return "wrong_type"
    return "out_of_range" if kind == "location_table" and not value.items else None


# The types of the language: no stat group may take one of their names.
_RESERVED_TYPES = (frozenset(V.BOUND_TYPES) | frozenset(V.ENUM_TYPES) | frozenset(_TYPE_WORDS)
                   | {"state", "pile", "counter", "stat", "zone"})

# How to declare a word of each kind content declares, for the hint when none is in view.
_DECLARE_HOW = {"state": "`state <id> \"<Name>\" { ... }`", "pile": "`pile <id> \"<Name>\" { ... }`",
                "counter": "`pile <id> \"<Name>\" { numbered true }`",
                "zone": "`zone <id> \"<Name>\" { holds <kind> }`",
                "event": "`event <id> \"<Name>\" { arg <name>: <type> }`",
                "window": "`window <id> \"<Name>\" { arg <name>: <type> }`",
                "procedure": "`procedure <id> \"<Name>\" { effect { ... } }`",
                "turn": "`turn <id> \"<Name>\" { ... }`"}


def _declared(kind: str, words: Iterable[str]) -> str:
    """The hint naming the words of a kind a script may use: those its packs declare (or the
    members of a type of the language itself)."""
    words = list(words)
    if not words:
        how = _DECLARE_HOW.get(kind, f"`stat <id> \"<Name>\" {{ group {kind} }}`")
        return f"no {kind} is declared: declare one with {how}"
    return f"{kind.replace('_', ' ')}s: " + ", ".join(words)


def _path_to(start: str, goal: str, calls: Mapping[str, tuple[A.Action, ...]]) -> list[str] | None:
    """The procedures from `start` to `goal` through the calls of each, or None if there is none."""
    parents: dict[str, str] = {}
    queue = [start]
    seen = {start}
    while queue:
        current = queue.pop(0)
        if current == goal:
            path = [current]
            while path[-1] in parents:
                path.append(parents[path[-1]])
            return path[::-1]
        for call in calls.get(current, ()):
            if call.verb not in seen:
                seen.add(call.verb)
                parents[call.verb] = current
                queue.append(call.verb)
    return None


def _is_piece_list(expr: A.Expr) -> bool:
    return isinstance(expr, A.Call) and expr.func in ("opponents", "friends", "pieces")


def _usage(name: str, signature: V.Signature) -> str:
    parts = [name] + [f"<{describe(t)}>" for t in signature.positional]
    parts += [f"{p} <{describe(t)}>" for p, t in signature.preps.items() if p in signature.required_preps]
    return "usage: " + " ".join(parts)


def _by_meaning(word: str, synonyms: Mapping[str, tuple[tuple[str, str], ...]]) -> str | None:
    """The language's words for what an unknown `word` means (`gain`: `grant`, `add_stat`...), or
    what to write for a word of another language (`return`), or None."""
    if word in V.FOREIGN_WORDS:
        return V.FOREIGN_WORDS[word]
    meant = synonyms.get(word) or synonyms.get(word.lower())
    return V.synonym_hint(meant) if meant else None


def _short(expr: A.Expr) -> str:
    from ..syntax.printer import print_expr

    text = print_expr(expr)
    return text if len(text) <= 40 else text[:37] + "..."


def _clause_name(clause: A.Clause) -> str:
    return {
        A.Property: "property", A.Cost: "cost", A.Requires: "requires", A.Roll: "roll", A.On: "on",
        A.When: "when", A.Window: "window", A.Param: "param", A.Arg: "arg", A.Effect: "effect",
    }[type(clause)]


def check_declarations(declarations: Iterable[A.Declaration], context: CheckContext | None = None) -> list[Diagnostic]:
    checker = Checker(context)
    for declaration in declarations:
        checker.check(declaration)
    return checker.diagnostics
