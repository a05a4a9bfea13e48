"""The typed syntax tree of a rule script.

Every node is a frozen dataclass carrying its source position. Positions are excluded from
equality, so a declaration printed and parsed again compares equal to the original
(`parse(print(x)) == x`). Nothing after the parser sees Lark trees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Callable, ClassVar, Hashable, Iterator, TypeVar, Union


@dataclass(frozen=True)
class Pos:
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0
    file: str = "<input>"


NO_POS = Pos()
#: What a node keeps beside its fields that is worked out from them (never pickled with it).
DERIVED = frozenset({"_closure", "_clause_cache", "_property_cache", "_facts"})


@dataclass(frozen=True)
class Node:
    pos: Pos = field(default=NO_POS, compare=False, repr=False, kw_only=True)
    # The closure an expression compiles into (`engine/compiled.py`), kept on the node once built;
    # None on the class until then, so reading it is one attribute read, not a dictionary search.
    _closure: ClassVar[Any] = None

    def __getstate__(self) -> dict[str, Any]:
        # What the engine works out and keeps beside the fields (answers, compiled closures) belongs
        # to this process: a copy elsewhere works it out again.
        return {name: value for name, value in self.__dict__.items() if name not in DERIVED}


# ---------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    value: str


@dataclass(frozen=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True)
class NoneLit(Node):
    pass


@dataclass(frozen=True)
class ScaleLevel(Node):
    """A level of the dice scale written out (how far a roll slides): `SD` is 0, `+SDS` is 1, `-2SDS` is -2."""

    level: int


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Attr(Node):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Index(Node):
    obj: Expr
    index: Expr


@dataclass(frozen=True)
class KeywordArg(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple[Expr, ...] = ()
    kwargs: tuple[KeywordArg, ...] = ()


@dataclass(frozen=True)
class Neg(Node):
    operand: Expr


@dataclass(frozen=True)
class Not(Node):
    operand: Expr


@dataclass(frozen=True)
class Binary(Node):
    """Arithmetic `+ - * /` (integer division) and the boolean `and`/`or`."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare(Node):
    """`== != < <= > >=`, membership `in`/`not in`, and state tests `is`/`is not`."""

    op: str
    left: Expr
    right: Expr


Expr = Union[Num, Str, Bool, NoneLit, ScaleLevel, Name, ListLit, Attr, Index, Call, Neg, Not, Binary, Compare]


# ---------------------------------------------------------------- statements
@dataclass(frozen=True)
class PrepArg(Node):
    prep: str
    value: Expr


