"""Hostile YAML: every input is refused quickly with a positioned diagnostic, never a traceback.

Each class of problem the loader refuses (aliases that explode, nesting, tags, numbers, characters,
sizes, several documents, empty files) is shown on its smallest example; the worst ones are
measured in a child process (CPU and peak memory of the load alone); and a property holds over any
text: `load_yaml_with_positions` returns, or raises `SchemaError` whose every diagnostic has a line.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nexus_dsl.errors import Diagnostic, SchemaError
from nexus_dsl.limits import INPUT_LIMITS, InputLimits
from nexus_dsl.schema import load_yaml_with_positions
from nexus_dsl.schema import yaml_positions

MEASURE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile_yaml" / "measure.py"


def refused(text: str, **options: Any) -> list[Diagnostic]:
    with pytest.raises(SchemaError) as caught:
        load_yaml_with_positions(text, "hostile.yaml", **options)
    diagnostics = caught.value.diagnostics
    assert diagnostics and all(d.file == "hostile.yaml" and d.line >= 1 and d.column >= 1 for d in diagnostics)
    return diagnostics


def only(text: str, **options: Any) -> Diagnostic:
    (diagnostic,) = refused(text, **options)
    return diagnostic


def where(diagnostic: Diagnostic) -> tuple[str, int, int]:
    return diagnostic.code, diagnostic.line, diagnostic.column


def measured(tmp_path: Path, target: str, text: str, *args: str) -> dict[str, Any]:
    """Cost of loading `text` in a fresh process (see measure.py)."""
    source = tmp_path / "hostile.yaml"
    source.write_text(text, encoding="utf-8")
    argv = [sys.executable, str(MEASURE), target, *args, str(source)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """The "billion laughs": each level a list of `width` aliases of the level below."""
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- aliases
def test_an_alias_bomb_is_refused_at_the_alias_that_crosses_the_node_limit() -> None:
    text = alias_bomb()
    assert len(text) < 500
    diagnostic = only(text)
    # Up to a4 the file holds 74,740 values, aliases counted as copies; a4 alone is 66,430 of them,
    # so the first `*a4` (in a5) crosses 100,000.
    assert where(diagnostic) == ("yaml/too_many_nodes", 6, 10)
    assert "counting each alias as a copy" in diagnostic.message


def test_the_alias_bomb_costs_little_cpu_and_memory(tmp_path: Path) -> None:
    cost = measured(tmp_path, "yaml", alias_bomb(levels=12, width=12))
    assert cost["diagnostics"] and cost["diagnostics"][0][0] == "yaml/too_many_nodes"
    assert cost["cpu"] < 1.0 and cost["grown_mb"] < 100


def test_merge_keys_cannot_explode_either() -> None:
    # Each mapping merges the previous one twice: 2**40 copies if expanded.
    text = "m0: &m0 {a: 1, b: 2}\n" + "".join(f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}], k{i}: 1}}\n" for i in range(1, 41))
    assert only(text).code == "yaml/too_many_nodes"


def test_more_aliases_than_allowed_are_refused_at_the_first_one_beyond() -> None:
    limit = INPUT_LIMITS.max_yaml_aliases
    text = "x: &x 1\nuses:\n" + "".join("  - *x\n" for _ in range(limit + 5))
    assert where(only(text)) == ("yaml/too_many_aliases", 3 + limit, 5)


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    assert where(only("a: &a\n  b: [1, *a]\n")) == ("yaml/recursive_alias", 2, 10)


def test_an_undefined_alias_is_a_positioned_syntax_error() -> None:
    assert where(only("a: 1\nb: *nowhere\n")) == ("yaml/syntax", 2, 4)


def test_aliases_count_toward_the_depth_limit() -> None:
    # Thirty-three one-item lists, each holding the one before: 33 deep once copied in.
    text = "l0: &l0 [x]\n" + "".join(f"l{i}: &l{i} [*l{i - 1}]\n" for i in range(1, 33))
    diagnostic = only(text)
    assert diagnostic.code == "yaml/too_deep" and diagnostic.line == 32 and "copied in" in diagnostic.message


def test_small_anchors_and_merges_still_load() -> None:
    text = "base: &b {influence: 1, command: 2}\nother:\n  <<: *b\n  command: 3\nlist: [*b, *b]\n"
    data, positions = load_yaml_with_positions(text, "ok.yaml")
    assert data["other"] == {"influence": 1, "command": 3}
    assert data["list"] == [{"influence": 1, "command": 2}] * 2
    assert data["list"][0] is not data["list"][1]  # copies: changing one never changes the other
    assert positions[("other", "influence")] == (3, 3) and positions[("list", 1, "command")] == (1, 25)


# ---------------------------------------------------------------- nesting
@pytest.mark.parametrize("text, column", [
    ("x: " + "[" * 200 + "]" * 200 + "\n", 35),
    ("x: " + "{a: " * 100_000 + "1" + "}" * 100_000 + "\n", 4 + 4 * 31),
])
def test_flow_nesting_beyond_the_limit_is_refused_at_the_level_beyond(text: str, column: int) -> None:
    assert where(only(text)) == ("yaml/too_deep", 1, column)


def test_block_nesting_beyond_the_limit_is_refused_at_its_line() -> None:
    text = "".join("  " * level + f"k{level}:\n" for level in range(40)) + "  " * 40 + "end\n"
    # The mapping under k31 is the 33rd level: it starts at k32, on line 33.
    assert where(only(text)) == ("yaml/too_deep", 33, 65)


def test_deep_nesting_costs_little(tmp_path: Path) -> None:
    cost = measured(tmp_path, "yaml", "x: " + "[" * 150_000 + "]" * 150_000 + "\n")
    assert [d[0] for d in cost["diagnostics"]] == ["yaml/too_deep"]
    assert cost["cpu"] < 1.0 and cost["grown_mb"] < 100


# ---------------------------------------------------------------- tags and values
@pytest.mark.parametrize("text, code, column, words", [
    ("- id: !!bool maybe\n", "yaml/bad_value", 7, "maybe"),
    ("- id: !!int abc\n", "yaml/bad_value", 7, "abc"),
    ("- id: !!float n\n", "yaml/bad_value", 7, "`n`"),
    ("- id: !!null nothing\n", "yaml/bad_value", 7, "nothing"),
    ("- id: !!timestamp notadate\n", "yaml/syntax", 7, "!!timestamp"),
    ("- id: !!timestamp 2024-05-01\n", "yaml/syntax", 7, "!!timestamp"),
    ("- id: !!binary aGVsbG8=\n", "yaml/syntax", 7, "!!binary"),
    ("- id: !!set {a, b}\n", "yaml/syntax", 7, "!!set"),
    ("- id: !!omap [a: 1]\n", "yaml/syntax", 7, "!!omap"),
    ("- id: !!python/object/apply:os.system [true]\n", "yaml/syntax", 7, "python/object"),
    ("- id: !custom thing\n", "yaml/syntax", 7, "!custom"),
    ("- id: !!map [1, 2]\n", "yaml/syntax", 7, "cannot mark a list"),
    ("- id: !!str [1, 2]\n", "yaml/syntax", 7, "cannot mark a list"),
    ("- id: !!seq {a: 1}\n", "yaml/syntax", 7, "cannot mark a mapping"),
])
def test_tags_outside_plain_json_like_data_are_refused_at_the_tag(text: str, code: str, column: int, words: str) -> None:
    diagnostic = only(text)
    assert where(diagnostic) == (code, 1, column) and words in diagnostic.message


def test_plain_tags_with_fitting_values_load() -> None:
    text = "a: !!int '12'\nb: !!float 3\nc: !!bool yes\nd: !!null ~\ne: !!str 12\ng: !!seq [1]\nh: !!map {k: v}\n"
    data, _ = load_yaml_with_positions(text, "ok.yaml")
    assert data == {"a": 12, "b": 3.0, "c": True, "d": None, "e": "12", "g": [1], "h": {"k": "v"}}
    assert isinstance(data["b"], float)


def test_timestamps_and_other_yaml_only_types_read_as_text() -> None:
    data, _ = load_yaml_with_positions("date: 2024-05-01\nwhen: 2001-12-14t21:59:43.10-05:00\nvalue: =\n", "ok.yaml")
    assert data == {"date": "2024-05-01", "when": "2001-12-14t21:59:43.10-05:00", "value": "="}


def test_a_4301_digit_integer_is_refused_without_converting_it() -> None:
    diagnostic = only("id: x\nsize: " + "9" * 4301 + "\n")
    assert where(diagnostic) == ("yaml/number_too_large", 2, 7) and "..." in diagnostic.message


def test_integers_are_bounded_to_64_bits_either_sign() -> None:
    largest = 2**63 - 1
    data, _ = load_yaml_with_positions(f"a: {largest}\nb: -{largest}\nc: 0x7fffffffffffffff\nd: 1:30\n", "ok.yaml")
    assert data == {"a": largest, "b": -largest, "c": largest, "d": 90}
    assert where(only(f"a: 1\nb: {largest + 1}\n")) == ("yaml/number_too_large", 2, 4)
    assert where(only("a: 0x8000000000000000\n")) == ("yaml/number_too_large", 1, 4)
    assert where(only("a: " + "1:" * 30 + "1\n")) == ("yaml/number_too_large", 1, 4)


@pytest.mark.parametrize("text", ["a: 0b_\n", "a: 0x_\n", "a: !!float 0x_\n"])
def test_integer_text_with_no_digits_is_refused(text: str) -> None:
    assert where(only(text)) == ("yaml/bad_value", 1, 4)


@pytest.mark.parametrize("value", [".inf", "-.inf", ".NaN", "1.0e+400", "!!float 1e999"])
def test_numbers_must_be_finite(value: str) -> None:
    text = f"a: 1\nb: {value}\n"
    if value.startswith("!!") or value == "1e999":
        text = f"a: 1\nb: {value.replace('1e999', '1.0e+999')}\n"
    assert where(only(text)) == ("yaml/not_finite", 2, 4)


def test_ordinary_floats_load() -> None:
    data, _ = load_yaml_with_positions("a: 1.5\nb: -2.5e+3\nc: 1:30.5\n", "ok.yaml")
    assert data == {"a": 1.5, "b": -2500.0, "c": 90.5} and all(math.isfinite(v) for v in data.values())


def test_every_bad_value_is_reported_not_only_the_first() -> None:
    diagnostics = refused("a: !!bool maybe\nb: .nan\nc: " + "7" * 80 + "\n")
    assert [where(d) for d in diagnostics] == [("yaml/bad_value", 1, 4), ("yaml/not_finite", 2, 4),
                                                ("yaml/number_too_large", 3, 4)]


@pytest.mark.parametrize("text, line, column", [("? [a, b]\n: 1\n", 1, 3), ("k: &k [1]\n*k : 2\n", 2, 1),
                                                ("{[a]: 1}\n", 1, 2)])
def test_lists_and_mappings_as_keys_are_refused(text: str, line: int, column: int) -> None:
    assert where(only(text)) == ("yaml/complex_key", line, column)


def test_a_second_document_is_refused_at_its_start() -> None:
    assert where(only("a: 1\n---\nb: 2\n")) == ("yaml/several_documents", 2, 1)


# ---------------------------------------------------------------- characters and positions
@pytest.mark.parametrize("character", ["\x01", "\x00", "\x1b", "\x7f", "\ud800"])
def test_characters_yaml_refuses_are_positioned(character: str) -> None:
    text = "id: ok\nname: 'café ☕ 😀'\nnote: ab" + character + "c\n"
    diagnostic = only(text)
    assert where(diagnostic) == ("yaml/bad_character", 3, 9)
    assert f"U+{ord(character):04X}" in diagnostic.message


@pytest.mark.parametrize("breaker", ["\u2028", "\u2029", "\x85", "\r"])
def test_lines_are_counted_by_newline_only(breaker: str) -> None:
    # YAML breaks lines at these too; positions, like the parser's and the editor's, do not.
    text = f"a: 'one{breaker}two'\nb: [1, 2]\nc: d: e\n"
    assert where(only(text)) == ("yaml/syntax", 3, 5)
    data, positions = load_yaml_with_positions(text.replace("c: d: e", "c: 3"), "ok.yaml")
    assert positions[("b", 1)] == (2, 8) and positions[("c",)] == (3, 1)


def test_positions_count_characters_not_bytes() -> None:
    _, positions = load_yaml_with_positions("name: 'éé😀'\nlist: ['ü', x]\n", "ok.yaml")
    assert positions[("list", 1)] == (2, 13)


def test_a_leading_byte_order_mark_keeps_columns_of_the_text_as_given() -> None:
    _, positions = load_yaml_with_positions("\ufeffa: 1\nb: [x, y]\n", "ok.yaml")
    assert positions[("a",)] == (1, 2) and positions[("b", 1)] == (2, 8)
    assert where(only("\ufeffa: 1\x01\n")) == ("yaml/bad_character", 1, 6)


def test_tabs_in_indentation_get_a_hint() -> None:
    diagnostic = only("id: a\n\tname: b\n")
    assert diagnostic.code == "yaml/syntax" and diagnostic.line == 2 and "tabs" in (diagnostic.hint or "")


# ---------------------------------------------------------------- empty files and sizes
@pytest.mark.parametrize("text", ["", "   \n", "# only a comment\n# and another\n", "\ufeff"])
def test_empty_documents_are_refused_where_data_is_required(text: str) -> None:
    assert load_yaml_with_positions(text, "e.yaml") == (None, {})
    diagnostic = only(text, empty_allowed=False)
    assert where(diagnostic) == ("yaml/empty", 1, 1)


def test_the_first_item_beyond_the_limit_is_where_the_error_points() -> None:
    text = "".join(f"- id: item_{i}\n  name: Item\n" for i in range(12))
    assert where(only(text, max_items=10)) == ("yaml/too_many_items", 21, 3)
    data, _ = load_yaml_with_positions(text, "ok.yaml", max_items=12)
    assert len(data) == 12


def test_too_many_values_are_refused_at_the_first_beyond() -> None:
    limits = InputLimits(max_yaml_nodes=50)
    text = "".join(f"k{i}: {i}\n" for i in range(30))  # one mapping, 60 keys and values
    assert where(only(text, limits=limits)) == ("yaml/too_many_nodes", 25, 6)


def test_a_text_larger_than_a_file_may_be_is_refused_before_parsing() -> None:
    limits = InputLimits(max_file_bytes=100)
    text = "".join(f"- item_{i:02d}\n" for i in range(20))  # 10 bytes a line
    assert where(only(text, limits=limits)) == ("content/too_large", 11, 1)
    # Measured in bytes: 40 two-byte letters on one line fit 100 bytes; 60 do not.
    load_yaml_with_positions("x: " + "é" * 40 + "\n", "ok.yaml", limits=limits)
    assert where(only("x: " + "é" * 60 + "\n", limits=limits)) == ("content/too_large", 1, 52)


def test_ten_megabytes_of_list_items_are_refused_quickly_and_small(tmp_path: Path) -> None:
    cost = measured(tmp_path, "yaml", "- {id: x, name: y}\n" * 560_000)
    assert [d[0] for d in cost["diagnostics"]] == ["content/too_large"]
    assert cost["cpu"] < 1.0 and cost["grown_mb"] < 100


def test_a_file_within_the_size_limit_but_full_of_values_is_refused_quickly(tmp_path: Path) -> None:
    cost = measured(tmp_path, "yaml", "x: [" + "1," * 200_000 + "1]\n")
    # The mapping, its key and the list are three values; item k (from 0) is the value 4 + k, at 5 + 2k.
    first_beyond = INPUT_LIMITS.max_yaml_nodes - 3
    assert cost["diagnostics"] == [["yaml/too_many_nodes", 1, 5 + 2 * first_beyond]]
    assert cost["cpu"] < 1.0 and cost["grown_mb"] < 100


# ---------------------------------------------------------------- both parsers agree
PARITY_CASES = [
    "a: 1\nb: [x, 'y', {c: d}]\n",
    alias_bomb(),
    "a: &a\n  b: [1, *a]\n",
    "x: " + "[" * 40 + "]" * 40 + "\n",
    "- id: !!bool maybe\n",
    "- id: !!binary aGVsbG8=\n",
    "name: 'éé😀'\nnote: ab\x01c\n",
    "a: 'one\u2028two'\nb: [1, 2]\nc: d: e\n",
    "a: 1\n---\nb: 2\n",
    "id: a\nname: A\nname: B\n",
    "? [a]\n: 1\n",
]


def outcome(text: str) -> Any:
    try:
        return load_yaml_with_positions(text, "p.yaml")
    except SchemaError as error:
        return [(d.code, d.line, d.column) for d in error.diagnostics]


def test_libyaml_and_pure_python_parsers_give_the_same_outcomes(monkeypatch: pytest.MonkeyPatch) -> None:
    if yaml_positions._LIBYAML_EVENTS is None:
        pytest.fail("libyaml is part of the project's environment (PyYAML wheels ship it)")
    with_libyaml = [outcome(text) for text in PARITY_CASES]
    monkeypatch.setattr(yaml_positions, "_EVENTS", yaml_positions._PURE_PYTHON_EVENTS)
    assert [outcome(text) for text in PARITY_CASES] == with_libyaml


# ---------------------------------------------------------------- any text
YAML_PIECES = ["a", "id", ":", ": ", " ", "  ", "\n", "- ", "[", "]", "{", "}", ",", "&x ", "*x", "&y ", "*y",
               "!!int ", "!!bool ", "!!float ", "!!timestamp ", "!x ", "<<: ", "'", '"', "\t", "# c", "1", "0x",
               "0b_", ".inf", "9" * 30, "\u2028", "\x85", "? ", "|", ">", "---", "...", "~", "\x00", "é", "\\",
               "%YAML 1.1\n", "\r", "\ufeff", "😀"]


@settings(max_examples=400, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=80), st.lists(st.sampled_from(YAML_PIECES), max_size=60).map("".join)))
def test_any_text_loads_or_is_refused_with_positions(text: str) -> None:
    try:
        load_yaml_with_positions(text, "any.yaml", max_items=5, empty_allowed=False)
    except SchemaError as error:
        assert error.diagnostics
        for diagnostic in error.diagnostics:
            assert diagnostic.line >= 1 and diagnostic.column >= 1, diagnostic
            assert diagnostic.line <= text.count("\n") + 1, diagnostic


def test_a_large_merged_mapping_is_copied_with_positions() -> None:
    """(What it costs is measured in a child process by the hostile catalogue:
    `a_large_merged_mapping` in tests/hostile/hostile_cases.py.)"""
    keys = "".join(f"  k{i}: {{v: {i}}}\n" for i in range(6_000))
    text = "base: &b\n" + keys + "copy:\n  <<: *b\n  own: 1\n"
    data, positions = load_yaml_with_positions(text, "merge.yaml")
    assert len(data["copy"]) == 6_001 and list(data["copy"])[:2] == ["k0", "k1"]
    assert positions[("copy", "k5")] == (6_003, 3)  # at the `<<`
    assert positions[("copy", "k5", "v")] == (7, 8)  # in the anchor's text


def test_a_problem_inside_an_anchor_merged_twice_is_reported_once() -> None:
    text = "base: &b {n: .nan}\none: {<<: *b}\ntwo: {<<: *b}\n"
    assert [where(d) for d in refused(text)] == [("yaml/not_finite", 1, 14)]
