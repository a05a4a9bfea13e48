"""Parse rule-script text into the typed syntax tree (`ast_nodes`).

The grammar lives in `nexus_dsl/grammar/nexus.lark` and is compiled once per process (LALR,
contextual lexer). A small post-lexer makes newlines meaningful only where they end a clause or
statement. A `v_args(inline=True)` Transformer turns the Lark tree into frozen dataclasses that
carry their source positions.

Syntax errors are collected per declaration: when a file fails to parse, each declaration is parsed
on its own, so one run reports every broken declaration, each as a positioned `Diagnostic`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterator

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lark import PostLex

from ..errors import Diagnostic, SyntaxLayerError
from . import ast_nodes as A

_CLOSERS_THAT_SWALLOW_NEWLINE = {"RBRACE", "ELSE", "ELIF"}
_OPENERS_THAT_SWALLOW_NEWLINE = {"LBRACE", "COMMA"}


class _NewlinePostLex(PostLex):
    """Keeps a newline only where it separates two clauses or statements.

    Dropped: newlines inside () and [], at the top level between declarations, right after `{` or
    `,`, right before `}`, `else` and `elif`, and repeats. What remains is exactly one `_NL` between
    two clauses or statements, which keeps the grammar small and conflict-free.
    """

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
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


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The compiled LALR parser; built once per process."""
    return Lark.open(
        "../grammar/nexus.lark",
        rel_to=__file__,
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


MAX_DIGITS = 9
MAX_DEPTH = 64  # nesting of expressions and blocks; deeper scripts are refused, never crash


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
    def declaration(self, meta: Any, children: list) -> A.Declaration:
        kind, ident, name, *clauses = children
        if str(kind) not in A.DECLARATION_KINDS:
            from ..errors import did_you_mean

            raise self._fail(kind, "unknown_kind", f"unknown declaration kind `{kind}`",
                             did_you_mean(str(kind), A.DECLARATION_KINDS) or "one of: " + ", ".join(A.DECLARATION_KINDS))
        return A.Declaration(
            kind=str(kind),
            id=str(ident),
            name=_unescape(name),
            clauses=tuple(c for c in clauses if c is not None),
            # Starts at the id (where errors point); ends at the closing brace (for `nexus fmt`).
            pos=A.Pos(ident.line or 0, ident.column or 0, getattr(meta, "end_line", 0), getattr(meta, "end_column", 0), self.file),
        )

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
    def range_type(self, meta: Any, children: list) -> A.RangeType:
        name, low, high = children
        return A.RangeType(name=str(name), low=int(low), high=int(high), pos=self._tpos(name))

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
        token = children[0]
        if len(str(token)) > MAX_DIGITS:
            raise self._fail(token, "number_too_large", f"the number {str(token)[:12]}... is too large",
                             f"numbers have at most {MAX_DIGITS} digits")
        return A.Num(value=int(token), pos=self._tpos(token))

    def string(self, children: list) -> A.Str:
        return A.Str(value=_unescape(children[0]), pos=self._tpos(children[0]))

    def sds(self, children: list) -> A.Sds:
        return A.Sds(level=sds_level(str(children[0])), pos=self._tpos(children[0]))

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
    lines = source.splitlines()
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


def _diagnostic_for(error: UnexpectedInput, file: str, source: str) -> Diagnostic:
    friendly = _friendly_hint(source, getattr(error, "line", 0) or 0, getattr(error, "column", 0) or 0)
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
        hint = "expected " + _describe_expected(set(error.accepts or error.expected))
        line, column = error.line, error.column
        end = column + max(1, len(str(token))) if token.type not in ("$END", "_NL") else column + 1
        code = "syntax/unexpected_token"
    elif isinstance(error, UnexpectedCharacters):
        message = f"unexpected character `{source[error.pos_in_stream] if error.pos_in_stream < len(source) else ''}`"
        hint = "characters allowed in scripts: letters, digits, _ and the symbols of the language (see docs/language.md)"
        line, column, end = error.line, error.column, error.column + 1
        code = "syntax/unexpected_character"
    else:  # UnexpectedEOF
        message = "unexpected end of file"
        hint = "expected " + _describe_expected(set(getattr(error, "expected", ()) or ()))
        line, column, end = max(1, source.count("\n") + 1), 1, 2
        code = "syntax/unexpected_eof"
    if friendly:
        hint = f"{friendly}; {hint}" if hint else friendly
    return Diagnostic(code=code, message=message, file=file, line=line, column=column, end_column=end, hint=hint)


_DECLARATION_START = re.compile(r"^(command|trait_ability|hazard|turning_point|influence|weapon|rule)\b", re.M)


def _chunks(source: str) -> list[tuple[int, str]]:
    """Split a file at lines starting with a declaration keyword, keeping line numbers."""
    starts = [m.start() for m in _DECLARATION_START.finditer(source)]
    if not starts or starts[0] != 0:
        starts = [0] + starts
    chunks = []
    for i, begin in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(source)
        line_offset = source.count("\n", 0, begin)
        chunks.append((line_offset, source[begin:end]))
    return chunks


class _TooDeep(Exception):
    pass


def _parse_tree(text: str, file: str) -> A.Module:
    tree = grammar_parser().parse(text)
    try:
        if _tree_depth(tree) > MAX_DEPTH * 4:  # a tree level per grammar rule: roughly 4 per construct
            raise _TooDeep()
        module = _ToAst(file).transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, _PositionedError):
            raise SyntaxLayerError(error.orig_exc.diagnostic) from None
        raise error.orig_exc from error  # a transformer bug, not a user mistake: surface the original
    except RecursionError:
        raise _TooDeep() from None
    return module


