"""Print syntax trees back as canonical rule-script text (`nexus fmt`).

The output is the one canonical spelling of a declaration: four-space indents, one clause or
statement per line, single spaces around operators, and only the parentheses the grammar needs.
`parse(print_declaration(d)) == d` holds for every declaration the parser can produce.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..errors import source_lines
from ..limits import INPUT_LIMITS, InputLimits
from . import ast_nodes as A

INDENT = "    "


@dataclass
class Comment:
    line: int
    text: str  # including the leading `#`
    trailing: bool  # written after code on the same line
    blank_after: bool = False  # a blank line follows it in the source


@dataclass
class CommentQueue:
    """Source comments, handed back to the printer in order so `nexus fmt` never drops one.

    The printer asks for them in the order of the source lines, so the queue only ever looks at its
    front: printing a file costs time linear in its length, however many comments it holds."""

    pending: deque[Comment] = field(default_factory=deque)

    def __post_init__(self) -> None:
        self.pending = deque(sorted(self.pending, key=lambda c: c.line))

    @classmethod
    def scan(cls, source: str) -> CommentQueue:
        """Every comment of `source`, at the line the parser gives the code around it: lines are
        counted by `\\n` only, so a comment holding a form feed, NEL or U+2028 stays one comment."""
        comments = []
        lines = source_lines(source)
        for number, line in enumerate(lines, start=1):
            column = _comment_column(line)
            if column is not None:
                blank_after = number < len(lines) and not lines[number].strip()
                comments.append(Comment(number, line[column:].rstrip(), bool(line[:column].strip()), blank_after))
        return cls(deque(comments))

    def before(self, line: int) -> list[Comment]:
        """Comments standing on lines before `line` (and trailing ones the printer could not attach)."""
        taken = []
        while self.pending and self.pending[0].line < line:
            taken.append(self.pending.popleft())
        return taken

    def trailing(self, line: int) -> Comment | None:
        """The comment written after code at the end of `line`, if it is next in the queue."""
        if self.pending and self.pending[0].line == line and self.pending[0].trailing:
            return self.pending.popleft()
        return None


def _comment_column(line: str) -> int | None:
    """Where a `#` comment starts on a line, skipping `#` inside quoted text."""
    in_string = escaped = False
    for index, char in enumerate(line):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "#":
            return index
    return None


def _leading(comments: CommentQueue | None, line: int, depth: int) -> str:
    if comments is None or not line:
        return ""
    return "".join(INDENT * depth + c.text + "\n" + ("\n" if c.blank_after else "") for c in comments.before(line))


def _with_trailing(text: str, comments: CommentQueue | None, line: int, children: tuple = ()) -> str:
    """Attach the comment written at the end of `line` — unless a child node also starts on that
    line, in which case the comment belongs to the child (the last thing before it)."""
    if comments is None or not line or any(child.pos.line == line for child in children):
        return text
    comment = comments.trailing(line)
    if comment is None:
        return text
    first, newline, rest = text.partition("\n")
    return f"{first}  {comment.text}{newline}{rest}"

# Binding strength: a higher number binds tighter. Used to decide where parentheses are needed.
_OR, _AND, _NOT, _COMPARE, _SUM, _PRODUCT, _UNARY, _POSTFIX = range(1, 9)
_BINARY_LEVEL = {"or": _OR, "and": _AND, "+": _SUM, "-": _SUM, "*": _PRODUCT, "/": _PRODUCT}


def sds_text(level: int) -> str:
    if level == 0:
        return "SD"
    size = "" if abs(level) == 1 else str(abs(level))
    return f"{'+' if level > 0 else '-'}{size}SDS"


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _level(expr: A.Expr) -> int:
    if isinstance(expr, A.Binary):
        return _BINARY_LEVEL[expr.op]
    if isinstance(expr, A.Compare):
        return _COMPARE
    if isinstance(expr, A.Not):
        return _NOT
    if isinstance(expr, A.Neg):
        return _UNARY
    return _POSTFIX


def _wrap(expr: A.Expr, minimum: int) -> str:
    text = print_expr(expr)
    return f"({text})" if _level(expr) < minimum else text


def print_expr(expr: A.Expr) -> str:
    if isinstance(expr, A.Num):
        return str(expr.value)
    if isinstance(expr, A.Str):
        return quote(expr.value)
    if isinstance(expr, A.Bool):
        return "true" if expr.value else "false"
    if isinstance(expr, A.NoneLit):
        return "none"
    if isinstance(expr, A.ScaleLevel):
        return sds_text(expr.level)
    if isinstance(expr, A.Name):
        return expr.id
    if isinstance(expr, A.ListLit):
        return "[" + ", ".join(print_expr(i) for i in expr.items) + "]"
    if isinstance(expr, A.Attr):
        return f"{_wrap(expr.obj, _POSTFIX)}.{expr.name}"
    if isinstance(expr, A.Index):
        return f"{_wrap(expr.obj, _POSTFIX)}[{print_expr(expr.index)}]"
    if isinstance(expr, A.Call):
        parts = [print_expr(a) for a in expr.args] + [f"{k.name}: {print_expr(k.value)}" for k in expr.kwargs]
        return f"{expr.func}({', '.join(parts)})"
    if isinstance(expr, A.Neg):
        return "-" + _wrap(expr.operand, _UNARY)
    if isinstance(expr, A.Not):
        return "not " + _wrap(expr.operand, _NOT)
    if isinstance(expr, A.Binary):
        level = _BINARY_LEVEL[expr.op]
        # Left-associative: the right operand needs parentheses at equal strength.
        return f"{_wrap(expr.left, level)} {expr.op} {_wrap(expr.right, level + 1)}"
    if isinstance(expr, A.Compare):
        if expr.op in ("is", "is not"):
            return f"{_wrap(expr.left, _SUM)} {expr.op} {print_expr(expr.right)}"
        return f"{_wrap(expr.left, _SUM)} {expr.op} {_wrap(expr.right, _SUM)}"
    raise TypeError(f"cannot print expression node {type(expr).__name__}")


def _print_block(block: A.Block, depth: int, comments: CommentQueue | None = None) -> str:
    inner = "\n".join(_print_statement(s, depth + 1, comments) for s in block.statements)
    closing = _leading(comments, block.pos.end_line, depth + 1)
    if not inner and not closing:
        return "{}"
    body = inner + ("\n" if inner else "") + closing
    return "{\n" + body + INDENT * depth + "}"


def _print_statement(stmt: A.Stmt, depth: int, comments: CommentQueue | None = None) -> str:
    lead = _leading(comments, stmt.pos.line, depth)
    return lead + _with_trailing(_statement_text(stmt, depth, comments), comments, stmt.pos.line)


def _statement_text(stmt: A.Stmt, depth: int, comments: CommentQueue | None) -> str:
    pad = INDENT * depth
    if isinstance(stmt, A.Let):
        return f"{pad}let {stmt.name} = {print_expr(stmt.value)}"
    if isinstance(stmt, A.Set):
        return f"{pad}set {stmt.name} = {print_expr(stmt.value)}"
    if isinstance(stmt, A.If):
        first, *rest = stmt.branches
        head = _with_trailing(f"{pad}if {print_expr(first.condition)} {{", comments, stmt.pos.line, first.body.statements)
        text = head + _print_block(first.body, depth, comments)[1:]
        for branch in rest:
            text += f" elif {print_expr(branch.condition)} {_print_block(branch.body, depth, comments)}"
        if stmt.otherwise is not None:
            text += f" else {_print_block(stmt.otherwise, depth, comments)}"
        return text
    if isinstance(stmt, A.ForEach):
        head = _with_trailing(f"{pad}for each {stmt.var} in {print_expr(stmt.iterable)} {{", comments, stmt.pos.line,
                              stmt.body.statements)
        return head + _print_block(stmt.body, depth, comments)[1:]
    if isinstance(stmt, A.Repeat):
        head = _with_trailing(f"{pad}repeat {print_expr(stmt.count)} {{", comments, stmt.pos.line, stmt.body.statements)
        return head + _print_block(stmt.body, depth, comments)[1:]
    if isinstance(stmt, A.Action):
        parts = [stmt.verb]
        parts += [print_expr(a) for a in stmt.args]
        parts += [f"{p.prep} {print_expr(p.value)}" for p in stmt.preps]
        return pad + " ".join(parts)
    raise TypeError(f"cannot print statement node {type(stmt).__name__}")


def print_arg_type(arg_type: A.ArgType) -> str:
    if isinstance(arg_type, A.NamedType):
        return arg_type.name
    if isinstance(arg_type, A.ChoiceType):
        return "{" + ", ".join(arg_type.options) + "}"
    if isinstance(arg_type, A.SpanType):
        return f"{arg_type.name} {print_expr(arg_type.low)}..{print_expr(arg_type.high)}"
    if isinstance(arg_type, A.ZoneCardType):
        return f"in {arg_type.zone}"
    return f"{arg_type.name} {arg_type.low}..{arg_type.high}"


def print_roll_spec(spec: A.RollSpec) -> str:
    if isinstance(spec, A.OpposedRoll):
        return f"{print_expr(spec.level)} vs {spec.against}"
    if isinstance(spec, A.ThresholdRoll):
        return f"{spec.target}+"
    return "automatic"


def _print_clause(clause: A.Clause, depth: int, comments: CommentQueue | None = None) -> str:
    lead = _leading(comments, clause.pos.line, depth)
    return lead + _with_trailing(_clause_text(clause, depth, comments), comments, clause.pos.line)


def _block_clause(head: str, block: A.Block, depth: int, comments: CommentQueue | None, line: int) -> str:
    first = _with_trailing(head + " {", comments, line, block.statements)
    return first + _print_block(block, depth, comments)[1:]


def _clause_text(clause: A.Clause, depth: int, comments: CommentQueue | None) -> str:
    pad = INDENT * depth
    if isinstance(clause, A.Property):
        return f"{pad}{clause.name} " + ", ".join(print_expr(v) for v in clause.values)
    if isinstance(clause, A.Cost):
        return f"{pad}cost " + ", ".join(f"{print_expr(i.amount)} {i.resource}" for i in clause.items)
    if isinstance(clause, A.Requires):
        tail = f" else {quote(clause.message)}" if clause.message is not None else ""
        return f"{pad}requires {print_expr(clause.condition)}{tail}"
    if isinstance(clause, A.Roll):
        return f"{pad}roll {clause.kind} {print_roll_spec(clause.spec)}"
    if isinstance(clause, A.On):
        return _block_clause(f"{pad}on {clause.outcome}", clause.body, depth, comments, clause.pos.line)
    if isinstance(clause, A.When):
        condition = f" if {print_expr(clause.condition)}" if clause.condition is not None else ""
        return _block_clause(f"{pad}when {clause.event}{condition}", clause.body, depth, comments, clause.pos.line)
    if isinstance(clause, A.Window):
        by = f" by {clause.by}" if clause.by else ""
        return f"{pad}window {clause.name}{by}"
    if isinstance(clause, A.Param):
        return f"{pad}param {clause.name} = {print_expr(clause.value)}"
    if isinstance(clause, A.Arg):
        return f"{pad}arg {clause.name}: {print_arg_type(clause.type)}"
    if isinstance(clause, A.Effect):
        return _block_clause(f"{pad}effect", clause.body, depth, comments, clause.pos.line)
    raise TypeError(f"cannot print clause node {type(clause).__name__}")


def print_declaration(declaration: A.Declaration, comments: CommentQueue | None = None) -> str:
    lead = _leading(comments, declaration.pos.line, 0)
    head = _with_trailing(f"{declaration.kind} {declaration.id} {quote(declaration.name)} {{", comments,
                          declaration.pos.line, declaration.clauses)
    body = "\n".join(_print_clause(c, 1, comments) for c in declaration.clauses)
    closing = _leading(comments, declaration.pos.end_line, 1) if comments is not None else ""
    if not body and not closing:
        return lead + head + "}\n"
    return f"{lead}{head}\n{body}{chr(10) if body else ''}{closing}}}\n"


def print_module(module: A.Module, comments: CommentQueue | None = None) -> str:
    text = "\n".join(print_declaration(d, comments) for d in module.declarations)
    if comments is not None and comments.pending:
        last_line = module.declarations[-1].pos.end_line if module.declarations else 0
        follows_directly = comments.pending[0].line == last_line + 1
        tail = _leading(comments, 10**9, 0)
        text = text + ("" if follows_directly or not text else "\n") + tail
    return text


def format_source(source: str, file: str = "<input>", limits: InputLimits = INPUT_LIMITS) -> str:
    """Canonical text for a whole file, keeping every comment (`nexus fmt`). The text is held to
    `limits` as `parse` holds it, so printing recurses no deeper than the parser allows."""
    from .parser import parse

    return print_module(parse(source, file, limits), CommentQueue.scan(source))
