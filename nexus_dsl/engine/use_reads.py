"""What the requirements of an ability, a card or a control read of the piece that uses it, read
from their text: for a declaration whose every requirement reads nothing but that piece's
attributes, states and trait reserves, the values of its arguments (whose domains last all bout)
and what is fixed for the bout (its params, the content's settings and words), the legal uses are
one answer per value of what they read, so `Legality.legal_uses` keeps them across decisions under
those values.
"""

from __future__ import annotations

from typing import Any, Final

from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .attributes import HELD_BY, HOLDING, PieceAttributes, ReadingHost, _kind
from .state import Piece

#: The functions that read nothing but the piece they are given first (a value as it is, with no
#: other argument read but as a word): each reads that piece's trait reserves (`primitives/stats.py`).
#: One word, one implementation (`primitives.script_tables` refuses a clash), so the name is enough.
_READ_TRAITS: Final = frozenset({"trait_reserve"})

#: The nodes that read nothing themselves, only what their parts read.
_WRITTEN = (A.Num, A.Str, A.Bool, A.NoneLit)
_ORDERINGS: Final = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"})
_OPERATORS: Final = frozenset({"and", "or", "+", "-", "*", "/"})


class SelfReads:
    """What a declaration's requirements read of the piece that uses it: attributes (by name, each
    read as `AttributeRead` reads it), states tested (`x is <state>`, as `InState` tests it), and its
    trait reserves (a table): `values_of` reads them, as the verdicts are kept with."""

    __slots__ = ("names", "states", "traits")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.states: list[str] = []
        self.traits = False

    def values_of(self, attributes: PieceAttributes, host: ReadingHost, piece: Piece) -> tuple[Any, ...] | None:
        """The values of the attributes and states the requirements read of `piece` in the bout
        `host`, each attribute's with its type (`1` and `True` are equal, and compared apart): the
        same values, the same verdicts (the trait reserves, when read, compared beside them). None
        where reading an attribute fails or gives a value that may change in place (the
        requirements are then asked as always, and fault where they do)."""
        values: list[Any] = []
        try:
            for name in self.names:
                value = attributes.reader(name).read(host, piece)
                if not _lasting(value):
                    return None
                values.append(value)
                values.append(type(value))
        except Exception:
            return None
        for state in self.states:
            values.append(attributes.state_test(state).holds(piece))
        return tuple(values)


#: What a declaration's requirements read when it is more than `SelfReads` tells (kept so, worked out once).
READS_MORE: Final = SelfReads()


def _lasting(value: Any) -> bool:
    """Whether a value read cannot change in place: a number, a text, none, or a tuple of those."""
    if value is None or isinstance(value, (int, str, float)):
        return True
    return isinstance(value, tuple) and all(item is None or isinstance(item, (int, str, float)) for item in value)


class KeptUses:
    """The legal uses of one declaration by one piece, with the values read when they were found:
    those of `SelfReads.values_of`, and a copy of the piece's trait reserves when they are read."""

    __slots__ = ("values", "traits", "uses")

    def __init__(self, values: tuple[Any, ...], traits: dict[str, int] | None, uses: list[Any]):
        self.values = values
        self.traits = traits
        self.uses = uses


class UseMemo:
    """What a bout keeps of the uses of one ability, card or control (`Legality.legal_uses`): what
    its requirements read (None: more than `SelfReads` tells, so nothing is kept), and the legal uses
    last found for each piece, by its label."""

    __slots__ = ("reads", "by_piece")

    def __init__(self, reads: SelfReads | None):
        self.reads = reads
        self.by_piece: dict[str, KeptUses] = {}


def self_reads_of(ruleset: Ruleset, declaration: A.Declaration) -> SelfReads | None:
    """`ReadsFinder.reads_of`, worked out once per ruleset and declaration (kept with the ruleset)."""
    known: dict[int, tuple[A.Declaration, SelfReads]] = ruleset.derived("self_reads")
    found = known.get(id(declaration))
    if found is None or found[0] is not declaration:
        reads = ReadsFinder(ruleset).reads_of(declaration)
        found = known[id(declaration)] = (declaration, READS_MORE if reads is None else reads)
    return None if found[1] is READS_MORE else found[1]


