"""Parse rule-script text into the typed syntax tree (`ast_nodes`).

The grammar lives in `nexus_dsl/grammar/nexus.lark` and is compiled once per process (LALR,
basic lexer), or loaded from the load cache (`nexus_dsl/cache.py`) when an earlier process compiled
it; the loader parses through `parse_cache.parse_file`, which parses only files it has not seen.
A small post-lexer makes newlines meaningful only where they end a clause or statement, and holds
every token against the input limits (`nexus_dsl/limits.py`): nesting depth, the length of names,
text and numbers, and the number of declarations. Those are checked in the token stream, before
Lark builds any tree, so every later layer (the tree transformer, the
checker, canonical form, JSON Schema validation, the printer and the engine's interpreter) only
ever sees input no deeper than `INPUT_LIMITS.max_depth`, which each of them is tested to handle.
A `v_args(inline=True)` Transformer turns the Lark tree into frozen dataclasses that carry their
source positions.

Syntax errors are collected per declaration: when a file fails to parse, each declaration is parsed
on its own, so one run reports every broken declaration, each as a positioned `Diagnostic`. The
whole of it is linear in the length of the text.
"""

from __future__ import annotations

import gc
import io
import re
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Iterator

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lark import PostLex

from .. import cache, shipped
from ..errors import Diagnostic, SyntaxLayerError, source_lines
from ..files import check_text_size
from ..limits import INPUT_LIMITS, MAX_NUMBER, InputLimits
from . import ast_nodes as A
from . import mistakes

_CLOSERS_THAT_SWALLOW_NEWLINE = {"RBRACE", "ELSE", "ELIF"}
_OPENERS_THAT_SWALLOW_NEWLINE = {"LBRACE", "COMMA"}

#: The limits of the parse under way (`parse(..., limits=...)`); the post-lexer is shared by every
#: parse of the process, so it reads them from here rather than holding them itself.
_ACTIVE_LIMITS: ContextVar[InputLimits] = ContextVar("nexus_parse_limits", default=INPUT_LIMITS)

MAX_DIGITS = len(str(MAX_NUMBER))  # a literal may be as large as the largest number a script computes


class _LimitExceeded(Exception):
    """A token beyond one of the input limits, raised from the token stream; becomes a syntax
    Diagnostic at the token. `final` problems concern the whole file, so the parser does not go on
    to look at each declaration."""

    def __init__(self, token: Token, code: str, message: str, hint: str, final: bool = False):
        super().__init__(message)
        self.token = token
        self.code = code
        self.message = message
        self.hint = hint
        self.final = final

    def diagnostic(self, file: str) -> Diagnostic:
        column = self.token.column or 0
        return Diagnostic(f"syntax/{self.code}", self.message, file, self.token.line or 0, column,
                          column + max(1, len(str(self.token))), self.hint)


# ---------------------------------------------------------------- nesting depth
# Every terminal of the grammar is in exactly one of the five classes below (a test holds them to
# `nexus.lark`). A token of a kind in none of them, which only a grammar change can bring, is
# counted as an operator: the gauge may then overestimate the depth, never underestimate it.
_OPENERS = frozenset({"LBRACE", "LPAR", "LSQB"})
_CLOSERS = frozenset({"RBRACE", "RPAR", "RSQB"})
# Each of these makes one node of the syntax tree with the expression before or after it inside:
# `a + b + c` is `(a + b) + c`, `not not x` is `not (not x)`, `a.b.c` is `(a.b).c`.
_OPERATORS = frozenset({"ADD_OP", "MUL_OP", "COMPARE", "AND", "OR", "NOT", "IN", "IS", "DOT"})
_OPERANDS = frozenset({"NAME", "NUMBER", "STRING", "SDS_LEVEL", "THRESHOLD", "TRUE", "FALSE", "NONE"})
# Each of these ends the expression before it: what follows is a sibling, never nested inside it.
# `__ANON_0` is Lark's name for the grammar's one unnamed terminal, the `..` of a range type.
_SEPARATORS = frozenset({
    "_NL", "COMMA", "COLON", "EQUAL", "__ANON_0",
    "COST", "REQUIRES", "ELSE", "ROLL", "VS", "AUTOMATIC", "ON", "WHEN", "IF", "WINDOW", "BY", "PARAM", "ARG",
    "EFFECT", "LET", "SET", "ELIF", "FOR", "EACH", "REPEAT", "TO", "FROM", "AT", "INTO", "WITH", "AGAINST",
})
# After one of these a `[` indexes the value before it (`xs[0]`) rather than starting a list.
_VALUE_ENDS = frozenset({"NAME", "NUMBER", "STRING", "SDS_LEVEL", "TRUE", "FALSE", "NONE", "RPAR", "RSQB"})


