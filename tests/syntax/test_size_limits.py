"""How big a script may be, and that reading one costs time linear in its length.

`parse` refuses text beyond `INPUT_LIMITS` (`nexus_dsl/limits.py`) with a positioned error at the
offset or token concerned: the size of the text (before it is lexed: the editor hands text straight
to the parser), the number of declarations, and the length of names, quoted text and numbers.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from nexus_dsl.errors import Diagnostic, SyntaxLayerError
from nexus_dsl.limits import INPUT_LIMITS, MAX_NUMBER, InputLimits
from nexus_dsl.syntax.parser import grammar_parser, parse, parse_declaration

LIMITS = INPUT_LIMITS


def problems(source: str, limits: InputLimits = LIMITS) -> list[Diagnostic]:
    with pytest.raises(SyntaxLayerError) as caught:
        parse(source, "big.nexus", limits)
    return caught.value.diagnostics


def only_problem(source: str, limits: InputLimits = LIMITS) -> Diagnostic:
    (diagnostic,) = problems(source, limits)
    return diagnostic


@pytest.fixture
def lexed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text handed to the Lark parser (and so to its lexer) from now on."""
    lark = grammar_parser()
    original = lark.parse
    lengths: list[int] = []

    def counting(text: str, *args, **kwargs):
        lengths.append(len(text))
        return original(text, *args, **kwargs)

    monkeypatch.setattr(lark, "parse", counting)
    return lengths


def declaration(index: int) -> str:
    return f'rule r{index} "R" {{\n    text "t"\n}}\n'


