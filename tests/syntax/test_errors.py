"""Syntax errors: positioned diagnostics with stable codes, hints and a caret excerpt."""

from __future__ import annotations

import pytest

from nexus_dsl.errors import Diagnostic, NexusError, SyntaxLayerError
from nexus_dsl.syntax.parser import parse, parse_declaration


def diagnostics_of(source: str, file: str = "arena.nexus") -> list[Diagnostic]:
    with pytest.raises(SyntaxLayerError) as caught:
        parse(source, file)
    assert caught.value.diagnostics
    return caught.value.diagnostics


def only_diagnostic(source: str, file: str = "arena.nexus") -> Diagnostic:
    (diagnostic,) = diagnostics_of(source, file)
    return diagnostic


# ---------------------------------------------------------------- unexpected tokens
@pytest.mark.parametrize(
    ("source", "line", "column", "token"),
    [
        # a second resource where a `,` or a new line was expected
        ('command a "A" {\n    cost 1 AP AP\n}\n', 2, 15, "AP"),
        # `let` needs a name, and `each` is a keyword
        ('command a "A" {\n    cost 1 AP\n    effect {\n        let each = 2\n    }\n}\n', 4, 13, "each"),
        # a positional argument cannot start with `(`: complex values go after a preposition
        ('command a "A" {\n    cost 1 AP\n    effect {\n        damage (target) by 2\n    }\n}\n', 4, 16, "("),
        # comparisons do not chain
        ('rule r "R" {\n    requires 1 < 2 < 3\n}\n', 2, 20, "<"),
        # `by` with no value: the newline before `}` is dropped, so the `}` is what was found
        ('command mend "Mend" {\n    cost 2 AP\n    effect {\n        damage self by\n    }\n}\n', 5, 5, "}"),
        # an operator at the end of a line: the line ends the statement
        ('rule r "R" {\n    when bout_starts {\n        let x = 1 +\n            2\n    }\n}\n', 3, 20, None),
        # a roll with no spec at all
        ('command a "A" {\n    cost 1 AP\n    roll check\n}\n', 4, 1, "}"),
    ],
)
def test_unexpected_token_diagnostic(source: str, line: int, column: int, token: str | None) -> None:
    diagnostic = only_diagnostic(source)
    assert diagnostic.code == "syntax/unexpected_token"
    assert diagnostic.layer == "syntax"
    assert diagnostic.severity == "error"
    assert diagnostic.file == "arena.nexus"
    assert (diagnostic.line, diagnostic.column) == (line, column)
    assert diagnostic.message.startswith("unexpected")
    if token is None:
        assert diagnostic.message == "unexpected end of line"
    else:
        assert f"`{token}`" in diagnostic.message
        assert diagnostic.end_column == column + len(token)
    assert diagnostic.hint is not None and "expected " in diagnostic.hint


def test_the_hint_names_what_would_have_been_accepted() -> None:
    diagnostic = only_diagnostic('command a "A" {\n    cost 1 AP AP\n}\n')
    assert diagnostic.hint.endswith("; expected `,`, `}`, a new line")
    diagnostic = only_diagnostic('command a "A" {\n    cost 1 AP\n    effect {\n        let = 3\n    }\n}\n')
    assert diagnostic.hint == "expected a name"


def test_unexpected_end_of_file() -> None:
    diagnostic = only_diagnostic('command a "A"\n')
    assert diagnostic.code == "syntax/unexpected_token"
    assert diagnostic.message == "unexpected end of file"
    assert diagnostic.line == 1
    assert diagnostic.hint is not None and "expected " in diagnostic.hint
    assert "`{`" in diagnostic.hint


def test_a_file_ending_inside_a_block_is_reported_at_the_block() -> None:
    diagnostic = only_diagnostic('command a "A" {\n    cost 1 AP\n')
    assert diagnostic.code == "syntax/unclosed_block"
    assert diagnostic.message == "this `{` is never closed"
    assert (diagnostic.line, diagnostic.column, diagnostic.end_column) == (1, 15, 16)
    assert diagnostic.hint == "the file ends at line 2 with this block still open: add the `}` that closes it"