@dataclass
class _Frame:
    """The tokens inside one pair of brackets (or the file itself), as they nest the syntax tree.

    Within one expression, an operator chain nests its first operand under every operator of the
    chain (`((a + b) + c) + d`), so a bracketed group met early may end up under operators read
    after it. The bound of an expression is therefore its operator count plus its deepest group,
    whenever each was seen; a keyword, `,` or a new line ends the expression (what follows is a
    sibling, never nested inside it).
    """

    bracket: int  # 1 for a frame opened by `{`, `(` or `[`; 0 for the file itself
    operators: int = 0  # in the current expression of this frame
    deepest_group: int = 0  # the deepest bracketed group closed in the current expression
    peak: int = 0  # the deepest bound of any expression of this frame so far

    def bound(self, open_group: int = 0) -> int:
        return max(self.peak, self.operators + max(self.deepest_group, open_group))

    def end_expression(self) -> None:
        self.peak = self.bound()
        self.operators = 0
        self.deepest_group = 0


class _DepthGauge:
    """A bound on how deeply the tokens read so far nest the syntax tree: one level per open
    bracket and per operator of a chain. It never underestimates: the tree built from the tokens
    is at most this deep (plus one for its leaves), whatever the tokens still to come."""

    def __init__(self) -> None:
        self.frames = [_Frame(bracket=0)]
        self.previous: str | None = None

    @property
    def at_top_level(self) -> bool:
        return len(self.frames) == 1

    def depth(self) -> int:
        inner = 0
        for frame in reversed(self.frames):
            inner = frame.bracket + frame.bound(inner)
        return inner

    def read(self, token: Token) -> bool:
        """Take one token; whether it made the tree deeper."""
        kind = token.type
        deeper = False
        if kind in _OPENERS:
            current = self.frames[-1]
            if kind == "LBRACE":  # a block or a declaration's body is never part of an expression
                current.end_expression()
            elif kind == "LSQB" and self.previous in _VALUE_ENDS:
                current.operators += 1  # indexing: `xs[0][1]` is `(xs[0])[1]`
            self.frames.append(_Frame(bracket=1))
            deeper = True
        elif kind in _CLOSERS:
            if len(self.frames) > 1:  # an unmatched closer is the parser's to report
                closed = self.frames.pop()
                closed.end_expression()
                parent = self.frames[-1]
                parent.deepest_group = max(parent.deepest_group, 1 + closed.peak)
                if kind == "RBRACE":
                    parent.end_expression()
        elif kind in _SEPARATORS:
            self.frames[-1].end_expression()
        elif kind not in _OPERANDS:  # an operator, or a kind no class names (counted as one: see above)
            if not (kind == "NOT" and (self.previous in _VALUE_ENDS or self.previous == "IS")):
                self.frames[-1].operators += 1  # (`not in` and `is not` are one operator each)
                deeper = True
        self.previous = kind
        return deeper


class _InputGuard:
    """Holds each token against the input limits as the lexer hands it over."""

    def __init__(self, limits: InputLimits):
        self.limits = limits
        self.gauge = _DepthGauge()
        self.declarations = 0
        self.expecting_declaration = True

    def admit(self, token: Token) -> None:
        kind = token.type
        if self.expecting_declaration and self.gauge.at_top_level and kind != "_NL":
            self._count_declaration(token)
        if kind == "NAME":
            self._check_length(token, len(token), self.limits.max_identifier_length, "name",
                               "names (ids, params, arguments, local names)")
        elif kind == "STRING":
            self._check_length(token, len(token) - 2, self.limits.max_string_length, "quoted text",
                               "quoted text (between its quotes)")
        elif kind in ("NUMBER", "THRESHOLD"):
            self._check_digits(token)
        if self.gauge.read(token):
            self._check_depth(token)
        if kind == "RBRACE" and self.gauge.at_top_level:
            self.expecting_declaration = True

    def _count_declaration(self, token: Token) -> None:
        self.declarations += 1
        self.expecting_declaration = False
        if self.declarations > self.limits.max_declarations_per_file:
            raise _LimitExceeded(token, "too_many_declarations", too_many_declarations_message(self.limits),
                                 "split the declarations over several files of the pack", final=True)

    def _check_length(self, token: Token, length: int, most: int, what: str, which: str) -> None:
        if length > most:
            raise _LimitExceeded(token, "too_long", f"this {what} is {length:,} characters long",
                                 f"{which} may be at most {most:,} characters long")

    def _check_digits(self, token: Token) -> None:
        digits = str(token).rstrip("+")
        if len(digits) > MAX_DIGITS:
            raise _LimitExceeded(token, "number_too_large", f"the number {digits[:12]}... is too large",
                                 f"numbers have at most {MAX_DIGITS} digits (the largest is {MAX_NUMBER:,})")

    def _check_depth(self, token: Token) -> None:
        depth = self.gauge.depth()
        if depth > self.limits.max_depth:
            raise _LimitExceeded(
                token, "too_deep", f"this nests {depth} levels deep; scripts may nest at most {self.limits.max_depth}",
                "each `{`, `(` and `[` opens a level, and so does each operator of a chain (`not`, `-`, `+`, `and`, "
                "`.`...); name a part with `let`, or split the chain")