# ---------------------------------------------------------------- the size of the text
def test_ten_megabytes_of_valid_declarations_are_refused_before_they_are_lexed(lexed: list[int]) -> None:
    one = declaration(0)
    source = one * (10 * 1024 * 1024 // len(one))
    diagnostic = only_problem(source)
    assert diagnostic.code == "syntax/too_large"
    assert diagnostic.message == f"the text is larger than {LIMITS.max_file_bytes:,} bytes"
    offset = LIMITS.max_file_bytes  # the first character beyond the limit (the text is ASCII)
    line_start = source.rfind("\n", 0, offset) + 1
    assert (diagnostic.line, diagnostic.column) == (source.count("\n", 0, offset) + 1, offset - line_start + 1)
    assert lexed == []


def test_the_position_is_the_first_character_beyond_the_limit() -> None:
    source = "# " + "x" * (LIMITS.max_file_bytes - 3) + "\n" + "# more\n"
    diagnostic = only_problem(source)
    assert (diagnostic.line, diagnostic.column) == (2, 1)


def test_text_of_exactly_the_limit_is_read() -> None:
    source = "# " + "x" * (LIMITS.max_file_bytes - 3) + "\n"
    assert len(source.encode("utf-8")) == LIMITS.max_file_bytes
    assert parse(source).declarations == ()


def test_the_size_is_counted_in_utf8_bytes_and_the_position_in_characters() -> None:
    source = "# " + "é" * (LIMITS.max_file_bytes // 2)  # two bytes each
    diagnostic = only_problem(source)
    assert diagnostic.code == "syntax/too_large"
    assert (diagnostic.line, diagnostic.column) == (1, 3 + (LIMITS.max_file_bytes - 2) // 2)


def test_text_that_is_not_valid_unicode_is_measured_without_failing() -> None:
    source = "# \ud800" + "x" * LIMITS.max_file_bytes  # a lone surrogate, as an editor may hand over
    assert only_problem(source).code == "syntax/too_large"


def test_a_long_comment_within_the_file_limit_is_read() -> None:
    source = "# " + "a" * 400_000 + "\n" + declaration(1)
    assert [d.id for d in parse(source).declarations] == ["r1"]


# ---------------------------------------------------------------- names, text and numbers
@pytest.mark.parametrize(
    ("template", "line", "column"),
    [
        ('rule {} "R" {{}}\n', 1, 6),
        ('rule r "R" {{\n    param {} = 1\n}}\n', 2, 11),
        ('rule r "R" {{\n    when bout_starts {{\n        let {} = 1\n    }}\n}}\n', 3, 13),
        ('rule r "R" {{\n    requires self.{}\n}}\n', 2, 19),
    ],
)
def test_a_name_longer_than_the_limit_is_refused_at_the_name(template: str, line: int, column: int) -> None:
    longest = "n" * LIMITS.max_identifier_length
    parse(template.format(longest))
    diagnostic = only_problem(template.format(longest + "n"))
    assert diagnostic.code == "syntax/too_long"
    assert (diagnostic.line, diagnostic.column, diagnostic.end_column) == (
        line, column, column + LIMITS.max_identifier_length + 1)
    assert diagnostic.message == f"this name is {LIMITS.max_identifier_length + 1} characters long"
    assert str(LIMITS.max_identifier_length) in diagnostic.hint


def test_a_name_of_hundreds_of_kilobytes_is_refused_as_too_long() -> None:
    diagnostic = only_problem('rule r "R" {\n    param ' + "n" * 400_000 + " = 1\n}\n")
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("syntax/too_long", 2, 11)
    assert diagnostic.message == "this name is 400,000 characters long"


def test_quoted_text_longer_than_the_limit_is_refused_at_the_text() -> None:
    longest = "t" * LIMITS.max_string_length
    parse(f'rule r "R" {{\n    text "{longest}"\n}}\n')
    diagnostic = only_problem(f'rule r "R" {{\n    text "{longest}t"\n}}\n')
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("syntax/too_long", 2, 10)
    assert diagnostic.message == f"this quoted text is {LIMITS.max_string_length + 1:,} characters long"


def test_quoted_text_is_measured_as_written() -> None:
    escaped = "\\n" * (LIMITS.max_string_length // 2)  # each escape is two characters in the file
    parse(f'rule r "R" {{\n    text "{escaped}"\n}}\n')
    assert only_problem(f'rule r "R" {{\n    text "{escaped}x"\n}}\n').code == "syntax/too_long"


def test_a_display_name_is_quoted_text_too() -> None:
    diagnostic = only_problem('rule r "' + "n" * (LIMITS.max_string_length + 1) + '" {}\n')
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("syntax/too_long", 1, 8)


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        ('rule r "R" {\n    param p = 1234567890\n}\n', 2, 15),
        ('rule r "R" {\n    param p = 0000000001\n}\n', 2, 15),
        ('command c "C" {\n    cost 1 AP\n    roll check 1234567890+\n}\n', 3, 16),
        ('command c "C" {\n    cost 1 AP\n    arg n: number 1..12345678901\n}\n', 3, 22),
        ('rule r "R" {\n    param p = ' + "9" * 5000 + "\n}\n", 2, 15),
    ],
)
def test_a_number_of_more_than_nine_digits_is_refused_at_the_number(source: str, line: int, column: int) -> None:
    diagnostic = only_problem(source)
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("syntax/number_too_large", line, column)
    assert f"{MAX_NUMBER:,}" in diagnostic.hint


def test_the_largest_number_is_read() -> None:
    (declaration_,) = parse(f'rule r "R" {{\n    param p = {MAX_NUMBER}\n}}\n').declarations
    assert declaration_.clauses[0].value.value == MAX_NUMBER


# ---------------------------------------------------------------- declarations per file
def test_a_file_of_the_most_declarations_is_read() -> None:
    source = "".join(declaration(i) for i in range(LIMITS.max_declarations_per_file))
    assert len(parse(source).declarations) == LIMITS.max_declarations_per_file


def test_one_declaration_more_is_refused_at_its_kind(lexed: list[int]) -> None:
    source = "".join(declaration(i) for i in range(LIMITS.max_declarations_per_file + 1))
    diagnostic = only_problem(source)
    assert diagnostic.code == "syntax/too_many_declarations"
    assert (diagnostic.line, diagnostic.column, diagnostic.end_column) == (
        3 * LIMITS.max_declarations_per_file + 1, 1, 5)
    assert lexed == [len(source)]  # refused while reading it once: the declarations are not read again


def test_a_file_with_a_broken_declaration_and_too_many_reports_both() -> None:
    source = 'rule broken "B" {\n    cost\n}\n' + "".join(
        declaration(i) for i in range(LIMITS.max_declarations_per_file))
    found = problems(source)
    assert [d.code for d in found] == ["syntax/unexpected_token", "syntax/too_many_declarations"]
    assert found[1].line == 3 * LIMITS.max_declarations_per_file + 1


def test_smaller_limits_handed_to_the_parser_are_honoured() -> None:
    small = InputLimits(max_file_bytes=200, max_identifier_length=4, max_string_length=3, max_depth=3,
                        max_declarations_per_file=2)
    assert only_problem('rule abcde "R" {}\n', small).code == "syntax/too_long"
    assert only_problem('rule r "abcd" {}\n', small).code == "syntax/too_long"
    assert only_problem(declaration(1) * 3, small).code == "syntax/too_many_declarations"
    assert only_problem("#" * 201, small).code == "syntax/too_large"
    assert only_problem('rule r "R" {\n    param p = ((((1))))\n}\n', small).code == "syntax/too_deep"
    assert parse_declaration('rule r "R" {}\n', limits=small).id == "r"
    with pytest.raises(SyntaxLayerError):
        parse('rule r "R" { param p = [[[1]]] }', limits=small)


def test_the_limits_of_one_parse_do_not_leak_into_the_next() -> None:
    with pytest.raises(SyntaxLayerError):
        parse('rule abcde "R" {}\n', limits=InputLimits(max_identifier_length=4))
    assert parse('rule abcde "R" {}\n').declarations[0].id == "abcde"


# ---------------------------------------------------------------- linear in the length of the text
def broken_declarations(count: int) -> str:
    return "".join(f'rule r{i} "R" {{\n    requires\n}}\n' for i in range(count))


MANY = InputLimits(max_file_bytes=50_000_000, max_declarations_per_file=1_000_000)


def test_a_file_of_many_broken_declarations_is_lexed_in_linear_work(lexed: list[int]) -> None:
    """Each broken declaration is re-read on its own, never padded to its place in the file."""
    work = []
    for count in (200, 800):
        lexed.clear()
        found = problems(broken_declarations(count), MANY)
        assert len(found) == count
        assert [d.line for d in found] == [3 * i + 3 for i in range(count)]  # at each `}`
        work.append(sum(lexed))
    assert work[1] <= 4.2 * work[0]


# Run in a fresh interpreter so that the measure is CPU time of that process alone: a generous
# ratio, far below the 16 a quadratic path would show for four times the input.
_TIMING = textwrap.dedent('''
    import json, sys, time
    from nexus_dsl.check.checker import check_declarations
    from nexus_dsl.errors import SyntaxLayerError
    from nexus_dsl.limits import InputLimits
    from nexus_dsl.syntax.parser import parse
    from nexus_dsl.syntax.printer import format_source
    MANY = InputLimits(max_file_bytes=50_000_000, max_declarations_per_file=1_000_000)

    def broken(n):
        text = "".join(f'rule r{i} "R" {{\\n    requires\\n}}\\n' for i in range(n))
        def run():
            try:
                parse(text, "x", MANY)
            except SyntaxLayerError:
                pass
        return run

    def misspelt(n):
        lets = "\\n".join(f"        let a{i} = {i}" for i in range(n))
        uses = "\\n".join(f"        log b{i}x" for i in range(n))
        module = parse(f'rule r "R" {{\\n    when bout_starts {{\\n{lets}\\n{uses}\\n    }}\\n}}\\n', "x", MANY)
        return lambda: check_declarations(module.declarations)

    def many_clauses(n):
        body = "".join('    window any_time\\n    effect {\\n        log "x"\\n    }\\n' for _ in range(n))
        module = parse('trait_ability t "T" {\\n    cost 1 PHYS\\n' + body + "}\\n", "x", MANY)
        return lambda: check_declarations(module.declarations)

    def commented(n):
        text = "".join(f'# about r{i}\\nrule r{i} "R" {{\\n    # a note\\n    text "t"  # trailing\\n}}\\n'
                       for i in range(n))
        return lambda: format_source(text, "x", MANY)

    def cpu(run):
        best = None
        for _ in range(3):
            start = time.process_time()
            run()
            spent = time.process_time() - start
            best = spent if best is None else min(best, spent)
        return best

    CASES = {"broken": (broken, 500), "misspelt": (misspelt, 250), "many_clauses": (many_clauses, 1000),
             "commented": (commented, 500)}
    broken(20)()  # warm up: the grammar is compiled, the modules imported
    print(json.dumps({case: [size, cpu(make(size)), cpu(make(4 * size))] for case, (make, size) in CASES.items()}))
''')


def test_four_times_the_input_costs_about_four_times_the_cpu() -> None:
    """Many broken declarations (parse), many misspelt names in scope ("did you mean"), many clauses
    in one declaration (the checker), many comments (`nexus fmt`)."""
    result = subprocess.run([sys.executable, "-c", _TIMING], capture_output=True, text=True, check=True, timeout=600)
    measured = json.loads(result.stdout)
    slow = {case: f"{small:.3f}s for {size}, {large:.3f}s for {4 * size}"
            for case, (size, small, large) in measured.items() if large >= 8 * small}
    assert not slow, slow