def test_a_block_left_open_before_the_next_declaration_says_where_that_one_starts() -> None:
    source = ('command a "A" {\n    cost 1 AP\n    effect {\n        if self.fighting {\n            damage self by 1\n'
              '    }\n}\n\nrule fine "Fine" {\n    param x = 1\n}\n')
    diagnostic = only_diagnostic(source)
    assert diagnostic.code == "syntax/unclosed_block"
    assert (diagnostic.line, diagnostic.column) == (4, 26)  # the `if`'s block: the `}` below it sits left of it
    assert diagnostic.hint is not None and diagnostic.hint.startswith("the next declaration starts at line 9 ")


def test_unexpected_character() -> None:
    source = 'command a "A" {\n    cost 1 AP\n    requires self.ap @ 2\n}\n'
    diagnostic = only_diagnostic(source)
    assert diagnostic.code == "syntax/unexpected_character"
    assert (diagnostic.line, diagnostic.column) == (3, 22)
    assert diagnostic.message == "unexpected character `@`"
    assert diagnostic.hint is not None and "characters allowed in scripts" in diagnostic.hint


def test_an_unclosed_string_is_reported_where_it_starts() -> None:
    diagnostic = only_diagnostic('command a "A {\n    cost 1 AP\n}\n')
    assert diagnostic.code == "syntax/unexpected_character"
    assert (diagnostic.line, diagnostic.column) == (1, 11)


# ---------------------------------------------------------------- friendly messages for common mistakes
@pytest.mark.parametrize(
    ("source", "friendly"),
    [
        ('command wild_attack "Wild Attack" {\n    cost AP\n}\n', "a cost needs an amount and a resource"),
        ('command wild_attack "Wild Attack" {\n    cost 2\n}\n', "a cost needs an amount and a resource"),
        ('command wild_attack {\n    cost 1 AP\n}\n', "a declaration needs an id and a quoted display name"),
        ('command "Wild Attack" {\n    cost 1 AP\n}\n', "a declaration needs an id and a quoted display name"),
        ('command wild_attack "Wild Attack" {\n    roll attack -SDS\n    cost 1 AP\n}\n', "an opposed roll reads `roll attack SD vs defense`"),
        ('rule fine "Fine" {}\n\ncommand wild_attack {\n    cost 1 AP\n}\n', "a declaration needs an id and a quoted display name"),
    ],
)
def test_common_mistakes_get_a_friendly_hint(source: str, friendly: str) -> None:
    diagnostic = only_diagnostic(source)
    assert diagnostic.code == "syntax/unexpected_token"
    assert diagnostic.hint is not None
    assert diagnostic.hint.startswith(friendly)
    assert "; expected " in diagnostic.hint


@pytest.mark.parametrize(
    ("source", "friendly"),
    [
        ('command wild_attack "Wild Attack" {\n    group melee\n    cost 2\n}\n', "a cost needs an amount and a resource"),
        ('command wild_attack "Wild Attack" {\n    cost 1 AP\n    roll attack -SDS\n}\n', "an opposed roll reads"),
    ],
)
def test_friendly_hint_for_a_mistake_after_the_first_clause(source: str, friendly: str) -> None:
    hint = only_diagnostic(source).hint
    assert hint is not None and hint.startswith(friendly)


# ---------------------------------------------------------------- one run reports every broken declaration
TWO_BROKEN = """# two broken commands around a good rule
command a "A" {
    cost 1 AP AP
}

rule fine "Fine" {
    param x = 1
}

command b "B" {
    cost 1 MP
    requires
}
"""


def test_two_broken_declarations_give_two_diagnostics() -> None:
    first, second = diagnostics_of(TWO_BROKEN)
    assert first.code == second.code == "syntax/unexpected_token"
    assert (first.line, first.column) == (3, 15)
    assert (second.line, second.column) == (13, 1)
    assert first.file == second.file == "arena.nexus"


def test_three_broken_declarations_give_three_diagnostics_in_order() -> None:
    source = "".join(f'rule r{i} "R" {{\n    param x = = {i}\n}}\n\n' for i in range(3))
    diagnostics = diagnostics_of(source)
    assert [d.line for d in diagnostics] == [2, 6, 10]
    assert all(d.column == 15 for d in diagnostics)


def test_a_good_file_next_to_a_broken_declaration_is_not_blamed() -> None:
    source = 'rule good "Good" {\n    param x = 1\n}\nrule bad "Bad" {\n    param = 1\n}\n'
    diagnostic = only_diagnostic(source)
    assert diagnostic.line == 5