def too_many_declarations_message(limits: InputLimits) -> str:
    return f"a file may hold at most {limits.max_declarations_per_file:,} declarations; this is one more"


class _NewlinePostLex(PostLex):
    """Keeps a newline only where it separates two clauses or statements, and holds every token
    against the input limits of the parse under way.

    Dropped: newlines inside () and [], at the top level between declarations, right after `{` or
    `,`, right before `}`, `else` and `elif`, and repeats. What remains is exactly one `_NL` between
    two clauses or statements, which keeps the grammar small and conflict-free.
    """

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        guard = _InputGuard(_ACTIVE_LIMITS.get())
        for token in _significant_newlines(stream):
            guard.admit(token)
            yield token


def _significant_newlines(stream: Iterator[Token]) -> Iterator[Token]:
    """The tokens with only the newlines that separate clauses or statements (see `_NewlinePostLex`)."""
    bracket_depth = 0
    brace_depth = 0
    pending: Token | None = None
    previous_type: str | None = None
    for token in stream:
        if token.type == "_NL":
            if bracket_depth == 0 and brace_depth > 0 and previous_type not in _OPENERS_THAT_SWALLOW_NEWLINE:
                pending = pending or token
            continue
        if pending is not None and token.type not in _CLOSERS_THAT_SWALLOW_NEWLINE:
            yield pending
        pending = None
        if token.type in ("LPAR", "LSQB"):
            bracket_depth += 1
        elif token.type in ("RPAR", "RSQB"):
            bracket_depth = max(0, bracket_depth - 1)
        elif token.type == "LBRACE":
            brace_depth += 1
        elif token.type == "RBRACE":
            brace_depth = max(0, brace_depth - 1)
        previous_type = token.type
        yield token


GRAMMAR_FILE = shipped.grammar_file()


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The compiled LALR parser; once per process, and from the load cache (`nexus_dsl/cache.py`)
    when an earlier process compiled the same grammar with the same code. Lark's own `cache=`
    option is not used: it writes its file in place, so two processes starting together (a batch's
    workers) could read each other's half-written file, and it checks no digest of what it reads."""
    key = cache.code_fingerprint([sys.modules[__name__]], [GRAMMAR_FILE], ["lark"])
    saved = cache.read("grammar", key)
    if isinstance(saved, bytes):
        try:
            loaded = Lark.load(io.BytesIO(saved))
            # `Lark.save` keeps all a compiled parser holds but the grammar's text and unanalysed
            # form, which nothing here reads, and the names of the tokens the lexer drops, which
            # its configuration still holds.
            loaded.ignore_tokens = list(loaded.lexer_conf.ignore)
            return loaded
        except Exception:  # noqa: BLE001 - an entry Lark cannot load is compiled again
            pass
    parser = _compile_grammar()
    buffer = io.BytesIO()
    parser.save(buffer)
    cache.write("grammar", key, buffer.getvalue())
    return parser


def _compile_grammar() -> Lark:
    return Lark.open(
        str(GRAMMAR_FILE),
        parser="lalr",
        lexer="basic",  # the post-lexer holds newlines back, so token types must not depend on parser state
        postlex=_NewlinePostLex(),
        propagate_positions=True,
        maybe_placeholders=True,
        cache=False,
    )


_SDS_RE = re.compile(r"^([+-])([1-3]?)SDS$")


def sds_level(text: str) -> int:
    if text == "SD":
        return 0
    match = _SDS_RE.match(text)
    if not match:
        raise ValueError(f"not an SDS level: {text}")
    size = int(match.group(2) or 1)
    return size if match.group(1) == "+" else -size


_ESCAPE = re.compile(r'\\(["\\n])')


def _unescape(token: str) -> str:
    """Undo the string escapes in one pass, so `\\n` (a backslash, then n) stays two characters."""
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), token[1:-1])


