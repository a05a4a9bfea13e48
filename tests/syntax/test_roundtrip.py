"""Property tests: printing, parsing and the canonical form agree on every reachable tree, and no
text — arbitrary, or a real content script damaged — makes parsing or checking fail other than with
positioned diagnostics.

The trees come from `strategies.py` (next to this file), which generates exactly the syntax trees
the parser can produce. Every property runs deterministically (`derandomize=True`, no example
database): the same examples on every run.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nexus_dsl import cached_ruleset
from nexus_dsl.errors import SyntaxLayerError
from nexus_dsl.limits import INPUT_LIMITS
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax.canonical import from_canonical, to_canonical
from nexus_dsl.syntax.parser import parse
from nexus_dsl.syntax.printer import print_declaration, print_expr, print_module
from nexus_dsl.validate_files import check_script_text


def _load_strategies():
    """Import strategies.py by path, so another test folder's `strategies` module cannot shadow it."""
    name = "nexus_syntax_test_strategies"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("strategies.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


S = _load_strategies()

ROOT = Path(__file__).resolve().parents[2]
BASE_SCRIPTS = sorted((ROOT / "content" / "base").rglob("*.nexus"))
CONTENT_SCRIPTS = sorted((ROOT / "content").rglob("*.nexus"))

PROPERTY_SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                             suppress_health_check=[HealthCheck.too_slow])
# Checking a whole file is slower than parsing one declaration: fewer examples.
FILE_SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                         suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _reparse(declaration: A.Declaration) -> A.Declaration:
    module = parse(print_declaration(declaration), "<roundtrip>")
    assert len(module.declarations) == 1
    return module.declarations[0]


# ---------------------------------------------------------------- generated trees
@PROPERTY_SETTINGS
@given(S.declarations)
def test_print_then_parse_gives_the_same_tree(declaration: A.Declaration) -> None:
    assert _reparse(declaration) == declaration


@PROPERTY_SETTINGS
@given(S.declarations)
def test_canonical_form_round_trips(declaration: A.Declaration) -> None:
    assert from_canonical(to_canonical(declaration)) == declaration


@PROPERTY_SETTINGS
@given(S.declarations)
def test_canonical_form_of_a_parsed_declaration_round_trips(declaration: A.Declaration) -> None:
    parsed = _reparse(declaration)
    assert from_canonical(to_canonical(parsed)) == parsed


@PROPERTY_SETTINGS
@given(S.declarations)
def test_formatting_is_idempotent(declaration: A.Declaration) -> None:
    printed = print_declaration(declaration)
    assert print_declaration(_reparse(declaration)) == printed


@PROPERTY_SETTINGS
@given(st.lists(S.declarations, min_size=0, max_size=3))
def test_a_module_of_several_declarations_round_trips(declarations: list[A.Declaration]) -> None:
    text = print_module(A.Module(declarations=tuple(declarations)))
    assert parse(text).declarations == tuple(declarations)


@PROPERTY_SETTINGS
@given(S.expressions)
def test_every_expression_round_trips_through_a_param(expr: A.Expr) -> None:
    declaration = A.Declaration(kind="rule", id="r", name="R", clauses=(A.Param(name="p", value=expr),))
    reparsed = _reparse(declaration)
    assert reparsed.clauses[0].value == expr, print_expr(expr)


@PROPERTY_SETTINGS
@given(S.statements)
def test_every_statement_round_trips_inside_an_effect(stmt: A.Stmt) -> None:
    declaration = A.Declaration(kind="command", id="c", name="C", clauses=(A.Effect(body=A.Block(statements=(stmt,))),))
    assert _reparse(declaration) == declaration


