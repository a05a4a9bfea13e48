"""docs/language.md stays true: every example passes every layer `nexus check` runs (parse, check,
JSON Schema) and survives `nexus fmt`, and the vocabulary is all there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nexus_dsl import cached_ruleset
from nexus_dsl import vocabulary as V
from nexus_dsl.check.checker import check_declarations
from nexus_dsl.errors import SyntaxLayerError, format_all
from nexus_dsl.limits import INPUT_LIMITS, MAX_NUMBER
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax.parser import parse
from nexus_dsl.syntax.printer import print_declaration
from nexus_dsl.validate_files import check_script_text
from support import BASE_STATES, base_context, base_words

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "language.md"
GRAMMAR = ROOT / "nexus_dsl" / "grammar" / "nexus.lark"

DOC_TEXT = DOC.read_text(encoding="utf-8")
DOC_LINES = DOC_TEXT.splitlines()
WORDS = base_words()  # the base game's declared words (content/base), documented in the doc


def fenced_blocks(info: str) -> list[tuple[int, str]]:
    """(line number of the opening fence, code) for every ``` block with this info string."""
    blocks = []
    inside: str | None = None
    start = 0
    body: list[str] = []
    for number, line in enumerate(DOC_LINES, start=1):
        stripped = line.strip()
        if inside is None:
            if stripped.startswith("```"):
                inside = stripped[3:].strip()
                start, body = number, []
        elif stripped == "```":
            if inside == info:
                blocks.append((start, "\n".join(body) + "\n"))
            inside = None
        else:
            body.append(line)
    assert inside is None, f"an unclosed ``` block starts at docs/language.md:{start}"
    return blocks


NEXUS_BLOCKS = fenced_blocks("nexus")
BLOCK_IDS = [f"block{i:02d}-line{line}" for i, (line, _) in enumerate(NEXUS_BLOCKS)]


def parse_block(line: int, code: str) -> A.Module:
    # Pad with blank lines so positions in error messages are positions in the document.
    return parse("\n" * line + code, "docs/language.md")


# ---------------------------------------------------------------- the examples
def test_the_document_has_plenty_of_examples() -> None:
    assert len(NEXUS_BLOCKS) >= 40


@pytest.mark.parametrize(("line", "code"), NEXUS_BLOCKS, ids=BLOCK_IDS)
def test_example_parses(line: int, code: str) -> None:
    try:
        module = parse_block(line, code)
    except SyntaxLayerError as error:
        pytest.fail(format_all(error.diagnostics, {"docs/language.md": "\n" * line + code}))
    assert module.declarations, f"the example at docs/language.md:{line} declares nothing"


@pytest.mark.parametrize(("line", "code"), NEXUS_BLOCKS, ids=BLOCK_IDS)
def test_example_passes_every_layer_of_nexus_check(line: int, code: str) -> None:
    """As `nexus check <file>.nexus` checks a script: parsed, checked and validated against the JSON
    Schema of its kind, on top of the base pack (its object types, settings and ids)."""
    source = "\n" * line + code
    diagnostics = check_script_text(source, "docs/language.md", cached_ruleset(("base",)))
    assert not diagnostics, "\n" + format_all(diagnostics, {"docs/language.md": source})


@pytest.mark.parametrize(("line", "code"), NEXUS_BLOCKS, ids=BLOCK_IDS)
def test_example_ids_are_unique_per_kind(line: int, code: str) -> None:
    keys = [(d.kind, d.id) for d in parse_block(line, code).declarations]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize(("line", "code"), NEXUS_BLOCKS, ids=BLOCK_IDS)
def test_example_survives_formatting(line: int, code: str) -> None:
    for declaration in parse_block(line, code).declarations:
        assert parse(print_declaration(declaration)).declarations == (declaration,)


def _sections() -> list[tuple[int, str, str, list[str]]]:
    """(level, title, heading line, body lines up to the next heading) for every ## and ### heading."""
    sections: list[tuple[int, str, str, list[str]]] = []
    in_code = False
    for number, line in enumerate(DOC_LINES, start=1):
        if line.strip().startswith("```"):
            in_code = not in_code
        match = None if in_code else re.match(r"^(#{2,3}) (.+)$", line)
        if match:
            sections.append((len(match.group(1)), match.group(2), f"docs/language.md:{number}", []))
        elif sections:
            sections[-1][3].append(line)
    return sections