class _PositionedError(Exception):
    """Raised inside the transformer for a malformed token; becomes a syntax Diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class _ToAst(Transformer):
    """Lark tree -> ast_nodes. Positions are taken from the tree's meta or the token."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def _pos(self, meta: Any) -> A.Pos:
        if getattr(meta, "empty", True) and not hasattr(meta, "line"):
            return A.Pos(file=self.file)
        return A.Pos(
            getattr(meta, "line", 0),
            getattr(meta, "column", 0),
            getattr(meta, "end_line", 0),
            getattr(meta, "end_column", 0),
            self.file,
        )

    def _tpos(self, token: Token) -> A.Pos:
        return A.Pos(token.line or 0, token.column or 0, token.end_line or 0, token.end_column or 0, self.file)

    # ---- declarations
    @v_args(meta=True)
    def start(self, meta: Any, children: list) -> A.Module:
        return A.Module(declarations=tuple(children), file=self.file, pos=self._pos(meta))

    def _fail(self, token: Token, code: str, message: str, hint: str | None = None) -> _PositionedError:
        return _PositionedError(Diagnostic(f"syntax/{code}", message, self.file, token.line or 0, token.column or 0,
                                           (token.column or 0) + len(str(token)), hint))

    @v_args(meta=True)
    def window_kind(self, meta: Any, children: list) -> Token:
        return Token("NAME", "window", line=meta.line, column=meta.column)

    @v_args(meta=True)
    def declaration(self, meta: Any, children: list) -> A.Declaration:
        # Any word is a kind here: a file is parsed alone, and the kinds content declares (`kind`)
        # are known only to the checker, which refuses a kind not in view (check/unknown_kind).
        kind, ident, name, *clauses = children
        declaration = A.Declaration(
            kind=str(kind),
            id=str(ident),
            name=_unescape(name),
            clauses=tuple(c for c in clauses if c is not None),
            # Starts at the id (where errors point); ends at the closing brace (for `nexus fmt`).
            pos=A.Pos(ident.line or 0, ident.column or 0, getattr(meta, "end_line", 0), getattr(meta, "end_column", 0), self.file),
        )
        if getattr(kind, "line", None) == ident.line and getattr(kind, "column", None):
            object.__setattr__(declaration, "_kind_column", kind.column)  # where the checker points at the kind
        return declaration

    # ---- clauses
    @v_args(meta=True)
    def cost_clause(self, meta: Any, items: list) -> A.Cost:
        return A.Cost(items=tuple(items), pos=self._pos(meta))

    @v_args(meta=True)
    def cost_item(self, meta: Any, children: list) -> A.CostItem:
        amount, resource = children
        return A.CostItem(amount=amount, resource=str(resource), pos=self._tpos(resource))

    @v_args(meta=True)
    def requires_clause(self, meta: Any, children: list) -> A.Requires:
        condition, message = children
        return A.Requires(condition=condition, message=_unescape(message) if message else None, pos=self._pos(meta))

    @v_args(meta=True)
    def roll_clause(self, meta: Any, children: list) -> A.Roll:
        kind, spec = children
        return A.Roll(kind=str(kind), spec=spec, pos=self._tpos(kind))

    @v_args(meta=True)
    def opposed_roll(self, meta: Any, children: list) -> A.OpposedRoll:
        level, against = children
        return A.OpposedRoll(level=level, against=str(against), pos=self._pos(meta))

    @v_args(meta=True)
    def threshold_roll(self, meta: Any, children: list) -> A.ThresholdRoll:
        (token,) = children
        return A.ThresholdRoll(target=int(str(token)[:-1]), pos=self._tpos(token))

    @v_args(meta=True)
    def automatic_roll(self, meta: Any, children: list) -> A.AutomaticRoll:
        return A.AutomaticRoll(pos=self._pos(meta))

    @v_args(meta=True)
    def on_clause(self, meta: Any, children: list) -> A.On:
        outcome, body = children
        return A.On(outcome=str(outcome), body=body, pos=self._tpos(outcome))

    @v_args(meta=True)
    def when_clause(self, meta: Any, children: list) -> A.When:
        event, condition, body = children
        return A.When(event=str(event), condition=condition, body=body, pos=self._tpos(event))

    @v_args(meta=True)
    def window_clause(self, meta: Any, children: list) -> A.Window:
        name, by = children
        return A.Window(name=str(name), by=str(by) if by else None, pos=self._tpos(name))

    @v_args(meta=True)
    def param_clause(self, meta: Any, children: list) -> A.Param:
        name, value = children
        return A.Param(name=str(name), value=value, pos=self._tpos(name))

    @v_args(meta=True)
    def arg_clause(self, meta: Any, children: list) -> A.Arg:
        name, arg_type = children
        return A.Arg(name=str(name), type=arg_type, pos=self._tpos(name))

    @v_args(meta=True)
    def named_type(self, meta: Any, children: list) -> A.NamedType:
        return A.NamedType(name=str(children[0]), pos=self._tpos(children[0]))

    @v_args(meta=True)
    def choice_type(self, meta: Any, children: list) -> A.ChoiceType:
        return A.ChoiceType(options=tuple(str(c) for c in children), pos=self._pos(meta))

    @v_args(meta=True)
    def range_type(self, meta: Any, children: list) -> A.RangeType | A.SpanType:
        name, low, high = children
        if isinstance(low, A.Num) and isinstance(high, A.Num):
            return A.RangeType(name=str(name), low=low.value, high=high.value, pos=self._tpos(name))
        return A.SpanType(name=str(name), low=low, high=high, pos=self._tpos(name))

    @v_args(meta=True)
    def zone_card_type(self, meta: Any, children: list) -> A.ZoneCardType:
        return A.ZoneCardType(zone=str(children[0]), pos=self._pos(meta))

    @v_args(meta=True)
    def effect_clause(self, meta: Any, children: list) -> A.Effect:
        return A.Effect(body=children[0], pos=self._pos(meta))

    @v_args(meta=True)
    def property_clause(self, meta: Any, children: list) -> A.Property:
        name, *values = children
        return A.Property(name=str(name), values=tuple(values), pos=self._tpos(name))

    # ---- statements
    @v_args(meta=True)
    def block(self, meta: Any, children: list) -> A.Block:
        return A.Block(statements=tuple(c for c in children if c is not None), pos=self._pos(meta))

    @v_args(meta=True)
    def let_stmt(self, meta: Any, children: list) -> A.Let:
        name, value = children
        return A.Let(name=str(name), value=value, pos=self._tpos(name))

    @v_args(meta=True)
    def set_stmt(self, meta: Any, children: list) -> A.Set:
        name, value = children
        return A.Set(name=str(name), value=value, pos=self._tpos(name))

    @v_args(meta=True)
    def if_stmt(self, meta: Any, children: list) -> A.If:
        condition, body, *rest = children
        otherwise = rest.pop() if rest else None
        branches = [A.Branch(condition=condition, body=body, pos=self._pos(meta))] + list(rest)
        return A.If(branches=tuple(branches), otherwise=otherwise, pos=self._pos(meta))

    @v_args(meta=True)
    def elif_part(self, meta: Any, children: list) -> A.Branch:
        condition, body = children
        return A.Branch(condition=condition, body=body, pos=self._pos(meta))

    @v_args(meta=True)
    def for_each_stmt(self, meta: Any, children: list) -> A.ForEach:
        var, iterable, body = children
        return A.ForEach(var=str(var), iterable=iterable, body=body, pos=self._pos(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta: Any, children: list) -> A.Repeat:
        count, body = children
        return A.Repeat(count=count, body=body, pos=self._pos(meta))

    @v_args(meta=True)
    def action_stmt(self, meta: Any, children: list) -> A.Action:
        verb, *rest = children
        args = tuple(c for c in rest if not isinstance(c, A.PrepArg))
        preps = tuple(c for c in rest if isinstance(c, A.PrepArg))
        return A.Action(verb=str(verb), args=args, preps=preps, pos=self._tpos(verb))

    @v_args(meta=True)
    def prep_arg(self, meta: Any, children: list) -> A.PrepArg:
        prep, value = children
        return A.PrepArg(prep=str(prep), value=value, pos=self._tpos(prep))

    # ---- expressions
    @v_args(meta=True)
    def or_chain(self, meta: Any, children: list) -> A.Expr:
        return self._chain("or", children, meta)

    @v_args(meta=True)
    def and_chain(self, meta: Any, children: list) -> A.Expr:
        return self._chain("and", children, meta)

    def _chain(self, op: str, children: list, meta: Any) -> A.Expr:
        result = children[0]
        for right in children[1:]:
            result = A.Binary(op=op, left=result, right=right, pos=self._pos(meta))
        return result

    @v_args(meta=True)
    def not_op(self, meta: Any, children: list) -> A.Not:
        return A.Not(operand=children[0], pos=self._pos(meta))

    @v_args(meta=True)
    def compare(self, meta: Any, children: list) -> A.Compare:
        left, op, right = children
        return A.Compare(op=str(op), left=left, right=right, pos=self._pos(meta))

    @v_args(meta=True)
    def in_op(self, meta: Any, children: list) -> A.Compare:
        return A.Compare(op="in", left=children[0], right=children[1], pos=self._pos(meta))

    @v_args(meta=True)
    def not_in_op(self, meta: Any, children: list) -> A.Compare:
        return A.Compare(op="not in", left=children[0], right=children[1], pos=self._pos(meta))

    @v_args(meta=True)
    def is_op(self, meta: Any, children: list) -> A.Compare:
        left, name = children
        return A.Compare(op="is", left=left, right=A.Name(id=str(name), pos=self._tpos(name)), pos=self._pos(meta))

    @v_args(meta=True)
    def is_not_op(self, meta: Any, children: list) -> A.Compare:
        left, name = children
        right = A.Name(id=str(name), pos=self._tpos(name))
        return A.Compare(op="is not", left=left, right=right, pos=self._pos(meta))

    @v_args(meta=True)
    def binary(self, meta: Any, children: list) -> A.Binary:
        left, op, right = children
        return A.Binary(op=str(op), left=left, right=right, pos=self._pos(meta))

    @v_args(meta=True)
    def signed(self, meta: Any, children: list) -> A.Expr:
        sign, operand = children
        if str(sign) == "+":
            return operand
        return A.Neg(operand=operand, pos=self._pos(meta))

    def prep(self, children: list) -> Token:
        return children[0]

    @v_args(meta=True)
    def attr(self, meta: Any, children: list) -> A.Attr:
        obj, name = children
        return A.Attr(obj=obj, name=str(name), pos=self._pos(meta))

    @v_args(meta=True)
    def index(self, meta: Any, children: list) -> A.Index:
        obj, idx = children
        return A.Index(obj=obj, index=idx, pos=self._pos(meta))

    @v_args(meta=True)
    def call(self, meta: Any, children: list) -> A.Call:
        func, call_args = children
        values = call_args or []
        args = tuple(a for a in values if not isinstance(a, A.KeywordArg))
        kwargs = tuple(a for a in values if isinstance(a, A.KeywordArg))
        return A.Call(func=str(func), args=args, kwargs=kwargs, pos=self._tpos(func))

    def call_args(self, children: list) -> list:
        return children

    @v_args(meta=True)
    def keyword_arg(self, meta: Any, children: list) -> A.KeywordArg:
        name, value = children
        return A.KeywordArg(name=str(name), value=value, pos=self._tpos(name))

    def number(self, children: list) -> A.Num:
        token = children[0]  # at most MAX_DIGITS digits: the post-lexer refuses longer numbers
        return A.Num(value=int(token), pos=self._tpos(token))

    def string(self, children: list) -> A.Str:
        return A.Str(value=_unescape(children[0]), pos=self._tpos(children[0]))

    def sds(self, children: list) -> A.ScaleLevel:
        return A.ScaleLevel(level=sds_level(str(children[0])), pos=self._tpos(children[0]))

    @v_args(meta=True)
    def true(self, meta: Any, children: list) -> A.Bool:
        return A.Bool(value=True, pos=self._pos(meta))

    @v_args(meta=True)
    def false(self, meta: Any, children: list) -> A.Bool:
        return A.Bool(value=False, pos=self._pos(meta))

    @v_args(meta=True)
    def none(self, meta: Any, children: list) -> A.NoneLit:
        return A.NoneLit(pos=self._pos(meta))

    def name(self, children: list) -> A.Name:
        return A.Name(id=str(children[0]), pos=self._tpos(children[0]))

    @v_args(meta=True)
    def list(self, meta: Any, children: list) -> A.ListLit:
        return A.ListLit(items=tuple(c for c in children if c is not None), pos=self._pos(meta))


# ---------------------------------------------------------------- errors
_TOKEN_NOUNS = {"NAME": "name", "NUMBER": "number", "STRING": "text", "SDS_LEVEL": "SDS level",
                "THRESHOLD": "check target"}
_TOKEN_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a quoted string",
    "SDS_LEVEL": "an SDS level (SD, +SDS, -2SDS...)",
    "THRESHOLD": "a target such as 4+",
    "_NL": "a new line",
    "COMPARE": "a comparison",
    "ADD_OP": "`+` or `-`",
    "MUL_OP": "`*` or `/`",
    "$END": "the end of the file",
}