@dataclass(frozen=True)
class Action(Node):
    """A primitive effect: `damage target by margin at chest`."""

    verb: str
    args: tuple[Expr, ...] = ()
    preps: tuple[PrepArg, ...] = ()

    def prep(self, name: str) -> Expr | None:
        for p in self.preps:
            if p.prep == name:
                return p.value
        return None


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class Set(Node):
    """`set <name> = <expr>`: a name an enclosing `let` bound, bound again (a running total, a
    record built up in a loop)."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Block(Node):
    statements: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class Branch(Node):
    condition: Expr
    body: Block


@dataclass(frozen=True)
class If(Node):
    branches: tuple[Branch, ...]
    otherwise: Block | None = None


@dataclass(frozen=True)
class ForEach(Node):
    var: str
    iterable: Expr
    body: Block


@dataclass(frozen=True)
class Repeat(Node):
    count: Expr
    body: Block


Stmt = Union[Action, Let, Set, If, ForEach, Repeat]


# ---------------------------------------------------------------- clauses
@dataclass(frozen=True)
class CostItem(Node):
    amount: Expr
    resource: str


@dataclass(frozen=True)
class Cost(Node):
    items: tuple[CostItem, ...]


@dataclass(frozen=True)
class Requires(Node):
    condition: Expr
    message: str | None = None


@dataclass(frozen=True)
class OpposedRoll(Node):
    level: Expr
    against: str


@dataclass(frozen=True)
class ThresholdRoll(Node):
    target: int


@dataclass(frozen=True)
class AutomaticRoll(Node):
    pass


RollSpec = Union[OpposedRoll, ThresholdRoll, AutomaticRoll]


@dataclass(frozen=True)
class Roll(Node):
    kind: str
    spec: RollSpec


@dataclass(frozen=True)
class On(Node):
    outcome: str
    body: Block


@dataclass(frozen=True)
class When(Node):
    event: str
    condition: Expr | None
    body: Block


@dataclass(frozen=True)
class Window(Node):
    name: str
    by: str | None = None


@dataclass(frozen=True)
class Param(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class NamedType(Node):
    name: str


@dataclass(frozen=True)
class ChoiceType(Node):
    options: tuple[str, ...]


@dataclass(frozen=True)
class RangeType(Node):
    name: str
    low: int
    high: int


@dataclass(frozen=True)
class SpanType(Node):
    """A range whose ends are worked out when the argument is offered: `place: number 1..count(cards(row)) + 1`."""

    name: str
    low: Expr
    high: Expr


@dataclass(frozen=True)
class ZoneCardType(Node):
    """A card of a zone the player may see: `card: in hand` (a zone each player has one of is the player's own)."""

    zone: str


ArgType = Union[NamedType, ChoiceType, RangeType, SpanType, ZoneCardType]


@dataclass(frozen=True)
class Arg(Node):
    name: str
    type: ArgType


@dataclass(frozen=True)
class Effect(Node):
    body: Block


@dataclass(frozen=True)
class Property(Node):
    name: str
    values: tuple[Expr, ...]


Clause = Union[Cost, Requires, Roll, On, When, Window, Param, Arg, Effect, Property]


# ---------------------------------------------------------------- declarations
@dataclass(frozen=True)
class Declaration(Node):
    kind: str
    id: str
    name: str
    clauses: tuple[Clause, ...] = ()

    # Answers worked out once per declaration, None on the class until the first is asked.
    _clause_cache: ClassVar[dict[type, list[Any]] | None] = None
    _property_cache: ClassVar[dict[str, Property] | None] = None
    _facts: ClassVar[dict[Any, Any] | None] = None

    def clauses_of(self, cls: type) -> list:
        # The engine asks these questions at every decision: answer each once per declaration.
        # (The cache lives outside the dataclass fields, so equality and printing ignore it.)
        cache = self._clause_cache
        if cache is None:
            cache = {}
            object.__setattr__(self, "_clause_cache", cache)
        try:
            return cache[cls]
        except KeyError:  # the first time this kind of clause is asked for
            found = cache[cls] = [c for c in self.clauses if isinstance(c, cls)]
            return found

    def property(self, name: str) -> Property | None:
        properties = self._property_cache
        if properties is None:
            properties = {}
            for clause in self.clauses_of(Property):
                properties.setdefault(clause.name, clause)  # the first of a name wins, as before
            object.__setattr__(self, "_property_cache", properties)
        return properties.get(name)


_Fact = TypeVar("_Fact")


def fact_of_text(function: Callable[..., _Fact]) -> Callable[..., _Fact]:
    """Memoise `function(declaration, *words)`, a fact read from the declaration's own text alone
    (whether it targets an opponent, its tags, who may use it at a window): the engine asks such
    questions at every decision, and the answer never changes. Kept beside the dataclass fields,
    like the clause cache, so equality and printing ignore it."""

    @wraps(function)
    def cached(declaration: Declaration, *words: Hashable) -> _Fact:
        facts = declaration._facts
        if facts is None:
            facts = {}
            object.__setattr__(declaration, "_facts", facts)
        key = (function, *words)
        try:
            return facts[key]  # type: ignore[no-any-return]
        except KeyError:  # the first time this question is asked of the declaration
            found = facts[key] = function(declaration, *words)
            return found

    return cached


@dataclass(frozen=True)
class Module(Node):
    """One parsed file."""

    declarations: tuple[Declaration, ...] = ()
    file: str = field(default="<input>", compare=False)


# The language's built-in kinds of declaration. Content names kinds of its own after one of them
# (`kind <id> "<name>" { like <built-in> }`): a declaration of a declared kind is written with its
# id (`boon my_boon "..." { ... }`) and takes the clauses, properties, schema and behaviour of the
# built-in kind it is like. `hand_card` is a card kept in a hand and used in a timing window,
# `drawn_card` one played at once when it is drawn: the zone holding its cards says which it is
# (`drawn kept` or `drawn played`).
DECLARATION_KINDS = ("command", "trait_ability", "hazard", "drawn_card", "hand_card", "weapon", "rule", "state",
                     "stat", "pile", "zone", "event", "window", "procedure", "game", "turn", "card", "kind")


def kind_column(declaration: Declaration) -> int:
    """The column of a declaration's kind, the word before its id: kept by the parser beside the
    dataclass fields (so equality and printing ignore it); one space before the id without it."""
    column = declaration.__dict__.get("_kind_column")
    return column if isinstance(column, int) else max(1, declaration.pos.column - len(declaration.kind) - 1)


def subtree(node: object) -> Iterator[Node]:
    """Every node inside `node` (a declaration, a clause, an expression), itself included, in no
    particular order."""
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Node):
            yield item
            stack.extend(getattr(item, f) for f in item.__dataclass_fields__ if f != "pos")
        elif isinstance(item, tuple):
            stack.extend(item)


def actions_in(node: object) -> list[Action]:
    """Every effect statement inside `node` (a declaration, a clause, a block), in source order."""
    found = [item for item in subtree(node) if isinstance(item, Action)]
    return sorted(found, key=lambda action: (action.pos.line, action.pos.column))


def names_used(node: object) -> frozenset[str]:
    """Every name an expression (or any subtree) reads. Script functions see only the values they
    are given (and the acting `self`), so an expression that reads none of a command's argument
    names has the same value for every argument combination."""
    return frozenset(item.id for item in subtree(node) if isinstance(item, Name))