def test_every_construct_section_has_an_example() -> None:
    sections = _sections()
    missing = []
    for index, (level, title, where, body) in enumerate(sections):
        has_subsections = index + 1 < len(sections) and sections[index + 1][0] > level
        if has_subsections:
            continue
        if "```nexus" not in [line.strip() for line in body]:
            missing.append(f"{where}: {title}")
    assert not missing, "sections without a ```nexus example:\n" + "\n".join(missing)


def test_every_declaration_kind_has_its_own_section_and_example() -> None:
    kinds_in_examples = {d.kind for line, code in NEXUS_BLOCKS for d in parse_block(line, code).declarations}
    assert set(A.DECLARATION_KINDS) <= kinds_in_examples
    # The other kinds the examples are written with are the base game's own (its content's excerpts).
    assert kinds_in_examples - set(A.DECLARATION_KINDS) <= set(cached_ruleset(("base",)).words.kinds)
    for kind in A.DECLARATION_KINDS:
        assert f"### {kind}" in DOC_LINES


def test_examples_use_every_clause_statement_and_expression_form() -> None:
    seen: set[str] = set()

    def visit(node: object) -> None:
        if isinstance(node, A.Node):
            seen.add(type(node).__name__)
            if isinstance(node, (A.Binary, A.Compare)):
                seen.add(f"op {node.op}")
            if isinstance(node, A.PrepArg):
                seen.add(f"prep {node.prep}")
            for value in vars(node).values():
                visit(value)
        elif isinstance(node, tuple):
            for item in node:
                visit(item)

    for line, code in NEXUS_BLOCKS:
        visit(parse_block(line, code).declarations)
    node_types = {
        "Property", "Cost", "Requires", "Roll", "OpposedRoll", "ThresholdRoll", "AutomaticRoll", "On", "When",
        "Window", "Param", "Arg", "NamedType", "ChoiceType", "RangeType", "Effect", "Action", "Let", "If", "ForEach",
        "Repeat", "Num", "Str", "Bool", "NoneLit", "ScaleLevel", "Name", "ListLit", "Attr", "Index", "Call", "Neg", "Not",
        "Binary", "Compare",
    }
    operators = {f"op {op}" for op in ("+", "-", "*", "/", "and", "or", "==", "!=", "<", "<=", ">", ">=",
                                       "in", "not in", "is", "is not")}
    preps = {"prep by", "prep to", "prep from", "prep at", "prep into", "prep with", "prep for", "prep against"}
    assert node_types | operators | preps <= seen, sorted((node_types | operators | preps) - seen)


def test_examples_use_every_effect_function_event_and_window() -> None:
    used: set[str] = set()
    for line, code in NEXUS_BLOCKS:
        used |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))
    vocabulary = set(V.PRIMITIVES) | set(V.FUNCTIONS) | set(WORDS.events) | set(WORDS.windows)
    assert vocabulary <= used, sorted(vocabulary - used)


# ---------------------------------------------------------------- the vocabulary is documented
def _documented(name: str) -> bool:
    return f"`{name}`" in DOC_TEXT


def _table_rows(header: str) -> list[str]:
    """The body rows of every table whose header row starts with `header`. A name may head a row
    in two tables (`turning_point` is a declaration kind and an event)."""
    rows: list[str] = []
    for index, line in enumerate(DOC_LINES):
        if line.startswith(header):
            for row in DOC_LINES[index + 2:]:
                if not row.startswith("|"):
                    break
                rows.append(row)
    return rows


@pytest.mark.parametrize(
    ("table", "names"),
    [
        ("PRIMITIVES", sorted(V.PRIMITIVES)),
        ("FUNCTIONS", sorted(V.FUNCTIONS)),
        ("base events", sorted(WORDS.events)),
        ("base windows", sorted(WORDS.windows)),
    ],
)
def test_every_vocabulary_word_is_in_the_doc(table: str, names: list[str]) -> None:
    missing = [name for name in names if name not in DOC_TEXT]
    assert not missing, f"{table} words missing from docs/language.md: {missing}"
    unquoted = [name for name in names if not _documented(name)]
    assert not unquoted, f"{table} words never written as `code`: {unquoted}"