# Friendly advice for the clause a mistake sits in, found by the first word of the broken clause.
_FRIENDLY: dict[str, str] = {
    "cost": "a cost needs an amount and a resource, e.g. `cost 2 AP` or `cost 1 AP, 1 overall`",
    "roll": "an opposed roll reads `roll attack SD vs defense`; a check `roll check 4+`",
    "requires": "a requirement is a condition, optionally with a message: `requires target in front_center(self) else \"...\"`",
    "arg": "an argument reads `arg name: type`, e.g. `arg location: location` or `arg direction: {left, right}`",
    "param": "a param reads `param name = value`",
    "window": "a window reads `window before_rolls` or `window any_time by opponent`",
    "when": "a trigger reads `when event { ... }` or `when event if condition { ... }`",
    **{kind: "a declaration needs an id and a quoted display name: `command my_id \"My Name\" { ... }`"
       for kind in A.DECLARATION_KINDS},
}


def _friendly_hint(source: str, line: int, column: int) -> str | None:
    lines = source_lines(source)
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1][: max(0, column - 1)]
    clause = re.split(r"[;{]", text)[-1].split()
    if not clause:  # the mistake opens the line: the clause began on an earlier line
        for earlier in reversed(lines[: line - 1]):
            words = re.split(r"[;{]", earlier)[-1].split()
            if words:
                clause = words
                break
    return _FRIENDLY.get(clause[0]) if clause else None


