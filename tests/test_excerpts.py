"""The excerpt under an error shows the line the error names, with the caret under its column.

Lines are counted by `\\n` only, as the parser and the YAML loader count them; characters that
`str.splitlines()` (or a terminal) would treat as line breaks or hide are shown as one visible
character each, so the caret stays aligned.
"""

from __future__ import annotations

import pytest

from nexus_dsl import errors
from nexus_dsl.errors import Diagnostic, NexusError, format_all
from nexus_dsl.schema import load_yaml_with_positions
from nexus_dsl.syntax.parser import parse
from support import record_calls

BREAKERS = {"U+2028": "\u2028", "U+2029": "\u2029", "NEL": "\x85", "VT": "\x0b", "FF": "\x0c", "FS": "\x1c", "CR": "\r"}


def excerpt(diagnostic: Diagnostic, source: str) -> tuple[str, str]:
    """The shown source line (without its gutter) and the caret line, aligned to it."""
    lines = diagnostic.format(source).splitlines()
    shown, caret = lines[1], lines[2]
    gutter = shown.index("| ") + 2
    assert caret.index("| ") + 2 == gutter
    return shown[gutter:], caret[gutter:]


def under_caret(diagnostic: Diagnostic, source: str) -> str:
    shown, caret = excerpt(diagnostic, source)
    start = caret.index("^")
    return shown[start:start + caret.count("^")]


@pytest.mark.parametrize("name", BREAKERS)
def test_the_excerpt_shows_the_line_the_parser_names(name: str) -> None:
    breaker = BREAKERS[name]
    source = f'# a note{breaker}that goes on\nrule broken "Broken" {{\n    param x = \n}}\n'
    with pytest.raises(NexusError) as caught:
        parse(source, "broken.nexus")
    diagnostic = caught.value.diagnostics[0]
    assert (diagnostic.line, diagnostic.column) == (4, 1)
    shown, caret = excerpt(diagnostic, source)
    assert shown == "}" and caret == "^"


@pytest.mark.parametrize("name", [n for n in BREAKERS if n not in ("VT", "FF", "FS")])  # YAML refuses those
def test_the_excerpt_shows_the_line_the_yaml_loader_names(name: str) -> None:
    source = f"id: x\nname: 'one{BREAKERS[name]}two'\nhazards: [a, b]\nnotes: a: b\n"
    with pytest.raises(NexusError) as caught:
        load_yaml_with_positions(source, "bad.yaml")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.line == 4
    shown, _ = excerpt(diagnostic, source)
    assert shown == "notes: a: b" and under_caret(diagnostic, source) == ":"


@pytest.mark.parametrize("name", BREAKERS)
def test_odd_characters_before_the_column_are_one_visible_character_each(name: str) -> None:
    source = f"first\nab{BREAKERS[name]}cd{BREAKERS[name]}\tTARGET rest\nlast\n"
    column = source.split("\n")[1].index("TARGET") + 1
    diagnostic = Diagnostic("test/x", "here", "f", 2, column, column + len("TARGET"))
    shown, _ = excerpt(diagnostic, source)
    assert under_caret(diagnostic, source) == "TARGET"
    assert BREAKERS[name] not in shown and shown.startswith("ab") and shown.endswith("TARGET rest")
    assert all(ch.isprintable() for ch in shown)


def test_null_and_escape_characters_cannot_hide_or_recolour_the_line() -> None:
    source = "a\x00b\x1b[31mred\x7f TARGET\n"
    diagnostic = Diagnostic("test/x", "here", "f", 1, source.index("TARGET") + 1)
    shown, _ = excerpt(diagnostic, source)
    assert shown == "a\u2400b\u241b[31mred\u2421 TARGET" and under_caret(diagnostic, source) == "T"


def test_bidirectional_controls_are_shown_not_obeyed() -> None:
    source = "text: '\u202eevil\u202c' TARGET\n"
    diagnostic = Diagnostic("test/x", "here", "f", 1, source.index("TARGET") + 1, source.index("TARGET") + 7)
    shown, _ = excerpt(diagnostic, source)
    assert "\u202e" not in shown and under_caret(diagnostic, source) == "TARGET"


def test_a_windows_line_ending_is_not_shown() -> None:
    source = "one\r\ntwo TARGET\r\nthree\r\n"
    diagnostic = Diagnostic("test/x", "here", "f", 2, 5, 11)
    shown, _ = excerpt(diagnostic, source)
    assert shown == "two TARGET" and under_caret(diagnostic, source) == "TARGET"


def test_tabs_still_expand_with_the_caret_following() -> None:
    source = "\t\tx = TARGET\n"
    diagnostic = Diagnostic("test/x", "here", "f", 1, 7, 13)
    shown, _ = excerpt(diagnostic, source)
    assert shown == "        x = TARGET" and under_caret(diagnostic, source) == "TARGET"


@pytest.mark.parametrize("at", [0, 5_000, 19_990])
def test_a_very_long_line_is_cut_around_the_caret(at: int) -> None:
    line = "x" * at + "TARGET" + "y" * (20_000 - at)
    diagnostic = Diagnostic("test/x", "here", "f", 1, at + 1, at + 7)
    shown, _ = excerpt(diagnostic, line + "\n")
    assert len(shown) <= 162 and under_caret(diagnostic, line) == "TARGET"
    assert shown.startswith("…") == (at > 100) and shown.endswith("…") == (at < 19_900)


def test_a_line_beyond_the_source_shows_no_excerpt() -> None:
    assert Diagnostic("test/x", "here", "f", 3, 1).format("one\u2028two\nthree\n") == "f:3:1: error: here"


def test_many_diagnostics_in_a_large_source_split_it_into_lines_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Formatting is linear in the diagnostics: the source is split once, not once per excerpt."""
    source = "".join(f"line {i}: some text here\n" for i in range(30_000))
    diagnostics = [Diagnostic("test/x", "here", "big.yaml", i * 10 + 1, 1, 5) for i in range(3_000)]
    splits = record_calls(monkeypatch, errors, "source_lines", lambda text, *rest, **named: len(text))
    errors._lines_of.cache_clear()
    text = format_all(diagnostics, {"big.yaml": source})
    assert splits == [len(source)]
    assert text.count("^^^^") == 3_000 and "| line 29990: some" in text