class ReadsFinder:
    """Works out `SelfReads` of a declaration's requirements in one ruleset (None: they read more,
    or something this does not tell)."""

    __slots__ = ("ruleset", "window_names")

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        # Every name some window binds (`timing.every_window_name`).
        self.window_names = frozenset(name for names in ruleset.words.windows.values() for name in names)

    def reads_of(self, declaration: A.Declaration) -> SelfReads | None:
        args = declaration.clauses_of(A.Arg)
        if not all(self._lasts(arg.type) for arg in args):
            return None
        # The names a use's scope binds of its own: its arguments (values as they are; `self` is read
        # only as the piece whose status, states, traits or fields are read). A window's names and
        # the command are the window's; any other name is the declaration's param (worked out once
        # per bout) or one no scope binds (the content's: a setting, or a word).
        bound = frozenset(arg.name for arg in args)
        reads = SelfReads()
        for requirement in declaration.clauses_of(A.Requires):
            if not self._reads_only(requirement.condition, reads, bound):
                return None
        return reads

    def _lasts(self, arg_type: A.ArgType) -> bool:
        """An argument whose values are the same all bout and plain (no piece): a list of words, a
        range written out, a type of the content's words (`Legality._lasts`), not the board's squares."""
        if isinstance(arg_type, (A.ChoiceType, A.RangeType)):
            return True
        return isinstance(arg_type, A.NamedType) and \
            self.ruleset.words.type_names.get(arg_type.name, arg_type.name) in ("location", "trait", "resource",
                                                                                 "direction")

    def _name_read(self, name: str, bound: frozenset[str]) -> bool:
        """Whether a name reads a use's own values or what is fixed for the bout."""
        if name in bound:
            return True
        return name not in self.window_names and name not in ("command", "target")

    def _reads_only(self, expr: A.Expr, reads: SelfReads, bound: frozenset[str]) -> bool:
        """Whether `expr` reads nothing but what `reads` tells (adding to it what it reads)."""
        if isinstance(expr, _WRITTEN):
            return True
        if isinstance(expr, A.Name):  # (the piece itself, as a value, is more than any field of it)
            return expr.id != "self" and self._name_read(expr.id, bound)
        if isinstance(expr, (A.Not, A.Neg)):
            return self._reads_only(expr.operand, reads, bound)
        if isinstance(expr, A.Binary):
            return expr.op in _OPERATORS and self._reads_only(expr.left, reads, bound) and \
                self._reads_only(expr.right, reads, bound)
        if isinstance(expr, A.ListLit):
            return all(self._reads_only(item, reads, bound) for item in expr.items)
        if isinstance(expr, A.Compare):
            if expr.op in ("is", "is not"):  # a state of the piece
                if not _is_self(expr.left) or not isinstance(expr.right, A.Name):
                    return False
                if expr.right.id not in reads.states:
                    reads.states.append(expr.right.id)
                return True
            return expr.op in _ORDERINGS and self._reads_only(expr.left, reads, bound) and \
                self._reads_only(expr.right, reads, bound)
        if isinstance(expr, A.Attr):
            return _is_self(expr.obj) and self._attribute(expr.name, reads)
        if isinstance(expr, A.Call):
            if expr.func not in _READ_TRAITS or expr.kwargs or not expr.args or not _is_self(expr.args[0]):
                return False
            reads.traits = True
            return all(self._reads_only(arg, reads, bound) for arg in expr.args[1:])
        return False

    def _attribute(self, name: str, reads: SelfReads) -> bool:
        """Whether the piece's attribute of that name is a plain value read of it (none of the
        pieces a hold names)."""
        if _kind(self.ruleset, name) not in (HOLDING, HELD_BY):
            if name not in reads.names:
                reads.names.append(name)
            return True
        return False


def _is_self(expr: A.Expr) -> bool:
    return isinstance(expr, A.Name) and expr.id == "self"


__all__ = ["KeptUses", "ReadsFinder", "SelfReads", "UseMemo", "self_reads_of"]