def test_every_primitive_and_function_has_a_table_row_with_its_signature() -> None:
    for name, signature in list(V.PRIMITIVES.items()) + list(V.FUNCTIONS.items()):
        rows = [line for line in DOC_LINES if line.startswith(f"| `{name}` |")]
        assert len(rows) == 1, f"expected one table row for `{name}`"
        for type_name in signature.positional:
            assert f"<{type_name}>" in rows[0], f"`{name}` row does not show its <{type_name}> argument"
        for prep, type_name in signature.preps.items():
            assert f"{prep} <{type_name}>" in rows[0], f"`{name}` row does not show `{prep} <{type_name}>`"
        if signature.doc:
            assert signature.doc in rows[0], f"`{name}` row does not carry the vocabulary's description"
        if name in V.FUNCTION_RESULTS:
            assert f"| {V.FUNCTION_RESULTS[name]} |" in rows[0]


def test_every_event_and_window_row_lists_the_names_it_binds() -> None:
    tables = {"event": _table_rows("| Event |"), "window": _table_rows("| Window |")}
    for kind, name, binds in ([("event", n, b) for n, b in WORDS.events.items()]
                              + [("window", n, b) for n, b in WORDS.windows.items()]):
        # an event and a window may share a name (the base game's `deception`): each in its table
        rows = [line for line in tables[kind] if line.startswith(f"| `{name}` |")]
        assert len(rows) == 1, f"expected one table row for `{name}`"
        for bound, type_name in binds.items():
            # a type as the base game writes it: `helot`, its own name of a piece, or the type's
            written = [type_name] + [word for word, named in WORDS.type_names.items() if named == type_name]
            assert any(f"`{bound}` ({word}" in rows[0] for word in written), \
                f"`{name}` row does not list `{bound}` ({' or '.join(written)})"
        if not binds:
            assert "nothing" in rows[0]


@pytest.mark.parametrize(
    ("what", "names"),
    [
        ("base locations", WORDS.group("location")),
        ("base states", BASE_STATES),
        ("base traits", WORDS.group("trait")),
        ("resources", V.RESOURCES),
        ("compass directions", V.COMPASS),
        ("relative directions", V.RELATIVE),
        ("base piles", WORDS.piles),
        ("roll sides", V.ROLL_SIDES),
        ("dice purposes", V.PURPOSES),
        ("cost resources", V.COST_RESOURCES),
        ("helot attributes", tuple(V.PIECE_ATTRIBUTES)),
        ("roll names", tuple(V.ROLL_NAMES)),
        ("window roles", V.WINDOW_ROLES),
        ("argument types", V.ARG_TYPES),
        ("properties", tuple({p for props in V.PROPERTIES.values() for p in props})),
        ("property values", tuple({v for values in V.PROPERTY_VALUES.values() for v in values})),
        ("declaration kinds", A.DECLARATION_KINDS),
    ],
)
def test_every_enumeration_member_is_in_the_doc(what: str, names: tuple[str, ...]) -> None:
    missing = sorted(name for name in names if not _documented(name))
    assert not missing, f"{what} missing from docs/language.md: {missing}"


def test_the_kinds_table_matches_the_vocabulary() -> None:
    table = _table_rows("| Kind |")
    for kind, clauses in V.CLAUSES.items():
        (row,) = [line for line in table if line.startswith(f"| `{kind}` |")]
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        clause_cell, property_cell = cells[2], cells[3]
        for clause in clauses:
            if clause != "property":
                assert f"`{clause}`" in clause_cell, f"{kind} may hold `{clause}`"
        documented = set(re.findall(r"`([a-z_]+)`", clause_cell))
        assert documented <= set(clauses), f"{kind}: table lists clauses it may not hold: {documented - set(clauses)}"
        assert set(re.findall(r"`([a-z_]+)`", property_cell)) == set(V.PROPERTIES[kind])


def test_every_grammar_keyword_is_listed_as_a_keyword() -> None:
    grammar = re.sub(r"//[^\n]*", "", GRAMMAR.read_text(encoding="utf-8"))
    keywords = set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', grammar))
    (header_index,) = [i for i, line in enumerate(DOC_LINES) if line.startswith("| Clauses | Statements |")]
    keyword_row = DOC_LINES[header_index + 2]
    listed = set(re.findall(r"`([A-Za-z_]+)`", keyword_row))
    assert keywords == listed, f"missing: {sorted(keywords - listed)}, not keywords: {sorted(listed - keywords)}"