# ---------------------------------------------------------------- the human form
def test_format_shows_location_source_line_caret_and_hint() -> None:
    source = 'command a "A" {\n    cost 1 AP AP\n}\n'
    diagnostic = only_diagnostic(source, "content/base/commands/melee.nexus")
    lines = diagnostic.format(source).splitlines()
    assert lines[0] == "content/base/commands/melee.nexus:2:15: error: unexpected name `AP`"
    assert lines[1] == "    2 |     cost 1 AP AP"
    assert lines[2] == "      |               ^^"
    assert lines[3] == "  hint: a cost needs an amount and a resource, e.g. `cost 2 AP` or `cost 1 AP, 1 overall`; expected `,`, `}`, a new line"
    assert len(lines) == 4


def test_the_caret_stands_under_the_reported_column() -> None:
    source = 'rule r "R" {\n    when bout_starts {\n        let value = owed * * 2\n    }\n}\n'
    diagnostic = only_diagnostic(source)
    assert (diagnostic.line, diagnostic.column) == (3, 28)
    _, code_line, caret_line, *_ = diagnostic.format(source).splitlines()
    gutter = code_line.index("|") + 2
    assert code_line[gutter:] == "        let value = owed * * 2"
    assert caret_line.index("^") - gutter == diagnostic.column - 1
    assert code_line[caret_line.index("^")] == "*"


def test_format_without_source_has_no_excerpt() -> None:
    diagnostic = only_diagnostic('command a "A" {\n    cost 1 AP AP\n}\n')
    assert diagnostic.format().splitlines() == [
        "arena.nexus:2:15: error: unexpected name `AP`",
        "  hint: a cost needs an amount and a resource, e.g. `cost 2 AP` or `cost 1 AP, 1 overall`; expected `,`, `}`, a new line",
    ]


def test_the_exception_message_lists_every_diagnostic() -> None:
    with pytest.raises(SyntaxLayerError) as caught:
        parse(TWO_BROKEN, "arena.nexus")
    error = caught.value
    assert isinstance(error, NexusError)
    assert error.code == "syntax/unexpected_token"
    assert "arena.nexus:3:15" in str(error)
    assert "arena.nexus:13:1" in str(error)


def test_diagnostics_are_data() -> None:
    diagnostic = only_diagnostic('command a "A" {\n    cost 1 AP AP\n}\n')
    assert diagnostic.to_json() == {
        "code": "syntax/unexpected_token", "severity": "error", "file": "arena.nexus", "line": 2, "column": 15,
        "message": "unexpected name `AP`",
        "hint": "a cost needs an amount and a resource, e.g. `cost 2 AP` or `cost 1 AP, 1 overall`; expected `,`, `}`, a new line",
    }


def test_parse_and_parse_declaration_raise_the_same_error_type() -> None:
    with pytest.raises(SyntaxLayerError) as caught:
        parse('rule r "R" { param p = 1 + }')
    assert caught.value.code.startswith("syntax/")
    with pytest.raises(SyntaxLayerError) as caught:
        parse_declaration('command a "A" { cost }', "x.nexus")
    assert caught.value.diagnostics[0].file == "x.nexus"


@pytest.mark.parametrize(
    "source",
    [
        "command",
        "command a",
        'command a "A"',
        "}",
        "{}",
        'command a "A" {} }',
        '"just text"',
        "cost 1 AP",
    ],
)
def test_fragments_raise_syntax_errors(source: str) -> None:
    diagnostics = diagnostics_of(source)
    assert all(d.code.startswith("syntax/") and d.line >= 1 for d in diagnostics)


def test_caret_under_the_right_column_on_a_tab_indented_line() -> None:
    source = 'command a "A" {\n\tcost 1 AP AP\n}\n'
    diagnostic = only_diagnostic(source)
    assert (diagnostic.line, diagnostic.column) == (2, 12)  # the tab counts as one column
    _, code_line, caret_line, *_ = diagnostic.format(source).splitlines()
    gutter = code_line.index("|") + 2
    shown = code_line[gutter:]
    assert shown == "    cost 1 AP AP"
    assert caret_line.index("^") - gutter == shown.rindex("AP")
