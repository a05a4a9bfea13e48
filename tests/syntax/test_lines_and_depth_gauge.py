"""Lines are counted one way everywhere (by `\\n` only, as the parser counts them): `nexus fmt`
keeps every comment whole, whatever line or paragraph separator it holds, and a syntax error's
hint reads the line the error names. The size of a text is checked by one function, which every
layer reports alike. The parser's depth gauge classifies every terminal of the grammar, so a new
operator cannot make it underestimate how deep a script nests."""

from __future__ import annotations

import builtins
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from lark import Token

from nexus_dsl import errors, files
from nexus_dsl.cli import main
from nexus_dsl.errors import ContentError, Diagnostic, NexusError, SchemaError, SyntaxLayerError
from nexus_dsl.limits import InputLimits
from nexus_dsl.schema import load_yaml_with_positions
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax import parser as P
from nexus_dsl.syntax.parser import grammar_parser, parse
from nexus_dsl.syntax.printer import format_source, print_expr



def _strategies() -> Any:
    """strategies.py beside this file, imported by path under the name the round-trip tests give it."""
    name = "nexus_syntax_test_strategies"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("strategies.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


expressions = _strategies().expressions

SEPARATORS = ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\r"]
TIDY = 'rule tidy "Tidy" {{\n    param x = 1  # trailing{0}half\n}}\n'


# ---------------------------------------------------------------- one line splitter
def test_source_lines_breaks_at_newlines_only() -> None:
    text = "a\u2028b\x85c\r\nd\x0ce\n\nf"
    assert errors.source_lines(text) == ["a\u2028b\x85c\r", "d\x0ce", "", "f"]
    assert errors.source_lines(text, keepends=True) == ["a\u2028b\x85c\r\n", "d\x0ce\n", "\n", "f"]
    assert "".join(errors.source_lines(text, keepends=True)) == text
    for same in ("", "x", "x\n", "x\ny", "\n\n"):
        assert errors.source_lines(same) == same.splitlines()
        assert errors.source_lines(same, keepends=True) == same.splitlines(keepends=True)


@pytest.mark.parametrize("separator", SEPARATORS)
def test_fmt_keeps_every_comment_whole(separator: str) -> None:
    source = f"# one{separator}two\nrule tidy \"Tidy\" {{ param x = 1  # trailing{separator}half\n}}\n# last{separator}end\n"
    formatted = format_source(source)
    assert f"# one{separator}two\n" in formatted
    assert f"# trailing{separator}half\n" in formatted
    assert formatted.endswith(f"# last{separator}end\n")
    assert format_source(formatted) == formatted


def test_nexus_fmt_keeps_a_comment_holding_a_line_separator(tmp_path: Path) -> None:
    script = tmp_path / "noted.nexus"
    script.write_text('# one\u2028two\nrule tidy "Tidy" { param x = 1  # trailing\u2028half\n}\n', encoding="utf-8")
    assert main(["fmt", str(script)]) == 0
    assert script.read_text(encoding="utf-8") == "# one\u2028two\n" + TIDY.format("\u2028")


def test_a_hint_reads_the_line_the_error_names() -> None:
    source = 'command c "C" {\n    # about the cost\u2028cost\n    requires\n}\n'
    with pytest.raises(SyntaxLayerError) as caught:
        parse(source)
    problem = caught.value.diagnostics[0]
    assert (problem.line, problem.column) == (4, 1)  # the `}`: the clause began on the line before
    assert problem.hint is not None and problem.hint.startswith("a requirement is a condition")


# ---------------------------------------------------------------- nexus fmt reads a file once
def test_nexus_fmt_reads_each_file_once_to_format_and_once_under_the_lock(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "messy.nexus"
    script.write_text('rule tidy "Tidy" { param x = 1 }\n', encoding="utf-8")
    reads: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if Path(str(file)).name == script.name and not set(mode) & set("wax+"):
            reads.append("open")
        return real_open(file, mode, *args, **kwargs)

    def spy_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(str(path)).name == script.name and not flags & (os.O_WRONLY | os.O_RDWR):
            reads.append("os.open")
        return real_os_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    assert main(["fmt", str(script)]) == 0
    assert len(reads) == 2, reads
    assert script.read_text(encoding="utf-8") == 'rule tidy "Tidy" {\n    param x = 1\n}\n'


# ---------------------------------------------------------------- one size check
def test_every_layer_refuses_a_text_too_large_at_the_same_place(tmp_path: Path) -> None:
    limits = InputLimits(max_file_bytes=100)
    text = "# " + "é" * 30 + "\n" + "é" * 60 + "\n"  # byte 100 (from 0) is the second of line 2's 19th é
    expected = files.check_text_size(text, "t", limits)
    assert expected == Diagnostic("content/too_large", "the text is larger than 100 bytes", "t", 2, 19, 20,
                                  expected.hint if expected else None)
    from_a_file = files.check_text_size(text.encode(), "t", limits)
    assert from_a_file is not None and (from_a_file.line, from_a_file.column) == (2, 19)
    assert files.check_text_size("é" * 50, "t", limits) is None
    assert files.check_text_size("é" * 51, "t", limits) is not None
    path = tmp_path / "big.nexus"
    path.write_text(text, encoding="utf-8")
    refusals: list[tuple[type[NexusError], Any]] = [
        (SyntaxLayerError, lambda: parse(text, "t", limits)),
        (SchemaError, lambda: load_yaml_with_positions(text, "t", limits=limits)),
        (ContentError, lambda: files.read_content(path, tmp_path, "t", limits)),
    ]
    for kind, refuse in refusals:
        with pytest.raises(kind) as caught:
            refuse()
        problem = caught.value.diagnostics[0]
        assert (problem.line, problem.column, problem.end_column) == (2, 19, 20)
        assert problem.code.endswith("/too_large") and "larger than 100 bytes" in problem.message


# ---------------------------------------------------------------- the depth gauge and the grammar
def test_every_terminal_of_the_grammar_is_classified_by_the_depth_gauge_once() -> None:
    lark = grammar_parser()
    terminals = {terminal.name for terminal in lark.terminals} - set(lark.ignore_tokens)
    classes = [P._OPENERS, P._CLOSERS, P._OPERATORS, P._OPERANDS, P._SEPARATORS]
    assert set().union(*classes) == terminals
    assert sum(len(kind) for kind in classes) == len(terminals)  # no terminal in two classes
    assert P._VALUE_ENDS <= P._OPERANDS | P._CLOSERS
    patterns = {terminal.name: terminal.pattern.value for terminal in lark.terminals}
    assert patterns["__ANON_0"] == ".."  # the one unnamed terminal the separators name


def test_a_token_of_a_kind_no_class_names_counts_as_an_operator() -> None:
    gauge = P._DepthGauge()
    assert gauge.read(Token("LBRACE", "{")) and gauge.depth() == 1
    assert gauge.read(Token("NEW_OPERATOR", "^")) and gauge.depth() == 2


def expression_depth(expr: A.Expr) -> int:
    """Nodes from an expression down to its deepest leaf, as the layers below the parser recurse."""
    if isinstance(expr, A.ListLit):
        children: list[A.Expr] = list(expr.items)
    elif isinstance(expr, A.Attr):
        children = [expr.obj]
    elif isinstance(expr, A.Index):
        children = [expr.obj, expr.index]
    elif isinstance(expr, A.Call):
        children = [*expr.args, *(keyword.value for keyword in expr.kwargs)]
    elif isinstance(expr, (A.Neg, A.Not)):
        children = [expr.operand]
    elif isinstance(expr, (A.Binary, A.Compare)):
        children = [expr.left, expr.right]
    else:
        children = []
    return 1 + max((expression_depth(child) for child in children), default=0)


def gauged_depth(source: str) -> int:
    """The deepest the parser's gauge measures the tokens of `source` (after its post-lexer)."""
    gauge = P._DepthGauge()
    deepest = 0
    for token in grammar_parser().lex(source):
        if gauge.read(token):
            deepest = max(deepest, gauge.depth())
    return deepest


@settings(max_examples=400, derandomize=True, deadline=None)
@given(expressions)
def test_the_gauge_never_measures_an_expression_shallower_than_its_tree(expr: A.Expr) -> None:
    source = f'rule r "R" {{\n    param p = {print_expr(expr)}\n}}\n'
    (param,) = parse(source).declarations[0].clauses
    assert isinstance(param, A.Param)
    assert expression_depth(param.value) <= gauged_depth(source)  # the braces' level holds the leaves
