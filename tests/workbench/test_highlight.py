"""Rule scripts as highlighted HTML driven by the language's own lexer, and the token rules the
browser's code editor colours with (held to that lexer)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from nexus_dsl.errors import Diagnostic
from nexus_dsl.workbench.highlight import editor_lexer, highlight_html, lex_with, token_spans

from .conftest import CONTENT

SCRIPT = '''# A comment <b>
influence loaded_dice "Loaded <Dice> & co" {
    param loaded_bonus = +SDS
    cost 1 cred
    roll check 4+
    requires x >= 2 and self.fighting
}
'''


# The kinds the base game declares (`kind influence ...`): keywords where the packs in view declare them.
BASE_KINDS = ("influence", "turning_point")


def _classes(source: str) -> dict[str, str]:
    return {source[start:end]: kind for start, end, kind in token_spans(source, BASE_KINDS)}


def _spans_without_kinds(source: str) -> list[tuple[str, str]]:
    return [(source[start:end], kind) for start, end, kind in token_spans(source)]


def test_tokens_are_classed_by_the_grammar() -> None:
    classes = _classes(SCRIPT)
    assert classes["# A comment <b>"] == "com"
    assert classes["influence"] == "kw" and classes["param"] == "kw" and classes["requires"] == "kw"
    assert classes["and"] == "kw" and classes["cost"] == "kw"
    assert classes["loaded_dice"] == "name" and classes["cred"] == "name"
    assert classes['"Loaded <Dice> & co"'] == "str"
    assert classes["+SDS"] == "sds" and classes["4+"] == "num" and classes["1"] == "num"
    assert classes[">="] == "op" and classes["{"] == "punct"


def test_spans_cover_every_character_once() -> None:
    source = open(CONTENT / "base" / "hazards" / "floor_saw.nexus").read()
    spans = token_spans(source)
    assert spans[0][0] == 0 and spans[-1][1] == len(source)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))


def test_lines_are_numbered_and_errors_shown_beneath_with_a_caret() -> None:
    diagnostic = Diagnostic("check/unknown_name", "unknown name `x` <here>", "f", 6, 14, 15, hint="did you mean `y`?")
    out = highlight_html(SCRIPT, [diagnostic, Diagnostic("content/x", "whole file & more")])
    assert out.count('class="nx-line"') == len(SCRIPT.split("\n"))
    assert '>6</span>' in out and 'data-error="1"' in out
    assert "unknown name `x` &lt;here&gt;" in out and "hint: did you mean `y`?" in out
    assert " " * 13 + "^" in out
    assert "whole file &amp; more" in out
    assert "<b>" not in out and "&lt;b&gt;" in out and "Loaded &lt;Dice&gt; &amp; co" in out


def test_unreadable_characters_are_marked_not_fatal() -> None:
    out = highlight_html("command x \"X\" { @@@ }\n$")
    assert out.count('class="nx-err"') == 4


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.lists(st.tuples(st.integers(-3, 30), st.integers(-3, 120), st.text(max_size=20)),
                                        max_size=4))
def test_never_raises_and_escapes_everything(source: str, problems: list) -> None:
    diagnostics = [Diagnostic("x/y", message, "f", line, column) for line, column, message in problems]
    out = highlight_html(source, diagnostics)
    text_only = html.unescape(re.sub(r"<[^>]+>", "", out))
    assert "<" not in re.sub(r"</?(div|span)( [^>]*)?>", "", out)  # only our own tags
    for character in source.replace("\n", "").replace("\r", ""):
        assert character in text_only


# ---------------------------------------------------------------- the browser editor's token rules
def _every_script() -> list[Path]:
    scripts = sorted(CONTENT.rglob("*.nexus"))
    assert len(scripts) > 40  # base, expansions and house rules
    return scripts


def test_the_editor_colours_every_content_script_exactly_as_the_grammar_lexes_it() -> None:
    lexer = editor_lexer("nexus")
    for path in _every_script():
        source = path.read_text()
        assert lex_with(lexer, source) == token_spans(source), path


def test_the_editor_rules_keep_lark_keyword_typing_and_declaration_kinds() -> None:
    spans = {SCRIPT[start:end]: kind for start, end, kind in lex_with(editor_lexer("nexus", BASE_KINDS), SCRIPT)}
    assert spans["cost"] == "kw" and spans["requires"] == "kw" and spans["influence"] == "kw"
    # A kind no pack in view declares is a plain name, in the editor as in the HTML view.
    plain = {SCRIPT[start:end]: kind for start, end, kind in lex_with(editor_lexer("nexus"), SCRIPT)}
    assert plain["influence"] == "name" == dict(_spans_without_kinds(SCRIPT))["influence"]
    assert spans["cred"] == "name" and spans["+SDS"] == "sds" and spans["4+"] == "num"
    # Unreadable characters are marked one by one, as the HTML view marks them.
    assert [kind for start, end, kind in lex_with(editor_lexer("nexus"), "x @@ y") if kind == "err"] == ["err", "err"]


def test_the_editor_rules_are_json_and_read_alike_by_javascript() -> None:
    """The rules travel to the browser as JSON and become JavaScript RegExps (no `u` flag): they
    must not use what only Python's `re` reads."""
    for language in ("nexus", "yaml"):
        lexer = editor_lexer(language)
        assert json.loads(json.dumps(lexer)) == lexer
        for rule in lexer["rules"]:
            pattern = rule["pattern"]
            assert not re.search(r"\(\?P|\\[AZ]|\(\?[aiLmsux]|\(\?<[!=]", pattern), pattern
            assert rule["cls"] in {"kw", "name", "num", "str", "sds", "com", "op", "punct", "key", "plain", "err"}


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.sampled_from(["nexus", "yaml"]))
def test_the_editor_tokeniser_covers_any_text_once_in_order(source: str, language: str) -> None:
    spans = lex_with(editor_lexer(language), source)
    assert "".join(source[start:end] for start, end, _ in spans) == source
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))


def test_yaml_data_items_are_coloured_by_keys_strings_numbers_and_levels() -> None:
    source = "- id: oily_magistrate  # a lanista\n  name: \"Oily Magistrate\"\n  bonus: +2SDS\n  coins: 3\n  house: true\n"
    spans = {source[start:end]: kind for start, end, kind in lex_with(editor_lexer("yaml"), source)}
    assert spans["id"] == "key" and spans["name"] == "key" and spans["coins"] == "key"
    assert spans['"Oily Magistrate"'] == "str" and spans["+2SDS"] == "sds" and spans["3"] == "num"
    assert spans["true"] == "kw" and spans["# a lanista"] == "com" and spans["oily_magistrate"] == "plain"
