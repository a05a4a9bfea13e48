"""One nesting limit, checked in the token stream, that every later layer honours.

For every way a script can nest (blocks of `if`/`elif`/`else`, `for each` and `repeat`,
parentheses, `not` and sign chains, operator chains, lists, calls, index chains, attribute chains),
a script exactly `INPUT_LIMITS.max_depth` levels deep passes every layer — parse, check, canonical
form, JSON Schema validation, the printer (`nexus fmt`) and the engine's interpreter — and one level
more is refused with `syntax/too_deep` at the token that crosses the limit, before any tree is built.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Callable

import pytest

from nexus_dsl import Bout, cached_ruleset, standard_setup
from nexus_dsl.cli import main as nexus
from nexus_dsl.content.loader import load_ruleset
from nexus_dsl.errors import Diagnostic, SyntaxLayerError
from nexus_dsl.limits import INPUT_LIMITS, InputLimits
from nexus_dsl.syntax.canonical import from_canonical, to_canonical
from nexus_dsl.syntax.parser import parse
from nexus_dsl.syntax.printer import format_source
from nexus_dsl.validate_files import check_script_text

LIMIT = INPUT_LIMITS.max_depth
MARK = "@"  # written before the token that reaches the deepest level; never part of a script


# ---------------------------------------------------------------- one script per nesting form
def _listener(rule_id: str, body: str) -> str:
    """A rule whose statements stand two levels deep: in its braces, then in its `when` block."""
    return f'rule {rule_id} "Deep" {{\n    when bout_starts {{\n{body}\n    }}\n}}\n'


def _indent(level: int) -> str:
    return "    " * (level + 2)


def _mark_if(last: bool) -> str:
    return MARK if last else ""


def _nested_blocks(levels: int, rule_id: str, head: Callable[[int, str], str]) -> str:
    """`levels - 2` blocks inside one another, the innermost logging the rule's id."""
    count = levels - 2
    opening = [_indent(i) + head(i, _mark_if(i == count - 1)) for i in range(count)]
    closing = [_indent(i) + "}" for i in reversed(range(count))]
    return _listener(rule_id, "\n".join(opening + [_indent(count) + f'log "{rule_id}"'] + closing))


def if_blocks(levels: int) -> str:
    return _nested_blocks(levels, "deep_if", lambda i, mark: f"if true {mark}{{")


def elif_and_else_blocks(levels: int) -> str:
    """Nested alternately in an `elif` and an `else`; every branch body opens a level."""
    def head(i: int, mark: str) -> str:
        pad = _indent(i)
        if i % 2 == 0:
            return f"if false {mark}{{\n{pad}}} elif true {{"
        return f"if false {mark}{{\n{pad}}} elif false {{\n{pad}}} else {{"
    return _nested_blocks(levels, "deep_elif_else", head)


def for_each_blocks(levels: int) -> str:
    # `in` is an operator: at the innermost loop it reaches the level its block opens.
    count = levels - 2
    opening = [_indent(0) + "let xs = [1]"]
    opening += [_indent(i) + f"for each x{i} {_mark_if(i == count - 1)}in xs {{" for i in range(count)]
    closing = [_indent(i) + "}" for i in reversed(range(count))]
    return _listener("deep_for_each", "\n".join(opening + [_indent(count) + 'log "deep_for_each"'] + closing))


def repeat_blocks(levels: int) -> str:
    return _nested_blocks(levels, "deep_repeat", lambda i, mark: f"repeat 1 {mark}{{")


def _let_then_log(rule_id: str, value: str, condition: str, before: str = "") -> str:
    lines = ([_indent(0) + before] if before else []) + [
        _indent(0) + f"let v = {value}", _indent(0) + f"if {condition} {{", _indent(1) + f'log "{rule_id}"',
        _indent(0) + "}"]
    return _listener(rule_id, "\n".join(lines))


def _brackets(levels: int, opener: str, closer: str) -> str:
    count = levels - 2
    return "".join(opener[:-1] + _mark_if(i == count - 1) + opener[-1] for i in range(count)) + "1" + closer * count


def parentheses(levels: int) -> str:
    return _let_then_log("deep_parentheses", _brackets(levels, "(", ")"), "v == 1")


def lists(levels: int) -> str:
    return _let_then_log("deep_lists", _brackets(levels, "[", "]"), "v != none")


def calls(levels: int) -> str:
    return _let_then_log("deep_calls", _brackets(levels, "abs(", ")"), "v == 1")


def _prefix_chain(levels: int, operator: str, operand: str) -> str:
    count = levels - 2
    return "".join(_mark_if(i == count - 1) + operator + " " for i in range(count)) + operand


def not_chain(levels: int) -> str:
    value = _prefix_chain(levels, "not", "true" if levels % 2 == 0 else "false")  # true either way
    return _listener("deep_not", f'{_indent(0)}if {value} {{\n{_indent(1)}log "deep_not"\n{_indent(0)}}}')