def _tree_depth(tree: Any) -> int:
    """The depth of a Lark tree, measured without recursion."""
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        for child in getattr(node, "children", ()):
            if hasattr(child, "children"):
                stack.append((child, depth + 1))
    return deepest


def parse(source: str, file: str = "<input>") -> A.Module:
    """Parse a whole file. Raises SyntaxLayerError listing every broken declaration."""
    try:
        return _parse_tree(source, file)
    except (UnexpectedInput, UnexpectedEOF, SyntaxLayerError, _TooDeep) as first_error:
        diagnostics: list[Diagnostic] = []
        for line_offset, chunk in _chunks(source):
            padded = "\n" * line_offset + chunk
            try:
                _parse_tree(padded, file)
            except (UnexpectedInput, UnexpectedEOF, SyntaxLayerError, _TooDeep) as error:
                diagnostics.append(_problem(error, file, padded, line_offset + 1))
        if not diagnostics:  # splitting hid the problem (e.g. a keyword mid-line): report the original
            diagnostics.append(_problem(first_error, file, source, 1))
        raise SyntaxLayerError(diagnostics) from None


def _problem(error: Exception, file: str, source: str, first_line: int) -> Diagnostic:
    if isinstance(error, SyntaxLayerError):
        return error.diagnostics[0]
    if isinstance(error, _TooDeep):
        return Diagnostic("syntax/too_deep", "this declaration nests too deeply", file, first_line, 1, 2,
                          f"expressions and blocks may nest at most about {MAX_DEPTH} levels; split it with `let`")
    assert isinstance(error, UnexpectedInput)
    return _diagnostic_for(error, file, source)


def parse_declaration(source: str, file: str = "<input>") -> A.Declaration:
    module = parse(source, file)
    if len(module.declarations) != 1:
        raise SyntaxLayerError(
            Diagnostic("syntax/declaration_count", f"expected exactly one declaration, found {len(module.declarations)}", file)
        )
    return module.declarations[0]


def parse_expression(source: str, file: str = "<expr>") -> A.Expr:
    """Parse a lone expression (used by YAML data that embeds small conditions)."""
    module = parse(f'rule _expr "_" {{ param value = {source} }}', file)
    param = module.declarations[0].clauses[0]
    assert isinstance(param, A.Param)
    return param.value