def _describe_expected(expected: set[str]) -> str:
    parser = grammar_parser()
    words = []
    for name in sorted(expected):
        if name in _TOKEN_WORDS:
            words.append(_TOKEN_WORDS[name])
            continue
        try:
            pattern = parser.get_terminal(name).pattern
            words.append(f"`{pattern.value}`" if pattern.type == "str" else name)
        except KeyError:
            words.append(name)
    unique = sorted(set(words))
    if len(unique) > 8:
        unique = unique[:8] + ["..."]
    return ", ".join(unique)


def _diagnostic_for(error: UnexpectedInput, file: str, source: str, end_note: str = "") -> Diagnostic:
    """The diagnostic of a parser error in `source`; `end_note` says where `source` ends ("the file
    ends at line 9"), for a block left open."""
    friendly = _friendly_hint(source, getattr(error, "line", 0) or 0, getattr(error, "column", 0) or 0)
    before, after = _around_error(source, getattr(error, "line", 0) or 0, getattr(error, "column", 0) or 0)
    explanation: mistakes.Explanation | None = None
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            message = "unexpected end of file"
        elif token.type == "_NL":
            message = "unexpected end of line"
        elif token.type in _TOKEN_NOUNS:
            message = f"unexpected {_TOKEN_NOUNS[token.type]} `{token}`"
        else:
            message = f"unexpected `{token}`"
        expected = set(error.accepts or error.expected)
        hint = "expected " + _describe_expected(expected)
        line, column = error.line, error.column
        end = column + max(1, len(str(token))) if token.type not in ("$END", "_NL") else column + 1
        code = "syntax/unexpected_token"
        if token.type == "$END":
            unclosed = _unclosed_block(file, source, end_note or _end_of(source))
            if unclosed is not None:
                return unclosed
        explanation = mistakes.explain_token(token.type, str(token), expected, before, after)
    elif isinstance(error, UnexpectedCharacters):
        # lark types the position as optional on every error; the lexer always sets it on this one.
        position = error.pos_in_stream or 0
        character = source[position] if position < len(source) else ""
        message = f"unexpected character `{character}`"
        hint = "characters allowed in scripts: letters, digits, _ and the symbols of the language (see docs/language.md)"
        line, column, end = error.line, error.column, error.column + 1
        code = "syntax/unexpected_character"
        explanation = mistakes.explain_character(character, after)
    else:  # UnexpectedEOF
        message = "unexpected end of file"
        hint = "expected " + _describe_expected(set(getattr(error, "expected", ()) or ()))
        line, column, end = max(1, source.count("\n") + 1), 1, 2
        code = "syntax/unexpected_eof"
        unclosed = _unclosed_block(file, source, end_note or _end_of(source))
        if unclosed is not None:
            return unclosed
    if explanation is not None:  # a recognised mistake: its own message, no list of tokens
        if explanation.column:
            column, end = explanation.column, explanation.column + explanation.width
        hint = explanation.hint + _early_closer_note(source, line, code, message)
        return Diagnostic(code=code, message=explanation.message, file=file, line=line, column=column,
                          end_column=end, hint=hint)
    if friendly:
        hint = f"{friendly}; {hint}" if hint else friendly
    return Diagnostic(code=code, message=message, file=file, line=line, column=column, end_column=end, hint=hint)