def sign_chain(levels: int) -> str:
    return _let_then_log("deep_signs", _prefix_chain(levels, "-", "1"), "v != 0")


def _infix_chain(levels: int, operator: str, operand: str) -> str:
    count = levels - 2
    return operand + "".join(f" {_mark_if(i == count - 1)}{operator} {operand}" for i in range(count))


def sum_chain(levels: int) -> str:
    return _let_then_log("deep_sums", _infix_chain(levels, "+", "1"), "v > 0")


def and_chain(levels: int) -> str:
    return _let_then_log("deep_and", _infix_chain(levels, "and", "true"), "v")


def index_chain(levels: int) -> str:
    # `m[0][0]...`: each index nests the value before it; the bracket of the last one is one deeper.
    count = levels - 3
    nested = "[" * count + "0" + "]" * count
    indexes = "".join(_mark_if(i == count - 1) + "[0]" for i in range(count))
    return _let_then_log("deep_index", "m" + indexes, "v == 0", before=f"let m = {nested}")


def attribute_chain(levels: int) -> str:
    # Statically fine (the loop variable can be any value); no value has these attributes, so this
    # form does not run in a bout.
    count = levels - 3
    chain = "".join(_mark_if(i == count - 1) + ".a" for i in range(count))
    body = f"{_indent(0)}let xs = [1]\n{_indent(0)}for each x in xs {{\n{_indent(1)}log x{chain}\n{_indent(0)}}}"
    return _listener("deep_attributes", body)


RUNNABLE_FORMS = [if_blocks, elif_and_else_blocks, for_each_blocks, repeat_blocks, parentheses, lists, calls,
                  not_chain, sign_chain, sum_chain, and_chain, index_chain]
FORMS = RUNNABLE_FORMS + [attribute_chain]
FORM_IDS = [form.__name__ for form in FORMS]


def at_limit(form: Callable[[int], str], levels: int = LIMIT) -> str:
    return form(levels).replace(MARK, "")


def marked_position(text: str) -> tuple[int, int]:
    """The 1-based line and column of the character after the mark, once the mark is removed."""
    index = text.index(MARK)
    return text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index)


def refusal(text: str, limits: InputLimits = INPUT_LIMITS) -> Diagnostic:
    with pytest.raises(SyntaxLayerError) as caught:
        parse(text, "deep.nexus", limits)
    (diagnostic,) = caught.value.diagnostics
    return diagnostic


# ---------------------------------------------------------------- the limit itself
@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_one_level_more_is_refused_at_the_token_that_crosses_the_limit(form: Callable[[int], str]) -> None:
    text = form(LIMIT + 1)
    diagnostic = refusal(text.replace(MARK, ""))
    assert diagnostic.code == "syntax/too_deep"
    assert (diagnostic.line, diagnostic.column) == marked_position(text)
    assert diagnostic.message == f"this nests {LIMIT + 1} levels deep; scripts may nest at most {LIMIT}"
    assert "let" in diagnostic.hint


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_a_smaller_limit_refuses_the_same_script_earlier(form: Callable[[int], str]) -> None:
    text = form(12)
    diagnostic = refusal(text.replace(MARK, ""), InputLimits(max_depth=11))
    assert diagnostic.code == "syntax/too_deep"
    assert (diagnostic.line, diagnostic.column) == marked_position(text)


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_a_script_at_the_limit_passes_every_layer_of_nexus_check(form: Callable[[int], str]) -> None:
    text = at_limit(form)
    assert check_script_text(text, "deep.nexus", cached_ruleset(("base",))) == []


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_a_script_at_the_limit_survives_canonical_form_and_the_printer(form: Callable[[int], str]) -> None:
    declarations = parse(at_limit(form)).declarations
    for declaration in declarations:
        assert from_canonical(to_canonical(declaration)) == declaration
    printed = format_source(at_limit(form))
    assert parse(printed).declarations == declarations


def test_nexus_fmt_rewrites_every_script_at_the_limit(tmp_path: Path) -> None:
    files = []
    for form in FORMS:
        path = tmp_path / f"{form.__name__}.nexus"
        path.write_text(at_limit(form).replace("\n    ", "\n  "), encoding="utf-8")  # not yet canonical
        files.append(path)
    assert nexus(["fmt", str(tmp_path)]) == 0
    for form, path in zip(FORMS, files):
        assert parse(path.read_text(encoding="utf-8")).declarations == parse(at_limit(form)).declarations


# Every layer runs in well under Python's default recursion limit of 1,000 frames, leaving the
# rest to its callers (a test runner, the Streamlit app, the command line).
FRAMES_FOR_A_LAYER = 700


