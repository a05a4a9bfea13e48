"""Print syntax trees back as canonical rule-script text (`nexus fmt`).

The output is the one canonical spelling of a declaration: four-space indents, one clause or
statement per line, single spaces around operators, and only the parentheses the grammar needs.
`parse(print_declaration(d)) == d` holds for every declaration the parser can produce.
"""

from __future__ import annotations

from . import ast_nodes as A

INDENT = "    "

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
    if isinstance(expr, A.Sds):
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


def _print_block(block: A.Block, depth: int) -> str:
    if not block.statements:
        return "{}"
    inner = "\n".join(_print_statement(s, depth + 1) for s in block.statements)
    return "{\n" + inner + "\n" + INDENT * depth + "}"


def _print_statement(stmt: A.Stmt, depth: int) -> str:
    pad = INDENT * depth
    if isinstance(stmt, A.Let):
        return f"{pad}let {stmt.name} = {print_expr(stmt.value)}"
    if isinstance(stmt, A.If):
        first, *rest = stmt.branches
        text = f"{pad}if {print_expr(first.condition)} {_print_block(first.body, depth)}"
        for branch in rest:
            text += f" elif {print_expr(branch.condition)} {_print_block(branch.body, depth)}"
        if stmt.otherwise is not None:
            text += f" else {_print_block(stmt.otherwise, depth)}"
        return text
    if isinstance(stmt, A.ForEach):
        return f"{pad}for each {stmt.var} in {print_expr(stmt.iterable)} {_print_block(stmt.body, depth)}"
    if isinstance(stmt, A.Repeat):
        return f"{pad}repeat {print_expr(stmt.count)} {_print_block(stmt.body, depth)}"
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
    return f"{arg_type.name} {arg_type.low}..{arg_type.high}"


def print_roll_spec(spec: A.RollSpec) -> str:
    if isinstance(spec, A.OpposedRoll):
        return f"{print_expr(spec.level)} vs {spec.against}"
    if isinstance(spec, A.ThresholdRoll):
        return f"{spec.target}+"
    return "automatic"


def _print_clause(clause: A.Clause, depth: int) -> str:
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
        return f"{pad}on {clause.outcome} {_print_block(clause.body, depth)}"
    if isinstance(clause, A.When):
        condition = f" if {print_expr(clause.condition)}" if clause.condition is not None else ""
        return f"{pad}when {clause.event}{condition} {_print_block(clause.body, depth)}"
    if isinstance(clause, A.Window):
        by = f" by {clause.by}" if clause.by else ""
        return f"{pad}window {clause.name}{by}"
    if isinstance(clause, A.Param):
        return f"{pad}param {clause.name} = {print_expr(clause.value)}"
    if isinstance(clause, A.Arg):
        return f"{pad}arg {clause.name}: {print_arg_type(clause.type)}"
    if isinstance(clause, A.Effect):
        return f"{pad}effect {_print_block(clause.body, depth)}"
    raise TypeError(f"cannot print clause node {type(clause).__name__}")


def print_declaration(declaration: A.Declaration) -> str:
    head = f"{declaration.kind} {declaration.id} {quote(declaration.name)}"
    if not declaration.clauses:
        return head + " {}\n"
    body = "\n".join(_print_clause(c, 1) for c in declaration.clauses)
    return f"{head} {{\n{body}\n}}\n"


def print_module(module: A.Module) -> str:
    return "\n".join(print_declaration(d) for d in module.declarations)