def _early_closer_note(source: str, line: int, code: str, message: str) -> str:
    """For a `}` that closes nothing: which earlier `}` is likely the one too many, counted in lines
    back from it (a chunk's lines are not yet the file's)."""
    if code != "syntax/unexpected_token" or message != "unexpected `}`":
        return ""
    early = mistakes.early_closer(source, line)
    if early is None:
        return ""
    closer, opener = early
    return (f"; the `}}` {_lines_above(line - closer)} is likely the one too many: it is indented deeper than "
            f"the `{{` it closes, {_lines_above(line - opener)}")


def _lines_above(count: int) -> str:
    return "1 line above" if count == 1 else f"{count} lines above"


def _around_error(source: str, line: int, column: int) -> tuple[str, str]:
    """The text of an error's line before its column, and from its column on."""
    lines = source_lines(source)
    if not 1 <= line <= len(lines):
        return "", ""
    text = lines[line - 1]
    return text[: max(0, column - 1)], text[max(0, column - 1):]


def _end_of(source: str) -> str:
    return f"the file ends at line {max(1, len(source_lines(source)))}"


def _unclosed_block(file: str, source: str, end_note: str) -> Diagnostic | None:
    """A text that ends inside a block: reported at the `{` left open, not at the end."""
    opened = mistakes.unclosed_brace(source)
    if opened is None:
        return None
    line, column = opened
    return Diagnostic("syntax/unclosed_block", "this `{` is never closed", file, line, column, column + 1,
                      f"{end_note} with this block still open: add the `}}` that closes it")


# A declaration starts a line with its kind, its id and its quoted name: any word is a kind (content
# declares its own), so a line of that shape at the margin starts a chunk.
_DECLARATION_START = re.compile(r'^(?:' + "|".join(A.DECLARATION_KINDS) + r')\b|^[A-Za-z_]\w*[ \t]+[A-Za-z_]\w*[ \t]+"', re.M)


@dataclass(frozen=True)
class _Chunk:
    """A piece of a file that failed to parse: one declaration, or what precedes the first."""

    text: str
    line_offset: int  # lines of the file before the chunk
    is_declaration: bool


def _chunks(source: str) -> Iterator[_Chunk]:
    """Split a file at lines starting with a declaration keyword, keeping line numbers."""
    starts = [m.start() for m in _DECLARATION_START.finditer(source)]
    if not starts or starts[0] != 0:
        yield _Chunk(source[: starts[0] if starts else len(source)], 0, False)
    line_offset = source.count("\n", 0, starts[0]) if starts else 0
    for i, begin in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(source)
        text = source[begin:end]
        yield _Chunk(text, line_offset, True)
        line_offset += text.count("\n")  # counted once per chunk: the whole split stays linear