def within_frames(frames: int, layer: Callable[[], object]) -> object:
    """Run `layer` with only `frames` more Python frames allowed than are in use now."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + frames)
    try:
        return layer()
    finally:
        sys.setrecursionlimit(previous)


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_every_layer_leaves_frames_to_spare_at_the_limit(form: Callable[[int], str]) -> None:
    text = at_limit(form)
    base = cached_ruleset(("base",))
    within_frames(FRAMES_FOR_A_LAYER, lambda: parse(text))
    assert within_frames(FRAMES_FOR_A_LAYER, lambda: check_script_text(text, "deep.nexus", base)) == []
    within_frames(FRAMES_FOR_A_LAYER, lambda: format_source(text))


def test_a_param_value_stands_one_level_inside_its_declaration() -> None:
    def param(levels: int) -> str:
        return 'rule r "R" { param p = ' + "(" * levels + "1" + ")" * levels + " }"

    assert parse(param(LIMIT - 1))
    with pytest.raises(SyntaxLayerError) as caught:
        parse(param(LIMIT))
    assert caught.value.code == "syntax/too_deep"


# ---------------------------------------------------------------- the engine
@pytest.fixture(scope="module")
def deep_ruleset(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("deep_pack")
    (folder / "pack.yaml").write_text(
        'id: deep\nname: "Deep scripts"\nversion: 0.1.0\nkind: house_rules\nbuilds_on: [base]\n'
        'description: "Every nesting form at the depth limit."\n', encoding="utf-8")
    (folder / "deep.nexus").write_text("\n".join(at_limit(form) for form in RUNNABLE_FORMS), encoding="utf-8")
    return load_ruleset(["base", folder])


def _notes(bout: Bout) -> set[str]:
    return {event.data.get("text") for event in bout.log if event.type == "note"}


def test_the_engine_runs_every_script_at_the_limit(deep_ruleset) -> None:
    bout = Bout(deep_ruleset, standard_setup(), seed=1)
    expected = {form(LIMIT).split(" ", 2)[1] for form in RUNNABLE_FORMS}  # each rule logs its own id
    for _ in range(20):  # `bout_starts` is heard once the first decisions (the influence deal) are made
        if expected <= _notes(bout) or bout.pending is None:
            break
        bout.apply(bout.pending.options[0])
    assert expected <= _notes(bout)


def test_the_engine_leaves_frames_to_spare_at_the_limit(deep_ruleset) -> None:
    bout = within_frames(FRAMES_FOR_A_LAYER, lambda: Bout(deep_ruleset, standard_setup(), seed=1))
    while not _notes(bout) and bout.pending is not None:
        within_frames(FRAMES_FOR_A_LAYER, lambda: bout.apply(bout.pending.options[0]))
    assert len(_notes(bout)) == len(RUNNABLE_FORMS)


# ---------------------------------------------------------------- refused early
def test_a_hundred_thousand_levels_are_refused_after_reading_a_few_tokens() -> None:
    deep = 'rule r "R" {\n    param p = ' + "(" * 100_000 + "1" + ")" * 100_000 + "\n}\n"
    diagnostic = refusal(deep)
    assert diagnostic.code == "syntax/too_deep"
    assert (diagnostic.line, diagnostic.column) == (2, 15 + LIMIT - 1)


def test_a_chain_whose_first_operand_is_deep_counts_both() -> None:
    """`(deep) + 1 + 1 ...` nests the group under every `+`: the chain and the group add up."""
    group = "(" * 20 + "1" + ")" * 20
    fits = 'rule r "R" {\n    param p = ' + group + " + 1" * (LIMIT - 1 - 20) + "\n}\n"
    parse(fits)
    diagnostic = refusal(fits.replace("\n}", " + 1\n}"))
    assert diagnostic.code == "syntax/too_deep"
    assert diagnostic.column == fits.splitlines()[1].rindex("1") + 3  # the `+` added last


def test_siblings_do_not_add_up() -> None:
    """Arguments, list items, statements and clauses side by side each count from where they stand."""
    item = "(" * 20 + "1" + ")" * 20
    siblings = ", ".join([item] * 10)
    parse(f'rule r "R" {{\n    param p = [{siblings}]\n    param q = max({item}, {item})\n}}\n')
    statements = "\n".join([f"        let v{i} = " + " + ".join(["1"] * 25) for i in range(10)])
    parse(f'rule r "R" {{\n    when bout_starts {{\n{statements}\n    }}\n}}\n')


def test_the_base_box_nests_15_levels_deep_at_most() -> None:
    """docs/language.md (Limits): the deepest script of the base box reaches 15 levels."""
    scripts = sorted((Path(__file__).resolve().parents[2] / "content" / "base").rglob("*.nexus"))
    for path in scripts:
        parse(path.read_text(encoding="utf-8"), str(path), InputLimits(max_depth=15))
    deepest = []
    for path in scripts:
        try:
            parse(path.read_text(encoding="utf-8"), str(path), InputLimits(max_depth=14))
        except SyntaxLayerError:
            deepest.append(path.name)
    assert deepest