# ---------------------------------------------------------------- the real content
@pytest.mark.parametrize("path", BASE_SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_base_content_survives_parse_print_parse(path: Path) -> None:
    module = parse(path.read_text(encoding="utf-8"), str(path))
    assert module.declarations, f"{path} declares nothing"
    for declaration in module.declarations:
        printed = print_declaration(declaration)
        again = parse(printed, str(path)).declarations
        assert again == (declaration,)
        assert print_declaration(again[0]) == printed
        assert from_canonical(to_canonical(declaration)) == declaration


def test_base_content_is_present() -> None:
    assert len(BASE_SCRIPTS) >= 2


# ---------------------------------------------------------------- fuzzing
def _parses_or_reports(text: str) -> None:
    """`parse` returns, or raises a SyntaxLayerError whose every diagnostic is positioned."""
    try:
        parse(text, "<fuzz>")
    except SyntaxLayerError as error:
        assert error.diagnostics, "a syntax error must carry at least one diagnostic"
        for diagnostic in error.diagnostics:
            assert diagnostic.code.startswith("syntax/")
            assert diagnostic.file == "<fuzz>"
            assert diagnostic.line >= 1 and diagnostic.column >= 1, diagnostic
            assert diagnostic.end_column >= diagnostic.column, diagnostic
            diagnostic.format(text)  # formatting never fails either


@PROPERTY_SETTINGS
@given(st.text(max_size=200))
def test_random_text_parses_or_raises_a_syntax_error(text: str) -> None:
    _parses_or_reports(text)


@PROPERTY_SETTINGS
@given(S.token_soup)
def test_random_token_soup_parses_or_raises_a_syntax_error(text: str) -> None:
    _parses_or_reports(text)


@PROPERTY_SETTINGS
@given(S.token_soup.map(lambda soup: 'command c "C" {\n    effect {\n' + soup + "\n    }\n}\n"))
def test_random_statements_inside_a_declaration_parse_or_raise_a_syntax_error(text: str) -> None:
    _parses_or_reports(text)


@PROPERTY_SETTINGS
@given(S.declarations, st.data())
def test_a_damaged_declaration_parses_or_raises_a_syntax_error(declaration: A.Declaration, data: st.DataObject) -> None:
    text = print_declaration(declaration)
    cut = data.draw(st.integers(0, len(text)), label="cut")
    insert = data.draw(st.sampled_from(["", "{", "}", "(", '"', "\n", "else", "$", "vs", ","]), label="insert")
    drop = data.draw(st.integers(0, 3), label="drop")
    _parses_or_reports(text[:cut] + insert + text[cut + drop:])


# Edits that damage a real script: what typing, pasting or a hostile hand may do, including input
# beyond every limit (deep nesting, long names and numbers, stray brackets and keywords).
_PIECES = [
    "", "{", "}", "(", ")", "[", "]", '"', "\n", ";", ",", ".", "#", "else", "elif", "for each x in", "vs", "$",
    "not ", "-", "+ 1", "and", " if ", "rule r \"R\" {", "@", "\t", "\r\n", "\u00e9", "\u2028",
    "(" * 40, "{\n" * 40, "not " * 40, "[" * 40, " + 1" * 40, ".a" * 40,
    "n" * (INPUT_LIMITS.max_identifier_length + 1), "9" * 12, '"' + "t" * (INPUT_LIMITS.max_string_length + 1) + '"',
]
_CONTENT_TEXTS = [path.read_text(encoding="utf-8") for path in CONTENT_SCRIPTS]


@st.composite
def damaged_content_scripts(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(_CONTENT_TEXTS), label="script")
    for _ in range(draw(st.integers(1, 4), label="edits")):
        at = draw(st.integers(0, len(text)), label="at")
        drop = draw(st.integers(0, 40), label="drop")
        text = text[:at] + draw(st.sampled_from(_PIECES), label="insert") + text[at + drop:]
    return text


@PROPERTY_SETTINGS
@given(st.text(max_size=400))
def test_any_text_parses_or_raises_positioned_syntax_errors(text: str) -> None:
    _parses_or_reports(text)


@PROPERTY_SETTINGS
@given(damaged_content_scripts())
def test_a_damaged_content_script_parses_or_raises_positioned_syntax_errors(text: str) -> None:
    _parses_or_reports(text)


@FILE_SETTINGS
@given(damaged_content_scripts())
def test_checking_a_damaged_content_script_never_raises(text: str) -> None:
    diagnostics = check_script_text(text, "<fuzz>", cached_ruleset(("base",)))
    for diagnostic in diagnostics:
        diagnostic.format(text)


def test_the_content_scripts_were_found() -> None:
    assert len(_CONTENT_TEXTS) >= 20


# ---------------------------------------------------------------- once bugs, now regression tests
def test_text_with_backslash_n_round_trips() -> None:
    declaration = A.Declaration(kind="rule", id="r", name="C:\\new", clauses=())
    assert print_declaration(declaration) == 'rule r "C:\\\\new" {}\n'
    assert _reparse(declaration).name == "C:\\new"


def test_repeated_preposition_survives_canonical_form() -> None:
    declaration = parse('command c "C" {\n    effect {\n        damage target by 1 by 2\n    }\n}\n').declarations[0]
    assert from_canonical(to_canonical(declaration)) == declaration


def test_repeated_keyword_argument_survives_canonical_form() -> None:
    declaration = parse('rule r "R" {\n    param p = f(a: 1, a: 2)\n}\n').declarations[0]
    assert from_canonical(to_canonical(declaration)) == declaration


def test_repeated_prepositions_and_keywords_still_round_trip_through_text() -> None:
    text = 'command c "C" {\n    param p = f(a: 1, a: 2)\n    effect {\n        damage target by 1 by 2\n    }\n}\n'
    declaration = parse(text).declarations[0]
    assert print_declaration(declaration) == text
    assert _reparse(declaration) == declaration


def test_deeply_nested_brackets_give_a_syntax_error_or_parse() -> None:
    _parses_or_reports('rule r "R" {\n    param p = ' + "(" * 400 + "1" + ")" * 400 + "\n}\n")


def test_a_long_sum_parses() -> None:
    _parses_or_reports('rule r "R" {\n    param p = 1' + " + 1" * 500 + "\n}\n")


def test_a_huge_number_gives_a_syntax_error_or_parses() -> None:
    _parses_or_reports('rule r "R" {\n    param p = ' + "9" * 5000 + "\n}\n")