def _parse_tree(text: str, file: str) -> A.Module:
    tree = grammar_parser().parse(text)
    try:
        return _ToAst(file).transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, _PositionedError):
            raise SyntaxLayerError(error.orig_exc.diagnostic) from None
        raise error.orig_exc from error  # a transformer bug, not a user mistake: surface the original


_PROBLEMS = (UnexpectedInput, UnexpectedEOF, SyntaxLayerError, _LimitExceeded)


def parse(source: str, file: str = "<input>", limits: InputLimits = INPUT_LIMITS) -> A.Module:
    """Parse a whole file. Raises SyntaxLayerError listing every broken declaration.

    The text is held to `limits` (`nexus_dsl/limits.py`): its size, and in the token stream the
    number of declarations, the length of names, text and numbers, and the nesting depth."""
    # The editor hands its text straight to the parser, so the file reader's check is not enough.
    too_large = check_text_size(source, file, limits, "syntax/too_large")
    if too_large is not None:
        raise SyntaxLayerError(too_large)
    active = _ACTIVE_LIMITS.set(limits)
    try:
        with _collector_paused():
            return _parse_file(source, file, limits)
    finally:
        _ACTIVE_LIMITS.reset(active)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Hold Python's cycle collector back while one file is parsed.

    Parsing allocates a token, a tree node and an AST node per word and makes no reference cycles,
    yet each burst of allocations sets off collections that walk every object alive, the loaded
    packs included: a third of a large file's parse time. The text's size is bounded by the input
    limits, so what the pause lets pile up is bounded too; the collector resumes (and catches up)
    as soon as the file is done."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _parse_file(source: str, file: str, limits: InputLimits) -> A.Module:
    try:
        return _parse_tree(source, file)
    except _LimitExceeded as error:
        if error.final:
            raise SyntaxLayerError(error.diagnostic(file)) from None
        first_error: Exception = error
    except (UnexpectedInput, UnexpectedEOF, SyntaxLayerError) as error:
        first_error = error
    raise SyntaxLayerError(_every_broken_declaration(source, file, limits, first_error)) from None


def _every_broken_declaration(source: str, file: str, limits: InputLimits, first_error: Exception) -> list[Diagnostic]:
    """Parse each declaration on its own and report each one that fails, at its place in the file."""
    diagnostics: list[Diagnostic] = []
    declarations = 0
    total_lines = 0
    for chunk in _chunks(source):
        if chunk.is_declaration:
            declarations += 1
            if declarations > limits.max_declarations_per_file:
                kind = _DECLARATION_START.match(chunk.text)
                diagnostics.append(Diagnostic(
                    "syntax/too_many_declarations", too_many_declarations_message(limits), file, chunk.line_offset + 1,
                    1, 1 + (len(kind.group(0)) if kind else 1), "split the declarations over several files of the pack"))
                break
        try:
            _parse_tree(chunk.text, file)
        except _PROBLEMS as error:
            total_lines = total_lines or len(source_lines(source))  # counted once: the split stays linear
            end_note = _chunk_end_note(chunk, total_lines)
            diagnostics.append(_below(_problem(error, file, chunk.text, end_note), chunk.line_offset))
    if not diagnostics:  # splitting hid the problem (e.g. a keyword mid-line): report the original
        diagnostics.append(_problem(first_error, file, source))
    return diagnostics


def _below(diagnostic: Diagnostic, line_offset: int) -> Diagnostic:
    """A chunk's diagnostic at its line in the whole file."""
    if not line_offset or not diagnostic.line:
        return diagnostic
    return replace(diagnostic, line=diagnostic.line + line_offset)


def _chunk_end_note(chunk: _Chunk, total_lines: int) -> str:
    """Where a chunk ends, in the lines of the whole file (`total_lines` long)."""
    last = chunk.line_offset + len(source_lines(chunk.text))
    if last >= total_lines:
        return f"the file ends at line {max(1, last)}"
    return f"the next declaration starts at line {last + 1}"


def _problem(error: Exception, file: str, source: str, end_note: str = "") -> Diagnostic:
    if isinstance(error, SyntaxLayerError):
        return error.diagnostics[0]
    if isinstance(error, _LimitExceeded):
        return error.diagnostic(file)
    assert isinstance(error, UnexpectedInput)
    return _diagnostic_for(error, file, source, end_note)


def parse_declaration(source: str, file: str = "<input>", limits: InputLimits = INPUT_LIMITS) -> A.Declaration:
    module = parse(source, file, limits)
    if len(module.declarations) != 1:
        raise SyntaxLayerError(
            Diagnostic("syntax/declaration_count", f"expected exactly one declaration, found {len(module.declarations)}", file)
        )
    return module.declarations[0]