# ---------------------------------------------------------------- the error examples are real output
def _first_text_block_after(marker: str) -> str:
    index = DOC_TEXT.index(marker)
    start = DOC_TEXT.index("```text\n", index) + len("```text\n")
    return DOC_TEXT[start:DOC_TEXT.index("```", start)].rstrip("\n")


def test_the_documented_syntax_error_is_what_the_parser_prints() -> None:
    source = (
        'command standard_attack "Standard Attack" {\n    group melee\n    targets opponent\n    cost 2\n'
        "    roll attack SD vs defense\n    on success {\n"
        "        damage target by margin + damage_bonus at random_location()\n    }\n}\n"
    )
    with pytest.raises(SyntaxLayerError) as caught:
        parse(source, "content/house/commands/melee.nexus")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.format(source) == _first_text_block_after("A syntax error")


def test_the_documented_check_error_is_what_the_checker_prints() -> None:
    source = (
        'trait_ability haymaker "Haymaker" {\n    cost 5 PHYS\n    window after_attack_succeeds by self\n'
        "    effect {\n        add_damage 4\n        add_state defender pron\n    }\n}\n"
    )
    module = parse(source, "content/house/abilities/physicality.nexus")
    (diagnostic,) = check_declarations(module.declarations, base_context())
    assert diagnostic.code == "check/unknown_name"
    assert diagnostic.format(source) == _first_text_block_after("A check error")


def test_words_that_were_once_limitations_now_work() -> None:
    """Kinds are plain names, text escapes undo in one pass, and `4+` is a check target only at
    the end of a line."""
    parse('command c "C" {\n    cost 1 AP\n    requires self.weapon != none\n}\n')
    hazard = parse('hazard h "H" {\n    activation turning_point\n}\n').declarations[0]
    assert hazard.property("activation").values[0].id == "turning_point"
    parse('rule r "R" {\n    when bout_starts {\n        let n = 4+ 2\n    }\n}\n')
    declaration = parse('rule r "R" {\n    text "C:\\\\new"\n}\n').declarations[0]
    assert declaration.property("text").values[0].value == "C:\\new"


# ---------------------------------------------------------------- limits and ranges are the code's
def _table(header: str) -> list[list[str]]:
    (index,) = [i for i, line in enumerate(DOC_LINES) if line.startswith(header)]
    rows = []
    for row in DOC_LINES[index + 2:]:
        if not row.startswith("|"):
            break
        rows.append([cell.strip() for cell in row.strip("|").split("|")])
    return rows


def test_the_limits_table_states_the_input_limits() -> None:
    values = {limit: value for limit, value, _ in _table("| Limit | Value | Error |")}
    assert values["the size of a file"].startswith(f"{INPUT_LIMITS.max_file_bytes:,} bytes")
    assert values["declarations in one file"] == f"{INPUT_LIMITS.max_declarations_per_file:,}"
    assert values["the length of a name"] == f"{INPUT_LIMITS.max_identifier_length} characters"
    assert values["the length of quoted text"].startswith(f"{INPUT_LIMITS.max_string_length:,} characters")
    assert values["a number"] == f"{len(str(MAX_NUMBER))} digits (so at most {MAX_NUMBER:,})"
    assert values["nesting"] == f"{INPUT_LIMITS.max_depth} levels"


def test_the_ranges_table_matches_the_vocabulary() -> None:
    ordinals = ["first", "second", "third", "fourth"]
    expected = []
    for table in (V.PRIMITIVES, V.FUNCTIONS):
        for name, signature in table.items():
            for key, number_range in signature.ranges.items():
                which = f"the {ordinals[key]} argument of `{name}`" if isinstance(key, int) else f"the `{key}` of `{name}`"
                expected.append([which, number_range.what, number_range.describe()])
    for name, number_range in V.PROPERTY_RANGES.items():
        kind = next(kind for kind, properties in V.PROPERTIES.items() if properties.get(name, ("",))[0] == "number")
        expected.append([f"the `{name}` of a {kind}", number_range.what, f"{number_range.describe()}, written out"])
    assert _table("| Number | What it is | Must be |") == expected
